#include "eval.h"

#include <algorithm>

namespace carc::ai {

Values evaluate_consuming(State& s, double follower_value) {
  Values v{};
  const int n = s.num_players();
  const int total = std::max(1, s.game().total_tiles());
  const double w = follower_value * double(s.bag_size()) / total;
  for (int p = 0; p < n; ++p) v[p] = w * s.supply(p);  // before finish() returns followers
  s.finish();
  for (int p = 0; p < n; ++p) v[p] += s.score(p);
  return v;
}

Values evaluate(const State& s, double follower_value) {
  State c = s;
  return evaluate_consuming(c, follower_value);
}

double margin(const Values& v, int player, int nplayers) {
  double best = -1e300;
  for (int p = 0; p < nplayers; ++p)
    if (p != player) best = std::max(best, v[p]);
  return v[player] - best;
}

}  // namespace carc::ai
