// The modules' parts of records and of the state JSON (record_parts.h), one section per module.
#include "record_parts.h"

#include <algorithm>
#include <vector>

#include "../notation.h"
#include "../state.h"
#include "../vocabulary.h"
#include "vocabulary_rows.h"

namespace carc {

using namespace record_json;

// --- Wheel of Fortune: the Plague's take-backs (a turn's and the turn in progress's) ---

namespace {

void read_turn_plague(const json& tj, const std::string& where, int n, TurnRecord& t) {
  if (!tj.contains("plague")) return;
  for (auto& pj : list_of(tj["plague"], "plague", where, n, "{\"x\", \"y\", \"at\"}")) {
    t.plague.push_back(place_of(pj, where + " plague", n));
    if (t.plague.back().crown()) fail(where, "plague: followers on crown spaces are immune and cannot be named", n);
  }
}

void write_turn_plague(const TurnRecord& t, ordered_json& tj) {
  if (t.plague.empty()) return;
  ordered_json pl = ordered_json::array();
  for (auto& p : t.plague) pl.push_back(place_json(p));
  tj["plague"] = pl;
}

}  // namespace

void modules_read_pending(const json& pj, PendingTurn& p) {
  if (pj.contains("plague"))
    for (auto& e : list_of(pj["plague"], "plague", "pending", 0, "{\"x\", \"y\", \"at\"}")) {
      if (!e.is_object()) fail("pending.plague", "entries are {\"x\", \"y\", \"at\"}");
      check_keys(e, "pending.plague", {"x", "y", "at"});
      p.plague.push_back(
          ReturnSpec{get_int(e, "x", "pending.plague"), get_int(e, "y", "pending.plague"), get_str(e, "at", "pending.plague")});
    }
}

void modules_write_pending(const PendingTurn& p, ordered_json& j) {
  if (!p.plague.empty()) {
    ordered_json pl = ordered_json::array();
    for (const ReturnSpec& r : p.plague) pl.push_back(place_json(r));
    j["plague"] = pl;
  }
}

void modules_read_pending_v1(const json& j, PendingTurn& p) {
  if (j.contains("pending_plague"))
    for (auto& pj : list_of(j["pending_plague"], "pending_plague", "state", 0, "{\"x\", \"y\", \"at\"}")) {
      if (!pj.is_object()) throw RecordError("state: 'pending_plague' entries are {\"x\", \"y\", \"at\"}");
      p.plague.push_back(ReturnSpec{get_int(pj, "x", "state.pending_plague"), get_int(pj, "y", "state.pending_plague"),
                                    get_str(pj, "at", "state.pending_plague")});
    }
}

void modules_replay_steps(State& s, const TurnRecord& t, const std::string& where, int n) {
  const Game& g = s.game();
  // A wheel tile chosen among several drawn turns the wheel first (T-9).
  if (const int ty = g.type_index(t.tile); ty >= 0 && g.type(ty).wheel && s.mod<WheelBlock>().chosen_tile() < 0) {
    NamedMove choose;
    choose.tile = t.tile;
    choose.kind = MoveKind::Choose;
    const MoveResult c = parse_move(s, choose);
    if (!c.ok()) fail(where, c.error, n);
    s.apply(c.move);
  }
  // The Plague: each listed follower, in order.
  size_t pi = 0;
  while (s.phase() == Phase::Plague) {
    const int p = s.mod<WheelBlock>().plague_decider();
    if (pi >= t.plague.size())
      fail(where, "plague: player " + std::to_string(p) + " has a follower on the land and must take one back ('plague' lists " +
                      std::to_string(t.plague.size()) + ")", n);
    NamedMove pm;
    pm.kind = MoveKind::Plague;
    pm.take_back = t.plague[pi++];
    const MoveResult r = parse_move(s, pm);
    if (!r.ok()) fail(where, "plague: " + r.error, n);
    s.apply(r.move);
  }
  if (pi < t.plague.size())
    fail(where, "plague: " + std::to_string(t.plague.size()) + " entries, but " + std::to_string(pi) +
                    " player(s) had to take a follower back" + (pi ? "" : " (the pig did not stop on the Plague)"), n);
}

bool modules_describe_step(const State& s, const Move& m, std::string& d) {
  if (m.kind == MoveKind::Plague) {
    const ReturnSpec p = follower_place(s, m.ext.plague());
    d = "Plague: take back the follower at (" + std::to_string(p.x) + "," + std::to_string(p.y) + ") " + p.at;
    return true;
  }
  if (m.kind == MoveKind::Choose) {
    const TileType& tt = s.game().type(s.drawn_tile(m.choice));
    d = "choose " + tt.id + " (the pig moves " + std::to_string(tt.wheel) + ")";
    return true;
  }
  return false;
}

bool modules_describe_follower(const State& s, const Move& m, std::string& d) {
  if (m.ext.crown() < 0) return false;
  d += ", follower on " + s.game().crown_name(m.ext.crown());
  return true;
}

bool modules_describe_take_back(const Move& m, const TurnRecord& t, std::string& d) {
  if (m.ext.take_back_crown() < 0) return false;
  d += ", take back the follower on " + t.take_back->at;
  return true;
}

void modules_drawn_json(const TileType& tt, ordered_json& d) { d["wheel"] = tt.wheel; }

int modules_chosen_tile(const State& s) { return s.mod<WheelBlock>().chosen_tile(); }

namespace {

void wheel_public_view(const State& s, ordered_json& j) {
  const Game& g = s.game();
  ordered_json w;
  w["pig"] = kWheelEventNames[int(g.wheel()[s.mod<WheelBlock>().pig_segment()].event)];
  w["pig_segment"] = s.mod<WheelBlock>().pig_segment();
  ordered_json crowns = ordered_json::array();
  for (int c = 0; c < kMaxCrowns; ++c)
    if (g.crown_exists(c)) crowns.push_back({{"space", g.crown_name(c)}, {"player", s.mod<WheelBlock>().crown_player(c)}});
  w["crowns"] = crowns;
  if (s.phase() == Phase::Plague) w["plague_player"] = s.mod<WheelBlock>().plague_decider();
  j["wheel"] = w;
}

void fruit_public_view(const State& s, ordered_json& j) {
  // Public: the trees with the number of tokens left, and what each player holds. Hidden: the
  // order (values) of the tokens still face down.
  ordered_json fruit;
  ordered_json trees = ordered_json::array();
  for (int f = 0; f < kFruitTypes; ++f)
    if (s.mod<FruitBlock>().tree(f) >= 0)
      trees.push_back({{"type", kFruitNames[f]}, {"x", s.placed(s.mod<FruitBlock>().tree(f)).x},
                       {"y", s.placed(s.mod<FruitBlock>().tree(f)).y}, {"left", s.mod<FruitBlock>().left(f)}});
  fruit["trees"] = trees;
  ordered_json held = ordered_json::array();
  for (int p = 0; p < s.num_players(); ++p) {
    ordered_json h = ordered_json::object();
    for (int f = 0; f < kFruitTypes; ++f)
      if (s.mod<FruitBlock>().held_by(p, f)) h[kFruitNames[f]] = s.mod<FruitBlock>().held_by(p, f);
    held.push_back(h);
  }
  fruit["held"] = held;
  j["fruit"] = fruit;
}

}  // namespace

// The modules' public fields in the view's order: the fruit, then the wheel.
void modules_public_view(const State& s, ordered_json& j) {
  if (s.rules().has(Expansion::FruitTrees)) fruit_public_view(s, j);
  if (s.game().has_wheel()) wheel_public_view(s, j);
}

void modules_hide_record(Record& r) { r.fruit_stacks.reset(); }

// --- Fruit-Bearing Trees: the stacks (setup, state), a turn's stack and fruit action ---

void modules_read_setup(const json& su, Record& r) {
  if (su.contains("fruit_stacks")) {
    const json& fs = su["fruit_stacks"];
    if (!fs.is_object()) fail("setup.fruit_stacks", "must be an object {\"apple\": [5, 3, 4, 2], ...}");
    std::array<std::array<uint8_t, 4>, kFruitTypes> stacks{};
    std::array<bool, kFruitTypes> given{};
    for (auto& [name, v] : fs.items()) {
      int f = fruit_index(name);
      if (f < 0) fail("setup.fruit_stacks", "unknown fruit type '" + name + "' (" + fruit_list() + ")");
      if (!v.is_array() || v.size() != 4) fail("setup.fruit_stacks." + name, "must list 4 token values, top first");
      std::vector<int> vals;
      for (auto& x : v) {
        const int val = int(int_in(x, "token value", "setup.fruit_stacks." + name, 0, 2, 5));
        vals.push_back(val);
        stacks[f][vals.size() - 1] = uint8_t(val);
      }
      std::sort(vals.begin(), vals.end());
      if (vals != std::vector<int>{2, 3, 4, 5}) fail("setup.fruit_stacks." + name, "a stack holds the values 5, 4, 3 and 2");
      given[f] = true;
    }
    for (int f = 0; f < kFruitTypes; ++f)
      if (!given[f]) {
        // Stacks not given keep the printed order 5, 4, 3, 2 (kFruitTokenValues).
        for (int i = 0; i < 4; ++i) stacks[f][size_t(i)] = uint8_t(kFruitTokenValues[size_t(i)]);
      }
    r.fruit_stacks = stacks;
  }
}

void modules_write_setup(const Record& r, ordered_json& su) {
  if (r.fruit_stacks) {
    ordered_json fs;
    for (int f = 0; f < kFruitTypes; ++f)
      fs[kFruitNames[f]] = std::vector<int>((*r.fruit_stacks)[f].begin(), (*r.fruit_stacks)[f].end());
    su["fruit_stacks"] = fs;
  }
}

void modules_initial_state(const Record& r, State& s, bool start_tile) {
  if (!r.fruit_stacks) return;
  if (!start_tile && !s.rules().has(Expansion::FruitTrees)) fail("setup.fruit_stacks", "given without the fruit-trees expansion");
  s.edit_mod<FruitBlock>().set_stacks(*r.fruit_stacks);
}

void modules_read_turn(const json& tj, const std::string& where, int n, TurnRecord& t) {
  read_turn_plague(tj, where, n, t);
  if (tj.contains("fruit_type")) {
    t.fruit_type = get_str(tj, "fruit_type", where, n);
    if (fruit_index(t.fruit_type) < 0) fail(where, "unknown fruit type '" + t.fruit_type + "' (" + fruit_list() + ")", n);
  }
  if (tj.contains("fruit")) {
    const json& fj = tj["fruit"];
    if (!fj.is_object() || fj.size() != 1 || !(fj.contains("harvest") || fj.contains("sell")))
      fail(where, "'fruit' must be {\"harvest\": {\"x\", \"y\"}} or {\"sell\": [types]}", n);
    if (fj.contains("harvest")) {
      const json& hj = fj["harvest"];
      if (!hj.is_object()) fail(where, "'harvest' must be {\"x\", \"y\", \"value\"}", n);
      check_keys(hj, where + " harvest", {"x", "y", "value"}, n);
      t.harvest = ReturnSpec{get_int(hj, "x", where + " harvest", n), get_int(hj, "y", where + " harvest", n), ""};
      if (hj.contains("value")) {
        t.harvest_value = get_int(hj, "value", where + " harvest", n, 2, 5);
      }
    } else {
      if (!fj["sell"].is_array() || fj["sell"].empty() || fj["sell"].size() > 4)
        fail(where, "'sell' must list 1 to 4 fruit types", n);
      for (auto& x : fj["sell"]) {
        if (!x.is_string() || fruit_index(x.get<std::string>()) < 0)
          fail(where, "'sell' names an unknown fruit type (" + fruit_list() + ")", n);
        std::string name = x.get<std::string>();
        if (std::find(t.sell.begin(), t.sell.end(), name) != t.sell.end())
          fail(where, "a sale must be of different fruit types: " + name + " appears twice", n);
        t.sell.push_back(name);
      }
    }
  }
}

void modules_write_turn(const TurnRecord& t, ordered_json& tj) {
  if (!t.fruit_type.empty()) tj["fruit_type"] = t.fruit_type;
  if (t.harvest) {
    ordered_json h = {{"x", t.harvest->x}, {"y", t.harvest->y}};
    if (t.harvest_value) h["value"] = *t.harvest_value;
    tj["fruit"] = {{"harvest", h}};
  } else if (!t.sell.empty()) {
    tj["fruit"] = {{"sell", t.sell}};
  }
  write_turn_plague(t, tj);
}

void modules_write_state(const State& s, ordered_json& j) {
  if (s.rules().has(Expansion::FruitTrees)) {
    ordered_json stacks;
    for (int f = 0; f < kFruitTypes; ++f)
      stacks[kFruitNames[f]] = std::vector<int>(s.mod<FruitBlock>().init_stacks[f].begin(), s.mod<FruitBlock>().init_stacks[f].end());
    j["fruit"]["initial_stacks"] = stacks;
    // The tokens still on each stack in their current order (top first): after resample_hidden
    // it is no longer the initial order less the harvested tokens.
    ordered_json now;
    for (int f = 0; f < kFruitTypes; ++f) now[kFruitNames[f]] = s.mod<FruitBlock>().stack_of(f);
    j["fruit"]["stacks"] = now;
  }
}

void modules_state_setup(const json& j, ordered_json& setup) {
  if (!j.contains("fruit")) return;
  // j is const: operator[] on a missing key would be undefined behaviour, so every key is checked.
  const json& fruit = j.at("fruit");
  if (!fruit.is_object() || !fruit.contains("initial_stacks"))
    throw RecordError("state: 'fruit' must be an object with 'initial_stacks' {\"apple\": [values top first], ...}");
  setup["fruit_stacks"] = fruit.at("initial_stacks");
}

void modules_read_state(const json& j, State& s) {
  if (j.contains("fruit") && j["fruit"].contains("stacks")) {
    const json& now = j["fruit"]["stacks"];
    if (!now.is_object()) throw RecordError("state: fruit.stacks must be an object {\"apple\": [values top first]}");
    for (auto it = now.begin(); it != now.end(); ++it) {
      const int f = fruit_index(it.key());
      if (f < 0) throw RecordError("state: fruit.stacks: unknown fruit type '" + it.key() + "' (" + fruit_list() + ")");
      if (!it.value().is_array() || !s.edit_mod<FruitBlock>().set_order(f, it.value().get<std::vector<int>>()))
        throw RecordError("state: fruit.stacks." + it.key() + " must list the " + std::to_string(s.mod<FruitBlock>().left(f)) +
                          " tokens still on that stack, top first");
    }
  }
}

void modules_name_turn(const TurnRecord& t, NamedMove& named) {
  named.fruit_type = t.fruit_type;
  if (t.harvest) named.harvest = std::make_pair(t.harvest->x, t.harvest->y);
  named.sell = t.sell;
}

void modules_before_apply(State& s, const TurnRecord& t, const Move& m, const std::string& where, int n) {
  // The revealed token of a harvest (random-draw records): put it on top of the tree's stack.
  if (t.harvest_value && m.ext.harvest() >= 0 && s.mod<FruitBlock>().left(m.ext.harvest()) > 0 &&
      !s.edit_mod<FruitBlock>().force_top(m.ext.harvest(), *t.harvest_value))
    fail(where, std::string("harvest: the ") + kFruitNames[m.ext.harvest()] + " tree has no token worth " +
                    std::to_string(*t.harvest_value) + " left", n);
}

void modules_turn_of(const NamedMove& n, TurnRecord& t) {
  t.fruit_type = n.fruit_type;
  if (n.harvest) t.harvest = ReturnSpec{n.harvest->first, n.harvest->second, ""};
  t.sell = n.sell;
}

void modules_record_setup(const State& s, bool scripted, Record& r) {
  if (scripted && s.rules().has(Expansion::FruitTrees)) r.fruit_stacks = s.mod<FruitBlock>().init_stacks;
}

void modules_record_turn(const State& s, const TurnLog& tl, TurnRecord& t) {
  const Game& g = s.game();
  // Wheel of Fortune: the Plague's take-backs, a crown space deployed to or emptied.
  for (int k = 0; k < tl.mods.nplague; ++k) t.plague.push_back(slot_place(s, tl.mods.plague[k]));
  if (tl.move.ext.crown() >= 0) t.follower = g.crown_name(tl.move.ext.crown());
  if (tl.ret_slot == kNoSlot && tl.move.ext.take_back_crown() >= 0)
    t.take_back = ReturnSpec{0, 0, g.crown_name(tl.move.ext.take_back_crown())};
  // Fruit-Bearing Trees: the stack put on the tree, the harvest (with its token) or the sale.
  const Move& mv = tl.move;
  if (mv.ext.fruit_type() >= 0) t.fruit_type = kFruitNames[mv.ext.fruit_type()];
  if (mv.ext.harvest() >= 0) {
    const PlacedTile& T = s.placed(s.mod<FruitBlock>().tree(mv.ext.harvest()));
    t.harvest = ReturnSpec{T.x, T.y, ""};
    t.harvest_value = tl.mods.harvested;
  } else if (const uint32_t sale = mv.ext.sale()) {
    for (int f = 0; f < kFruitTypes; ++f)
      if (sale >> f & 1) t.sell.push_back(kFruitNames[f]);
  }
}

void modules_describe_place(const Move& m, const TurnRecord& t, std::string& d) {
  if (!t.fruit_type.empty()) d += ", " + t.fruit_type + " stack on the tree";
  if (t.harvest) d += ", harvest the " + std::string(kFruitNames[m.ext.harvest()]) + " tree";
  for (size_t i = 0; i < t.sell.size(); ++i) d += (i ? "+" : ", sell ") + t.sell[i];
}

}  // namespace carc
