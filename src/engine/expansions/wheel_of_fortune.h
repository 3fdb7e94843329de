// The Wheel of Fortune's inline hooks of the hot paths (State member functions declared in
// state_hooks.inc), for state.cc through inline_hooks.h.
#pragma once

#include "../state.h"

namespace carc {

// The module's own decision phase: the Plague (state.cc asks through these; any phase other
// than Chance, Place and Terminal is a module's).
inline bool State::module_phase() const { return phase_ == Phase::Plague; }
inline int State::module_phase_player() const { return mods_.wheel.plague_player; }
// A Plague move out of the Plague's phase; a placement naming the Plague's take-back (nullptr: neither).
inline const char* State::module_kind_refusal(const Move& m) const {
  return m.kind == MoveKind::Plague ? "no Plague decision is pending" : nullptr;
}
inline const char* State::module_part_refusal(const Move& m) const {
  return m.ext.plague() >= 0 ? "only a Plague decision takes a follower back for the Plague" : nullptr;
}
// The Plague's take-backs of the turn into its history (apply, after the placement is logged).
inline void State::log_module_turn(TurnLog& log) {
  if (mods_.wheel.nplague) log_plague(log);
}

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
