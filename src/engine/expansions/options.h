// The expansions' part of the one move generator (State::legal_moves, State::sample_move,
// State::check_move in state.cc): what each module adds to a placement decision, counted (for
// the sampler) and listed (for legal_moves and check_move) in one fixed order. Inline, included
// by state.cc (and modules.cc), so the generator costs what hand-written code would.
//
// The options of one placement (x, y, rotation, a tree tile's fruit stack), in this order:
//   no follower;
//   a follower on each free segment, each followed by its fruit actions (Fruit-Bearing Trees:
//     harvest a tree in range, or sell a set of held fruit types);
//   a follower on each free crown space (Wheel of Fortune);
//   an own follower taken back (Festival, festival tiles only).
// A tree tile's placement is one per free fruit stack (Fruit-Bearing Trees).
//
// The modules that add options are found once per decision (State::turn_options), by a loop
// over the game's module bits in table order; per placement only counts are added.
#pragma once

#include "../state.h"
#include "registry.h"

namespace carc {

// The modules that add options to a placement (rows of kModules).
inline constexpr int kWheelModule = module_index("wheel-of-fortune");
inline constexpr int kFestivalModule = module_index("festival");
inline constexpr int kFruitModule = module_index("fruit-trees");
inline constexpr ModuleSet kOptionModules =
    ModuleSet(1) << kWheelModule | ModuleSet(1) << kFestivalModule | ModuleSet(1) << kFruitModule;
static_assert(kWheelModule >= 0 && kFestivalModule >= 0 && kFruitModule >= 0, "rows of kModules");
// The modules whose placements differ in their number of options, so that the sampler weighs each
// frontier cell (sample_placement<true>) and keeps StateTables::near_: the Fruit-Bearing Trees.
inline constexpr ModuleSet kCellWeightModules = ModuleSet(1) << kFruitModule;

// Festival: the player to move's take-back options: their followers on the land (indices into
// followers_), then their crown spaces (Wheel of Fortune). n < 0: not listed yet.
struct State::TakeBacks {
  int n = -1, nland = 0;
  int8_t at[kMaxFollowers + kMaxCrowns];
  void put(Move& m, int k) const {
    if (k < nland) m.ext.set_take_back(at[k]);
    else m.ext.set_take_back_crown(at[k]);
  }
};

// What the active modules add to every placement of this decision.
// (Set by turn_options.)
struct State::TurnOptions {
  bool deploy;              // the player has a follower to deploy
  bool fruit;               // Fruit-Bearing Trees in play
  uint32_t crowns, ncrowns;  // Wheel of Fortune: the free crown spaces (when deploying)
  TakeBacks own;            // Festival: the player's take-backs, listed on first need
  FruitOptions fo;          // Fruit-Bearing Trees: the player's fruit actions
};

inline void State::turn_options(bool deploy, TurnOptions& to) const {
  to.deploy = deploy;
  to.fruit = false;
  to.crowns = to.ncrowns = 0;
  to.fo = FruitOptions{};
  for (ModuleSet a = game_->modules() & kOptionModules; a; a &= a - 1) {
    const int module = __builtin_ctz(a);
    if (module == kWheelModule) {
      to.crowns = deploy ? free_crown_mask() : 0;
      to.ncrowns = uint32_t(__builtin_popcount(to.crowns));
    } else if (module == kFruitModule) {
      to.fruit = true;
      to.fo = fruit_options(deploy);
    }
    // kFestivalModule: the take-backs are listed when a festival tile needs them (option_group).
  }
}

// The header of drawn tile c's options (see State::SampleGroup); the sampler sets `weight` for a
// placement group (with fruit actions the options differ per placement). False when c offers no
// moves.
inline bool State::option_group(int c, TurnOptions& to, SampleGroup& g) const {
  if (!offers_moves(c)) return false;
  const TileType& tt = game_->type(drawn_[c]);
  g.choice = uint8_t(c);
  g.choose = mods_.wheel.chosen < 0 && tt.wheel;
  if (g.choose) {
    g.per = g.weight = 1;
    g.segs = g.take_backs = g.placements = 0;
    return true;
  }
  if (tt.festival && to.own.n < 0) own_followers(to.own);
  g.take_backs = tt.festival ? uint32_t(to.own.n) : 0;
  g.segs = to.deploy ? uint32_t(tt.nseg) : 0;
  g.per = 1 + g.segs + to.ncrowns + g.take_backs;
  g.placements = uint32_t(fit_count(drawn_[c]));  // kept up to date: no scan
  return true;
}

// The last options of a sampled placement, after "no follower" and the follower spots: a free
// crown space (the sub-th set bit of `crowns`) or, past those, a take-back (own option
// sub - ncrowns).
inline Move State::last_option(Move m, uint32_t sub, const TurnOptions& to) {
  if (sub < to.ncrowns) {
    uint32_t c = to.crowns;
    for (; sub; --sub) c &= c - 1;
    m.ext.set_crown(__builtin_ctz(c));
    return m;
  }
  to.own.put(m, int(sub - to.ncrowns));
  return m;
}

// Lists the options of placement m (x, y, rot, choice and a tree tile's stack set) in the
// generator's order; `free` are its free segments (0 when not deploying), `trees` the fruit
// types in range of a follower deployed there.
inline void State::list_placement(const TurnOptions& to, const SampleGroup& g, Move m, uint32_t free, uint32_t trees,
                                  std::vector<Move>& out) const {
  out.push_back(m);
  const uint32_t actions = to.fruit ? to.fo.actions(trees) : 0;
  for (; free; free &= free - 1) {
    m.meeple = int8_t(__builtin_ctz(free));
    out.push_back(m);
    if (actions) {
      Move a = m;
      for (uint32_t t = trees & to.fo.harvestable; t; t &= t - 1) {
        a.ext.set_harvest(__builtin_ctz(t));
        out.push_back(a);
      }
      a.ext.set_harvest(-1);
      for (uint32_t set = 1; set < (1u << kFruitTypes); ++set)
        if ((set & ~to.fo.held) == 0 && __builtin_popcount(set) <= 4) {
          a.ext.set_sale(set);
          out.push_back(a);
        }
    }
  }
  m.meeple = -1;
  for (uint32_t c = to.crowns; c; c &= c - 1) {
    Move t = m;
    t.ext.set_crown(__builtin_ctz(c));
    out.push_back(t);
  }
  for (uint32_t k = 0; k < g.take_backs; ++k) {
    Move t = m;
    to.own.put(t, int(k));
    out.push_back(t);
  }
}

// Lists the options of the placements at frontier cell i in the rotations `rots`: for a tree
// tile, one placement per free fruit stack.
inline void State::list_cell(const TurnOptions& to, const SampleGroup& g, int i, uint8_t rots,
                             std::vector<Move>& out) const {
  const TileType& tt = game_->type(drawn_[g.choice]);
  const FrontierCell& fc = frontier_[i];
  Ports ports;
  if (g.segs) cell_ports(fc, ports);
  const uint32_t near = to.fruit ? near_.cell[i] : 0;
  for (; rots; rots &= rots - 1) {
    const int r = __builtin_ctz(rots);
    Move m;
    m.x = fc.x;
    m.y = fc.y;
    m.rot = uint8_t(r);
    m.choice = g.choice;
    const uint32_t free = g.segs ? free_from_ports(tt, r, ports, player_) : 0;
    if (!tt.tree) {
      list_placement(to, g, m, free, near, out);
      continue;
    }
    for (uint32_t f = to.fo.free_stacks; f; f &= f - 1) {
      m.ext.set_fruit_type(__builtin_ctz(f));
      list_placement(to, g, m, free, near | (f & -f), out);
    }
  }
}

}  // namespace carc
