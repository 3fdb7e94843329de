#include "runner.h"

#include <memory>
#include <stdexcept>

#include "mcts.h"
#include "player.h"
#include "playout.h"

namespace carc::match {

bool all_random(const std::vector<std::string>& specs) {
  for (const auto& s : specs)
    if (s != "random") return false;
  return true;
}

SeatedGame play_game(const Game* g, const std::vector<std::string>& seat_specs, uint64_t game_seed, bool keep_record,
                     const std::vector<std::string>& names) {
  const int k = g->rules().players;
  if (int(seat_specs.size()) != k)
    throw std::invalid_argument("need one player spec per seat: " + std::to_string(k) + " seats, " +
                                std::to_string(seat_specs.size()) + " specs");
  if (!names.empty() && int(names.size()) != k)
    throw std::invalid_argument("need one name per seat: " + std::to_string(k) + " seats, " +
                                std::to_string(names.size()) + " names");
  SeatedGame r;
  r.seed = game_seed;
  r.iterations.assign(size_t(k), 0);
  r.decisions.assign(size_t(k), 0);
  State s(g, game_seed);
  std::vector<std::string> seat_names = names;
  if (all_random(seat_specs)) {
    const PlayoutStats st = random_playout_seated(s, game_seed);
    r.moves = st.moves;
    r.followers_deployed = st.followers_deployed;
    if (seat_names.empty()) seat_names = seat_specs;
  } else {
    std::vector<std::unique_ptr<ai::Player>> seat;
    for (int j = 0; j < k; ++j) seat.push_back(ai::make_player(seat_specs[size_t(j)], seat_seed(game_seed, j)));
    if (seat_names.empty())
      for (const auto& p : seat) seat_names.push_back(p->name());
    while (!s.is_terminal()) {
      if (s.is_chance()) {
        s.draw_random();
        continue;
      }
      const int cp = s.current_player();
      const Move m = seat[size_t(cp)]->choose(s);
      r.followers_deployed += m.meeple >= 0;
      ++r.moves;
      s.apply(m);
      if (auto* mc = dynamic_cast<ai::MctsPlayer*>(seat[size_t(cp)].get())) {
        r.iterations[size_t(cp)] += mc->last_stats().iterations;
        r.decisions[size_t(cp)] += 1;
      }
    }
  }
  r.scores = s.scores();
  if (keep_record) r.record = record_of(s, seat_names);
  return r;
}

}  // namespace carc::match
