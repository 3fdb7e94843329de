// The modules' parts of a tile entry (tiles.cc's parse_tile): the fields, symbols and centre
// features each expansion adds to the tile data, parsed by the module into TileType.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>

#include "../tiles.h"

namespace carc {

// The tile-entry fields the modules add (the Wheel of Fortune's "wheel": a wheel tile's pig move).
inline constexpr std::array<const char*, 1> kModuleTileKeys = {"wheel"};
// A symbol a module defines ("festival"): sets its flag on `t`; false when no module knows it.
bool modules_tile_symbol(const std::string& symbol, TileType& t);
// A centre feature a module adds ("tent"): its kind into `kind`; false when no module knows it.
bool modules_centre_kind(const std::string& name, Kind& kind);
// The modules' centre feature names for messages ("tent").
std::string modules_centre_names();
// The modules' fields of tile entry `j` into `t`: "" or what is wrong (the caller names the tile).
std::string modules_tile_fields(const nlohmann::json& j, TileType& t);

// The fields the modules add to a board file (the Wheel of Fortune's "wheel"), and their reader
// (parse_board, after the cells): throws TileDataError naming `origin` (wheel_board.cc).
inline constexpr std::array<const char*, 1> kModuleBoardKeys = {"wheel"};
void modules_board_fields(const nlohmann::json& doc, const std::string& origin, BoardFile& b);

}  // namespace carc
