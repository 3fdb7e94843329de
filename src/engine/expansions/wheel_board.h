// The Wheel of Fortune's part of a board file (data/boards/): its "wheel" object, parsed by the
// module (tiles.cc's parse_board calls it when the field is there).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "../tiles.h"

namespace carc {

// Reads {"start": NAME, "segments": [{"name": EVENT, "crowns": 0..2}, ...]} into b.segments and
// b.start_segment; throws TileDataError naming `origin` and what is wrong.
void parse_wheel(const nlohmann::json& w, const std::string& origin, BoardFile& b);

}  // namespace carc
