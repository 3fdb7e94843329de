// Helpers shared by the base game (state.cc) and the expansions (expansions/*.cc); not part
// of the engine's interface.
#pragma once

#include <cstdint>

#include "state.h"

namespace carc::internal {

// The 8 neighbours of a cell (x + kDx8[k], y + kDy8[k]).
constexpr int kDx8[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
constexpr int kDy8[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

}  // namespace carc::internal
