// The Wheel of Fortune's inline hooks of the hot paths (State member functions declared in
// state_hooks.inc), for state.cc through inline_hooks.h.
#pragma once

#include "../state.h"

namespace carc {

// A new placement decision: no drawn tile chosen yet (the Choose decision, T-9).
inline void State::clear_choice() { mods_.wheel.chosen = -1; }

// The turn's only drawn tile: a wheel tile turns the wheel now, before it is placed.
inline void State::single_tile_drawn(int type) {
  if (game_->has_wheel() && game_->type(type).wheel) {
    mods_.wheel.chosen = 0;
    start_wheel(type);
  }
}

}  // namespace carc
