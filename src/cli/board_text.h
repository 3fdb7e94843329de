// Draws a board as text for the terminal: each tile is 7x3 characters, so roads and city
// walls line up across tiles. Legend: # city, ^ pennant, | - road, * road end/junction,
// M monastery, T tent, . field, digits 1..6 followers of players 1..6.
#pragma once

#include <string>
#include <vector>

#include "state.h"

namespace carc {

struct BoardTextOptions {
  bool color = false;          // ANSI colours
  bool coordinates = true;     // x/y rulers
  std::vector<std::pair<int, int>> marks;  // empty cells to label with letters (legal places)
};

std::string board_text(const State& s, const BoardTextOptions& opt = {});
// A single tile type in one rotation (for showing the drawn tile).
std::string tile_text(const TileType& t, int rot);

}  // namespace carc
