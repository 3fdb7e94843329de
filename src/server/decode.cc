// Request bodies -> engine values (see decode.h).
#include "decode.h"

#include <cstdlib>

#include "ai_pool.h"
#include "game.h"
#include "input_limits.h"
#include "notation.h"
#include "session.h"

namespace carc::server {

json parse_body(const std::string& body) {
  if (body.empty()) return json::object();
  // The nesting depth is checked before parsing (a 70,000-deep body must not reach the parser
  // or anything recursive, such as dump()).
  if (auto err = carc::limits::json_depth_error(body); !err.empty()) fail(400, "the request body: " + err);
  json j;
  try {
    j = carc::limits::parse_json_unique_keys(body);
  } catch (const carc::limits::DuplicateKeyError& e) {
    fail(400, std::string("the request body: ") + e.what());
  } catch (const json::exception&) {
    fail(400, "malformed JSON in the request body");
  }
  if (!j.is_object()) fail(400, "the request body must be a JSON object");
  return j;
}

std::string str_field(const json& j, const char* key, const std::string& def) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return def;
  if (!it->is_string()) fail(400, std::string("'") + key + "' must be a string");
  return it->get<std::string>();
}
namespace {
// The value of an integer field in [lo, hi], judged on the JSON number itself so nothing wraps
// (2^64-1 is not -1, 2^32+90 is not 90).
int int_in(const json& v, const char* key, int lo, int hi) {
  if (!v.is_number_integer()) fail(400, std::string("'") + key + "' must be an integer");
  const bool ok = v.is_number_unsigned() ? hi >= 0 && v.get<uint64_t>() <= uint64_t(hi) && (lo <= 0 || v.get<uint64_t>() >= uint64_t(lo))
                                         : v.get<int64_t>() >= lo && v.get<int64_t>() <= hi;
  if (!ok)
    fail(400, std::string("'") + key + "' must be from " + std::to_string(lo) + " to " + std::to_string(hi) + " (got " +
                  v.dump().substr(0, 40) + ")");
  return int(v.is_number_unsigned() ? int64_t(v.get<uint64_t>()) : v.get<int64_t>());
}
}  // namespace

int int_field(const json& j, const char* key, int def, int lo, int hi) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return def;
  return int_in(*it, key, lo, hi);
}
int int_required(const json& j, const char* key, int lo, int hi) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) fail(400, std::string("'") + key + "' is required (an integer)");
  return int_in(*it, key, lo, hi);
}

int coordinate(const json& j, const char* key) {
  return int_required(j, key, -carc::limits::kMaxCoordinate, carc::limits::kMaxCoordinate);
}

Rules rules_from(const std::string& tileset, const std::vector<std::string>& expansions, int players) {
  Rules r;
  r.players = players;
  r.tileset = tileset;
  for (const auto& e : expansions)
    if (!r.enable(e)) fail(400, "unknown expansion '" + e + "' (" + module_names(ModuleKind::Expansion) + ")");
  if (auto err = r.validate(); !err.empty()) fail(400, err);
  return r;
}

std::vector<std::string> expansions_of(const json& j) {
  std::vector<std::string> out;
  auto it = j.find("expansions");
  if (it == j.end() || it->is_null()) return out;
  if (it->is_string()) {
    std::string s = it->get<std::string>(), cur;
    for (char c : s + ",") {
      if (c == ',') {
        if (!cur.empty()) out.push_back(cur);
        cur.clear();
      } else if (c != ' ') {
        cur += c;
      }
    }
    return out;
  }
  if (!it->is_array()) fail(400, "'expansions' must be a list of names");
  for (const auto& e : *it) {
    if (!e.is_string()) fail(400, "'expansions' must be a list of names");
    out.push_back(e.get<std::string>());
  }
  return out;
}

namespace {

// The place of a follower: {"x", "y", "at"} on the land, or {"at": "crown:SEGMENT:K"} on a
// crown space (no x, y). `what` names the field in messages.
ReturnSpec place_from(const json& j, const std::string& what) {
  if (!j.is_object()) fail(400, "'" + what + "' must be an object {x, y, at} (or {at: \"crown:SEGMENT:K\"})");
  ReturnSpec r;
  r.at = str_field(j, "at");
  if (r.at.empty()) fail(400, "'" + what + ".at' is required: a location such as \"N\" or a crown space");
  if (r.at.size() > carc::limits::kMaxRecordStringBytes) fail(400, "'" + what + ".at' has at most " + std::to_string(carc::limits::kMaxRecordStringBytes) + " bytes");
  if (r.crown()) return r;
  r.x = coordinate(j, "x");
  r.y = coordinate(j, "y");
  return r;
}

}  // namespace

NamedMove named_move_from(const json& body) {
  NamedMove n;
  const std::string kind = str_field(body, "kind", "place");
  if (kind == "place") n.kind = MoveKind::Place;
  else if (kind == "choose") n.kind = MoveKind::Choose;
  else if (kind == "plague") n.kind = MoveKind::Plague;
  else fail(400, "'kind' must be place, choose or plague");
  if (n.kind == MoveKind::Plague) {
    // {"kind": "plague", "x", "y", "at"}: the deciding player's follower taken back.
    ReturnSpec r;
    r.at = str_field(body, "at");
    if (r.at.empty()) fail(400, "'at' is required: the location of the follower taken back (e.g. \"N\")");
    if (r.at.size() > carc::limits::kMaxRecordStringBytes) fail(400, "'at' has at most " + std::to_string(carc::limits::kMaxRecordStringBytes) + " bytes");
    if (!r.crown()) {
      r.x = coordinate(body, "x");
      r.y = coordinate(body, "y");
    }
    n.take_back = r;
    return n;
  }
  n.choice = int_field(body, "choice", -1, 0, kMaxDrawnChoice);
  n.tile = str_field(body, "tile");
  if (n.tile.size() > carc::limits::kMaxRecordStringBytes) fail(400, "'tile' has at most " + std::to_string(carc::limits::kMaxRecordStringBytes) + " bytes");
  if (n.kind == MoveKind::Choose) return n;
  n.x = coordinate(body, "x");
  n.y = coordinate(body, "y");
  n.rotation = int_field(body, "rotation", 0, 0, 270);
  if (n.rotation % 90 != 0) fail(400, "'rotation' must be 0, 90, 180 or 270 (degrees clockwise)");
  // The old names "meeple" and "return" (deprecated aliases until issue #36) are refused with a
  // message that names the new ones.
  for (const auto& [old_name, name] : {std::pair{"meeple", "follower"}, std::pair{"return", "take_back"}})
    if (body.contains(old_name))
      fail(400, std::string("'") + old_name + "' is no longer accepted: the move object says '" + name + "'");
  if (auto it = body.find("follower"); it != body.end() && !it->is_null()) {
    const json* f = &*it;
    if (!f->is_string()) fail(400, "'follower' must be a string: a location (\"N\") or a crown space (\"crown:taxes:0\")");
    n.follower = f->get<std::string>();
    if (n.follower.size() > carc::limits::kMaxRecordStringBytes) fail(400, "'follower' has at most " + std::to_string(carc::limits::kMaxRecordStringBytes) + " bytes");
  }
  if (auto it = body.find("take_back"); it != body.end() && !it->is_null()) n.take_back = place_from(*it, "take_back");
  // Fruit-Bearing Trees: the stack put on a tree tile ("fruit_type", default: the first unused
  // one, the choice makes no difference, R-8) and an optional fruit action
  // ("fruit": {"harvest": {"x", "y"}} or {"sell": [types]}).
  n.fruit_type = str_field(body, "fruit_type");
  if (n.fruit_type.size() > carc::limits::kMaxRecordStringBytes) fail(400, "'fruit_type' has at most " + std::to_string(carc::limits::kMaxRecordStringBytes) + " bytes");
  auto fr = body.find("fruit");
  if (fr != body.end() && !fr->is_null()) {
    const char* shape = "'fruit' must be {\"harvest\": {x, y}} or {\"sell\": [types]}";
    if (!fr->is_object() || fr->size() != 1) fail(400, shape);
    if (fr->contains("harvest")) {
      const json& h = (*fr)["harvest"];
      if (!h.is_object()) fail(400, "'harvest' must be an object {x, y}");
      n.harvest = std::make_pair(coordinate(h, "x"), coordinate(h, "y"));
    } else if (fr->contains("sell") && (*fr)["sell"].is_array()) {
      const json& sell = (*fr)["sell"];
      if (sell.empty() || sell.size() > size_t(kFruitTypes))
        fail(400, "'sell' names 1 to " + std::to_string(kFruitTypes) + " fruit types");
      for (const auto& v : sell) {
        if (!v.is_string()) fail(400, "'sell' must be a list of fruit type names (" + fruit_list() + ")");
        n.sell.push_back(v.get<std::string>());
      }
    } else {
      fail(400, shape);
    }
  }
  return n;
}

Move move_from(const State& s, const json& body) {
  NotationOptions opt;
  opt.default_fruit_stack = true;
  const MoveResult r = parse_move(s, named_move_from(body), opt);
  if (r.status == MoveStatus::Malformed) fail(400, "malformed move: " + r.error);
  if (r.status == MoveStatus::Illegal) fail(422, "illegal move: " + r.error);
  return r.move;
}


// Seats from a create/upload request: [{"name", "type": human|remote|ai, "ai": spec}].
std::vector<Seat> seats_from_request(const json& body, const std::vector<std::string>* names, const AiLimits& limits) {
  std::vector<Seat> seats;
  auto it = body.find("players");
  if (it == body.end() || it->is_null()) {
    if (!names) fail(400, "'players' is required: a list of {name, type: human|remote|ai, ai}");
    for (size_t i = 0; i < names->size(); ++i) {
      Seat seat;
      if (auto err = carc::limits::clean_player_name((*names)[i], seat.name); !err.empty())
        fail(400, "the record's player name setup.players[" + std::to_string(i) + "] " + err + " (give 'players' to rename)");
      if (seat.name.empty()) seat.name = "Player " + std::to_string(i + 1);
      if (seat.name.size() > carc::limits::kMaxPlayerNameBytes)
        fail(400, "the record's player " + std::to_string(i) + " has a name of " + std::to_string(seat.name.size()) +
                      " bytes; names have at most " + std::to_string(carc::limits::kMaxPlayerNameBytes) +
                      " (give 'players' to rename)");
      seats.push_back(std::move(seat));
    }
    return seats;
  }
  if (!it->is_array()) fail(400, "'players' must be a list of {name, type, ai}");
  if (it->size() < 2 || it->size() > size_t(kMaxPlayers))
    fail(400, "a game has 2 to " + std::to_string(kMaxPlayers) + " players");
  if (names && names->size() != it->size())
    fail(400, "the record has " + std::to_string(names->size()) + " players, 'players' lists " + std::to_string(it->size()));
  for (size_t i = 0; i < it->size(); ++i) {
    const json& p = (*it)[i];
    if (!p.is_object()) fail(400, "'players' entries must be objects {name, type, ai}");
    Seat s;
    // Cleaned and checked (control, bidirectional and invisible characters refused, whitespace
    // trimmed and collapsed: docs/security.md "Player names"); "" is "Player N".
    const std::string given = str_field(p, "name", names ? (*names)[i] : "");
    if (auto err = carc::limits::clean_player_name(given, s.name); !err.empty())
      fail(400, "players[" + std::to_string(i) + "].name " + err);
    if (s.name.empty()) s.name = "Player " + std::to_string(i + 1);
    if (s.name.size() > carc::limits::kMaxPlayerNameBytes)
      fail(400, "player names have at most " + std::to_string(carc::limits::kMaxPlayerNameBytes) + " bytes (players[" +
                    std::to_string(i) + "] has " + std::to_string(s.name.size()) + ")");
    s.type = str_field(p, "type", "human");
    if (s.type != "human" && s.type != "remote" && s.type != "ai")
      fail(400, "player type must be human, remote or ai, not '" + s.type + "'");
    if (s.type == "ai") {
      s.ai = str_field(p, "ai", "greedy");
      try {
        make_ai(s.ai, 0, limits);
      } catch (const std::exception& e) {
        fail(400, std::string("players[") + std::to_string(i) + "].ai: " + e.what());
      }
    }
    seats.push_back(std::move(s));
  }
  return seats;
}

}  // namespace carc::server
