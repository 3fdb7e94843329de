// The Fortune Teller's inline hooks (rules: ../shared/rules, T-*), for the hot paths of the
// base turn (state.cc: place_tile, the follower counts, the follower spots, the draw). The
// rest of its rules: fortune_teller.cc.
#pragma once

#include "../state.h"
#include "registry.h"

namespace carc {

// T-5: a tent is a centre feature that needs only its 4 orthogonal neighbours (a monastery
// needs all 8).
constexpr bool centre_needs_orthogonal_only(Kind k) { return k == Kind::Tent; }

// A follower joins (+1) or leaves (-1) a feature of kind k: one on a tent is a fortune teller.
inline void State::count_centre_follower(Kind k, int player, int delta) {
  if (k == Kind::Tent) mods_.fortune.tents[player] = uint8_t(mods_.fortune.tents[player] + delta);
}

// T-10: a player with two fortune tellers may not deploy a third (the tile's centre spot is
// refused); returns the follower spots without it.
inline uint32_t State::centre_spot_allowed(const TileType& tt, int player, uint32_t spots) const {
  if (tt.center >= 0 && mods_.fortune.tents[player] >= kMaxTents && tt.rot[0].seg[tt.center].kind == Kind::Tent)
    spots &= ~(1u << tt.center);
  return spots;
}

// The modules under which a player may draw several tiles a turn (T-6: draw_target()).
inline constexpr ModuleSet kSeveralDrawsModules = module_bit("fortune-teller");

}  // namespace carc
