// The Fruit-Bearing Trees (rules: ../shared/rules, R-*): six face-down stacks of fruit
// tokens, a stack put on each placed tree tile, and the fruit action of a follower deployed
// next to a tree (harvest the top token of a tree in range, or sell a set of 1 to 4 held
// fruit types); held tokens score 1 each at the end. The tree tiles are data
// (data/tiles/). Entered from the hook points listed in state.h.
#include <algorithm>
#include <cstring>

#include "../state.h"
#include "../state_internal.h"
#include "../vocabulary.h"

namespace carc {

using internal::kDx8;
using internal::kDy8;


const std::array<const char*, kFruitTypes> kFruitNames = {"apple", "apricot", "cherry", "elder", "plum", "quince"};

// New game: each fruit type's stack of 5, 4, 3, 2 shuffled face down, from the game's seed
// (its own generator, so the tile draws are the same as without the expansion).
void State::init_fruit_stacks(uint64_t seed) {
  Rng fr(seed ^ 0xF2017F2017ull);
  for (auto& st : stack_) {
    st = {5, 4, 3, 2};
    for (int i = 3; i > 0; --i) std::swap(st[i], st[fr.below(uint32_t(i + 1))]);
  }
  init_stacks_ = stack_;
}

std::vector<int> State::fruit_stack(int f) const {
  return std::vector<int>(stack_[f].begin() + taken_[f], stack_[f].end());
}

void State::set_fruit_stacks(const std::array<std::array<uint8_t, 4>, kFruitTypes>& stacks) {
  stack_ = init_stacks_ = stacks;
}

bool State::force_fruit_top(int f, int value) {
  for (int i = taken_[f]; i < 4; ++i)
    if (stack_[f][i] == value) {
      std::swap(stack_[f][i], stack_[f][taken_[f]]);
      return true;
    }
  return false;
}

bool State::set_fruit_order(int f, const std::vector<int>& top_first) {
  if (f < 0 || f >= kFruitTypes) return false;
  std::vector<int> have = fruit_stack(f), want = top_first;
  std::sort(have.begin(), have.end());
  std::sort(want.begin(), want.end());
  if (have != want) return false;
  for (size_t i = 0; i < top_first.size(); ++i) stack_[f][size_t(taken_[f]) + i] = uint8_t(top_first[i]);
  return true;
}

// Search: the order of the face-down tokens is hidden. Shuffled from a canonical (sorted)
// order, so the result does not depend on the old hidden order. (Called without the
// expansion too, where it shuffles empty stacks: search draws from `rng` the same way in
// every rule set.)
// Without the expansion the stacks are never filled (all zero), so only the draws from `rng` are
// made. (MCTS calls this once per iteration: std::sort here was 7% of a base game's iteration.)
void State::resample_fruit_stacks(Rng& rng) {
  const bool fruit = rules().fruit_trees();
  if (!fruit) {
    // The same draws as the shuffle below, without moving the (all zero) tokens.
    for (int f = 0; f < kFruitTypes; ++f)
      for (int i = 3; i > taken_[f]; --i) rng.below(uint32_t(i - taken_[f] + 1));
    return;
  }
  for (int f = 0; f < kFruitTypes; ++f) {
    std::array<uint8_t, 4>& st = stack_[f];
    const int t = taken_[f];
    for (int i = t + 1; i < 4; ++i)  // insertion sort of the (at most 4) tokens left
      for (int k = i; k > t && st[k - 1] > st[k]; --k) std::swap(st[k - 1], st[k]);
    for (int i = 3; i > t; --i) {
      const int j = t + int(rng.below(uint32_t(i - t + 1)));
      std::swap(st[i], st[j]);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Move generation

// A tree tile gets one of the stacks not yet on a tree (the player's choice).
uint32_t State::free_stack_mask() const {
  uint32_t types = 0;
  for (int f = 0; f < kFruitTypes; ++f)
    if (stack_tile_[f] < 0) types |= 1u << f;
  return types;
}

uint32_t State::trees_in_range(int x, int y, int new_tree) const {
  uint32_t mask = new_tree >= 0 ? 1u << new_tree : 0;
  for (int k = 0; k < 8; ++k) {
    const uint16_t nb = cell_[cell_of(x + kDx8[k], y + kDy8[k])];
    if (nb < kFrontierBase && placed_[nb].fruit >= 0) mask |= 1u << placed_[nb].fruit;
  }
  return mask;
}

// The frontier cells in range of a tree (near_, near_cells_). place_tile at board cell `cell`
// swap-removed that frontier cell, index i (the last of the nf cells took its index), and
// appended the new cells from index nf - 1 on; a new cell may stand next to trees already
// planted.
void State::near_trees_frontier_changed(int cell, int i, int nf) {
  if (near_[i]) {
    int q = 0;
    while (near_cells_[q] != cell) ++q;
    near_cells_[q] = near_cells_[--nnear_];
  }
  near_[i] = near_[nf - 1];
  if (nfrontier_ < nf) return;  // no new cell
  // The new cells are orthogonal neighbours of the placed tile: only trees within two cells of
  // it can be in their range.
  const PlacedTile& P = placed_[nplaced_ - 1];
  uint32_t near_tile = 0;
  for (uint32_t t = tree_types_; t; t &= t - 1) {
    const PlacedTile& T = placed_[stack_tile_[__builtin_ctz(t)]];
    if (unsigned(T.x - P.x + 2) <= 4 && unsigned(T.y - P.y + 2) <= 4) near_tile |= t & -t;
  }
  for (int j = nf - 1; j < nfrontier_; ++j) {
    const FrontierCell& fc = frontier_[j];
    uint8_t trees = 0;
    for (uint32_t t = near_tile; t; t &= t - 1) {
      const int f = __builtin_ctz(t);
      const PlacedTile& T = placed_[stack_tile_[f]];
      if (unsigned(T.x - fc.x + 1) <= 2 && unsigned(T.y - fc.y + 1) <= 2) trees |= uint8_t(1u << f);
    }
    near_[j] = trees;
    if (trees) near_cells_[nnear_++] = fc.cell;
  }
}

// A stack goes on the tree tile P: its frontier neighbours come in range of fruit type f.
void State::near_trees_planted(const PlacedTile& P, int f) {
  tree_types_ |= uint8_t(1u << f);
  for (int d = 0; d < 8; ++d) {
    const uint16_t v = cell_[cell_of(P.x + kDx8[d], P.y + kDy8[d])];
    if (v < kFrontierBase || v == kEmptyCell) continue;
    const int i = v - kFrontierBase;
    if (!near_[i]) near_cells_[nnear_++] = frontier_[i].cell;
    near_[i] |= uint8_t(1u << f);
  }
}

// Appends, after the plain deployment `m`, its fruit actions: harvest each tree in range that
// still has tokens, or sell each set of 1 to 4 held types.
void State::add_fruit_actions(Move m, uint32_t trees, std::vector<Move>& out) const {
  for (uint32_t t = trees; t; t &= t - 1) {
    const int f = __builtin_ctz(t);
    if (taken_[f] < 4) {
      m.ext.set_harvest(f);
      out.push_back(m);
    }
  }
  m.ext.set_harvest(-1);
  uint32_t held = 0;
  for (int f = 0; f < kFruitTypes; ++f)
    if (held_[player_][f]) held |= 1u << f;
  for (uint32_t set = 1; set < 64; ++set)
    if ((set & ~held) == 0 && __builtin_popcount(set) <= 4) {
      m.ext.set_sale(set);
      out.push_back(m);
    }
}

// State::sample_move with the Fruit-Bearing Trees in play (with any other expansions): the
// same rejection sampling over (placement, option) pairs, but placements no longer all have
// the same number of options. A follower deployed next to a tree may also harvest one of the
// trees in range that still has tokens, or sell one of the sets of 1 to 4 held fruit types.
// The sets are the same for every placement this turn; the trees depend on the cell (and on
// the stack put on a new tree tile). So each frontier cell gets a weight: its fitting
// rotations x (for a tree tile) the free stacks x the options of that placement,
// 1 + segments x (1 + fruit actions) + crowns + take-backs; a (cell, rotation, stack, option)
// is drawn by that weight and rejected when the segment is taken. Uniform over legal_moves().
Move State::sample_move_fruit(Rng& rng) const {
  const bool deploy = supply_[player_] > 0;
  const uint32_t crowns = deploy && game_->has_wheel() ? free_crown_mask() : 0;
  const uint32_t ncrowns = uint32_t(__builtin_popcount(crowns));
  TakeBacks own;  // listed when a festival tile needs it
  const bool fruit = deploy;
  // The fruit types the player holds, and those whose stack has tokens left (taken_ <= 4),
  // from the 6 bytes of each at once: bit 0 of byte f is moved to bit f by the multiplication
  // (each term lands on its own bit: no carries).
  static_assert(kFruitTypes <= 8, "one byte per fruit type in a 64-bit word");
  uint64_t hv = 0, tv = 0;
  std::memcpy(&hv, held_[player_].data(), kFruitTypes);
  std::memcpy(&tv, taken_.data(), kFruitTypes);
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7Full, kGather = 0x0102040810204080ull;
  const uint64_t nonzero = ((hv | ((hv & kLow7) + kLow7)) >> 7) & 0x010101010101ull;
  const uint32_t held = uint32_t((nonzero * kGather) >> 56);
  const uint32_t empty = uint32_t((((tv >> 2) & 0x010101010101ull) * kGather) >> 56);  // taken_ == 4
  const uint32_t harvestable = ~empty & ((1u << kFruitTypes) - 1);
  const uint32_t free_stacks = ~uint32_t(tree_types_) & ((1u << kFruitTypes) - 1);  // not on a tree yet
  // Sets of 1 to 4 of the n held types: C(n,1) + ... + C(n,4).
  static constexpr uint8_t kSets[kFruitTypes + 1] = {0, 1, 3, 7, 15, 30, 56};
  const uint32_t nsales = kSets[__builtin_popcount(held)];
  // Fruit actions of a follower deployed with trees `trees` in range.
  auto actions = [&](uint32_t trees) { return trees ? uint32_t(__builtin_popcount(trees & harvestable)) + nsales : 0; };
  // The frontier cells in range of a tree (near_ non-zero) are listed in near_cells_; the
  // others have no fruit action. Without a follower to deploy, no cell has one.
  const int nnear = fruit ? nnear_ : 0;
  // One group per distinct placeable drawn tile, as in State::sample_move.
  SampleGroup groups[4];
  // Per group: a placement has options(trees in range) options, w0 = options(0) on most cells.
  uint32_t w0s[4];
  int ng = 0;
  uint32_t total = 0;
  auto options_of = [&](const SampleGroup& g, bool tree, uint32_t trees) {
    if (!tree) return 1 + g.segs * (1 + actions(trees)) + ncrowns + g.take_backs;
    uint32_t w = 0;  // a tree tile: summed over the free stacks, each a tree in range
    for (uint32_t f = free_stacks; f; f &= f - 1)
      w += 1 + g.segs * (1 + actions(trees | (f & -f))) + ncrowns + g.take_backs;
    return w;
  };
  for (int c = 0; c < ndrawn_; ++c) {
    SampleGroup& g = groups[ng];
    if (!sample_group(c, deploy, ncrowns, own, g)) continue;
    ++ng;
    if (!g.choose) {
      const bool tree = game_->type(drawn_[c]).tree;
      const uint8_t* fit = game_->fit_row(drawn_[c]);
      const uint32_t w0 = w0s[ng - 1] = options_of(g, tree, 0);
      g.weight = g.placements * w0;
      for (int q = 0; q < nnear; ++q) {
        const int i = cell_[near_cells_[q]] - kFrontierBase;
        if (const uint8_t cnt = uint8_t(__builtin_popcount(fit[need_[i]])))
          g.weight += cnt * (options_of(g, tree, near_[i]) - w0);
      }
    }
    total += g.weight;
  }
  for (;;) {
    uint32_t k = rng.below(total);
    int gi = 0;
    while (k >= groups[gi].weight) k -= groups[gi++].weight;
    const SampleGroup& g = groups[gi];
    Move m;
    m.choice = g.choice;
    if (g.choose) {
      m.kind = MoveKind::Choose;
      return m;
    }
    const TileType& tt = game_->type(drawn_[g.choice]);
    const uint8_t* fit = game_->fit_row(drawn_[g.choice]);
    const uint32_t w0 = w0s[gi];
    // The cell of the k-th option (cells in list order, each with popcount(fit) x its options
    // per placement), walked to from the nearer end.
    int i;
    uint32_t cw, per;
    auto cell_weight = [&](int i) {
      const uint32_t t = fruit ? near_[i] : 0;
      per = t ? options_of(g, tt.tree, t) : w0;
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
    uint32_t idx = k / per, sub = k % per;
    uint32_t trees = fruit ? near_[i] : 0;
    if (tt.tree) {
      // The stack: each free fruit type's placement has its own number of options.
      const uint32_t segs = g.segs, take_backs = g.take_backs;
      for (uint32_t f = free_stacks;; f &= f - 1) {
        const uint32_t with = trees | (f & -f);
        const uint32_t n = 1 + segs * (1 + actions(with)) + ncrowns + take_backs;
        if (sub < n) {
          m.ext.set_fruit_type(__builtin_ctz(f));
          trees = fruit ? with : 0;
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
    if (sub-- == 0) return m;
    const uint32_t segs = g.segs;
    const uint32_t per_seg = 1 + actions(trees);
    if (sub < segs * per_seg) {
      const uint32_t seg = sub / per_seg, a = sub % per_seg;
      Ports ports;
      cell_ports(frontier_[i], ports);
      if (!(free_from_ports(tt, m.rot, ports, player_) >> seg & 1)) continue;  // taken: draw again
      m.meeple = int8_t(seg);
      if (a == 0) return m;
      const uint32_t h = uint32_t(__builtin_popcount(trees & harvestable));
      if (a - 1 < h) {
        uint32_t t = trees & harvestable;
        for (uint32_t j = a - 1; j; --j) t &= t - 1;
        m.ext.set_harvest(__builtin_ctz(t));
      } else {
        // The (a - 1 - h)-th set of 1 to 4 held types, in increasing order of the bit mask.
        uint32_t j = a - 1 - h, set = 0;
        for (set = 1;; ++set)
          if ((set & ~held) == 0 && __builtin_popcount(set) <= 4 && j-- == 0) break;
        m.ext.set_sale(set);
      }
      return m;
    }
    return crown_or_take_back(m, sub - segs * per_seg, crowns, ncrowns, own);
  }
}

// ---------------------------------------------------------------------------------------
// Check, apply, final scoring

std::string State::check_fruit(const Move& m, const TileType& tt) const {
  const int stack = m.ext.fruit_type();
  if (tt.tree) {
    if (stack < 0 || stack >= kFruitTypes) return "a tree tile needs a fruit stack (fruit_type)";
    if (stack_tile_[stack] >= 0) return std::string("the ") + kFruitNames[stack] + " stack is already on a tree";
  } else if (stack >= 0) {
    return "tile " + tt.id + " has no tree for a fruit stack";
  }
  const int harvest = m.ext.harvest();
  const uint32_t sale = m.ext.sale();
  if (harvest >= 0 && sale) return "one fruit action: harvest or sell, not both";
  if (harvest >= 0 || sale) {
    if (!rules().fruit_trees()) return "fruit actions need the Fruit-Bearing Trees";
    if (m.meeple < 0) return "a fruit action needs a follower deployed on the placed tile";
    const uint32_t trees = trees_in_range(m.x, m.y, tt.tree ? stack : -1);
    if (harvest >= 0) {
      if (harvest >= kFruitTypes || !(trees >> harvest & 1)) return "no such tree next to the placed tile";
      if (taken_[harvest] >= 4) return std::string("the ") + kFruitNames[harvest] + " tree has no fruit left";
    } else {
      if (!trees) return "no tree next to the placed tile";
      if (__builtin_popcount(sale) > 4) return "a sale is 1 to 4 fruit types";
      for (int f = 0; f < kFruitTypes; ++f)
        if ((sale >> f & 1) && !held_[player_][f])
          return std::string("player ") + std::to_string(player_) + " holds no " + kFruitNames[f] + " token to sell";
    }
  }
  return "";
}

// The stack goes on the new tree; the fruit action comes after the follower, before feature
// scoring.
void State::apply_fruit(const Move& m, const PlacedTile& P) {
  if (const int f = m.ext.fruit_type(); f >= 0) {
    placed_[nplaced_ - 1].fruit = int8_t(f);
    stack_tile_[f] = int8_t(nplaced_ - 1);
    near_trees_planted(placed_[nplaced_ - 1], f);
  }
  if (const int f = m.ext.harvest(); f >= 0) {
    const int value = stack_[f][taken_[f]++];
    ++held_[player_][f];
    history_.back().harvested = uint8_t(value);
    emit(player_, value, "fruit", false, P.slot_base);
  } else if (const uint32_t sale = m.ext.sale()) {
    for (int f = 0; f < kFruitTypes; ++f)
      if (sale >> f & 1) {
        --held_[player_][f];
        ++sold_[f];
      }
    emit(player_, kFruitSalePoints[size_t(__builtin_popcount(sale))], "fruit", false, P.slot_base);
  }
}

// Every token still held is worth 1 point.
void State::score_fruit_tokens() {
  for (int p = 0; p < nplayers_; ++p) {
    int tokens = 0;
    for (int f = 0; f < kFruitTypes; ++f) tokens += held_[p][f];
    if (tokens && nplaced_) emit(p, tokens, "fruit", true, placed_[0].slot_base);
  }
}

}  // namespace carc
