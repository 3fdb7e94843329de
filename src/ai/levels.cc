// The lobby's AI levels (see levels.h). The ratings are the Elo ladder of docs/ai.md ("Levels",
// measured again in session 10, 2026-12-02, with the search's new defaults rk=3, fmerge=0.2):
// two-player base games at the levels' own iteration budgets, Bradley-Terry with greedy
// anchored at 1000, 95% intervals; games = the games each rating rests on.
#include "levels.h"

namespace carc::ai {

const std::vector<Level>& levels() {
  static const std::vector<Level> all = {
      {"easy", "Easy", "mcts:level=easy", 855, 779, 932, 180},
      {"medium", "Medium", "mcts:level=medium", 1361, 1268, 1453, 180},
      {"hard", "Hard", "mcts:level=hard", 1350, 1239, 1460, 80},
      {"greedy", "Greedy (fast)", "greedy", 1000, 1000, 1000, 240},
      {"random", "Random", "random", 150, -197, 497, 80},
  };
  return all;
}

}  // namespace carc::ai
