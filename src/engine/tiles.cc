#include "tiles.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "expansions/tile_fields.h"
#include "input_limits.h"

namespace carc {

using nlohmann::json;


const std::array<const char*, 8> kHalfNames = {"Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"};

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Road: return "road";
    case Kind::City: return "city";
    case Kind::Field: return "field";
    case Kind::Monastery: return "monastery";
    case Kind::Tent: return "tent";
  }
  return "?";
}

namespace {

std::string trim(std::string s) {
  auto b = s.find_first_not_of(" \t");
  auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(trim(cur));
  return out;
}

int side_index(const std::string& s) {
  for (int d = 0; d < 4; ++d)
    if (s.size() == 1 && s[0] == kSideNames[d]) return d;
  return -1;
}

int half_index(const std::string& s) {
  for (int h = 0; h < 8; ++h)
    if (s == kHalfNames[h]) return h;
  return -1;
}

// Removes a trailing parenthetical comment: "c1=N+S (crossing)" -> "c1=N+S".
std::string strip_comment(const std::string& s) {
  auto p = s.find('(');
  return trim(p == std::string::npos ? s : s.substr(0, p));
}

struct Parser {
  const std::string& origin;
  std::string tile;
  [[noreturn]] void fail(const std::string& what) const {
    throw TileDataError(origin + ": tile " + (tile.empty() ? "?" : tile) + ": " + what);
  }
};

uint8_t rotate_edges(uint8_t m, int r) { return uint8_t(((m << r) | (m >> (4 - r))) & 0xF); }
uint8_t rotate_halves(uint8_t m, int r) {
  int k = 2 * r;
  return uint8_t(((m << k) | (m >> (8 - k))) & 0xFF);
}

TileType parse_tile(const json& j, Parser& p, const std::string& set, bool board_cell = false) {
  TileType t;
  t.set = set;
  if (!j.is_object()) p.fail("entry is not an object");
  static const std::vector<std::string> allowed = {"id", "count", "edges", "cities", "pennants", "roads",
                                                   "fields", "center", "symbols", "note"};
  for (auto& [k, v] : j.items())
    if (std::find(allowed.begin(), allowed.end(), k) == allowed.end() &&
        std::find(kModuleTileKeys.begin(), kModuleTileKeys.end(), k) == kModuleTileKeys.end())
      p.fail("unknown field '" + k + "'");
  if (!j.contains("id") || !j["id"].is_string()) p.fail("missing string field 'id'");
  t.id = j["id"].get<std::string>();
  p.tile = t.id;
  if (t.id.empty() || t.id.find_first_of(" \t\",") != std::string::npos) p.fail("bad id");
  auto str = [&](const char* k) -> std::string {
    if (!j.contains(k)) return "-";
    if (!j[k].is_string()) p.fail(std::string("field '") + k + "' must be a string");
    return j[k].get<std::string>();
  };
  if (!j.contains("count") || !j["count"].is_number_integer() || j["count"].get<int>() < 0)
    p.fail("'count' must be a non-negative integer");
  t.count = j["count"].get<int>();
  std::string edges = str("edges");
  if (edges.size() != 4)
    p.fail(board_cell ? "'edges' must be 4 letters (N,E,S,W) of C, R, F, W" : "'edges' must be 4 letters (N,E,S,W) of C, R, F");
  Edge e[4];
  uint8_t closed_sides = 0;  // board cells only: closed sides (they match nothing)
  for (int d = 0; d < 4; ++d) {
    switch (edges[d]) {
      case 'C': e[d] = Edge::City; break;
      case 'R': e[d] = Edge::Road; break;
      case 'F': e[d] = Edge::Field; break;
      case 'W':
        if (board_cell) {
          e[d] = Edge::None;
          closed_sides |= uint8_t(1 << d);
          break;
        }
        [[fallthrough]];
      default:
        p.fail(std::string("edge ") + kSideNames[d] + " is '" + edges[d] + "', not C, R or F" +
               (edges[d] == 'W' ? std::string(" (W, a ") + kClosedSideName + ", is for board cells only)" : ""));
    }
  }
  t.note = j.contains("note") && j["note"].is_string() ? j["note"].get<std::string>() : "";

  Segment seg[kMaxSegments];
  int n = 0;
  std::map<std::string, int> names;  // "c1" -> segment index
  auto add = [&](const Segment& s, const std::string& name) {
    if (n >= kMaxSegments) p.fail("more than " + std::to_string(kMaxSegments) + " segments");
    if (!name.empty()) {
      if (names.count(name)) p.fail("segment " + name + " defined twice");
      names[name] = n;
    }
    seg[n++] = s;
  };
  auto parse_edge_list = [&](const std::string& def, char prefix, Kind kind) {
    if (def == "-" || def.empty()) return;
    for (auto& item : split(def, ';')) {
      std::string it = strip_comment(item);
      auto eq = it.find('=');
      if (eq == std::string::npos || it[0] != prefix) p.fail("cannot read segment '" + item + "'");
      Segment s;
      s.kind = kind;
      for (auto& side : split(it.substr(eq + 1), '+')) {
        int d = side_index(side);
        if (d < 0) p.fail("segment " + it.substr(0, eq) + ": '" + side + "' is not a side (N, E, S, W)");
        s.edges |= uint8_t(1 << d);
      }
      add(s, trim(it.substr(0, eq)));
    }
  };
  parse_edge_list(str("cities"), 'c', Kind::City);
  parse_edge_list(str("roads"), 'r', Kind::Road);
  std::string pen = str("pennants");
  if (pen != "0" && pen != "-") {
    for (auto& item : split(pen, ';')) {
      auto colon = item.find(':');
      if (colon == std::string::npos) p.fail("cannot read pennants '" + item + "'");
      std::string name = trim(item.substr(0, colon));
      if (!names.count(name) || seg[names[name]].kind != Kind::City)
        p.fail("pennants name '" + name + "', which is not a city segment");
      seg[names[name]].pennants = uint8_t(std::atoi(item.substr(colon + 1).c_str()));
    }
  }
  std::string fields = str("fields");
  if (fields != "-" && !fields.empty()) {
    for (auto& item : split(fields, ';')) {
      auto eq = item.find('=');
      if (eq == std::string::npos || item[0] != 'f') p.fail("cannot read field '" + item + "'");
      Segment s;
      s.kind = Kind::Field;
      std::string body = item.substr(eq + 1);
      std::string adj;
      auto br = body.find('[');
      if (br != std::string::npos) {
        auto close = body.find(']', br);
        if (close == std::string::npos) p.fail("field '" + item + "': missing ']'");
        adj = body.substr(br + 1, close - br - 1);
        body = body.substr(0, br);
      }
      body = trim(body);
      if (body != "inner") {
        for (auto& h : split(body, '+')) {
          int hi = half_index(h);
          if (hi < 0) p.fail("field " + trim(item.substr(0, eq)) + ": '" + h + "' is not a half-edge");
          if (s.halves & (1 << hi)) p.fail("field " + trim(item.substr(0, eq)) + " names " + h + " twice");
          s.halves |= uint8_t(1 << hi);
        }
      }
      for (auto& c : split(adj, ',')) {
        if (c.empty()) continue;
        if (!names.count(c) || seg[names[c]].kind != Kind::City)
          p.fail("field " + trim(item.substr(0, eq)) + " touches '" + c + "', which is not a city segment");
        s.adj_cities |= uint16_t(1 << names[c]);
      }
      add(s, trim(item.substr(0, eq)));
    }
  }
  if (j.contains("center")) {
    if (!j["center"].is_string()) p.fail("'center' must be a string");
    std::string c = j["center"].get<std::string>();
    Segment s;
    if (c == "monastery") s.kind = Kind::Monastery;
    else if (!modules_centre_kind(c, s.kind))
      p.fail("unknown centre feature '" + c + "' (monastery or " + modules_centre_names() + ")");
    t.center = n;
    add(s, "");
  }
  if (j.contains("symbols")) {
    if (!j["symbols"].is_array()) p.fail("'symbols' must be an array");
    for (auto& s : j["symbols"]) {
      std::string v = s.is_string() ? s.get<std::string>() : "";
      if (modules_tile_symbol(v, t)) continue;
      if (v == "tree") t.tree = true;
      else p.fail("unknown symbol '" + v + "'");
    }
  }
  if (std::string err = modules_tile_fields(j, t); !err.empty()) p.fail(err);

  // Consistency rules (see docs/tile-format.md).
  uint8_t edge_owner_count[4] = {};
  uint8_t half_used = 0;
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 4; ++d)
      if (seg[i].edges & (1 << d)) {
        ++edge_owner_count[d];
        Edge want = seg[i].kind == Kind::City ? Edge::City : Edge::Road;
        if (e[d] != want)
          p.fail(std::string(kind_name(seg[i].kind)) + " segment touches side " + kSideNames[d] +
                 ", which is not a " + kind_name(seg[i].kind) + " edge");
      }
    if (seg[i].kind == Kind::Field) {
      if (half_used & seg[i].halves) p.fail("a half-edge belongs to two field segments");
      half_used |= seg[i].halves;
    }
  }
  for (int d = 0; d < 4; ++d) {
    bool halves_in_field = (half_used >> (2 * d)) & 3;
    bool both_halves = ((half_used >> (2 * d)) & 3) == 3;
    if (closed_sides >> d & 1) {
      if (edge_owner_count[d] || halves_in_field)
        p.fail(std::string("side ") + kSideNames[d] + " is a " + kClosedSideName + ": no segment may touch it");
    } else if (e[d] == Edge::Field) {
      if (edge_owner_count[d]) p.fail(std::string("side ") + kSideNames[d] + " is a field edge but a segment claims it");
      if (!both_halves) p.fail(std::string("field edge ") + kSideNames[d] + ": both halves must belong to fields");
    } else {
      if (edge_owner_count[d] != 1)
        p.fail(std::string("side ") + kSideNames[d] + " must belong to exactly one " +
               (e[d] == Edge::City ? "city" : "road") + " segment");
      if (e[d] == Edge::City && halves_in_field)
        p.fail(std::string("city edge ") + kSideNames[d] + " has a half-edge in a field");
      if (e[d] == Edge::Road && !both_halves)
        p.fail(std::string("road edge ") + kSideNames[d] + ": both halves must belong to fields");
    }
  }

  t.nseg = n;
  for (int i = 0; i < n; ++i) ++t.kind_count[int(seg[i].kind)];
  for (int r = 0; r < 4; ++r) {
    RotatedTile& rt = t.rot[r];
    for (int d = 0; d < 4; ++d) rt.pattern |= uint8_t(int(e[d]) << (2 * ((d + r) & 3)));
    rt.closed_sides = rotate_edges(closed_sides, r);
    for (int i = 0; i < n; ++i) {
      Segment s = seg[i];
      s.edges = rotate_edges(s.edges, r);
      s.halves = rotate_halves(s.halves, r);
      rt.seg[i] = s;
      for (int d = 0; d < 4; ++d)
        if (s.edges & (1 << d)) rt.edge_seg[d] = int8_t(i);
      for (int h = 0; h < 8; ++h)
        if (s.halves & (1 << h)) rt.half_seg[h] = int8_t(i);
    }
  }
  // Rotations that look identical (tile C, B, X...) are offered once, as the lowest rotation.
  auto signature = [&](int r) {
    std::vector<std::tuple<int, int, int, int, int>> sig;
    for (int i = 0; i < n; ++i) {
      const Segment& s = t.rot[r].seg[i];
      int adj = 0;
      for (int c = 0; c < n; ++c)
        if (s.adj_cities & (1 << c)) adj |= t.rot[r].seg[c].edges | 0x100;
      sig.emplace_back(int(s.kind), s.edges, s.halves, s.pennants, adj);
    }
    sig.emplace_back(-1, t.rot[r].closed_sides, 0, 0, 0);
    std::sort(sig.begin(), sig.end());
    return sig;
  };
  t.distinct_rotations = 0;
  for (int r = 0; r < 4; ++r) {
    t.canonical_rot[r] = uint8_t(r);
    for (int q = 0; q < r; ++q)
      if (signature(q) == signature(r)) {
        t.canonical_rot[r] = t.canonical_rot[q];
        break;
      }
    if (t.canonical_rot[r] == r) t.distinct_rotations |= uint8_t(1 << r);
  }
  return t;
}

}  // namespace

std::string TileType::location_name(int s, int r) const {
  const Segment& sg = rot[r].seg[s];
  switch (sg.kind) {
    case Kind::Road:
    case Kind::City:
      for (int d = 0; d < 4; ++d)
        if (sg.edges & (1 << d)) return std::string(1, kSideNames[d]);
      return "?";
    case Kind::Field:
      for (int h = 0; h < 8; ++h)
        if (sg.halves & (1 << h)) return kHalfNames[h];
      return "inner";
    default: return "C";
  }
}

int TileType::segment_at(std::string_view loc, int r) const {
  if (loc.size() == 1) {
    if (loc[0] == 'C') return center;
    for (int d = 0; d < 4; ++d)
      if (loc[0] == kSideNames[d]) return rot[r].edge_seg[d];
    return -1;
  }
  if (loc == "inner") {
    for (int i = 0; i < nseg; ++i)
      if (rot[r].seg[i].kind == Kind::Field && rot[r].seg[i].halves == 0) return i;
    return -1;
  }
  for (int h = 0; h < 8; ++h)
    if (loc == kHalfNames[h]) return rot[r].half_seg[h];
  return -1;
}

TileSetFile parse_tile_set(const std::string& text, const std::string& origin) {
  json doc;
  if (auto err = limits::json_depth_error(text); !err.empty()) throw TileDataError(origin + ": " + err);
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw TileDataError(origin + ": not valid JSON: " + e.what());
  }
  TileSetFile f;
  Parser p{origin, ""};
  if (!doc.is_object() || !doc.contains("tiles") || !doc["tiles"].is_array())
    throw TileDataError(origin + ": expected an object with a 'tiles' array");
  f.name = doc.value("tileset", "");
  if (doc.contains("version")) {
    if (!doc["version"].is_number_integer() || doc["version"].get<int>() < 1)
      throw TileDataError(origin + ": 'version' must be a positive integer");
    f.version = doc["version"].get<int>();
  }
  if (doc.contains("version_note")) {
    if (!doc["version_note"].is_string()) throw TileDataError(origin + ": 'version_note' must be a string");
    f.version_note = doc["version_note"].get<std::string>();
  }
  f.description = doc.value("description", "");
  if (doc.contains("start")) {
    auto& s = doc["start"];
    if (!s.is_object() || !s.contains("tile") || !s["tile"].is_string())
      throw TileDataError(origin + ": 'start' must be {\"tile\": ID, \"rotation\": R}");
    int rot = s.value("rotation", 0);
    if (rot % 90 != 0 || rot < 0 || rot >= 360) throw TileDataError(origin + ": bad start rotation");
    f.start = std::make_pair(s["tile"].get<std::string>(), rot / 90);
  }
  if (doc.contains("board")) {
    if (!doc["board"].is_string()) throw TileDataError(origin + ": 'board' must be the name of a board file");
    if (f.start) throw TileDataError(origin + ": a tile set has a start tile or a start board, not both");
    f.board = doc["board"].get<std::string>();
  }
  for (auto& tj : doc["tiles"]) {
    p.tile.clear();
    f.tiles.push_back(parse_tile(tj, p, f.name));
    for (size_t i = 0; i + 1 < f.tiles.size(); ++i)
      if (f.tiles[i].id == f.tiles.back().id) throw TileDataError(origin + ": tile " + f.tiles.back().id + " is listed twice");
  }
  if (f.start) {
    bool found = false;
    for (auto& t : f.tiles) found |= t.id == f.start->first && t.count > 0;
    if (!found) throw TileDataError(origin + ": start tile " + f.start->first + " is not in the set");
  }
  return f;
}

namespace {
// The text of data file `sub`/`name`.json: from $CARCASSONNE_DATA when set, else embedded.
std::pair<std::string, std::string> read_data(const std::string& sub, const std::string& name, const char* what) {
  std::string text, origin;
  if (const char* dir = std::getenv("CARCASSONNE_DATA"); dir && *dir) {
    origin = std::string(dir) + "/" + sub + "/" + name + ".json";
    std::ifstream in(origin);
    if (!in) throw TileDataError(origin + ": cannot open " + what + " '" + name + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  } else {
    const char* e = embedded_data(sub + "/" + name);
    if (!e) throw TileDataError(std::string("unknown ") + what + " '" + name + "'");
    text = e;
    origin = "data/" + sub + "/" + name + ".json";
  }
  return {text, origin};
}
}  // namespace

const TileSetFile& load_tile_set(const std::string& name) {
  static std::mutex mu;
  static std::map<std::string, TileSetFile> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  auto [text, origin] = read_data("tiles", name, "tile set");
  return cache.emplace(name, parse_tile_set(text, origin)).first->second;
}

BoardFile parse_board(const std::string& text, const std::string& origin) {
  json doc;
  if (auto err = limits::json_depth_error(text); !err.empty()) throw TileDataError(origin + ": " + err);
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw TileDataError(origin + ": not valid JSON: " + e.what());
  }
  auto fail = [&](const std::string& what) { throw TileDataError(origin + ": " + what); };
  if (!doc.is_object() || !doc.contains("cells") || !doc["cells"].is_array() || doc["cells"].empty())
    fail("expected an object with a non-empty 'cells' array");
  for (auto& [k, v] : doc.items())
    if (k != "board" && k != "description" && k != "cells" &&
        std::find(kModuleBoardKeys.begin(), kModuleBoardKeys.end(), k) == kModuleBoardKeys.end())
      fail("unknown field '" + k + "'");
  BoardFile b;
  b.name = doc.value("board", "");
  b.description = doc.value("description", "");
  Parser p{origin, ""};
  for (auto& cj : doc["cells"]) {
    if (!cj.is_object() || !cj.contains("x") || !cj.contains("y") || !cj["x"].is_number_integer() ||
        !cj["y"].is_number_integer())
      fail("every cell needs integer 'x' and 'y'");
    BoardCell c;
    c.x = cj["x"].get<int>();
    c.y = cj["y"].get<int>();
    if (c.x < -8 || c.x > 8 || c.y < -8 || c.y > 8) fail("cell coordinates must lie within -8..8");
    json tj = cj;
    tj.erase("x");
    tj.erase("y");
    tj["id"] = "board:" + std::to_string(c.x) + ":" + std::to_string(c.y);
    tj["count"] = 0;
    p.tile.clear();
    c.tile = parse_tile(tj, p, b.name, true);
    if (c.tile.module_marked()) fail("cell " + c.tile.id + ": board cells carry no symbols");
    for (auto& o : b.cells)
      if (o.x == c.x && o.y == c.y) fail("cell " + c.tile.id + " is listed twice");
    b.cells.push_back(std::move(c));
  }
  // Neighbouring cells must fit each other like placed tiles (rotation 0). A closed side faces a
  // closed side of another cell, never an open place, so no tile can be put against it.
  static constexpr int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
  const std::string closed(kClosedSideName);
  for (auto& a : b.cells)
    for (int d = 0; d < 4; ++d) {
      const BoardCell* o = nullptr;
      for (auto& c : b.cells)
        if (c.x == a.x + dx[d] && c.y == a.y + dy[d]) o = &c;
      const bool wa = a.tile.rot[0].closed_sides >> d & 1;
      const std::string side = "its " + std::string(1, kSideNames[d]) + " side";
      if (!o) {
        if (wa)
          fail("cell " + a.tile.id + ": " + side + " is a " + closed + " on the edge of the board (a " + closed +
               " must face another cell's " + closed + ")");
        continue;
      }
      const bool wo = o->tile.rot[0].closed_sides >> opposite(d) & 1;
      if (wa != wo)
        fail("cell " + a.tile.id + ": " + side + (wa ? " is a " : " is not a ") + closed + " but cell " + o->tile.id +
             "'s side facing it " + (wo ? "is one" : "is not"));
      if (!wa && a.tile.rot[0].edge(d) != o->tile.rot[0].edge(opposite(d)))
        fail("cell " + a.tile.id + ": " + side + " does not fit cell " + o->tile.id);
    }
  modules_board_fields(doc, origin, b);  // the modules read their parts
  return b;
}

const BoardFile& load_board(const std::string& name) {
  static std::mutex mu;
  static std::map<std::string, BoardFile> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  auto [text, origin] = read_data("boards", name, "board");
  return cache.emplace(name, parse_board(text, origin)).first->second;
}

}  // namespace carc
