// The heuristic position value shared by the greedy player and by MCTS when a rollout is cut
// short: for each player, the score the game would end with if it ended now (State::finish on
// a copy, so incomplete roads, cities and monasteries score their end-of-game value and
// farms score for the completed cities they touch), plus `follower_value` points for each
// follower still in the supply, scaled by the share of tiles still in the bag (a follower in
// hand is worth more early: it can still go on a new feature).
#pragma once

#include <array>
#include <cstdlib>
#include <string>

#include "state.h"

namespace carc::ai {

using Values = std::array<double, kMaxPlayers>;

// Default worth of a follower in hand at the very start of the game, in points.
constexpr double kDefaultFollowerValue = 2.0;

// Default of EvalWeights::festival in the expect heuristic (docs/ai.md, session 6).
constexpr double kDefaultFestivalWeight = 0;

// Default of EvalWeights::follower_min in the expect heuristic (docs/ai.md, session 7).
constexpr double kDefaultFollowerMin = 5;

// Default of EvalWeights::field_merge_festival in the expect heuristic (docs/ai.md, session 8).
constexpr double kDefaultFieldMergeFestival = 0.2;

// Default of EvalWeights::field_merge in the expect heuristic (docs/ai.md, session 10).
constexpr double kDefaultFieldMerge = 0.2;

// Defaults of EvalWeights::dead_cells and scarce_cells in the expect heuristic (docs/ai.md, session 18).
constexpr double kDefaultDeadCells = 1;
constexpr double kDefaultScarceCells = 8;

// Weights of the heuristic. With `expect` off (the "plain" heuristic, greedy's default), the
// value is the one above. With it on ("expect", MCTS's default), open features also count
// what they are expected to gain before the end (see docs/ai.md): a city its doubling times
// the chance of completion, estimated as q^open with q = `city_q` * min(1, sqrt(bag / 12)); a
// monastery each missing neighbour times g = bag / (bag + `monastery_k`); a farm `farm` * 3
// points times the completion chance of each open city it touches; and each follower on a
// road, city or monastery its return to the supply, worth the follower value times the
// completion chance.
struct EvalWeights {
  double follower_value = kDefaultFollowerValue;
  bool expect = false;
  // eval=net: the expect heuristic moved by the learned value network (value_net.h), which
  // predicts each player's final margin from the heuristic and a few numbers of the position.
  bool net = false;
  double city_q = 0.65;
  double monastery_k = 15;
  double farm = 0.5;
  double grow = 0;  // expected extra tiles per open edge of a road or city, times the bag share
  // Wheel of Fortune (expect only): the events' points now, times the expected number of times
  // the pig stops on their segment before the end (docs/ai.md).
  double wheel_events = 0;
  // Fortune Teller (expect only): points per own turn left that a fortune teller on a tent is
  // worth (one more tile to choose from each turn).
  double tent = 0;
  // Festival (expect only): share of a follower's value that a follower on an unfinished feature
  // keeps while festival tiles are left in the bag (its owner may take it back with one of them;
  // docs/ai.md).
  double festival = 0;
  // A follower in hand is worth at least this many points while the player still has a turn
  // (max(follower * frac, follower_min * min(1, bag / players))): a late follower can still take
  // a field that touches completed cities, or a one-tile feature. 0 = off (the plain heuristic's
  // default), kDefaultFollowerMin in the expect heuristic.
  double follower_min = 0;
  // The same floor in games with the Wheel of Fortune (whose events and crowns give followers back
  // often): kept apart because a floor of 5 made the Wheel's games weaker (docs/ai.md, session 7).
  double follower_min_wheel = 0;
  // Fields that may merge (expect only): for two occupied fields with different majorities that
  // touch the same empty cell, `field_merge` * min(1, sqrt(bag / 12)) per such cell is the chance
  // that a tile there joins them; each player gains that chance times what the merge changes for
  // it (the joined field's value to the new majority, lost by the old one). 0 = off (the plain
  // heuristic's default), kDefaultFieldMerge in the expect heuristic.
  double field_merge = 0;
  // The same in games with the Festival (kept apart: it was tuned and measured there first,
  // docs/ai.md, session 8; since session 10 both are 0.2 in the expect heuristic).
  double field_merge_festival = 0;
  // The share of that chance for two fields on the two sides of one road ending at the cell (a
  // tile joins them only where the road ends).
  double field_merge_road = 1;
  // Features that cannot be completed (expect only): an empty cell next to a road or city that no
  // tile left in the bag fits (on all its sides, in any rotation) can never be filled, so the
  // features whose open edges face it will not be completed. Their completion chance (the
  // doubling's share, a follower's return, the farm term of an open city) is multiplied by
  // 1 - `dead_cells`. 0 = off (the plain heuristic's default), kDefaultDeadCells in the expect heuristic
  // (docs/ai.md, session 18).
  double dead_cells = 0;
  // Scarce cells (expect only): an empty cell next to a road or city that only k < `scarce` tiles left in the bag
  // fit (counting copies) multiplies the completion chance of the features facing it by k / `scarce` (a dead cell,
  // k = 0, by 1 - dead_cells). 0 = off (the plain heuristic's default), kDefaultScarceCells in the expect heuristic.
  double scarce_cells = 0;
  // The same for monasteries (`smon`, 0..1): a monastery's completion chance times 1 - smon * (1 - the product
  // of the factors of the cells around it), and its expected growth less smon * g per dead cell around it.
  double monastery_cells = 0;
  // The tuned "expect" heuristic (docs/ai.md: measured with greedy against greedy).
  static EvalWeights expected() {
    EvalWeights w;
    w.expect = true;
    w.follower_value = 7;
    w.grow = 0.5;
    w.wheel_events = 1.5;
    w.tent = 1;
    w.festival = kDefaultFestivalWeight;
    w.follower_min = kDefaultFollowerMin;
    w.field_merge = kDefaultFieldMerge;
    w.field_merge_festival = kDefaultFieldMergeFestival;
    w.dead_cells = kDefaultDeadCells;
    w.scarce_cells = kDefaultScarceCells;
    return w;
  }
};

// Reads one heuristic parameter of a player spec (follower, eval=plain|expect, cq, mk, farm,
// grow) into `w`. Returns false when `key` is not one of them; throws std::invalid_argument for a
// bad value.
bool apply_eval_param(const std::string& key, const std::string& value, EvalWeights& w);
// The ":key=value" parameters in which `w` differs from `d`, for player names.
std::string eval_param_suffix(const EvalWeights& w, const EvalWeights& d);
// Names of the parameters apply_eval_param reads, for error messages.
constexpr const char* kEvalParamNames = "follower, eval, cq, mk, farm, grow, wev, tent, fest, fmin, fminw, fmerge, fmergef, fmroad, dead, scarce, smon";

// Evaluates `s` and consumes it (applies the final scoring to it).
Values evaluate_consuming(State& s, const EvalWeights& w = EvalWeights{});
// Same on a copy.
Values evaluate(const State& s, const EvalWeights& w = EvalWeights{});

// Wheel of Fortune: where the pig will stop before the end, from its segment and the pig numbers
// of the wheel tiles still in the bag (public), all orders of the bag equally likely.
struct WheelForecast {
  double visits[kWheelEvents] = {};  // expected number of stops on each segment
  double hit[kWheelEvents] = {};     // probability of at least one stop on each segment
};
WheelForecast wheel_forecast(const State& s);
// The same from `segments` (<= kWheelEvents) clockwise segments, the pig's segment, and
// left[d] = wheel tiles left with pig number d (1..6).
WheelForecast wheel_forecast(int segments, int pig, const std::array<int, 7>& left);

// Festival (expect heuristic): what the followers on unfinished features are worth as followers that
// may still come back with a festival tile, per player (added by evaluate_consuming when
// w.expect and w.festival > 0). `fv` is the worth of a follower in hand now.
Values festival_returns(const State& s, const EvalWeights& w, double fv);

// The roads and cities that face an empty cell which few or no tiles left in the bag fit, with the
// factor on their completion chance (EvalWeights::dead_cells, scarce_cells): a cell that k tiles left fit
// gives 1 - dead for k = 0 and min(1, k / scarce) otherwise (scarce = 0: 1); a feature's factor is the
// product over the cells its open edges face. Holds every such feature and cell: the factors are indexed by
// the feature's root slot (< kMaxSlots) and the cells are at most the frontier (kMaxFrontier), so none is
// dropped however large the board.
class DeadRoots {
 public:
  DeadRoots() = default;
  explicit DeadRoots(const State& s, double dead = 1, double scarce = 0);
  // True when `root` faces a cell whose factor is below 1 (for dead = 1, scarce = 0: a dead cell).
  bool has(uint16_t root) const { return bits_[root >> 6] >> (root & 63) & 1; }
  // The factor on the completion chance of the feature with this root (1 when not has(root)).
  double factor(uint16_t root) const { return has(root) ? mult_[root] : 1; }
  // The same factor for a monastery (or tent) at (x, y): the product over the cells around it whose factor is
  // below 1; `dead_cells` counts the cells around it that no tile left fits.
  double around(int x, int y, int& dead_cells) const {
    double f = 1;
    dead_cells = 0;
    for (int i = 0; i < ncells_; ++i)
      if (std::abs(cx_[i] - x) <= 1 && std::abs(cy_[i] - y) <= 1) {
        f *= cf_[i];
        dead_cells += ck_[i] == 0;
      }
    return f;
  }
  // The cells whose factor is below 1 (for tests).
  int cells() const { return ncells_; }

 private:
  uint64_t bits_[(kMaxSlots + 63) / 64] = {};
  double mult_[kMaxSlots];  // valid where has(root); not initialised elsewhere (it is read per evaluation)
  // The cells whose factor is below 1: position, factor and tiles left that fit (at most 255 counted).
  int16_t cx_[kMaxFrontier], cy_[kMaxFrontier];
  double cf_[kMaxFrontier];
  uint8_t ck_[kMaxFrontier];
  int ncells_ = 0;
};

// Own value minus the best other player's value.
double margin(const Values& v, int player, int nplayers);

}  // namespace carc::ai
