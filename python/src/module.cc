// The `carcassonne._core` extension (re-exported by the `carcassonne` package, python/carcassonne/): the engine's game-state API at C++ speed, observations and
// a fixed action space for learning code, batch play and the AI players. docs/python.md.
#include "common.h"

PYBIND11_MODULE(_core, m) {
  using namespace carc::py;
  m.doc() = "Carcassonne engine: exact rules, fast game states, observations, batch play (docs/python.md).";
  bind_rules(m);
  StateClass state = bind_state(m);
  bind_actions(m, state);
  bind_flat(m, state);
  bind_observation(m, state);
  bind_record(m);
  bind_batch(m);
#ifdef CARC_HAVE_AI
  bind_ai(m);
  bind_tournament(m);
  bind_table(m);
#endif
  m.attr("__version__") = "0.1.0";
}
