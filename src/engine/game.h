// A Game is the immutable part shared by every state of one rule variant: the tile types
// in play (base set plus expansion tiles), their counts, the start tile, and the
// placement lookup table. Games are cached and never freed; states hold a plain pointer.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "expansions/game_parts.h"
#include "rules.h"
#include "tiles.h"

namespace carc {

constexpr int kMaxTileTypes = 128;

// Per-feature counters, valid at the feature's root slot (16 bytes: one vector copy).
struct Feature {
  Kind kind;
  uint8_t pennants;
  uint8_t total;               // followers on the feature
  uint8_t done;                // scored and closed
  uint16_t open;               // road/city: unmatched edges; monastery/tent: missing neighbours
  uint16_t tiles;              // distinct tile positions
  uint16_t size;               // member slots
  uint8_t count[kMaxPlayers];  // followers per player
};
static_assert(sizeof(Feature) == 16, "a Feature is copied as one 16-byte vector");

// What placing a tile type in one rotation writes that does not depend on the board, built once
// per Game so State::place_tile copies it instead of working it out segment by segment.
struct PlaceTemplate {
  // The 16 lanes from PlacedTile::side_slot on (side_slot[4], half_slot[8], center_slot, ext
  // and a pad byte, then 2 lanes overwritten by x, y): lane = (slot_base & mask) + value, so a
  // segment's lane holds its segment index with mask 0xFFFF and an absent one kNoSlot with mask 0.
  alignas(16) uint16_t value[16];
  alignas(16) uint16_t mask[16];
  // Per side d: the need bits the neighbour cell on that side gets (edge type at its side
  // opposite(d)), and the ports of that cell (4 edges, then 8 half-edges) facing a segment.
  uint8_t need[4];
  uint16_t ports[4];
};

// GameParts (expansions/game_parts.h): the modules' per-variant data and their accessors.
class Game : public GameParts {
 public:
  // The cached game for these rules. Throws TileDataError / std::invalid_argument.
  static const Game* get(const Rules& rules);

  const Rules& rules() const { return rules_; }
  // The rows of kModules in play (Rules::modules()), one bit per row.
  ModuleSet modules() const { return modules_; }
  int num_types() const { return int(types_.size()); }
  const TileType& type(int i) const { return types_[i]; }
  // Index of a tile type by id, or -1.
  int type_index(std::string_view id) const;
  // The start tile (-1 when the game starts with a board) and its rotation.
  int start_type() const { return start_type_; }
  int start_rotation() const { return start_rot_; }
  // Wheel of Fortune: the start board's cells (tile type at x, y, rotation 0), placed before
  // the first turn instead of a start tile; their types have count 0.
  struct SetupCell {
    int type, x, y;
  };
  const std::vector<SetupCell>& board_cells() const { return board_cells_; }
  // Tiles on the board before the first turn (1 start tile, or the board's cells).
  int num_setup_tiles() const { return board_cells_.empty() ? 1 : int(board_cells_.size()); }
  // Tiles in the bag at the start (start tile already taken out).
  const std::vector<uint8_t>& initial_counts() const { return counts_; }
  int total_tiles() const { return total_; }

  // Rotations (bit r) of tile type t that fit a cell whose neighbours require `pattern`
  // (2 bits per side, 0 = no neighbour), restricted to distinct-looking rotations.
  uint8_t fits(int t, uint8_t pattern) const { return fit_[size_t(t) * 256 + pattern]; }
  // The row of fits() for one tile type, indexed by pattern.
  const uint8_t* fit_row(int t) const { return fit_.data() + size_t(t) * 256; }
  // Per pattern, the number of fitting rotations (popcount of fits()) of every tile type,
  // 16 bits per type, 4 types to a word (type t in word t / 4, bits 16 * (t % 4)):
  // fit_count_words() words per pattern (an even number). States keep their frontier's per-type placement
  // counts with these (a word-wide add per changed cell).
  const uint64_t* fit_count_row(uint8_t pattern) const {
    return fit_count_.data() + size_t(pattern) * size_t(fit_count_words_);
  }
  int fit_count_words() const { return fit_count_words_; }
  // The types counted there: 0 .. fit_count_types() - 1, every type that can be drawn.
  int fit_count_types() const { return fit_count_types_; }
  // What placing type t in rotation r writes (see PlaceTemplate), and each of its segments'
  // new Feature (rotation-independent; a centre's `open` is set by place_tile), padded to 16.
  const PlaceTemplate& place_template(int t, int r) const { return place_[size_t(t) * 4 + size_t(r)]; }
  const Feature* feature_template(int t) const { return feat_tmpl_.data() + size_t(t) * 16; }
  // Per segment of type t (padded to 16): kSharedBit when it is a road or city and the tile has
  // another segment of its kind (so one tile can lie in two features of that kind), else 0.
  static constexpr uint16_t kSharedBit = 0x8000;
  // The road and city segments of type t (bit i: segment i).
  uint16_t edge_segments(int t) const { return edge_segs_[size_t(t)]; }
  const uint16_t* shared_flags(int t) const { return shared_.data() + size_t(t) * 16; }
  // The types that can be drawn and fit a cell whose neighbours require `pattern` (fits() != 0), the most
  // numerous at the start first: [begin, end) of a list of type indices.
  std::pair<const uint16_t*, const uint16_t*> fit_types(uint8_t pattern) const {
    return {fit_types_.data() + fit_types_at_[pattern], fit_types_.data() + fit_types_at_[size_t(pattern) + 1]};
  }
  // Same, over all four rotations (for checking a recorded rotation).
  uint8_t fits_any(int t, uint8_t pattern) const { return fit_all_[size_t(t) * 256 + pattern]; }
  // True when a turn's moves are one drawn tile's placements x (no follower, a follower on each
  // segment) only: no Festival, Fortune Teller, Fruit-Bearing Trees, wheel or wheel/festival tile
  // (State::sample_move's short path).
  bool plain_moves() const { return plain_moves_; }

 private:
  explicit Game(const Rules& rules);
  void build_place_templates();
  Rules rules_;
  ModuleSet modules_ = 0;
  std::vector<TileType> types_;
  std::vector<uint8_t> counts_;
  std::vector<uint8_t> fit_, fit_all_;
  std::vector<uint64_t> fit_count_;
  std::vector<uint16_t> fit_types_;
  std::array<uint32_t, 257> fit_types_at_{};
  std::vector<PlaceTemplate> place_;
  std::vector<Feature> feat_tmpl_;
  std::vector<uint16_t> shared_;
  std::vector<uint16_t> edge_segs_;
  int fit_count_words_ = 0, fit_count_types_ = 0;
  int start_type_ = -1, start_rot_ = 0, total_ = 0;
  std::vector<SetupCell> board_cells_;
  bool plain_moves_ = false;
};

}  // namespace carc
