#include "notation.h"

#include <algorithm>

#include <string>

namespace carc {

namespace {

std::string at_text(int x, int y) { return "(" + std::to_string(x) + "," + std::to_string(y) + ")"; }

MoveResult bad(MoveStatus st, std::string why) {
  MoveResult r;
  r.status = st;
  r.error = std::move(why);
  return r;
}


MoveResult checked(const State& s, const Move& m) {
  MoveResult r;
  r.move = m;
  if (std::string err = s.check_move(m); !err.empty()) {
    r.status = MoveStatus::Illegal;
    r.error = std::move(err);
  }
  return r;
}

}  // namespace

int follower_at(const State& s, const ReturnSpec& at, int player) {
  const int pt = s.tile_at(at.x, at.y);
  if (pt < 0) return -1;
  const PlacedTile& P = s.placed(pt);
  const int seg = s.game().type(P.type).segment_at(at.at, P.rot);
  if (seg < 0) return -1;
  for (int i = 0; i < s.num_followers(); ++i)
    if (s.followers()[i].slot == P.slot_base + seg && s.followers()[i].player == player) return i;
  return -1;
}

MoveResult parse_move(const State& s, const NamedMove& n, const NotationOptions& opt) {
  const Game& g = s.game();
  // Every name is bounded before it is looked up or echoed in an error (the server's decoder
  // checks the same limit with its own field names; Python and records arrive here directly).
  {
    size_t longest = std::max({n.tile.size(), n.follower.size(), n.take_back ? n.take_back->at.size() : size_t(0)});
    if (MoveResult r; !modules_name_lengths(n, longest, r)) return r;
    if (longest > limits::kMaxRecordStringBytes)
      return bad(MoveStatus::Malformed, "a name in the move is " + std::to_string(longest) + " bytes; names have at most " +
                                            std::to_string(limits::kMaxRecordStringBytes));
  }
  if (MoveResult r; modules_parse_step(s, n, r) != NamePart::NotMine) return r;
  if (s.phase() != Phase::Place) return bad(MoveStatus::Illegal, "no tile to place now");
  // Which drawn tile: by index, by id (the first placeable one of that id), or the tile to place now.
  int choice = n.choice;
  if (choice >= s.num_drawn()) return bad(MoveStatus::Illegal, "no drawn tile number " + std::to_string(choice));
  if (choice >= 0 && !n.tile.empty() && g.type(s.drawn_tile(choice)).id != n.tile)
    return bad(MoveStatus::Illegal, "drawn tile " + std::to_string(choice) + " is " + g.type(s.drawn_tile(choice)).id +
                                        ", not " + n.tile);
  if (choice < 0 && !n.tile.empty()) {
    bool drawn = false;
    for (int i = 0; i < s.num_drawn() && choice < 0; ++i) {
      drawn |= g.type(s.drawn_tile(i)).id == n.tile;
      if (g.type(s.drawn_tile(i)).id == n.tile && s.drawn_placeable(i)) choice = i;
    }
    if (choice < 0)
      return bad(MoveStatus::Illegal, drawn ? "tile " + n.tile + " has no legal place anywhere"
                                            : "tile " + n.tile + " was not drawn (the tile to place is " +
                                                  g.type(s.current_tile()).id + ")");
  }
  if (choice < 0)
    for (int i = 0; i < s.num_drawn() && choice < 0; ++i)
      if (s.drawn_tile(i) == s.current_tile()) choice = i;
  if (choice < 0) return bad(MoveStatus::Illegal, "no drawn tile to play");
  const TileType& tt = g.type(s.drawn_tile(choice));
  Move m;
  m.choice = uint8_t(choice);
  if (n.kind == MoveKind::Choose) {
    m.kind = MoveKind::Choose;
    return checked(s, m);
  }
  if (n.rotation != 0 && n.rotation != 90 && n.rotation != 180 && n.rotation != 270)
    return bad(MoveStatus::Malformed, "rotation must be 0, 90, 180 or 270 (got " + std::to_string(n.rotation) + ")");
  // Coordinates no game can reach are refused before they are narrowed to the engine's 16 bits.
  if (n.x < -limits::kMaxCoordinate || n.x > limits::kMaxCoordinate || n.y < -limits::kMaxCoordinate || n.y > limits::kMaxCoordinate)
    return bad(MoveStatus::Illegal, "position " + at_text(n.x, n.y) + " is off the board (x and y lie within " +
                                        std::to_string(-limits::kMaxCoordinate) + ".." + std::to_string(limits::kMaxCoordinate) + ")");
  m.x = int16_t(n.x);
  m.y = int16_t(n.y);
  const int rot = n.rotation / 90;
  m.rot = tt.canonical_rot[rot];  // rotations that look the same are one move: the lowest
  MoveResult refusal;
  const NamePart follower = modules_parse_follower(s, n, m, refusal);
  if (follower == NamePart::Refused) return refusal;
  if (follower == NamePart::NotMine && !n.follower.empty()) {
    const int seg = tt.segment_at(n.follower, rot);
    if (seg < 0)
      return bad(MoveStatus::Illegal, "tile " + tt.id + " rotated " + std::to_string(n.rotation) +
                                          " has no follower location '" + n.follower + "'");
    m.meeple = int8_t(tt.segment_at(tt.location_name(seg, rot), m.rot));
  }
  const NamePart take_back = modules_parse_take_back(s, n, m, refusal);
  if (take_back == NamePart::Refused) return refusal;
  if (take_back == NamePart::NotMine && n.take_back) {
    const ReturnSpec& r = *n.take_back;
    const int pt = s.tile_at(r.x, r.y);
    if (pt < 0) return bad(MoveStatus::Illegal, "take_back: no tile at " + at_text(r.x, r.y));
    const PlacedTile& P = s.placed(pt);
    if (g.type(P.type).segment_at(r.at, P.rot) < 0)
      return bad(MoveStatus::Illegal, "take_back: no location '" + r.at + "' on that tile");
    const int i = follower_at(s, r, s.turn_player());
    if (i < 0)
      return bad(MoveStatus::Illegal, "take_back: player " + std::to_string(s.turn_player()) + " has no follower at " +
                                          at_text(r.x, r.y) + " " + r.at);
    m.ext.set_take_back(i);
  }
  if (!modules_parse_place(s, n, tt, opt, m, refusal)) return refusal;
  return checked(s, m);
}

NamedMove name_move(const State& s, const Move& m) {
  const Game& g = s.game();
  NamedMove n;
  n.kind = m.kind;
  if (modules_name_step(s, m, n)) return n;
  const TileType& tt = g.type(s.drawn_tile(m.choice));
  n.tile = tt.id;
  n.choice = m.choice;
  if (m.kind == MoveKind::Choose) return n;
  n.x = m.x;
  n.y = m.y;
  n.rotation = 90 * m.rot;
  if (!modules_name_follower(s, m, n) && m.meeple >= 0) n.follower = tt.location_name(m.meeple, m.rot);
  if (!modules_name_take_back(s, m, n) && m.ext.take_back() >= 0) n.take_back = follower_place(s, m.ext.take_back());
  modules_name_place(s, m, n);
  return n;
}

PendingTurn pending_of(const State& s) {
  PendingTurn p;
  for (const Draw& d : s.draws())
    if (d.turn > s.history().size()) p.draws.push_back(s.game().type(d.type).id);
  if (s.phase() != Phase::Place && !modules_pending_phase(s)) return p;
  modules_pending_of(s, p);  // the drawn tile chosen, the module decisions so far
  return p;
}

std::string apply_pending_draws(State& s, const PendingTurn& p) {
  for (size_t i = 0; i < p.draws.size(); ++i) {
    const std::string& id = p.draws[i];
    const std::string which = "saved draw " + std::to_string(i + 1) + " ('" + id + "')";
    if (!s.is_chance()) return which + ": no tile is to be drawn now";
    const int t = s.game().type_index(id);
    if (t < 0) return which + ": no such tile in tile set '" + s.rules().tileset + "'";
    if (s.bag_count(t) == 0) return which + ": no such tile left in the bag";
    s.apply_draw(t);
  }
  return "";
}

std::string apply_pending_decisions(State& s, const PendingTurn& p) {
  if (p.choice >= 0) {
    NamedMove n;
    n.kind = MoveKind::Choose;
    n.choice = p.choice;
    const MoveResult r = parse_move(s, n);
    if (!r.ok()) return "saved choice of drawn tile " + std::to_string(p.choice) + ": " + r.error;
    s.apply(r.move);
  }
  return modules_apply_pending(s, p);
}

std::string apply_pending(State& s, const PendingTurn& p) {
  if (std::string err = apply_pending_draws(s, p); !err.empty()) return err;
  if ((p.choice >= 0 || modules_pending_decisions(p)) && s.is_chance())
    return "the saved draws (" + std::to_string(p.draws.size()) + ") do not reach the decisions saved with them";
  return apply_pending_decisions(s, p);
}

}  // namespace carc
