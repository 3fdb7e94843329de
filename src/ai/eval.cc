#include "eval.h"

#include "value_net.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "spec.h"

namespace carc::ai {

namespace {

// Wheel forecast by exact recursion over the multiset of pig numbers left (each order of the bag
// equally likely): key = segments, pig, and the count of each pig number 1..6 (6 bits each).
constexpr int kMaxStep = 6;
struct ForecastKey {
  int segments, pig;
  int left[kMaxStep + 1];
  uint64_t pack() const {
    uint64_t k = uint64_t(segments) | uint64_t(pig) << 4;
    for (int d = 1; d <= kMaxStep; ++d) k |= uint64_t(left[d] & 63) << (8 + 6 * (d - 1));
    return k;
  }
};

// The memo of forecasts by packed key (never 0: segments >= 1): open addressing over a
// power-of-two table, the forecasts in insertion order. (A std::unordered_map cost about 900
// instructions per lookup in MCTS's Wheel of Fortune iterations.)
class ForecastMemo {
 public:
  const WheelForecast* find(uint64_t key) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = home(key);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i].key == key) return &values_[slots_[i].index];
      if (slots_[i].key == 0) return nullptr;
    }
  }
  const WheelForecast& insert(uint64_t key, const WheelForecast& f) {
    keys_.push_back(key);
    values_.push_back(f);
    if (2 * values_.size() > slots_.size()) {
      grow();  // re-slots every key, this one included
    } else {
      place(key, uint32_t(values_.size() - 1));
    }
    return values_.back();
  }
  size_t size() const { return values_.size(); }
  void clear() {
    slots_.clear();
    keys_.clear();
    values_.clear();
  }

 private:
  struct Slot {
    uint64_t key;
    uint32_t index;
  };
  size_t home(uint64_t key) const { return size_t((key * 0x9E3779B97F4A7C15ull) >> shift_); }
  void place(uint64_t key, uint32_t index) {
    size_t i = home(key);
    while (slots_[i].key != 0) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = Slot{key, index};
  }
  void grow() {
    const size_t n = slots_.empty() ? 1024 : 2 * slots_.size();
    shift_ = 64 - __builtin_ctzll(n);
    slots_.assign(n, Slot{0, 0});
    for (uint32_t v = 0; v < keys_.size(); ++v) place(keys_[v], v);
  }
  std::vector<Slot> slots_;
  std::vector<uint64_t> keys_;
  std::vector<WheelForecast> values_;
  int shift_ = 64;
};

const WheelForecast& forecast_of(ForecastKey k, ForecastMemo& memo) {
  const uint64_t key = k.pack();
  if (const WheelForecast* hit = memo.find(key)) return *hit;
  WheelForecast f;
  int total = 0;
  for (int d = 1; d <= kMaxStep; ++d) total += k.left[d];
  for (int d = 1; d <= kMaxStep && total > 0; ++d) {
    if (!k.left[d]) continue;
    const double pd = double(k.left[d]) / total;
    ForecastKey n = k;
    n.pig = (k.pig + d) % k.segments;
    --n.left[d];
    const WheelForecast next = forecast_of(n, memo);  // a copy: the map may rehash
    for (int sg = 0; sg < k.segments; ++sg) {
      const bool here = sg == n.pig;
      f.visits[sg] += pd * (here + next.visits[sg]);
      f.hit[sg] += pd * (here ? 1.0 : next.hit[sg]);
    }
  }
  return memo.insert(key, f);
}

// Powers base^k of one base, each computed once by std::pow (so the values are those of
// std::pow(base, k) bit for bit) and kept for the small exponents that open features have.
class Powers {
 public:
  explicit Powers(double base) : base_(base) {}
  double operator()(int k) {
    if (k >= kCached) return std::pow(base_, k);
    if (!(have_ >> k & 1)) {
      have_ |= 1ull << k;
      pow_[k] = std::pow(base_, k);
    }
    return pow_[k];
  }

 private:
  static constexpr int kCached = 64;
  double base_;
  uint64_t have_ = 0;
  double pow_[kCached];
};

// What open features are expected to gain before the end, added to `v` (before finish()).
// `frac` is the share of the tiles still in the bag, `fv` the worth of a follower in hand.
// Calls fn(root, feature) once for each unfinished feature that holds a follower, in the order of
// the followers' list (so the callers' sums keep their order).
template <class Fn>
void for_each_open_occupied(const State& s, Fn&& fn) {
  uint16_t seen[kMaxFollowers];
  int nseen = 0;
  const Follower* fl = s.followers();
  for (int i = 0; i < s.num_followers(); ++i) {
    const uint16_t r = s.root(fl[i].slot);
    if (std::find(seen, seen + nseen, r) != seen + nseen) continue;
    seen[nseen++] = r;
    const Feature& f = s.feature(r);
    if (!f.done) fn(r, f);
  }
}

// The occupied, unfinished fields' values now (3 per completed city, plus farm * 3 * q^open per
// open one), recorded by add_expectations for add_field_merges (one walk over each field).
struct FieldValues {
  uint16_t root[kMaxFollowers];
  double value[kMaxFollowers];
  int n = 0;
};

}  // namespace

DeadRoots::DeadRoots(const State& s, double dead, double scarce) {
  const Game& game = s.game();
  // Per edge pattern, the factor + 1 (0 = not computed yet): each pattern is checked once.
  double known[256] = {};
  uint8_t fit_left[256];
  for (int i = 0; i < s.frontier_size(); ++i) {
    const uint8_t need = s.frontier_need(i);
    if (known[need] == 0) {
      int k = 0;  // tiles left that fit, counting copies (only up to `scarce` matters)
      auto [t, end] = game.fit_types(need);
      for (; t != end && (k == 0 || k < scarce); ++t) k += s.bag_count(*t);
      known[need] = 1 + (k == 0 ? 1 - dead : scarce > 0 ? std::min(1.0, k / scarce) : 1.0);
      fit_left[need] = uint8_t(std::min(k, 255));
    }
    const double f = known[need] - 1;
    if (f >= 1) continue;
    const FrontierCell& fc = s.frontier_cell(i);
    cx_[ncells_] = fc.x;  // ncells_ <= i < frontier_size() <= kMaxFrontier
    cy_[ncells_] = fc.y;
    cf_[ncells_] = f;
    ck_[ncells_++] = fit_left[need];
    for (int port = 0; port < 4; ++port)  // the 4 edges: roads and cities end there
      if (fc.present >> port & 1) {
        const uint16_t r = s.root(fc.port_slot[port]);
        const Kind kind = s.feature(r).kind;
        if (kind != Kind::City && kind != Kind::Road) continue;
        if (!has(r)) {
          bits_[r >> 6] |= 1ull << (r & 63);
          mult_[r] = f;
        } else {
          mult_[r] *= f;
        }
      }
  }
}

namespace {

void add_expectations(const State& s, const EvalWeights& ew, double frac, double fv, Values& v, FieldValues* fvals) {
  const int n = s.num_players();
  const int bag = s.bag_size();
  const double q = ew.city_q * std::min(1.0, std::sqrt(bag / 12.0));
  const double g = bag / (bag + ew.monastery_k);
  Powers qpow(q), gpow(g);  // q^open and g^open, each exponent computed once per evaluation
  // Features facing a cell few or no tiles left fit: their completion chance times DeadRoots::factor.
  const bool dead_on = ew.dead_cells > 0 || ew.scarce_cells > 0;
  const DeadRoots dead = dead_on ? DeadRoots(s, ew.dead_cells, ew.scarce_cells) : DeadRoots();
  auto chance = [&](uint16_t r, int open) { return dead_on ? dead.factor(r) * qpow(open) : qpow(open); };
  uint16_t cities[kMaxPlaced * 4];
  for_each_open_occupied(s, [&](uint16_t r, const Feature& f) {
    double gain = 0, complete = 0;
    switch (f.kind) {
      case Kind::City:
        complete = chance(r, f.open);
        gain = (f.tiles + f.pennants) * complete + ew.grow * f.open * frac * (1 + complete);
        break;
      case Kind::Road:
        complete = chance(r, f.open);
        gain = ew.grow * f.open * frac;
        break;
      case Kind::Monastery:
        complete = gpow(f.open);
        gain = f.open * g;
        if (dead_on && ew.monastery_cells > 0) {
          const PlacedTile& pt = s.placed(s.slot_tile(r));
          int dead_around = 0;
          const double fa = dead.around(pt.x, pt.y, dead_around);
          complete *= 1 - ew.monastery_cells * (1 - fa);
          gain -= ew.monastery_cells * dead_around * g;
        }
        break;
      case Kind::Tent:
        // A fortune teller: one more tile to choose from on each own turn left; back to the
        // supply when the tent is completed.
        complete = gpow(f.open);
        gain = ew.tent * bag / n;
        break;
      case Kind::Field: {
        const int nc = s.field_cities(r, cities, kMaxPlaced * 4);
        int completed = 0;
        for (int c = 0; c < nc; ++c) {
          const Feature& cf = s.feature(cities[c]);
          if (cf.open)
            gain += 3 * ew.farm * chance(s.root(cities[c]), cf.open);
          else
            ++completed;
        }
        if (fvals && fvals->n < kMaxFollowers) {
          fvals->root[fvals->n] = r;
          fvals->value[fvals->n++] = 3.0 * completed + gain;
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
  });
}

// Fields that may merge (expect heuristic, EvalWeights::field_merge, or field_merge_festival in
// games with the Festival, as `merge`): two occupied, unfinished
// fields whose majorities differ and that touch the same empty cell may be joined by a tile
// placed there. Each such cell is a chance p = merge * min(1, sqrt(bag / 12)) of the join;
// the join gives the field's value now (3 per completed city, plus the farm term's expectation of
// its open cities) of both to the majority of the joined field, so each player gains the chance
// times the change (a player who ties a larger field gains it; one outnumbered loses its own).
void add_field_merges(const State& s, const EvalWeights& ew, double merge, const FieldValues& fvals, Values& v) {
  const int n = s.num_players();
  // The players with the most followers on a feature, as a bit mask.
  auto majority = [&](const uint8_t* count) {
    int best = 0;
    for (int o = 0; o < n; ++o) best = std::max(best, int(count[o]));
    uint32_t m = 0;
    for (int o = 0; o < n; ++o)
      if (best > 0 && count[o] == best) m |= 1u << o;
    return m;
  };
  // The occupied, unfinished fields (at most one per follower) and their majorities.
  uint16_t fields[kMaxFollowers];
  uint32_t major[kMaxFollowers];
  int nf = 0;
  bool differ = false;
  const Follower* fl = s.followers();
  for (int i = 0; i < s.num_followers(); ++i) {
    const uint16_t r = s.root(fl[i].slot);
    const Feature& f = s.feature(r);
    if (f.kind != Kind::Field || f.done || std::find(fields, fields + nf, r) != fields + nf) continue;
    major[nf] = majority(f.count);
    differ = differ || major[nf] != major[0];
    fields[nf++] = r;
  }
  if (!differ) return;  // fewer than two fields, or every field has the same majority
  // Field index + 1 by root slot, for the scan below (set here, cleared before returning).
  thread_local std::array<uint8_t, kMaxSlots> index_of{};
  for (int f = 0; f < nf; ++f) index_of[fields[f]] = uint8_t(f + 1);
  // Pairs of them (indices into fields) touching one empty cell, with the chance that no such
  // cell joins them.
  struct Pair {
    uint8_t a, b;
    double miss;
  };
  const int bag = s.bag_size();
  const double p1 = merge * std::min(1.0, std::sqrt(bag / 12.0));
  Pair pairs[64];
  int np = 0;
  for (int i = 0; i < s.frontier_size(); ++i) {
    const FrontierCell& fc = s.frontier_cell(i);
    uint8_t here[8];
    uint8_t edges[8];  // the cell's edges (bits) each field touches it on
    int nh = 0;
    for (uint32_t m = fc.present >> 4; m; m &= m - 1) {
      const int half = __builtin_ctz(m);
      const int f = index_of[s.root(fc.port_slot[4 + half])] - 1;
      if (f < 0) continue;
      int h = int(std::find(here, here + nh, uint8_t(f)) - here);
      if (h == nh) here[nh] = uint8_t(f), edges[nh] = 0, ++nh;
      edges[h] |= uint8_t(1u << (half >> 1));
    }
    for (int x = 0; x < nh; ++x)
      for (int y = x + 1; y < nh; ++y) {
        if (major[here[x]] == major[here[y]]) continue;  // a join changes nothing
        // Two fields on the two sides of one road that ends at this cell join only on a tile
        // where the road ends (field_merge_road of the chance).
        const bool road = edges[x] == edges[y] && __builtin_popcount(edges[x]) == 1;
        const double p = road ? p1 * ew.field_merge_road : p1;
        const uint8_t a = std::min(here[x], here[y]), b = std::max(here[x], here[y]);
        int k = 0;
        while (k < np && !(pairs[k].a == a && pairs[k].b == b)) ++k;
        if (k < np) {
          pairs[k].miss *= 1 - p;
        } else if (np < 64) {
          pairs[np++] = Pair{a, b, 1 - p};
        }
      }
  }
  for (int f = 0; f < nf; ++f) index_of[fields[f]] = 0;
  if (np == 0) return;
  // Each field's value now, from add_expectations (which saw every occupied, unfinished field).
  auto value_of = [&](int f) {
    for (int i = 0; i < fvals.n; ++i)
      if (fvals.root[i] == fields[f]) return fvals.value[i];
    return 0.0;  // not reached: add_expectations records every field listed here
  };
  for (int k = 0; k < np; ++k) {
    const int a = pairs[k].a, b = pairs[k].b;
    const Feature& fa = s.feature(fields[a]);
    const Feature& fb = s.feature(fields[b]);
    uint8_t joined[kMaxPlayers];
    for (int p = 0; p < n; ++p) joined[p] = uint8_t(fa.count[p] + fb.count[p]);
    const uint32_t mj = majority(joined);
    const double va = value_of(a), vb = value_of(b);
    const double chance = 1 - pairs[k].miss;
    for (int p = 0; p < n; ++p) {
      const double before = (major[a] >> p & 1 ? va : 0) + (major[b] >> p & 1 ? vb : 0);
      const double after = mj >> p & 1 ? va + vb : 0;
      v[p] += chance * (after - before);
    }
  }
}

// Wheel of Fortune events (expect heuristic): each event's points if the pig stopped on it now,
// times the expected number of stops on its segment (`visits`), times `weight`. Fortuna (3 for
// whoever is active then) and the Plague (a follower back) are left out.
void add_wheel_events(const State& s, const WheelForecast& fc, double weight, Values& v) {
  const int n = s.num_players();
  const auto& wheel = s.game().wheel();
  double per[kWheelEvents] = {};  // expected stops per event
  for (size_t sg = 0; sg < wheel.size() && sg < size_t(kWheelEvents); ++sg) per[int(wheel[sg].event)] += fc.visits[sg];
  const double taxes = weight * per[int(WheelEvent::Taxes)];
  const double famine = weight * per[int(WheelEvent::Famine)];
  const double storm = weight * per[int(WheelEvent::Storm)];
  const double inquisition = weight * per[int(WheelEvent::Inquisition)];
  for (int p = 0; p < n; ++p) v[p] += storm * s.supply(p);
  uint16_t cities[kMaxPlaced * 4];
  for_each_open_occupied(s, [&](uint16_t r, const Feature& f) {
    switch (f.kind) {
      case Kind::City:
        if (taxes > 0)
          for (int p = 0; p < n; ++p) v[p] += taxes * f.count[p] * (f.pennants + f.count[p]);
        break;
      case Kind::Monastery:
        for (int p = 0; p < n; ++p) v[p] += inquisition * 2 * f.count[p];
        break;
      case Kind::Field: {
        if (famine <= 0) break;
        const int nc = s.field_cities(r, cities, kMaxPlaced * 4);
        int closed = 0;
        for (int c = 0; c < nc; ++c) closed += s.feature(cities[c]).done ? 1 : 0;
        for (int p = 0; p < n; ++p) v[p] += famine * closed * f.count[p];
        break;
      }
      default:
        break;
    }
  });
}

}  // namespace

Values festival_returns(const State& s, const EvalWeights& ew, double fv) {
  Values v{};
  if (ew.festival <= 0 || fv <= 0) return v;
  const Game& game = s.game();
  int fest_left = 0;
  for (int t = 0; t < game.num_types(); ++t)
    if (game.type(t).festival) fest_left += s.bag_count(t);
  if (fest_left == 0) return v;
  const int n = s.num_players();
  const int bag = s.bag_size();
  const double q = ew.city_q * std::min(1.0, std::sqrt(bag / 12.0));
  const double g = bag / (bag + ew.monastery_k);
  // The part of each follower's worth that the expect heuristic does not already give back: a
  // follower on a road or city comes back when the feature is completed (q^open), a monk or
  // fortune teller likewise (g^missing), a farmer never.
  double lost[kMaxPlayers] = {};
  int on[kMaxPlayers] = {};
  const Follower* fl = s.followers();
  for (int i = 0; i < s.num_followers(); ++i) {
    const Feature& f = s.feature(s.root(fl[i].slot));
    if (f.done) continue;
    double complete = 0;
    switch (f.kind) {
      case Kind::City:
      case Kind::Road:
        complete = std::pow(q, f.open);
        break;
      case Kind::Monastery:
      case Kind::Tent:
        complete = std::pow(g, f.open);
        break;
      default:
        break;
    }
    lost[fl[i].player] += 1 - complete;
    ++on[fl[i].player];
  }
  // Each player draws about fest_left / n of the festival tiles left and takes back at most one
  // follower with each: that share of its followers on the board (at most all) is worth
  // `festival` times a follower in hand.
  const double draws = double(fest_left) / n;
  for (int p = 0; p < n; ++p)
    if (on[p]) v[p] = ew.festival * fv * lost[p] * std::min(1.0, draws / on[p]);
  return v;
}

WheelForecast wheel_forecast(const State& s) {
  if (!s.game().has_wheel()) return WheelForecast{};
  // The wheel tile types of the game with their pig numbers, listed once per game and thread
  // (games are cached and never freed, so the pointer names one for good).
  struct WheelTypes {
    const Game* game = nullptr;
    std::vector<std::pair<uint8_t, uint8_t>> types;  // type, pig number (capped at kMaxStep)
  };
  thread_local WheelTypes wt;
  if (wt.game != &s.game()) {
    wt.game = &s.game();
    wt.types.clear();
    for (int t = 0; t < s.game().num_types(); ++t) {
      const int d = s.game().type(t).wheel;
      if (d > 0) wt.types.emplace_back(uint8_t(t), uint8_t(std::min(d, kMaxStep)));
    }
  }
  std::array<int, kMaxStep + 1> left{};
  for (const auto& [t, d] : wt.types) left[d] += s.bag_count(t);
  return wheel_forecast(int(s.game().wheel().size()), s.mod<WheelBlock>().pig_segment(), left);
}

WheelForecast wheel_forecast(int segments, int pig, const std::array<int, 7>& left) {
  if (segments <= 0 || segments > kWheelEvents || pig < 0 || pig >= segments)
    throw std::invalid_argument("wheel_forecast: bad segments or pig");
  ForecastKey k{};
  k.segments = segments;
  k.pig = pig;
  for (int d = 1; d <= kMaxStep; ++d) k.left[d] = std::clamp(left[size_t(d)], 0, 63);
  thread_local ForecastMemo memo;
  if (memo.size() > 200000) memo.clear();
  return forecast_of(k, memo);
}

Values evaluate_consuming(State& s, const EvalWeights& ew) {
  Values v{};
  const int n = s.num_players();
  // eval=net: what the value network reads, before finish() changes the scores and supplies.
  const bool net = ew.net && !s.is_terminal();
  const NetSnapshot snap = net ? NetSnapshot::of(s) : NetSnapshot{};
  const double frac = double(s.bag_size()) / std::max(1, s.game().total_tiles());
  double w = ew.follower_value * frac;
  const double floor = s.game().has_wheel() ? ew.follower_min_wheel : ew.follower_min;
  if (floor > 0) w = std::max(w, floor * std::min(1.0, double(s.bag_size()) / n));
  for (int p = 0; p < n; ++p) v[p] = w * s.supply(p);  // before finish() returns followers
  if (s.game().has_wheel() && !ew.expect) {
    // Wheel of Fortune, plain heuristic (greedy's): a follower on a crown space is worth its
    // segment's points (3 on a one-space segment, 4.5 on average on a two-space one) times the
    // chance that the pig stops there before the end (about 1/6 per wheel tile left), plus a
    // follower in hand (it comes back when scored).
    int wheel_left = 0;
    for (int t = 0; t < s.game().num_types(); ++t)
      if (s.game().type(t).wheel) wheel_left += s.bag_count(t);
    double miss = 1;
    for (int i = 0; i < wheel_left; ++i) miss *= 5.0 / 6.0;
    const auto& wheel = s.game().wheel();
    for (int c = 0; c < kMaxCrowns; ++c) {
      const int p = s.mod<WheelBlock>().crown_player(c);
      if (p < 0) continue;
      const double points = wheel[size_t(s.game().crown_segment(c))].crowns == 1 ? 3.0 : 4.5;
      v[p] += (1 - miss) * points + w;
    }
  } else if (s.game().has_wheel()) {
    // Expect heuristic: the exact chance that the pig stops on the segment before the end (from
    // the pig numbers left in the bag) times what the crown scores then (3, or 6 alone on a
    // two-space segment), plus the follower's return; and the events' expected points.
    const WheelForecast fc = wheel_forecast(s);
    const auto& wheel = s.game().wheel();
    for (int c = 0; c < kMaxCrowns; ++c) {
      const int p = s.mod<WheelBlock>().crown_player(c);
      if (p < 0) continue;
      const int sg = s.game().crown_segment(c);
      int occupied = 0;
      for (int k = 0; k < wheel[sg].crowns; ++k) occupied += s.mod<WheelBlock>().crown_player(s.game().crown_at(sg, k)) >= 0;
      const double points = wheel[sg].crowns == 2 && occupied == 1 ? 6.0 : 3.0;
      v[p] += fc.hit[sg] * (points + w);
    }
    if (ew.wheel_events > 0) add_wheel_events(s, fc, ew.wheel_events, v);
  }
  const double merge = s.rules().has(Expansion::Festival) ? ew.field_merge_festival : ew.field_merge;
  FieldValues fvals;
  if (ew.expect) add_expectations(s, ew, frac, w, v, merge > 0 ? &fvals : nullptr);
  if (ew.expect && merge > 0) add_field_merges(s, ew, merge, fvals, v);
  if (ew.expect && ew.festival > 0 && w > 0) {
    const Values fr = festival_returns(s, ew, w);
    for (int p = 0; p < n; ++p) v[p] += fr[p];
  }
  s.finish();
  for (int p = 0; p < n; ++p) v[p] += s.score(p);
  if (net) ValueNet::active().adjust(snap, v);
  return v;
}

Values evaluate(const State& s, const EvalWeights& w) {
  State c = s;
  return evaluate_consuming(c, w);
}

bool apply_eval_param(const std::string& key, const std::string& value, EvalWeights& w) {
  // Every weight is capped (kMaxSpecWeight), so no finite value can overflow a sum of
  // weighted points into infinity and make margins NaN.
  const auto weight = [&](const char* name, double lo = 0, double hi = kMaxSpecWeight) {
    return parse_real_in(value, name, lo, hi);
  };
  if (key == "follower") {
    w.follower_value = weight("follower");
  } else if (key == "eval") {
    if (value != "plain" && value != "expect" && value != "net")
      throw std::invalid_argument("eval must be plain, expect or net");
    w.expect = value != "plain";
    w.net = value == "net";
    if (w.net) (void)ValueNet::active();  // a bad CARC_VALUE_NET file is an error here, not mid-search
  } else if (key == "cq") {
    w.city_q = weight("cq", 0, 1);
  } else if (key == "mk") {
    w.monastery_k = weight("mk");
    if (w.monastery_k <= 0) throw std::invalid_argument("mk must be > 0");
  } else if (key == "grow") {
    w.grow = weight("grow");
  } else if (key == "wev") {
    w.wheel_events = weight("wev");
  } else if (key == "tent") {
    w.tent = weight("tent");
  } else if (key == "fest") {
    w.festival = weight("fest", 0, 1);
  } else if (key == "fmin") {
    w.follower_min = weight("fmin");
  } else if (key == "fminw") {
    w.follower_min_wheel = weight("fminw");
  } else if (key == "farm") {
    w.farm = weight("farm");
  } else if (key == "fmerge") {
    w.field_merge = weight("fmerge", 0, 1);
  } else if (key == "fmergef") {
    w.field_merge_festival = weight("fmergef", 0, 1);
  } else if (key == "fmroad") {
    w.field_merge_road = weight("fmroad", 0, 1);
  } else if (key == "dead") {
    w.dead_cells = weight("dead", 0, 1);
  } else if (key == "smon") {
    w.monastery_cells = weight("smon", 0, 1);
  } else if (key == "scarce") {
    w.scarce_cells = weight("scarce", 0, 100);
  } else {
    return false;
  }
  return true;
}

std::string eval_param_suffix(const EvalWeights& w, const EvalWeights& d) {
  const auto num = format_real;
  std::string s;
  if (w.expect != d.expect || w.net != d.net)
    s += std::string(":eval=") + (w.net ? "net" : w.expect ? "expect" : "plain");
  if (w.follower_value != d.follower_value) s += ":follower=" + num(w.follower_value);
  if (w.city_q != d.city_q) s += ":cq=" + num(w.city_q);
  if (w.monastery_k != d.monastery_k) s += ":mk=" + num(w.monastery_k);
  if (w.farm != d.farm) s += ":farm=" + num(w.farm);
  if (w.grow != d.grow) s += ":grow=" + num(w.grow);
  if (w.wheel_events != d.wheel_events) s += ":wev=" + num(w.wheel_events);
  if (w.tent != d.tent) s += ":tent=" + num(w.tent);
  if (w.festival != d.festival) s += ":fest=" + num(w.festival);
  if (w.follower_min != d.follower_min) s += ":fmin=" + num(w.follower_min);
  if (w.follower_min_wheel != d.follower_min_wheel) s += ":fminw=" + num(w.follower_min_wheel);
  if (w.field_merge != d.field_merge) s += ":fmerge=" + num(w.field_merge);
  if (w.field_merge_festival != d.field_merge_festival) s += ":fmergef=" + num(w.field_merge_festival);
  if (w.field_merge_road != d.field_merge_road) s += ":fmroad=" + num(w.field_merge_road);
  if (w.dead_cells != d.dead_cells) s += ":dead=" + num(w.dead_cells);
  if (w.scarce_cells != d.scarce_cells) s += ":scarce=" + num(w.scarce_cells);
  if (w.monastery_cells != d.monastery_cells) s += ":smon=" + num(w.monastery_cells);
  return s;
}

double margin(const Values& v, int player, int nplayers) {
  double best = -1e300;
  for (int p = 0; p < nplayers; ++p)
    if (p != player) best = std::max(best, v[p]);
  return v[player] - best;
}

}  // namespace carc::ai
