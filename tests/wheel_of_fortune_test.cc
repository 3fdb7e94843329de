// Wheel of Fortune: scenario tests with scripted records and expected points, on the
// provisional board (data/boards/wheel-of-fortune.json: 4x4 cells at x, y 0..3, an all-field
// rim; segments clockwise fortuna, taxes, famine, storm, inquisition, plague with 1, 2, 1, 2,
// 1, 2 crown spaces; the pig starts on fortuna).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "playout.h"
#include "test_util.h"

using namespace carc;

namespace {

Record wof(const std::string& turns, int players = 2, const std::vector<std::string>& expansions = {}) {
  nlohmann::json j;
  j["format"] = "carcassonne-record/1";
  std::vector<std::string> names;
  for (int i = 0; i < players; ++i) names.push_back(std::string(1, char('A' + i)));
  j["setup"] = {{"players", names},
                {"tileset", "wheel-of-fortune"},
                {"expansions", expansions},
                {"seed", 1},
                {"draws", "scripted"}};
  j["turns"] = nlohmann::json::parse(turns);
  return parse_record(j.dump());
}

int count_kind(const Replay& r, const std::string& kind) {
  int n = 0;
  for (auto& e : r.events) n += e.kind == kind;
  return n;
}

const Game* wheel_game(int players = 2) {
  Rules r;
  r.players = players;
  r.tileset = "wheel-of-fortune";
  return Game::get(r);
}

}  // namespace

TEST(WheelOfFortune, TileSetAndBoardAreData) {
  const Game* g = wheel_game();
  EXPECT_EQ(g->total_tiles(), 72);  // no start tile: the board replaces it
  int icons = 0, sum[4] = {};
  for (int t = 0; t < g->num_types(); ++t)
    if (g->type(t).wheel) {
      icons += g->initial_counts()[t];
      sum[g->type(t).wheel] += g->initial_counts()[t];
    }
  EXPECT_EQ(icons, 19);
  EXPECT_EQ(sum[1], 7);
  EXPECT_EQ(sum[2], 6);
  EXPECT_EQ(sum[3], 6);
  EXPECT_GE(g->type_index("E@2"), 0);
  EXPECT_EQ(g->board_cells().size(), 16u);
  ASSERT_EQ(g->wheel().size(), 6u);
  EXPECT_EQ(g->wheel()[1].event, WheelEvent::Taxes);
  EXPECT_EQ(g->wheel()[1].crowns, 2);
  State s(g, 1);
  EXPECT_EQ(s.num_placed(), 16);
  EXPECT_EQ(s.pig(), 0);
  EXPECT_EQ(s.frontier_size(), 16);  // 4 places along each side of the board
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) EXPECT_GE(s.tile_at(x, y), 0);
  EXPECT_EQ(s.validate(), "");
}

TEST(WheelOfFortune, PigWrapsAroundToFortuna) {
  // D@3: fortuna -> storm (each player scores their supply: 7); F@3: storm -> fortuna,
  // wrapping around the wheel: B, the active player, scores 3.
  Replay r = replay(wof(R"([{"tile":"D@3","x":0,"y":-1,"rotation":0},{"tile":"F@3","x":2,"y":-1,"rotation":0}])"));
  EXPECT_EQ(r.state.pig(), 0);
  EXPECT_EQ(r.state.scores(), (std::vector<int>{7, 7 + 3}));
  EXPECT_EQ(count_kind(r, "storm"), 2);
  EXPECT_EQ(count_kind(r, "fortuna"), 1);
  // A tile without a number does not move the pig.
  Replay plain = replay(wof(R"([{"tile":"D","x":0,"y":-1,"rotation":0}])"));
  EXPECT_EQ(plain.state.pig(), 0);
  EXPECT_EQ(plain.state.scores(), (std::vector<int>{0, 0}));
}

TEST(WheelOfFortune, StormCountsOnlyTheSupply) {
  // A has a knight on the land, B a follower on a crown space: both have 6 in supply.
  Replay r = replay(wof(R"([
    {"tile":"E","x":0,"y":-1,"rotation":0,"meeple":"N"},
    {"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:fortuna:0"},
    {"tile":"D@3","x":2,"y":-1,"rotation":0}])"));
  EXPECT_EQ(r.state.scores(), (std::vector<int>{6, 6}));
  EXPECT_EQ(r.state.crown(0), 1);  // B stays on the fortuna crown (not scored: the pig is on storm)
  EXPECT_EQ(r.state.supply(1), 6);
}

TEST(WheelOfFortune, TaxesWithPennantsAndSeveralOwnKnights) {
  // One open city of 6 tiles with 2 pennants (M, Q): A has 2 knights in it, B 1.
  // Taxes: A 2 x (2 + 2) = 8, B 1 x (2 + 1) = 3. Knights stay.
  const std::string city = R"(
    {"tile":"E","x":0,"y":-1,"rotation":0,"meeple":"N"},
    {"tile":"E","x":2,"y":-1,"rotation":0,"meeple":"N"},
    {"tile":"E","x":1,"y":-1,"rotation":0,"meeple":"N"},
    {"tile":"M","x":0,"y":-2,"rotation":90},
    {"tile":"Q","x":1,"y":-2,"rotation":180},
    {"tile":"R","x":2,"y":-2,"rotation":180})";
  Replay before = replay(wof("[" + city + "]"));
  EXPECT_EQ(before.state.scores(), (std::vector<int>{0, 0}));
  const Feature& f = before.state.feature(before.state.followers()[0].slot);
  EXPECT_EQ(f.pennants, 2);
  EXPECT_EQ(f.count[0], 2);
  EXPECT_EQ(f.count[1], 1);
  Replay r = replay(wof("[" + city + R"(,{"tile":"A@1","x":0,"y":4,"rotation":0}])"));
  EXPECT_EQ(r.state.pig(), 1);
  EXPECT_EQ(r.state.scores(), (std::vector<int>{8, 3}));
  EXPECT_EQ(r.state.num_followers(), 3);
  EXPECT_EQ(count_kind(r, "taxes"), 2);
}

TEST(WheelOfFortune, FamineScoresEachFarmerPerCompletedCity) {
  // A's farmer is in the board's field, which touches two completed cities (north of the
  // board and west of it): 2 points. B's farmer touches one: 1 point. No majority, no x3.
  Replay r = replay(wof(R"([
    {"tile":"E","x":0,"y":-1,"rotation":0,"meeple":"Es"},
    {"tile":"E","x":0,"y":-2,"rotation":180},
    {"tile":"E","x":-1,"y":0,"rotation":270},
    {"tile":"D","x":-2,"y":0,"rotation":90,"meeple":"Ne"},
    {"tile":"B@2","x":1,"y":4,"rotation":0}])"));
  EXPECT_EQ(r.state.pig(), 2);
  EXPECT_EQ(r.state.scores(), (std::vector<int>{2, 1}));
  EXPECT_EQ(r.state.num_followers(), 2);  // farmers stay
  EXPECT_EQ(count_kind(r, "famine"), 2);
}

TEST(WheelOfFortune, InquisitionTwoPerMonk) {
  // A has two monks, B one: B@2 moves the pig to famine (no farmers), V@2 to inquisition.
  Replay r = replay(wof(R"([
    {"tile":"B","x":0,"y":4,"rotation":0,"meeple":"C"},
    {"tile":"A","x":1,"y":4,"rotation":0,"meeple":"C"},
    {"tile":"B@2","x":2,"y":4,"rotation":0,"meeple":"C"},
    {"tile":"V@2","x":3,"y":4,"rotation":270}])"));
  EXPECT_EQ(r.state.pig(), 4);
  EXPECT_EQ(r.state.scores(), (std::vector<int>{4, 2}));
  EXPECT_EQ(count_kind(r, "famine"), 0);
}

TEST(WheelOfFortune, PlagueEachPlayerInTurnOrderSkippingThoseWithoutLandFollowers) {
  // 3 players. A: a knight and (turn 4) a crown follower on plague:0; B: only a crown
  // follower; C: a knight. Turn 5 (B) moves the pig to the plague: B has nobody on the land
  // and is skipped, then C, then A take one back each (A's crown follower is immune).
  // Then the plague's crown spaces: A alone on a two-space segment: 6.
  const std::string setup = R"(
    {"tile":"E","x":0,"y":-1,"rotation":0,"meeple":"N"},
    {"tile":"B","x":0,"y":4,"rotation":0,"meeple":"crown:taxes:0"},
    {"tile":"E","x":1,"y":-1,"rotation":0,"meeple":"N"},
    {"tile":"D@3","x":-1,"y":0,"rotation":270,"meeple":"crown:plague:0"})";
  Replay r = replay(wof("[" + setup + R"(,
    {"tile":"V@2","x":3,"y":4,"rotation":0,"plague":[{"x":1,"y":-1,"at":"N"},{"x":0,"y":-1,"at":"N"}]}])",
                        3));
  // Turn 4 was a storm: 6 each (A had 6 in supply before deploying on the crown).
  EXPECT_EQ(r.state.scores(), (std::vector<int>{6 + 6, 6, 6}));
  EXPECT_EQ(r.state.num_followers(), 0);
  EXPECT_EQ(r.state.supply(0), 7);
  EXPECT_EQ(r.state.supply(1), 6);  // B's crown follower on taxes stays
  EXPECT_EQ(r.state.supply(2), 7);
  // The record round trip keeps the plague entries.
  Record again = parse_record(record_to_json(record_of(r.state, {"A", "B", "C"}, true)));
  EXPECT_EQ(again.turns.back().plague.size(), 2u);
  EXPECT_TRUE(replay(again).state == r.state);

  // Through the game-state API: the Plague's decisions belong to C, then A.
  State s = replay(wof("[" + setup + "]", 3)).state;
  ASSERT_TRUE(s.is_chance());
  s.apply_draw(s.game().type_index("V@2"));
  ASSERT_EQ(s.phase(), Phase::Plague);
  EXPECT_EQ(s.turn_player(), 1);
  EXPECT_EQ(s.current_player(), 2);
  std::vector<Move> moves;
  s.legal_moves(moves);
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0].kind, MoveKind::Plague);
  EXPECT_NE(s.check_move(Move{}), "");  // the tile cannot be placed before the Plague is over
  s.apply(moves[0]);
  EXPECT_EQ(s.current_player(), 0);
  s.legal_moves(moves);
  ASSERT_EQ(moves.size(), 1u);  // only the knight: the crown follower is immune
  s.apply(moves[0]);
  EXPECT_EQ(s.phase(), Phase::Place);
  EXPECT_EQ(s.current_player(), 1);
  EXPECT_EQ(s.score(0), 12);
  // A state JSON taken mid-Plague restores the same state.
  State mid = replay(wof("[" + setup + "]", 3)).state;
  mid.apply_draw(mid.game().type_index("V@2"));
  mid.legal_moves(moves);
  mid.apply(moves[0]);
  EXPECT_TRUE(state_from_json(state_to_json(mid)) == mid);
}

TEST(WheelOfFortune, FollowerTakenBackByThePlagueCanBeDeployedInTheSameTurn) {
  // W-8b. A puts all 7 followers on the land (3 knights on E north of the board, 4 monks on
  // B and A tiles south of it); B only places tiles (U roads west and east of the board) and
  // on turn 14 D@3 moves the pig to storm (A's supply is empty: A 0, B 7). On turn 15 A's own
  // V@2 moves it on to the plague: A takes back the knight at (0,-1) (B has nobody on the
  // land and is skipped). That follower is in A's supply at once, so A may deploy it on V@2.
  const std::string setup = R"(
    {"tile":"E","x":0,"y":-1,"rotation":0,"meeple":"N"},
    {"tile":"U","x":-1,"y":0,"rotation":0},
    {"tile":"E","x":1,"y":-1,"rotation":0,"meeple":"N"},
    {"tile":"U","x":-1,"y":1,"rotation":0},
    {"tile":"E","x":2,"y":-1,"rotation":0,"meeple":"N"},
    {"tile":"U","x":-1,"y":2,"rotation":0},
    {"tile":"B","x":3,"y":-1,"rotation":0,"meeple":"C"},
    {"tile":"U","x":-1,"y":3,"rotation":0},
    {"tile":"B","x":0,"y":4,"rotation":0,"meeple":"C"},
    {"tile":"U","x":4,"y":0,"rotation":0},
    {"tile":"B","x":1,"y":4,"rotation":0,"meeple":"C"},
    {"tile":"U","x":4,"y":1,"rotation":0},
    {"tile":"A","x":2,"y":4,"rotation":0,"meeple":"C"},
    {"tile":"D@3","x":4,"y":2,"rotation":90})";
  State s = replay(wof("[" + setup + "]")).state;
  ASSERT_TRUE(s.is_chance());
  EXPECT_EQ(s.turn_player(), 0);
  EXPECT_EQ(s.pig(), 3);  // storm
  EXPECT_EQ(s.supply(0), 0);
  EXPECT_EQ(s.supply(1), 7);
  EXPECT_EQ(s.scores(), (std::vector<int>{0, 7}));
  EXPECT_EQ(s.num_followers(), 7);

  const Game& g = s.game();
  s.apply_draw(g.type_index("V@2"));
  EXPECT_EQ(s.pig(), 5);  // plague
  ASSERT_EQ(s.phase(), Phase::Plague);
  EXPECT_EQ(s.current_player(), 0);  // the active player decides first
  std::vector<Move> moves;
  s.legal_moves(moves);
  EXPECT_EQ(moves.size(), 7u);  // any of A's 7 land followers
  auto knight = std::find_if(moves.begin(), moves.end(), [](const Move& m) { return m.x == 0 && m.y == -1; });
  ASSERT_NE(knight, moves.end());
  s.apply(*knight);
  // B has nobody on the land: the Plague is over and A places V@2, with 1 follower in supply.
  ASSERT_EQ(s.phase(), Phase::Place);
  EXPECT_EQ(s.current_player(), 0);
  EXPECT_EQ(s.supply(0), 1);
  EXPECT_EQ(s.num_followers(), 6);

  // V@2 at (4,3) rotated 180 (road from D@3 curving east; field against the board): the legal
  // moves there include a follower on the new tile and one on a crown space.
  s.legal_moves(moves);
  int on_tile = 0, on_crown = 0, without = 0;
  for (auto& m : moves) {
    ASSERT_EQ(m.kind, MoveKind::Place);
    if (m.x != 4 || m.y != 3 || m.rot != 2) continue;
    if (m.crown())
      ++on_crown;
    else if (m.meeple >= 0)
      ++on_tile;
    else
      ++without;
  }
  EXPECT_EQ(without, 1);
  EXPECT_GT(on_tile, 0);
  EXPECT_GT(on_crown, 0);
  auto deploy = std::find_if(moves.begin(), moves.end(), [](const Move& m) {
    return m.x == 4 && m.y == 3 && m.rot == 2 && m.meeple >= 0 && !m.crown();
  });
  ASSERT_NE(deploy, moves.end());
  EXPECT_EQ(s.check_move(*deploy), "");
  const Move played = *deploy;
  s.apply(played);
  EXPECT_EQ(s.supply(0), 0);
  EXPECT_EQ(s.num_followers(), 7);
  bool on_new_tile = false;
  for (int i = 0; i < s.num_followers(); ++i) {
    const Follower& f = s.followers()[i];
    const PlacedTile& P = s.placed(s.slot_tile(f.slot));
    if (P.x == 4 && P.y == 3) {
      on_new_tile = true;
      EXPECT_EQ(f.player, 0);
      EXPECT_EQ(s.slot_segment(f.slot), played.meeple);
    }
  }
  EXPECT_TRUE(on_new_tile);
  EXPECT_EQ(s.validate(), "");

  // The same turn as a record (plague entry, then the deployment) replays to the same state.
  Record back = parse_record(record_to_json(record_of(s, {"A", "B"}, true)));
  ASSERT_EQ(back.turns.size(), 15u);
  EXPECT_EQ(back.turns.back().plague.size(), 1u);
  EXPECT_FALSE(back.turns.back().meeple.empty());
  EXPECT_TRUE(replay(back).state == s);
}

TEST(WheelOfFortune, PlagueRecordErrors) {
  const std::string setup = R"(
    {"tile":"E","x":0,"y":-1,"rotation":0,"meeple":"N"},
    {"tile":"B","x":0,"y":4,"rotation":0,"meeple":"crown:plague:1"},
    {"tile":"D@3","x":-1,"y":0,"rotation":270})";
  // Turn 3 moves the pig to storm; turn 4 (B) to the plague: B has only a crown follower and
  // is skipped, A must take back the knight.
  auto run = [&](const std::string& last) { return replay(wof("[" + setup + "," + last + "]")); };
  EXPECT_NO_THROW(run(R"({"tile":"V@2","x":3,"y":4,"rotation":0,"plague":[{"x":0,"y":-1,"at":"N"}]})"));
  try {
    run(R"({"tile":"V@2","x":3,"y":4,"rotation":0})");
    FAIL() << "missing plague entry accepted";
  } catch (const RecordError& e) {
    EXPECT_EQ(e.turn(), 4);
    EXPECT_NE(std::string(e.what()).find("plague"), std::string::npos) << e.what();
  }
  EXPECT_THROW(run(R"({"tile":"V@2","x":3,"y":4,"rotation":0,"plague":[{"at":"crown:plague:1"}]})"), RecordError);
  EXPECT_THROW(run(R"({"tile":"V@2","x":3,"y":4,"rotation":0,"plague":[{"x":0,"y":-1,"at":"N"},{"x":0,"y":-1,"at":"N"}]})"),
               RecordError);
  EXPECT_THROW(run(R"({"tile":"V","x":3,"y":4,"rotation":0,"plague":[{"x":0,"y":-1,"at":"N"}]})"), RecordError);
}

TEST(WheelOfFortune, CrownScoringInAllThreeCases) {
  // One-space segment (fortuna): 3, on top of the Fortuna event's 3 for the active player.
  Replay one = replay(wof(R"([
    {"tile":"B","x":0,"y":4,"rotation":0,"meeple":"crown:fortuna:0"},
    {"tile":"D@3","x":-1,"y":0,"rotation":270},
    {"tile":"F@3","x":3,"y":4,"rotation":0}])"));
  EXPECT_EQ(one.state.scores(), (std::vector<int>{6 + 3 + 3, 7}));
  EXPECT_EQ(one.state.crown(0), -1);
  EXPECT_EQ(count_kind(one, "crown"), 1);
  // Two-space segment (storm), one follower: 6.
  Replay alone = replay(wof(R"([
    {"tile":"B","x":0,"y":4,"rotation":0,"meeple":"crown:storm:0"},
    {"tile":"D@3","x":-1,"y":0,"rotation":270}])"));
  EXPECT_EQ(alone.state.scores(), (std::vector<int>{6 + 6, 7}));
  EXPECT_EQ(alone.state.supply(0), 7);
  // Two-space segment, both taken by the same player: 3 + 3.
  Replay both = replay(wof(R"([
    {"tile":"B","x":0,"y":4,"rotation":0,"meeple":"crown:storm:0"},
    {"tile":"B","x":1,"y":4,"rotation":0},
    {"tile":"E","x":0,"y":-1,"rotation":0,"meeple":"crown:storm:1"},
    {"tile":"D@3","x":-1,"y":0,"rotation":270}])"));
  EXPECT_EQ(both.state.scores(), (std::vector<int>{5 + 3 + 3, 7}));
  EXPECT_EQ(count_kind(both, "crown"), 2);
  // Crown followers in other segments stay; at the end they score nothing (W-10).
  Replay fin = replay(wof(R"([{"tile":"B","x":0,"y":4,"rotation":0,"meeple":"crown:taxes:1"}])"), true);
  EXPECT_EQ(fin.state.scores(), (std::vector<int>{0, 0}));
}

TEST(WheelOfFortune, CrownSpaceRules) {
  // An occupied crown space cannot take a second follower; a crown placement is instead of,
  // not in addition to, a follower on the tile; the followers used there leave the supply.
  EXPECT_THROW(replay(wof(R"([
    {"tile":"B","x":0,"y":4,"rotation":0,"meeple":"crown:fortuna:0"},
    {"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:fortuna:0"}])")),
               RecordError);
  EXPECT_THROW(replay(wof(R"([{"tile":"B","x":0,"y":4,"rotation":0,"meeple":"crown:fortuna:1"}])")), RecordError);
  EXPECT_THROW(replay(wof(R"([{"tile":"B","x":0,"y":4,"rotation":0,"meeple":"crown:nowhere:0"}])")), RecordError);
  // Legal moves offer every free crown space next to each placement (9 spaces).
  State s(wheel_game(), 3);
  s.apply_draw(s.game().type_index("B"));
  std::vector<Move> moves;
  s.legal_moves(moves);
  int crowns = 0, with_monk = 0;
  for (auto& m : moves) {
    crowns += m.crown();
    with_monk += m.meeple >= 0 && !m.crown();
  }
  EXPECT_EQ(crowns, 9 * (moves.size() / (1 + 2 + 9)));  // per place: nothing, monk, field, 9 crowns
  EXPECT_EQ(with_monk * 9, 2 * crowns);
}

TEST(WheelOfFortune, TileAgainstTheBoardJoinsItsFieldAndCountsItsCells) {
  // A farmer on a tile against the board is in the board's field; a monastery next to the
  // board counts the board's cells as neighbours.
  Replay r = replay(wof(R"([
    {"tile":"B","x":-1,"y":1,"rotation":0,"meeple":"C"},
    {"tile":"E","x":0,"y":-1,"rotation":0,"meeple":"Es"},
    {"tile":"E","x":0,"y":-2,"rotation":180}])"),
                    true);
  // End: monastery (-1,1) with itself and 3 board cells (0,0),(0,1),(0,2): 4. Farm: the
  // board's field touches the completed city north of (0,-1): 3.
  EXPECT_EQ(r.state.scores(), (std::vector<int>{4, 3}));
  // The farmer's field includes the board.
  State s = replay(wof(R"([{"tile":"E","x":0,"y":-1,"rotation":0,"meeple":"Es"}])")).state;
  const PlacedTile& cell = s.placed(s.tile_at(2, 2));
  EXPECT_EQ(s.root(cell.half_slot[0]), s.root(s.followers()[0].slot));
  // The board's cells are not turns: the record starts with the first attached tile.
  Record rec = record_of(s, {}, true);
  ASSERT_EQ(rec.turns.size(), 1u);
  EXPECT_EQ(rec.turns[0].tile, "E");
  EXPECT_FALSE(rec.start.has_value());
}

TEST(WheelOfFortune, FortuneTellerChoosesAWheelTileBeforePlacing) {
  // With fortune tellers a player draws several tiles; choosing a wheel tile is a decision of
  // its own (the wheel turns before placement, T-9); other tiles are placed directly.
  Rules rules;
  rules.tileset = "wheel-of-fortune";
  rules.fortune_teller = true;
  const Game* g = Game::get(rules);
  // A places a fortune teller on a tent (FT01, all field) next to the board.
  Record rec = wof(R"([{"tile":"FT01","x":0,"y":4,"rotation":0,"meeple":"C"},{"tile":"B","x":1,"y":4,"rotation":0}])", 2,
                   {"fortune-teller"});
  State s = replay(rec).state;
  ASSERT_EQ(s.draw_target(), 2);
  s.apply_draw(g->type_index("D@3"));
  s.apply_draw(g->type_index("U"));
  std::vector<Move> moves;
  s.legal_moves(moves);
  int choose = 0, place_u = 0;
  for (auto& m : moves) {
    choose += m.kind == MoveKind::Choose;
    place_u += m.kind == MoveKind::Place;
    if (m.kind == MoveKind::Place) EXPECT_EQ(m.choice, 1);
  }
  EXPECT_EQ(choose, 1);
  EXPECT_GT(place_u, 0);
  EXPECT_EQ(s.pig(), 0);
  for (auto& m : moves)
    if (m.kind == MoveKind::Choose) {
      s.apply(m);
      break;
    }
  EXPECT_EQ(s.pig(), 3);  // storm: A has 6 in supply (a fortune teller on the tent), B 7
  EXPECT_EQ(s.scores(), (std::vector<int>{6, 7}));
  s.legal_moves(moves);
  for (auto& m : moves) {
    EXPECT_EQ(m.kind, MoveKind::Place);
    EXPECT_EQ(m.choice, 0);
  }
  // The record of the turn names both drawn tiles and replays the choice.
  s.apply(moves[0]);
  Record back = parse_record(record_to_json(record_of(s, {"A", "B"}, true)));
  EXPECT_EQ(back.turns.back().drawn.size(), 2u);
  EXPECT_TRUE(replay(back).state == s);
}

TEST(WheelOfFortune, FestivalTakeBackFromACrownSpace) {
  // F-4: a festival tile may take a follower back from a crown space; F-6: instead of a
  // deployment (on the tile or on a crown).
  Rules rules;
  rules.tileset = "wheel-of-fortune";
  rules.festival = true;
  const Game* g = Game::get(rules);
  Replay r = replay(wof(R"([
    {"tile":"B","x":0,"y":4,"rotation":0,"meeple":"crown:taxes:0"},
    {"tile":"B","x":1,"y":4,"rotation":0}])",
                        2, {"festival"}));
  State s = r.state;
  int fest = -1;
  for (int t = 0; t < g->num_types(); ++t)
    if (g->type(t).festival && s.bag_count(t) && fest < 0) fest = t;
  ASSERT_GE(fest, 0);
  s.apply_draw(fest);
  std::vector<Move> moves;
  s.legal_moves(moves);
  bool crown_back = false;
  for (auto& m : moves) {
    EXPECT_FALSE(m.crown() && m.ret >= 0);
    if (m.ret == kCrownBase + 2) crown_back = true;  // taxes is segment 1: space 2
  }
  ASSERT_TRUE(crown_back);
  for (auto& m : moves)
    if (m.ret == kCrownBase + 2) {
      s.apply(m);
      break;
    }
  EXPECT_EQ(s.crown(2), -1);
  EXPECT_EQ(s.supply(0), 7);
  Record back = parse_record(record_to_json(record_of(s, {"A", "B"}, true)));
  ASSERT_TRUE(back.turns.back().ret.has_value());
  EXPECT_EQ(back.turns.back().ret->at, "crown:taxes:0");
  EXPECT_TRUE(replay(back).state == s);
}

TEST(WheelOfFortune, RandomGamesWithEveryExpansion) {
  for (int mask = 0; mask < 8; ++mask) {
    Rules rules;
    rules.tileset = "wheel-of-fortune";
    rules.players = 2 + mask % 4;
    rules.festival = mask & 1;
    rules.fortune_teller = mask & 2;
    rules.fruit_trees = mask & 4;
    const Game* g = Game::get(rules);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      State s(g, seed);
      Rng rng(seed);
      std::vector<Move> moves;
      int plague = 0, choose = 0, crowns = 0;
      while (!s.is_terminal()) {
        if (s.is_chance()) {
          s.draw_random();
          continue;
        }
        s.legal_moves(moves);
        ASSERT_FALSE(moves.empty());
        const Move m = moves[rng.below(uint32_t(moves.size()))];
        plague += m.kind == MoveKind::Plague;
        choose += m.kind == MoveKind::Choose;
        crowns += m.crown();
        if (m.kind == MoveKind::Plague) EXPECT_EQ(s.current_player(), s.plague_player());
        s.apply(m);
      }
      EXPECT_EQ(s.validate(), "");
      EXPECT_GT(crowns, 0);
      Replay rp = replay(parse_record(record_to_json(record_of(s, {}, false))));
      EXPECT_TRUE(rp.state == s) << rules.to_string() << " seed " << seed;
    }
  }
}
