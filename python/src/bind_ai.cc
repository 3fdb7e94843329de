// Bindings: the AI players (src/ai) by spec, e.g. "random", "greedy", "mcts:time=0.1s".
// Searches run with the GIL released. Players never see hidden information (they resample
// the draw generator on their own copies).
#include <pybind11/stl.h>

#include "common.h"
#include "mcts.h"
#include "player.h"
#include "value_net.h"

namespace carc::py {

namespace {

struct PyPlayer {
  std::unique_ptr<ai::Player> p;
};

// A Python leaf evaluator for MCTS: fn(states) -> (priors, values); see Player's docstring.
class PyEvaluator : public ai::Evaluator {
 public:
  explicit PyEvaluator(pyb::object fn) : fn_(std::move(fn)) {}
  ~PyEvaluator() override {
    pyb::gil_scoped_acquire acquire;
    fn_ = pyb::object();
  }
  void evaluate(const std::vector<const State*>& states, std::vector<std::vector<double>>& priors,
                std::vector<std::vector<double>>& values) override {
    pyb::gil_scoped_acquire acquire;
    pyb::list batch;
    for (const State* s : states) batch.append(pyb::cast(PyState(*s, false, kDefaultRadius)));
    pyb::object r = fn_(batch);
    pyb::sequence pair = r.cast<pyb::sequence>();
    if (pair.size() != 2) throw std::invalid_argument("evaluator must return (priors, values)");
    pyb::sequence ps = pyb::reinterpret_borrow<pyb::object>(pair[0]).cast<pyb::sequence>();
    pyb::sequence vs = pyb::reinterpret_borrow<pyb::object>(pair[1]).cast<pyb::sequence>();
    if (ps.size() != states.size() || vs.size() != states.size())
      throw std::invalid_argument("evaluator: priors and values need one entry per state (" +
                                  std::to_string(states.size()) + ")");
    for (size_t i = 0; i < states.size(); ++i) {
      pyb::object pi = ps[i];
      if (!pi.is_none()) priors[i] = pi.cast<std::vector<double>>();
      values[i] = pyb::reinterpret_borrow<pyb::object>(vs[i]).cast<std::vector<double>>();
      if (int(values[i].size()) != states[i]->num_players())
        throw std::invalid_argument("evaluator: values need one entry per player");
    }
  }

 private:
  pyb::object fn_;
};

std::unique_ptr<ai::Player> make_py_player(const std::string& spec, uint64_t seed, pyb::object evaluator, int batch,
                                           double puct) {
  auto p = ai::make_player(spec, seed);
  if (evaluator.is_none()) return p;
  auto* m = dynamic_cast<ai::MctsPlayer*>(p.get());
  if (!m) throw std::invalid_argument("evaluator= needs an mcts player (spec 'mcts:...'), not '" + spec + "'");
  if (batch < 1 || batch > 4096) throw std::invalid_argument("batch must be 1..4096");
  if (!(puct > 0)) throw std::invalid_argument("puct must be > 0");
  ai::MctsConfig cfg = m->config();
  cfg.evaluator = std::make_shared<PyEvaluator>(evaluator);
  cfg.batch = batch;
  cfg.puct = puct;
  return std::make_unique<ai::MctsPlayer>(cfg);
}

}  // namespace

void bind_ai(pyb::module_& m) {
  pyb::class_<PyPlayer>(m, "Player", "An AI player made from a spec (see players()).")
      .def(pyb::init([](const std::string& spec, uint64_t seed, pyb::object evaluator, int batch, double puct) {
             return PyPlayer{make_py_player(spec, seed, std::move(evaluator), batch, puct)};
           }),
           pyb::arg("spec"), pyb::arg("seed") = 0, pyb::arg("evaluator") = pyb::none(), pyb::arg("batch") = 8,
           pyb::arg("puct") = 1.5,
           "A player from a spec (players()). `evaluator` (mcts only): a Python function "
           "states -> (priors, values) valuing the search's new leaves in batches of `batch` states "
           "(AlphaZero-style PUCT search with exploration constant `puct`): priors[i] is None (uniform) "
           "or weights over states[i].legal_moves() in that order, values[i] the expected reward of each "
           "player in [0, 1]. The states are copies at decision or chance nodes, never terminal.")
      .def_property_readonly(
          "name", [](const PyPlayer& p) { return p.p->name(); }, "The normalised spec (e.g. 'mcts:iterations=200').")
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
      "value_features",
      [](const PyState& ps) {
        // The value network's inputs (src/ai/value_net.h) for every player, with MCTS's heuristic:
        // what scripts/train-value-net.sh trains on and `eval=net` reads in play.
        const ai::NetSnapshot snap = ai::NetSnapshot::of(ps.s);
        const ai::Values h = ai::evaluate(ps.s, ai::EvalWeights::expected());
        std::vector<std::vector<float>> out;
        for (int p = 0; p < ps.s.num_players(); ++p) {
          const ai::Features f = ai::value_features(snap, h, p);
          out.emplace_back(f.begin(), f.end());
        }
        return out;
      },
      pyb::arg("state"),
      "The value network's features of each player (a list per player, value_feature_names order), with the "
      "heuristic MCTS uses at a cut rollout.");
  m.attr("value_feature_names") =
      std::vector<std::string>{"heuristic_margin", "score_margin", "bag_share", "own_followers", "opponent_followers",
                               "to_move", "heuristic_margin_x_bag", "score_margin_x_bag", "own_heuristic", "players"};
  m.def(
      "value_net_predict",
      [](const std::vector<float>& x) {
        if (x.size() != size_t(ai::kValueFeatures))
          throw std::invalid_argument("value_net_predict: expected " + std::to_string(ai::kValueFeatures) + " features");
        ai::Features f{};
        std::copy(x.begin(), x.end(), f.begin());
        return ai::ValueNet::active().predict(f);
      },
      pyb::arg("features"), "The built-in (or $CARC_VALUE_NET) network's predicted final margin, in points.");
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
