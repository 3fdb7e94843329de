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

namespace carc {

// The last options of a sampled placement, after "no follower" and the follower spots: a free
// crown space (Wheel of Fortune; the sub-th set bit of `crowns`) or, past those, a take-back
// (Festival; own option sub - ncrowns).
inline Move State::crown_or_take_back(Move m, uint32_t sub, uint32_t crowns, uint32_t ncrowns, const TakeBacks& own) {
  if (sub < ncrowns) {
    uint32_t c = crowns;
    for (; sub; --sub) c &= c - 1;
    m.ext.set_crown(__builtin_ctz(c));
    return m;
  }
  own.put(m, int(sub - ncrowns));
  return m;
}

// The header of drawn tile c's group in the move samplers (see State::SampleGroup); the caller
// sets `weight` for a placement group (with fruit actions the options differ per placement).
inline bool State::sample_group(int c, bool deploy, uint32_t ncrowns, TakeBacks& own, SampleGroup& g) const {
  if (!offers_moves(c)) return false;
  const TileType& tt = game_->type(drawn_[c]);
  g.choice = uint8_t(c);
  g.choose = chosen_ < 0 && tt.wheel;
  if (g.choose) {
    g.per = g.weight = 1;
    g.segs = g.take_backs = g.placements = 0;
    return true;
  }
  if (tt.festival && own.n < 0) own_followers(own);
  g.take_backs = tt.festival ? uint32_t(own.n) : 0;
  g.segs = deploy ? uint32_t(tt.nseg) : 0;
  g.per = 1 + g.segs + ncrowns + g.take_backs;
  g.placements = uint32_t(fit_count(drawn_[c]));  // kept up to date: no scan
  return true;
}

}  // namespace carc
