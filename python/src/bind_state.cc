// Bindings: moves and the game state (chance, decisions, clone, scores, JSON, pickling).
#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <map>

#include "common.h"
#include "playout.h"

namespace carc::py {

std::string crown_label(int c) { return crown_space_name(c); }

int crown_from_label(const std::string& name) {
  const std::string n = name.rfind("crown:", 0) == 0 ? name : "crown:" + name;  // "taxes:0": the old form
  for (int c = 0; c < kNumCrowns; ++c)
    if (n == crown_label(c)) return c;
  return -1;
}

// The named move (notation.h) a Python move stands for: the same converter as records and the
// server use. A follower / take-back given by a Python crown index is named by the engine's
// crown space name ("crown:taxes:0"), a Festival take-back given by an index into followers()
// by its place, a harvest given by fruit type by its tree's cell.
NamedMove named_of(const State& s, const PyMove& pm) {
  NamedMove n;
  n.kind = pm.m.kind;
  if (pm.m.kind == MoveKind::Plague) {
    n.take_back = ReturnSpec{pm.m.x, pm.m.y, pm.loc >= 0 ? kLocations[pm.loc] : ""};
    return n;
  }
  n.choice = pm.m.choice;
  if (pm.m.kind == MoveKind::Choose) return n;
  n.x = pm.m.x;
  n.y = pm.m.y;
  n.rotation = 90 * (pm.m.rot & 3);
  auto crown_name = [&](int pc) {
    if (!s.game().has_wheel()) throw std::invalid_argument("this game has no Wheel of Fortune (no crown spaces)");
    const int c = crown_in_game(s.game(), pc);
    if (c < 0) throw std::invalid_argument("the wheel has no crown space " + crown_label(pc));
    return s.game().crown_name(c);
  };
  if (pm.crown >= 0) n.follower = crown_name(pm.crown);
  else if (pm.loc >= 0) n.follower = kLocations[pm.loc];
  if (pm.tb_crown >= 0) {
    n.take_back = ReturnSpec{0, 0, crown_name(pm.tb_crown)};
  } else if (const int tb = pm.m.ext.take_back(); tb >= 0) {
    if (tb >= s.num_followers())
      throw std::invalid_argument("take_back: there is no follower number " + std::to_string(tb) +
                                  " (State.followers() has " + std::to_string(s.num_followers()) + ")");
    n.take_back = follower_place(s, tb);
  }
  if (pm.m.ext.fruit_type() >= 0) n.fruit_type = kFruitNames[pm.m.ext.fruit_type()];
  if (pm.m.ext.harvest() >= 0) {
    const int f = pm.m.ext.harvest();
    if (const int pt = f < kFruitTypes ? s.mod<FruitBlock>().tree(f) : -1; pt >= 0)
      n.harvest = std::make_pair(int(s.placed(pt).x), int(s.placed(pt).y));
    else if (f == pm.m.ext.fruit_type())  // the tree of the placed tile itself
      n.harvest = std::make_pair(n.x, n.y);
    else
      throw std::invalid_argument(std::string("harvest: no ") + kFruitNames[f] + " tree on the board");
  } else if (const uint32_t sale = pm.m.ext.sale()) {
    for (int f = 0; f < kFruitTypes; ++f)
      if (sale >> f & 1) n.sell.push_back(kFruitNames[f]);
  }
  return n;
}

MoveResult to_engine_checked(const State& s, const PyMove& pm) { return parse_move(s, named_of(s, pm)); }

Move to_engine(const State& s, const PyMove& pm) {
  const MoveResult r = to_engine_checked(s, pm);
  if (!r.ok()) throw std::invalid_argument(r.error);
  return r.move;
}

PyMove from_engine(const State& s, const Move& m) {
  PyMove pm;
  pm.m = m;
  pm.game = &s.game();
  const int t = m.kind == MoveKind::Plague ? -1 : move_tile(s, m);
  pm.tile = int16_t(t);
  if (m.ext.crown() >= 0)
    pm.crown = int8_t(m.ext.crown());
  else if (m.meeple >= 0 && t >= 0)
    pm.loc = int8_t(location_code(s.game().type(t), m.meeple, m.rot));
  // The follower taken back: a Festival take-back or the Plague's.
  const int back = m.kind == MoveKind::Plague ? m.ext.plague() : m.ext.take_back();
  if (m.ext.take_back_crown() >= 0) {
    pm.tb_crown = int8_t(m.ext.take_back_crown());
  } else if (back >= 0 && back < s.num_followers()) {
    const Follower& f = s.followers()[back];
    const PlacedTile& P = s.placed(s.slot_tile(f.slot));
    pm.has_take_back_at = true;
    pm.tb_x = P.x;
    pm.tb_y = P.y;
    pm.tb_loc = int8_t(location_code(s.game().type(P.type), s.slot_segment(f.slot), P.rot));
    if (m.kind == MoveKind::Plague) pm.loc = pm.tb_loc;
  }
  return pm;
}

namespace {

std::string loc_name(int8_t loc) { return loc >= 0 ? kLocations[loc] : ""; }

std::string tile_name(const PyMove& pm) { return pm.game && pm.tile >= 0 ? pm.game->type(pm.tile).id : ""; }

const char* const kKindNames[3] = {"place", "choose", "plague"};

// A crown space given as "taxes:0" / "crown:taxes:0" or as a Python crown index.
int8_t crown_arg(pyb::handle h) {
  int pc;
  if (pyb::isinstance<pyb::str>(h)) {
    pc = crown_from_label(h.cast<std::string>());
    if (pc < 0) throw std::invalid_argument("unknown crown space '" + h.cast<std::string>() + "' (e.g. 'taxes:0')");
  } else {
    pc = h.cast<int>();
    if (pc < 0 || pc >= kNumCrowns)
      throw std::invalid_argument("crown index is 0.." + std::to_string(kNumCrowns - 1));
  }
  return int8_t(pc);
}

// Festival: the own follower taken back; a Plague move: the follower taken back.
int take_back_index(const PyMove& pm) {
  return pm.m.kind == MoveKind::Plague ? pm.m.ext.plague() : pm.m.ext.take_back();
}

std::string move_repr(const PyMove& pm) {
  std::string r = "Move(";
  if (pm.m.kind == MoveKind::Choose) {
    r += "kind='choose', choice=" + std::to_string(int(pm.m.choice));
    if (pm.tile >= 0 && pm.game) r += ", tile='" + tile_name(pm) + "'";
    return r + ")";
  }
  if (pm.m.kind == MoveKind::Plague) {
    r += "kind='plague', x=" + std::to_string(pm.m.x) + ", y=" + std::to_string(pm.m.y);
    if (pm.loc >= 0) r += ", follower='" + loc_name(pm.loc) + "'";
    if (pm.m.ext.plague() >= 0) r += ", take_back=" + std::to_string(pm.m.ext.plague());
    return r + ")";
  }
  r += "x=" + std::to_string(pm.m.x) + ", y=" + std::to_string(pm.m.y) + ", rotation=" + std::to_string(90 * int(pm.m.rot));
  if (pm.loc >= 0) r += ", follower='" + loc_name(pm.loc) + "'";
  if (pm.crown >= 0) r += ", crown='" + crown_label(pm.crown) + "'";
  if (take_back_index(pm) >= 0) r += ", take_back=" + std::to_string(take_back_index(pm));
  if (pm.tb_crown >= 0) r += ", take_back_crown='" + crown_label(pm.tb_crown) + "'";
  if (pm.m.choice) r += ", choice=" + std::to_string(int(pm.m.choice));
  if (pm.tile >= 0 && pm.game) r += ", tile='" + tile_name(pm) + "'";
  if (pm.m.ext.fruit_type() >= 0) r += ", fruit_type='" + std::string(kFruitNames[pm.m.ext.fruit_type()]) + "'";
  if (pm.m.ext.harvest() >= 0) r += ", harvest='" + std::string(kFruitNames[pm.m.ext.harvest()]) + "'";
  if (pm.m.ext.sale()) {
    r += ", sell=[";
    for (int f = 0, n = 0; f < kFruitTypes; ++f)
      if (pm.m.ext.sale() >> f & 1) r += std::string(n++ ? ", " : "") + "'" + kFruitNames[f] + "'";
    r += "]";
  }
  return r + ")";
}

// The identity of a move: its engine move with the follower named by location or crown space
// (a hand-built move has its segment / engine crown space resolved only when applied), and a
// Plague move named by the follower's place only (its followers() index is derived).
// Comparing the whole engine move keeps parts the engine adds later apart.
// The fruit action's argument: the harvested tree's fruit type, or the set sold (0: none).
uint32_t fruit_target(const Move& m) { return m.ext.harvest() >= 0 ? uint32_t(m.ext.harvest()) : m.ext.sale(); }

Move normalized(const PyMove& pm) {
  Move x = pm.m;
  x.meeple = -1;
  x.ext.set_crown(-1);
  x.ext.set_take_back_crown(-1);
  x.ext.set_plague(-1);
  return x;
}

bool same_move(const PyMove& a, const PyMove& b) {
  return a.loc == b.loc && a.crown == b.crown && a.tb_crown == b.tb_crown && normalized(a) == normalized(b);
}

int64_t move_hash(const PyMove& pm) {
  const Move x = normalized(pm);
  uint64_t h = uint64_t(uint16_t(x.x)) | uint64_t(uint16_t(x.y)) << 16 | uint64_t(x.rot) << 32 |
               uint64_t(uint8_t(x.ext.take_back())) << 44 | uint64_t(x.choice) << 52;
  h ^= uint64_t(uint8_t(x.ext.fruit_type())) << 56 ^ uint64_t(x.ext.fruit_action()) << 60 ^ uint64_t(fruit_target(x)) << 24 ^
       uint64_t(x.kind) << 62 ^ uint64_t(uint8_t(pm.crown)) << 40 ^ uint64_t(uint8_t(pm.tb_crown)) << 48;
  return int64_t((h * 0x9E3779B97F4A7C15ull) >> 2);
}

int tile_index(const State& s, pyb::handle tile) {
  if (pyb::isinstance<pyb::str>(tile)) {
    const int t = s.game().type_index(tile.cast<std::string>());
    if (t < 0) throw std::invalid_argument("unknown tile '" + tile.cast<std::string>() + "'");
    return t;
  }
  const int t = tile.cast<int>();
  if (t < 0 || t >= s.game().num_types()) throw std::invalid_argument("tile index out of range");
  return t;
}

}  // namespace

void require_decision(const State& s) {
  if (s.current_player() < 0)
    throw std::invalid_argument(s.is_terminal() ? "the game is over" : "chance node: draw a tile first");
}

namespace {

void apply_checked(PyState& ps, const PyMove& pm) {
  require_decision(ps.s);
  ps.s.apply(to_engine(ps.s, pm));  // checked by notation's parse_move (ValueError with the reason)
  ps.settle();
}

std::vector<PyMove> legal_py_moves(const State& s) {
  std::vector<Move> moves;
  s.legal_moves(moves);
  std::vector<PyMove> out;
  out.reserve(moves.size());
  for (const Move& m : moves) out.push_back(from_engine(s, m));
  return out;
}

}  // namespace

StateClass bind_state(pyb::module_& m) {
  pyb::class_<PyMove>(m, "Move",
                      "A decision. kind 'place': place the current tile at (x, y) turned `rotation` degrees "
                      "clockwise (0, 90, 180, 270), optionally with a follower on `follower` (a location such as "
                      "'N', 'Sw', 'C', or a crown space 'crown:taxes:0'; `location` is its deprecated old name) or "
                      "(Festival) taking back follower "
                      "`take_back`; Fruit-Bearing Trees: `fruit_type` (stack put on a tree tile), `harvest` (fruit "
                      "type of the tree harvested) or `sell` (fruit types sold); Wheel of Fortune: a follower on "
                      "crown space `crown` instead of the tile, or (Festival) taken back from `take_back_crown`. "
                      "kind 'plague': take back the follower at (x, y) on `follower` (Plague). kind 'choose': play "
                      "drawn wheel tile number `choice` (Fortune Teller).")
      .def(pyb::init([](int x, int y, int rotation, std::optional<std::string> follower, int take_back, int choice,
                        std::optional<std::string> fruit_type, std::optional<std::string> harvest,
                        const std::vector<std::string>& sell, pyb::object crown, pyb::object take_back_crown,
                        const std::string& kind, std::optional<std::string> location) {
             if (rotation != 0 && rotation != 90 && rotation != 180 && rotation != 270)
               throw std::invalid_argument(
                   "rotation is in degrees clockwise: 0, 90, 180 or 270 (got " + std::to_string(rotation) +
                   (rotation > 0 && rotation < 4 ? "; quarter turns are no longer accepted, see CHANGELOG.md" : "") + ")");
             if (location) {  // the follower's place under its old keyword (deprecated for one release)
               if (follower) throw std::invalid_argument("give follower= or its deprecated old name location=, not both");
               if (PyErr_WarnEx(PyExc_DeprecationWarning,
                                "Move(location=...) is deprecated: use follower=... (docs/vocabulary.md)", 1) < 0)
                 throw pyb::error_already_set();
               follower = location;
             }
             pyb::object crown_arg_obj = crown;
             std::optional<std::string> location_name;
             if (follower && follower->rfind("crown:", 0) == 0) {  // a crown space named as the follower's place
               if (!crown.is_none()) throw std::invalid_argument("a follower goes on one place: follower= or crown=, not both");
               crown_arg_obj = pyb::str(*follower);
             } else {
               location_name = follower;
             }
             if (choice < 0 || choice > kMaxTents) throw std::invalid_argument("choice is 0.." + std::to_string(kMaxTents));
             if (take_back < -1 || take_back >= kMaxFollowers) throw std::invalid_argument("take_back out of range");
             PyMove pm;
             pm.m.x = int16_t(x);
             pm.m.y = int16_t(y);
             pm.m.rot = uint8_t(rotation / 90);
             pm.m.ext.set_take_back(take_back);
             pm.m.choice = uint8_t(choice);
             if (location_name) {
               pm.loc = int8_t(location_index(*location_name));
               if (pm.loc < 0) throw std::invalid_argument("unknown follower location '" + *location_name + "'");
             }
             if (!crown_arg_obj.is_none()) pm.crown = crown_arg(crown_arg_obj);
             if (!take_back_crown.is_none()) pm.tb_crown = crown_arg(take_back_crown);
             auto fruit = [](const std::string& name) {
               const int f = fruit_index(name);
               if (f < 0) throw std::invalid_argument("unknown fruit type '" + name + "'");
               return f;
             };
             if (fruit_type) pm.m.ext.set_fruit_type(fruit(*fruit_type));
             if (harvest && !sell.empty()) throw std::invalid_argument("a move either harvests or sells, not both");
             if (harvest) {
               pm.m.ext.set_harvest(fruit(*harvest));
             } else if (!sell.empty()) {
               uint32_t sale = 0;
               for (const auto& name : sell) {
                 const int f = fruit(name);
                 if (sale >> f & 1) throw std::invalid_argument("fruit type '" + name + "' sold twice");
                 sale |= 1u << f;
               }
               pm.m.ext.set_sale(sale);
             }
             const bool extras = pm.m.ext.take_back() >= 0 || pm.crown >= 0 || pm.tb_crown >= 0 ||
                                 pm.m.ext.fruit_type() >= 0 || pm.m.ext.fruit_action() != FruitAction::None;
             if (kind == "place") {
               if (pm.loc >= 0 && pm.crown >= 0)
                 throw std::invalid_argument("a follower goes on the tile (follower) or on a crown space, not both");
               if (pm.m.ext.take_back() >= 0 && pm.tb_crown >= 0)
                 throw std::invalid_argument("take back one follower: take_back or take_back_crown");
             } else if (kind == "choose") {
               if (x || y || rotation || pm.loc >= 0 || extras)
                 throw std::invalid_argument("a choose move has only `choice` (the drawn tile to play)");
               pm.m.kind = MoveKind::Choose;
             } else if (kind == "plague") {
               if (pm.loc < 0 || rotation || choice || extras)
                 throw std::invalid_argument(
                     "a plague move names the follower taken back by x, y and follower (its location), nothing else");
               pm.m.kind = MoveKind::Plague;
             } else {
               throw std::invalid_argument("kind is 'place', 'choose' or 'plague'");
             }
             return pm;
           }),
           pyb::arg("x") = 0, pyb::arg("y") = 0, pyb::arg("rotation") = 0, pyb::arg("follower") = pyb::none(),
           pyb::arg("take_back") = -1, pyb::arg("choice") = 0, pyb::arg("fruit_type") = pyb::none(),
           pyb::arg("harvest") = pyb::none(), pyb::arg("sell") = std::vector<std::string>{},
           pyb::arg("crown") = pyb::none(), pyb::arg("take_back_crown") = pyb::none(), pyb::arg("kind") = "place",
           pyb::arg("location") = pyb::none())
      .def_property_readonly(
          "kind", [](const PyMove& pm) { return std::string(kKindNames[int(pm.m.kind)]); },
          "'place' (place the tile), 'choose' (Wheel of Fortune with the Fortune Teller: play this drawn wheel "
          "tile; the wheel turns first) or 'plague' (take a follower back from the land).")
      .def_property_readonly(
          "x", [](const PyMove& pm) { return int(pm.m.x); }, "Column of the cell (the start tile is at x = 0).")
      .def_property_readonly(
          "y", [](const PyMove& pm) { return int(pm.m.y); }, "Row of the cell (y grows southwards).")
      .def_property_readonly(
          "rotation", [](const PyMove& pm) { return 90 * int(pm.m.rot); }, "The rotation in degrees clockwise: 0, 90, 180 or 270.")
      .def_property_readonly(
          "degrees", [](const PyMove& pm) { return 90 * int(pm.m.rot); }, "The rotation in degrees clockwise (the same as `rotation`).")
      .def_property_readonly(
          "follower",
          [](const PyMove& pm) -> std::optional<std::string> {
            if (pm.crown >= 0) return crown_label(pm.crown);
            if (pm.loc < 0) return std::nullopt;
            return loc_name(pm.loc);
          },
          "The follower's place: a location on the placed tile ('N', 'Sw', 'C', 'inner', ...), a crown space "
          "('crown:taxes:0'), or None; for a plague move the location of the follower taken back.")
      .def_property_readonly(
          "location",
          [](const PyMove& pm) -> std::optional<std::string> {
            if (pm.loc < 0) return std::nullopt;
            return loc_name(pm.loc);
          },
          "Follower location on the placed tile ('N', 'Sw', 'C', 'inner', ...) or None; for a plague move the "
          "location of the follower taken back.")
      .def_property_readonly(
          "crown",
          [](const PyMove& pm) -> std::optional<std::string> {
            if (pm.crown < 0) return std::nullopt;
            return crown_label(pm.crown);
          },
          "Wheel of Fortune: the crown space ('taxes:0') that receives a follower instead of the tile, or None.")
      .def_property_readonly(
          "crown_index",
          [](const PyMove& pm) -> std::optional<int> {
            if (pm.crown < 0) return std::nullopt;
            return int(pm.crown);
          },
          "The crown space as an index into CROWN_SPACES, or None.")
      .def_property_readonly(
          "take_back_crown",
          [](const PyMove& pm) -> std::optional<std::string> {
            if (pm.tb_crown < 0) return std::nullopt;
            return crown_label(pm.tb_crown);
          },
          "Festival with the Wheel of Fortune: the crown space a follower is taken back from, or None.")
      .def_property_readonly(
          "follower_segment", [](const PyMove& pm) { return int(pm.m.meeple); },
          "Segment index of the follower on the placed tile, or -1 (engine detail; `follower` names it).")
      .def_property_readonly(
          "take_back", [](const PyMove& pm) { return take_back_index(pm); },
          "Festival: index into State.followers() of the own follower taken back, or -1; plague moves from "
          "legal_moves(): the follower taken back.")
      .def_property_readonly(
          "take_back_at",
          [](const PyMove& pm) -> std::optional<std::tuple<int, int, std::string>> {
            if (!pm.has_take_back_at) return std::nullopt;
            return std::make_tuple(int(pm.tb_x), int(pm.tb_y), loc_name(pm.tb_loc));
          },
          "Festival and plague moves from legal_moves(): (x, y, location) of the follower taken back, or None.")
      .def_property_readonly(
          "choice", [](const PyMove& pm) { return int(pm.m.choice); }, "Which drawn tile (index into State.drawn_tiles; Fortune Teller).")
      .def_property_readonly(
          "fruit_type",
          [](const PyMove& pm) -> std::optional<std::string> {
            if (pm.m.ext.fruit_type() < 0) return std::nullopt;
            return std::string(kFruitNames[pm.m.ext.fruit_type()]);
          },
          "Fruit Trees: the fruit stack put on a placed tree tile, or None.")
      .def_property_readonly(
          "harvest",
          [](const PyMove& pm) -> std::optional<std::string> {
            if (pm.m.ext.harvest() < 0) return std::nullopt;
            return std::string(kFruitNames[pm.m.ext.harvest()]);
          },
          "Fruit Trees: the fruit type of the tree harvested, or None.")
      .def_property_readonly(
          "sell",
          [](const PyMove& pm) {
            std::vector<std::string> out;
            for (int f = 0; f < kFruitTypes; ++f)
              if (pm.m.ext.sale() >> f & 1) out.push_back(kFruitNames[f]);
            return out;
          },
          "Fruit Trees: the fruit types sold (empty when none).")
      .def_property_readonly("tile",
                             [](const PyMove& pm) -> std::optional<std::string> {
                               if (pm.tile < 0 || !pm.game) return std::nullopt;
                               return tile_name(pm);
                             },
                             "Id of the tile placed or chosen (moves from legal_moves()), or None.")
      .def("__repr__", &move_repr)
      .def("__eq__", [](const PyMove& a, const PyMove& b) { return same_move(a, b); })
      .def("__hash__", &move_hash)
      .def(pyb::pickle(
          [](const PyMove& pm) {
            return pyb::make_tuple(int(pm.m.x), int(pm.m.y), int(pm.m.rot), loc_name(pm.loc), take_back_index(pm),
                                   int(pm.m.choice), pm.m.ext.fruit_type(), int(pm.m.ext.fruit_action()), int(fruit_target(pm.m)),
                                   int(pm.m.kind), int(pm.crown), int(pm.tb_crown));
          },
          [](pyb::tuple t) {
            PyMove pm;
            pm.m.x = int16_t(t[0].cast<int>());
            pm.m.y = int16_t(t[1].cast<int>());
            pm.m.rot = uint8_t(t[2].cast<int>());
            pm.loc = int8_t(location_index(t[3].cast<std::string>()));
            // Pickled data is input from outside: every field is range-checked before it is packed.
            auto in = [&](size_t i, int lo, int hi) {
              const int v = t[i].cast<int>();
              if (v < lo || v > hi)
                throw std::invalid_argument("Move pickle: field " + std::to_string(i) + " is " + std::to_string(v) +
                                            ", not in " + std::to_string(lo) + ".." + std::to_string(hi));
              return v;
            };
            const int back = in(4, -1, kMaxFollowers - 1);
            pm.m.choice = uint8_t(t[5].cast<int>());
            if (t.size() >= 9) {
              pm.m.ext.set_fruit_type(in(6, -1, kFruitTypes - 1));
              const int action = in(7, 0, 2);
              const int target = in(8, 0, action == int(FruitAction::Harvest) ? kFruitTypes - 1 : 63);
              if (action == int(FruitAction::Harvest)) pm.m.ext.set_harvest(target);
              else if (action == int(FruitAction::Sell)) pm.m.ext.set_sale(uint32_t(target));
            }
            if (t.size() >= 12) {
              pm.m.kind = MoveKind(in(9, 0, 2));
              pm.crown = int8_t(t[10].cast<int>());
              pm.tb_crown = int8_t(t[11].cast<int>());
            }
            if (pm.m.kind == MoveKind::Plague) pm.m.ext.set_plague(back);
            else pm.m.ext.set_take_back(back);
            return pm;
          }));

  StateClass cls(m, "State", "A game in progress. Chance nodes (tile draws) are explicit unless auto_chance is set.");
  cls.def_property_readonly("game",
                            [](const PyState& ps) {
                              return PyGame{ps.s.rules(), &ps.s.game(), ps.space.radius};
                            },
                            "The Game this state belongs to.")
      .def_property_readonly(
          "rules", [](const PyState& ps) { return ps.s.rules(); }, "The rule variant.")
      .def_property(
          "auto_chance", [](const PyState& ps) { return ps.auto_chance; },
          [](PyState& ps, bool v) {
            ps.auto_chance = v;
            ps.settle();
          },
          "When True, every chance node is resolved at once with the state's own generator.")
      .def_property_readonly(
          "num_players", [](const PyState& ps) { return ps.s.num_players(); }, "Number of players.")
      .def(
          "current_player", [](const PyState& ps) { return ps.s.current_player(); },
          "The player to decide; -1 (CHANCE_PLAYER) at a chance node, -2 (TERMINAL_PLAYER) at the end.")
      .def_property_readonly(
          "turn_player", [](const PyState& ps) { return ps.s.turn_player(); },
          "The player whose turn it is (also at chance nodes).")
      .def_property_readonly(
          "turn", [](const PyState& ps) { return ps.s.turn(); }, "Tiles placed after the start tile.")
      .def(
          "is_chance_node", [](const PyState& ps) { return ps.s.is_chance(); }, "True when a tile is to be drawn.")
      .def(
          "is_terminal", [](const PyState& ps) { return ps.s.is_terminal(); }, "True when the game is over.")
      .def(
          "scores", [](const PyState& ps) { return ps.s.scores(); }, "Points so far per player (final scoring applied at the end).")
      .def(
          "returns", [](const PyState& ps) { return ps.s.scores(); }, "Same as scores() (points so far).")
      .def(
          "supply",
          [](const PyState& ps) {
            std::vector<int> v;
            for (int p = 0; p < ps.s.num_players(); ++p) v.push_back(ps.s.supply(p));
            return v;
          },
          "Followers each player still has in hand.")
      // --- chance ---
      .def(
          "chance_outcomes",
          [](const PyState& ps) {
            std::vector<std::pair<std::string, double>> out;
            const double total = ps.s.bag_size();
            for (auto [t, c] : ps.s.chance_outcomes()) out.emplace_back(ps.s.game().type(t).id, c / total);
            return out;
          },
          "[(tile id, probability)] of the next draw (empty unless at a chance node).")
      .def(
          "bag",
          [](const PyState& ps) {
            std::vector<std::pair<std::string, int>> out;
            for (int t = 0; t < ps.s.game().num_types(); ++t)
              if (ps.s.bag_count(t)) out.emplace_back(ps.s.game().type(t).id, ps.s.bag_count(t));
            return out;
          },
          "[(tile id, count)] of the tiles still in the bag (public information).")
      .def_property_readonly(
          "bag_size", [](const PyState& ps) { return ps.s.bag_size(); }, "Tiles left in the bag.")
      .def(
          "apply_draw",
          [](PyState& ps, pyb::handle tile) {
            if (!ps.s.is_chance()) throw std::invalid_argument("not at a chance node");
            const int t = tile_index(ps.s, tile);
            if (ps.s.bag_count(t) == 0)
              throw std::invalid_argument("no tile " + ps.s.game().type(t).id + " is left in the bag");
            const bool placed = ps.s.apply_draw(t);
            ps.settle();
            return placed;
          },
          pyb::arg("tile"),
          "Draws this tile (id or type index). Returns False when it had no legal place and was discarded.")
      .def(
          "draw_random",
          [](PyState& ps) {
            if (!ps.s.is_chance()) throw std::invalid_argument("not at a chance node");
            const bool placed = ps.s.draw_random();
            ps.settle();
            return placed;
          },
          "Draws with the state's own generator; False when the tile was discarded.")
      .def(
          "resolve_chance",
          [](PyState& ps) {
            while (ps.s.is_chance()) ps.s.draw_random();
          },
          "Draws with the state's generator until a decision or the end.")
      .def(
          "resample_hidden",
          [](PyState& ps, uint64_t seed) {
            Rng r(seed);
            ps.s.resample_hidden(r);
          },
          pyb::arg("seed"), "Replaces the hidden future (the draw generator) by a fresh one from `seed`.")
      .def_property_readonly(
          "drawn_tiles",
          [](const PyState& ps) {
            std::vector<std::string> out;
            for (int i = 0; i < ps.s.num_drawn(); ++i) out.push_back(ps.s.game().type(ps.s.drawn_tile(i)).id);
            return out;
          },
          "Tiles drawn so far this turn (Move.choice indexes them; Fortune Teller).")
      .def_property_readonly(
          "draw_target", [](const PyState& ps) { return ps.s.draw_target(); },
          "Tiles to draw this turn (1 + the player's fortune tellers, at most the bag).")
      .def(
          "tents",
          [](const PyState& ps) {
            std::vector<int> v;
            for (int p = 0; p < ps.s.num_players(); ++p) v.push_back(ps.s.mod<FortuneTellerBlock>().tellers(p));
            return v;
          },
          "Fortune tellers on tents per player.")
      .def_property_readonly(
          "current_tile",
          [](const PyState& ps) -> std::optional<std::string> {
            if (ps.s.current_tile() < 0) return std::nullopt;
            return ps.s.game().type(ps.s.current_tile()).id;
          },
          "The tile to place this turn (the first drawn tile that can be placed; during a Plague decision the "
          "tile still to be placed), or None at chance and terminal nodes.")
      .def_property_readonly(
          "phase",
          [](const PyState& ps) {
            return std::string(phase_name(ps.s));  // the engine's one set of phase names (kPhaseNames)
          },
          "'chance', 'place' (the turn player places, or chooses a wheel tile), 'plague' (Wheel of Fortune: "
          "plague_player takes back a follower) or 'terminal'.")
      // --- Fruit-Bearing Trees (public information only) ---
      .def(
          "fruit_trees",
          [](const PyState& ps) {
            std::map<std::string, std::pair<int, int>> out;
            for (int f = 0; f < kFruitTypes; ++f)
              if (const int t = ps.s.mod<FruitBlock>().tree(f); t >= 0) out[kFruitNames[f]] = {ps.s.placed(t).x, ps.s.placed(t).y};
            return out;
          },
          "Fruit-Bearing Trees: {fruit type: (x, y)} of the stacks put on tree tiles.")
      .def(
          "fruit_left",
          [](const PyState& ps) {
            std::vector<int> v;
            for (int f = 0; f < kFruitTypes; ++f) v.push_back(ps.s.mod<FruitBlock>().left(f));
            return v;
          },
          "Fruit-Bearing Trees: tokens not yet harvested of each fruit type (FRUIT_TYPES order; their values "
          "are hidden).")
      .def(
          "fruit_held",
          [](const PyState& ps) {
            std::vector<std::vector<int>> v;
            for (int p = 0; p < ps.s.num_players(); ++p) {
              v.emplace_back();
              for (int f = 0; f < kFruitTypes; ++f) v.back().push_back(ps.s.mod<FruitBlock>().held_by(p, f));
            }
            return v;
          },
          "Fruit-Bearing Trees: tokens each player holds, per fruit type ([player][FRUIT_TYPES index]).")
      .def(
          "fruit_sold",
          [](const PyState& ps) {
            std::vector<int> v;
            for (int f = 0; f < kFruitTypes; ++f) v.push_back(ps.s.mod<FruitBlock>().num_sold(f));
            return v;
          },
          "Fruit-Bearing Trees: tokens sold of each fruit type.")
      .def(
          "fruit_values_left",
          [](const PyState& ps, const std::string& fruit) {
            const int f = fruit_index(fruit);
            if (f < 0) throw std::invalid_argument("unknown fruit type '" + fruit + "'");
            std::vector<int> v = ps.s.mod<FruitBlock>().stack_of(f);
            std::sort(v.begin(), v.end());
            return v;
          },
          pyb::arg("fruit"),
          "Fruit-Bearing Trees: the values of the tokens left on a fruit type's stack, sorted (public: every "
          "stack holds 2, 3, 4, 5 and harvested values are shown; their order is hidden).")
      .def(
          "reveal_fruit",
          [](PyState& ps, const std::string& fruit, int value) {
            const int f = fruit_index(fruit);
            if (f < 0) throw std::invalid_argument("unknown fruit type '" + fruit + "'");
            if (!ps.s.edit_mod<FruitBlock>().force_top(f, value))
              throw std::invalid_argument("the " + fruit + " stack has no token worth " + std::to_string(value) +
                                          " left");
          },
          pyb::arg("fruit"), pyb::arg("value"),
          "Fruit-Bearing Trees, explicit chance: the next token harvested from this stack is worth `value` "
          "(a chance outcome; carcassonne.spiel uses it). ValueError when no such token is left.")
      // --- Wheel of Fortune ---
      .def_property_readonly(
          "pig",
          [](const PyState& ps) -> std::optional<int> {
            if (!ps.s.game().has_wheel()) return std::nullopt;
            return ps.s.mod<WheelBlock>().pig_segment();
          },
          "Wheel of Fortune: the pig's segment (index into game.wheel), or None without the wheel.")
      .def_property_readonly(
          "pig_event",
          [](const PyState& ps) -> std::optional<std::string> {
            if (!ps.s.game().has_wheel()) return std::nullopt;
            return std::string(kWheelEventNames[int(ps.s.game().wheel()[size_t(ps.s.mod<WheelBlock>().pig_segment())].event)]);
          },
          "Wheel of Fortune: the event of the pig's segment ('fortuna', 'taxes', ...), or None.")
      .def(
          "crowns",
          [](const PyState& ps) {
            std::vector<int> v(kNumCrowns, -1);
            if (ps.s.game().has_wheel())
              for (int pc = 0; pc < kNumCrowns; ++pc)
                if (const int c = crown_in_game(ps.s.game(), pc); c >= 0) v[size_t(pc)] = ps.s.mod<WheelBlock>().crown_player(c);
            return v;
          },
          "Wheel of Fortune: the player on each crown space, or -1 (list indexed like CROWN_SPACES; -1 for "
          "spaces the wheel does not have).")
      .def(
          "crowns_per_player",
          [](const PyState& ps) {
            std::vector<int> v;
            for (int p = 0; p < ps.s.num_players(); ++p) v.push_back(ps.s.mod<WheelBlock>().crowns_of(p));
            return v;
          },
          "Followers each player has on crown spaces (land + crowns + supply = 7 per player).")
      .def_property_readonly(
          "plague_player",
          [](const PyState& ps) -> std::optional<int> {
            if (ps.s.phase() != Phase::Plague) return std::nullopt;
            return ps.s.mod<WheelBlock>().plague_decider();
          },
          "During a Plague decision (phase 'plague'): the player who takes back a follower now (= "
          "current_player()); else None.")
      .def_property_readonly(
          "chosen",
          [](const PyState& ps) -> std::optional<int> {
            if (ps.s.mod<WheelBlock>().chosen_tile() < 0 || ps.s.current_player() < 0) return std::nullopt;
            return ps.s.mod<WheelBlock>().chosen_tile();
          },
          "Wheel of Fortune: the drawn wheel tile played this turn (index into drawn_tiles; the wheel has "
          "turned for it), or None.")
      // --- decisions ---
      .def(
          "legal_moves", [](const PyState& ps) { return legal_py_moves(ps.s); },
          "Legal moves in the engine's deterministic order (empty at chance and terminal nodes).")
      .def(
          "num_legal_moves", [](const PyState& ps) { return ps.s.count_legal_moves(); }, "len(legal_moves()), without building them.")
      .def(
          "check_move",
          [](const PyState& ps, const PyMove& pm) {
            if (ps.s.current_player() < 0)
              return std::string(ps.s.is_terminal() ? "the game is over" : "chance node: draw a tile first");
            try {
              return to_engine_checked(ps.s, pm).error;
            } catch (const std::invalid_argument& e) {
              return std::string(e.what());
            }
          },
          "'' when the move is legal, otherwise why not.")
      .def("apply", &apply_checked, pyb::arg("move"), "Applies a legal move (ValueError otherwise).")
      .def(
          "apply",
          [](PyState& ps, int64_t action) {
            require_decision(ps.s);
            apply_checked(ps, from_engine(ps.s, ps.space.decode(ps.s, action)));
          },
          pyb::arg("action"), "Applies a move given by its action index.")
      .def(
          "describe",
          [](const PyState& ps, const PyMove& pm) {
            require_decision(ps.s);
            return describe_move(ps.s, to_engine(ps.s, pm));
          },
          pyb::arg("move"), "The move in words (any kind).")
      .def(
          "play_random",
          [](PyState& ps, uint64_t seed) {
            Rng rng(seed);
            std::vector<Move> moves;
            pyb::gil_scoped_release release;
            random_playout(ps.s, rng, moves);
          },
          pyb::arg("seed") = 0, "Plays to the end uniformly at random (in C++).")
      .def(
          "finish", [](PyState& ps) { ps.s.finish(); }, "Applies the end-of-game scoring now (idempotent).")
      // --- board inspection ---
      .def(
          "tiles",
          [](const PyState& ps) {
            std::vector<std::tuple<int, int, std::string, int>> out;
            for (int i = 0; i < ps.s.num_placed(); ++i) {
              const PlacedTile& P = ps.s.placed(i);
              out.emplace_back(P.x, P.y, ps.s.game().type(P.type).id, 90 * int(P.rot));
            }
            return out;
          },
          "[(x, y, tile id, rotation in degrees)] in placement order; the start tile (or the board's cells) first.")
      .def(
          "followers",
          [](const PyState& ps) {
            std::vector<std::tuple<int, int, int, std::string, std::string>> out;
            for (int i = 0; i < ps.s.num_followers(); ++i) {
              const Follower& f = ps.s.followers()[i];
              const PlacedTile& P = ps.s.placed(ps.s.slot_tile(f.slot));
              const TileType& tt = ps.s.game().type(P.type);
              const int seg = ps.s.slot_segment(f.slot);
              out.emplace_back(int(f.player), P.x, P.y, tt.location_name(seg, P.rot),
                               kind_name(tt.rot[P.rot].seg[seg].kind));
            }
            return out;
          },
          "[(player, x, y, location, kind)] of the followers on the land (not on crown spaces: crowns()).")
      .def(
          "validate", [](const PyState& ps) { return ps.s.validate(); },
          "'' or the first mismatch between incremental and recomputed features (slow; for tests).")
      // --- copies and serialization ---
      .def(
          "clone", [](const PyState& ps) { return PyState(ps); }, "An independent copy.")
      .def("__copy__", [](const PyState& ps) { return PyState(ps); })
      .def("__deepcopy__", [](const PyState& ps, pyb::dict) { return PyState(ps); })
      .def("__eq__", [](const PyState& a, const PyState& b) { return a.s == b.s; })
      .def(
          "to_json", [](const PyState& ps) { return state_to_json(ps.s); },
          "Full JSON of the state (engine's state_to_json), including the draw generator.")
      .def(
          "public_view",
          [](const PyState& ps, int player) { return observation_json(ps.s, player); },
          pyb::arg("player") = -1,
          "What `player` (-1: a spectator) may see, as JSON text (carcassonne-observation/2): the engine's one "
          "public view (public_view.h), the same as the server's views show; no generator, seed or face-down "
          "fruit order.")
      .def_static(
          "from_json",
          [](const std::string& text, bool auto_chance, int radius) {
            return PyState(state_from_json(text), auto_chance, radius);
          },
          pyb::arg("text"), pyb::arg("auto_chance") = false, pyb::arg("radius") = kDefaultRadius)
      .def("__str__",
           [](const PyState& ps) {
             std::string r = ps.s.rules().to_string() + " turn " + std::to_string(ps.s.turn()) + ", scores";
             for (int sc : ps.s.scores()) r += " " + std::to_string(sc);
             if (ps.s.is_terminal())
               r += " (final)";
             else if (ps.s.is_chance())
               r += ", player " + std::to_string(ps.s.turn_player()) + " to draw";
             else if (ps.s.phase() == Phase::Plague)
               r += ", player " + std::to_string(ps.s.mod<WheelBlock>().plague_decider()) + " to take back a follower (Plague), then player " +
                    std::to_string(ps.s.turn_player()) + " to place " + ps.s.game().type(ps.s.current_tile()).id;
             else
               r += ", player " + std::to_string(ps.s.turn_player()) + " to place " +
                    ps.s.game().type(ps.s.current_tile()).id;
             return r;
           })
      .def("__repr__",
           [](const PyState& ps) {
             return "<carcassonne.State " + ps.s.rules().to_string() + " turn " + std::to_string(ps.s.turn()) + ">";
           })
      .def(pyb::pickle(
          [](const PyState& ps) { return pyb::make_tuple(state_to_json(ps.s), ps.auto_chance, ps.space.radius); },
          [](pyb::tuple t) {
            return PyState(state_from_json(t[0].cast<std::string>()), t[1].cast<bool>(), t[2].cast<int>());
          }));

  m.def(
      "new_game",
      [](int players, const std::string& tileset, const std::vector<std::string>& expansions, uint64_t seed,
         bool auto_chance, int radius) {
        const Rules r = make_rules(players, tileset, expansions);
        return PyState(State(Game::get(r), seed), auto_chance, radius);
      },
      pyb::arg("players") = 2, pyb::arg("tileset") = "base", pyb::arg("expansions") = std::vector<std::string>{},
      pyb::arg("seed") = 0, pyb::arg("auto_chance") = false, pyb::arg("radius") = kDefaultRadius,
      "Shortcut for Game(players, tileset, expansions, radius).new_initial_state(seed, auto_chance).");
  m.def(
      "state_from_json",
      [](const std::string& text, bool auto_chance, int radius) {
        return PyState(state_from_json(text), auto_chance, radius);
      },
      pyb::arg("text"), pyb::arg("auto_chance") = false, pyb::arg("radius") = kDefaultRadius,
      "The State of a state JSON text (State.from_json).");
  m.def(
      "state_to_json", [](const PyState& ps) { return state_to_json(ps.s); }, pyb::arg("state"),
      "The full state JSON of a state (State.to_json).");
  m.attr("CHANCE_PLAYER") = kChancePlayer;
  m.attr("TERMINAL_PLAYER") = kTerminalPlayer;
  return cls;
}

}  // namespace carc::py
