// The expansions' part of a Move (Move::ext): 32 bits in which each expansion packs its own
// fields, so no field of Move carries two meanings and no sentinel values remain. A field
// holds 0 when unused; the accessors return -1 (or an empty mask) then. Read and written only
// through these accessors; the layout is private to this file.
#pragma once

#include <cassert>
#include <cstdint>

#include "../tiles.h"
#include "../types.h"

namespace carc {

// Fruit-Bearing Trees: the six fruit types, in this order everywhere.
constexpr int kFruitTypes = 6;
// Fruit action after deploying a follower next to a tree.
enum class FruitAction : uint8_t { None = 0, Harvest = 1, Sell = 2 };
// Wheel of Fortune: crown spaces, numbered event * kMaxCrownsPerSegment + k (Game::crown_at).
constexpr int kMaxCrowns = kWheelEvents * kMaxCrownsPerSegment;

class MoveExt {
 public:
  // --- Festival ---
  // The own follower taken back instead of deploying one (index into State::followers()), or -1.
  int take_back() const { return get(kTakeBack) - 1; }
  void set_take_back(int i) { put(kTakeBack, i + 1); }
  // With the Wheel of Fortune: the crown space an own follower is taken back from, or -1.
  int take_back_crown() const { return get(kTakeBackCrown) - 1; }
  void set_take_back_crown(int c) { put(kTakeBackCrown, c + 1); }
  // Either kind of take-back.
  bool takes_back() const { return bits_ & (mask(kTakeBack) | mask(kTakeBackCrown)); }

  // --- Wheel of Fortune ---
  // The crown space that receives the deployed follower (instead of the placed tile), or -1.
  int crown() const { return get(kCrown) - 1; }
  void set_crown(int c) { put(kCrown, c + 1); }
  // A Plague decision (MoveKind::Plague): the follower taken back (index into
  // State::followers()), or -1.
  int plague() const { return get(kPlague) - 1; }
  void set_plague(int i) { put(kPlague, i + 1); }

  // --- Fruit-Bearing Trees ---
  // The fruit stack put on a placed tree tile, or -1.
  int fruit_type() const { return get(kFruitType) - 1; }
  void set_fruit_type(int f) { put(kFruitType, f + 1); }
  // The fruit action: harvest the top token of the tree of this fruit type (-1: no harvest), or
  // sell this set of held fruit types (bit f: fruit type f; 0: no sale).
  int harvest() const { return get(kHarvest) - 1; }
  void set_harvest(int f) { put(kHarvest, f + 1); }
  uint32_t sale() const { return get(kSale); }
  void set_sale(uint32_t types) { put(kSale, int(types)); }
  FruitAction fruit_action() const {
    return harvest() >= 0 ? FruitAction::Harvest : sale() ? FruitAction::Sell : FruitAction::None;
  }

  // --- What the base turn asks (state.cc), whatever the module ---
  // The follower is deployed off the placed tile (Wheel of Fortune: on a crown space).
  bool deploys_elsewhere() const { return bits_ & mask(kCrown); }
  // The placement carries what follows it on the tile (Fruit-Bearing Trees: a stack, a harvest or a sale).
  bool placement_extras() const { return bits_ & (mask(kFruitType) | mask(kHarvest) | mask(kSale)); }

  bool operator==(const MoveExt& o) const { return bits_ == o.bits_; }
  // The packed value (hashing and sorting only; not a wire format).
  uint32_t bits() const { return bits_; }

 private:
  struct Field {
    uint8_t shift, width;
  };
  static constexpr Field kTakeBack{0, 6}, kTakeBackCrown{6, 4}, kCrown{10, 4}, kPlague{14, 6}, kFruitType{20, 3},
      kHarvest{23, 3}, kSale{26, 6};
  static_assert(kMaxPlayers * kFollowersPerPlayer < (1 << 6) - 1, "a follower index + 1 fits 6 bits");
  static_assert(kMaxCrowns < (1 << 4) - 1, "a crown space + 1 fits 4 bits");
  static_assert(kFruitTypes < (1 << 3) - 1 && kFruitTypes <= 6, "a fruit type + 1 fits 3 bits, a set 6 bits");
  static constexpr uint32_t mask(Field f) { return ((1u << f.width) - 1) << f.shift; }
  static constexpr bool in_range(Field f, int v) { return v >= 0 && v < (1 << f.width); }
  int get(Field f) const { return int((bits_ & mask(f)) >> f.shift); }
  // Callers pass values in range (moves from outside are range-checked where they are read).
  void put(Field f, int v) {
    assert(in_range(f, v));
    if (!in_range(f, v)) v = 0;  // unreachable with checked input; never spills into another field
    bits_ = (bits_ & ~mask(f)) | uint32_t(v) << f.shift;
  }
  uint32_t bits_ = 0;
};
static_assert(sizeof(MoveExt) == 4, "the expansions' part of a Move is 32 bits");

}  // namespace carc
