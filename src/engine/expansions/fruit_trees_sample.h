// The Fruit-Bearing Trees' part of the move sampler (State::sample_placement<true>, state.cc):
// inline, so that the one sampler costs what the expansion's own sampler did. Included only by
// state.cc.
#pragma once

#include <cstring>

#include "../state.h"

namespace carc {

// The sampler (State::sample_placement<true>, state.cc) with the Fruit-Bearing Trees in play
// (with any other expansions): the same rejection sampling over (placement, option) pairs, but
// placements no longer all have the same number of options. A follower deployed next to a tree
// may also harvest one of the trees in range that still has tokens, or sell one of the sets of
// 1 to 4 held fruit types. The sets are the same for every placement this turn; the trees
// depend on the cell (and on the stack put on a new tree tile). So each frontier cell gets a
// weight: its fitting rotations x (for a tree tile) the free stacks x the options of that
// placement, 1 + segments x (1 + fruit actions) + crowns + take-backs; a (cell, rotation,
// stack, option) is drawn by that weight and rejected when the segment is taken.
inline State::FruitOptions State::fruit_options(bool deploy) const {
  FruitOptions fo;
  fo.on = deploy;  // without a follower to deploy, no placement has a fruit action
  // The fruit types the player holds, and those whose stack has tokens left (mods_.fruit.taken <= 4),
  // from the 6 bytes of each at once: bit 0 of byte f is moved to bit f by the multiplication
  // (each term lands on its own bit: no carries).
  static_assert(kFruitTypes <= 8, "one byte per fruit type in a 64-bit word");
  uint64_t hv = 0, tv = 0;
  std::memcpy(&hv, mods_.fruit.held[player_].data(), kFruitTypes);
  std::memcpy(&tv, mods_.fruit.taken.data(), kFruitTypes);
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7Full, kGather = 0x0102040810204080ull;
  const uint64_t nonzero = ((hv | ((hv & kLow7) + kLow7)) >> 7) & 0x010101010101ull;
  fo.held = uint32_t((nonzero * kGather) >> 56);
  const uint32_t empty = uint32_t((((tv >> 2) & 0x010101010101ull) * kGather) >> 56);  // mods_.fruit.taken == 4
  fo.harvestable = ~empty & ((1u << kFruitTypes) - 1);
  fo.free_stacks = ~uint32_t(near_.types) & ((1u << kFruitTypes) - 1);  // not on a tree yet
  // Sets of 1 to 4 of the n held types: C(n,1) + ... + C(n,4).
  static constexpr uint8_t kSets[kFruitTypes + 1] = {0, 1, 3, 7, 15, 30, 56};
  fo.nsales = kSets[__builtin_popcount(fo.held)];
  return fo;
}

inline uint32_t State::fruit_placement_options(const FruitOptions& fo, const SampleGroup& g, bool tree, uint32_t trees,
                                        uint32_t ncrowns) const {
  if (!tree) return 1 + g.segs * (1 + fo.actions(trees)) + ncrowns + g.take_backs;
  uint32_t w = 0;  // a tree tile: summed over the free stacks, each a tree in range
  for (uint32_t f = fo.free_stacks; f; f &= f - 1)
    w += 1 + g.segs * (1 + fo.actions(trees | (f & -f))) + ncrowns + g.take_backs;
  return w;
}

// The frontier cells in range of a tree (near_ non-zero) are listed in near_.cells; the others
// have w0 options per placement.
inline uint32_t State::cell_weights_group(const FruitOptions& fo, const SampleGroup& g, uint32_t ncrowns, uint32_t& w0) const {
  const bool tree = game_->type(drawn_[g.choice]).tree;
  const uint8_t* fit = game_->fit_row(drawn_[g.choice]);
  w0 = fruit_placement_options(fo, g, tree, 0, ncrowns);
  uint32_t weight = g.placements * w0;
  const int nnear = fo.on ? near_.ncells : 0;
  for (int q = 0; q < nnear; ++q) {
    const int i = cell_[near_.cells[q]] - kFrontierBase;
    if (const uint8_t cnt = uint8_t(__builtin_popcount(fit[need_[i]])))
      weight += cnt * (fruit_placement_options(fo, g, tree, near_.cell[i], ncrowns) - w0);
  }
  return weight;
}

inline int State::cell_weights_find(const FruitOptions& fo, const SampleGroup& g, uint32_t ncrowns, uint32_t w0,
                                uint32_t k, Move& m, uint32_t& sub, uint32_t& trees, uint32_t& per_seg) const {
  const TileType& tt = game_->type(drawn_[g.choice]);
  const uint8_t* fit = game_->fit_row(drawn_[g.choice]);
  // The cell of the k-th option (cells in list order, each with popcount(fit) x its options
  // per placement), walked to from the nearer end.
  int i;
  uint32_t cw, per;
  auto cell_weight = [&](int i) {
    const uint32_t t = fo.on ? near_.cell[i] : 0;
    per = t ? fruit_placement_options(fo, g, tt.tree, t, ncrowns) : w0;
    return uint32_t(__builtin_popcount(fit[need_[i]])) * per;
  };
  if (k < g.weight / 2) {
    for (i = 0;; ++i) {
      cw = cell_weight(i);
      if (k < cw) break;
      k -= cw;
    }
  } else {
    k = g.weight - 1 - k;  // counted from the last option
    for (i = nfrontier_ - 1;; --i) {
      cw = cell_weight(i);
      if (k < cw) break;
      k -= cw;
    }
    k = cw - 1 - k;
  }
  uint32_t idx = k / per;
  sub = k % per;
  trees = fo.on ? near_.cell[i] : 0;
  if (tt.tree) {
    // The stack: each free fruit type's placement has its own number of options.
    for (uint32_t f = fo.free_stacks;; f &= f - 1) {
      const uint32_t with = trees | (f & -f);
      const uint32_t n = 1 + g.segs * (1 + fo.actions(with)) + ncrowns + g.take_backs;
      if (sub < n) {
        m.ext.set_fruit_type(__builtin_ctz(f));
        trees = fo.on ? with : 0;
        break;
      }
      sub -= n;
    }
  }
  uint8_t mask = fit[need_[i]];
  for (; idx; --idx) mask &= mask - 1;
  m.x = frontier_[i].x;
  m.y = frontier_[i].y;
  m.rot = uint8_t(__builtin_ctz(mask));
  per_seg = 1 + fo.actions(trees);
  return i;
}

inline void State::cell_weights_option(const FruitOptions& fo, uint32_t trees, uint32_t a, Move& m) const {
  const uint32_t h = uint32_t(__builtin_popcount(trees & fo.harvestable));
  if (a < h) {
    uint32_t t = trees & fo.harvestable;
    for (uint32_t j = a; j; --j) t &= t - 1;
    m.ext.set_harvest(__builtin_ctz(t));
  } else {
    // The (a - h)-th set of 1 to 4 held types, in increasing order of the bit mask.
    uint32_t j = a - h, set = 0;
    for (set = 1;; ++set)
      if ((set & ~fo.held) == 0 && __builtin_popcount(set) <= 4 && j-- == 0) break;
    m.ext.set_sale(set);
  }
}

}  // namespace carc
