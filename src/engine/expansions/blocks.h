// The expansions' state blocks: what each module adds to a game's State, one block per module,
// each with its own equality (what matters for play, next to the fields), so that State holds
// one member for all of them (State::mods_) and compares it in one expression. Trivial types:
// a State copy copies them as bytes.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "../types.h"
#include "move_ext.h"

namespace carc {

// The Fortune Teller: fortune tellers (followers on tents) per player.
struct FortuneTellerBlock {
  std::array<uint8_t, kMaxPlayers> tents{};
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
  bool operator==(const FruitBlock& o) const {  // the initial stacks are a record's, not play's
    return stack == o.stack && taken == o.taken && sold == o.sold && stack_tile == o.stack_tile && held == o.held;
  }
};

// Every module's block, in table order.
struct ModuleBlocks {
  FortuneTellerBlock fortune;
  WheelBlock wheel;
  FruitBlock fruit;
  bool operator==(const ModuleBlocks&) const = default;
};

}  // namespace carc
