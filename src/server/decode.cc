// Request bodies -> engine values (see decode.h).
#include "decode.h"

#include <cstdlib>

#include "ai_pool.h"
#include "game.h"
#include "input_limits.h"
#include "session.h"

namespace carc::server {

json parse_body(const std::string& body) {
  if (body.empty()) return json::object();
  // The nesting depth is checked before parsing (a 70,000-deep body must not reach the parser
  // or anything recursive, such as dump()).
  if (auto err = carc::limits::json_depth_error(body); !err.empty()) fail(400, "the request body: " + err);
  json j = json::parse(body, nullptr, false);
  if (j.is_discarded()) fail(400, "malformed JSON in the request body");
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
    if (!r.enable(e)) fail(400, "unknown expansion '" + e + "' (festival, fortune-teller, fruit-trees)");
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

// Wheel of Fortune, the Plague: {"kind": "plague", "x", "y", "at"} names one of the deciding
// player's followers on the land.
Move plague_move_from(const State& s, const json& body) {
  if (s.phase() != Phase::Plague) fail(422, "illegal move: no Plague decision is pending");
  const std::string at = str_field(body, "at");
  if (at.rfind("crown:", 0) == 0)
    fail(422, "illegal move: followers on crown spaces are immune to the Plague: take back one from the land");
  if (at.empty()) fail(400, "'at' is required: the location of the follower taken back (e.g. \"N\")");
  const int x = coordinate(body, "x"), y = coordinate(body, "y");
  const std::string where = "(" + std::to_string(x) + "," + std::to_string(y) + ")";
  const int pt = s.tile_at(x, y);
  if (pt < 0) fail(422, "illegal move: no tile at " + where);
  const PlacedTile& P = s.placed(pt);
  const int seg = s.game().type(P.type).segment_at(at, P.rot);
  if (seg < 0) fail(422, "illegal move: no location '" + at + "' on the tile at " + where);
  Move m;
  m.kind = MoveKind::Plague;
  m.x = int16_t(x);
  m.y = int16_t(y);
  for (int i = 0; i < s.num_followers(); ++i)
    if (s.followers()[i].slot == P.slot_base + seg && s.followers()[i].player == s.plague_player()) m.ret = int8_t(i);
  if (m.ret < 0) fail(422, "illegal move: you have no follower at " + where + " " + at + " to take back");
  if (auto err = s.check_move(m); !err.empty()) fail(422, "illegal move: " + err);
  return m;
}

// A move request (record-style: board-oriented locations) -> the engine's Move. Throws 422.
// "kind": "place" (default), "choose" (Wheel of Fortune: a wheel tile among several drawn,
// named by "choice" or "tile") or "plague".
Move move_from(const State& s, const json& body) {
  const std::string kind = str_field(body, "kind", "place");
  if (kind != "place" && kind != "choose" && kind != "plague") fail(400, "'kind' must be place, choose or plague");
  if (kind == "plague") return plague_move_from(s, body);
  if (s.phase() == Phase::Plague)
    fail(422, "illegal move: the Plague: take back one of your followers first ({\"kind\": \"plague\", \"x\", \"y\", \"at\"})");
  // Which drawn tile: "choice" (index into the view's "drawn"), or "tile" (its id), else the
  // first placeable one.
  int choice = int_field(body, "choice", -1, 0, kMaxDrawnChoice);
  const std::string tile = str_field(body, "tile");
  if (choice < 0 && !tile.empty()) {
    for (int i = 0; i < s.num_drawn() && choice < 0; ++i)
      if (s.game().type(s.drawn_tile(i)).id == tile) choice = i;
    if (choice < 0) fail(422, "illegal move: tile " + tile + " was not drawn (the tile to place is " + s.game().type(s.current_tile()).id + ")");
  }
  if (choice < 0)
    for (int i = 0; i < s.num_drawn() && choice < 0; ++i)
      if (s.drawn_tile(i) == s.current_tile()) choice = i;
  if (choice < 0 || choice >= s.num_drawn()) fail(422, "illegal move: 'choice' must name one of the drawn tiles");
  if (!tile.empty() && s.game().type(s.drawn_tile(choice)).id != tile)
    fail(422, "illegal move: drawn tile " + std::to_string(choice) + " is " + s.game().type(s.drawn_tile(choice)).id + ", not " + tile);
  const TileType& t = s.game().type(s.drawn_tile(choice));
  Move m;
  m.choice = uint8_t(choice);
  if (kind == "choose") {
    m.kind = MoveKind::Choose;
    if (auto err = s.check_move(m); !err.empty()) fail(422, "illegal move: " + err);
    return m;
  }
  const int x = coordinate(body, "x"), y = coordinate(body, "y");
  const int rotation = int_field(body, "rotation", 0, 0, 270);
  if (rotation % 90 != 0) fail(400, "'rotation' must be 0, 90, 180 or 270");
  m.x = int16_t(x);
  m.y = int16_t(y);
  const int rot = rotation / 90;
  m.rot = t.canonical_rot[rot];
  const std::string meeple = str_field(body, "meeple");
  if (meeple.rfind("crown:", 0) == 0) {
    if (!s.has_wheel()) fail(422, "illegal move: crown spaces are on the Wheel of Fortune, which this game does not have");
    const int c = s.game().crown_index(meeple);
    if (c < 0) fail(422, "illegal move: no crown space '" + meeple + "' on this wheel (crown:SEGMENT:K, e.g. crown:taxes:0)");
    m.meeple = int8_t(kCrownBase + c);
  } else if (!meeple.empty()) {
    const int seg = t.segment_at(meeple, rot);
    if (seg < 0) fail(422, "illegal move: tile " + t.id + " rotated " + std::to_string(rotation) + " has no location '" + meeple + "'");
    m.meeple = int8_t(t.segment_at(t.location_name(seg, rot), m.rot));
  }
  auto it = body.find("return");
  if (it != body.end() && !it->is_null()) {
    if (!it->is_object()) fail(400, "'return' must be an object {x, y, at}");
    const std::string at = str_field(*it, "at");
    if (at.rfind("crown:", 0) == 0) {  // Festival: a follower back from a crown space
      const int c = s.has_wheel() ? s.game().crown_index(at) : -1;
      if (c < 0) fail(422, "illegal move: no crown space '" + at + "' in this game");
      if (s.crown(c) != s.turn_player()) fail(422, "illegal move: you have no follower on " + at);
      m.ret = int8_t(kCrownBase + c);
    }
  }
  if (it != body.end() && !it->is_null() && m.ret < 0) {
    const int rx = coordinate(*it, "x"), ry = coordinate(*it, "y");
    const std::string at = str_field(*it, "at");
    const int pt = s.tile_at(rx, ry);
    if (pt < 0) fail(422, "illegal move: no tile at (" + std::to_string(rx) + "," + std::to_string(ry) + ") to take a follower back from");
    const PlacedTile& P = s.placed(pt);
    const int seg = s.game().type(P.type).segment_at(at, P.rot);
    if (seg < 0) fail(422, "illegal move: no location '" + at + "' on that tile");
    for (int i = 0; i < s.num_followers(); ++i)
      if (s.followers()[i].slot == P.slot_base + seg && s.followers()[i].player == s.turn_player()) m.ret = int8_t(i);
    if (m.ret < 0) fail(422, "illegal move: you have no follower there");
  }
  // Fruit-Bearing Trees: the stack put on a tree tile ("fruit_type", default: the first unused
  // one, the choice makes no difference, R-8) and an optional fruit action
  // ("fruit": {"harvest": {"x", "y"}} or {"sell": [types]}).
  const std::string ft = str_field(body, "fruit_type");
  if (t.tree) {
    for (int f = 0; f < kFruitTypes && m.fruit_type < 0; ++f)
      if (ft.empty() ? s.fruit_tree(f) < 0 : ft == kFruitNames[f]) m.fruit_type = int8_t(f);
    if (m.fruit_type < 0) fail(422, "illegal move: unknown or used fruit type '" + ft + "'");
  } else if (!ft.empty()) {
    fail(422, "illegal move: tile " + t.id + " has no tree for a fruit stack ('fruit_type')");
  }
  auto fr = body.find("fruit");
  if (fr != body.end() && !fr->is_null()) {
    if (!fr->is_object() || fr->size() != 1)
      fail(400, "'fruit' must be {\"harvest\": {x, y}} or {\"sell\": [types]}");
    if (fr->contains("harvest")) {
      const json& h = (*fr)["harvest"];
      if (!h.is_object()) fail(400, "'harvest' must be an object {x, y}");
      const int hx = coordinate(h, "x"), hy = coordinate(h, "y");
      int f = hx == x && hy == y && t.tree ? m.fruit_type : -1;
      const int pt = s.tile_at(hx, hy);
      if (f < 0 && pt >= 0) f = s.placed(pt).fruit;
      if (f < 0) fail(422, "illegal move: no tree at (" + std::to_string(hx) + "," + std::to_string(hy) + ")");
      m.action = FruitAction::Harvest;
      m.target = uint8_t(f);
    } else if (fr->contains("sell") && (*fr)["sell"].is_array()) {
      m.action = FruitAction::Sell;
      for (const auto& v : (*fr)["sell"]) {
        int f = -1;
        for (int k = 0; k < kFruitTypes; ++k)
          if (v.is_string() && v.get<std::string>() == kFruitNames[k]) f = k;
        if (f < 0) fail(422, "illegal move: unknown fruit type in 'sell'");
        if (m.target >> f & 1) fail(422, "illegal move: a sale must be of different fruit types");
        m.target |= uint8_t(1u << f);
      }
    } else {
      fail(400, "'fruit' must be {\"harvest\": {x, y}} or {\"sell\": [types]}");
    }
  }
  if (auto err = s.check_move(m); !err.empty()) fail(422, "illegal move: " + err);
  return m;
}


// Seats from a create/upload request: [{"name", "type": human|remote|ai, "ai": spec}].
std::vector<Seat> seats_from_request(const json& body, const std::vector<std::string>* names, const AiLimits& limits) {
  std::vector<Seat> seats;
  auto it = body.find("players");
  if (it == body.end() || it->is_null()) {
    if (!names) fail(400, "'players' is required: a list of {name, type: human|remote|ai, ai}");
    for (size_t i = 0; i < names->size(); ++i) {
      if ((*names)[i].size() > carc::limits::kMaxPlayerNameBytes)
        fail(400, "the record's player " + std::to_string(i) + " has a name of " + std::to_string((*names)[i].size()) +
                      " bytes; names have at most " + std::to_string(carc::limits::kMaxPlayerNameBytes) +
                      " (give 'players' to rename)");
      Seat seat;
      seat.name = (*names)[i];
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
    s.name = str_field(p, "name", names ? (*names)[i] : "");
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
