// Shared declarations of the `carcassonne` Python module: the Python-side move and state
// wrappers, the fixed action space and the observation layout. Each bind_*.cc file binds one
// area (rules/game, state, actions, observation, record, batch play, AI).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

#include "notation.h"
#include "vocabulary.h"
#include "record.h"
#include "state.h"

namespace carc::py {

namespace pyb = pybind11;

// A move as Python sees it: the engine move plus what makes it readable without the tile
// tables. `loc` (index into kLocations: "N", "Sw", "C", "inner", ... or -1) is authoritative
// for the follower; the segment index `m.meeple` is derived from it against the current tile.
// Wheel of Fortune: `crown` / `tb_crown` name a crown space by its Python crown index
// (the engine's crown index 2 * event + k, Game::crown_at) and are authoritative
// for a follower put on / taken back from a crown space (m.ext.crown() / take_back_crown() hold
// the engine's crown space only in moves made by the engine). A Plague move (m.kind) is named by
// the follower's place: (x, y, loc); m.ext.plague() (index into State::followers()) is derived from it.
// Plain data, so that listing legal moves stays cheap.
struct PyMove {
  Move m;
  const Game* game = nullptr;  // set for moves made by the engine: names the tile
  int16_t tile = -1;           // type index of the placed tile, or -1
  int8_t loc = -1;             // follower location (index into kLocations), or -1
  int8_t crown = -1;           // Wheel of Fortune: follower put on this crown space (Python index)
  int8_t tb_crown = -1;        // Festival: follower taken back from this crown space (Python index)
  // Festival take-back or Plague: where the follower taken back stands (x, y, location index).
  bool has_take_back_at = false;
  int8_t tb_loc = -1;
  int16_t tb_x = 0, tb_y = 0;
};

// The engine move for a Python move in state `s`, through the engine's one converter
// (notation.h parse_move, which also checks it): the named move, the result (errors as values),
// and the checked move (std::invalid_argument with the reason for a move that is not legal now).
NamedMove named_of(const State& s, const PyMove& pm);
MoveResult to_engine_checked(const State& s, const PyMove& pm);
Move to_engine(const State& s, const PyMove& pm);
// The Python move for a legal engine move in state `s` (a decision node).
PyMove from_engine(const State& s, const Move& m);

// ValueError unless a player is to decide (not a chance node, not the end).
void require_decision(const State& s);

// Wheel of Fortune crown spaces: the engine's one numbering, 2 * event + k (event in
// kWheelEventNames order, k = 0, 1; Game::crown_at): "crown:fortuna:0" = 0, "crown:fortuna:1" = 1,
// "crown:taxes:0" = 2, ..., so the number does not depend on where the board puts the segment,
// and a crown index means the same space in Python, the engine and every JSON form (by name).
constexpr int kNumCrowns = kWheelEvents * kMaxCrownsPerSegment;  // 12
// "crown:taxes:0" (the engine's crown space name, docs/vocabulary.md) for a crown index.
std::string crown_label(int c);
// The crown index of "taxes:0" or "crown:taxes:0", or -1.
int crown_from_label(const std::string& name);
// Crown index c when that space exists in this game, else -1.
inline int crown_in_game(const Game& g, int c) { return g.crown_exists(c) ? c : -1; }

// The fixed action space (docs/python.md). Four ranges, one after the other:
//   [0, place_size)              tile placements (all tile sets and expansions)
//   [crown_base, plague_base)    Wheel of Fortune: placements with a follower put on / taken
//                                back from a crown space (0 entries without the wheel)
//   [plague_base, choose_base)   Wheel of Fortune: Plague take-back decisions (0 without)
//   [choose_base, size)          Wheel of Fortune with the Fortune Teller: choose a drawn
//                                wheel tile (0 entries otherwise)
// A tile placement has a placement part p (tile choice, cell of a (2R+1)x(2R+1) window centred
// on (0, 0), rotation, follower option) and, with the Fruit-Bearing Trees, a fruit part f
// (stack put on a tree tile, fruit action):
//   action    = f * placements + p              (f = 0 without fruit parts: the base index)
//   p         = ((choice * W * W + cell) * 4 + rotation) * kOptions + option,
//   cell      = (y + R) * W + (x + R)
//   option 0: no follower; 1 + i: follower on location kLocations[i];
//          1 + kNumLocations + k: Festival take-back of the player's k-th own follower on the
//          land (in State.followers() order).
//   f         = fruit_type_code * kFruitActions + fruit_action_code     (0 .. kFruitCodes - 1)
//   fruit_type_code   0: no stack; 1 + t: the stack of fruit type t put on the placed tree tile
//   fruit_action_code 0: none; 1 + t: harvest the tree of fruit type t;
//                     1 + kFruitTypes + j: sell the fruit types of bit mask sell_set(j)
// Without the Fruit-Bearing Trees the fruit factor is 1 (sizes and indices as before it).
// Crown range: action = crown_base + stack * crown_placements + q,
//   q = ((choice * W * W + cell) * 4 + rotation) * kCrownOptions + crown_option,
//   crown_option c (< kNumCrowns): a follower on Python crown space c; kNumCrowns + c: Festival
//   take-back of the player's follower on crown space c; stack = fruit_type_code (1 without
//   the Fruit-Bearing Trees: always 0). Crown moves have no fruit action.
// Plague range: action = plague_base + cell * kNumLocations + location of the follower taken back.
// Choose range: action = choose_base + choice.
constexpr int kNumLocations = 14;
extern const char* const kLocations[kNumLocations];
// The kLocations index of segment `seg` of tile `tt` in rotation `rot` (same naming as
// TileType::location_name), or -1.
int location_code(const TileType& tt, int seg, int rot);
// The kLocations index of a name, or -1.
int location_index(const std::string& name);
constexpr int kOptions = 1 + kNumLocations + kFollowersPerPlayer;
constexpr int kCrownOptions = 2 * kNumCrowns;  // 24
constexpr int kDefaultRadius = 20;

// Fruit sales: the 56 bit masks of 1 to 4 fruit types (bit t = kFruitNames[t]), in increasing
// order. sell_set_index is the inverse (-1 for a mask that is no sale).
constexpr int kNumSellSets = 56;
constexpr int kFruitActions = 1 + kFruitTypes + kNumSellSets;     // 63
constexpr int kFruitCodes = (1 + kFruitTypes) * kFruitActions;   // 441
uint8_t sell_set(int j);
int sell_set_index(int mask);
// The fruit part f of a move (0 for none), or -1 when its fruit parts are out of range.
int fruit_code(const Move& m);
// The kFruitNames index of a name, or -1.
int fruit_index(const std::string& name);

struct ActionSpace {
  int radius = kDefaultRadius;
  int choices = 1;     // drawn tiles a move can choose from: 1 + kMaxTents with the Fortune Teller
  int fruit = 1;       // fruit codes: kFruitCodes with the Fruit-Bearing Trees, else 1
  int stacks = 1;      // stack codes of crown moves: 1 + kFruitTypes with the Fruit-Bearing Trees
  bool wheel = false;  // the Wheel of Fortune ranges exist
  int choose = 0;      // entries of the Choose range: choices with the wheel and the Fortune Teller
  ActionSpace() = default;
  ActionSpace(const Rules& r, int radius_);
  int width() const { return 2 * radius + 1; }
  int num_cells() const { return width() * width(); }
  int64_t placements() const { return int64_t(choices) * num_cells() * 4 * kOptions; }
  int64_t place_size() const { return placements() * fruit; }
  int64_t crown_placements() const { return wheel ? int64_t(choices) * num_cells() * 4 * kCrownOptions : 0; }
  int64_t crown_base() const { return place_size(); }
  int64_t plague_base() const { return crown_base() + crown_placements() * stacks; }
  int64_t choose_base() const { return plague_base() + (wheel ? int64_t(num_cells()) * kNumLocations : 0); }
  int64_t size() const { return choose_base() + choose; }
  // Index of a legal move, or -1 when it lies outside the window.
  int64_t encode(const State& s, const Move& m) const;
  // The move for an action index (not checked for legality). Throws std::invalid_argument
  // when the index is out of range or names a location/follower that does not exist.
  Move decode(const State& s, int64_t action) const;
};

// {"place": (start, stop), "crown": ..., "plague": ..., "choose": ...} of an action space.
pyb::dict action_ranges(const ActionSpace& a);

// Tiles a move can choose from (Move::choice): 1, or 1 + kMaxTents with the Fortune Teller.
inline int num_choices(const Rules& r) { return r.has(Expansion::FortuneTeller) ? 1 + kMaxTents : 1; }

// The tile type a move places: the drawn tile it chooses (Fortune Teller), else the tile to
// place; -1 when there is none.
inline int move_tile(const State& s, const Move& m) {
  if (s.phase() != Phase::Place && s.phase() != Phase::Plague) return -1;
  if (s.num_drawn() > 0) return m.choice < s.num_drawn() ? s.drawn_tile(m.choice) : -1;
  return s.current_tile();
}

// The Python State: an engine state, the action window, and whether chance nodes are
// resolved automatically with the state's own generator.
struct PyState {
  State s;
  bool auto_chance = false;
  ActionSpace space;
  PyState(State st, bool ac, int radius) : s(std::move(st)), auto_chance(ac), space(s.rules(), radius) {
    settle();
  }
  void settle() {
    if (auto_chance)
      while (s.is_chance()) s.draw_random();
  }
};

// The Python Game: the rules, the cached engine game, and the action/observation window.
struct PyGame {
  Rules rules;
  const Game* game = nullptr;
  int radius = kDefaultRadius;
};

Rules make_rules(int players, const std::string& tileset, const std::vector<std::string>& expansions);

// Observation layout for a game (see bind_observation.cc and docs/python.md).
struct ObsLayout {
  int players = 2, types = 0, width = 0, choices = 1;
  bool fruit = false, wheel = false;  // the Fruit-Bearing Trees / Wheel of Fortune parts exist
  ObsLayout(const Rules& r, const Game& g, int radius);
  int planes() const;
  int vector_size() const;
  int size() const { return planes() * width * width + vector_size(); }
};
std::vector<std::string> plane_names(const ObsLayout& L);
std::vector<std::string> vector_names(const Game& g, const ObsLayout& L);

using StateClass = pyb::class_<PyState>;
void bind_rules(pyb::module_& m);
StateClass bind_state(pyb::module_& m);
void bind_actions(pyb::module_& m, StateClass& cls);
void bind_flat(pyb::module_& m, StateClass& cls);
void bind_observation(pyb::module_& m, StateClass& cls);
void bind_record(pyb::module_& m);
void bind_batch(pyb::module_& m);
void bind_ai(pyb::module_& m);
void bind_tournament(pyb::module_& m);  // tournament games (carcassonne.distributed), with the AI library
void bind_table(pyb::module_& m);       // the game in progress (match::Table), with the AI library

}  // namespace carc::py
