// The learned value network of eval=net (src/ai/value_net.h): its file format and errors, its
// features, how it moves the heuristic's values, and that players accept it.
#include <gtest/gtest.h>

#include <cmath>

#include "eval.h"
#include "player.h"
#include "playout.h"
#include "value_net.h"

namespace carc::ai {
namespace {

const char* kIdentity =
    "# a comment\ncarcassonne-value-net/1\nfeatures 10 hidden 0\n0\n1 0 0 0 0 0 0 0 0 0\n";

// One hidden unit: prediction = 50 * (2 * tanh(x[2]) + 0.5).
const char* kOneUnit =
    "carcassonne-value-net/1\nfeatures 10 hidden 1\n0 0 1 0 0 0 0 0 0 0\n0\n2\n0.5\n0 0 0 0 0 0 0 0 0 0\n";

State midgame(uint64_t seed) {
  Rules r;
  State s(Game::get(r), seed);
  Rng rng(seed);
  play_random_until(s, rng, 20);
  return s;
}

TEST(ValueNet, ParsesTheTextFormatAndPredicts) {
  const ValueNet id = ValueNet::parse(kIdentity);
  EXPECT_EQ(id.hidden(), 0);
  Features x{};
  x[0] = 0.3f;
  EXPECT_NEAR(id.predict(x), 15.0, 1e-4);  // 50 points per unit
  const ValueNet one = ValueNet::parse(kOneUnit);
  x[2] = 0.5f;
  EXPECT_NEAR(one.predict(x), 50.0 * (2 * std::tanh(0.5) + 0.5), 1e-3);
}

TEST(ValueNet, RefusesBadFilesNamingTheLine) {
  auto err = [](const std::string& text) {
    try {
      ValueNet::parse(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(err("carcassonne-value-net/2\n").find("expected 'carcassonne-value-net/1'"), std::string::npos);
  EXPECT_NE(err("carcassonne-value-net/1\nfeatures 9 hidden 0\n").find("line 2"), std::string::npos);
  EXPECT_NE(err("carcassonne-value-net/1\nfeatures 10 hidden 257\n").find("0..256"), std::string::npos);
  EXPECT_NE(err("carcassonne-value-net/1\nfeatures 10 hidden -1\n").find("0..256"), std::string::npos);
  EXPECT_NE(err("carcassonne-value-net/1\nfeatures 10 hidden 0\n0\n1 0 0\n").find("ends early"), std::string::npos);
  EXPECT_NE(err("carcassonne-value-net/1\nfeatures 10 hidden 0\nnan\n1 0 0 0 0 0 0 0 0 0\n").find("finite"),
            std::string::npos);
  EXPECT_NE(err("carcassonne-value-net/1\nfeatures 10 hidden 0\n1e300\n1 0 0 0 0 0 0 0 0 0\n").find("finite"),
            std::string::npos);
  EXPECT_NE(err(std::string(kIdentity) + "7\n").find("unexpected data"), std::string::npos);
  EXPECT_NE(err("carcassonne-value-net/1\nfeatures 10 hidden 0\n0x\n1 0 0 0 0 0 0 0 0 0\n").find("line 3"),
            std::string::npos);
  EXPECT_THROW(ValueNet::load("/nonexistent/value.txt"), std::invalid_argument);
  EXPECT_GE(ValueNet::builtin().hidden(), 0);  // the shipped file parses
}

TEST(ValueNet, FeaturesReadThePositionForEachPlayer) {
  const State s = midgame(3);
  const NetSnapshot snap = NetSnapshot::of(s);
  const Values h = evaluate(s, EvalWeights::expected());
  const Features f0 = value_features(snap, h, 0), f1 = value_features(snap, h, 1);
  EXPECT_NEAR(f0[0], (h[0] - h[1]) / 50.0, 1e-5);
  EXPECT_NEAR(f0[0], -f1[0], 1e-5);
  EXPECT_NEAR(f0[1], (s.score(0) - s.score(1)) / 50.0, 1e-6);
  EXPECT_NEAR(f0[2], double(s.bag_size()) / s.game().total_tiles(), 1e-6);
  EXPECT_NEAR(f0[3], s.supply(0) / 7.0, 1e-6);
  EXPECT_NEAR(f0[4], s.supply(1) / 7.0, 1e-6);
  EXPECT_EQ(f0[5] + f1[5], 1.0f);  // exactly one of them moves next
  EXPECT_NEAR(f0[9], 2 / 6.0, 1e-6);
}

TEST(ValueNet, AdjustMakesTheMarginsThePredictions) {
  const State s = midgame(5);
  const NetSnapshot snap = NetSnapshot::of(s);
  const Values h = evaluate(s, EvalWeights::expected());
  // The identity network leaves the values as they are.
  Values same = h;
  ValueNet::parse(kIdentity).adjust(snap, same);
  for (int p = 0; p < 2; ++p) EXPECT_NEAR(same[p], h[p], 1e-3);
  // Another network: each player's margin is the mean of its prediction and minus the other's.
  const ValueNet one = ValueNet::parse(kOneUnit);
  Values moved = h;
  one.adjust(snap, moved);
  const double p0 = one.predict(value_features(snap, h, 0)), p1 = one.predict(value_features(snap, h, 1));
  EXPECT_NEAR(moved[0] - moved[1], (p0 - p1) / 2, 1e-6);
}

TEST(ValueNet, PlayersTakeEvalNet) {
  for (const char* spec : {"greedy:eval=net", "mcts:iterations=50:eval=net"}) {
    auto p = make_player(spec, 1);
    EXPECT_NE(p->name().find("eval=net"), std::string::npos) << p->name();
    const State s = midgame(7);
    const Move m = p->choose(s);
    EXPECT_TRUE(s.check_move(m).empty()) << spec;
  }
  EXPECT_THROW(make_player("mcts:eval=nett"), std::invalid_argument);
  // At the end of the game the values are the final scores, whatever the network says.
  State s = midgame(9);
  Rng rng(9);
  std::vector<Move> scratch;
  random_playout(s, rng, scratch);
  EvalWeights w = EvalWeights::expected();
  w.net = true;
  const Values v = evaluate(s, w);
  EXPECT_EQ(v[0], s.score(0));
  EXPECT_EQ(v[1], s.score(1));
}

}  // namespace
}  // namespace carc::ai
