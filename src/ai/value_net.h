// A learned correction to the heuristic (issue #37): a small network that reads a few numbers of a
// position, per player, and predicts that player's final margin (own final score minus the best
// other player's). MCTS uses it where a rollout is cut short (`mcts:eval=net`): the heuristic's
// values are moved so that each player's margin is the network's prediction.
//
// The network is trained by the project's own pipeline (scripts/train-value-net.sh: self-play
// shards from carcassonne.distributed, training in PyTorch, docs/ai.md "Learned evaluator") and
// stored as a small text file, data/nets/value.txt, embedded at build time. The features are
// computed here, in C++, for both training (Python calls value_features through the bindings) and
// play, so the two cannot drift.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "eval.h"
#include "state.h"

namespace carc::ai {

// What value_features reads of a position before the heuristic consumes it.
struct NetSnapshot {
  int players = 2;
  int to_move = -1;        // the player to move (-1 at a chance node or the end)
  double bag_share = 0;    // tiles left in the bag / tiles of the game
  std::array<int, kMaxPlayers> score{}, supply{};
  static NetSnapshot of(const State& s);
};

constexpr int kValueFeatures = 10;
using Features = std::array<float, kValueFeatures>;

// The features of player `p`: the heuristic's margin and the current score margin (in 50 points),
// the bag share, followers in hand (own and the best opponent's, in 7), whether p moves next, the
// two margins times the bag share, the own heuristic value (in 100) and the number of players (in 6).
// `h` are the heuristic's values (evaluate_consuming with MCTS's weights) of the same position.
Features value_features(const NetSnapshot& snap, const Values& h, int p);

// A two-layer perceptron: prediction = w_out . tanh(W1 x + b1) + b_out + skip . x, in units of 50
// points of margin.
class ValueNet {
 public:
  // Parses the text format (throws std::invalid_argument naming the line):
  //   carcassonne-value-net/1
  //   features F hidden H
  //   then H*F numbers (W1 by rows), H (b1), H (w_out), 1 (b_out), F (skip), whitespace-separated;
  //   lines starting with '#' are comments.
  static ValueNet parse(const std::string& text);
  static ValueNet load(const std::string& path);
  // The network shipped with the program (data/nets/value.txt, embedded).
  static const ValueNet& builtin();
  // The one eval=net uses: builtin(), or the file named by the environment variable
  // CARC_VALUE_NET when it is set (for trying a newly trained network without a rebuild; an
  // operator's setting, never reachable from a player spec). Read once.
  static const ValueNet& active();

  int hidden() const { return hidden_; }
  // Predicted final margin of the player whose features these are, in points.
  double predict(const Features& x) const;
  // Moves the heuristic's values `h` so that each player's margin is the predicted one.
  void adjust(const NetSnapshot& snap, Values& h) const;

 private:
  int hidden_ = 0;
  std::vector<float> w1_, b1_, wout_, skip_;
  float bout_ = 0;
};

}  // namespace carc::ai
