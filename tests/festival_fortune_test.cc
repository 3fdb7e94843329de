// The Festival and the Fortune Teller: scenario tests with expected points.
#include <gtest/gtest.h>

#include <algorithm>

#include "playout.h"
#include "test_util.h"

using namespace carc;
using test::play;
using test::scenario;

namespace {
const std::vector<std::string> kFestival = {"festival"};
const std::vector<std::string> kFortune = {"fortune-teller"};
}  // namespace

// ---- The Festival ----

TEST(Festival, DeployingOnAFestivalTileWorksAsUsual) {
  auto turns = R"([{"tile":"FE06","x":-1,"y":0,"rotation":0,"meeple":"E"}])";
  Replay r = play(scenario(turns, 2, "", kFestival), true);
  EXPECT_EQ(r.state.scores(), (std::vector<int>{2, 0}));  // open road J-D: 2 tiles at the end
}

TEST(Festival, TakingBackAFarmer) {
  auto turns = R"([
    {"tile":"U","x":1,"y":0,"rotation":90,"meeple":"Nw"},
    {"tile":"E","x":0,"y":-1,"rotation":180},
    {"tile":"FE06","x":-1,"y":0,"rotation":0,"return":{"x":1,"y":0,"at":"Nw"}}])";
  Replay r = play(scenario(turns, 2, "", kFestival));
  EXPECT_EQ(r.state.supply(0), 7);
  EXPECT_EQ(r.state.num_followers(), 0);
  // Without the take-back the farmer would score the completed city at the end.
  Replay kept = play(scenario(R"([
    {"tile":"U","x":1,"y":0,"rotation":90,"meeple":"Nw"},
    {"tile":"E","x":0,"y":-1,"rotation":180},
    {"tile":"FE06","x":-1,"y":0,"rotation":0}])", 2, "", kFestival), true);
  EXPECT_EQ(kept.state.scores(), (std::vector<int>{3, 0}));
  EXPECT_EQ(play(scenario(turns, 2, "", kFestival), true).state.scores(), (std::vector<int>{0, 0}));
}

TEST(Festival, TakingBackAFollowerFromAFeatureTheSameTileCompletes) {
  // A's knight in the M city; A's festival tile completes it and takes the knight back
  // first (F-3): the city scores nobody.
  auto base = std::string(R"([
    {"tile":"M","x":0,"y":-1,"rotation":90,"meeple":"S"},
    {"tile":"U","x":1,"y":0,"rotation":90},
    {"tile":"FE06","x":1,"y":-1,"rotation":270)");
  Replay taken = play(scenario(base + R"(,"return":{"x":0,"y":-1,"at":"E"}}])", 2, "", kFestival));
  EXPECT_EQ(taken.state.scores(), (std::vector<int>{0, 0}));
  EXPECT_EQ(taken.state.supply(0), 7);
  Replay scored = play(scenario(base + "}]", 2, "", kFestival));
  EXPECT_EQ(scored.state.scores(), (std::vector<int>{8, 0}));  // 3 tiles + 1 pennant, doubled
}

TEST(Festival, NeitherDeployNorReturn) {
  auto turns = R"([{"tile":"U","x":1,"y":0,"rotation":90,"meeple":"Nw"},
                   {"tile":"FE06","x":-1,"y":0,"rotation":0}])";
  Replay r = play(scenario(turns, 2, "", kFestival));
  EXPECT_EQ(r.state.supply(0), 6);
  EXPECT_EQ(r.state.supply(1), 7);
}

TEST(Festival, OnlyOwnFollowersAndOnlyOnFestivalTiles) {
  // B cannot take back A's farmer.
  EXPECT_THROW(play(scenario(R"([{"tile":"U","x":1,"y":0,"rotation":90,"meeple":"Nw"},
      {"tile":"FE06","x":-1,"y":0,"rotation":0,"return":{"x":1,"y":0,"at":"Nw"}}])", 2, "", kFestival)),
               RecordError);
  // A plain tile gives no take-back.
  EXPECT_THROW(play(scenario(R"([{"tile":"U","x":1,"y":0,"rotation":90,"meeple":"Nw"},
      {"tile":"E","x":0,"y":-1,"rotation":180},
      {"tile":"J","x":-1,"y":0,"rotation":0,"return":{"x":1,"y":0,"at":"Nw"}}])", 2, "", kFestival)),
               RecordError);
}

TEST(Festival, LegalMovesOfferEveryTakeBack) {
  Record r = scenario(R"([{"tile":"U","x":1,"y":0,"rotation":90,"meeple":"Nw"},
      {"tile":"E","x":0,"y":-1,"rotation":180}])", 2, "", kFestival);
  State s = play(r).state;
  const int fe = s.game().type_index("FE06");
  s.apply_draw(fe);
  std::vector<Move> moves;
  s.legal_moves(moves);
  int returns = 0, placements = 0;
  for (auto& m : moves) {
    returns += m.ext.takes_back();
    placements += m.meeple < 0 && !m.ext.takes_back();
  }
  EXPECT_GT(placements, 0);
  EXPECT_EQ(returns, placements);  // one own follower on the board: one take-back per placement
}

// ---- The Fortune Teller ----

namespace {
// A fortune teller on FT01 at (0,1); its four sides get filled by turns 2..5.
std::string tent_game(bool owner_completes) {
  std::string t = R"([
    {"tile":"FT01","x":0,"y":1,"rotation":0,"meeple":"C"},
    {"tile":"B","x":1,"y":1,"rotation":0},
    {"drawn":["B","V"],"tile":"B","x":-1,"y":1,"rotation":0},)";
  if (owner_completes)
    t += R"({"tile":"E","x":0,"y":-1,"rotation":180},
            {"drawn":["V","B"],"tile":"B","x":0,"y":2,"rotation":0}])";
  else
    t += R"({"tile":"B","x":0,"y":2,"rotation":0}])";
  return t;
}
}  // namespace

TEST(FortuneTeller, TentCompletedByAnotherPlayer) {
  Replay r = play(scenario(tent_game(false), 2, "", kFortune));
  EXPECT_EQ(r.after_turn[2], (std::vector<int>{0, 0}));
  EXPECT_EQ(r.state.scores(), (std::vector<int>{0, 3}));  // the completer scores 3
  EXPECT_EQ(r.state.supply(0), 7);                        // the fortune teller goes home
  EXPECT_EQ(r.state.mod<FortuneTellerBlock>().tellers(0), 0);
  EXPECT_EQ(r.events.back().kind, "tent");
}

TEST(FortuneTeller, TentCompletedByItsOwner) {
  Replay r = play(scenario(tent_game(true), 2, "", kFortune));
  EXPECT_EQ(r.state.scores(), (std::vector<int>{3, 0}));
  EXPECT_EQ(r.state.supply(0), 7);
}

TEST(FortuneTeller, OtherDrawnTilesGoBackToTheBag) {
  Replay r = play(scenario(tent_game(true), 2, "", kFortune));
  const int v = r.state.game().type_index("V");
  EXPECT_EQ(r.state.bag_count(v), 9);  // drawn twice, returned twice
  // The record written back keeps the 'drawn' lists.
  Record again = record_of(r.state, {"A", "B"}, true);
  EXPECT_EQ(again.turns[2].drawn, (std::vector<std::string>{"B", "V"}));
  EXPECT_TRUE(again.turns[1].drawn.empty());
}

TEST(FortuneTeller, DrawCountMustMatch) {
  // With one fortune teller A draws 2 tiles: a turn that lists one is rejected.
  try {
    play(scenario(R"([{"tile":"FT01","x":0,"y":1,"rotation":0,"meeple":"C"},
        {"tile":"B","x":1,"y":1,"rotation":0},
        {"tile":"B","x":-1,"y":1,"rotation":0}])", 2, "", kFortune));
    FAIL();
  } catch (const RecordError& e) {
    EXPECT_EQ(e.turn(), 3);
    EXPECT_NE(std::string(e.what()).find("draws 2 tiles"), std::string::npos) << e.what();
  }
}

TEST(FortuneTeller, TentNotCompletedScoresNothingAtTheEnd) {
  Replay r = play(scenario(R"([{"tile":"FT01","x":0,"y":1,"rotation":0,"meeple":"C"}])", 2, "", kFortune), true);
  EXPECT_EQ(r.state.scores(), (std::vector<int>{0, 0}));
}

TEST(FortuneTeller, AtMostTwoFortuneTellers) {
  auto base = std::string(R"([
    {"tile":"FT01","x":0,"y":1,"rotation":0,"meeple":"C"},
    {"tile":"E","x":0,"y":-1,"rotation":180},
    {"drawn":["FT02","V"],"tile":"FT02","x":1,"y":1,"rotation":0,"meeple":"C"},
    {"tile":"U","x":1,"y":0,"rotation":90},
    {"drawn":["FT03","B","B"],"tile":"FT03","x":-1,"y":1,"rotation":0)");
  try {
    play(scenario(base + R"(,"meeple":"C"}])", 2, "", kFortune));
    FAIL();
  } catch (const RecordError& e) {
    EXPECT_NE(std::string(e.what()).find("already has 2 fortune tellers"), std::string::npos) << e.what();
  }
  Replay r = play(scenario(base + R"(,"meeple":"En"}])", 2, "", kFortune));
  EXPECT_EQ(r.state.mod<FortuneTellerBlock>().tellers(0), 2);
  EXPECT_EQ(r.state.supply(0), 4);
}

TEST(FortuneTeller, ChoosingAmongDrawnTilesIsPartOfTheMove) {
  Record rec = scenario(R"([{"tile":"FT01","x":0,"y":1,"rotation":0,"meeple":"C"},
      {"tile":"E","x":0,"y":-1,"rotation":180}])", 2, "", kFortune);
  State s = play(rec).state;
  EXPECT_EQ(s.draw_target(), 2);
  s.apply_draw(s.game().type_index("B"));
  EXPECT_TRUE(s.is_chance());
  s.apply_draw(s.game().type_index("U"));
  ASSERT_FALSE(s.is_chance());
  std::vector<Move> moves;
  s.legal_moves(moves);
  bool b = false, c = false;
  for (auto& m : moves) (m.choice == 0 ? b : c) = true;
  EXPECT_TRUE(b && c);
}

namespace {
// T-8 setup: start B (all field) with A's fortune teller on FT01 (all field) below it and B's
// B tile east of it. Every frontier edge is a field edge, so C (city on all four sides) and
// X (road on all four sides) fit nowhere, while any tile with a field edge does.
State all_field_frontier() {
  Record rec = scenario(R"([{"tile":"FT01","x":0,"y":1,"rotation":0,"meeple":"C"},
      {"tile":"B","x":1,"y":0,"rotation":0}])",
                        2, "B", kFortune);
  State s = play(rec).state;
  EXPECT_TRUE(s.is_chance());
  EXPECT_EQ(s.turn_player(), 0);
  EXPECT_EQ(s.draw_target(), 2);
  return s;
}
}  // namespace

TEST(FortuneTeller, NoDrawnTilePlaceableAllLeaveTheGameAndAsManyAreDrawnAgain) {
  // T-8 / B-5: A draws two tiles and neither has a legal place: both leave the game (not back
  // into the bag) and A draws two tiles again.
  State s = all_field_frontier();
  const Game& g = s.game();
  const int c = g.type_index("C"), x = g.type_index("X"), e = g.type_index("E"), v = g.type_index("V");
  ASSERT_FALSE(s.has_placement(c));
  ASSERT_FALSE(s.has_placement(x));
  ASSERT_TRUE(s.has_placement(e));
  ASSERT_TRUE(s.has_placement(v));
  const int bag = s.bag_size(), ndraws = int(s.draws().size()), v_before = s.bag_count(v);
  ASSERT_EQ(s.bag_count(c), 1);
  ASSERT_EQ(s.bag_count(x), 1);

  EXPECT_TRUE(s.apply_draw(c));  // the first of two: nothing decided yet
  EXPECT_TRUE(s.is_chance());
  EXPECT_EQ(s.num_drawn(), 1);
  EXPECT_FALSE(s.apply_draw(x));  // the second: neither fits, both discarded
  EXPECT_TRUE(s.is_chance());
  EXPECT_EQ(s.turn_player(), 0);  // still A's turn, nothing placed
  EXPECT_EQ(s.turn(), 2);
  EXPECT_EQ(s.num_drawn(), 0);
  EXPECT_EQ(s.draw_target(), 2);  // the same number again
  ASSERT_EQ(int(s.draws().size()), ndraws + 2);
  for (int i = ndraws; i < ndraws + 2; ++i) {
    EXPECT_EQ(s.draws()[i].fate, Fate::Discarded);
    EXPECT_EQ(s.draws()[i].turn, 3);
  }
  EXPECT_EQ(s.bag_count(c), 0);  // out of the game, not returned
  EXPECT_EQ(s.bag_count(x), 0);
  EXPECT_EQ(s.bag_size(), bag - 2);

  // The new draw is again two tiles: after one the player is still at a chance node.
  EXPECT_TRUE(s.apply_draw(e));
  EXPECT_TRUE(s.is_chance());
  EXPECT_TRUE(s.apply_draw(v));
  ASSERT_EQ(s.phase(), Phase::Place);
  EXPECT_EQ(s.current_player(), 0);
  ASSERT_EQ(s.num_drawn(), 2);
  EXPECT_EQ(s.drawn_tile(0), e);
  EXPECT_EQ(s.drawn_tile(1), v);
  EXPECT_TRUE(s.drawn_placeable(0));
  EXPECT_TRUE(s.drawn_placeable(1));
  std::vector<Move> moves;
  s.legal_moves(moves);
  bool choice[2] = {false, false};
  for (auto& m : moves) choice[m.choice] = true;
  EXPECT_TRUE(choice[0] && choice[1]);  // A chooses between the two new tiles
  ASSERT_EQ(int(s.draws().size()), ndraws + 4);
  EXPECT_EQ(s.draws()[ndraws + 2].fate, Fate::Pending);
  EXPECT_EQ(s.draws()[ndraws + 3].fate, Fate::Pending);

  // Placing E: V goes back into the bag; C and X stay out.
  auto place_e = std::find_if(moves.begin(), moves.end(), [](const Move& m) { return m.choice == 0 && m.meeple < 0; });
  ASSERT_NE(place_e, moves.end());
  s.apply(*place_e);
  EXPECT_EQ(s.draws()[ndraws + 2].fate, Fate::Placed);
  EXPECT_EQ(s.draws()[ndraws + 3].fate, Fate::Returned);
  EXPECT_EQ(s.bag_count(v), v_before);
  EXPECT_EQ(s.bag_count(c), 0);
  EXPECT_EQ(s.bag_count(x), 0);
  EXPECT_EQ(s.bag_size(), bag - 3);  // C, X out of the game; E placed
  EXPECT_EQ(s.validate(), "");

  // The record keeps the discarded pair and the second draw, and replays to the same state.
  Record back = parse_record(record_to_json(record_of(s, {"A", "B"}, true)));
  EXPECT_EQ(back.turns.back().discarded, (std::vector<std::string>{"C", "X"}));
  EXPECT_EQ(back.turns.back().drawn, (std::vector<std::string>{"E", "V"}));
  EXPECT_TRUE(replay(back).state == s);
}

TEST(FortuneTeller, NoDrawnTilePlaceableInARecord) {
  auto base = std::string(R"([{"tile":"FT01","x":0,"y":1,"rotation":0,"meeple":"C"},
      {"tile":"B","x":1,"y":0,"rotation":0},)");
  Replay r = play(scenario(base + R"({"discarded":["C","X"],"drawn":["E","V"],"tile":"E","x":0,"y":-1,"rotation":0}])",
                           2, "B", kFortune));
  EXPECT_EQ(r.state.bag_count(r.state.game().type_index("C")), 0);
  EXPECT_EQ(r.state.bag_count(r.state.game().type_index("X")), 0);
  // Only one discarded tile is not a whole draw of two; a placeable tile cannot be discarded.
  EXPECT_THROW(play(scenario(base + R"({"discarded":["C"],"drawn":["E","V"],"tile":"E","x":0,"y":-1,"rotation":0}])", 2,
                             "B", kFortune)),
               RecordError);
  EXPECT_THROW(
      play(scenario(base + R"({"discarded":["C","V"],"drawn":["E","V"],"tile":"E","x":0,"y":-1,"rotation":0}])", 2, "B",
                    kFortune)),
      RecordError);
}

TEST(FortuneTeller, SomeDrawnTilesUnplaceableThePlayerPicksAPlaceableOne) {
  // T-8 (a): C fits nowhere, E does: A must place E; C is not discarded but goes back into
  // the bag like any other tile that was not chosen.
  State s = all_field_frontier();
  const Game& g = s.game();
  const int c = g.type_index("C"), e = g.type_index("E");
  const int bag = s.bag_size(), ndraws = int(s.draws().size());
  EXPECT_TRUE(s.apply_draw(c));
  EXPECT_TRUE(s.apply_draw(e));
  ASSERT_EQ(s.phase(), Phase::Place);
  EXPECT_FALSE(s.drawn_placeable(0));
  EXPECT_TRUE(s.drawn_placeable(1));
  EXPECT_EQ(s.current_tile(), e);
  std::vector<Move> moves;
  s.legal_moves(moves);
  ASSERT_FALSE(moves.empty());
  for (auto& m : moves) EXPECT_EQ(m.choice, 1);
  Move pick_c = moves[0];
  pick_c.choice = 0;
  EXPECT_NE(s.check_move(pick_c), "");
  s.apply(moves[0]);
  EXPECT_EQ(s.draws()[ndraws].fate, Fate::Returned);
  EXPECT_EQ(s.draws()[ndraws + 1].fate, Fate::Placed);
  EXPECT_EQ(s.bag_count(c), 1);
  EXPECT_EQ(s.bag_size(), bag - 1);
  // In a record both are listed as drawn and E is placed; placing C is rejected.
  auto base = std::string(R"([{"tile":"FT01","x":0,"y":1,"rotation":0,"meeple":"C"},
      {"tile":"B","x":1,"y":0,"rotation":0},)");
  EXPECT_NO_THROW(
      play(scenario(base + R"({"drawn":["C","E"],"tile":"E","x":0,"y":-1,"rotation":0}])", 2, "B", kFortune)));
  EXPECT_THROW(play(scenario(base + R"({"drawn":["C","E"],"tile":"C","x":0,"y":-1,"rotation":0}])", 2, "B", kFortune)),
               RecordError);
}

TEST(FortuneTeller, SeededGamesWithSeveralDrawsReplayExactly) {
  Rules r;
  r.set(Expansion::FortuneTeller);
  r.set(Expansion::Festival);
  int three = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    State s(Game::get(r), seed);
    Rng rng(seed);
    std::vector<Move> moves;
    random_playout(s, rng, moves);
    Record rec = record_of(s, {}, false);
    for (auto& t : rec.turns) three += t.drawn.size() == 3;
    Replay rp = replay(parse_record(record_to_json(rec)));
    ASSERT_TRUE(rp.state == s);
  }
  EXPECT_GT(three, 0);  // some player drew 3 tiles in these games
}

TEST(FestivalAndFortuneTeller, TakingBackAFortuneTellerEndsItsExtraDraw) {
  // A's fortune teller (turn 1) gives A two tiles on turn 3; A's festival tile takes it back
  // (F-5), so on turn 5 A draws one tile again.
  auto turns = R"([
    {"tile":"FT01","x":0,"y":1,"rotation":0,"meeple":"C"},
    {"tile":"E","x":0,"y":-1,"rotation":180},
    {"drawn":["B","FE06"],"tile":"FE06","x":-1,"y":0,"rotation":0,"return":{"x":0,"y":1,"at":"C"}},
    {"tile":"U","x":1,"y":0,"rotation":90},
    {"tile":"B","x":1,"y":1,"rotation":0}])";
  Replay r = play(scenario(turns, 2, "", {"festival", "fortune-teller"}));
  EXPECT_EQ(r.state.mod<FortuneTellerBlock>().tellers(0), 0);
  EXPECT_EQ(r.state.supply(0), 7);
  EXPECT_EQ(r.state.scores(), (std::vector<int>{0, 0}));
  // Listing two drawn tiles on turn 5 would be wrong now.
  EXPECT_THROW(play(scenario(R"([
    {"tile":"FT01","x":0,"y":1,"rotation":0,"meeple":"C"},
    {"tile":"E","x":0,"y":-1,"rotation":180},
    {"drawn":["B","FE06"],"tile":"FE06","x":-1,"y":0,"rotation":0,"return":{"x":0,"y":1,"at":"C"}},
    {"tile":"U","x":1,"y":0,"rotation":90},
    {"drawn":["B","V"],"tile":"B","x":1,"y":1,"rotation":0}])", 2, "", {"festival", "fortune-teller"})),
               RecordError);
}
