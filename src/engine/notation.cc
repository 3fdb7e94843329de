#include "notation.h"

#include <algorithm>

#include <string>

namespace carc {

int fruit_index(const std::string& name) {
  for (int f = 0; f < kFruitTypes; ++f)
    if (name == kFruitNames[f]) return f;
  return -1;
}

std::string fruit_list() {
  std::string s;
  for (int f = 0; f < kFruitTypes; ++f) s += (f ? ", " : "") + std::string(kFruitNames[f]);
  return s;
}

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
    size_t longest = std::max({n.tile.size(), n.follower.size(), n.fruit_type.size(),
                               n.take_back ? n.take_back->at.size() : size_t(0)});
    if (n.sell.size() > size_t(kFruitTypes)) return bad(MoveStatus::Malformed, "at most " + std::to_string(kFruitTypes) + " fruit kinds are sold");
    for (const auto& f : n.sell) longest = std::max(longest, f.size());
    if (longest > limits::kMaxRecordStringBytes)
      return bad(MoveStatus::Malformed, "a name in the move is " + std::to_string(longest) + " bytes; names have at most " +
                                            std::to_string(limits::kMaxRecordStringBytes));
  }
  if (n.kind == MoveKind::Plague) {
    if (s.phase() != Phase::Plague) return bad(MoveStatus::Illegal, "no Plague decision is pending");
    if (!n.take_back) return bad(MoveStatus::Malformed, "a Plague decision names the follower taken back");
    const ReturnSpec& at = *n.take_back;
    if (at.crown())
      return bad(MoveStatus::Illegal, "followers on crown spaces are immune to the Plague: take back one from the land");
    const int p = s.plague_player();
    Move m;
    m.kind = MoveKind::Plague;
    m.x = int16_t(at.x);
    m.y = int16_t(at.y);
    const int i = follower_at(s, at, p);
    if (i < 0)
      return bad(MoveStatus::Illegal,
                 "player " + std::to_string(p) + " has no follower at " + at_text(at.x, at.y) + " " + at.at);
    m.ext.set_plague(i);
    return checked(s, m);
  }
  if (s.phase() == Phase::Plague)
    return bad(MoveStatus::Illegal, "player " + std::to_string(s.plague_player()) +
                                        " must first take back a follower from the land (Plague)");
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
  if (ReturnSpec{0, 0, n.follower}.crown()) {
    if (!s.has_wheel())
      return bad(MoveStatus::Illegal, "crown spaces are on the Wheel of Fortune, which this game does not have");
    const int c = g.crown_index(n.follower);
    if (c < 0) return bad(MoveStatus::Illegal, "no crown space '" + n.follower + "' on this wheel");
    m.ext.set_crown(c);
  } else if (!n.follower.empty()) {
    const int seg = tt.segment_at(n.follower, rot);
    if (seg < 0)
      return bad(MoveStatus::Illegal, "tile " + tt.id + " rotated " + std::to_string(n.rotation) +
                                          " has no follower location '" + n.follower + "'");
    m.meeple = int8_t(tt.segment_at(tt.location_name(seg, rot), m.rot));
  }
  if (n.take_back && n.take_back->crown()) {
    const ReturnSpec& r = *n.take_back;
    const int c = s.has_wheel() ? g.crown_index(r.at) : -1;
    if (c < 0) return bad(MoveStatus::Illegal, "return: no crown space '" + r.at + "' in this game");
    if (s.crown(c) != s.turn_player())
      return bad(MoveStatus::Illegal, "return: player " + std::to_string(s.turn_player()) + " has no follower on " + r.at);
    m.ext.set_take_back_crown(c);
  } else if (n.take_back) {
    const ReturnSpec& r = *n.take_back;
    const int pt = s.tile_at(r.x, r.y);
    if (pt < 0) return bad(MoveStatus::Illegal, "return: no tile at " + at_text(r.x, r.y));
    const PlacedTile& P = s.placed(pt);
    if (g.type(P.type).segment_at(r.at, P.rot) < 0)
      return bad(MoveStatus::Illegal, "return: no location '" + r.at + "' on that tile");
    const int i = follower_at(s, r, s.turn_player());
    if (i < 0)
      return bad(MoveStatus::Illegal, "return: player " + std::to_string(s.turn_player()) + " has no follower at " +
                                          at_text(r.x, r.y) + " " + r.at);
    m.ext.set_take_back(i);
  }
  if (!n.fruit_type.empty()) {
    const int f = fruit_index(n.fruit_type);
    if (f < 0) return bad(MoveStatus::Malformed, "unknown fruit type '" + n.fruit_type + "' (" + fruit_list() + ")");
    m.ext.set_fruit_type(f);
  } else if (tt.tree && opt.default_fruit_stack) {
    for (int f = 0; f < kFruitTypes && m.ext.fruit_type() < 0; ++f)
      if (s.fruit_tree(f) < 0) m.ext.set_fruit_type(f);
  } else if (tt.tree) {
    return bad(MoveStatus::Illegal, "tile " + tt.id + " is a tree tile: 'fruit_type' must name the stack put on it");
  }
  if (n.harvest && !n.sell.empty()) return bad(MoveStatus::Malformed, "one fruit action: harvest or sell, not both");
  if (n.harvest) {
    const auto [hx, hy] = *n.harvest;
    int f = hx == n.x && hy == n.y && tt.tree ? m.ext.fruit_type() : -1;
    const int pt = s.tile_at(hx, hy);
    if (f < 0 && pt >= 0) f = s.placed(pt).fruit;
    if (f < 0) return bad(MoveStatus::Illegal, "harvest: no tree at " + at_text(hx, hy));
    m.ext.set_harvest(f);
  } else if (!n.sell.empty()) {
    uint32_t sale = 0;
    for (const std::string& name : n.sell) {
      const int f = fruit_index(name);
      if (f < 0) return bad(MoveStatus::Malformed, "unknown fruit type '" + name + "' (" + fruit_list() + ")");
      if (sale >> f & 1) return bad(MoveStatus::Malformed, "a sale names each fruit type once ('" + name + "' twice)");
      sale |= 1u << f;
    }
    m.ext.set_sale(sale);
  }
  return checked(s, m);
}

NamedMove name_move(const State& s, const Move& m) {
  const Game& g = s.game();
  NamedMove n;
  n.kind = m.kind;
  if (m.kind == MoveKind::Plague) {
    n.take_back = follower_place(s, m.ext.plague());
    return n;
  }
  const TileType& tt = g.type(s.drawn_tile(m.choice));
  n.tile = tt.id;
  n.choice = m.choice;
  if (m.kind == MoveKind::Choose) return n;
  n.x = m.x;
  n.y = m.y;
  n.rotation = 90 * m.rot;
  if (m.ext.crown() >= 0) n.follower = g.crown_name(m.ext.crown());
  else if (m.meeple >= 0) n.follower = tt.location_name(m.meeple, m.rot);
  if (m.ext.take_back_crown() >= 0) n.take_back = ReturnSpec{0, 0, g.crown_name(m.ext.take_back_crown())};
  else if (m.ext.take_back() >= 0) n.take_back = follower_place(s, m.ext.take_back());
  if (m.ext.fruit_type() >= 0) n.fruit_type = kFruitNames[m.ext.fruit_type()];
  if (m.ext.harvest() >= 0) {
    const int pt = s.fruit_tree(m.ext.harvest());
    n.harvest = pt >= 0 ? std::make_pair(int(s.placed(pt).x), int(s.placed(pt).y)) : std::make_pair(n.x, n.y);
  } else if (const uint32_t sale = m.ext.sale()) {
    for (int f = 0; f < kFruitTypes; ++f)
      if (sale >> f & 1) n.sell.push_back(kFruitNames[f]);
  }
  return n;
}

PendingTurn pending_of(const State& s) {
  PendingTurn p;
  for (const Draw& d : s.draws())
    if (d.turn > s.history().size()) p.draws.push_back(s.game().type(d.type).id);
  if (s.phase() != Phase::Place && s.phase() != Phase::Plague) return p;
  if (s.chosen() >= 0 && s.num_drawn() > 1) p.choice = s.chosen();
  for (int i = 0; i < s.num_plague_picks(); ++i) p.plague.push_back(slot_place(s, s.plague_pick(i)));
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
  for (size_t i = 0; i < p.plague.size(); ++i) {
    NamedMove n;
    n.kind = MoveKind::Plague;
    n.take_back = p.plague[i];
    const MoveResult r = parse_move(s, n);
    if (!r.ok())
      return "saved Plague take-back " + std::to_string(i + 1) + " (" + at_text(p.plague[i].x, p.plague[i].y) + " " +
             p.plague[i].at + "): " + r.error;
    s.apply(r.move);
  }
  return "";
}

std::string apply_pending(State& s, const PendingTurn& p) {
  if (std::string err = apply_pending_draws(s, p); !err.empty()) return err;
  if ((p.choice >= 0 || !p.plague.empty()) && s.is_chance())
    return "the saved draws (" + std::to_string(p.draws.size()) + ") do not reach the decisions saved with them";
  return apply_pending_decisions(s, p);
}

}  // namespace carc
