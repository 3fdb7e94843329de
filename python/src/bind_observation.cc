// Bindings: per-player observations as numpy arrays. Only public information is used: the
// board, followers, scores, supplies, the bag's contents (counts), the drawn tiles, the fruit
// trees' token counts and the players' held tokens, the wheel. Never the draw generator (the
// future order of the bag) nor the values or order of fruit tokens still on the trees.
//
// Planes, shape (C, W, W) with W = 2R + 1, cell [y + R][x + R]; P players in the order
// observer, observer+1, ... (relative seats); C = 23 + 7P (+ 7 with the Fruit-Bearing Trees):
//   0            a tile is here (the Wheel of Fortune board's 16 cells too)
//   1 + 3s + e   side s (N, E, S, W) of the tile is edge e (field, road, city)    (12 planes)
//   13, 14       monastery, tent on the tile
//   15           pennants on the tile (count)
//   16           festival tile
//   17, 18       a road / city segment of the tile belongs to a completed feature
//   19 + 4o + k  a follower of relative player o on the tile, on a road/city/field/centre (k = 0..3)
//   19 + 4P + 3o + k  relative player o leads (most followers, > 0) an unfinished road/city/field
//                     feature through this tile (k = 0..2)
//   19 + 7P + r  a drawn tile that can still be placed this turn fits here at rotation r
//   Fruit-Bearing Trees: 23 + 7P + t  the tile's tree carries the stack of fruit type t
//                        29 + 7P      fruit tokens left on the tile's tree (0..4)
// Vector, shape (V,): V = (N + 1)T + 4P + 5, plus 6P + 18 with the Fruit-Bearing Trees, plus
// 6 + 12(P + 1) + 2P + 2 + N with the Wheel of Fortune (T tile types in Game.tile_ids order, N
// tile choices: 1, or 3 with the Fortune Teller):
//   [cT, (c+1)T)    drawn tile number c of this turn, one-hot (zeros when not drawn), c < N
//   [NT, (N+1)T)    tiles of each type left in the bag (counts)
//   next P          scores (relative seats)
//   next P          followers in supply (relative seats)
//   next P          whose turn it is, one-hot (relative seats)
//   next P          fortune tellers on tents (relative seats)
//   [.., +3)        phase one-hot: chance, decision (place, or a wheel decision), terminal
//   then            tiles in the bag (total), turn number
//   Fruit-Bearing Trees:
//   6P              tokens held of each fruit type (relative seat o, type t at 6o + t)
//   6               tokens left of each fruit type (on its tree or in its unused stack)
//   6               tokens sold of each fruit type
//   6               the stack of each fruit type is still unused (not yet on a tree)
//   Wheel of Fortune:
//   6               the pig's event, one-hot (WHEEL_EVENTS order)
//   12 (P + 1)      per crown space c (CROWN_SPACES order), at (P + 1)c: free (exists, empty),
//                   then occupied by relative player o at (P + 1)c + 1 + o
//   P               followers on crown spaces (relative seats)
//   2               a Plague decision is pending; a Choose decision is pending
//   P               the player to decide now, one-hot (the Plague's decider; zeros at chance
//                   and terminal nodes)
//   N               the drawn tile chosen for this turn (the wheel has turned for it), one-hot
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>

#include "common.h"

namespace carc::py {

ObsLayout::ObsLayout(const Rules& r, const Game& g, int radius)
    : players(r.players),
      types(g.num_types()),
      width(2 * radius + 1),
      choices(num_choices(r)),
      fruit(r.has(Expansion::FruitTrees)),
      wheel(g.has_wheel()) {}

namespace {
constexpr int kFruitPlanes = kFruitTypes + 1;
int fruit_vector(int P) { return kFruitTypes * P + 3 * kFruitTypes; }
int wheel_vector(int P, int N) { return kWheelEvents + kNumCrowns * (P + 1) + 2 * P + 2 + N; }
}  // namespace

int ObsLayout::planes() const { return 23 + 7 * players + (fruit ? kFruitPlanes : 0); }
int ObsLayout::vector_size() const {
  return (choices + 1) * types + 4 * players + 5 + (fruit ? fruit_vector(players) : 0) +
         (wheel ? wheel_vector(players, choices) : 0);
}

std::vector<std::string> plane_names(const ObsLayout& L) {
  const int players = L.players;
  std::vector<std::string> n = {"tile"};
  const char* sides[4] = {"N", "E", "S", "W"};
  const char* edges[3] = {"field", "road", "city"};
  for (auto s : sides)
    for (auto e : edges) n.push_back(std::string("edge_") + s + "_" + e);
  for (auto x : {"monastery", "tent", "pennants", "festival", "road_done", "city_done"}) n.push_back(x);
  const char* fk[4] = {"road", "city", "field", "centre"};
  for (int o = 0; o < players; ++o)
    for (auto k : fk) n.push_back("follower_p" + std::to_string(o) + "_" + k);
  for (int o = 0; o < players; ++o)
    for (int k = 0; k < 3; ++k) n.push_back("leads_p" + std::to_string(o) + "_" + fk[k]);
  for (int r = 0; r < 4; ++r) n.push_back("fits_rot" + std::to_string(r));
  if (L.fruit) {
    for (auto f : kFruitNames) n.push_back(std::string("tree_") + f);
    n.push_back("fruit_left");
  }
  return n;
}

std::vector<std::string> vector_names(const Game& g, const ObsLayout& L) {
  const int players = L.players, choices = L.choices;
  auto seat = [](int o) { return "_p" + std::to_string(o); };
  std::vector<std::string> n;
  for (int c = 0; c < choices; ++c)
    for (int t = 0; t < g.num_types(); ++t)
      n.push_back((c == 0 ? std::string("drawn_") : "drawn" + std::to_string(c) + "_") + g.type(t).id);
  for (int t = 0; t < g.num_types(); ++t) n.push_back("bag_" + g.type(t).id);
  for (auto what : {"score", "supply", "to_move", "tents"})
    for (int o = 0; o < players; ++o) n.push_back(what + seat(o));
  for (auto x : {"phase_chance", "phase_place", "phase_terminal", "bag_size", "turn"}) n.push_back(x);
  if (L.fruit) {
    for (int o = 0; o < players; ++o)
      for (auto f : kFruitNames) n.push_back("held" + seat(o) + "_" + f);
    for (auto what : {"fruit_left_", "fruit_sold_", "stack_unused_"})
      for (auto f : kFruitNames) n.push_back(what + std::string(f));
  }
  if (L.wheel) {
    for (auto e : kWheelEventNames) n.push_back(std::string("pig_") + e);
    for (int pc = 0; pc < kNumCrowns; ++pc) {
      std::string c = crown_label(pc);  // "crown:taxes:0" -> "crown_taxes_0"
      for (char& ch : c)
        if (ch == ':') ch = '_';
      n.push_back(c + "_free");
      for (int o = 0; o < players; ++o) n.push_back(c + seat(o));
    }
    for (int o = 0; o < players; ++o) n.push_back("crowns" + seat(o));
    n.push_back("phase_plague");
    n.push_back("phase_choose");
    for (int o = 0; o < players; ++o) n.push_back("decides" + seat(o));
    for (int c = 0; c < choices; ++c) n.push_back("chosen_c" + std::to_string(c));
  }
  return n;
}

namespace {

ObsLayout layout_of(const PyState& ps) { return ObsLayout(ps.s.rules(), ps.s.game(), ps.space.radius); }

int observer_of(const PyState& ps, std::optional<int> player) {
  int p = player.value_or(ps.s.current_player());
  if (!player && p < 0) p = ps.s.turn_player();
  if (p < 0 || p >= ps.s.num_players()) throw std::invalid_argument("player out of range");
  return p;
}

// A Choose decision is pending: a drawn wheel tile that can be placed is not chosen yet.
bool choose_pending(const State& s) {
  if (s.phase() != Phase::Place || s.mod<WheelBlock>().chosen_tile() >= 0) return false;
  for (int i = 0; i < s.num_drawn(); ++i)
    if (s.drawn_placeable(i) && s.game().type(s.drawn_tile(i)).wheel) return true;
  return false;
}

void fill_planes(const PyState& ps, int me, float* out) {
  const State& s = ps.s;
  const ObsLayout L = layout_of(ps);
  const int R = ps.space.radius, W = L.width, WW = W * W, P = L.players;
  std::memset(out, 0, sizeof(float) * size_t(L.planes()) * WW);
  auto at = [&](int plane, int x, int y) -> float& { return out[size_t(plane) * WW + (y + R) * W + (x + R)]; };
  auto inside = [&](int x, int y) { return x >= -R && x <= R && y >= -R && y <= R; };
  auto rel = [&](int q) { return (q - me + P) % P; };
  const int fruit_plane = 23 + 7 * P;
  for (int i = 0; i < s.num_placed(); ++i) {
    const PlacedTile& T = s.placed(i);
    if (!inside(T.x, T.y)) continue;
    const TileType& tt = s.game().type(T.type);
    const RotatedTile& rt = tt.rot[T.rot];
    at(0, T.x, T.y) = 1;
    for (int d = 0; d < 4; ++d) {
      const int e = int(rt.edge(d));
      if (e >= 1) at(1 + 3 * d + (e - 1), T.x, T.y) = 1;
    }
    float pennants = 0;
    for (int g = 0; g < tt.nseg; ++g) {
      const Segment& sg = rt.seg[g];
      const uint16_t slot = uint16_t(T.slot_base + g);
      const Feature& f = s.feature(slot);
      if (sg.kind == Kind::Monastery) at(13, T.x, T.y) = 1;
      if (sg.kind == Kind::Tent) at(14, T.x, T.y) = 1;
      if (sg.kind == Kind::City) pennants += sg.pennants;
      if (sg.kind == Kind::Road && f.done) at(17, T.x, T.y) = 1;
      if (sg.kind == Kind::City && f.done) at(18, T.x, T.y) = 1;
      const int k = sg.kind == Kind::Road ? 0 : sg.kind == Kind::City ? 1 : sg.kind == Kind::Field ? 2 : -1;
      if (k >= 0 && !f.done && f.total > 0) {
        int best = 0;
        for (int q = 0; q < P; ++q) best = std::max(best, int(f.count[q]));
        for (int q = 0; q < P; ++q)
          if (f.count[q] == best) at(19 + 4 * P + 3 * rel(q) + k, T.x, T.y) = 1;
      }
    }
    at(15, T.x, T.y) = pennants;
    if (tt.festival) at(16, T.x, T.y) = 1;
    if (L.fruit && T.ext >= 0) {
      // Public: which stack the tree carries and how many tokens are left (never their values).
      at(fruit_plane + T.ext, T.x, T.y) = 1;
      at(fruit_plane + kFruitTypes, T.x, T.y) = float(s.mod<FruitBlock>().left(T.ext));
    }
  }
  for (int i = 0; i < s.num_followers(); ++i) {
    const Follower& f = s.followers()[i];
    const PlacedTile& T = s.placed(s.slot_tile(f.slot));
    if (!inside(T.x, T.y)) continue;
    const Kind k = s.game().type(T.type).rot[T.rot].seg[s.slot_segment(f.slot)].kind;
    const int ki = k == Kind::Road ? 0 : k == Kind::City ? 1 : k == Kind::Field ? 2 : 3;
    at(19 + 4 * rel(f.player) + ki, T.x, T.y) += 1;
  }
  // Where the drawn tiles still to be placed fit: every empty cell next to a tile, the edges
  // its neighbours require, and the game's fit table (distinct-looking rotations only, as in
  // the legal moves). Covers a pending Choose (the wheel tiles are not listed as placements
  // yet) and a Plague decision (the tile is placed after it).
  if (s.phase() == Phase::Place || s.phase() == Phase::Plague) {
    int tiles[4], nt = 0;
    for (int i = 0; i < s.num_drawn(); ++i)
      if (s.drawn_placeable(i) && std::find(tiles, tiles + nt, s.drawn_tile(i)) == tiles + nt)
        tiles[nt++] = s.drawn_tile(i);
    static constexpr int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    std::vector<uint8_t> seen(size_t(WW), 0);
    for (int i = 0; i < s.num_placed(); ++i) {
      const PlacedTile& T = s.placed(i);
      for (int d = 0; d < 4; ++d) {
        const int x = T.x + dx[d], y = T.y + dy[d];
        if (!inside(x, y) || seen[size_t((y + R) * W + (x + R))]++ || s.tile_at(x, y) >= 0) continue;
        uint8_t need = 0;
        for (int e = 0; e < 4; ++e) {
          const int nb = s.tile_at(x + dx[e], y + dy[e]);
          if (nb < 0) continue;
          const PlacedTile& N = s.placed(nb);
          need |= uint8_t(int(s.game().type(N.type).rot[N.rot].edge((e + 2) & 3)) << (2 * e));
        }
        uint8_t rots = 0;
        for (int k = 0; k < nt; ++k) rots |= s.game().fits(tiles[k], need);
        for (; rots; rots &= rots - 1) at(19 + 7 * P + __builtin_ctz(rots), x, y) = 1;
      }
    }
  }
}

void fill_vector(const PyState& ps, int me, float* out) {
  const State& s = ps.s;
  const ObsLayout L = layout_of(ps);
  const int T = L.types, P = L.players, N = L.choices;
  std::memset(out, 0, sizeof(float) * size_t(L.vector_size()));
  auto rel = [&](int q) { return (q - me + P) % P; };
  if (!s.is_terminal())
    for (int c = 0; c < std::min(N, s.num_drawn()); ++c) out[c * T + s.drawn_tile(c)] = 1;
  for (int t = 0; t < T; ++t) out[N * T + t] = float(s.bag_count(t));
  float* v = out + (N + 1) * T;
  for (int q = 0; q < P; ++q) {
    const int o = rel(q);
    v[o] = float(s.score(q));
    v[P + o] = float(s.supply(q));
    v[3 * P + o] = float(s.mod<FortuneTellerBlock>().tellers(q));
  }
  if (!s.is_terminal()) v[2 * P + rel(s.turn_player())] = 1;
  v += 4 * P;
  v[s.is_chance() ? 0 : s.is_terminal() ? 2 : 1] = 1;
  v[3] = float(s.bag_size());
  v[4] = float(s.turn());
  v += 5;
  if (L.fruit) {
    for (int q = 0; q < P; ++q)
      for (int f = 0; f < kFruitTypes; ++f) v[kFruitTypes * rel(q) + f] = float(s.mod<FruitBlock>().held_by(q, f));
    v += kFruitTypes * P;
    for (int f = 0; f < kFruitTypes; ++f) {
      v[f] = float(s.mod<FruitBlock>().left(f));
      v[kFruitTypes + f] = float(s.mod<FruitBlock>().num_sold(f));
      v[2 * kFruitTypes + f] = s.mod<FruitBlock>().tree(f) < 0 ? 1.0f : 0.0f;
    }
    v += 3 * kFruitTypes;
  }
  if (L.wheel) {
    const Game& g = s.game();
    v[int(g.wheel()[size_t(s.mod<WheelBlock>().pig_segment())].event)] = 1;
    v += kWheelEvents;
    for (int pc = 0; pc < kNumCrowns; ++pc) {
      const int c = crown_in_game(g, pc);
      if (c < 0) continue;
      const int who = s.mod<WheelBlock>().crown_player(c);
      v[(P + 1) * pc + (who < 0 ? 0 : 1 + rel(who))] = 1;
    }
    v += kNumCrowns * (P + 1);
    for (int q = 0; q < P; ++q) v[rel(q)] = float(s.mod<WheelBlock>().crowns_of(q));
    v += P;
    v[0] = s.phase() == Phase::Plague ? 1.0f : 0.0f;
    v[1] = choose_pending(s) ? 1.0f : 0.0f;
    v += 2;
    if (s.current_player() >= 0) v[rel(s.current_player())] = 1;
    v += P;
    if (s.current_player() >= 0 && s.mod<WheelBlock>().chosen_tile() >= 0 && s.mod<WheelBlock>().chosen_tile() < N) v[s.mod<WheelBlock>().chosen_tile()] = 1;
  }
}

}  // namespace

void bind_observation(pyb::module_& m, StateClass& cls) {
  cls.def(
         "observation",
         [](const PyState& ps, std::optional<int> player, std::optional<pyb::array_t<float>> out) {
           const int me = observer_of(ps, player);
           const ObsLayout L = layout_of(ps);
           pyb::array_t<float> a;
           if (out) {
             a = *out;
             if (a.ndim() != 1 || a.shape(0) != L.size() || !(a.flags() & pyb::array::c_style))
               throw std::invalid_argument("out must be a contiguous float32 array of shape (" +
                                           std::to_string(L.size()) + ",)");
           } else {
             a = pyb::array_t<float>(L.size());
           }
           float* p = a.mutable_data();
           fill_planes(ps, me, p);
           fill_vector(ps, me, p + size_t(L.planes()) * L.width * L.width);
           return a;
         },
         pyb::arg("player") = pyb::none(), pyb::arg("out").noconvert() = pyb::none(),
         "Flat float32 observation for `player` (default: the player to move): the planes (C*W*W) followed "
         "by the vector (V). See observation_shape. `out`: an array to fill instead of a new one.")
      .def(
          "observation_planes",
          [](const PyState& ps, std::optional<int> player) {
            const int me = observer_of(ps, player);
            const ObsLayout L = layout_of(ps);
            pyb::array_t<float> a({L.planes(), L.width, L.width});
            fill_planes(ps, me, a.mutable_data());
            return a;
          },
          pyb::arg("player") = pyb::none(), "float32 planes of shape (C, W, W), W = 2R+1.")
      .def(
          "observation_vector",
          [](const PyState& ps, std::optional<int> player) {
            const int me = observer_of(ps, player);
            pyb::array_t<float> a(layout_of(ps).vector_size());
            fill_vector(ps, me, a.mutable_data());
            return a;
          },
          pyb::arg("player") = pyb::none(), "float32 vector of shape (V,).")
      .def_property_readonly("observation_shape", [](const PyState& ps) {
        const ObsLayout L = layout_of(ps);
        pyb::dict d;
        d["planes"] = pyb::make_tuple(L.planes(), L.width, L.width);
        d["vector"] = pyb::make_tuple(L.vector_size());
        d["flat"] = pyb::make_tuple(L.size());
        return d;
      },
      "{'planes': (C, W, W), 'vector': (V,), 'flat': (C*W*W + V,)}");

  pyb::class_<PyGame> game{pyb::object(m.attr("Game"))};
  game.def_property_readonly(
          "observation_shape",
          [](const PyGame& g) {
            const ObsLayout L(g.rules, *g.game, g.radius);
            pyb::dict d;
            d["planes"] = pyb::make_tuple(L.planes(), L.width, L.width);
            d["vector"] = pyb::make_tuple(L.vector_size());
            d["flat"] = pyb::make_tuple(L.size());
            return d;
          },
          "{'planes': (C, W, W), 'vector': (V,), 'flat': (C*W*W + V,)}")
      .def_property_readonly("observation_plane_names",
                             [](const PyGame& g) { return plane_names(ObsLayout(g.rules, *g.game, g.radius)); },
                             "Name of every observation plane ('tile', 'edge_N_city', ...).")
      .def_property_readonly("observation_vector_names", [](const PyGame& g) {
        return vector_names(*g.game, ObsLayout(g.rules, *g.game, g.radius));
      },
      "Name of every observation vector entry ('bag_K', 'score_p0', ...).");
}

}  // namespace carc::py
