// Uniformly random play: the reference workload for `simulate` and `bench`, and the
// default rollout of MCTS. Each decision is uniform over all legal moves.
#pragma once

#include <vector>

#include "state.h"

namespace carc {

struct PlayoutStats {
  int moves = 0;
  int followers_deployed = 0;
};

// Plays `s` to the end: chance nodes with the state's own generator, decisions uniformly
// with `rng` (State::sample_move: the same moves as picking from legal_moves()). `moves` is
// scratch space kept for callers that list moves.
inline PlayoutStats random_playout(State& s, Rng& rng, std::vector<Move>& moves) {
  PlayoutStats st;
  while (!s.is_terminal()) {
    if (s.is_chance()) {
      s.draw_random();
      continue;
    }
    const Move m = s.sample_move(rng);
    st.followers_deployed += m.meeple >= 0;
    ++st.moves;
    s.apply(m);
  }
  return st;
}

}  // namespace carc
