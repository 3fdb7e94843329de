// The lobby's AI levels (see levels.h). The ratings are the Elo ladder of docs/ai.md ("Levels",
// 2026-12-01): two-player base games at the levels' own iteration budgets, Bradley-Terry with
// greedy anchored at 1000, 95% intervals; games = the games each rating rests on.
#include "levels.h"

namespace carc::ai {

const std::vector<Level>& levels() {
  static const std::vector<Level> all = {
      {"easy", "Easy", "mcts:level=easy", 938, 868, 1008, 180},
      {"medium", "Medium", "mcts:level=medium", 1315, 1233, 1397, 180},
      {"hard", "Hard", "mcts:level=hard", 1347, 1241, 1454, 80},
      {"greedy", "Greedy (fast)", "greedy", 1000, 1000, 1000, 240},
      {"random", "Random", "random", 203, -142, 548, 80},
  };
  return all;
}

}  // namespace carc::ai
