// The Festival and the Fortune Teller: scenario tests with expected points.
#include <gtest/gtest.h>

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
    returns += m.ret >= 0;
    placements += m.meeple < 0 && m.ret < 0;
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
  EXPECT_EQ(r.state.tents(0), 0);
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
  EXPECT_EQ(r.state.tents(0), 2);
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

TEST(FortuneTeller, SeededGamesWithSeveralDrawsReplayExactly) {
  Rules r;
  r.fortune_teller = true;
  r.festival = true;
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
  EXPECT_EQ(r.state.tents(0), 0);
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
