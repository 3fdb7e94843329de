// Tile types as data: parsed from the JSON tile-set files in data/tiles/ (embedded in the
// binary at build time, or read from a directory given at run time), validated, and
// expanded into per-rotation lookup tables that the hot paths use.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "expansions/data_parts.h"
#include "types.h"

namespace carc {

// A broken tile file: the message names the file, the tile and the problem.
class TileDataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One segment of a tile in one rotation (board-oriented).
struct Segment {
  Kind kind = Kind::Field;
  uint8_t edges = 0;      // Road/City: bit d set when the segment touches side d.
  uint8_t halves = 0;     // Field: bit h set when the segment touches half-edge h.
  uint8_t pennants = 0;   // City only.
  uint16_t adj_cities = 0;  // Field: bit i set when it touches city segment i of this tile.
};

// A tile type turned by one rotation. Segment indices are the same in every rotation.
struct RotatedTile {
  uint8_t pattern = 0;           // edge types, 2 bits per side (side d at bits 2d..2d+1)
  int8_t edge_seg[4] = {-1, -1, -1, -1};   // road/city segment on side d, or -1 (field edge)
  int8_t half_seg[8] = {-1, -1, -1, -1, -1, -1, -1, -1};  // field segment on half h, or -1
  Segment seg[kMaxSegments];
  // Board cells: bit d set when side d is closed (edge letter W in the data: the Wheel of
  // Fortune's wheel sides). A closed side matches nothing and joins nothing: it has no segment,
  // its pattern bits are 0, and a board is only valid when each closed side faces a closed side
  // of another of its cells, so no tile is ever placed against one.
  uint8_t closed_sides = 0;
  Edge edge(int side) const { return Edge((pattern >> (2 * side)) & 3); }
};

// TileTypeParts (expansions/data_parts.h): the modules' flags (festival, tree, wheel).
struct TileType : TileTypeParts {
  std::string id;       // "A".."X", "FE01", "E@2", ...
  std::string set;      // tile-set file it came from: "base", "festival", ...
  std::string note;     // human description from the data file
  int count = 0;
  int nseg = 0;
  int center = -1;      // segment index of the monastery or tent, or -1
  uint8_t kind_count[kNumKinds] = {};
  RotatedTile rot[4];
  uint8_t distinct_rotations = 0x1;  // bit r set when rotation r differs from every lower one
  uint8_t canonical_rot[4] = {0, 1, 2, 3};  // the lowest rotation that looks the same as r

  // Name of a segment's location on the board in rotation r ("N", "Sw", "C", "inner").
  std::string location_name(int seg, int r) const;
  // Segment named by a location in rotation r, or -1.
  int segment_at(std::string_view loc, int r) const;
};

// A parsed tile-set file.
struct TileSetFile {
  std::string name;
  int version = 0;  // the file's "version" (0 when it has none); records name it (see record.h)
  std::string version_note;  // "version_note": what the version means for older records
  std::string description;
  std::optional<std::pair<std::string, int>> start;  // start tile id and rotation
  std::string board;  // a start board instead of a start tile (Wheel of Fortune), or ""
  std::vector<TileType> tiles;
};

// A start board (data/boards/NAME.json): several tile cells placed before the first turn,
// each written in the tile notation at rotation 0, and the wheel's segments in clockwise order.
struct BoardCell {
  int x = 0, y = 0;
  TileType tile;  // id "board:X:Y", count 0
};
// The modules' part (BoardFileParts: the wheel's segments) is parsed by the modules.
struct BoardFile : BoardFileParts {
  std::string name;
  std::string description;
  std::vector<BoardCell> cells;
};

// Parses and validates a board document (cells fit each other, segments name each event once).
BoardFile parse_board(const std::string& json_text, const std::string& origin);
// Loads a board by name: $CARCASSONNE_DATA/boards/NAME.json or the embedded copy. Cached.
const BoardFile& load_board(const std::string& name);

// Parses and validates one tile-set JSON document. `origin` names it in error messages.
TileSetFile parse_tile_set(const std::string& json_text, const std::string& origin);

// Loads a tile set by name ("base", "festival", ...): from $CARCASSONNE_DATA/tiles/NAME.json
// when that variable is set, otherwise from the copy embedded at build time.
// Throws TileDataError on any problem. Results are cached.
const TileSetFile& load_tile_set(const std::string& name);

// The raw text of an embedded tile set, or nullptr.
const char* embedded_tile_set(const std::string& name);
// The raw text of an embedded data file ("tiles/base", "boards/wheel-of-fortune"), or nullptr.
const char* embedded_data(const std::string& path);
std::vector<std::string> embedded_tile_set_names();

}  // namespace carc
