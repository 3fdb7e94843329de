#include "record.h"

#include "notation.h"
#include "public_view.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "input_limits.h"
#include "vocabulary.h"

namespace carc {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what, int turn = 0) {
  throw RecordError(where + ": " + what, turn);
}

void check_keys(const json& j, const std::string& where, std::initializer_list<const char*> allowed, int turn = 0) {
  for (auto& [k, v] : j.items()) {
    bool ok = false;
    for (const char* a : allowed) ok |= k == a;
    if (!ok) fail(where, "unknown field '" + k + "'", turn);
  }
}

// What a versioned tile set's version means for old records.
std::string tileset_version_words(const std::string& tileset, int version) {
  const TileSetFile& f = load_tile_set(tileset);
  std::string w = "the " + tileset + " tile set is version " + std::to_string(version);
  if (!f.version_note.empty()) w += ": " + f.version_note;
  return w;
}

// An integer in [lo, hi]. Checked on the JSON number itself, so that no value wraps: a number
// beyond 64 bits or with a fraction/exponent is not an integer, 2^64-1 is not -1.
int64_t int_in(const json& v, const std::string& field, const std::string& where, int turn, int64_t lo, int64_t hi) {
  if (!v.is_number_integer()) fail(where, "'" + field + "' must be an integer", turn);
  bool ok;
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    ok = hi >= 0 && u <= uint64_t(hi) && int64_t(u) >= lo;
  } else {
    const int64_t x = v.get<int64_t>();
    ok = x >= lo && x <= hi;
  }
  if (!ok)
    fail(where, "'" + field + "' is out of range (" + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + v.dump() + ")",
         turn);
  return v.is_number_unsigned() ? int64_t(v.get<uint64_t>()) : v.get<int64_t>();
}

// A board coordinate, a rotation in degrees, a seat... by default a coordinate's range.
int get_int(const json& j, const char* key, const std::string& where, int turn = 0, int lo = -limits::kMaxCoordinate,
            int hi = limits::kMaxCoordinate) {
  if (!j.contains(key)) fail(where, std::string("missing '") + key + "'", turn);
  return int(int_in(j[key], key, where, turn, lo, hi));
}

// A string of at most `max_bytes` bytes.
std::string str_of(const json& v, const std::string& field, const std::string& where, int turn,
                   size_t max_bytes = limits::kMaxRecordStringBytes) {
  if (!v.is_string()) fail(where, "'" + field + "' must be a string", turn);
  const std::string& s = v.get_ref<const std::string&>();
  if (s.size() > max_bytes)
    fail(where, "'" + field + "' has " + std::to_string(s.size()) + " bytes (at most " + std::to_string(max_bytes) + ")", turn);
  return s;
}

std::string get_str(const json& j, const char* key, const std::string& where, int turn = 0) {
  if (!j.contains(key)) fail(where, std::string("missing '") + key + "'", turn);
  return str_of(j[key], key, where, turn);
}

// An array of at most limits::kMaxListEntries entries.
const json& list_of(const json& v, const std::string& field, const std::string& where, int turn, const std::string& what) {
  if (!v.is_array()) fail(where, "'" + field + "' must be an array of " + what, turn);
  if (v.size() > limits::kMaxListEntries)
    fail(where, "'" + field + "' has " + std::to_string(v.size()) + " entries (at most " +
                    std::to_string(limits::kMaxListEntries) + ")", turn);
  return v;
}

// Parses untrusted JSON text: size and nesting depth are checked before the parser runs.
json parse_checked(std::string_view text, const std::string& what) {
  if (text.size() > limits::kMaxRecordBytes)
    throw RecordError(what + ": " + std::to_string(text.size()) + " bytes, more than the limit of " +
                      std::to_string(limits::kMaxRecordBytes));
  if (auto err = limits::json_depth_error(text); !err.empty()) throw RecordError(what + ": " + err);
  try {
    return limits::parse_json_unique_keys(text);
  } catch (const limits::DuplicateKeyError& e) {
    throw RecordError(what + ": " + e.what());
  } catch (const json::exception& e) {
    throw RecordError(what + ": not valid JSON: " + e.what());
  }
}

int rotation_of(int deg, const std::string& where, int turn) {
  if (deg != 0 && deg != 90 && deg != 180 && deg != 270)
    fail(where, "rotation must be 0, 90, 180 or 270 (got " + std::to_string(deg) + ")", turn);
  return deg / 90;
}


// A follower's place as records write it: {"x", "y", "at"}, or {"at"} for a crown space.
ordered_json place_json(const ReturnSpec& p) {
  if (p.crown()) return {{"at", p.at}};
  return {{"x", p.x}, {"y", p.y}, {"at", p.at}};
}

}  // namespace

Record parse_record(std::string_view text) {
  json doc = parse_checked(text, "record");
  if (!doc.is_object()) throw RecordError("a record must be a JSON object");
  check_keys(doc, "record", {"format", "setup", "turns", "pending"});
  // Format 2 names the follower and the take-back as every front end does (`follower`,
  // `take_back`); format 1 (shared spec §3: `meeple`, `return`) still loads, each with its own names.
  int version = 0;
  if (doc.contains("format") && doc["format"] == kRecordFormat) version = 2;
  else if (doc.contains("format") && doc["format"] == kRecordFormatV1) version = 1;
  else throw RecordError(std::string("format: expected \"") + kRecordFormat + "\" (or the older \"" + kRecordFormatV1 + "\")");
  const char* follower_key = version == 1 ? "meeple" : "follower";
  const char* take_back_key = version == 1 ? "return" : "take_back";
  if (!doc.contains("setup") || !doc["setup"].is_object()) throw RecordError("setup: missing or not an object");
  const json& su = doc["setup"];
  check_keys(su, "setup", {"players", "tileset", "tileset_version", "expansions", "seed", "draws", "start", "fruit_stacks"});
  Record r;
  if (!su.contains("players") || !su["players"].is_array()) fail("setup.players", "must be an array of names");
  if (su["players"].size() > 6) fail("setup.players", "2 to 6 players (got " + std::to_string(su["players"].size()) + ")");
  for (auto& p : su["players"]) {
    if (!p.is_string()) fail("setup.players", "every name must be a string");
    r.players.push_back(str_of(p, "players[" + std::to_string(r.players.size()) + "]", "setup", 0,
                               limits::kMaxRecordNameBytes));
  }
  if (r.players.size() < 2 || r.players.size() > 6)
    fail("setup.players", "2 to 6 players (got " + std::to_string(r.players.size()) + ")");
  if (su.contains("tileset")) r.tileset = get_str(su, "tileset", "setup");
  if (!find_module(ModuleKind::TileSet, r.tileset))
    fail("setup.tileset", "unknown tile set '" + r.tileset + "' (" + module_names(ModuleKind::TileSet, ", ", " or ") + ")");
  if (su.contains("tileset_version")) {
    r.tileset_version = get_int(su, "tileset_version", "setup");
    if (r.tileset_version < 1) fail("setup.tileset_version", "must be a positive integer");
  }
  if (su.contains("expansions")) {
    for (auto& e : list_of(su["expansions"], "expansions", "setup", 0, "names")) {
      if (!e.is_string()) fail("setup.expansions", "every entry must be a string");
      std::string name = str_of(e, "expansions", "setup", 0);
      Rules probe;
      if (!probe.enable(name)) fail("setup.expansions", "unknown expansion '" + name + "'");
      r.expansions.push_back(name);
    }
  }
  if (su.contains("seed")) {
    const json& sd = su["seed"];
    if (!sd.is_number_unsigned())
      fail("setup.seed", "must be an integer from 0 to 18446744073709551615 (got " + sd.dump().substr(0, 40) + ")");
    r.seed = sd.get<uint64_t>();
  }
  if (su.contains("draws")) {
    std::string d = get_str(su, "draws", "setup");
    if (d != "random" && d != "scripted") fail("setup.draws", "must be \"random\" or \"scripted\"");
    r.scripted = d == "scripted";
  }
  if (su.contains("start")) {
    const json& st = su["start"];
    if (!st.is_object()) fail("setup.start", "must be {\"tile\": ID, \"rotation\": DEG}");
    check_keys(st, "setup.start", {"tile", "rotation"});
    std::string tile = get_str(st, "tile", "setup.start");
    int rot = st.contains("rotation") ? get_int(st, "rotation", "setup.start", 0, 0, 270) : 0;
    rotation_of(rot, "setup.start", 0);
    r.start = std::make_pair(tile, rot);
  }
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
  if (!doc.contains("turns")) fail("record", "missing 'turns'");
  if (!doc["turns"].is_array()) fail("turns", "must be an array");
  if (doc["turns"].size() > limits::kMaxRecordTurns)
    fail("turns", std::to_string(doc["turns"].size()) + " turns, more than any game has (at most " +
                      std::to_string(limits::kMaxRecordTurns) + ")");
  int n = 0;
  for (const json& tj : doc["turns"]) {
    ++n;
    const std::string where = "turn " + std::to_string(n);
    if (!tj.is_object()) fail(where, "must be an object", n);
    check_keys(tj, where,
               {"tile", "x", "y", "rotation", follower_key, "player", "discarded", "drawn", take_back_key, "fruit_type",
                "fruit", "plague"},
               n);
    TurnRecord t;
    t.tile = get_str(tj, "tile", where, n);
    t.x = get_int(tj, "x", where, n);
    t.y = get_int(tj, "y", where, n);
    t.rotation = tj.contains("rotation") ? get_int(tj, "rotation", where, n, 0, 270) : 0;
    rotation_of(t.rotation, where, n);
    if (tj.contains(follower_key)) t.follower = get_str(tj, follower_key, where, n);
    if (tj.contains("player")) t.player = get_int(tj, "player", where, n, 0, int(r.players.size()) - 1);
    if (tj.contains("discarded")) {
      for (auto& d : list_of(tj["discarded"], "discarded", where, n, "tile ids")) {
        if (!d.is_string()) fail(where, "'discarded' must be an array of tile ids", n);
        t.discarded.push_back(str_of(d, "discarded", where, n));
      }
    }
    if (tj.contains("drawn")) {
      for (auto& d : list_of(tj["drawn"], "drawn", where, n, "tile ids")) {
        if (!d.is_string()) fail(where, "'drawn' must be an array of tile ids", n);
        t.drawn.push_back(str_of(d, "drawn", where, n));
      }
      if (std::find(t.drawn.begin(), t.drawn.end(), t.tile) == t.drawn.end())
        fail(where, "'drawn' must include the placed tile " + t.tile, n);
    }
    // A follower's place: {"x", "y", "at"}, or {"at": "crown:SEGMENT:K"}.
    auto place = [&](const json& rj, const std::string& w) {
      if (!rj.is_object()) fail(w, "must be {\"x\", \"y\", \"at\"} (or {\"at\": \"crown:SEGMENT:K\"})", n);
      check_keys(rj, w, {"x", "y", "at"}, n);
      ReturnSpec rs;
      rs.at = get_str(rj, "at", w, n);
      if (!rs.crown() || rj.contains("x") || rj.contains("y")) {
        rs.x = get_int(rj, "x", w, n);
        rs.y = get_int(rj, "y", w, n);
      }
      return rs;
    };
    if (tj.contains(take_back_key)) t.take_back = place(tj[take_back_key], where + " " + take_back_key);
    if (tj.contains("plague")) {
      for (auto& pj : list_of(tj["plague"], "plague", where, n, "{\"x\", \"y\", \"at\"}")) {
        t.plague.push_back(place(pj, where + " plague"));
        if (t.plague.back().crown()) fail(where, "plague: followers on crown spaces are immune and cannot be named", n);
      }
    }
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
    r.turns.push_back(std::move(t));
  }
  if (doc.contains("pending")) {
    // The turn in progress (format 2): {"draws": [ids], "choice": k, "plague": [{x, y, at}]}.
    if (version == 1) fail("record", "unknown field 'pending' (format 1 has no turn in progress)");
    const json& pj = doc["pending"];
    if (!pj.is_object()) fail("pending", "must be an object {\"draws\": [ids], \"choice\": k, \"plague\": [{x, y, at}]}");
    check_keys(pj, "pending", {"draws", "choice", "plague"});
    if (pj.contains("draws"))
      for (auto& d : list_of(pj["draws"], "draws", "pending", 0, "tile ids")) {
        if (!d.is_string()) fail("pending", "'draws' must be an array of tile ids");
        r.pending.draws.push_back(str_of(d, "draws", "pending", 0));
      }
    if (pj.contains("choice")) r.pending.choice = get_int(pj, "choice", "pending", 0, 0, 255);
    if (pj.contains("plague"))
      for (auto& e : list_of(pj["plague"], "plague", "pending", 0, "{\"x\", \"y\", \"at\"}")) {
        if (!e.is_object()) fail("pending.plague", "entries are {\"x\", \"y\", \"at\"}");
        check_keys(e, "pending.plague", {"x", "y", "at"});
        r.pending.plague.push_back(
            ReturnSpec{get_int(e, "x", "pending.plague"), get_int(e, "y", "pending.plague"), get_str(e, "at", "pending.plague")});
      }
  }
  return r;
}

std::string pending_json(const PendingTurn& p) {
  ordered_json j = ordered_json::object();
  if (!p.draws.empty()) j["draws"] = p.draws;
  if (p.choice >= 0) j["choice"] = p.choice;
  if (!p.plague.empty()) {
    ordered_json pl = ordered_json::array();
    for (const ReturnSpec& r : p.plague) pl.push_back(place_json(r));
    j["plague"] = pl;
  }
  return j.dump();
}

std::string turn_json(const TurnRecord& t) {
  ordered_json tj;
  if (t.player) tj["player"] = *t.player;
  if (!t.discarded.empty()) tj["discarded"] = t.discarded;
  if (!t.drawn.empty()) tj["drawn"] = t.drawn;
  tj["tile"] = t.tile;
  tj["x"] = t.x;
  tj["y"] = t.y;
  tj["rotation"] = t.rotation;
  if (!t.follower.empty()) tj["follower"] = t.follower;
  if (t.take_back) tj["take_back"] = place_json(*t.take_back);
  if (!t.fruit_type.empty()) tj["fruit_type"] = t.fruit_type;
  if (t.harvest) {
    ordered_json h = {{"x", t.harvest->x}, {"y", t.harvest->y}};
    if (t.harvest_value) h["value"] = *t.harvest_value;
    tj["fruit"] = {{"harvest", h}};
  } else if (!t.sell.empty()) {
    tj["fruit"] = {{"sell", t.sell}};
  }
  if (!t.plague.empty()) {
    ordered_json pl = ordered_json::array();
    for (auto& p : t.plague) pl.push_back(place_json(p));
    tj["plague"] = pl;
  }
  return tj.dump();
}

std::string record_to_json(const Record& r) {
  ordered_json su;
  su["players"] = r.players;
  su["tileset"] = r.tileset;
  if (r.tileset_version) su["tileset_version"] = r.tileset_version;
  su["expansions"] = r.expansions;
  su["seed"] = r.seed;
  su["draws"] = r.scripted ? "scripted" : "random";
  if (r.start) su["start"] = {{"tile", r.start->first}, {"rotation", r.start->second}};
  if (r.fruit_stacks) {
    ordered_json fs;
    for (int f = 0; f < kFruitTypes; ++f)
      fs[kFruitNames[f]] = std::vector<int>((*r.fruit_stacks)[f].begin(), (*r.fruit_stacks)[f].end());
    su["fruit_stacks"] = fs;
  }
  std::ostringstream out;
  out << "{\n  \"format\": \"" << kRecordFormat << "\",\n  \"setup\": " << su.dump() << ",\n  \"turns\": [";
  for (size_t i = 0; i < r.turns.size(); ++i) {
    out << (i ? ",\n    " : "\n    ") << turn_json(r.turns[i]);
  }
  out << (r.turns.empty() ? "]" : "\n  ]");
  if (!r.pending.empty()) out << ",\n  \"pending\": " << pending_json(r.pending);
  out << "\n}\n";
  return out.str();
}

Rules rules_of(const Record& r) {
  Rules rules;
  rules.players = int(r.players.size());
  rules.tileset = r.tileset;
  for (auto& e : r.expansions) rules.enable(e);
  return rules;
}

State initial_state(const Record& r) {
  Rules rules = rules_of(r);
  const Game* g;
  try {
    g = Game::get(rules);
  } catch (const std::exception& e) {
    throw RecordError(std::string("setup: ") + e.what());
  }
  if (r.tileset_version) {
    const int have = load_tile_set(r.tileset).version;
    if (r.tileset_version != have)
      fail("setup.tileset_version", "this record was made with the " + r.tileset + " tile set version " +
                                        std::to_string(r.tileset_version) + ", but this build plays version " +
                                        std::to_string(have) + ": " + tileset_version_words(r.tileset, have));
  }
  if (r.start && !g->board_cells().empty())
    fail("setup.start", "the " + r.tileset + " tile set starts with its board, not with a start tile");
  if (r.start) {
    int t = g->type_index(r.start->first);
    if (t < 0) fail("setup.start", "unknown tile '" + r.start->first + "'");
    if (g->initial_counts()[t] == 0 && t != g->start_type()) fail("setup.start", "no tile " + r.start->first + " is left for the start");
    State s(g, r.seed, t, r.start->second / 90);
    if (r.fruit_stacks) s.set_fruit_stacks(*r.fruit_stacks);
    return s;
  }
  State s(g, r.seed);
  if (r.fruit_stacks) {
    if (!rules.fruit_trees()) fail("setup.fruit_stacks", "given without the fruit-trees expansion");
    s.set_fruit_stacks(*r.fruit_stacks);
  }
  return s;
}

void apply_turn_draws(State& s, const TurnRecord& t, int n) {
  const std::string where = "turn " + std::to_string(n);
  const Game& g = s.game();
  if (s.is_terminal()) fail(where, "the game is already over (no tiles left)", n);
  if (!s.is_chance()) fail(where, "internal: the state is not waiting for a draw", n);
  if (t.player && *t.player != s.turn_player())
    fail(where, "it is player " + std::to_string(s.turn_player()) + "'s turn, not player " + std::to_string(*t.player) + "'s", n);
  auto type_of = [&](const std::string& id) {
    int ty = g.type_index(id);
    if (ty < 0) {
      // A record of an earlier version of a versioned tile set (the Wheel of Fortune's
      // provisional set) names tiles this version does not have: say so.
      const TileSetFile& ts = load_tile_set(g.rules().tileset);
      fail(where, "unknown tile '" + id + "'" +
                      (ts.version > 1 ? " (" + tileset_version_words(ts.name, ts.version) + ")" : std::string()),
           n);
    }
    if (s.bag_count(ty) == 0) fail(where, "no tile " + id + " is left in the bag", n);
    return ty;
  };
  for (const std::string& d : t.discarded) {
    if (!s.is_chance()) fail(where, "the bag is empty before discarded tile " + d, n);
    int ty = type_of(d);
    if (s.has_placement(ty)) fail(where, "discarded tile " + d + " has a legal place, so it cannot be discarded", n);
    s.apply_draw(ty);
  }
  if (!s.is_chance()) fail(where, "the bag is empty: no tile " + t.tile + " can be drawn", n);
  if (s.num_drawn() != 0) fail(where, "the discarded tiles do not make whole draws of " + std::to_string(s.draw_target()), n);
  const std::vector<std::string> drawn = t.drawn.empty() ? std::vector<std::string>{t.tile} : t.drawn;
  for (size_t i = 0; i < drawn.size(); ++i) {
    if (!s.is_chance())
      fail(where, "player " + std::to_string(s.turn_player()) + " draws " + std::to_string(s.draw_target()) +
                      " tile(s) this turn, not " + std::to_string(drawn.size()), n);
    if (!s.apply_draw(type_of(drawn[i])))
      fail(where, drawn.size() == 1 ? "tile " + t.tile + " has no legal place anywhere (it belongs in 'discarded')"
                                    : "none of the drawn tiles has a legal place (they belong in 'discarded')", n);
  }
  if (s.is_chance())
    fail(where, "player " + std::to_string(s.turn_player()) + " draws " + std::to_string(s.draw_target()) +
                    " tiles this turn ('drawn' lists " + std::to_string(drawn.size()) + ")", n);
}

void apply_turn(State& s, const TurnRecord& t, int n) {
  apply_turn_draws(s, t, n);
  const std::string where = "turn " + std::to_string(n);
  const Game& g = s.game();
  // The move, named as the record names it (one converter for every layer: notation.h).
  NamedMove named;
  named.tile = t.tile;
  // Wheel of Fortune: a wheel tile chosen among several drawn turns the wheel first (T-9).
  if (const int ty = g.type_index(t.tile); ty >= 0 && g.type(ty).wheel && s.chosen() < 0) {
    NamedMove choose = named;
    choose.kind = MoveKind::Choose;
    const MoveResult c = parse_move(s, choose);
    if (!c.ok()) fail(where, c.error, n);
    s.apply(c.move);
  }
  // The Plague: each listed follower, in order.
  size_t pi = 0;
  while (s.phase() == Phase::Plague) {
    const int p = s.plague_player();
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
  named.x = t.x;
  named.y = t.y;
  named.rotation = t.rotation;
  named.follower = t.follower;
  named.take_back = t.take_back;
  named.fruit_type = t.fruit_type;
  if (t.harvest) named.harvest = std::make_pair(t.harvest->x, t.harvest->y);
  named.sell = t.sell;
  const MoveResult r = parse_move(s, named);
  if (!r.ok()) fail(where, r.error, n);
  const Move& m = r.move;
  // The revealed token of a harvest (random-draw records): put it on top of the tree's stack.
  if (t.harvest_value && m.ext.harvest() >= 0 && s.fruit_left(m.ext.harvest()) > 0 &&
      !s.force_fruit_top(m.ext.harvest(), *t.harvest_value))
    fail(where, std::string("harvest: the ") + kFruitNames[m.ext.harvest()] + " tree has no token worth " +
                    std::to_string(*t.harvest_value) + " left", n);
  s.apply(m);
}

std::string check_draws_follow_seed(const Record& r, int from_turn) {
  State s = initial_state(r);
  const Game& g = s.game();
  for (size_t i = 0; i < r.turns.size(); ++i) {
    const TurnRecord& t = r.turns[i];
    const int n = int(i) + 1;
    if (n > from_turn && s.is_chance()) {
      // What the seed draws: a copy draws at random as many tiles as the record lists.
      std::vector<std::string> recorded = t.discarded;
      if (t.drawn.empty()) recorded.push_back(t.tile);
      else recorded.insert(recorded.end(), t.drawn.begin(), t.drawn.end());
      State c = s;
      for (const std::string& want : recorded) {
        if (!c.is_chance()) break;  // apply_turn below names what does not fit
        std::vector<int> before(size_t(g.num_types()));
        for (int ty = 0; ty < g.num_types(); ++ty) before[size_t(ty)] = c.bag_count(ty);
        c.draw_random();
        int got = -1;
        for (int ty = 0; ty < g.num_types() && got < 0; ++ty)
          if (c.bag_count(ty) < before[size_t(ty)]) got = ty;
        if (got >= 0 && g.type(got).id != want)
          return "turn " + std::to_string(n) + ": drew " + want + ", but the seed draws " + g.type(got).id;
      }
    }
    apply_turn(s, t, n);
  }
  return "";
}

Replay replay(const Record& r, bool final) {
  Replay out{initial_state(r), {}, {}};
  out.state.set_event_log(&out.events);
  for (size_t i = 0; i < r.turns.size(); ++i) {
    apply_turn(out.state, r.turns[i], int(i) + 1);
    out.after_turn.push_back(out.state.scores());
  }
  // The turn in progress: its draws, then its decisions, each checked (check_move).
  if (!r.pending.empty())
    if (std::string err = apply_pending(out.state, r.pending); !err.empty()) fail("pending", err);
  if (final) out.state.finish();
  out.state.set_event_log(nullptr);
  return out;
}

// The record place of a segment slot: its tile's position and the location on it.
ReturnSpec slot_place(const State& s, uint16_t slot) {
  const PlacedTile& P = s.placed(s.slot_tile(slot));
  return ReturnSpec{P.x, P.y, s.game().type(P.type).location_name(s.slot_segment(slot), P.rot)};
}

ReturnSpec follower_place(const State& s, int i) { return slot_place(s, s.followers()[i].slot); }

TurnRecord turn_of(const State& s, const Move& m) {
  const NamedMove n = name_move(s, m);
  TurnRecord t;
  t.tile = n.tile;
  if (m.kind != MoveKind::Place) return t;
  t.x = n.x;
  t.y = n.y;
  t.rotation = n.rotation;
  t.follower = n.follower;
  t.take_back = n.take_back;
  t.fruit_type = n.fruit_type;
  if (n.harvest) t.harvest = ReturnSpec{n.harvest->first, n.harvest->second, ""};
  t.sell = n.sell;
  return t;
}

std::string describe_move(const State& s, const Move& m) {
  if (m.kind == MoveKind::Plague) {
    const ReturnSpec p = follower_place(s, m.ext.plague());
    return "Plague: take back the follower at (" + std::to_string(p.x) + "," + std::to_string(p.y) + ") " + p.at;
  }
  const TileType& tt = s.game().type(s.drawn_tile(m.choice));
  if (m.kind == MoveKind::Choose) return "choose " + tt.id + " (the pig moves " + std::to_string(tt.wheel) + ")";
  std::string d = tt.id + " at (" + std::to_string(m.x) + "," + std::to_string(m.y) + ") rot " + std::to_string(90 * m.rot);
  if (m.ext.crown() >= 0)
    d += ", follower on " + s.game().crown_name(m.ext.crown());
  else if (m.meeple >= 0)
    d += ", follower on " + std::string(kind_name(tt.rot[m.rot].seg[m.meeple].kind)) + " " + tt.location_name(m.meeple, m.rot);
  TurnRecord t = turn_of(s, m);
  if (m.ext.take_back_crown() >= 0)
    d += ", take back the follower on " + t.take_back->at;
  else if (m.ext.take_back() >= 0)
    d += ", take back the follower at (" + std::to_string(t.take_back->x) + "," + std::to_string(t.take_back->y) + ") " +
         t.take_back->at;
  if (!t.fruit_type.empty()) d += ", " + t.fruit_type + " stack on the tree";
  if (t.harvest) d += ", harvest the " + std::string(kFruitNames[m.ext.harvest()]) + " tree";
  for (size_t i = 0; i < t.sell.size(); ++i) d += (i ? "+" : ", sell ") + t.sell[i];
  return d;
}

Record record_of(const State& s, const std::vector<std::string>& names, bool scripted) {
  const Game& g = s.game();
  Record r;
  r.players = names;
  r.players.resize(s.num_players());
  for (int i = 0; i < s.num_players(); ++i)
    if (r.players[i].empty()) r.players[i] = "P" + std::to_string(i);
  r.tileset = s.rules().tileset;
  r.tileset_version = load_tile_set(r.tileset).version;
  r.expansions = s.rules().expansions();
  r.seed = s.seed();
  r.scripted = scripted;
  if (scripted && s.rules().fruit_trees()) r.fruit_stacks = s.initial_fruit_stacks();
  const PlacedTile& start = s.placed(0);
  if (g.board_cells().empty() && (start.type != g.start_type() || start.rot != g.start_rotation()))
    r.start = std::make_pair(g.type(start.type).id, 90 * start.rot);
  size_t di = 0;
  const auto& draws = s.draws();
  for (size_t i = 0; i < s.history().size(); ++i) {
    const TurnLog& tl = s.history()[i];
    TurnRecord t;
    const TileType* placed = nullptr;
    std::vector<std::string> round;
    for (; di < draws.size() && draws[di].turn == i + 1; ++di) {
      const std::string& id = g.type(draws[di].type).id;
      if (draws[di].fate == Fate::Discarded) t.discarded.push_back(id);
      else round.push_back(id);
      if (draws[di].fate == Fate::Placed) placed = &g.type(draws[di].type);
    }
    if (round.size() > 1) t.drawn = round;
    const TileType& tt = *placed;
    const PlacedTile& P = s.placed(int(i) + g.num_setup_tiles());
    t.tile = tt.id;
    t.x = P.x;
    t.y = P.y;
    t.rotation = 90 * P.rot;
    for (int k = 0; k < tl.nplague; ++k) t.plague.push_back(slot_place(s, tl.plague[k]));
    if (tl.move.ext.crown() >= 0) t.follower = g.crown_name(tl.move.ext.crown());
    else if (tl.move.meeple >= 0) t.follower = tt.location_name(tl.move.meeple, P.rot);
    if (tl.ret_slot != kNoSlot) t.take_back = slot_place(s, tl.ret_slot);
    else if (tl.move.ext.take_back_crown() >= 0) t.take_back = ReturnSpec{0, 0, g.crown_name(tl.move.ext.take_back_crown())};
    const Move& mv = tl.move;
    if (mv.ext.fruit_type() >= 0) t.fruit_type = kFruitNames[mv.ext.fruit_type()];
    if (mv.ext.harvest() >= 0) {
      const PlacedTile& T = s.placed(s.fruit_tree(mv.ext.harvest()));
      t.harvest = ReturnSpec{T.x, T.y, ""};
      t.harvest_value = tl.harvested;
    } else if (const uint32_t sale = mv.ext.sale()) {
      for (int f = 0; f < kFruitTypes; ++f)
        if (sale >> f & 1) t.sell.push_back(kFruitNames[f]);
    }
    r.turns.push_back(std::move(t));
  }
  r.pending = pending_of(s);
  return r;
}

// ---------------------------------------------------------------------------------------
// State JSON

// The state JSON: the public view (public_view.h, the hidden-information policy) plus exactly the
// hidden fields it leaves out (kHiddenStateFields), so that a loaded state equals the saved one.
std::string state_to_json(const State& s) {
  ordered_json j;
  j["format"] = kStateFormat;
  const ordered_json pv = public_view(s, -1);
  for (auto& [k, v] : pv.items()) j[k] = v;
  j["seed"] = s.seed();
  std::vector<std::string> rng;
  for (uint64_t w : s.rng().raw()) rng.push_back(std::to_string(w));
  j["rng"] = rng;
  if (s.rules().fruit_trees()) {
    ordered_json stacks;
    for (int f = 0; f < kFruitTypes; ++f)
      stacks[kFruitNames[f]] = std::vector<int>(s.initial_fruit_stacks()[f].begin(), s.initial_fruit_stacks()[f].end());
    j["fruit"]["initial_stacks"] = stacks;
    // The tokens still on each stack in their current order (top first): after resample_hidden
    // it is no longer the initial order less the harvested tokens.
    ordered_json now;
    for (int f = 0; f < kFruitTypes; ++f) now[kFruitNames[f]] = s.fruit_stack(f);
    j["fruit"]["stacks"] = now;
  }
  return j.dump();
}

std::string observation_json(const State& s, int player) {
  ordered_json j;
  j["format"] = kObservationFormat;
  j["observer"] = player;
  const ordered_json pv = public_view(s, player);
  for (auto& [k, v] : pv.items()) j[k] = v;
  return j.dump();
}

State state_from_json(std::string_view text) {
  json j = parse_checked(text, "state");
  // Format 2 keeps its history as record format 2 turns; format 1 (history as format 1 turns) still loads.
  const std::string format = j.is_object() ? j.value("format", "") : "";
  if (format != kStateFormat && format != kStateFormatV1)
    throw RecordError(std::string("state: expected format \"") + kStateFormat + "\" (or the older \"" + kStateFormatV1 + "\")");
  try {
    Record r;
    r.players.resize(size_t(get_int(j.at("rules"), "players", "state.rules", 0, 2, 6)));
    r.tileset = j["rules"]["tileset"].get<std::string>();
    r.expansions = j["rules"]["expansions"].get<std::vector<std::string>>();
    if (!j["seed"].is_number_unsigned()) throw RecordError("state: 'seed' must be an integer from 0 to 2^64-1");
    r.seed = j["seed"].get<uint64_t>();
    if (j.contains("start"))
      r.start = std::make_pair(j["start"]["tile"].get<std::string>(), get_int(j["start"], "rotation", "state.start", 0, 0, 270));
    ordered_json rec;
    rec["format"] = format == kStateFormatV1 ? kRecordFormatV1 : kRecordFormat;
    rec["setup"] = {{"players", std::vector<std::string>(r.players.size(), "P")}, {"tileset", r.tileset},
                    {"expansions", r.expansions}, {"seed", r.seed}, {"draws", "scripted"}};
    if (r.start) rec["setup"]["start"] = {{"tile", r.start->first}, {"rotation", r.start->second}};
    if (j.contains("fruit")) rec["setup"]["fruit_stacks"] = j["fruit"]["initial_stacks"];
    rec["turns"] = j["history"];
    if (format == kStateFormat && j.contains("pending")) rec["pending"] = j["pending"];  // replay() restores it
    Record parsed = parse_record(rec.dump());
    Replay rp = replay(parsed, false);
    State s = std::move(rp.state);
    if (format == kStateFormatV1) {
      // Format 1 kept the turn in progress in pending_draws / pending_choice / pending_plague: read
      // into the one form and restored by the one reader (every decision checked by check_move).
      PendingTurn p;
      if (j.contains("pending_draws"))
        for (auto& id : list_of(j["pending_draws"], "pending_draws", "state", 0, "tile ids")) {
          if (!id.is_string()) throw RecordError("state: 'pending_draws' must be an array of tile ids");
          p.draws.push_back(str_of(id, "pending_draws", "state", 0));
        }
      if (j.contains("pending_choice")) p.choice = get_int(j, "pending_choice", "state", 0, 0, 255);
      if (j.contains("pending_plague"))
        for (auto& pj : list_of(j["pending_plague"], "pending_plague", "state", 0, "{\"x\", \"y\", \"at\"}")) {
          if (!pj.is_object()) throw RecordError("state: 'pending_plague' entries are {\"x\", \"y\", \"at\"}");
          p.plague.push_back(ReturnSpec{get_int(pj, "x", "state.pending_plague"), get_int(pj, "y", "state.pending_plague"),
                                        get_str(pj, "at", "state.pending_plague")});
        }
      if (std::string err = apply_pending(s, p); !err.empty()) throw RecordError("state: pending: " + err);
    }
    if (j.contains("fruit") && j["fruit"].contains("stacks")) {
      const json& now = j["fruit"]["stacks"];
      if (!now.is_object()) throw RecordError("state: fruit.stacks must be an object {\"apple\": [values top first]}");
      for (auto it = now.begin(); it != now.end(); ++it) {
        const int f = fruit_index(it.key());
        if (f < 0) throw RecordError("state: fruit.stacks: unknown fruit type '" + it.key() + "' (" + fruit_list() + ")");
        if (!it.value().is_array() || !s.set_fruit_order(f, it.value().get<std::vector<int>>()))
          throw RecordError("state: fruit.stacks." + it.key() + " must list the " + std::to_string(s.fruit_left(f)) +
                            " tokens still on that stack, top first");
      }
    }
    if (j.value("finished_scoring", false)) s.finish();
    std::array<uint64_t, 4> raw{};
    auto rng = j["rng"].get<std::vector<std::string>>();
    if (rng.size() != 4) throw RecordError("state: 'rng' must have 4 words");
    for (int i = 0; i < 4; ++i) {
      if (rng[i].empty() || rng[i].size() > 20 || rng[i].find_first_not_of("0123456789") != std::string::npos)
        throw RecordError("state: 'rng' words must be decimal numbers below 2^64");
      raw[i] = std::stoull(rng[i]);  // throws std::out_of_range beyond 2^64-1
    }
    Rng g;
    g.set_raw(raw);
    s.set_rng(g);
    return s;
  } catch (const RecordError&) {
    throw;
  } catch (const std::exception& e) {
    throw RecordError(std::string("state: ") + e.what());
  }
}

}  // namespace carc
