// The modules' parts of the tile and board data (tiles.h), bases of TileType and BoardFile so
// that every reader sees the fields while the modules own them: a tile type's module flags
// (parsed by tile_fields.cc), a board file's wheel (parsed by wheel_board.cc).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace carc {

// Wheel of Fortune: the six events, in the engine's fixed numbering (the board file gives
// their clockwise order on the wheel).
enum class WheelEvent : uint8_t { Fortuna = 0, Taxes, Famine, Storm, Inquisition, Plague };
constexpr int kWheelEvents = 6;
extern const std::array<const char*, kWheelEvents> kWheelEventNames;  // fortuna taxes famine ...
constexpr int kMaxCrownsPerSegment = 2;

struct WheelSegment {
  WheelEvent event;
  int crowns = 0;  // crown spaces, 0..2
};

// A tile type's module flags and fields (TileType's base).
struct TileTypeParts {
  bool festival = false;  // The Festival: a festival tile
  bool tree = false;      // Fruit-Bearing Trees: a tree tile
  int wheel = 0;          // Wheel of Fortune pig number, 0 = none
  // True when the tile carries any module's symbol or field (board cells carry none).
  bool module_marked() const { return festival || tree || wheel; }
};

// A board cell's closed sides (edge letter W, RotatedTile::closed_sides) are the Wheel of
// Fortune's wheel sides: their name in the board reader's messages.
inline constexpr const char* kClosedSideName = "wheel side";

// The wheel's segments in clockwise order and where the pig starts (empty: no wheel).
struct BoardFileParts {
  std::vector<WheelSegment> segments;  // clockwise
  int start_segment = 0;               // where the pig starts
};

}  // namespace carc
