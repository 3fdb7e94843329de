// The lobby's AI levels (see levels.h). The ratings are the Elo ladder of docs/ai.md ("Levels",
// measured again in session 7, 2026-12-02, with the search's new defaults): two-player base
// games at the levels' own iteration budgets, Bradley-Terry with
// greedy anchored at 1000, 95% intervals; games = the games each rating rests on.
#include "levels.h"

namespace carc::ai {

const std::vector<Level>& levels() {
  static const std::vector<Level> all = {
      {"easy", "Easy", "mcts:level=easy", 875, 802, 949, 180},
      {"medium", "Medium", "mcts:level=medium", 1291, 1211, 1372, 180},
      {"hard", "Hard", "mcts:level=hard", 1302, 1200, 1404, 80},
      {"greedy", "Greedy (fast)", "greedy", 1000, 1000, 1000, 240},
      {"random", "Random", "random", 164, -183, 510, 80},
  };
  return all;
}

}  // namespace carc::ai
