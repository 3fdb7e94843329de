// Uniformly random play: the reference workload for `simulate` and `bench`, and the
// default rollout of MCTS. Each decision is uniform over all legal moves.
#pragma once

#include <vector>

#include "seeds.h"
#include "state.h"

namespace carc {

struct PlayoutStats {
  int moves = 0;
  int followers_deployed = 0;
};

// Plays `s` to the end: chance nodes with the state's own generator, decisions uniformly
// with `rng` (State::sample_move: uniform over legal_moves(), without listing them). `moves` is
// scratch space kept for callers that list moves.
inline PlayoutStats random_playout(State& s, Rng& rng, std::vector<Move>& moves) {
  PlayoutStats st;
  while (!s.is_terminal()) {
    if (s.is_chance()) {
      s.draw_random();
      continue;
    }
    const Move m = s.sample_move(rng);
    st.followers_deployed += m.deploys();
    ++st.moves;
    s.apply(m);
  }
  return st;
}

// A game of uniformly random seats, as ai::RandomPlayer plays each seat (seeds.h): seat j decides
// with its own generator random_seat_rng(game_seed, j), one State::sample_move per decision; chance
// nodes with the state's generator. `s` starts at the game's beginning, made with `game_seed`.
// The fast path of simulate and play_games: the same game as the match runner's with "random" seats.
inline PlayoutStats random_playout_seated(State& s, uint64_t game_seed) {
  Rng rngs[kMaxPlayers];
  for (int j = 0; j < s.num_players(); ++j) rngs[j] = random_seat_rng(game_seed, j);
  PlayoutStats st;
  while (!s.is_terminal()) {
    if (s.is_chance()) {
      s.draw_random();
      continue;
    }
    const Move m = s.sample_move(rngs[s.current_player()]);
    st.followers_deployed += m.meeple >= 0;
    ++st.moves;
    s.apply(m);
  }
  return st;
}

// Plays uniformly random moves from `s` until turn `turn` is reached (or the game ends),
// then draws until a tile is to be placed: a position for benchmarks and tests.
inline void play_random_until(State& s, Rng& rng, int turn) {
  while (!s.is_terminal() && s.turn() < turn) {
    if (s.is_chance()) s.draw_random();
    else s.apply(s.sample_move(rng));
  }
  while (s.is_chance()) s.draw_random();
}

}  // namespace carc
