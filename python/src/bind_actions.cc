// Bindings: the fixed action space for learning code (action index <-> move, legal masks).
// Layout (docs/python.md, common.h):
//   action = fruit * placements + placement                       ('place' range)
//   placement = ((choice * W * W + cell) * 4 + rotation) * NUM_OPTIONS + option,
//   cell = (y + R) * W + (x + R),  W = 2R + 1
//   option 0: no follower; 1 + i: a follower on LOCATIONS[i];
//   1 + len(LOCATIONS) + k: Festival take-back of the player's k-th own follower on the board
//   (State.followers() order, counting only the player's own).
//   fruit = fruit_type_code * NUM_FRUIT_ACTIONS + fruit_action_code (Fruit-Bearing Trees; 0
//   otherwise): stack (0 none, 1 + t) and action (0 none, 1 + t harvest, 7 + j sell SELL_SETS[j]).
// Wheel of Fortune, after those: the 'crown' range (placements with a follower put on / taken
// back from a crown space, times the stack code), the 'plague' range (cell and location of
// the follower taken back) and, with the Fortune Teller, the 'choose' range (drawn tile).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>

#include "common.h"

namespace carc::py {

const char* const kLocations[kNumLocations] = {"N",  "E",  "S",  "W",  "Nw", "Ne",    "En",
                                               "Es", "Se", "Sw", "Ws", "Wn", "inner", "C"};

int location_index(const std::string& loc) {
  for (int i = 0; i < kNumLocations; ++i)
    if (loc == kLocations[i]) return i;
  return -1;
}

int location_code(const TileType& tt, int seg, int rot) {
  const Segment& sg = tt.rot[rot].seg[seg];
  switch (sg.kind) {
    case Kind::Road:
    case Kind::City:
      for (int d = 0; d < 4; ++d)
        if (sg.edges & (1 << d)) return d;
      return -1;
    case Kind::Field:
      for (int h = 0; h < 8; ++h)
        if (sg.halves & (1 << h)) return 4 + h;
      return 12;
    default:
      return 13;
  }
}

namespace {

struct SellSets {
  uint8_t mask[kNumSellSets];
  int8_t index[64];
  SellSets() {
    int j = 0;
    for (int m = 0; m < 64; ++m) {
      index[m] = -1;
      if (m && __builtin_popcount(unsigned(m)) <= 4) {
        mask[j] = uint8_t(m);
        index[m] = int8_t(j++);
      }
    }
  }
};
const SellSets kSellSets;
static_assert(kFruitActions == 63 && kFruitCodes == 441);

}  // namespace

uint8_t sell_set(int j) { return kSellSets.mask[j]; }
int sell_set_index(int mask) { return mask >= 0 && mask < 64 ? kSellSets.index[mask] : -1; }

int fruit_index(const std::string& name) {
  for (int f = 0; f < kFruitTypes; ++f)
    if (name == kFruitNames[f]) return f;
  return -1;
}

int fruit_code(const Move& m) {
  const int stack = m.ext.fruit_type(), harvest = m.ext.harvest();
  const uint32_t sale = m.ext.sale();
  if (stack >= kFruitTypes || (harvest >= 0 && sale)) return -1;
  int act = 0;
  if (harvest >= 0) {
    if (harvest >= kFruitTypes) return -1;
    act = 1 + harvest;
  } else if (sale) {
    const int j = sell_set_index(int(sale));
    if (j < 0) return -1;
    act = 1 + kFruitTypes + j;
  }
  return (stack + 1) * kFruitActions + act;
}

ActionSpace::ActionSpace(const Rules& r, int radius_)
    : radius(radius_),
      choices(num_choices(r)),
      fruit(r.has(Expansion::FruitTrees) ? kFruitCodes : 1),
      stacks(r.has(Expansion::FruitTrees) ? 1 + kFruitTypes : 1),
      wheel(Game::get(r)->has_wheel()),
      choose(wheel && r.has(Expansion::FortuneTeller) ? num_choices(r) : 0) {}

pyb::dict action_ranges(const ActionSpace& a) {
  pyb::dict d;
  d["place"] = pyb::make_tuple(int64_t(0), a.place_size());
  d["crown"] = pyb::make_tuple(a.crown_base(), a.plague_base());
  d["plague"] = pyb::make_tuple(a.plague_base(), a.choose_base());
  d["choose"] = pyb::make_tuple(a.choose_base(), a.size());
  return d;
}

int64_t ActionSpace::encode(const State& s, const Move& m) const {
  const int R = radius, W = width();
  if (m.kind == MoveKind::Choose) return m.choice < choose ? choose_base() + m.choice : -1;
  if (m.kind == MoveKind::Plague) {
    if (!wheel || m.ext.plague() < 0 || m.ext.plague() >= s.num_followers()) return -1;
    const Follower& f = s.followers()[m.ext.plague()];
    const PlacedTile& P = s.placed(s.slot_tile(f.slot));
    if (P.x < -R || P.x > R || P.y < -R || P.y > R) return -1;
    const int li = location_code(s.game().type(P.type), s.slot_segment(f.slot), P.rot);
    if (li < 0) return -1;
    return plague_base() + int64_t((P.y + R) * W + (P.x + R)) * kNumLocations + li;
  }
  if (m.choice >= choices) return -1;
  if (m.x < -R || m.x > R || m.y < -R || m.y > R) return -1;
  const int cell = (m.y + R) * W + (m.x + R);
  if (m.ext.crown() >= 0 || m.ext.take_back_crown() >= 0) {
    // Wheel of Fortune: a follower put on / taken back from a crown space (no fruit action).
    if (!wheel || m.ext.fruit_action() != FruitAction::None || m.ext.fruit_type() + 1 >= stacks) return -1;
    const int opt = m.ext.crown() >= 0 ? m.ext.crown()
                                       : kNumCrowns + m.ext.take_back_crown();
    const int64_t q = (int64_t(m.choice * num_cells() + cell) * 4 + m.rot) * kCrownOptions + opt;
    return crown_base() + (m.ext.fruit_type() + 1) * crown_placements() + q;
  }
  const int f = fruit_code(m);
  if (f < 0 || f >= fruit) return -1;
  int opt = 0;
  if (m.meeple >= 0) {
    const int t = move_tile(s, m);
    if (t < 0) return -1;
    const TileType& tt = s.game().type(t);
    const int li = location_code(tt, m.meeple, m.rot);
    if (li < 0) return -1;
    opt = 1 + li;
  } else if (const int tb = m.ext.take_back(); tb >= 0) {
    if (tb >= s.num_followers()) return -1;
    const int me = s.followers()[tb].player;
    int k = 0;
    for (int i = 0; i < tb; ++i) k += s.followers()[i].player == me;
    opt = 1 + kNumLocations + k;
  }
  const int64_t p = (int64_t(m.choice * num_cells() + cell) * 4 + m.rot) * kOptions + opt;
  return f * placements() + p;
}

namespace {

int engine_crown_or_throw(const State& s, int pc) {
  const int c = s.game().has_wheel() ? crown_in_game(s.game(), pc) : -1;
  if (c < 0) throw std::invalid_argument("the wheel has no crown space " + crown_label(pc));
  return c;
}

}  // namespace

Move ActionSpace::decode(const State& s, int64_t action) const {
  if (action < 0 || action >= size())
    throw std::invalid_argument("action " + std::to_string(action) + " out of range 0.." + std::to_string(size() - 1));
  Move m;
  if (action >= choose_base()) {
    m.kind = MoveKind::Choose;
    m.choice = uint8_t(action - choose_base());
    return m;
  }
  if (action >= plague_base()) {
    const int64_t r = action - plague_base();
    const int li = int(r % kNumLocations), cell = int(r / kNumLocations);
    m.kind = MoveKind::Plague;
    m.x = int16_t(cell % width() - radius);
    m.y = int16_t(cell / width() - radius);
    for (int i = 0; i < s.num_followers(); ++i) {
      const Follower& f = s.followers()[i];
      const PlacedTile& P = s.placed(s.slot_tile(f.slot));
      if (P.x == m.x && P.y == m.y && location_code(s.game().type(P.type), s.slot_segment(f.slot), P.rot) == li) {
        m.ext.set_plague(i);
        return m;
      }
    }
    throw std::invalid_argument("no follower stands at (" + std::to_string(m.x) + "," + std::to_string(m.y) + ") " +
                                kLocations[li]);
  }
  const bool crown = action >= crown_base();
  const int64_t P = crown ? crown_placements() : placements();
  const int64_t r = crown ? action - crown_base() : action;
  const int f = int(r / P);  // fruit code (stack code in the crown range)
  const int64_t p = r % P;
  const int K = crown ? kCrownOptions : kOptions;
  const int opt = int(p % K);
  const int rot = int(p / K % 4);
  const int cell = int(p / K / 4 % num_cells());
  const int choice = int(p / K / 4 / num_cells());
  m.choice = uint8_t(choice);
  m.x = int16_t(cell % width() - radius);
  m.y = int16_t(cell / width() - radius);
  m.rot = uint8_t(rot);
  if (crown) {
    m.ext.set_fruit_type(f - 1);
    if (opt < kNumCrowns)
      m.ext.set_crown(engine_crown_or_throw(s, opt));
    else
      m.ext.set_take_back_crown(engine_crown_or_throw(s, opt - kNumCrowns));
    return m;
  }
  m.ext.set_fruit_type(f / kFruitActions - 1);
  if (const int act = f % kFruitActions; act > kFruitTypes) {
    m.ext.set_sale(sell_set(act - 1 - kFruitTypes));
  } else if (act > 0) {
    m.ext.set_harvest(act - 1);
  }
  if (opt >= 1 && opt <= kNumLocations) {
    const int t = move_tile(s, m);
    if (t < 0) throw std::invalid_argument("no drawn tile number " + std::to_string(choice));
    const TileType& tt = s.game().type(t);
    const int seg = tt.segment_at(kLocations[opt - 1], rot);
    if (seg < 0)
      throw std::invalid_argument("tile " + tt.id + " rotated " + std::to_string(90 * rot) + " has no location " +
                                  kLocations[opt - 1]);
    m.meeple = int8_t(seg);
  } else if (opt > kNumLocations) {
    const int k = opt - 1 - kNumLocations;
    const int me = s.turn_player();
    int seen = 0;
    for (int i = 0; i < s.num_followers(); ++i)
      if (s.followers()[i].player == me && seen++ == k) {
        m.ext.set_take_back(i);
        break;
      }
    if (m.ext.take_back() < 0)
      throw std::invalid_argument("the player has no follower number " + std::to_string(k) + " to take back");
  }
  return m;
}

namespace {

// Calls fn(action) for each legal move inside the window (engine order).
template <class Fn>
void for_each_legal_index(const PyState& ps, Fn fn) {
  std::vector<Move> moves;
  ps.s.legal_moves(moves);
  for (const Move& mv : moves)
    if (int64_t a = ps.space.encode(ps.s, mv); a >= 0) fn(a);
}

// The action indices of the legal moves inside the window (engine order).
std::vector<int64_t> legal_indices(const PyState& ps) {
  std::vector<Move> moves;
  ps.s.legal_moves(moves);
  std::vector<int64_t> out;
  out.reserve(moves.size());
  for (const Move& mv : moves)
    if (int64_t a = ps.space.encode(ps.s, mv); a >= 0) out.push_back(a);
  return out;
}

// A contiguous bool array of `n` entries, all false: `out` when given (checked), else new.
pyb::array_t<bool> cleared_mask(std::optional<pyb::array_t<bool>> out, int64_t n) {
  pyb::array_t<bool> mask;
  if (out) {
    mask = *out;
    if (mask.ndim() != 1 || mask.shape(0) != n || !(mask.flags() & pyb::array::c_style))
      throw std::invalid_argument("out must be a contiguous bool array of shape (" + std::to_string(n) + ",)");
  } else {
    mask = pyb::array_t<bool>(n);
  }
  std::memset(mask.mutable_data(), 0, size_t(n));
  return mask;
}

}  // namespace

void bind_actions(pyb::module_& m, StateClass& cls) {
  std::vector<std::string> locs(kLocations, kLocations + kNumLocations);
  m.attr("LOCATIONS") = locs;
  m.attr("NUM_OPTIONS") = kOptions;
  m.attr("MAX_CHOICES") = 1 + kMaxTents;
  m.attr("DEFAULT_RADIUS") = kDefaultRadius;
  m.attr("FRUIT_TYPES") = std::vector<std::string>(kFruitNames.begin(), kFruitNames.end());
  std::vector<std::vector<std::string>> sells;
  for (int j = 0; j < kNumSellSets; ++j) {
    sells.emplace_back();
    for (int f = 0; f < kFruitTypes; ++f)
      if (sell_set(j) >> f & 1) sells.back().push_back(kFruitNames[f]);
  }
  pyb::list sell_tuples;
  for (const auto& v : sells) sell_tuples.append(pyb::tuple(pyb::cast(v)));
  m.attr("SELL_SETS") = sell_tuples;
  m.attr("NUM_FRUIT_ACTIONS") = kFruitActions;
  m.attr("NUM_FRUIT_CODES") = kFruitCodes;
  m.attr("WHEEL_EVENTS") = std::vector<std::string>(kWheelEventNames.begin(), kWheelEventNames.end());
  std::vector<std::string> crowns;
  for (int pc = 0; pc < kNumCrowns; ++pc) crowns.push_back(crown_label(pc));
  m.attr("CROWN_SPACES") = crowns;
  m.attr("NUM_CROWN_OPTIONS") = kCrownOptions;

  cls.def_property_readonly(
          "num_actions", [](const PyState& ps) { return ps.space.size(); }, "Size of the fixed action space (Game.num_actions).")
      .def_property_readonly(
          "num_placements", [](const PyState& ps) { return ps.space.placements(); },
          "Size of the placement part of the index: choices * (2R+1)^2 * 4 * NUM_OPTIONS.")
      .def_property_readonly(
          "num_fruit_codes", [](const PyState& ps) { return ps.space.fruit; },
          "Size of the fruit part of the index: NUM_FRUIT_CODES (441) with the Fruit-Bearing Trees, else 1.")
      .def_property_readonly(
          "num_choices", [](const PyState& ps) { return ps.space.choices; },
          "Tile choices in the action index: 1, or 3 with the Fortune Teller.")
      .def_property_readonly(
          "radius", [](const PyState& ps) { return ps.space.radius; }, "Half-width R of the action/observation window.")
      .def_property_readonly(
          "action_ranges", [](const PyState& ps) { return action_ranges(ps.space); },
          "{'place': (start, stop), 'crown': ..., 'plague': ..., 'choose': ...}: the parts of the action index.")
      .def(
          "legal_range_mask",
          [](const PyState& ps, const std::string& range, std::optional<pyb::array_t<bool>> out) {
            int64_t lo, hi;
            if (range == "place") {
              lo = 0, hi = ps.space.place_size();
            } else if (range == "crown") {
              lo = ps.space.crown_base(), hi = ps.space.plague_base();
            } else if (range == "plague") {
              lo = ps.space.plague_base(), hi = ps.space.choose_base();
            } else if (range == "choose") {
              lo = ps.space.choose_base(), hi = ps.space.size();
            } else {
              throw std::invalid_argument("range is 'place', 'crown', 'plague' or 'choose'");
            }
            pyb::array_t<bool> mask = cleared_mask(out, hi - lo);
            bool* p = mask.mutable_data();
            for_each_legal_index(ps, [=](int64_t a) {
              if (a >= lo && a < hi) p[a - lo] = true;
            });
            return mask;
          },
          pyb::arg("range"), pyb::arg("out").noconvert() = pyb::none(),
          "numpy bool array over one range of the action index (action_ranges[range]; entry i stands for "
          "action start + i): True for the legal moves inside the window.")
      .def(
          "legal_actions",
          [](const PyState& ps) {
            std::vector<int64_t> out = legal_indices(ps);
            std::sort(out.begin(), out.end());
            return out;
          },
          "Sorted action indices of the legal moves inside the window.")
      .def(
          "legal_action_mask",
          [](const PyState& ps, std::optional<pyb::array_t<bool>> out) {
            pyb::array_t<bool> mask = cleared_mask(out, ps.space.size());
            bool* p = mask.mutable_data();
            for_each_legal_index(ps, [p](int64_t a) { p[a] = true; });
            return mask;
          },
          pyb::arg("out").noconvert() = pyb::none(),
          "numpy bool array of shape (num_actions,): True for the legal moves inside the window. `out`: an "
          "array to fill instead of a new one. With the Fruit-Bearing Trees prefer the factored masks "
          "(legal_placement_mask, legal_fruit_masks, legal_range_mask): this one has over num_placements * 441 "
          "entries.")
      .def(
          "legal_placement_mask",
          [](const PyState& ps, std::optional<pyb::array_t<bool>> out) {
            pyb::array_t<bool> mask = cleared_mask(out, ps.space.placements());
            bool* p = mask.mutable_data();
            const int64_t P = ps.space.placements();
            const int64_t main = ps.space.place_size();
            for_each_legal_index(ps, [p, P, main](int64_t a) {
              if (a < main) p[a % P] = true;
            });
            return mask;
          },
          pyb::arg("out").noconvert() = pyb::none(),
          "numpy bool array of shape (num_placements,): True for the placement parts (action % num_placements) "
          "of the legal actions in the 'place' range (action < num_fruit_codes * num_placements). The same as "
          "legal_action_mask() without the Fruit-Bearing Trees and the Wheel of Fortune.")
      .def(
          "legal_fruit_mask",
          [](const PyState& ps, int64_t placement) {
            const int64_t P = ps.space.placements();
            if (placement < 0 || placement >= P)
              throw std::invalid_argument("placement " + std::to_string(placement) + " out of range 0.." +
                                          std::to_string(P - 1));
            pyb::array_t<bool> mask = cleared_mask(std::nullopt, ps.space.fruit);
            bool* p = mask.mutable_data();
            const int64_t main = ps.space.place_size();
            for_each_legal_index(ps, [&](int64_t a) {
              if (a < main && a % P == placement) p[a / P] = true;
            });
            return mask;
          },
          pyb::arg("placement"),
          "numpy bool array of shape (num_fruit_codes,): True for the fruit parts f that make "
          "f * num_placements + placement a legal action (all False for a placement no legal move has).")
      .def(
          "legal_fruit_masks",
          [](const PyState& ps) {
            const int64_t P = ps.space.placements();
            const int F = ps.space.fruit;
            std::vector<int64_t> acts = legal_indices(ps);
            acts.erase(std::remove_if(acts.begin(), acts.end(),
                                      [&](int64_t a) { return a >= ps.space.place_size(); }),
                       acts.end());
            std::vector<int64_t> rows;  // placements in increasing order
            rows.reserve(acts.size());
            for (int64_t a : acts) rows.push_back(a % P);
            std::sort(rows.begin(), rows.end());
            rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
            pyb::array_t<int64_t> placements(int64_t(rows.size()));
            std::copy(rows.begin(), rows.end(), placements.mutable_data());
            pyb::array_t<bool> masks({int64_t(rows.size()), int64_t(F)});
            bool* p = masks.mutable_data();
            std::memset(p, 0, rows.size() * size_t(F));
            for (int64_t a : acts) {
              const size_t r = size_t(std::lower_bound(rows.begin(), rows.end(), a % P) - rows.begin());
              p[r * size_t(F) + size_t(a / P)] = true;
            }
            return pyb::make_tuple(placements, masks);
          },
          "(placements, masks): the distinct placement parts of the legal moves inside the window (sorted "
          "int64 array of shape (K,)) and for each its legal fruit parts (bool array of shape "
          "(K, num_fruit_codes)). The legal actions of the 'place' range are f * num_placements + placements[i] "
          "for masks[i, f].")
      .def(
          "num_moves_outside_window",
          [](const PyState& ps) {
            std::vector<Move> moves;
            ps.s.legal_moves(moves);
            int n = 0;
            for (const Move& mv : moves) n += ps.space.encode(ps.s, mv) < 0;
            return n;
          },
          "Legal moves the action window cannot express (0 in practice; raise radius if not).")
      .def(
          "move_to_action",
          [](const PyState& ps, const PyMove& pm) {
            require_decision(ps.s);
            const Move mv = to_engine(ps.s, pm);
            if (auto err = ps.s.check_move(mv); !err.empty()) throw std::invalid_argument(err);
            const int64_t a = ps.space.encode(ps.s, mv);
            if (a < 0) throw std::invalid_argument("the move lies outside the action window");
            return a;
          },
          pyb::arg("move"), "The action index of a legal move.")
      .def(
          "action_to_move",
          [](const PyState& ps, int64_t action) {
            require_decision(ps.s);
            return from_engine(ps.s, ps.space.decode(ps.s, action));
          },
          pyb::arg("action"), "The move an action index stands for (not checked for legality).")
      .def(
          "legal_moves_and_actions",
          [](const PyState& ps) {
            std::vector<Move> moves;
            ps.s.legal_moves(moves);
            std::vector<std::pair<PyMove, int64_t>> out;
            for (const Move& mv : moves) out.emplace_back(from_engine(ps.s, mv), ps.space.encode(ps.s, mv));
            return out;
          },
          "[(move, action or -1)] in the engine's order.");
}

}  // namespace carc::py
