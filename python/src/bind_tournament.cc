// Bindings: tournament games as pure functions of (rules, player specs, run seed, game index),
// the same C++ function `carcassonne tournament` plays (src/ai/tournament.h), and the summary JSON
// it prints. carcassonne.distributed (python/carcassonne/distributed.py) splits a tournament into
// ranges of game indices, plays each range on a cluster worker and summarises here, so the result
// is the CLI's, number for number, whichever worker played which game.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>

#include "common.h"
#include "player.h"
#include "tournament.h"

namespace carc::py {

namespace {

Rules tournament_rules(const std::vector<std::string>& players, std::optional<Rules> rules, const std::string& tileset,
                       const std::vector<std::string>& expansions) {
  if (players.size() < 2 || players.size() > 6)
    throw std::invalid_argument("a tournament needs 2 to 6 players, got " + std::to_string(players.size()));
  Rules r = rules ? *rules : make_rules(int(players.size()), tileset, expansions);
  r.players = int(players.size());
  if (auto err = r.validate(); !err.empty()) throw std::invalid_argument(err);
  return r;
}

std::vector<std::string> player_names(const std::vector<std::string>& players) {
  std::vector<std::string> names;
  for (const auto& p : players) names.push_back(ai::make_player(p, 0)->name());  // ValueError for a bad spec
  return names;
}

}  // namespace

void bind_tournament(pyb::module_& m) {
  m.def("derive_seed", &carc::derive_seed, pyb::arg("a"), pyb::arg("b"),
        "The seed derived from a run seed and an index: game i of a tournament draws with derive_seed(seed, i), "
        "its seat j plays with derive_seed(that, j + 1).");
  m.def("tournament_player", &match::tournament_player, pyb::arg("game"), pyb::arg("seat"), pyb::arg("players"),
        "The player index (into the spec list) in seat `seat` of tournament game `game`: (game + seat) % players.");
  m.def(
      "tournament_games",
      [](const std::vector<std::string>& players, uint64_t seed, int64_t start, int64_t stop,
         std::optional<Rules> rules, const std::string& tileset, const std::vector<std::string>& expansions,
         bool records) {
        const Rules r = tournament_rules(players, rules, tileset, expansions);
        if (start < 0 || stop < start)
          throw std::invalid_argument("need 0 <= start <= stop, got start " + std::to_string(start) + ", stop " +
                                      std::to_string(stop));
        player_names(players);  // every spec checked before the GIL is released
        const Game* g = Game::get(r);
        const int k = r.players;
        const auto n = size_t(stop - start);
        pyb::array_t<int32_t> scores({n, size_t(k)});
        std::vector<long long> iterations(size_t(k), 0), decisions(size_t(k), 0);
        std::vector<std::string> texts;
        {
          auto out = scores.mutable_unchecked<2>();
          pyb::gil_scoped_release release;
          for (int64_t i = start; i < stop; ++i) {
            match::TournamentGame t = match::play_tournament_game(g, players, seed, i, records);
            for (int p = 0; p < k; ++p) {
              out(i - start, p) = t.scores[size_t(p)];
              iterations[size_t(p)] += t.iterations[size_t(p)];
              decisions[size_t(p)] += t.decisions[size_t(p)];
            }
            if (records) texts.push_back(record_to_json(*t.record));
          }
        }
        pyb::dict d;
        d["scores"] = scores;
        d["iterations"] = iterations;
        d["decisions"] = decisions;
        d["records"] = records ? pyb::object(pyb::cast(texts)) : pyb::object(pyb::none());
        return d;
      },
      pyb::arg("players"), pyb::arg("seed"), pyb::arg("start"), pyb::arg("stop"), pyb::arg("rules") = pyb::none(),
      pyb::arg("tileset") = "base", pyb::arg("expansions") = std::vector<std::string>{},
      pyb::arg("records") = false,
      "Plays games start..stop-1 of the tournament `carcassonne tournament --players A,B --seed S` plays "
      "(GIL released). Returns {'scores': int32 array (games, players) by player index (not seat), "
      "'iterations', 'decisions': MCTS effort summed per player, 'records': record JSON texts or None}.");
  m.def(
      "tournament_summary",
      [](const std::vector<std::string>& players, pyb::array_t<int32_t, pyb::array::c_style | pyb::array::forcecast>
                                                      scores,
         const std::vector<long long>& iterations, const std::vector<long long>& decisions, uint64_t seed,
         double seconds, std::optional<Rules> rules, const std::string& tileset,
         const std::vector<std::string>& expansions) {
        const Rules r = tournament_rules(players, rules, tileset, expansions);
        const int k = r.players;
        if (scores.ndim() != 2 || scores.shape(1) != k)
          throw std::invalid_argument("scores must have shape (games, " + std::to_string(k) + ")");
        std::vector<std::vector<int>> by_game(size_t(scores.shape(0)), std::vector<int>(size_t(k)));
        auto in = scores.unchecked<2>();
        for (pyb::ssize_t n = 0; n < scores.shape(0); ++n)
          for (int p = 0; p < k; ++p) by_game[size_t(n)][size_t(p)] = in(n, p);
        return match::tournament_json(r, player_names(players), by_game, iterations, decisions, seed, seconds);
      },
      pyb::arg("players"), pyb::arg("scores"), pyb::arg("iterations"), pyb::arg("decisions"), pyb::arg("seed"),
      pyb::arg("seconds") = 0.0, pyb::arg("rules") = pyb::none(), pyb::arg("tileset") = "base",
      pyb::arg("expansions") = std::vector<std::string>{},
      "The JSON text `carcassonne tournament --json` prints, from every game's scores (by player index, in game "
      "order) and the summed MCTS iterations and decisions per player.");
}

}  // namespace carc::py
