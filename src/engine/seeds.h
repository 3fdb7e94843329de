// The one seed rule of every front end (issue #36): `carcassonne simulate` and `tournament`,
// Python's play_games/tournament, the Dask module and the server's AI seats all derive their
// seeds here, so the same (run seed, game index, seating) is the same game everywhere.
//
//   game i of a run with seed S draws with        game_seed(S, i)
//   the player in seat j of a game with seed G    seat_seed(G, j)   (its own generator)
//   a uniformly random seat plays with            Rng(seat_seed(G, j) ^ kRandomSeatSalt),
//                                                 one State::sample_move per decision
//
// derive_seed is a bijective mix of its two arguments through one step of the engine's
// generator, so nearby indices give unrelated seeds.
#pragma once

#include <cstdint>

#include "types.h"

namespace carc {

inline uint64_t derive_seed(uint64_t a, uint64_t b) {
  Rng r(a * 0x9E3779B97F4A7C15ull ^ (b * 0xC2B2AE3D27D4EB4Full + 0x165667B19E3779F9ull));
  return r.next();
}
inline uint64_t game_seed(uint64_t run_seed, uint64_t index) { return derive_seed(run_seed, index); }
inline uint64_t seat_seed(uint64_t game_seed, int seat) { return derive_seed(game_seed, uint64_t(seat) + 1); }

// The generator of a uniformly random seat ("random"): the same for ai::RandomPlayer and for
// the fast all-random path of simulate/play_games (random_playout_seated in playout.h).
inline constexpr uint64_t kRandomSeatSalt = 0x72616e64ull;  // "rand"
inline Rng random_seat_rng(uint64_t game_seed, int seat) { return Rng(seat_seed(game_seed, seat) ^ kRandomSeatSalt); }

}  // namespace carc
