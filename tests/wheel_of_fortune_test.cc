// Wheel of Fortune: scenario tests with scripted records and expected points, on the sourced
// board and tile set (data/boards/wheel-of-fortune.json, data/tiles/wheel-of-fortune.json,
// version 2; shared rules wheel-of-fortune.md 4-5). The board covers x, y 0..3 with the wheel on
// the centre 2x2 cells; segments clockwise fortuna, taxes, famine, storm, inquisition, plague
// with 1, 2, 1, 2, 1, 2 crown spaces; the pig starts on fortuna. Around the board, the places
// a tile can go and the rim edge it must match:
//   north (y = -1): x 0 city A, x 1 field, x 2 road 1, x 3 field
//   east  (x = 4):  y 0 field, y 1 field, y 2 city B, y 3 field
//   south (y = 4):  x 0 city C, x 1 field, x 2 field, x 3 road 2
//   west  (x = -1): y 0 field, y 1 road 3, y 2 field, y 3 city C
// Pig numbers used here: U@1/U@2/U@3 (straight road), 2 moves famine, 3 storm, 5 plague.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
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
  EXPECT_EQ(g->total_tiles(), 71);  // no start tile: the board replaces it
  EXPECT_EQ(load_tile_set("wheel-of-fortune").version, 2);
  int icons = 0, sum[4] = {}, base = 0, other = 0;
  std::map<std::string, int> per_shape;  // "U@2" counts as U
  for (int t = 0; t < g->num_types(); ++t) {
    const TileType& tt = g->type(t);
    const int n = g->initial_counts()[t];
    if (tt.wheel) {
      icons += n;
      sum[tt.wheel] += n;
      EXPECT_EQ(tt.id, tt.id.substr(0, tt.id.find('@')) + "@" + std::to_string(tt.wheel));
    }
    if (tt.id.rfind("board:", 0) == 0) continue;
    per_shape[tt.id.substr(0, tt.id.find('@'))] += n;
    (tt.id.find('/') == std::string::npos ? base : other) += n;
  }
  EXPECT_EQ(icons, 19);
  EXPECT_EQ(sum[1], 11);
  EXPECT_EQ(sum[2], 5);
  EXPECT_EQ(sum[3], 3);
  EXPECT_EQ(base, 62);
  EXPECT_EQ(other, 9);
  // One each of D, E, H, J, K, L, N, P, R, V fewer than the base game (shared rules 4.1).
  const std::map<std::string, int> want = {{"A", 2}, {"B", 4}, {"C", 1}, {"D", 3}, {"E", 4}, {"F", 2}, {"G", 1},
                                           {"H", 2}, {"I", 2}, {"J", 2}, {"K", 2}, {"L", 2}, {"M", 2}, {"N", 2},
                                           {"O", 2}, {"P", 2}, {"Q", 1}, {"R", 2}, {"S", 2}, {"T", 1}, {"U", 8},
                                           {"V", 8}, {"W", 4}, {"X", 1}, {"IC/CCC", 1}, {"IC/CFR", 1}, {"IC/CcR", 1},
                                           {"IC/LRFR", 1}, {"IC/RrRr", 1}, {"WF/CFRC", 1}, {"TB/CR", 1},
                                           {"KR/CRrR", 1}, {"KR/RC", 1}};
  EXPECT_EQ(per_shape, want);
  EXPECT_EQ(g->initial_counts()[g->type_index("U@2")], 3);
  EXPECT_EQ(g->initial_counts()[g->type_index("V")], 1);
  EXPECT_EQ(g->type(g->type_index("IC/RrRr@1")).wheel, 1);
  EXPECT_EQ(g->type(g->type_index("X@1")).wheel, 1);
  EXPECT_LT(g->type_index("N"), 0);  // both N carry a pig number
  EXPECT_EQ(g->board_cells().size(), 16u);
  ASSERT_EQ(g->wheel().size(), 6u);
  const int crowns[6] = {1, 2, 1, 2, 1, 2};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(int(g->wheel()[i].event), i);
    EXPECT_EQ(g->wheel()[i].crowns, crowns[i]);
  }
  State s(g, 1);
  EXPECT_EQ(s.num_placed(), 16);
  EXPECT_EQ(s.mod<WheelBlock>().pig_segment(), 0);
  EXPECT_EQ(s.frontier_size(), 16);  // 4 places along each side of the board
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) EXPECT_GE(s.tile_at(x, y), 0);
  EXPECT_EQ(s.validate(), "");
}

TEST(WheelOfFortune, BoardHasThreeCitiesRoadsAndFieldsThatDoNotJoinAcrossTheWheel) {
  State s(wheel_game(), 1);
  std::set<uint16_t> roots[kNumKinds];
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) {
      const PlacedTile& P = s.placed(s.tile_at(x, y));
      const TileType& t = s.game().type(P.type);
      for (int i = 0; i < t.nseg; ++i) roots[int(t.rot[0].seg[i].kind)].insert(s.root(uint16_t(P.slot_base + i)));
    }
  EXPECT_EQ(roots[int(Kind::City)].size(), 3u);
  EXPECT_EQ(roots[int(Kind::Road)].size(), 3u);
  EXPECT_EQ(roots[int(Kind::Field)].size(), 3u);
  // Each board city and road is one tile long; city C lies on two rim edges of one cell.
  for (uint16_t r : roots[int(Kind::City)]) EXPECT_EQ(s.feature(r).tiles, 1);
  for (uint16_t r : roots[int(Kind::Road)]) EXPECT_EQ(s.feature(r).tiles, 1);
  auto half = [&](int x, int y, int h) { return s.root(s.placed(s.tile_at(x, y)).half_slot[h]); };
  auto side = [&](int x, int y, int d) { return s.root(s.placed(s.tile_at(x, y)).side_slot[d]); };
  EXPECT_EQ(s.feature(side(0, 3, kSouth)).open, 2);
  EXPECT_EQ(side(0, 3, kSouth), side(0, 3, kWest));
  // Field A (north-west), B (east), C (south-west): (1,0) and (1,3) face each other across the
  // wheel but are different fields.
  const int Nw = 0, Ne = 1, En = 2, Se = 4, Ws = 6, Wn = 7;
  EXPECT_EQ(half(1, 0, Nw), half(0, 1, Wn));     // A
  EXPECT_EQ(half(3, 0, Ne), half(3, 3, Se));     // B
  EXPECT_EQ(half(1, 3, Se), half(0, 1, Ws));     // C
  EXPECT_NE(half(1, 0, Nw), half(1, 3, Se));
  EXPECT_NE(half(2, 0, Nw), half(2, 0, Ne));     // road 1 splits A from B
  EXPECT_NE(half(3, 1, En), half(0, 2, Ws));
  // The wheel's cells hold nothing and every rim cell has its wheel side marked.
  EXPECT_EQ(s.game().type(s.placed(s.tile_at(1, 1)).type).nseg, 0);
  EXPECT_EQ(s.game().type(s.placed(s.tile_at(1, 0)).type).rot[0].closed_sides, 1 << kSouth);
  // A tile that continues road 3 with one field on both sides of its road joins fields A and C.
  State j = replay(wof(R"([{"tile":"A","x":-1,"y":1,"rotation":270}])")).state;
  auto jhalf = [&](int x, int y, int h) { return j.root(j.placed(j.tile_at(x, y)).half_slot[h]); };
  EXPECT_EQ(jhalf(0, 0, Wn), jhalf(0, 2, Ws));
  EXPECT_NE(jhalf(0, 0, Wn), jhalf(3, 0, Ne));
}

TEST(WheelOfFortune, CityClosedAgainstBoardCityCountsTheBoardCell) {
  // E turned 180 (city south) at (0,-1) closes city A: 2 tiles, 4 points; the same at (4,2)
  // turned 270 closes city B.
  Replay r = replay(wof(R"([
    {"tile":"E","x":0,"y":-1,"rotation":180,"meeple":"S"},
    {"tile":"E","x":4,"y":2,"rotation":270,"meeple":"W"}])"));
  EXPECT_EQ(r.state.scores(), (std::vector<int>{4, 4}));
  EXPECT_EQ(count_kind(r, "city"), 2);
  EXPECT_EQ(r.state.num_followers(), 0);
}

TEST(WheelOfFortune, CityCIsClosedByTwoTiles) {
  // City C lies on the south and west rims of cell (0,3): one tile closes one edge, the city
  // is complete only when both are closed: 3 tiles, 6 points.
  const std::string first = R"({"tile":"E","x":0,"y":4,"rotation":0,"meeple":"N"})";
  Replay half = replay(wof("[" + first + "]"));
  EXPECT_EQ(half.state.scores(), (std::vector<int>{0, 0}));
  EXPECT_EQ(half.state.num_followers(), 1);
  Replay done = replay(wof("[" + first + R"(,{"tile":"E","x":-1,"y":3,"rotation":90}])"));
  EXPECT_EQ(done.state.scores(), (std::vector<int>{6, 0}));
  EXPECT_EQ(count_kind(done, "city"), 1);
  EXPECT_EQ(done.state.num_followers(), 0);
}

TEST(WheelOfFortune, RoadRunIntoABoardRoadIsClosedThere) {
  // A monastery's road (A, road south) into road 1, another into road 2, and a junction's
  // road (W) into road 3: each road is closed at both ends, 2 tiles, 2 points.
  Replay r = replay(wof(R"([
    {"tile":"A","x":2,"y":-1,"rotation":0,"meeple":"S"},
    {"tile":"A","x":3,"y":4,"rotation":180,"meeple":"N"},
    {"tile":"W","x":-1,"y":1,"rotation":0,"meeple":"E"}])"));
  EXPECT_EQ(r.state.scores(), (std::vector<int>{2 + 2, 2}));
  EXPECT_EQ(count_kind(r, "road"), 3);
  // A straight road into road 1 stays open at its far end: nothing scores until then.
  Replay open = replay(wof(R"([{"tile":"U@1","x":2,"y":-1,"rotation":0,"meeple":"N"}])"));
  EXPECT_EQ(count_kind(open, "road"), 0);
  EXPECT_EQ(open.state.feature(open.state.followers()[0].slot).tiles, 2);
}

TEST(WheelOfFortune, FarmerScoresTheBoardCityOfItsFieldOnly) {
  // A's farmer on B at (1,-1) is in field A. All three board cities are completed by E tiles;
  // only city A touches field A: 3 at the end (9 if the fields joined across the wheel).
  const std::string farmer = R"({"tile":"B","x":1,"y":-1,"rotation":0,"meeple":"Nw"})";
  Replay open = replay(wof("[" + farmer + "]"), true);
  EXPECT_EQ(open.state.scores(), (std::vector<int>{0, 0}));  // city A not complete: nothing
  Replay r = replay(wof("[" + farmer + R"(,
    {"tile":"E","x":0,"y":-1,"rotation":180},
    {"tile":"E","x":4,"y":2,"rotation":270},
    {"tile":"E","x":0,"y":4,"rotation":0},
    {"tile":"E","x":-1,"y":3,"rotation":90}])"),
                    true);
  EXPECT_EQ(r.state.scores(), (std::vector<int>{3, 0}));
  EXPECT_EQ(count_kind(r, "farm"), 1);
}

TEST(WheelOfFortune, FamineCountsACompletedBoardCity) {
  // A's farmer in field A; B completes city A, A completes city B (not next to field A); U@2
  // moves the pig to the famine: 1 point (per farmer, per completed city of its field).
  Replay r = replay(wof(R"([
    {"tile":"B","x":1,"y":-1,"rotation":0,"meeple":"Nw"},
    {"tile":"E","x":0,"y":-1,"rotation":180},
    {"tile":"E","x":4,"y":2,"rotation":270},
    {"tile":"U@2","x":4,"y":0,"rotation":0}])"));
  EXPECT_EQ(r.state.mod<WheelBlock>().pig_segment(), 2);
  EXPECT_EQ(r.state.scores(), (std::vector<int>{1, 0}));
  EXPECT_EQ(count_kind(r, "famine"), 1);
  EXPECT_EQ(r.state.num_followers(), 1);  // the farmer stays
}

TEST(WheelOfFortune, MonasteryCountsBoardCellsAsNeighbours) {
  // B at (1,-1): itself, the board cells (0,0), (1,0), (2,0) and E at (0,-1): 5 at the end.
  // B at (4,1) beside the wheel's rim cells (3,0), (3,1), (3,2): 4.
  Replay r = replay(wof(R"([
    {"tile":"B","x":1,"y":-1,"rotation":0,"meeple":"C"},
    {"tile":"B","x":4,"y":1,"rotation":0,"meeple":"C"},
    {"tile":"E","x":0,"y":-1,"rotation":180}])"),
                    true);
  EXPECT_EQ(r.state.scores(), (std::vector<int>{5, 4}));
  EXPECT_EQ(count_kind(r, "monastery"), 2);
}

TEST(WheelOfFortune, TilesMustMatchTheRimEdges) {
  // A field edge against a rim city, a city against a rim field, a field against a rim road.
  auto refused = [](const std::string& turn, const std::string& words) {
    try {
      replay(wof("[" + turn + "]"));
      ADD_FAILURE() << "accepted: " << turn;
    } catch (const RecordError& e) {
      EXPECT_EQ(e.turn(), 1);
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  refused(R"({"tile":"B","x":0,"y":-1,"rotation":0})", "meets a city");
  refused(R"({"tile":"B","x":4,"y":2,"rotation":0})", "meets a city");
  refused(R"({"tile":"B","x":0,"y":4,"rotation":0})", "meets a city");
  refused(R"({"tile":"B","x":-1,"y":3,"rotation":0})", "meets a city");
  refused(R"({"tile":"E","x":1,"y":-1,"rotation":180})", "meets a field");
  refused(R"({"tile":"B","x":2,"y":-1,"rotation":0})", "meets a road");
  refused(R"({"tile":"U@1","x":1,"y":4,"rotation":0})", "meets a field");
  // The legal places of an all-field tile are exactly the 9 field places of the rim.
  State s(wheel_game(), 3);
  s.apply_draw(s.game().type_index("B"));
  std::vector<Move> moves;
  s.legal_moves(moves);
  std::set<std::pair<int, int>> places;
  for (auto& m : moves) places.insert({m.x, m.y});
  const std::set<std::pair<int, int>> fields = {{1, -1}, {3, -1}, {4, 0}, {4, 1}, {4, 3},
                                                {1, 4},  {2, 4},  {-1, 0}, {-1, 2}};
  EXPECT_EQ(places, fields);
}

TEST(WheelOfFortune, WheelSidesAreForBoardCellsAndMustFaceEachOther) {
  const std::string wheel =
      R"("wheel":{"start":"fortuna","segments":[{"name":"fortuna","crowns":1},{"name":"taxes","crowns":2},{"name":"famine","crowns":1},{"name":"storm","crowns":2},{"name":"inquisition","crowns":1},{"name":"plague","crowns":2}]})";
  auto cell = [](int x, int y, const std::string& edges, const std::string& fields) {
    return R"({"x":)" + std::to_string(x) + R"(,"y":)" + std::to_string(y) + R"(,"edges":")" + edges +
           R"(","cities":"-","pennants":"0","roads":"-","fields":")" + fields + R"("})";
  };
  // Two cells whose wheel sides face each other: valid, and nothing joins across them.
  BoardFile ok = parse_board(R"({"board":"t","cells":[)" + cell(0, 0, "FWFF", "f1=Nw+Ne+Se+Sw+Ws+Wn") + "," +
                                 cell(1, 0, "FFFW", "f1=Nw+Ne+En+Es+Se+Sw") + "]," + wheel + "}",
                             "t.json");
  EXPECT_EQ(ok.cells[0].tile.rot[0].closed_sides, 1 << kEast);
  EXPECT_EQ(ok.cells[0].tile.rot[0].edge(kEast), Edge::None);
  // A wheel side on the outside of the board, or facing a field, is refused by name.
  try {
    parse_board(R"({"board":"t","cells":[)" + cell(0, 0, "FWFF", "f1=Nw+Ne+Se+Sw+Ws+Wn") + "]," + wheel + "}", "t.json");
    ADD_FAILURE() << "wheel side facing out accepted";
  } catch (const TileDataError& e) {
    EXPECT_NE(std::string(e.what()).find("board:0:0: its E side is a wheel side"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_board(R"({"board":"t","cells":[)" + cell(0, 0, "FWFF", "f1=Nw+Ne+Se+Sw+Ws+Wn") + "," +
                               cell(1, 0, "FFFF", "f1=Nw+Ne+En+Es+Se+Sw+Ws+Wn") + "]," + wheel + "}",
                           "t.json"),
               TileDataError);
  // A segment on a wheel side is refused; a land tile cannot have one.
  EXPECT_THROW(parse_board(R"({"board":"t","cells":[)" + cell(0, 0, "FWFF", "f1=Nw+Ne+En+Es+Se+Sw+Ws+Wn") + "," +
                               cell(1, 0, "FFFW", "f1=Nw+Ne+En+Es+Se+Sw") + "]," + wheel + "}",
                           "t.json"),
               TileDataError);
  try {
    parse_tile_set(R"({"tileset":"t","tiles":[{"id":"Z","count":1,"edges":"FWFF","fields":"f1=Nw+Ne+Se+Sw+Ws+Wn"}]})", "t.json");
    ADD_FAILURE() << "wheel side on a land tile accepted";
  } catch (const TileDataError& e) {
    EXPECT_NE(std::string(e.what()).find("board cells only"), std::string::npos) << e.what();
  }
}

TEST(WheelOfFortune, RecordsOfTheProvisionalSetGiveAClearError) {
  // Version 1 records named tiles such as A@1 and an all-field board.
  try {
    replay(wof(R"([{"tile":"A@1","x":0,"y":4,"rotation":0}])"));
    ADD_FAILURE() << "old tile accepted";
  } catch (const RecordError& e) {
    EXPECT_EQ(e.turn(), 1);
    EXPECT_NE(std::string(e.what()).find("tile set is version 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("version 1"), std::string::npos) << e.what();
  }
  // A record naming the version: the wrong one is refused at the setup, the right one plays.
  nlohmann::json j = nlohmann::json::parse(record_to_json(wof(R"([{"tile":"B","x":1,"y":4,"rotation":0}])")));
  EXPECT_EQ(j["setup"].value("tileset_version", 0), 0);  // a hand-written record without one
  j["setup"]["tileset_version"] = 1;
  try {
    replay(parse_record(j.dump()));
    ADD_FAILURE() << "version 1 accepted";
  } catch (const RecordError& e) {
    EXPECT_NE(std::string(e.what()).find("setup.tileset_version: this record was made with the wheel-of-fortune tile set version 1"),
              std::string::npos)
        << e.what();
  }
  j["setup"]["tileset_version"] = 2;
  Replay r = replay(parse_record(j.dump()));
  // Records the engine writes name the version.
  Record back = record_of(r.state, {"A", "B"}, true);
  EXPECT_EQ(back.tileset_version, 2);
  EXPECT_NE(record_to_json(back).find("\"tileset_version\":2"), std::string::npos);
  EXPECT_TRUE(replay(parse_record(record_to_json(back))).state == r.state);
}

TEST(WheelOfFortune, PigWrapsAroundToFortunaAndReportsEachMove) {
  // U@3: fortuna -> storm (each player scores their supply: 7); U@3: storm -> fortuna,
  // wrapping around the wheel: B, the active player, scores 3.
  Replay r = replay(wof(R"([{"tile":"U@3","x":2,"y":-1,"rotation":0},{"tile":"U@3","x":4,"y":0,"rotation":0}])"));
  EXPECT_EQ(r.state.mod<WheelBlock>().pig_segment(), 0);
  EXPECT_EQ(r.state.scores(), (std::vector<int>{7, 7 + 3}));
  EXPECT_EQ(count_kind(r, "storm"), 2);
  EXPECT_EQ(count_kind(r, "fortuna"), 1);
  // "pig" events (0 points) come before the scorings they cause and say from, to, steps, tile.
  ASSERT_EQ(count_kind(r, "pig"), 2);
  std::vector<const ScoreEvent*> pigs;
  for (auto& e : r.events)
    if (e.kind == "pig") pigs.push_back(&e);
  EXPECT_EQ(r.events[0].kind, "pig");
  EXPECT_EQ(pigs[0]->from, 0);
  EXPECT_EQ(pigs[0]->segment, 3);
  EXPECT_EQ(pigs[0]->steps, 3);
  EXPECT_EQ(pigs[0]->tile, "U@3");
  EXPECT_EQ(pigs[0]->player, 0);
  EXPECT_EQ(pigs[0]->points, 0);
  EXPECT_EQ(pigs[1]->from, 3);
  EXPECT_EQ(pigs[1]->segment, 0);
  EXPECT_EQ(pigs[1]->turn, 2);
  EXPECT_EQ(pigs[1]->player, 1);
  // The wheel's scorings name the pig's segment.
  for (auto& e : r.events)
    if (e.kind == "storm") EXPECT_EQ(e.segment, 3);
    else if (e.kind == "fortuna") EXPECT_EQ(e.segment, 0);
  // A tile without a number does not move the pig.
  Replay plain = replay(wof(R"([{"tile":"D","x":3,"y":-1,"rotation":0}])"));
  EXPECT_EQ(plain.state.mod<WheelBlock>().pig_segment(), 0);
  EXPECT_EQ(plain.state.scores(), (std::vector<int>{0, 0}));
  EXPECT_EQ(count_kind(plain, "pig"), 0);
}

TEST(WheelOfFortune, StormCountsOnlyTheSupply) {
  // A has a knight on the land, B a follower on a crown space: both have 6 in supply.
  Replay r = replay(wof(R"([
    {"tile":"F","x":0,"y":-1,"rotation":90,"meeple":"N"},
    {"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:fortuna:0"},
    {"tile":"U@3","x":2,"y":-1,"rotation":0}])"));
  EXPECT_EQ(r.state.scores(), (std::vector<int>{6, 6}));
  EXPECT_EQ(r.state.mod<WheelBlock>().crown_player(0), 1);  // B stays on the fortuna crown (not scored: the pig is on storm)
  EXPECT_EQ(r.state.supply(1), 6);
}

TEST(WheelOfFortune, TaxesWithPennantsAndSeveralOwnKnights) {
  // One open city of 6 tiles with 2 pennants (M, Q) north of the board: A has 2 knights in it,
  // B 1. Taxes: A 2 x (2 + 2) = 8, B 1 x (2 + 1) = 3. Knights stay.
  const std::string city = R"(
    {"tile":"E","x":1,"y":-1,"rotation":0,"meeple":"N"},
    {"tile":"J","x":2,"y":-1,"rotation":0,"meeple":"N"},
    {"tile":"KR/RC","x":3,"y":-1,"rotation":0,"meeple":"N"},
    {"tile":"M","x":1,"y":-2,"rotation":90},
    {"tile":"Q","x":2,"y":-2,"rotation":180},
    {"tile":"R","x":3,"y":-2,"rotation":180})";
  Replay before = replay(wof("[" + city + "]"));
  EXPECT_EQ(before.state.scores(), (std::vector<int>{0, 0}));
  EXPECT_EQ(count_kind(before, "road"), 0);  // KR/RC closed J's road into road 1, nobody on it
  const Feature& f = before.state.feature(before.state.followers()[0].slot);
  EXPECT_EQ(f.pennants, 2);
  EXPECT_EQ(f.tiles, 6);
  EXPECT_EQ(f.count[0], 2);
  EXPECT_EQ(f.count[1], 1);
  Replay r = replay(wof("[" + city + R"(,{"tile":"U@1","x":4,"y":0,"rotation":0}])"));
  EXPECT_EQ(r.state.mod<WheelBlock>().pig_segment(), 1);
  EXPECT_EQ(r.state.scores(), (std::vector<int>{8, 3}));
  EXPECT_EQ(r.state.num_followers(), 3);
  EXPECT_EQ(count_kind(r, "taxes"), 2);
}

TEST(WheelOfFortune, InquisitionTwoPerMonk) {
  // A has two monks, B one: U@2 moves the pig to famine (no farmers), U@2 to inquisition.
  Replay r = replay(wof(R"([
    {"tile":"B","x":1,"y":-1,"rotation":0,"meeple":"C"},
    {"tile":"A","x":2,"y":-1,"rotation":0,"meeple":"C"},
    {"tile":"B","x":4,"y":0,"rotation":0,"meeple":"C"},
    {"tile":"U@2","x":4,"y":3,"rotation":0},
    {"tile":"U@2","x":-1,"y":0,"rotation":0}])"));
  EXPECT_EQ(r.state.mod<WheelBlock>().pig_segment(), 4);
  EXPECT_EQ(r.state.scores(), (std::vector<int>{4, 2}));
  EXPECT_EQ(count_kind(r, "famine"), 0);
  EXPECT_EQ(count_kind(r, "inquisition"), 3);
}

TEST(WheelOfFortune, PlagueEachPlayerInTurnOrderSkippingThoseWithoutLandFollowers) {
  // 3 players. A: a knight and (turn 4) a crown follower on plague:0; B: only a crown
  // follower; C: a knight. Turn 5 (B) moves the pig to the plague: B has nobody on the land
  // and is skipped, then C, then A take one back each (A's crown follower is immune).
  // Then the plague's crown spaces: A alone on a two-space segment: 6.
  const std::string setup = R"(
    {"tile":"F","x":0,"y":-1,"rotation":90,"meeple":"N"},
    {"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:taxes:0"},
    {"tile":"F","x":4,"y":2,"rotation":0,"meeple":"E"},
    {"tile":"U@3","x":2,"y":-1,"rotation":0,"meeple":"crown:plague:0"})";
  Replay r = replay(wof("[" + setup + R"(,
    {"tile":"U@2","x":-1,"y":0,"rotation":0,"plague":[{"x":4,"y":2,"at":"E"},{"x":0,"y":-1,"at":"N"}]}])",
                        3));
  // Turn 4 was a storm: 6 each (A had 6 in supply before deploying on the crown).
  EXPECT_EQ(r.state.scores(), (std::vector<int>{6 + 6, 6, 6}));
  EXPECT_EQ(r.state.num_followers(), 0);
  EXPECT_EQ(r.state.supply(0), 7);
  EXPECT_EQ(r.state.supply(1), 6);  // B's crown follower on taxes stays
  EXPECT_EQ(r.state.supply(2), 7);
  // The turn log names who decided each take-back; the events say it too, in order, and the
  // crown scoring names its segment.
  const TurnLog& tl = r.state.history().back();
  ASSERT_EQ(tl.mods.nplague, 2);
  EXPECT_EQ(tl.mods.plague_player[0], 2);
  EXPECT_EQ(tl.mods.plague_player[1], 0);
  std::vector<std::string> kinds;
  for (auto& e : r.events)
    if (e.turn == 5) kinds.push_back(e.kind);
  EXPECT_EQ(kinds, (std::vector<std::string>{"pig", "plague", "plague", "crown"}));
  for (auto& e : r.events)
    if (e.turn == 5 && e.kind == "plague") {
      EXPECT_EQ(e.points, 0);
      EXPECT_EQ(e.segment, 5);
      EXPECT_EQ(e.at, e.player == 2 ? "E" : "N");
      EXPECT_EQ(e.x, e.player == 2 ? 4 : 0);
    } else if (e.turn == 5 && e.kind == "crown") {
      EXPECT_EQ(e.segment, 5);
      EXPECT_EQ(e.player, 0);
    }
  // The record round trip keeps the plague entries.
  Record again = parse_record(record_to_json(record_of(r.state, {"A", "B", "C"}, true)));
  EXPECT_EQ(again.turns.back().plague.size(), 2u);
  EXPECT_TRUE(replay(again).state == r.state);

  // Through the game-state API: the Plague's decisions belong to C, then A.
  State s = replay(wof("[" + setup + "]", 3)).state;
  ASSERT_TRUE(s.is_chance());
  s.apply_draw(s.game().type_index("U@2"));
  ASSERT_EQ(s.phase(), Phase::Plague);
  EXPECT_EQ(s.turn_player(), 1);
  EXPECT_EQ(s.current_player(), 2);
  std::vector<Move> moves;
  s.legal_moves(moves);
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0].kind, MoveKind::Plague);
  EXPECT_NE(s.check_move(Move{}), "");  // the tile cannot be placed before the Plague is over
  s.apply(moves[0]);
  EXPECT_EQ(s.mod<WheelBlock>().plague_pick_player(0), 2);
  EXPECT_EQ(s.current_player(), 0);
  s.legal_moves(moves);
  ASSERT_EQ(moves.size(), 1u);  // only the knight: the crown follower is immune
  s.apply(moves[0]);
  EXPECT_EQ(s.phase(), Phase::Place);
  EXPECT_EQ(s.current_player(), 1);
  EXPECT_EQ(s.score(0), 12);
  // A state JSON taken mid-Plague restores the same state.
  State mid = replay(wof("[" + setup + "]", 3)).state;
  mid.apply_draw(mid.game().type_index("U@2"));
  mid.legal_moves(moves);
  mid.apply(moves[0]);
  EXPECT_TRUE(state_from_json(state_to_json(mid)) == mid);
}

TEST(WheelOfFortune, FollowerTakenBackByThePlagueCanBeDeployedInTheSameTurn) {
  // W-8b. A puts all 7 followers on the land (2 knights, 5 monks); B only places tiles and on
  // turn 14 U@3 moves the pig to storm (A's supply is empty: A 0, B 7). On turn 15 A's own
  // U@2 moves it on to the plague: A takes back the knight at (0,-1) (B has nobody on the
  // land and is skipped). That follower is in A's supply at once, so A may deploy it on U@2.
  const std::string setup = R"(
    {"tile":"F","x":0,"y":-1,"rotation":90,"meeple":"N"},
    {"tile":"E","x":3,"y":-1,"rotation":0},
    {"tile":"B","x":1,"y":-1,"rotation":0,"meeple":"C"},
    {"tile":"E","x":-1,"y":2,"rotation":270},
    {"tile":"B","x":1,"y":4,"rotation":0,"meeple":"C"},
    {"tile":"E","x":4,"y":3,"rotation":90},
    {"tile":"B","x":2,"y":4,"rotation":0,"meeple":"C"},
    {"tile":"E","x":2,"y":5,"rotation":180},
    {"tile":"B","x":4,"y":0,"rotation":0,"meeple":"C"},
    {"tile":"I","x":1,"y":5,"rotation":180},
    {"tile":"A","x":-1,"y":0,"rotation":0,"meeple":"C"},
    {"tile":"J","x":3,"y":5,"rotation":0},
    {"tile":"F","x":4,"y":2,"rotation":0,"meeple":"E"},
    {"tile":"U@3","x":2,"y":-1,"rotation":0})";
  State s = replay(wof("[" + setup + "]")).state;
  ASSERT_TRUE(s.is_chance());
  EXPECT_EQ(s.turn_player(), 0);
  EXPECT_EQ(s.mod<WheelBlock>().pig_segment(), 3);  // storm
  EXPECT_EQ(s.supply(0), 0);
  EXPECT_EQ(s.supply(1), 7);
  EXPECT_EQ(s.scores(), (std::vector<int>{0, 7}));
  EXPECT_EQ(s.num_followers(), 7);

  const Game& g = s.game();
  s.apply_draw(g.type_index("U@2"));
  EXPECT_EQ(s.mod<WheelBlock>().pig_segment(), 5);  // plague
  ASSERT_EQ(s.phase(), Phase::Plague);
  EXPECT_EQ(s.current_player(), 0);  // the active player decides first
  std::vector<Move> moves;
  s.legal_moves(moves);
  EXPECT_EQ(moves.size(), 7u);  // any of A's 7 land followers
  auto knight = std::find_if(moves.begin(), moves.end(), [](const Move& m) { return m.x == 0 && m.y == -1; });
  ASSERT_NE(knight, moves.end());
  s.apply(*knight);
  // B has nobody on the land: the Plague is over and A places U@2, with 1 follower in supply.
  ASSERT_EQ(s.phase(), Phase::Place);
  EXPECT_EQ(s.current_player(), 0);
  EXPECT_EQ(s.supply(0), 1);
  EXPECT_EQ(s.num_followers(), 6);

  // The legal moves include a follower on the new tile and one on a crown space.
  s.legal_moves(moves);
  int on_tile = 0, on_crown = 0;
  for (auto& m : moves) {
    ASSERT_EQ(m.kind, MoveKind::Place);
    if (m.ext.crown() >= 0)
      ++on_crown;
    else if (m.meeple >= 0)
      ++on_tile;
  }
  EXPECT_GT(on_tile, 0);
  EXPECT_GT(on_crown, 0);
  auto deploy = std::find_if(moves.begin(), moves.end(), [](const Move& m) { return m.meeple >= 0 && m.ext.crown() < 0; });
  ASSERT_NE(deploy, moves.end());
  EXPECT_EQ(s.check_move(*deploy), "");
  const Move played = *deploy;
  s.apply(played);
  EXPECT_EQ(s.supply(0), 0);
  bool on_new_tile = false;
  for (int i = 0; i < s.num_followers(); ++i) {
    const Follower& f = s.followers()[i];
    const PlacedTile& P = s.placed(s.slot_tile(f.slot));
    if (P.x == played.x && P.y == played.y) {
      on_new_tile = true;
      EXPECT_EQ(f.player, 0);
    }
  }
  EXPECT_TRUE(on_new_tile);
  EXPECT_EQ(s.validate(), "");

  // The same turn as a record (plague entry, then the deployment) replays to the same state.
  Record back = parse_record(record_to_json(record_of(s, {"A", "B"}, true)));
  ASSERT_EQ(back.turns.size(), 15u);
  EXPECT_EQ(back.turns.back().plague.size(), 1u);
  EXPECT_FALSE(back.turns.back().follower.empty());
  EXPECT_TRUE(replay(back).state == s);
}

TEST(WheelOfFortune, PlagueRecordErrors) {
  const std::string setup = R"(
    {"tile":"F","x":0,"y":-1,"rotation":90,"meeple":"N"},
    {"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:plague:1"},
    {"tile":"U@3","x":2,"y":-1,"rotation":0})";
  // Turn 3 moves the pig to storm; turn 4 (B) to the plague: B has only a crown follower and
  // is skipped, A must take back the knight.
  auto run = [&](const std::string& last) { return replay(wof("[" + setup + "," + last + "]")); };
  EXPECT_NO_THROW(run(R"({"tile":"U@2","x":-1,"y":0,"rotation":0,"plague":[{"x":0,"y":-1,"at":"N"}]})"));
  try {
    run(R"({"tile":"U@2","x":-1,"y":0,"rotation":0})");
    FAIL() << "missing plague entry accepted";
  } catch (const RecordError& e) {
    EXPECT_EQ(e.turn(), 4);
    EXPECT_NE(std::string(e.what()).find("plague"), std::string::npos) << e.what();
  }
  EXPECT_THROW(run(R"({"tile":"U@2","x":-1,"y":0,"rotation":0,"plague":[{"at":"crown:plague:1"}]})"), RecordError);
  EXPECT_THROW(run(R"({"tile":"U@2","x":-1,"y":0,"rotation":0,"plague":[{"x":0,"y":-1,"at":"N"},{"x":0,"y":-1,"at":"N"}]})"),
               RecordError);
  EXPECT_THROW(run(R"({"tile":"E","x":4,"y":2,"rotation":270,"plague":[{"x":0,"y":-1,"at":"N"}]})"), RecordError);
}

TEST(WheelOfFortune, CrownScoringInAllThreeCases) {
  // One-space segment (fortuna): 3, on top of the Fortuna event's 3 for the active player.
  Replay one = replay(wof(R"([
    {"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:fortuna:0"},
    {"tile":"U@3","x":2,"y":-1,"rotation":0},
    {"tile":"U@3","x":-1,"y":0,"rotation":0}])"));
  EXPECT_EQ(one.state.scores(), (std::vector<int>{6 + 3 + 3, 7}));
  EXPECT_EQ(one.state.mod<WheelBlock>().crown_player(0), -1);
  EXPECT_EQ(count_kind(one, "crown"), 1);
  for (auto& e : one.events)
    if (e.kind == "crown") EXPECT_EQ(e.segment, 0);
  // Two-space segment (storm), one follower: 6.
  Replay alone = replay(wof(R"([
    {"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:storm:0"},
    {"tile":"U@3","x":2,"y":-1,"rotation":0}])"));
  EXPECT_EQ(alone.state.scores(), (std::vector<int>{6 + 6, 7}));
  EXPECT_EQ(alone.state.supply(0), 7);
  for (auto& e : alone.events)
    if (e.kind == "crown") EXPECT_EQ(e.segment, 3);
  // Two-space segment, both taken by the same player: 3 + 3.
  Replay both = replay(wof(R"([
    {"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:storm:0"},
    {"tile":"B","x":2,"y":4,"rotation":0},
    {"tile":"B","x":4,"y":0,"rotation":0,"meeple":"crown:storm:1"},
    {"tile":"U@3","x":2,"y":-1,"rotation":0}])"));
  EXPECT_EQ(both.state.scores(), (std::vector<int>{5 + 3 + 3, 7}));
  EXPECT_EQ(count_kind(both, "crown"), 2);
  // Crown followers in other segments stay; at the end they score nothing (W-10).
  Replay fin = replay(wof(R"([{"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:taxes:1"}])"), true);
  EXPECT_EQ(fin.state.scores(), (std::vector<int>{0, 0}));
}

TEST(WheelOfFortune, CrownSpaceRules) {
  // An occupied crown space cannot take a second follower; a crown placement is instead of,
  // not in addition to, a follower on the tile; the followers used there leave the supply.
  EXPECT_THROW(replay(wof(R"([
    {"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:fortuna:0"},
    {"tile":"B","x":2,"y":4,"rotation":0,"meeple":"crown:fortuna:0"}])")),
               RecordError);
  EXPECT_THROW(replay(wof(R"([{"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:fortuna:1"}])")), RecordError);
  EXPECT_THROW(replay(wof(R"([{"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:nowhere:0"}])")), RecordError);
  // Legal moves offer every free crown space next to each placement (9 spaces).
  State s(wheel_game(), 3);
  s.apply_draw(s.game().type_index("B"));
  std::vector<Move> moves;
  s.legal_moves(moves);
  int crowns = 0, with_monk = 0;
  for (auto& m : moves) {
    crowns += m.ext.crown() >= 0;
    with_monk += m.meeple >= 0 && m.ext.crown() < 0;
  }
  EXPECT_EQ(crowns, 9 * (moves.size() / (1 + 2 + 9)));  // per place: nothing, monk, field, 9 crowns
  EXPECT_EQ(with_monk * 9, 2 * crowns);
}

TEST(WheelOfFortune, BoardCellsAreNotTurns) {
  // The board's cells are not turns: the record starts with the first attached tile.
  State s = replay(wof(R"([{"tile":"B","x":1,"y":-1,"rotation":0,"meeple":"Nw"}])")).state;
  const PlacedTile& cell = s.placed(s.tile_at(0, 0));
  EXPECT_EQ(s.root(cell.half_slot[2]), s.root(s.followers()[0].slot));  // (0,0) En: field A
  Record rec = record_of(s, {}, true);
  ASSERT_EQ(rec.turns.size(), 1u);
  EXPECT_EQ(rec.turns[0].tile, "B");
  EXPECT_FALSE(rec.start.has_value());
}

TEST(WheelOfFortune, FortuneTellerChoosesAWheelTileBeforePlacing) {
  // With fortune tellers a player draws several tiles; choosing a wheel tile is a decision of
  // its own (the wheel turns before placement, T-9); other tiles are placed directly.
  Rules rules;
  rules.tileset = "wheel-of-fortune";
  rules.set(Expansion::FortuneTeller);
  const Game* g = Game::get(rules);
  // A places a fortune teller on a tent (FT01, all field) next to the board.
  Record rec = wof(R"([{"tile":"FT01","x":1,"y":4,"rotation":0,"meeple":"C"},{"tile":"B","x":2,"y":4,"rotation":0}])", 2,
                   {"fortune-teller"});
  State s = replay(rec).state;
  ASSERT_EQ(s.draw_target(), 2);
  s.apply_draw(g->type_index("U@3"));
  s.apply_draw(g->type_index("E"));
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
  EXPECT_EQ(s.mod<WheelBlock>().pig_segment(), 0);
  for (auto& m : moves)
    if (m.kind == MoveKind::Choose) {
      s.apply(m);
      break;
    }
  EXPECT_EQ(s.mod<WheelBlock>().pig_segment(), 3);  // storm: A has 6 in supply (a fortune teller on the tent), B 7
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
  rules.set(Expansion::Festival);
  const Game* g = Game::get(rules);
  Replay r = replay(wof(R"([
    {"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:taxes:0"},
    {"tile":"B","x":2,"y":4,"rotation":0}])",
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
    EXPECT_FALSE(m.ext.crown() >= 0 && m.ext.takes_back());
    if (m.ext.take_back_crown() == 2) crown_back = true;  // taxes is segment 1: space 2
  }
  ASSERT_TRUE(crown_back);
  for (auto& m : moves)
    if (m.ext.take_back_crown() == 2) {
      s.apply(m);
      break;
    }
  EXPECT_EQ(s.mod<WheelBlock>().crown_player(2), -1);
  EXPECT_EQ(s.supply(0), 7);
  Record back = parse_record(record_to_json(record_of(s, {"A", "B"}, true)));
  ASSERT_TRUE(back.turns.back().take_back.has_value());
  EXPECT_EQ(back.turns.back().take_back->at, "crown:taxes:0");
  EXPECT_TRUE(replay(back).state == s);
}

TEST(WheelOfFortune, RandomGamesWithEveryExpansion) {
  int k = 0;
  for (const test::Variant& v : test::all_variants()) {
    if (v.rules.tileset != "wheel-of-fortune") continue;
    SCOPED_TRACE(v.name);
    Rules rules = v.rules;
    rules.players = 2 + k++ % 4;
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
        crowns += m.ext.crown() >= 0;
        if (m.kind == MoveKind::Plague) EXPECT_EQ(s.current_player(), s.mod<WheelBlock>().plague_decider());
        s.apply(m);
      }
      EXPECT_EQ(s.validate(), "");
      EXPECT_GT(crowns, 0);
      Replay rp = replay(parse_record(record_to_json(record_of(s, {}, false))));
      EXPECT_TRUE(rp.state == s) << rules.to_string() << " seed " << seed;
    }
  }
}
