// Bindings: the fixed action space for learning code (action index <-> move, legal masks).
// Layout (docs/python.md):
//   action = (cell * 4 + rotation) * NUM_OPTIONS + option,   cell = (y + R) * W + (x + R),  W = 2R + 1
//   option 0: no follower; 1 + i: a follower on LOCATIONS[i];
//   1 + len(LOCATIONS) + k: Festival take-back of the player's k-th own follower on the board
//   (State.followers() order, counting only the player's own).
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

int ActionSpace::encode(const State& s, const Move& m) const {
  const int R = radius, W = width();
  if (m.choice >= choices) return -1;
  if (m.x < -R || m.x > R || m.y < -R || m.y > R) return -1;
  const int cell = (m.y + R) * W + (m.x + R);
  int opt = 0;
  if (m.meeple >= 0) {
    const int t = move_tile(s, m);
    if (t < 0) return -1;
    const TileType& tt = s.game().type(t);
    const int li = location_code(tt, m.meeple, m.rot);
    if (li < 0) return -1;
    opt = 1 + li;
  } else if (m.ret >= 0) {
    const int me = s.followers()[m.ret].player;
    int k = 0;
    for (int i = 0; i < m.ret; ++i) k += s.followers()[i].player == me;
    opt = 1 + kNumLocations + k;
  }
  return ((m.choice * num_cells() + cell) * 4 + m.rot) * kOptions + opt;
}

Move ActionSpace::decode(const State& s, int action) const {
  if (action < 0 || action >= size())
    throw std::invalid_argument("action " + std::to_string(action) + " out of range 0.." + std::to_string(size() - 1));
  const int opt = action % kOptions;
  const int rot = (action / kOptions) % 4;
  const int cell = action / kOptions / 4 % num_cells();
  const int choice = action / kOptions / 4 / num_cells();
  Move m;
  m.choice = uint8_t(choice);
  m.x = int16_t(cell % width() - radius);
  m.y = int16_t(cell / width() - radius);
  m.rot = uint8_t(rot);
  if (opt >= 1 && opt <= kNumLocations) {
    if (s.phase() != Phase::Place) throw std::invalid_argument("no tile to place now");
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
        m.ret = int8_t(i);
        break;
      }
    if (m.ret < 0)
      throw std::invalid_argument("the player has no follower number " + std::to_string(k) + " to take back");
  }
  return m;
}

void bind_actions(pyb::module_& m, StateClass& cls) {
  std::vector<std::string> locs(kLocations, kLocations + kNumLocations);
  m.attr("LOCATIONS") = locs;
  m.attr("NUM_OPTIONS") = kOptions;
  m.attr("MAX_CHOICES") = 1 + kMaxTents;
  m.attr("DEFAULT_RADIUS") = kDefaultRadius;

  cls.def_property_readonly("num_actions", [](const PyState& ps) { return ps.space.size(); })
      .def_property_readonly(
          "num_choices", [](const PyState& ps) { return ps.space.choices; },
          "Tile choices in the action index: 1, or 3 with the Fortune Teller.")
      .def_property_readonly("radius", [](const PyState& ps) { return ps.space.radius; })
      .def(
          "legal_actions",
          [](const PyState& ps) {
            std::vector<Move> moves;
            ps.s.legal_moves(moves);
            std::vector<int> out;
            out.reserve(moves.size());
            for (const Move& mv : moves)
              if (int a = ps.space.encode(ps.s, mv); a >= 0) out.push_back(a);
            std::sort(out.begin(), out.end());
            return out;
          },
          "Sorted action indices of the legal moves inside the window.")
      .def(
          "legal_action_mask",
          [](const PyState& ps, std::optional<pyb::array_t<bool>> out) {
            pyb::array_t<bool> mask;
            if (out) {
              mask = *out;
              if (mask.ndim() != 1 || mask.shape(0) != ps.space.size() || !(mask.flags() & pyb::array::c_style))
                throw std::invalid_argument("out must be a contiguous bool array of shape (" +
                                            std::to_string(ps.space.size()) + ",)");
            } else {
              mask = pyb::array_t<bool>(ps.space.size());
            }
            bool* p = mask.mutable_data();
            std::memset(p, 0, size_t(ps.space.size()));
            std::vector<Move> moves;
            ps.s.legal_moves(moves);
            for (const Move& mv : moves)
              if (int a = ps.space.encode(ps.s, mv); a >= 0) p[a] = true;
            return mask;
          },
          pyb::arg("out").noconvert() = pyb::none(),
          "numpy bool array of shape (num_actions,): True for the legal moves inside the window. `out`: an "
          "array to fill instead of a new one.")
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
            const Move mv = to_engine(ps.s, pm);
            if (ps.s.phase() != Phase::Place) throw std::invalid_argument("no tile to place now");
            if (auto err = ps.s.check_move(mv); !err.empty()) throw std::invalid_argument(err);
            const int a = ps.space.encode(ps.s, mv);
            if (a < 0) throw std::invalid_argument("the move lies outside the action window");
            return a;
          },
          pyb::arg("move"), "The action index of a legal move.")
      .def(
          "action_to_move",
          [](const PyState& ps, int action) {
            if (ps.s.phase() != Phase::Place) throw std::invalid_argument("no tile to place now");
            return from_engine(ps.s, ps.space.decode(ps.s, action));
          },
          pyb::arg("action"), "The move an action index stands for (not checked for legality).")
      .def(
          "legal_moves_and_actions",
          [](const PyState& ps) {
            std::vector<Move> moves;
            ps.s.legal_moves(moves);
            std::vector<std::pair<PyMove, int>> out;
            for (const Move& mv : moves) out.emplace_back(from_engine(ps.s, mv), ps.space.encode(ps.s, mv));
            return out;
          },
          "[(move, action or -1)] in the engine's order.");
}

}  // namespace carc::py
