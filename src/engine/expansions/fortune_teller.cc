// The Fortune Teller (rules: ../shared/rules, T-*): tents, the fortune teller on a tent, and
// the extra tiles drawn per fortune teller.
//
// Where its rules live (every one in this folder; state.cc calls the hooks):
// - draw: a player draws 1 tile + 1 per fortune teller (draw_target, here; the draw asks for
//   it under kSeveralDrawsModules); the base turn offers several drawn tiles once per type
//   (State::offers_moves), puts the ones not chosen back into the bag (State::apply) and
//   discards them all when none is placeable (State::draw_internal), for any draw of several.
// - a tent is a centre feature that needs its 4 orthogonal neighbours (fortune_teller.h:
//   centre_needs_orthogonal_only, read by State::place_tile); its follower is a fortune teller
//   (count_centre_follower, from add_follower and remove_follower).
// - at most two fortune tellers per player (T-10: centre_spot_allowed, from
//   State::free_from_ports; the refusal's wording: why_not_centre, here).
// - scoring a completed tent (score_module_kind, here).
// The tent tiles are data (data/tiles/).
#include "fortune_teller.h"

namespace carc {

int State::draw_target() const { return 1 + mods_.fortune.tents[player_]; }

// A completed tent (the one feature kind a module adds): the player who completed it scores 3
// (T-3: even when nobody is on it, unless the option says otherwise); nothing at the end of the
// game.
void State::score_module_kind(Feature& f, uint16_t root, bool final_scoring) {
  if (f.kind != Kind::Tent) return;
  if (!final_scoring && (f.total > 0 || rules().tent_scores_unoccupied)) emit(player_, 3, "tent", false, root);
}

// The refusal of a follower on a tent (T-10), or "".
std::string State::why_not_centre(Kind k) const {
  if (k != Kind::Tent || mods_.fortune.tents[player_] < kMaxTents) return "";
  return "player " + std::to_string(player_) + " already has " + std::to_string(kMaxTents) + " fortune tellers";
}

}  // namespace carc
