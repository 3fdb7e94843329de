// The Fortune Teller (rules: ../shared/rules, T-*): tents, the fortune teller on a tent, and
// the extra tiles drawn per fortune teller.
//
// Where its rules live:
// - draw: a player draws 1 tile + 1 per fortune teller (draw_target, here); several drawn
//   tiles are offered once per type (State::offers_moves) and the ones not chosen go back
//   into the bag (State::apply); none placeable: all are discarded (State::draw_internal).
// - a tent is a centre feature that needs its 4 orthogonal neighbours (State::place_tile,
//   Kind::Tent); its follower is a fortune teller (State::add_follower counts tents_).
// - at most two fortune tellers per player (T-10: State::free_from_ports).
// - scoring a completed tent (score_tent, here).
// The tent tiles are data (data/tiles/).
#include "../state.h"

namespace carc {

int State::draw_target() const { return 1 + tents_[player_]; }

// The player who completed the tent scores 3 (T-3: even when nobody is on it, unless the
// option says otherwise); nothing at the end of the game.
void State::score_tent(const Feature& f, uint16_t root, bool final_scoring) {
  if (!final_scoring && (f.total > 0 || rules().tent_scores_unoccupied)) emit(player_, 3, "tent", false, root);
}

}  // namespace carc
