// Bindings: per-player observations as numpy arrays. Only public information is used: the
// board, followers, scores, supplies, the bag's contents (counts), the drawn tile. Never the
// draw generator (the future order of the bag) or hidden tokens.
//
// Planes, shape (C, W, W) with W = 2R + 1, cell [y + R][x + R]; P players in the order
// observer, observer+1, ... (relative seats); C = 23 + 7P:
//   0            a tile is here
//   1 + 3s + e   side s (N, E, S, W) of the tile is edge e (field, road, city)    (12 planes)
//   13, 14       monastery, tent on the tile
//   15           pennants on the tile (count)
//   16           festival tile
//   17, 18       a road / city segment of the tile belongs to a completed feature
//   19 + 4o + k  a follower of relative player o on the tile, on a road/city/field/centre (k = 0..3)
//   19 + 4P + 3o + k  relative player o leads (most followers, > 0) an unfinished road/city/field
//                     feature through this tile (k = 0..2)
//   19 + 7P + r  a tile to place (any drawn tile) has a legal placement here at rotation r
// Vector, shape (V,), V = (N + 1)T + 4P + 5 with T tile types (Game.tile_ids order) and N tile
// choices (1, or 3 with the Fortune Teller):
//   [cT, (c+1)T)    drawn tile number c of this turn, one-hot (zeros when not drawn), c < N
//   [NT, (N+1)T)    tiles of each type left in the bag (counts)
//   next P          scores (relative seats)
//   next P          followers in supply (relative seats)
//   next P          whose turn it is, one-hot (relative seats)
//   next P          fortune tellers on tents (relative seats)
//   [.., +3)        phase one-hot: chance, place, terminal
//   then            tiles in the bag (total), turn number
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>

#include "common.h"

namespace carc::py {

int ObsLayout::planes() const { return 23 + 7 * players; }
int ObsLayout::vector_size() const { return (choices + 1) * types + 4 * players + 5; }

std::vector<std::string> plane_names(int players) {
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
  return n;
}

std::vector<std::string> vector_names(const Game& g, int players, int choices) {
  std::vector<std::string> n;
  for (int c = 0; c < choices; ++c)
    for (int t = 0; t < g.num_types(); ++t)
      n.push_back((c == 0 ? std::string("drawn_") : "drawn" + std::to_string(c) + "_") + g.type(t).id);
  for (int t = 0; t < g.num_types(); ++t) n.push_back("bag_" + g.type(t).id);
  for (auto what : {"score", "supply", "to_move", "tents"})
    for (int o = 0; o < players; ++o) n.push_back(std::string(what) + "_p" + std::to_string(o));
  for (auto x : {"phase_chance", "phase_place", "phase_terminal", "bag_size", "turn"}) n.push_back(x);
  return n;
}

namespace {

ObsLayout layout_of(const PyState& ps) {
  return ObsLayout{ps.s.num_players(), ps.s.game().num_types(), ps.space.width(), ps.space.choices};
}

int observer_of(const PyState& ps, std::optional<int> player) {
  int p = player.value_or(ps.s.current_player());
  if (!player && p < 0) p = ps.s.turn_player();
  if (p < 0 || p >= ps.s.num_players()) throw std::invalid_argument("player out of range");
  return p;
}

void fill_planes(const PyState& ps, int me, float* out) {
  const State& s = ps.s;
  const ObsLayout L = layout_of(ps);
  const int R = ps.space.radius, W = L.width, WW = W * W, P = L.players;
  std::memset(out, 0, sizeof(float) * size_t(L.planes()) * WW);
  auto at = [&](int plane, int x, int y) -> float& { return out[size_t(plane) * WW + (y + R) * W + (x + R)]; };
  auto inside = [&](int x, int y) { return x >= -R && x <= R && y >= -R && y <= R; };
  auto rel = [&](int q) { return (q - me + P) % P; };
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
  }
  for (int i = 0; i < s.num_followers(); ++i) {
    const Follower& f = s.followers()[i];
    const PlacedTile& T = s.placed(s.slot_tile(f.slot));
    if (!inside(T.x, T.y)) continue;
    const Kind k = s.game().type(T.type).rot[T.rot].seg[s.slot_segment(f.slot)].kind;
    const int ki = k == Kind::Road ? 0 : k == Kind::City ? 1 : k == Kind::Field ? 2 : 3;
    at(19 + 4 * rel(f.player) + ki, T.x, T.y) += 1;
  }
  if (s.phase() == Phase::Place) {
    std::vector<Move> moves;
    s.legal_moves(moves);
    for (const Move& m : moves)
      if (inside(m.x, m.y)) at(19 + 7 * P + m.rot, m.x, m.y) = 1;
  }
}

void fill_vector(const PyState& ps, int me, float* out) {
  const State& s = ps.s;
  const ObsLayout L = layout_of(ps);
  const int T = L.types, P = L.players, N = L.choices;
  std::memset(out, 0, sizeof(float) * size_t(L.vector_size()));
  if (!s.is_terminal())
    for (int c = 0; c < std::min(N, s.num_drawn()); ++c) out[c * T + s.drawn_tile(c)] = 1;
  for (int t = 0; t < T; ++t) out[N * T + t] = float(s.bag_count(t));
  float* v = out + (N + 1) * T;
  for (int q = 0; q < P; ++q) {
    const int o = (q - me + P) % P;
    v[o] = float(s.score(q));
    v[P + o] = float(s.supply(q));
    v[3 * P + o] = float(s.tents(q));
  }
  if (!s.is_terminal()) v[2 * P + (s.turn_player() - me + P) % P] = 1;
  v += 4 * P;
  v[s.is_chance() ? 0 : s.is_terminal() ? 2 : 1] = 1;
  v[3] = float(s.bag_size());
  v[4] = float(s.turn());
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
      });

  pyb::class_<PyGame> game{pyb::object(m.attr("Game"))};
  game.def_property_readonly(
          "observation_shape",
          [](const PyGame& g) {
            const ObsLayout L{g.rules.players, g.game->num_types(), 2 * g.radius + 1, num_choices(g.rules)};
            pyb::dict d;
            d["planes"] = pyb::make_tuple(L.planes(), L.width, L.width);
            d["vector"] = pyb::make_tuple(L.vector_size());
            d["flat"] = pyb::make_tuple(L.size());
            return d;
          },
          "{'planes': (C, W, W), 'vector': (V,), 'flat': (C*W*W + V,)}")
      .def_property_readonly("observation_plane_names", [](const PyGame& g) { return plane_names(g.rules.players); })
      .def_property_readonly("observation_vector_names", [](const PyGame& g) {
        return vector_names(*g.game, g.rules.players, num_choices(g.rules));
      });
}

}  // namespace carc::py
