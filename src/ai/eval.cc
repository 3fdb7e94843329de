#include "eval.h"

#include <algorithm>

namespace carc::ai {

Values evaluate_consuming(State& s, double follower_value) {
  Values v{};
  const int n = s.num_players();
  const int total = std::max(1, s.game().total_tiles());
  const double w = follower_value * double(s.bag_size()) / total;
  for (int p = 0; p < n; ++p) v[p] = w * s.supply(p);  // before finish() returns followers
  if (s.has_wheel()) {
    // Wheel of Fortune: a follower on a crown space is worth its segment's points (3 on a
    // one-space segment, 4.5 on average on a two-space one) times the chance that the pig
    // stops there before the end (about 1/6 per wheel tile left), plus a follower in hand
    // (it comes back when scored).
    int wheel_left = 0;
    for (int t = 0; t < s.game().num_types(); ++t)
      if (s.game().type(t).wheel) wheel_left += s.bag_count(t);
    double miss = 1;
    for (int i = 0; i < wheel_left; ++i) miss *= 5.0 / 6.0;
    const auto& wheel = s.game().wheel();
    for (int c = 0; c < kMaxCrowns; ++c) {
      const int p = s.crown(c);
      if (p < 0) continue;
      const double points = wheel[c / kMaxCrownsPerSegment].crowns == 1 ? 3.0 : 4.5;
      v[p] += (1 - miss) * points + w;
    }
  }
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
