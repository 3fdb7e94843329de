#include "eval.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "spec.h"

namespace carc::ai {

namespace {

// What open features are expected to gain before the end, added to `v` (before finish()).
// `frac` is the share of the tiles still in the bag, `fv` the worth of a follower in hand.
void add_expectations(const State& s, const EvalWeights& ew, double frac, double fv, Values& v) {
  const int n = s.num_players();
  const int bag = s.bag_size();
  const double q = ew.city_q * std::min(1.0, std::sqrt(bag / 12.0));
  const double g = bag / (bag + ew.monastery_k);
  uint16_t seen[kMaxFollowers];
  int nseen = 0;
  uint16_t cities[kMaxPlaced * 4];
  const Follower* fl = s.followers();
  for (int i = 0; i < s.num_followers(); ++i) {
    const uint16_t r = s.root(fl[i].slot);
    if (std::find(seen, seen + nseen, r) != seen + nseen) continue;
    seen[nseen++] = r;
    const Feature& f = s.feature(r);
    if (f.done) continue;
    double gain = 0, complete = 0;
    switch (f.kind) {
      case Kind::City:
        complete = std::pow(q, f.open);
        gain = (f.tiles + f.pennants) * complete + ew.grow * f.open * frac * (1 + complete);
        break;
      case Kind::Road:
        complete = std::pow(q, f.open);
        gain = ew.grow * f.open * frac;
        break;
      case Kind::Monastery:
        complete = std::pow(g, f.open);
        gain = f.open * g;
        break;
      case Kind::Field: {
        const int nc = s.field_cities(r, cities, kMaxPlaced * 4);
        for (int c = 0; c < nc; ++c) {
          const Feature& cf = s.feature(cities[c]);
          if (cf.open) gain += 3 * ew.farm * std::pow(q, cf.open);
        }
        break;
      }
      default:
        break;
    }
    int best = 0;
    for (int p = 0; p < n; ++p) best = std::max(best, int(f.count[p]));
    for (int p = 0; p < n; ++p) {
      if (f.count[p] == best && gain > 0) v[p] += gain;
      v[p] += fv * complete * f.count[p];
    }
  }
}

}  // namespace

Values evaluate_consuming(State& s, const EvalWeights& ew) {
  Values v{};
  const int n = s.num_players();
  const double frac = double(s.bag_size()) / std::max(1, s.game().total_tiles());
  const double w = ew.follower_value * frac;
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
  if (ew.expect) add_expectations(s, ew, frac, w, v);
  s.finish();
  for (int p = 0; p < n; ++p) v[p] += s.score(p);
  return v;
}

Values evaluate(const State& s, const EvalWeights& w) {
  State c = s;
  return evaluate_consuming(c, w);
}

bool apply_eval_param(const std::string& key, const std::string& value, EvalWeights& w) {
  if (key == "follower") {
    w.follower_value = parse_real(value);
  } else if (key == "eval") {
    if (value != "plain" && value != "expect") throw std::invalid_argument("eval must be plain or expect");
    w.expect = value == "expect";
  } else if (key == "cq") {
    w.city_q = parse_real(value);
    if (w.city_q < 0 || w.city_q > 1) throw std::invalid_argument("cq must be in [0, 1]");
  } else if (key == "mk") {
    w.monastery_k = parse_real(value);
    if (w.monastery_k <= 0) throw std::invalid_argument("mk must be > 0");
  } else if (key == "grow") {
    w.grow = parse_real(value);
  } else if (key == "farm") {
    w.farm = parse_real(value);
    if (w.farm < 0) throw std::invalid_argument("farm must be >= 0");
  } else {
    return false;
  }
  return true;
}

std::string eval_param_suffix(const EvalWeights& w, const EvalWeights& d) {
  const auto num = format_real;
  std::string s;
  if (w.expect != d.expect) s += std::string(":eval=") + (w.expect ? "expect" : "plain");
  if (w.follower_value != d.follower_value) s += ":follower=" + num(w.follower_value);
  if (w.city_q != d.city_q) s += ":cq=" + num(w.city_q);
  if (w.monastery_k != d.monastery_k) s += ":mk=" + num(w.monastery_k);
  if (w.farm != d.farm) s += ":farm=" + num(w.farm);
  if (w.grow != d.grow) s += ":grow=" + num(w.grow);
  return s;
}

double margin(const Values& v, int player, int nplayers) {
  double best = -1e300;
  for (int p = 0; p < nplayers; ++p)
    if (p != player) best = std::max(best, v[p]);
  return v[player] - best;
}

}  // namespace carc::ai
