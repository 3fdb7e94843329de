// The modules' parts of the notation (notation_parts.h), one section per module, entered by
// notation.cc at fixed points. Each part checks and words its refusals as before the split.
#include "notation_parts.h"

#include <algorithm>

#include "../notation.h"

namespace carc {

namespace {

std::string at_text(int x, int y) { return "(" + std::to_string(x) + "," + std::to_string(y) + ")"; }

NamePart refuse(MoveResult& out, MoveStatus st, std::string why) {
  out = MoveResult{};
  out.status = st;
  out.error = std::move(why);
  return NamePart::Refused;
}

void checked(const State& s, const Move& m, MoveResult& out) {
  out = MoveResult{};
  out.move = m;
  if (std::string err = s.check_move(m); !err.empty()) {
    out.status = MoveStatus::Illegal;
    out.error = std::move(err);
  }
}

}  // namespace

// --- Wheel of Fortune: crown spaces and the Plague ---

NamePart modules_parse_step(const State& s, const NamedMove& n, MoveResult& out) {
  if (n.kind == MoveKind::Plague) {
    if (s.phase() != Phase::Plague) return refuse(out, MoveStatus::Illegal, "no Plague decision is pending");
    if (!n.take_back) return refuse(out, MoveStatus::Malformed, "a Plague decision names the follower taken back");
    const ReturnSpec& at = *n.take_back;
    if (at.crown())
      return refuse(out, MoveStatus::Illegal,
                    "followers on crown spaces are immune to the Plague: take back one from the land");
    const int p = s.mod<WheelBlock>().plague_decider();
    Move m;
    m.kind = MoveKind::Plague;
    m.x = int16_t(at.x);
    m.y = int16_t(at.y);
    const int i = follower_at(s, at, p);
    if (i < 0)
      return refuse(out, MoveStatus::Illegal,
                    "player " + std::to_string(p) + " has no follower at " + at_text(at.x, at.y) + " " + at.at);
    m.ext.set_plague(i);
    checked(s, m, out);
    return NamePart::Done;
  }
  if (s.phase() == Phase::Plague)
    return refuse(out, MoveStatus::Illegal,
                  "player " + std::to_string(s.mod<WheelBlock>().plague_decider()) +
                      " must first take back a follower from the land (Plague)");
  return NamePart::NotMine;
}

NamePart modules_parse_follower(const State& s, const NamedMove& n, Move& m, MoveResult& out) {
  if (!ReturnSpec{0, 0, n.follower}.crown()) return NamePart::NotMine;
  if (!s.game().has_wheel())
    return refuse(out, MoveStatus::Illegal,
                  "crown spaces are on the Wheel of Fortune, which this game does not have");
  const int c = s.game().crown_index(n.follower);
  if (c < 0) return refuse(out, MoveStatus::Illegal, "no crown space '" + n.follower + "' on this wheel");
  m.ext.set_crown(c);
  return NamePart::Done;
}

NamePart modules_parse_take_back(const State& s, const NamedMove& n, Move& m, MoveResult& out) {
  if (!n.take_back || !n.take_back->crown()) return NamePart::NotMine;
  const ReturnSpec& r = *n.take_back;
  const int c = s.game().has_wheel() ? s.game().crown_index(r.at) : -1;
  if (c < 0) return refuse(out, MoveStatus::Illegal, "take_back: no crown space '" + r.at + "' in this game");
  if (s.mod<WheelBlock>().crown_player(c) != s.turn_player())
    return refuse(out, MoveStatus::Illegal,
                  "take_back: player " + std::to_string(s.turn_player()) + " has no follower on " + r.at);
  m.ext.set_take_back_crown(c);
  return NamePart::Done;
}

bool modules_name_step(const State& s, const Move& m, NamedMove& n) {
  if (m.kind != MoveKind::Plague) return false;
  n.take_back = follower_place(s, m.ext.plague());
  return true;
}

bool modules_name_follower(const State& s, const Move& m, NamedMove& n) {
  if (m.ext.crown() < 0) return false;
  n.follower = s.game().crown_name(m.ext.crown());
  return true;
}

bool modules_name_take_back(const State& s, const Move& m, NamedMove& n) {
  if (m.ext.take_back_crown() < 0) return false;
  n.take_back = ReturnSpec{0, 0, s.game().crown_name(m.ext.take_back_crown())};
  return true;
}

bool modules_pending_phase(const State& s) { return s.phase() == Phase::Plague; }

void modules_pending_of(const State& s, PendingTurn& p) {
  if (s.mod<WheelBlock>().chosen_tile() >= 0 && s.num_drawn() > 1) p.choice = s.mod<WheelBlock>().chosen_tile();
  for (int i = 0; i < s.mod<WheelBlock>().plague_picks(); ++i) p.plague.push_back(slot_place(s, s.mod<WheelBlock>().plague_pick(i)));
}

bool modules_pending_decisions(const PendingTurn& p) { return !p.plague.empty(); }

std::string modules_apply_pending(State& s, const PendingTurn& p) {
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

// --- Fruit-Bearing Trees: the stack on a tree tile, harvest or sale ---

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

bool modules_name_lengths(const NamedMove& n, size_t& longest, MoveResult& out) {
  longest = std::max(longest, n.fruit_type.size());
  if (n.sell.size() > size_t(kFruitTypes)) {
    refuse(out, MoveStatus::Malformed, "at most " + std::to_string(kFruitTypes) + " fruit kinds are sold");
    return false;
  }
  for (const auto& f : n.sell) longest = std::max(longest, f.size());
  return true;
}

bool modules_parse_place(const State& s, const NamedMove& n, const TileType& tt, const NotationOptions& opt,
                         Move& m, MoveResult& out) {
  if (!n.fruit_type.empty()) {
    const int f = fruit_index(n.fruit_type);
    if (f < 0) {
      refuse(out, MoveStatus::Malformed, "unknown fruit type '" + n.fruit_type + "' (" + fruit_list() + ")");
      return false;
    }
    m.ext.set_fruit_type(f);
  } else if (tt.tree && opt.default_fruit_stack) {
    for (int f = 0; f < kFruitTypes && m.ext.fruit_type() < 0; ++f)
      if (s.mod<FruitBlock>().tree(f) < 0) m.ext.set_fruit_type(f);
  } else if (tt.tree) {
    refuse(out, MoveStatus::Illegal, "tile " + tt.id + " is a tree tile: 'fruit_type' must name the stack put on it");
    return false;
  }
  if (n.harvest && !n.sell.empty()) {
    refuse(out, MoveStatus::Malformed, "one fruit action: harvest or sell, not both");
    return false;
  }
  if (n.harvest) {
    const auto [hx, hy] = *n.harvest;
    int f = hx == n.x && hy == n.y && tt.tree ? m.ext.fruit_type() : -1;
    const int pt = s.tile_at(hx, hy);
    if (f < 0 && pt >= 0) f = s.placed(pt).ext;
    if (f < 0) {
      refuse(out, MoveStatus::Illegal, "harvest: no tree at " + at_text(hx, hy));
      return false;
    }
    m.ext.set_harvest(f);
  } else if (!n.sell.empty()) {
    uint32_t sale = 0;
    for (const std::string& name : n.sell) {
      const int f = fruit_index(name);
      if (f < 0) {
        refuse(out, MoveStatus::Malformed, "unknown fruit type '" + name + "' (" + fruit_list() + ")");
        return false;
      }
      if (sale >> f & 1) {
        refuse(out, MoveStatus::Malformed, "a sale names each fruit type once ('" + name + "' twice)");
        return false;
      }
      sale |= 1u << f;
    }
    m.ext.set_sale(sale);
  }
  return true;
}

void modules_name_place(const State& s, const Move& m, NamedMove& n) {
  if (m.ext.fruit_type() >= 0) n.fruit_type = kFruitNames[m.ext.fruit_type()];
  if (m.ext.harvest() >= 0) {
    const int pt = s.mod<FruitBlock>().tree(m.ext.harvest());
    n.harvest = pt >= 0 ? std::make_pair(int(s.placed(pt).x), int(s.placed(pt).y)) : std::make_pair(n.x, n.y);
  } else if (const uint32_t sale = m.ext.sale()) {
    for (int f = 0; f < kFruitTypes; ++f)
      if (sale >> f & 1) n.sell.push_back(kFruitNames[f]);
  }
}

}  // namespace carc
