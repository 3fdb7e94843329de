// Helpers shared by the base game (state.cc) and the expansions (expansions/*.cc); not part
// of the engine's interface.
#pragma once

#include <cstdint>

#include "state.h"

namespace carc::internal {

// The 8 neighbours of a cell (x + kDx8[k], y + kDy8[k]).
constexpr int kDx8[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
constexpr int kDy8[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

// The last options of a sampled placement, after "no follower" and the follower spots: a free
// crown space (Wheel of Fortune; the sub-th set bit of `crowns`) or, past those, a take-back
// (Festival; own[sub - ncrowns]).
inline Move crown_or_take_back(Move m, uint32_t sub, uint32_t crowns, uint32_t ncrowns, const int8_t* own) {
  if (sub < ncrowns) {
    uint32_t c = crowns;
    for (; sub; --sub) c &= c - 1;
    m.meeple = int8_t(kCrownBase + __builtin_ctz(c));
    return m;
  }
  m.ret = own[sub - ncrowns];
  return m;
}

}  // namespace carc::internal
