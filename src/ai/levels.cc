// The lobby's AI levels (see levels.h). The ratings are filled in from the Elo ladder of
// docs/ai.md once it is measured; until then every level has games = 0 ("not calibrated
// yet") and no rating is shown anywhere.
#include "levels.h"

namespace carc::ai {

const std::vector<Level>& levels() {
  static const std::vector<Level> all = {
      {"easy", "Easy", "mcts:level=easy", 0, 0, 0, 0},
      {"medium", "Medium", "mcts:level=medium", 0, 0, 0, 0},
      {"hard", "Hard", "mcts:level=hard", 0, 0, 0, 0},
      {"greedy", "Greedy (fast)", "greedy", 0, 0, 0, 0},
      {"random", "Random", "random", 0, 0, 0, 0},
  };
  return all;
}

}  // namespace carc::ai
