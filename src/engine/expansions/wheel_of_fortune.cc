// The Wheel of Fortune (rules: ../shared/rules, W-*): the board and its crown spaces, the pig
// turned by a drawn wheel tile, the wheel's events (Fortuna, taxes, famine, storm,
// inquisition, Plague), the scoring of crown spaces, and the two decisions that are not
// placements (Choose a wheel tile among several drawn; Plague take-back).
//
// The board itself is data (data/boards/): its cells are placed like tiles before the first
// turn (State::init), so nothing here joins features. Entered from the hook points listed in
// state.h.
#include <algorithm>
#include <cassert>

#include "../state.h"

namespace carc {

std::string State::why_not_place_yet(const TileType& tt) const {
  if (mods_.wheel.chosen < 0 && tt.wheel)
    return "tile " + tt.id + " is a wheel tile: choose it first (the wheel turns before it is placed)";
  return "";
}

// Move generation: a follower may go on any free crown space instead of on the placed tile.
uint32_t State::free_crown_mask() const {
  static_assert(kMaxCrowns <= 32, "crown spaces fit a mask");
  const uint32_t exists = game_->crown_mask();  // 0 without a wheel
  if (!exists) return 0;
  uint32_t free = 0;
  for (int c = 0; c < kMaxCrowns; ++c) free |= uint32_t(mods_.wheel.crown[c] < 0) << c;
  return free & exists;
}

// The Plague's decisions: one of the deciding player's followers on the land (crown spaces
// are immune).
void State::module_phase_moves(std::vector<Move>& out) const {
  for (int i = 0; i < nfollowers_; ++i) {
    if (followers_[i].player != mods_.wheel.plague_player) continue;
    const PlacedTile& P = placed_[owner_[followers_[i].slot]];
    Move m;
    m.kind = MoveKind::Plague;
    m.x = P.x;
    m.y = P.y;
    m.ext.set_plague(i);
    out.push_back(m);
  }
}

// The k-th of module_phase_moves() (the same draw as module_phase_moves()[below(n)]).
Move State::module_phase_sample(Rng& rng) const {
  uint32_t n = 0;
  for (int i = 0; i < nfollowers_; ++i) n += followers_[i].player == mods_.wheel.plague_player;
  uint32_t k = rng.below(n);
  Move m;
  m.kind = MoveKind::Plague;
  for (int i = 0; i < nfollowers_; ++i) {
    if (followers_[i].player != mods_.wheel.plague_player || k-- != 0) continue;
    const PlacedTile& P = placed_[owner_[followers_[i].slot]];
    m.x = P.x;
    m.y = P.y;
    m.ext.set_plague(i);
    break;
  }
  return m;
}

// The Plague's decision is the module phase's (check_move).
std::string State::check_module_phase(const Move& m) const {
  const std::string who = "player " + std::to_string(mods_.wheel.plague_player);
  if (m.kind != MoveKind::Plague) return who + " must first take back a follower from the land (Plague)";
  const int i = m.ext.plague();
  if (i < 0 || i >= nfollowers_ || followers_[i].player != mods_.wheel.plague_player)
    return "that follower is not one of " + who + "'s on the land (crown spaces are immune)";
  const PlacedTile& P = placed_[owner_[followers_[i].slot]];
  if (m.x != P.x || m.y != P.y)
    return "that follower stands at (" + std::to_string(P.x) + "," + std::to_string(P.y) + "), not at (" +
           std::to_string(m.x) + "," + std::to_string(m.y) + ")";
  return "";
}

// Choose (T-9 with the wheel): among several drawn tiles, a wheel tile is chosen first.
std::string State::check_choose(const Move& m, const TileType& tt) const {
  if (mods_.wheel.chosen >= 0) return "the tile to play is already chosen";
  if (!tt.wheel) return "tile " + tt.id + " has no wheel number: place it directly";
  Move bare;
  bare.kind = MoveKind::Choose;
  bare.choice = m.choice;
  if (!(m == bare)) return "a Choose move names only the drawn tile (no place, follower or fruit)";
  return "";
}

// A follower deployed on a crown space (check_move, when the generator does not offer it).
std::string State::why_not_elsewhere(const Move& m) const {
  if (m.meeple >= 0) return "a follower goes on the tile or on a crown space, not both";
  const int c = m.ext.crown();
  if (!game_->crown_exists(c)) return "no such crown space";
  if (supply_[player_] == 0) return "player " + std::to_string(player_) + " has no follower left";
  if (mods_.wheel.crown[c] >= 0) return game_->crown_name(c) + " is already occupied";
  return "";
}

void State::deploy_elsewhere(const Move& m) {
  mods_.wheel.crown[m.ext.crown()] = int8_t(player_);
  --supply_[player_];
}

// The Plague's take-backs of this turn go into the turn's history with the placement.
void State::log_plague(TurnLog& log) {
  log.mods.nplague = mods_.wheel.nplague;
  log.mods.plague = mods_.wheel.plague_log;
  log.mods.plague_player = mods_.wheel.plague_who;
  mods_.wheel.nplague = 0;
}

// The Wheel of Fortune's moves that are not placements: Choose and the Plague's take-back.
void State::apply_module_move(const Move& m) {
  if (m.kind == MoveKind::Choose) {
    mods_.wheel.chosen = int8_t(m.choice);
    placeable_ = uint8_t(1u << m.choice);  // only the chosen tile is placed now
    start_wheel(drawn_[m.choice]);
    return;
  }
  assert(phase_ == Phase::Plague && m.kind == MoveKind::Plague);
  const Follower fo = followers_[m.ext.plague()];
  mods_.wheel.plague_who[mods_.wheel.nplague] = fo.player;
  mods_.wheel.plague_log[mods_.wheel.nplague++] = fo.slot;
  if (log_.p) {
    const PlacedTile& P = placed_[owner_[fo.slot]];
    ScoreEvent e{turn_ + 1, fo.player, 0, "plague", false, P.x, P.y, -1, -1, 0, {}, {}};
    e.segment = mods_.wheel.pig;
    e.at = game_->type(P.type).location_name(fo.slot - P.slot_base, P.rot);
    log_.p->push_back(std::move(e));
  }
  remove_follower(m.ext.plague());
  ++mods_.wheel.plague_step;
  next_plague();
}

void State::start_wheel(int type) {
  const int n = game_->type(type).wheel;
  const auto& wheel = game_->wheel();
  if (!n || wheel.empty()) return;
  const int from = mods_.wheel.pig;
  mods_.wheel.pig = uint8_t((mods_.wheel.pig + n) % wheel.size());
  const int turn = turn_ + 1, seg = mods_.wheel.pig;
  const uint16_t board = placed_[0].slot_base;  // scoring events of the wheel name the board
  if (log_.p) {
    ScoreEvent e{turn, player_, 0, "pig", false, placed_[0].x, placed_[0].y, -1, -1, 0, {}, {}};
    e.segment = seg;
    e.from = from;
    e.steps = n;
    e.tile = game_->type(type).id;
    log_.p->push_back(std::move(e));
  }
  switch (wheel[mods_.wheel.pig].event) {
    case WheelEvent::Fortuna:
      emit(player_, 3, "fortuna", false, board, turn, seg);
      break;
    case WheelEvent::Taxes: {
      // Per knight: the city's pennants + the owner's knights in that city (W-12).
      uint16_t roots[kMaxFollowers];
      int nr = 0;
      for (int i = 0; i < nfollowers_; ++i) {
        const uint16_t r = label_[followers_[i].slot];
        if (feat_[r].kind == Kind::City && std::find(roots, roots + nr, r) == roots + nr) roots[nr++] = r;
      }
      for (int i = 0; i < nr; ++i) {
        const Feature& f = feat_[roots[i]];
        for (int p = 0; p < nplayers_; ++p)
          if (f.count[p]) emit(p, f.count[p] * (f.pennants + f.count[p]), "taxes", false, roots[i], turn, seg);
      }
      break;
    }
    case WheelEvent::Famine:
      // Per farmer, no majority: 1 per completed city next to its field (W-13).
      for (int i = 0; i < nfollowers_; ++i) {
        const uint16_t r = label_[followers_[i].slot];
        if (feat_[r].kind == Kind::Field) emit(followers_[i].player, field_value(r) / 3, "famine", false, r, turn, seg);
      }
      break;
    case WheelEvent::Storm:
      // 1 per follower in the supply (not on the land, not on crown spaces: W-11).
      for (int p = 0; p < nplayers_; ++p) emit(p, supply_[p], "storm", false, board, turn, seg);
      break;
    case WheelEvent::Inquisition:
      for (int i = 0; i < nfollowers_; ++i) {
        const uint16_t r = label_[followers_[i].slot];
        if (feat_[r].kind == Kind::Monastery) emit(followers_[i].player, 2, "inquisition", false, r, turn, seg);
      }
      break;
    case WheelEvent::Plague:
      // Every player with a follower on the land takes one back, the active player first
      // (W-14); the crown spaces are scored when the last has chosen.
      mods_.wheel.plague_step = 0;
      next_plague();
      return;
  }
  score_crowns();
}

void State::next_plague() {
  for (; mods_.wheel.plague_step < nplayers_; ++mods_.wheel.plague_step) {
    const int p = (player_ + mods_.wheel.plague_step) % nplayers_;
    for (int i = 0; i < nfollowers_; ++i)
      if (followers_[i].player == p) {
        phase_ = Phase::Plague;
        mods_.wheel.plague_player = uint8_t(p);
        return;
      }
  }
  phase_ = Phase::Place;
  score_crowns();
}

void State::score_crowns() {
  // Only the pig's segment: 3 on a one-space segment; 6 alone on a two-space segment, 3 each
  // when both are taken. Those followers go back to their owners.
  const int seg = mods_.wheel.pig, n = game_->wheel()[seg].crowns;
  int occupied[kMaxCrownsPerSegment], k = 0;
  for (int i = 0; i < n; ++i)
    if (mods_.wheel.crown[game_->crown_at(seg, i)] >= 0) occupied[k++] = game_->crown_at(seg, i);
  const int points = n == 1 ? 3 : k == 1 ? 6 : 3;
  for (int i = 0; i < k; ++i) {
    const int p = mods_.wheel.crown[occupied[i]];
    emit(p, points, "crown", false, placed_[0].slot_base, turn_ + 1, seg);
    mods_.wheel.crown[occupied[i]] = -1;
    ++supply_[p];
  }
}

}  // namespace carc
