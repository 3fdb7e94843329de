// One game of a tournament as a pure function of (rules, player specs, run seed, game index),
// and the summary of a finished tournament as JSON. `carcassonne tournament` and the Python
// module (carcassonne.tournament, carcassonne.distributed) all use these, so a game played on a
// cluster worker is the same game the CLI plays, and the statistics are computed by the same code.
// The game itself is played by the match runner (runner.h) with the seed rule of seeds.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "record.h"
#include "rules.h"
#include "seeds.h"
#include "state.h"

namespace carc::match {

// The player index (into the spec list) that takes seat `seat` in game `i` of a tournament
// between k players: (i + seat) % k, so the seats rotate from game to game.
inline int tournament_player(int64_t i, int seat, int k) { return int((i + seat) % k); }

struct TournamentGame {
  std::vector<int> scores;                       // final scores by player index (not seat)
  std::vector<long long> iterations, decisions;  // MCTS search effort by player index (0 for others)
  std::optional<Record> record;                  // when asked for; players named by their specs' names
};

// Plays game `i` of a tournament between the players `specs` (2..6, one per seat) on game `g`:
// the draws are seeded with game_seed(seed, i), seat j is taken by player tournament_player(i, j, k)
// (seeds.h, runner.h: play_game with the rotated seating). Deterministic for deterministic players (fixed iterations).
// Throws std::invalid_argument for a bad spec or player count.
TournamentGame play_tournament_game(const Game* g, const std::vector<std::string>& specs, uint64_t seed, int64_t i,
                                    bool keep_record = false);

// The JSON object `carcassonne tournament --json` prints (one line, no trailing newline), from
// every game's scores by player index in game order, the summed MCTS iterations and decisions
// per player, the run seed and the wall time. `names` are the players' normalised names.
std::string tournament_json(const Rules& rules, const std::vector<std::string>& names,
                            const std::vector<std::vector<int>>& scores_by_game,
                            const std::vector<long long>& iterations, const std::vector<long long>& decisions,
                            uint64_t seed, double seconds);

}  // namespace carc::match
