// The Festival (rules: ../shared/rules, F-*): a festival tile lets its player take one of
// their own followers back (from the land, or from a crown space with the Wheel of Fortune,
// F-4) instead of deploying one; the take-back happens before scoring (F-3). The festival
// tiles are data (data/tiles/). Entered from the hook points listed in state.h.
#include "../state.h"

namespace carc {

// Move generation: the take-back options of the player to move.
int State::own_followers(int8_t* out) const {
  int n = 0;
  for (int i = 0; i < nfollowers_; ++i)
    if (followers_[i].player == player_) out[n++] = int8_t(i);
  for (int c = 0; c < kMaxCrowns; ++c)
    if (crown_[c] == player_) out[n++] = int8_t(kCrownBase + c);
  return n;
}

std::string State::check_take_back(const Move& m, const TileType& tt) const {
  if (!tt.festival) return "only a festival tile lets a player take a follower back";
  if (m.ret >= kCrownBase) {
    const int c = m.ret - kCrownBase;
    if (c >= kMaxCrowns || crown_[c] != player_) return "the player has no follower on that crown space";
  } else if (m.ret >= nfollowers_ || followers_[m.ret].player != player_) {
    return "that follower is not one of the player's own on the board";
  }
  return "";
}

// Before scoring (F-3); from a crown space too (F-4).
void State::apply_take_back(const Move& m) {
  if (m.ret >= kCrownBase) {
    crown_[m.ret - kCrownBase] = -1;
    ++supply_[player_];
  } else {
    remove_follower(m.ret);
  }
}

}  // namespace carc
