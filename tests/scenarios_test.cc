// Base-game rules, one scenario per rule: a small scripted board, placements, expected points.
// Coordinates: x east, y south; start tile D at (0,0) (city north, road west-east) unless a
// scenario names another start tile.
#include <gtest/gtest.h>

#include "test_util.h"

using namespace carc;
using test::play;
using test::scenario;

namespace {
std::vector<int> scores_after(const std::string& turns, bool final = false, int players = 2,
                              const std::string& start = "") {
  return play(scenario(turns, players, start), final).state.scores();
}
}  // namespace

TEST(Scenario, TwoTileCityScoresFourAndReturnsTheKnight) {
  Replay r = play(scenario(R"([{"tile":"E","x":0,"y":-1,"rotation":180,"meeple":"S"}])"));
  EXPECT_EQ(r.state.scores(), (std::vector<int>{4, 0}));
  EXPECT_EQ(r.state.supply(0), 7);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].kind, "city");
  EXPECT_FALSE(r.events[0].final);
}

TEST(Scenario, CityWithPennantCompletedMidGame) {
  // D cap + M corner (pennant) + E cap: 3 tiles, 1 pennant = 2*3 + 2*1 = 8, completed by B for A.
  auto turns = R"([
    {"tile":"M","x":0,"y":-1,"rotation":90,"meeple":"S"},
    {"tile":"E","x":1,"y":-1,"rotation":270}])";
  Replay r = play(scenario(turns));
  EXPECT_EQ(r.after_turn[0], (std::vector<int>{0, 0}));
  EXPECT_EQ(r.after_turn[1], (std::vector<int>{8, 0}));
  EXPECT_EQ(r.state.supply(0), 7);
}

TEST(Scenario, IncompleteCityAtTheEndScoresOnePerTileAndPennant) {
  auto turns = R"([{"tile":"M","x":0,"y":-1,"rotation":90,"meeple":"E"}])";
  EXPECT_EQ(scores_after(turns, false), (std::vector<int>{0, 0}));
  Replay r = play(scenario(turns), true);
  EXPECT_EQ(r.state.scores(), (std::vector<int>{3, 0}));  // 2 tiles + 1 pennant
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_TRUE(r.events[0].final);
}

TEST(Scenario, TwoTileCityIsWorthFourNotTwo) {
  // B-11: no small-city exception.
  EXPECT_EQ(scores_after(R"([{"tile":"E","x":0,"y":-1,"rotation":180,"meeple":"S"}])"), (std::vector<int>{4, 0}));
}

// A road built from two separately occupied pieces, joined, then closed at both ends.
const char* kTiedRoad = R"([
    {"tile":"V","x":1,"y":0,"rotation":0,"meeple":"W"},
    {"tile":"V","x":2,"y":0,"rotation":270,"meeple":"E"},
    {"tile":"V","x":1,"y":1,"rotation":180},
    {"tile":"V","x":2,"y":1,"rotation":90},
    {"tile":"W","x":-1,"y":0,"rotation":0},
    {"tile":"W","x":3,"y":0,"rotation":180}])";

TEST(Scenario, SharedMajorityTieScoresEveryTiedPlayerInFull) {
  Replay r = play(scenario(kTiedRoad));
  EXPECT_EQ(r.after_turn[4], (std::vector<int>{0, 0}));
  EXPECT_EQ(r.state.scores(), (std::vector<int>{7, 7}));  // 7 distinct tiles each
  EXPECT_EQ(r.state.supply(0), 7);
  EXPECT_EQ(r.state.supply(1), 7);
}

TEST(Scenario, TwoAgainstOneMajorityAndTwoFollowersOfOnePlayer) {
  auto turns = R"([
    {"tile":"V","x":1,"y":0,"rotation":0,"meeple":"W"},
    {"tile":"V","x":2,"y":0,"rotation":270,"meeple":"E"},
    {"tile":"V","x":1,"y":1,"rotation":180},
    {"tile":"V","x":2,"y":1,"rotation":90},
    {"tile":"V","x":3,"y":1,"rotation":180,"meeple":"N"},
    {"tile":"V","x":3,"y":0,"rotation":0},
    {"tile":"W","x":-1,"y":0,"rotation":0},
    {"tile":"W","x":4,"y":1,"rotation":180}])";
  Replay r = play(scenario(turns));
  EXPECT_EQ(r.after_turn[6], (std::vector<int>{0, 0}));
  EXPECT_EQ(r.state.scores(), (std::vector<int>{9, 0}));  // A 2 thieves vs B 1: A takes all 9 tiles
  EXPECT_EQ(r.state.supply(0), 7);
  EXPECT_EQ(r.state.supply(1), 7);  // the loser's thief comes back too
}

TEST(Scenario, RoadLoopIsCompleteAndScoresDistinctTiles) {
  auto turns = R"([
    {"tile":"V","x":0,"y":1,"rotation":270,"meeple":"E"},
    {"tile":"V","x":1,"y":1,"rotation":0},
    {"tile":"V","x":1,"y":2,"rotation":90},
    {"tile":"V","x":0,"y":2,"rotation":180}])";
  Replay r = play(scenario(turns));
  EXPECT_EQ(r.after_turn[2], (std::vector<int>{0, 0}));
  EXPECT_EQ(r.state.scores(), (std::vector<int>{4, 0}));
}

TEST(Scenario, RoadEndsAtCityGateAndVillage) {
  // T's road ends at its city gate, L's at its village: D between them, 3 tiles.
  auto turns = R"([
    {"tile":"T","x":1,"y":0,"rotation":90,"meeple":"W"},
    {"tile":"L","x":-1,"y":0,"rotation":0}])";
  EXPECT_EQ(scores_after(turns), (std::vector<int>{3, 0}));
}

TEST(Scenario, CrossroadsEndsEveryRoad) {
  // X east of D: D's road ends at the crossroads; a W junction closes the west end.
  auto turns = R"([
    {"tile":"X","x":1,"y":0,"rotation":0,"meeple":"W"},
    {"tile":"W","x":-1,"y":0,"rotation":0,"meeple":"S"}])";
  Replay r = play(scenario(turns));
  EXPECT_EQ(r.state.scores(), (std::vector<int>{3, 0}));
  // B's thief on the junction's south road stays (that road is open).
  EXPECT_EQ(r.state.supply(1), 6);
  // At the end: B's one-tile road, and A's three open crossroads roads have no followers.
  EXPECT_EQ(play(scenario(turns), true).state.scores(), (std::vector<int>{3, 1}));
}

TEST(Scenario, MonasteryCompletedMidGameScoresNine) {
  auto turns = R"([
    {"tile":"B","x":0,"y":1,"rotation":0,"meeple":"C"},
    {"tile":"V","x":-1,"y":0,"rotation":180},
    {"tile":"V","x":1,"y":0,"rotation":90},
    {"tile":"B","x":-1,"y":1,"rotation":0},
    {"tile":"B","x":1,"y":1,"rotation":0},
    {"tile":"A","x":0,"y":2,"rotation":0},
    {"tile":"A","x":-1,"y":2,"rotation":90},
    {"tile":"B","x":1,"y":2,"rotation":0}])";
  Replay r = play(scenario(turns));
  EXPECT_EQ(r.after_turn[6], (std::vector<int>{0, 0}));
  EXPECT_EQ(r.state.scores(), (std::vector<int>{9, 0}));
  EXPECT_EQ(r.state.supply(0), 7);
  ASSERT_FALSE(r.events.empty());
  EXPECT_EQ(r.events.back().kind, "monastery");
}

TEST(Scenario, MonasteriesAtTheEndScoreOnePlusNeighbours) {
  // A's monastery at (0,1): neighbours D and B's monastery -> 1 + 2 = 3.
  // B's monastery at (1,1): neighbours (0,1) and D diagonally -> 1 + 2 = 3.
  auto turns = R"([
    {"tile":"B","x":0,"y":1,"rotation":0,"meeple":"C"},
    {"tile":"B","x":1,"y":1,"rotation":0,"meeple":"C"}])";
  EXPECT_EQ(scores_after(turns, true), (std::vector<int>{3, 3}));
  // One neighbour only.
  EXPECT_EQ(scores_after(R"([{"tile":"B","x":0,"y":1,"rotation":0,"meeple":"C"}])", true), (std::vector<int>{2, 0}));
}

TEST(Scenario, FarmsNextToSeveralCitiesOneCityCountedByTwoFarms) {
  // City C1 = D cap + E (0,-1); city C2 = J (-1,0) + E (-1,-1); both complete.
  // A's farm above the cities touches C1 and C2; B's farm between the cities and the road
  // touches C1 and C2 too: each farm scores 3 per city, so C1 and C2 count for both farms.
  auto turns = R"([
    {"tile":"E","x":0,"y":-1,"rotation":180,"meeple":"Nw"},
    {"tile":"U","x":1,"y":0,"rotation":90,"meeple":"Nw"},
    {"tile":"J","x":-1,"y":0,"rotation":0},
    {"tile":"E","x":-1,"y":-1,"rotation":180}])";
  Replay during = play(scenario(turns));
  EXPECT_EQ(during.state.scores(), (std::vector<int>{0, 0}));  // cities had no knights; farms wait
  Replay r = play(scenario(turns), true);
  EXPECT_EQ(r.state.scores(), (std::vector<int>{6, 6}));
  for (auto& e : r.events) EXPECT_EQ(e.kind, "farm");
}

TEST(Scenario, IncompleteCityGivesTheFarmNothing) {
  // B's farmer on D's north field touches only D's city cap, which stays open.
  auto turns = R"([{"tile":"U","x":1,"y":0,"rotation":90,"meeple":"Nw"}])";
  EXPECT_EQ(scores_after(turns, true), (std::vector<int>{0, 0}));
}

TEST(Scenario, FarmMajority) {
  // A and B farmers in the south field of D and U (no city): nobody scores; then the
  // north field: A has one farmer, B none -> A scores C1 (completed) = 3.
  auto turns = R"([
    {"tile":"E","x":0,"y":-1,"rotation":180},
    {"tile":"U","x":1,"y":0,"rotation":90,"meeple":"Es"},
    {"tile":"U","x":-1,"y":0,"rotation":90,"meeple":"En"}])";
  EXPECT_EQ(scores_after(turns, true), (std::vector<int>{3, 0}));
}

TEST(Scenario, FollowerMayNotJoinAnOccupiedFeature) {
  // B tries to put a knight on a cap that joins A's city.
  auto turns = R"([
    {"tile":"M","x":0,"y":-1,"rotation":90,"meeple":"S"},
    {"tile":"E","x":1,"y":-1,"rotation":270,"meeple":"W"}])";
  try {
    play(scenario(turns));
    FAIL() << "expected an error";
  } catch (const RecordError& e) {
    EXPECT_EQ(e.turn(), 2);
    EXPECT_NE(std::string(e.what()).find("already occupied"), std::string::npos) << e.what();
  }
}

TEST(Scenario, FollowerJudgedAfterPlacementWhenTwoSegmentsJoinOneField) {
  // Start E rotated 90 (cap east); its field wraps north, west and south. B tiles above and
  // below (1,-1), (1,1) join that field, where A has a farmer. G at (1,0): its two fields
  // (north and south of the band) both join A's field: no farmer on either, the city is free.
  auto base = std::string(R"([
    {"tile":"B","x":0,"y":-1,"rotation":0,"meeple":"Nw"},
    {"tile":"B","x":1,"y":-1,"rotation":0},
    {"tile":"B","x":0,"y":1,"rotation":0},
    {"tile":"B","x":1,"y":1,"rotation":0},
    {"tile":"G","x":1,"y":0,"rotation":0)");
  EXPECT_THROW(play(scenario(base + R"(,"meeple":"Nw"}])", 2, "E/90")), RecordError);
  EXPECT_THROW(play(scenario(base + R"(,"meeple":"Se"}])", 2, "E/90")), RecordError);
  Replay r = play(scenario(base + R"(,"meeple":"E"}])", 2, "E/90"));
  EXPECT_EQ(r.state.supply(0), 5);
}

TEST(Scenario, UnplaceableTileLeavesTheGame) {
  // Start C (city on all sides): B (all fields) fits nowhere and is discarded.
  auto turns = R"([{"discarded":["B"],"tile":"E","x":0,"y":-1,"rotation":180}])";
  Replay r = play(scenario(turns, 2, "C"));
  const int b = r.state.game().type_index("B");
  EXPECT_EQ(r.state.bag_count(b), 3);  // 4 B tiles, one left the game
  EXPECT_EQ(r.state.bag_size(), 72 - 1 - 1 - 1);
  // Listing a placeable tile as discarded, or placing an unplaceable one, is an error.
  EXPECT_THROW(play(scenario(R"([{"discarded":["E"],"tile":"E","x":0,"y":-1,"rotation":180}])", 2, "C")), RecordError);
  EXPECT_THROW(play(scenario(R"([{"tile":"B","x":0,"y":-1,"rotation":0}])", 2, "C")), RecordError);
  // Record written back keeps the discard.
  Record again = record_of(r.state, {"A", "B"}, true);
  ASSERT_EQ(again.turns.size(), 1u);
  EXPECT_EQ(again.turns[0].discarded, std::vector<std::string>{"B"});
}

TEST(Scenario, ScoresForThreeToSixPlayers) {
  // The tied road with 3 players: A, B, then C places; the third seat shares nothing.
  for (int n = 3; n <= 6; ++n) {
    Replay r = play(scenario(kTiedRoad, n));
    // Turn order A, B, C, ...: the followers are A's (turn 1) and B's (turn 2).
    EXPECT_EQ(r.state.score(0), 7);
    EXPECT_EQ(r.state.score(1), 7);
    for (int p = 2; p < n; ++p) EXPECT_EQ(r.state.score(p), 0);
  }
}

TEST(Scenario, IllegalPlacementsAreRejectedWithTheReason) {
  auto expect_error = [](const std::string& turns, const std::string& part) {
    try {
      play(scenario(turns));
      FAIL() << "expected an error for " << turns;
    } catch (const RecordError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("turn 1: ", 0), 0u) << e.what();
    }
  };
  expect_error(R"([{"tile":"E","x":0,"y":-1,"rotation":0}])", "does not fit");
  expect_error(R"([{"tile":"E","x":5,"y":5,"rotation":0}])", "touches no tile");
  expect_error(R"([{"tile":"E","x":0,"y":0,"rotation":0}])", "already taken");
  expect_error(R"([{"tile":"E","x":0,"y":-1,"rotation":180,"meeple":"C"}])", "no follower location");
  expect_error(R"([{"tile":"Z","x":0,"y":-1,"rotation":180}])", "unknown tile");
  try {
    play(scenario(R"([{"tile":"C","x":0,"y":-1,"rotation":0},{"tile":"C","x":0,"y":-2,"rotation":0}])"));
    FAIL();
  } catch (const RecordError& e) {
    EXPECT_EQ(std::string(e.what()), "turn 2: no tile C is left in the bag");
  }
}

TEST(Scenario, DoesNotFitMessageNamesEdges) {
  try {
    play(scenario(R"([{"tile":"K","x":1,"y":0,"rotation":270}])"));
    FAIL();
  } catch (const RecordError& e) {
    EXPECT_EQ(std::string(e.what()), "turn 1: tile K does not fit at (1,0) rotation 270: its west edge (city) meets a road");
  }
}
