// Bindings: the AI players (src/ai) by spec, e.g. "random", "greedy", "mcts:time=0.1s".
// Searches run with the GIL released. Players never see hidden information (they resample
// the draw generator on their own copies).
#include <pybind11/stl.h>

#include "common.h"
#include "player.h"

namespace carc::py {

namespace {

struct PyPlayer {
  std::unique_ptr<ai::Player> p;
};

}  // namespace

void bind_ai(pyb::module_& m) {
  pyb::class_<PyPlayer>(m, "Player", "An AI player made from a spec (see players()).")
      .def(pyb::init([](const std::string& spec, uint64_t seed) { return PyPlayer{ai::make_player(spec, seed)}; }),
           pyb::arg("spec"), pyb::arg("seed") = 0)
      .def_property_readonly("name", [](const PyPlayer& p) { return p.p->name(); })
      .def(
          "choose",
          [](PyPlayer& p, const PyState& ps) {
            require_decision(ps.s);
            const State copy = ps.s;  // the search runs without the GIL: never on a shared object
            Move mv;
            {
              pyb::gil_scoped_release release;
              mv = p.p->choose(copy);
            }
            return from_engine(ps.s, mv);
          },
          pyb::arg("state"), "A legal move for the player to move.")
      .def(
          "analyse",
          [](PyPlayer& p, const PyState& ps) {
            require_decision(ps.s);
            const State copy = ps.s;
            std::vector<ai::MoveEval> ev;
            {
              pyb::gil_scoped_release release;
              ev = p.p->analyse(copy);
            }
            std::vector<std::tuple<PyMove, double, double, int>> out;
            for (const auto& e : ev)
              out.emplace_back(from_engine(ps.s, e.move), e.win_probability, e.score_diff, e.visits);
            return out;
          },
          pyb::arg("state"), "[(move, win probability, expected score difference, visits)], best first.")
      .def("__repr__", [](const PyPlayer& p) { return "<carcassonne.Player " + p.p->name() + ">"; });

  m.def(
      "choose_move",
      [](const PyState& ps, const std::string& spec, uint64_t seed) {
        require_decision(ps.s);
        auto player = ai::make_player(spec, seed);  // invalid spec: ValueError, with the GIL held
        const State copy = ps.s;
        Move mv;
        {
          pyb::gil_scoped_release release;
          mv = player->choose(copy);
        }
        return from_engine(ps.s, mv);
      },
      pyb::arg("state"), pyb::arg("spec") = "mcts:time=0.1s", pyb::arg("seed") = 0,
      "One move from a freshly made player, e.g. choose_move(state, 'mcts:time=0.1s').");
  m.def(
      "players",
      [] {
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& i : ai::player_registry()) out.emplace_back(i.name, i.description);
        return out;
      },
      "[(name, description)] of the AI players.");
}

}  // namespace carc::py
