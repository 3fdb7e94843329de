// The expansions' state blocks: what each module adds to a game's State, one block per module,
// each with its own equality (what matters for play, next to the fields), so that State holds
// one member for all of them (State::mods_) and compares it in one expression. Trivial types:
// a State copy copies them as bytes. A module's public accessors are its block's member
// functions, reached through State::mod<Block>() (e.g. `s.mod<FruitBlock>().left(f)`).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "../types.h"
#include "move_ext.h"

namespace carc {

// Fruit-Bearing Trees: the fruit types' names, in kFruitTypes order (fruit_trees.cc).
extern const std::array<const char*, kFruitTypes> kFruitNames;  // apple apricot cherry elder plum quince

// The modules' part of one turn of the history (TurnLog::mods, State::history()): what the
// turn's module decisions did, for records. PlacedTile::ext, the modules' byte per placed tile,
// is the Fruit-Bearing Trees' fruit type of the stack on a tree tile (-1: none).
struct TurnLogMods {
  uint8_t harvested = 0;  // Fruit Trees: value of the harvested token
  uint8_t nplague = 0;    // Wheel of Fortune: followers taken back for the Plague this turn,
  std::array<uint16_t, kMaxPlayers> plague{};        // their slots, in the order taken
  std::array<uint8_t, kMaxPlayers> plague_player{};  // who decided each (the follower's owner)
  // What State::operator== compares: the Plague's take-backs.
  bool same_play(const TurnLogMods& o) const { return nplague == o.nplague && plague == o.plague; }
};

constexpr int kMaxTents = 2;  // fortune tellers per player (T-10)
// The most tiles the modules add to a turn's draw (the Fortune Teller: one per fortune teller).
constexpr int kMaxExtraDraws = kMaxTents;

// The Fortune Teller: fortune tellers (followers on tents) per player.
struct FortuneTellerBlock {
  std::array<uint8_t, kMaxPlayers> tents{};
  // Fortune tellers (followers on tents) player p has.
  int tellers(int p) const { return tents[p]; }
  bool operator==(const FortuneTellerBlock&) const = default;
};

// The Wheel of Fortune: the pig, the crown spaces, the Plague in progress, the chosen wheel tile.
struct WheelBlock {
  uint8_t pig = 0;
  std::array<int8_t, kMaxCrowns> crown{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
  uint8_t plague_player = 0, plague_step = 0, nplague = 0;
  std::array<uint16_t, kMaxPlayers> plague_log{};  // the slots taken back this turn (nplague used)
  std::array<uint8_t, kMaxPlayers> plague_who{};   // who decided each
  int8_t chosen = -1;

  // The pig's segment (index into Game::wheel()).
  int pig_segment() const { return pig; }
  // The player on crown space c, or -1.
  int crown_player(int c) const { return crown[c]; }
  // Followers player p has on crown spaces.
  int crowns_of(int p) const {
    int n = 0;
    for (int c = 0; c < kMaxCrowns; ++c) n += crown[c] == p;
    return n;
  }
  // The player who must take back a follower: only in Phase::Plague (State::current_player()).
  int plague_decider() const { return plague_player; }
  // Plague take-backs made in the turn in progress: how many, the slot of each, who decided it.
  int plague_picks() const { return nplague; }
  uint16_t plague_pick(int i) const { return plague_log[i]; }
  int plague_pick_player(int i) const { return plague_who[i]; }
  // With the Fortune Teller: the drawn tile chosen by a Choose decision, or -1.
  int chosen_tile() const { return chosen; }

  bool operator==(const WheelBlock& o) const {
    return pig == o.pig && crown == o.crown && plague_player == o.plague_player && plague_step == o.plague_step &&
           nplague == o.nplague && chosen == o.chosen &&
           std::equal(plague_log.begin(), plague_log.begin() + nplague, o.plague_log.begin());
  }
};
static_assert(kMaxCrowns == 12, "the crown spaces' initialiser lists every space");

// The Fruit-Bearing Trees: the stacks (top first from index taken), where they stand, holdings.
struct FruitBlock {
  std::array<std::array<uint8_t, 4>, kFruitTypes> stack{}, init_stacks{};
  std::array<uint8_t, kFruitTypes> taken{}, sold{};
  std::array<int8_t, kFruitTypes> stack_tile{-1, -1, -1, -1, -1, -1};
  std::array<std::array<uint8_t, kFruitTypes>, kMaxPlayers> held{};

  // Tokens left in fruit type f's stack; the placed tile holding it (-1: still in supply);
  // tokens of type f player p holds; tokens of type f sold.
  int left(int f) const { return 4 - taken[f]; }
  int tree(int f) const { return stack_tile[f]; }
  int held_by(int p, int f) const { return held[p][f]; }
  int num_sold(int f) const { return sold[f]; }
  // Hidden: the values still in a stack, top first (never for players' eyes: see the public
  // view and State::resample_hidden).
  std::vector<int> stack_of(int f) const {
    return std::vector<int>(stack[f].begin() + taken[f], stack[f].end());
  }
  // Sets the stacks (top first) before the first draw: scripted records and state JSON
  // (State::edit_mod).
  void set_stacks(const std::array<std::array<uint8_t, 4>, kFruitTypes>& stacks) { stack = init_stacks = stacks; }
  // Replay: puts a token of this value on top of stack f, when the stack still holds one.
  bool force_top(int f, int value) {
    for (int i = taken[f]; i < 4; ++i)
      if (stack[f][i] == value) {
        std::swap(stack[f][i], stack[f][taken[f]]);
        return true;
      }
    return false;
  }
  // State JSON: sets the order of the tokens still in stack f (top first). False (nothing
  // changed) unless `top_first` is a permutation of stack_of(f).
  bool set_order(int f, const std::vector<int>& top_first) {
    if (f < 0 || f >= kFruitTypes) return false;
    std::vector<int> have = stack_of(f), want = top_first;
    std::sort(have.begin(), have.end());
    std::sort(want.begin(), want.end());
    if (have != want) return false;
    for (size_t i = 0; i < top_first.size(); ++i) stack[f][size_t(taken[f]) + i] = uint8_t(top_first[i]);
    return true;
  }

  bool operator==(const FruitBlock& o) const {  // the initial stacks are a record's, not play's
    return stack == o.stack && taken == o.taken && sold == o.sold && stack_tile == o.stack_tile && held == o.held;
  }
};

// The Fruit-Bearing Trees' per-frontier-cell table (StateTables::near_, next to the frontier):
// per frontier cell (same index as the frontier's), the fruit types of the trees in range (on its
// 8 neighbours), kept up to date by apply (after place_tile) and as stacks go on trees, for the
// sampler's per-cell weights (sample_placement<true>); the board cells of the frontier cells with
// a tree in range, in no order; the fruit types whose stack is on a tree. Read, kept and copied
// only when `on` (the rules have the expansion). Trivial: a state copy copies its used part.
struct NearTrees {
  std::array<uint8_t, 512> cell;  // per frontier cell; 512 = the frontier's size
  bool on;
  std::array<uint16_t, kFruitTypes * 8> cells;
  uint8_t ncells;
  uint8_t types;
  // A new game: nothing in range (`with`: the expansion is in play).
  void reset(bool with) {
    on = with;
    ncells = types = 0;
    if (on) cell.fill(0);
  }
  // A state copy with `nfrontier` frontier cells.
  void copy_from(const NearTrees& o, int nfrontier) {
    on = o.on;
    if (on) {
      std::copy_n(o.cell.begin(), nfrontier, cell.begin());
      ncells = o.ncells;
      types = o.types;
      std::copy_n(o.cells.begin(), ncells, cells.begin());
    }
  }
};

// Every module's block, in table order.
struct ModuleBlocks {
  FortuneTellerBlock fortune;
  WheelBlock wheel;
  FruitBlock fruit;
  bool operator==(const ModuleBlocks&) const = default;

  // The block of type B (State::mod<B>()).
  template <class B>
  B& get() {
    if constexpr (std::is_same_v<B, FortuneTellerBlock>) return fortune;
    else if constexpr (std::is_same_v<B, WheelBlock>) return wheel;
    else {
      static_assert(std::is_same_v<B, FruitBlock>, "B is one of ModuleBlocks' blocks");
      return fruit;
    }
  }
  template <class B>
  const B& get() const {
    return const_cast<ModuleBlocks*>(this)->get<B>();
  }
};

}  // namespace carc
