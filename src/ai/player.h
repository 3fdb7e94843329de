// One interface for every AI player (random, greedy, mcts), chosen by name from an explicit
// registry (no static-initialisation tricks). Players see the game only through the
// engine's public State API and never read hidden information: the future order of the bag
// (a player must call State::resample_hidden on its own copies before simulating) and, with
// the Fruit-Bearing Trees, face-down fruit token values.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "state.h"

namespace carc::ai {

// What a player thinks of one candidate move (for `carcassonne analyse` and hints).
struct MoveEval {
  Move move;
  double win_probability = 0;   // estimated, for the player to move
  double score_diff = 0;        // expected final score minus the best opponent's
  int visits = 0;               // search effort spent on it (0 for non-search players)
};

class Player {
 public:
  virtual ~Player() = default;
  // The spec this player was made from, normalised (e.g. "mcts:time=1s").
  virtual std::string name() const = 0;
  // A legal move for s.current_player(). Precondition: s.current_player() >= 0.
  virtual Move choose(const State& s) = 0;
  // Candidate moves with estimates, best first. Default: the chosen move alone.
  virtual std::vector<MoveEval> analyse(const State& s) {
    return {MoveEval{choose(s), 0.5, 0, 0}};
  }
};

// A player from a spec: NAME[:key=value[:key=value...]], e.g. "random", "greedy",
// "mcts:time=1s", "mcts:iterations=2000:threads=2", "mcts:level=hard". `seed` seeds its
// randomness (same seed, same budget in iterations => same moves).
// Throws std::invalid_argument with a message that says what is wrong and what is allowed.
std::unique_ptr<Player> make_player(const std::string& spec, uint64_t seed = 0);

// The registry: each player name with a one-line description of it and its parameters.
struct PlayerInfo {
  std::string name;
  std::string description;
};
const std::vector<PlayerInfo>& player_registry();

// Convenience: one move from a freshly made player.
Move choose_move(const State& s, const std::string& spec, uint64_t seed = 0);

}  // namespace carc::ai
