// The AI levels a player picks in the lobby (and `carcassonne play --vs`): each a player spec
// with a label and its measured strength on the Elo ladder of docs/ai.md. `games == 0` means
// the level is not calibrated yet (elo, elo_low and elo_high are then meaningless, 0).
#pragma once

#include <string>
#include <vector>

namespace carc::ai {

struct Level {
  std::string name;   // short id: "easy", "medium", "hard", "greedy", "random"
  std::string label;  // what the lobby shows: "Easy", "Quick"
  std::string description;  // one plain sentence on how it plays
  std::string spec;   // the player spec (make_player): "mcts:level=easy"
  double elo, elo_low, elo_high;  // rating and its confidence interval (docs/ai.md, "Levels")
  int games;                      // games the rating rests on; 0 = not calibrated yet
};

// The levels in the order the lobby lists them (the default first, then by strength). easy,
// medium and hard are at least 100 Elo apart, hard on top (docs/ai.md, "Levels").
const std::vector<Level>& levels();

}  // namespace carc::ai
