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
#include "vocabulary_rows.h"

namespace carc {

using internal::kDx8;
using internal::kDy8;


const std::array<const char*, kFruitTypes> kFruitNames = {"apple", "apricot", "cherry", "elder", "plum", "quince"};

// New game: each fruit type's stack of 5, 4, 3, 2 (kFruitTokenValues) shuffled face down, from the game's seed
// (its own generator, so the tile draws are the same as without the expansion).
void State::init_fruit_stacks(uint64_t seed) {
  Rng fr(seed ^ 0xF2017F2017ull);
  for (auto& st : mods_.fruit.stack) {
    for (int i = 0; i < 4; ++i) st[size_t(i)] = uint8_t(kFruitTokenValues[size_t(i)]);
    for (int i = 3; i > 0; --i) std::swap(st[i], st[fr.below(uint32_t(i + 1))]);
  }
  mods_.fruit.init_stacks = mods_.fruit.stack;
}

// Search: the order of the face-down tokens is hidden. Shuffled from a canonical (sorted)
// order, so the result does not depend on the old hidden order. (Called without the
// expansion too, where it shuffles empty stacks: search draws from `rng` the same way in
// every rule set.)
// Without the expansion the stacks are never filled (all zero), so only the draws from `rng` are
// made. (MCTS calls this once per iteration: std::sort here was 7% of a base game's iteration.)
void State::resample_fruit_stacks(Rng& rng) {
  const bool fruit = rules().has(Expansion::FruitTrees);
  if (!fruit) {
    // The same draws as the shuffle below, without moving the (all zero) tokens.
    for (int f = 0; f < kFruitTypes; ++f)
      for (int i = 3; i > mods_.fruit.taken[f]; --i) rng.below(uint32_t(i - mods_.fruit.taken[f] + 1));
    return;
  }
  for (int f = 0; f < kFruitTypes; ++f) {
    std::array<uint8_t, 4>& st = mods_.fruit.stack[f];
    const int t = mods_.fruit.taken[f];
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
    if (mods_.fruit.stack_tile[f] < 0) types |= 1u << f;
  return types;
}

uint32_t State::trees_in_range(int x, int y, int new_tree) const {
  uint32_t mask = new_tree >= 0 ? 1u << new_tree : 0;
  for (int k = 0; k < 8; ++k) {
    const uint16_t nb = cell_[cell_of(x + kDx8[k], y + kDy8[k])];
    if (nb < kFrontierBase && placed_[nb].ext >= 0) mask |= 1u << placed_[nb].ext;
  }
  return mask;
}

// The frontier cells in range of a tree (near_.cell, near_.cells). place_tile at board cell `cell`
// swap-removed that frontier cell, index i (the last of the nf cells took its index), and
// appended the new cells from index nf - 1 on; a new cell may stand next to trees already
// planted.
void State::near_trees_frontier_changed(int cell, int i, int nf) {
  if (near_.cell[i]) {
    int q = 0;
    while (near_.cells[q] != cell) ++q;
    near_.cells[q] = near_.cells[--near_.ncells];
  }
  near_.cell[i] = near_.cell[nf - 1];
  if (nfrontier_ < nf) return;  // no new cell
  // The new cells are orthogonal neighbours of the placed tile: only trees within two cells of
  // it can be in their range.
  const PlacedTile& P = placed_[nplaced_ - 1];
  uint32_t near_tile = 0;
  for (uint32_t t = near_.types; t; t &= t - 1) {
    const PlacedTile& T = placed_[mods_.fruit.stack_tile[__builtin_ctz(t)]];
    if (unsigned(T.x - P.x + 2) <= 4 && unsigned(T.y - P.y + 2) <= 4) near_tile |= t & -t;
  }
  for (int j = nf - 1; j < nfrontier_; ++j) {
    const FrontierCell& fc = frontier_[j];
    uint8_t trees = 0;
    for (uint32_t t = near_tile; t; t &= t - 1) {
      const int f = __builtin_ctz(t);
      const PlacedTile& T = placed_[mods_.fruit.stack_tile[f]];
      if (unsigned(T.x - fc.x + 1) <= 2 && unsigned(T.y - fc.y + 1) <= 2) trees |= uint8_t(1u << f);
    }
    near_.cell[j] = trees;
    if (trees) near_.cells[near_.ncells++] = fc.cell;
  }
}

// A stack goes on the tree tile P: its frontier neighbours come in range of fruit type f.
void State::near_trees_planted(const PlacedTile& P, int f) {
  near_.types |= uint8_t(1u << f);
  for (int d = 0; d < 8; ++d) {
    const uint16_t v = cell_[cell_of(P.x + kDx8[d], P.y + kDy8[d])];
    if (v < kFrontierBase || v == kEmptyCell) continue;
    const int i = v - kFrontierBase;
    if (!near_.cell[i]) near_.cells[near_.ncells++] = frontier_[i].cell;
    near_.cell[i] |= uint8_t(1u << f);
  }
}

// The generator's fruit options: expansions/options.h and expansions/fruit_trees_sample.h (inline,
// included by state.cc).

// ---------------------------------------------------------------------------------------
// Check, apply, final scoring

std::string State::why_not_extras(const Move& m, const TileType& tt) const {
  const int stack = m.ext.fruit_type();
  if (tt.tree) {
    if (stack < 0 || stack >= kFruitTypes) return "a tree tile needs a fruit stack (fruit_type)";
    if (mods_.fruit.stack_tile[stack] >= 0) return std::string("the ") + kFruitNames[stack] + " stack is already on a tree";
  } else if (stack >= 0) {
    return "tile " + tt.id + " has no tree for a fruit stack";
  }
  const int harvest = m.ext.harvest();
  const uint32_t sale = m.ext.sale();
  if (harvest >= 0 && sale) return "one fruit action: harvest or sell, not both";
  if (harvest >= 0 || sale) {
    if (!rules().has(Expansion::FruitTrees)) return "fruit actions need the Fruit-Bearing Trees";
    if (m.meeple < 0) return "a fruit action needs a follower deployed on the placed tile";
    const uint32_t trees = trees_in_range(m.x, m.y, tt.tree ? stack : -1);
    if (harvest >= 0) {
      if (harvest >= kFruitTypes || !(trees >> harvest & 1)) return "no such tree next to the placed tile";
      if (mods_.fruit.taken[harvest] >= 4) return std::string("the ") + kFruitNames[harvest] + " tree has no fruit left";
    } else {
      if (!trees) return "no tree next to the placed tile";
      if (__builtin_popcount(sale) > 4) return "a sale is 1 to 4 fruit types";
      for (int f = 0; f < kFruitTypes; ++f)
        if ((sale >> f & 1) && !mods_.fruit.held[player_][f])
          return std::string("player ") + std::to_string(player_) + " holds no " + kFruitNames[f] + " token to sell";
    }
  }
  return "";
}

// The stack goes on the new tree; the fruit action comes after the follower, before feature
// scoring.
void State::apply_extras(const Move& m, const PlacedTile& P) {
  if (const int f = m.ext.fruit_type(); f >= 0) {
    placed_[nplaced_ - 1].ext = int8_t(f);
    mods_.fruit.stack_tile[f] = int8_t(nplaced_ - 1);
    near_trees_planted(placed_[nplaced_ - 1], f);
  }
  if (const int f = m.ext.harvest(); f >= 0) {
    const int value = mods_.fruit.stack[f][mods_.fruit.taken[f]++];
    ++mods_.fruit.held[player_][f];
    history_.back().mods.harvested = uint8_t(value);
    emit(player_, value, "fruit", false, P.slot_base);
  } else if (const uint32_t sale = m.ext.sale()) {
    for (int f = 0; f < kFruitTypes; ++f)
      if (sale >> f & 1) {
        --mods_.fruit.held[player_][f];
        ++mods_.fruit.sold[f];
      }
    emit(player_, kFruitSalePoints[size_t(__builtin_popcount(sale))], "fruit", false, P.slot_base);
  }
}

// Every token still held is worth kFruitHeldTokenPoints.
void State::score_fruit_tokens() {
  for (int p = 0; p < nplayers_; ++p) {
    int tokens = 0;
    for (int f = 0; f < kFruitTypes; ++f) tokens += mods_.fruit.held[p][f];
    if (tokens && nplaced_) emit(p, tokens * kFruitHeldTokenPoints, "fruit", true, placed_[0].slot_base);
  }
}

// validate(): the frontier cells in range of a tree (near_.cell, near_.cells), recomputed from the
// trees, and the fruit types noted on trees.
std::string State::validate_fruit() const {
  int nnear = 0;
  for (int i = 0; i < nfrontier_ && near_.on; ++i) {
    const uint32_t want = trees_in_range(frontier_[i].x, frontier_[i].y, -1);
    if (near_.cell[i] != want)
      return "frontier cell (" + std::to_string(frontier_[i].x) + "," + std::to_string(frontier_[i].y) +
             ") notes trees " + std::to_string(near_.cell[i]) + " in range, not " + std::to_string(want);
    if (!want) continue;
    ++nnear;
    if (std::find(near_.cells.begin(), near_.cells.begin() + near_.ncells, frontier_[i].cell) == near_.cells.begin() + near_.ncells)
      return "frontier cell (" + std::to_string(frontier_[i].x) + "," + std::to_string(frontier_[i].y) +
             ") in range of a tree is not listed";
  }
  if (nnear != near_.ncells) return "the list of frontier cells in range of a tree has " + std::to_string(near_.ncells) + ", not " + std::to_string(nnear);
  if (near_.on && near_.types != (~free_stack_mask() & ((1u << kFruitTypes) - 1)))
    return "the fruit types noted on trees (" + std::to_string(near_.types) + ") differ from the stacks on the board";
  return "";
}

}  // namespace carc
