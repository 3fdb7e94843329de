#include "record.h"

#include "notation.h"
#include "public_view.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "input_limits.h"
#include "vocabulary.h"
#include "record_json.h"
#include "expansions/record_parts.h"

namespace carc {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

using namespace record_json;

// What a versioned tile set's version means for old records.
std::string tileset_version_words(const std::string& tileset, int version) {
  const TileSetFile& f = load_tile_set(tileset);
  std::string w = "the " + tileset + " tile set is version " + std::to_string(version);
  if (!f.version_note.empty()) w += ": " + f.version_note;
  return w;
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
  check_keys_with(su, "setup", {"players", "tileset", "tileset_version", "expansions", "seed", "draws", "start"}, kModuleSetupKeys);
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
  modules_read_setup(su, r);
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
    check_keys_with(tj, where, {"tile", "x", "y", "rotation", follower_key, "player", "discarded", "drawn", take_back_key},
                    kModuleTurnKeys, n);
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
    if (tj.contains(take_back_key)) t.take_back = place_of(tj[take_back_key], where + " " + take_back_key, n);
    modules_read_turn(tj, where, n, t);
    r.turns.push_back(std::move(t));
  }
  if (doc.contains("pending")) {
    // The turn in progress (format 2): {"draws": [ids], "choice": k, "plague": [{x, y, at}]}.
    if (version == 1) fail("record", "unknown field 'pending' (format 1 has no turn in progress)");
    const json& pj = doc["pending"];
    if (!pj.is_object()) fail("pending", "must be an object {\"draws\": [ids], \"choice\": k, \"plague\": [{x, y, at}]}");
    check_keys_with(pj, "pending", {"draws", "choice"}, kModulePendingKeys);
    if (pj.contains("draws"))
      for (auto& d : list_of(pj["draws"], "draws", "pending", 0, "tile ids")) {
        if (!d.is_string()) fail("pending", "'draws' must be an array of tile ids");
        r.pending.draws.push_back(str_of(d, "draws", "pending", 0));
      }
    if (pj.contains("choice")) r.pending.choice = get_int(pj, "choice", "pending", 0, 0, 255);
    modules_read_pending(pj, r.pending);
  }
  return r;
}

std::string pending_json(const PendingTurn& p) {
  ordered_json j = ordered_json::object();
  if (!p.draws.empty()) j["draws"] = p.draws;
  if (p.choice >= 0) j["choice"] = p.choice;
  modules_write_pending(p, j);
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
  modules_write_turn(t, tj);
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
  modules_write_setup(r, su);
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
    modules_initial_state(r, s, true);
    return s;
  }
  State s(g, r.seed);
  modules_initial_state(r, s, false);
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
  // The move, named as the record names it (one converter for every layer: notation.h).
  NamedMove named;
  named.tile = t.tile;
  modules_replay_steps(s, t, where, n);
  named.x = t.x;
  named.y = t.y;
  named.rotation = t.rotation;
  named.follower = t.follower;
  named.take_back = t.take_back;
  modules_name_turn(t, named);
  const MoveResult r = parse_move(s, named);
  if (!r.ok()) fail(where, r.error, n);
  const Move& m = r.move;
  modules_before_apply(s, t, m, where, n);
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
  modules_turn_of(n, t);
  return t;
}

std::string describe_move(const State& s, const Move& m) {
  if (std::string d; modules_describe_step(s, m, d)) return d;
  const TileType& tt = s.game().type(s.drawn_tile(m.choice));
  std::string d = tt.id + " at (" + std::to_string(m.x) + "," + std::to_string(m.y) + ") rot " + std::to_string(90 * m.rot);
  if (!modules_describe_follower(s, m, d) && m.meeple >= 0)
    d += ", follower on " + std::string(kind_name(tt.rot[m.rot].seg[m.meeple].kind)) + " " + tt.location_name(m.meeple, m.rot);
  TurnRecord t = turn_of(s, m);
  if (!modules_describe_take_back(m, t, d) && m.ext.take_back() >= 0)
    d += ", take back the follower at (" + std::to_string(t.take_back->x) + "," + std::to_string(t.take_back->y) + ") " +
         t.take_back->at;
  modules_describe_place(m, t, d);
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
  modules_record_setup(s, scripted, r);
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
    modules_record_turn(s, tl, t);
    if (t.follower.empty() && tl.move.meeple >= 0) t.follower = tt.location_name(tl.move.meeple, P.rot);
    if (tl.ret_slot != kNoSlot) t.take_back = slot_place(s, tl.ret_slot);
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
  modules_write_state(s, j);
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
  const std::string format =
      j.is_object() && j.contains("format") && j["format"].is_string() ? j["format"].get<std::string>() : "";
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
    modules_state_setup(j, rec["setup"]);
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
      modules_read_pending_v1(j, p);
      if (std::string err = apply_pending(s, p); !err.empty()) throw RecordError("state: pending: " + err);
    }
    modules_read_state(j, s);
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
