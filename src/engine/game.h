// A Game is the immutable part shared by every state of one rule variant: the tile types
// in play (base set plus expansion tiles), their counts, the start tile, and the
// placement lookup table. Games are cached and never freed; states hold a plain pointer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rules.h"
#include "tiles.h"

namespace carc {

constexpr int kMaxTileTypes = 128;

class Game {
 public:
  // The cached game for these rules. Throws TileDataError / std::invalid_argument.
  static const Game* get(const Rules& rules);

  const Rules& rules() const { return rules_; }
  int num_types() const { return int(types_.size()); }
  const TileType& type(int i) const { return types_[i]; }
  // Index of a tile type by id, or -1.
  int type_index(std::string_view id) const;
  int start_type() const { return start_type_; }
  int start_rotation() const { return start_rot_; }
  // Tiles in the bag at the start (start tile already taken out).
  const std::vector<uint8_t>& initial_counts() const { return counts_; }
  int total_tiles() const { return total_; }

  // Rotations (bit r) of tile type t that fit a cell whose neighbours require `pattern`
  // (2 bits per side, 0 = no neighbour), restricted to distinct-looking rotations.
  uint8_t fits(int t, uint8_t pattern) const { return fit_[size_t(t) * 256 + pattern]; }
  // The row of fits() for one tile type, indexed by pattern.
  const uint8_t* fit_row(int t) const { return fit_.data() + size_t(t) * 256; }
  // Same, over all four rotations (for checking a recorded rotation).
  uint8_t fits_any(int t, uint8_t pattern) const { return fit_all_[size_t(t) * 256 + pattern]; }

 private:
  explicit Game(const Rules& rules);
  Rules rules_;
  std::vector<TileType> types_;
  std::vector<uint8_t> counts_;
  std::vector<uint8_t> fit_, fit_all_;
  int start_type_ = -1, start_rot_ = 0, total_ = 0;
};

}  // namespace carc
