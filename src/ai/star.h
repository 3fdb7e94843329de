// A Star2.5-style expectimax player (Heyden's Carcassonne AI, "Implementing a Computer Player
// for Carcassonne", 2009): a second yardstick from the literature next to random and greedy
// (docs/ai.md, "The star yardstick"). Depth 2: each of its own moves, then every tile the next
// player may draw (a chance node, weighted by the tile's count in the bag), then that player's
// best reply by the heuristic (its own margin: max-n), valued by the same heuristic at the leaf.
// Sees only public information: the bag's order is drawn afresh (State::resample_hidden) before
// any draw is simulated.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "player.h"

namespace carc::ai {

struct StarConfig {
  // Own moves searched to depth 2: the best `width` by the one-turn heuristic value (0: all).
  // Star2.5 prunes with bounds; a beam over the greedy order is the same idea, cheaper to state.
  int width = 8;
  bool expect = false;  // eval=expect: the expect heuristic at the leaves (default: greedy's)
  uint64_t seed = 0;
};

// Parses the spec's parameters (width=N, eval=plain|expect, seed=N); throws
// std::invalid_argument naming a bad or unknown parameter.
StarConfig star_config_from(const std::vector<std::pair<std::string, std::string>>& params, uint64_t seed);
std::unique_ptr<Player> make_star_player(const StarConfig& cfg);

}  // namespace carc::ai
