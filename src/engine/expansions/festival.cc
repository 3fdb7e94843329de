// The Festival (rules: ../shared/rules, F-*): a festival tile lets its player take one of
// their own followers back (from the land, or from a crown space with the Wheel of Fortune,
// F-4) instead of deploying one; the take-back happens before scoring (F-3). The festival
// tiles are data (data/tiles/). Entered from the hook points listed in state.h.
#include "../state.h"
#include "options.h"

namespace carc {

// Move generation: the take-back options of the player to move.
void State::own_followers(TakeBacks& out) const {
  int n = 0;
  for (int i = 0; i < nfollowers_; ++i)
    if (followers_[i].player == player_) out.at[n++] = int8_t(i);
  out.nland = n;
  for (int c = 0; c < kMaxCrowns; ++c)
    if (mods_.wheel.crown[c] == player_) out.at[n++] = int8_t(c);
  out.n = n;
}

std::string State::why_not_take_back(const Move& m, const TileType& tt) const {
  if (!tt.festival) return "only a festival tile lets a player take a follower back";
  if (m.ext.take_back() >= 0 && m.ext.take_back_crown() >= 0) return "take back one follower, not two";
  if (const int c = m.ext.take_back_crown(); c >= 0) {
    if (c >= kMaxCrowns || mods_.wheel.crown[c] != player_) return "the player has no follower on that crown space";
  } else if (m.ext.take_back() >= nfollowers_ || followers_[m.ext.take_back()].player != player_) {
    return "that follower is not one of the player's own on the board";
  }
  return "";
}

// Before scoring (F-3); from a crown space too (F-4).
void State::apply_take_back(const Move& m) {
  if (const int c = m.ext.take_back_crown(); c >= 0) {
    mods_.wheel.crown[c] = -1;
    ++supply_[player_];
  } else {
    remove_follower(m.ext.take_back());
  }
}

}  // namespace carc
