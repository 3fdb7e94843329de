// The game server. Layout of this file:
//   helpers (errors, ids, JSON views of states and tiles)
//   Session: one game in memory (state, seats, version for live updates)
//   Impl: the HTTP routes, the session cache over SQLite, and the AI worker pool
// Every change to a game goes through Impl::commit(), which bumps the game's version,
// saves the record to SQLite, wakes the event streams and schedules the AI when it is its turn.
#include "server.h"

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "db.h"
#include "game.h"
#include "player.h"
#include "record.h"
#include "state.h"
#include "tiles.h"

namespace carc::server {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

// ---------------------------------------------------------------------------------------
// Errors and small helpers

struct ApiError {
  int status;
  std::string message;
};
[[noreturn]] void fail(int status, const std::string& msg) { throw ApiError{status, msg}; }

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string random_string(size_t n, const char* alphabet) {
  static std::mutex m;
  static std::mt19937_64 gen{[] {
    std::random_device rd;
    std::seed_seq seq{rd(), rd(), rd(), rd(), rd(), rd(), rd(), rd()};
    std::mt19937_64 g(seq);
    return g;
  }()};
  std::lock_guard lk(m);
  const size_t len = std::char_traits<char>::length(alphabet);
  std::string s(n, ' ');
  for (char& c : s) c = alphabet[gen() % len];
  return s;
}
std::string new_token() { return random_string(32, "0123456789abcdef"); }
std::string new_game_id() { return random_string(10, "abcdefghijkmnpqrstuvwxyz23456789"); }
uint64_t random_seed() {
  std::string s = random_string(15, "0123456789");
  return std::stoull(s);
}

const char* side_letter(int d) {
  static const char* k[4] = {"N", "E", "S", "W"};
  return k[d];
}

std::string kind_words(const std::string& kind) {
  if (kind == "road") return "a road";
  if (kind == "city") return "a city";
  if (kind == "monastery") return "a monastery";
  if (kind == "farm") return "a farm";
  if (kind == "tent") return "a tent";
  if (kind == "fruit") return "fruit";
  if (kind == "wheel") return "the wheel";
  return kind;
}

// Wheel of Fortune: a segment's event in words ("Fortuna", "the Plague").
std::string segment_words(const Game& g, int seg) {
  static const char* k[kWheelEvents] = {"Fortuna", "Taxes", "the Famine", "the Storm", "the Inquisition", "the Plague"};
  if (seg < 0 || seg >= int(g.wheel().size())) return "?";
  return k[int(g.wheel()[seg].event)];
}

// A follower's role by the kind of feature it stands on.
std::string follower_role(const std::string& kind) {
  if (kind == "road") return "thief";
  if (kind == "city") return "knight";
  if (kind == "monastery") return "monk";
  if (kind == "farm") return "farmer";
  if (kind == "tent") return "fortune teller";
  return "follower";
}

json parse_body(const httplib::Request& req) {
  if (req.body.empty()) return json::object();
  json j = json::parse(req.body, nullptr, false);
  if (j.is_discarded()) fail(400, "malformed JSON in the request body");
  if (!j.is_object()) fail(400, "the request body must be a JSON object");
  return j;
}

std::string str_field(const json& j, const char* key, const std::string& def = "") {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return def;
  if (!it->is_string()) fail(400, std::string("'") + key + "' must be a string");
  return it->get<std::string>();
}
int int_field(const json& j, const char* key, int def) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return def;
  if (!it->is_number_integer()) fail(400, std::string("'") + key + "' must be an integer");
  return it->get<int>();
}
int int_required(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) fail(400, std::string("'") + key + "' is required (an integer)");
  return it->get<int>();
}

// ---------------------------------------------------------------------------------------
// AI players

#ifndef CARC_SERVER_HAVE_AI
// Stand-in used only when the AI layer (src/ai) is not built: "random" plays a uniformly
// random legal move, everything else plays the move with the best immediate score margin.
class FallbackPlayer : public ai::Player {
 public:
  FallbackPlayer(std::string spec, uint64_t seed) : spec_(std::move(spec)), rng_(seed) {}
  std::string name() const override { return spec_; }
  Move choose(const State& s) override {
    std::vector<Move> moves;
    s.legal_moves(moves);
    if (spec_ == "random" || moves.size() == 1) return moves[rng_.below(uint32_t(moves.size()))];
    const int me = s.current_player();
    double best = -1e9;
    std::vector<Move> top;
    for (const Move& m : moves) {
      State c = s;
      c.apply(m);
      int other = -1000;
      for (int p = 0; p < s.num_players(); ++p)
        if (p != me) other = std::max(other, c.score(p) - s.score(p));
      double v = (c.score(me) - s.score(me)) - 0.5 * other + (m.meeple >= 0 ? 0.3 : 0.0);
      if (v > best + 1e-9) {
        best = v;
        top.clear();
      }
      if (v > best - 1e-9) top.push_back(m);
    }
    return top[rng_.below(uint32_t(top.size()))];
  }

 private:
  std::string spec_;
  Rng rng_;
};
#endif

std::unique_ptr<ai::Player> make_ai(const std::string& spec, uint64_t seed) {
#ifdef CARC_SERVER_HAVE_AI
  return ai::make_player(spec, seed);
#else
  const std::string name = spec.substr(0, spec.find(':'));
  if (name != "random" && name != "greedy" && name != "mcts")
    throw std::invalid_argument("unknown player '" + spec + "' (random, greedy, mcts[:level=easy|medium|hard])");
  return std::make_unique<FallbackPlayer>(spec, seed);
#endif
}

json ai_registry() {
  json out = json::array();
#ifdef CARC_SERVER_HAVE_AI
  for (const auto& p : ai::player_registry()) out.push_back({{"name", p.name}, {"description", p.description}});
#else
  out.push_back({{"name", "random"}, {"description", "a uniformly random legal move"}});
  out.push_back({{"name", "greedy"}, {"description", "the best immediate score margin"}});
  out.push_back({{"name", "mcts"}, {"description", "tree search (stand-in: greedy until the AI layer is built)"}});
#endif
  return out;
}

// ---------------------------------------------------------------------------------------
// JSON views

json tile_type_json(const TileType& t) {
  json segs = json::array();
  const RotatedTile& r = t.rot[0];
  for (int i = 0; i < t.nseg; ++i) {
    const Segment& s = r.seg[i];
    json sides = json::array(), halves = json::array(), adj = json::array();
    for (int d = 0; d < 4; ++d)
      if (s.edges >> d & 1) sides.push_back(side_letter(d));
    for (int h = 0; h < 8; ++h)
      if (s.halves >> h & 1) halves.push_back(kHalfNames[h]);
    for (int c = 0; c < kMaxSegments; ++c)
      if (s.adj_cities >> c & 1) adj.push_back(c);
    segs.push_back({{"kind", kind_name(s.kind)},
                    {"sides", sides},
                    {"halves", halves},
                    {"pennants", s.pennants},
                    {"adj_cities", adj},
                    {"at", t.location_name(i, 0)}});
  }
  std::string edges;
  for (int d = 0; d < 4; ++d) edges += (r.wheel_sides >> d & 1) ? 'W' : "?FRC"[int(r.edge(d))];  // W: a wheel side
  json symbols = json::array();
  if (t.festival) symbols.push_back("festival");
  if (t.tree) symbols.push_back("tree");
  return {{"id", t.id},         {"set", t.set},     {"note", t.note},
          {"count", t.count},   {"edges", edges},   {"segments", segs},
          {"center", t.center}, {"symbols", symbols}, {"wheel", t.wheel},
          {"canonical_rot", {t.canonical_rot[0] * 90, t.canonical_rot[1] * 90, t.canonical_rot[2] * 90,
                             t.canonical_rot[3] * 90}}};
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

json follower_json(const State& s, int i) {
  const Follower& f = s.followers()[i];
  const PlacedTile& P = s.placed(s.slot_tile(f.slot));
  const TileType& t = s.game().type(P.type);
  const int seg = s.slot_segment(f.slot);
  return {{"player", f.player}, {"x", P.x},
          {"y", P.y},           {"seg", seg},
          {"at", t.location_name(seg, P.rot)}, {"kind", kind_name(t.rot[0].seg[seg].kind)}};
}

// A follower's place given by its slot, and who put it there (the player of the turn that
// placed the tile: followers are only ever deployed on the tile just placed).
json slot_json(const State& s, uint16_t slot) {
  const int pi = s.slot_tile(slot);
  const PlacedTile& P = s.placed(pi);
  const TileType& t = s.game().type(P.type);
  const int seg = s.slot_segment(slot);
  const int turn = pi - s.game().num_setup_tiles() + 1;
  return {{"player", turn >= 1 ? (turn - 1) % s.num_players() : -1},
          {"x", P.x},
          {"y", P.y},
          {"seg", seg},
          {"at", t.location_name(seg, P.rot)},
          {"follower", follower_role(kind_name(t.rot[0].seg[seg].kind))}};
}

// Wheel of Fortune, public part: the segments clockwise with their crown spaces (the player on
// each, -1 when free), the pig's segment, the player deciding the Plague now (-1), and the
// wheel's log in words: each turn of the wheel and each follower taken back for the Plague.
json wheel_json(const State& s, const std::vector<std::string>& names, const std::vector<ScoreEvent>& events) {
  const Game& g = s.game();
  auto who = [&](int p) { return p >= 0 && p < int(names.size()) ? names[p] : std::string("?"); };
  json segs = json::array();
  for (int i = 0; i < int(g.wheel().size()); ++i) {
    json crowns = json::array();
    for (int k = 0; k < kMaxCrownsPerSegment; ++k) {
      const int c = i * kMaxCrownsPerSegment + k;
      if (g.crown_exists(c)) crowns.push_back({{"space", g.crown_name(c)}, {"player", s.crown(c)}});
    }
    segs.push_back({{"event", kWheelEventNames[int(g.wheel()[i].event)]}, {"name", segment_words(g, i)}, {"crowns", crowns}});
  }
  // The engine's wheel events: each turn of the wheel ("pig": from, to, steps, tile) and each
  // follower taken back for the Plague ("plague": the deciding player, where, which follower).
  json log = json::array();
  for (const ScoreEvent& e : events) {
    if (e.kind == "pig") {
      log.push_back({{"turn", e.turn},
                     {"player", e.player},
                     {"kind", "pig"},
                     {"tile", e.tile},
                     {"steps", e.steps},
                     {"from", kWheelEventNames[int(g.wheel()[e.from].event)]},
                     {"to", kWheelEventNames[int(g.wheel()[e.segment].event)]},
                     {"text", "The pig moves " + std::to_string(e.steps) + " to " + segment_words(g, e.segment) +
                                  " (tile " + e.tile + " drawn by " + who(e.player) + ")"}});
    } else if (e.kind == "plague") {
      const int pi = s.tile_at(e.x, e.y);
      const TileType& t = g.type(s.placed(pi).type);
      const int seg = t.segment_at(e.at, s.placed(pi).rot);
      const std::string role = follower_role(kind_name(t.rot[s.placed(pi).rot].seg[seg].kind));
      log.push_back({{"turn", e.turn}, {"player", e.player}, {"kind", "plague"}, {"x", e.x}, {"y", e.y},
                     {"seg", seg}, {"at", e.at}, {"follower", role},
                     {"text", who(e.player) + " takes back a " + role + " from (" + std::to_string(e.x) + "," +
                                  std::to_string(e.y) + ") for the Plague"}});
    }
  }
  return {{"segments", segs},
          {"pig", s.pig()},
          {"pig_event", kWheelEventNames[int(g.wheel()[s.pig()].event)]},
          {"plague_player", s.phase() == Phase::Plague ? s.plague_player() : -1},
          {"log", log}};
}

// "an apple", "a cherry".
std::string fruit_words(int f) {
  const std::string n = kFruitNames[f];
  return (std::string("aeiou").find(n[0]) != std::string::npos ? "an " : "a ") + n;
}

// One scoring in words. Fruit scorings name what happened: "Ann harvests an apple worth 4",
// "Ben sells 3 fruits for 10" (the move of the event's turn tells which), and at the end
// "Ann scores 2 for 2 fruit tokens held (final scoring)". A harvest is shown on its tree.
// Wheel of Fortune events: "Ann scores 3: Fortuna", "Ben scores 8 in taxes for knights in a
// city", "Ann scores 6 for a crown space of the Plague" (wheel scorings name the pig's segment).
json event_json(const ScoreEvent& e, const std::vector<std::string>& names, const State& s) {
  const std::string who = e.player >= 0 && e.player < int(names.size()) ? names[e.player] : "?";
  const std::string pts = std::to_string(e.points);
  std::string text = who + " scores " + pts + (e.points == 1 ? " point" : "") + " for " + kind_words(e.kind);
  int x = e.x, y = e.y;
  json fruit;
  if (e.kind == "fortuna") {
    text = who + " scores " + pts + ": Fortuna";
  } else if (e.kind == "taxes") {
    text = who + " scores " + pts + " in taxes for knights in a city";
  } else if (e.kind == "famine") {
    text = who + " scores " + pts + " in the famine for a farmer";
  } else if (e.kind == "storm") {
    text = who + " scores " + pts + " in the storm for " + pts + " follower" + (e.points == 1 ? "" : "s") + " in supply";
  } else if (e.kind == "inquisition") {
    text = who + " scores " + pts + " in the inquisition for a monk";
  } else if (e.kind == "crown") {
    text = who + " scores " + pts + " for a crown space of " + segment_words(s.game(), e.segment);
  } else if (e.kind == "fruit" && e.final) {
    text = who + " scores " + std::to_string(e.points) + " for " + std::to_string(e.points) + " fruit token" +
           (e.points == 1 ? "" : "s") + " held";
  } else if (e.kind == "fruit" && e.turn >= 1 && e.turn <= int(s.history().size())) {
    const Move& m = s.history()[size_t(e.turn - 1)].move;
    if (m.action == FruitAction::Harvest && m.target < kFruitTypes) {
      text = who + " harvests " + fruit_words(m.target) + " worth " + std::to_string(e.points);
      fruit = {{"harvest", kFruitNames[m.target]}};
      if (const int pt = s.fruit_tree(m.target); pt >= 0) {
        x = s.placed(pt).x;
        y = s.placed(pt).y;
      }
    } else if (m.action == FruitAction::Sell) {
      const int n = __builtin_popcount(m.target);
      text = who + " sells " + std::to_string(n) + " fruit" + (n == 1 ? "" : "s") + " for " + std::to_string(e.points);
      json sold = json::array();
      for (int f = 0; f < kFruitTypes; ++f)
        if (m.target >> f & 1) sold.push_back(kFruitNames[f]);
      fruit = {{"sell", sold}};
    }
  }
  if (e.final) text += " (final scoring)";
  json j = {{"turn", e.turn}, {"player", e.player}, {"points", e.points}, {"kind", e.kind},
            {"final", e.final}, {"x", x},           {"y", y},           {"text", text}};
  if (!fruit.is_null()) j["fruit"] = fruit;
  if (e.segment >= 0) j["segment"] = kWheelEventNames[int(s.game().wheel()[e.segment].event)];  // wheel scorings
  return j;
}

// Fruit-Bearing Trees, public part: the trees on the board with the tokens left on each, the
// tokens each player holds ({"apple": 2}), and the stacks not yet on a tree.
json fruit_json(const State& s) {
  json trees = json::array(), held = json::array(), stacks = json::array();
  for (int f = 0; f < kFruitTypes; ++f) {
    if (s.fruit_tree(f) >= 0) {
      const PlacedTile& P = s.placed(s.fruit_tree(f));
      trees.push_back({{"type", kFruitNames[f]}, {"x", P.x}, {"y", P.y}, {"left", s.fruit_left(f)}});
    } else {
      stacks.push_back(kFruitNames[f]);
    }
  }
  for (int p = 0; p < s.num_players(); ++p) {
    json h = json::object();
    for (int f = 0; f < kFruitTypes; ++f)
      if (s.fruit_held(p, f)) h[kFruitNames[f]] = s.fruit_held(p, f);
    held.push_back(h);
  }
  return {{"trees", trees}, {"held", held}, {"stacks", stacks}};
}

// The public view of a position (no hidden information: no seed, no bag order).
json board_json(const State& s, const std::vector<ScoreEvent>& events, const std::vector<std::string>& names) {
  const Game& g = s.game();
  json j;
  j["tileset"] = s.rules().tileset;
  j["expansions"] = s.rules().expansions();
  j["turn"] = s.turn();
  const bool placing = s.phase() == Phase::Place || s.phase() == Phase::Plague;
  j["phase"] = s.is_terminal() ? "over" : s.is_chance() ? "draw" : s.phase() == Phase::Plague ? "plague" : "place";
  // The player to decide: during the Plague the player taking a follower back, who may not be
  // the player whose turn it is (turn_player).
  j["current_player"] = s.is_terminal() ? -1 : s.phase() == Phase::Plague ? s.current_player() : s.turn_player();
  j["turn_player"] = s.is_terminal() ? -1 : s.turn_player();
  j["tile"] = placing ? json(g.type(s.current_tile()).id) : json(nullptr);
  json drawn = json::array();  // Fortune Teller: every tile drawn this turn, the player picks one
  if (placing)
    for (int i = 0; i < s.num_drawn(); ++i)
      drawn.push_back({{"tile", g.type(s.drawn_tile(i)).id},
                       {"placeable", s.drawn_placeable(i)},
                       {"wheel", g.type(s.drawn_tile(i)).wheel}});
  j["drawn"] = drawn;
  // Wheel of Fortune: the drawn tile chosen to turn the wheel (-1: none yet)
  if (s.has_wheel()) j["chosen"] = placing ? s.chosen() : -1;
  j["bag"] = s.bag_size();
  j["total_tiles"] = g.total_tiles();
  json bag = json::object();  // what is left in the bag (public: every draw is seen)
  for (int t = 0; t < g.num_types(); ++t)
    if (s.bag_count(t) > 0) bag[g.type(t).id] = s.bag_count(t);
  j["bag_counts"] = bag;
  json board = json::array();
  for (int i = 0; i < s.num_placed(); ++i) {
    const PlacedTile& P = s.placed(i);
    board.push_back({{"x", P.x}, {"y", P.y}, {"tile", g.type(P.type).id}, {"rotation", 90 * P.rot}});
  }
  j["board"] = board;
  json fol = json::array();
  for (int i = 0; i < s.num_followers(); ++i) fol.push_back(follower_json(s, i));
  j["followers"] = fol;
  json scores = json::array(), supply = json::array();
  for (int p = 0; p < s.num_players(); ++p) {
    scores.push_back(s.score(p));
    supply.push_back(s.supply(p));
  }
  j["scores"] = scores;
  j["supply"] = supply;
  json ev = json::array();
  for (const auto& e : events)
    if (e.kind != "pig" && e.kind != "plague") ev.push_back(event_json(e, names, s));  // those two: in wheel.log
  j["events"] = ev;
  if (s.rules().fruit_trees) j["fruit"] = fruit_json(s);
  if (s.has_wheel()) j["wheel"] = wheel_json(s, names, events);
  if (s.num_placed() > g.num_setup_tiles()) {
    const PlacedTile& P = s.placed(s.num_placed() - 1);
    j["last"] = {{"x", P.x}, {"y", P.y}};
  } else {
    j["last"] = nullptr;
  }
  return j;
}

// The legal moves for the tile to place, grouped by placement, for every displayed rotation
// (a symmetric tile's rotations that look alike share the engine's canonical move).
// Fruit-Bearing Trees: a tree tile's placements list the stacks that may go on it
// ("fruit_types", one move per stack in the engine), and a placement whose follower may be
// followed by a fruit action has "fruit": {"harvest": [{type, x, y, left, new}], "sell": [types
// held]} (any set of 1 to 4 of them); "new" marks the tree of the placed tile itself, which gets
// the stack chosen by "fruit_type" (the listed type is the default, the first unused stack).
// Wheel of Fortune: during the Plague, "phase": "plague", "player" is the player deciding and
// "plague" lists their followers on the land ({x, y, at, seg, kind}); "placements" is empty.
// A wheel tile among several drawn tiles must be chosen first: "choices" lists them
// ({choice, tile, wheel}) and their placements follow once chosen. A placement lists in
// "crowns" the free crown spaces its follower may go to instead of onto the tile, and in
// "returns" (Festival) the player's crown followers as {"at": "crown:taxes:0", "crown": true}.
json legal_json(const State& s) {
  json out;
  out["turn"] = s.turn() + 1;
  out["player"] = s.is_terminal() ? -1 : s.phase() == Phase::Plague ? s.current_player() : s.turn_player();
  out["phase"] = s.phase() == Phase::Plague ? "plague" : "place";
  if (s.phase() == Phase::Plague) {
    out["tile"] = s.game().type(s.current_tile()).id;
    out["placements"] = json::array();
    std::vector<Move> moves;
    s.legal_moves(moves);
    json pl = json::array();
    for (const Move& m : moves) {
      json f = follower_json(s, m.ret);
      pl.push_back({{"x", f["x"]}, {"y", f["y"]}, {"at", f["at"]}, {"seg", f["seg"]}, {"kind", f["kind"]}});
    }
    out["plague"] = pl;
    out["reason"] = "The Plague: take back one of your followers";
    return out;
  }
  if (s.phase() != Phase::Place) {
    out["tile"] = nullptr;
    out["placements"] = json::array();
    return out;
  }
  out["tile"] = s.game().type(s.current_tile()).id;
  std::vector<Move> moves;
  s.legal_moves(moves);
  json choices = json::array();
  for (const Move& m : moves)
    if (m.kind == MoveKind::Choose) {
      const TileType& t = s.game().type(s.drawn_tile(m.choice));
      choices.push_back({{"choice", m.choice}, {"tile", t.id}, {"wheel", t.wheel}});
    }
  if (!choices.empty()) out["choices"] = choices;
  struct Group {
    bool plain = false;
    std::vector<int> segs;
    std::vector<int> rets;
    std::vector<int> crowns;      // free crown spaces for the follower
    std::vector<int> crown_rets;  // Festival: own crown followers that may be taken back
    uint32_t fruit_types = 0;  // stacks that may go on a tree tile
    int8_t first_type = -1;    // the default stack (the first listed)
    uint32_t harvest = 0;      // with the default stack: trees that may be harvested
    uint32_t sell = 0;         // fruit types that may be sold
  };
  auto add = [](std::vector<int>& v, int x) {
    if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
  };
  std::map<std::tuple<int, int, int, int>, Group> groups;  // (choice, x, y, rot)
  for (const Move& m : moves) {
    if (m.kind != MoveKind::Place) continue;
    Group& g = groups[{m.choice, m.x, m.y, m.rot}];
    if (m.fruit_type >= 0) {
      g.fruit_types |= 1u << m.fruit_type;
      if (g.first_type < 0) g.first_type = m.fruit_type;
    }
    if (m.action == FruitAction::Harvest && m.fruit_type == g.first_type) g.harvest |= 1u << m.target;
    if (m.action == FruitAction::Sell) g.sell |= m.target;
    if (m.crown())
      add(g.crowns, m.meeple - kCrownBase);
    else if (m.meeple >= 0)
      add(g.segs, m.meeple);
    else if (m.ret >= kCrownBase)
      add(g.crown_rets, m.ret - kCrownBase);
    else if (m.ret >= 0)
      add(g.rets, m.ret);
    else
      g.plain = true;
  }
  json pl = json::array();
  for (const auto& [key, g] : groups) {
    const auto [choice, x, y, cr] = key;
    const TileType& t = s.game().type(s.drawn_tile(choice));
    json fruit;
    if (g.harvest || g.sell) {
      json harvest = json::array(), sell = json::array();
      for (int f = 0; f < kFruitTypes; ++f) {
        if (g.sell >> f & 1) sell.push_back(kFruitNames[f]);
        if (!(g.harvest >> f & 1)) continue;
        const bool own = t.tree && f == g.first_type;
        const int tx = own ? x : s.placed(s.fruit_tree(f)).x, ty = own ? y : s.placed(s.fruit_tree(f)).y;
        harvest.push_back({{"type", kFruitNames[f]}, {"x", tx}, {"y", ty}, {"left", own ? 4 : s.fruit_left(f)}, {"new", own}});
      }
      fruit = {{"harvest", harvest}, {"sell", sell}};
    }
    for (int r = 0; r < 4; ++r) {
      if (t.canonical_rot[r] != cr) continue;
      json meeples = json::array(), rets = json::array();
      for (int seg : g.segs) {
        const std::string loc = t.location_name(seg, cr);
        const int seg_r = t.segment_at(loc, r);
        meeples.push_back({{"seg", seg_r}, {"at", loc}, {"kind", kind_name(t.rot[0].seg[seg_r].kind)}});
      }
      for (int ri : g.rets) {
        json f = follower_json(s, ri);
        rets.push_back({{"x", f["x"]}, {"y", f["y"]}, {"at", f["at"]}, {"seg", f["seg"]}, {"kind", f["kind"]}});
      }
      for (int c : g.crown_rets) rets.push_back({{"at", s.game().crown_name(c)}, {"crown", true}});
      json p = {{"x", x}, {"y", y}, {"rotation", 90 * r}, {"choice", choice}, {"tile", t.id}, {"plain", g.plain},
                {"meeples", meeples}, {"returns", rets}};
      if (s.has_wheel()) {
        json crowns = json::array();
        for (int c : g.crowns) crowns.push_back(s.game().crown_name(c));
        p["crowns"] = crowns;
      }
      if (g.fruit_types) {
        json types = json::array();
        for (int f = 0; f < kFruitTypes; ++f)
          if (g.fruit_types >> f & 1) types.push_back(kFruitNames[f]);
        p["fruit_types"] = types;
      }
      if (!fruit.is_null()) p["fruit"] = fruit;
      pl.push_back(p);
    }
  }
  out["placements"] = pl;
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
  const int x = int_required(body, "x"), y = int_required(body, "y");
  const std::string where = "(" + std::to_string(x) + "," + std::to_string(y) + ")";
  const int pt = std::abs(x) > 1000 || std::abs(y) > 1000 ? -1 : s.tile_at(x, y);
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
  int choice = int_field(body, "choice", -1);
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
  const int x = int_required(body, "x"), y = int_required(body, "y");
  const int rotation = int_field(body, "rotation", 0);
  if (rotation % 90 != 0 || rotation < 0 || rotation >= 360) fail(400, "'rotation' must be 0, 90, 180 or 270");
  if (std::abs(x) > 1000 || std::abs(y) > 1000) fail(422, "illegal move: position out of range");
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
    const int rx = int_required(*it, "x"), ry = int_required(*it, "y");
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
      const int hx = int_required(h, "x"), hy = int_required(h, "y");
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

// Draws until a tile is to be placed or the game ends.
void advance(State& s) {
  while (s.is_chance()) s.draw_random();
}

// ---------------------------------------------------------------------------------------
// Session: one game in memory

struct Seat {
  std::string name;
  std::string type = "human";  // "human" (held by the creator), "remote" (joins by link), "ai"
  std::string ai;              // AI spec for "ai" seats
  std::string token;
  bool resigned = false;
  bool joined = false;
};

struct Session {
  std::mutex m;
  std::condition_variable cv;  // wakes event streams on a new version
  std::string id;
  int64_t created = 0;
  std::vector<Seat> seats;
  std::unique_ptr<State> state;
  std::vector<ScoreEvent> events;
  bool view_only = false;
  std::string end_reason;  // set when the game ended early (resignation)
  uint64_t version = 1;
  int thinking = -1;        // seat of the AI that is thinking, or -1
  bool ai_busy = false;     // an AI task is queued or running
  std::vector<std::unique_ptr<ai::Player>> players;  // per seat, made on first use

  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const auto& s : seats) n.push_back(s.name);
    return n;
  }
  bool over() const { return view_only || !end_reason.empty() || state->is_terminal(); }
  std::string status() const {
    if (view_only) return "view";
    if (!end_reason.empty() || state->is_terminal()) return "finished";
    return "playing";
  }
  bool has_remote() const {
    return std::any_of(seats.begin(), seats.end(), [](const Seat& s) { return s.type == "remote"; });
  }
  // The seat that plays automatically now (an AI, or a resigned player), or -1.
  int auto_seat() const {
    if (over()) return -1;
    const int p = state->current_player();
    if (p < 0) return -1;
    return seats[p].type == "ai" || seats[p].resigned ? p : -1;
  }
  int seat_of_token(const std::string& token) const {
    if (token.empty()) return -1;
    for (size_t i = 0; i < seats.size(); ++i)
      if (seats[i].token == token) return int(i);
    return -1;
  }
};

json seats_public(const Session& s) {
  json out = json::array();
  for (size_t i = 0; i < s.seats.size(); ++i) {
    const Seat& seat = s.seats[i];
    out.push_back({{"seat", i},
                   {"name", seat.name},
                   {"type", seat.type},
                   {"ai", seat.ai},
                   {"resigned", seat.resigned},
                   {"joined", seat.joined}});
  }
  return out;
}

std::vector<int> winners(const State& st) {
  std::vector<int> w;
  int best = -1;
  for (int p = 0; p < st.num_players(); ++p) best = std::max(best, st.score(p));
  for (int p = 0; p < st.num_players(); ++p)
    if (st.score(p) == best) w.push_back(p);
  return w;
}

json view_json(const Session& s) {
  json j = board_json(*s.state, s.events, s.names());
  j["id"] = s.id;
  j["version"] = s.version;
  j["status"] = s.status();
  j["end_reason"] = s.end_reason;
  j["players"] = seats_public(s);
  j["thinking"] = s.thinking;
  j["turns_total"] = s.state->history().size();
  const bool has_human_turn = [&] {
    const size_t n = s.seats.size();
    for (size_t t = 0; t < s.state->history().size(); ++t)
      if (s.seats[t % n].type == "human") return true;
    return false;
  }();
  j["can_undo"] = !s.view_only && s.end_reason.empty() && !s.has_remote() && has_human_turn;
  j["winners"] = s.over() && !s.view_only ? json(winners(*s.state)) : json::array();
  if (s.over()) j["current_player"] = -1;
  return j;
}

// Decisions of the turn in progress that the record cannot hold yet (it keeps whole turns):
// the Wheel of Fortune Choose and the Plague take-backs so far. Kept in the meta so that a
// reloaded game (the same tile is drawn again) replays them.
json pending_json(const State& s) {
  json p = json::object();
  if (s.phase() != Phase::Place && s.phase() != Phase::Plague) return p;
  if (s.chosen() >= 0 && s.num_drawn() > 1) p["choice"] = s.chosen();
  json plague = json::array();
  for (int i = 0; i < s.num_plague_picks(); ++i) {
    json f = slot_json(s, s.plague_pick(i));
    plague.push_back({{"x", f["x"]}, {"y", f["y"]}, {"at", f["at"]}});
  }
  if (!plague.empty()) p["plague"] = plague;
  return p;
}

void apply_pending(State& s, const json& p) {
  if (!p.is_object()) return;
  if (p.contains("choice") && s.phase() == Phase::Place && s.chosen() < 0) {
    Move c;
    c.kind = MoveKind::Choose;
    c.choice = uint8_t(p["choice"].get<int>());
    if (!s.check_move(c).empty()) return;
    s.apply(c);
  }
  for (const auto& e : p.value("plague", json::array())) {
    if (s.phase() != Phase::Plague) return;
    try {
      s.apply(plague_move_from(s, e));
    } catch (const ApiError&) {
      return;
    }
  }
}

json meta_json(const Session& s) {
  json seats = json::array();
  for (const Seat& seat : s.seats)
    seats.push_back({{"name", seat.name},
                     {"type", seat.type},
                     {"ai", seat.ai},
                     {"token", seat.token},
                     {"resigned", seat.resigned},
                     {"joined", seat.joined}});
  return {{"seats", seats},
          {"pending", pending_json(*s.state)},
          {"view_only", s.view_only},
          {"end_reason", s.end_reason},
          {"summary",
           {{"status", s.status()},
            {"turn", s.state->turn()},
            {"scores", s.state->scores()},
            {"current_player", s.over() ? -1 : s.state->phase() == Phase::Plague ? s.state->current_player() : s.state->turn_player()},
            {"tileset", s.state->rules().tileset},
            {"expansions", s.state->rules().expansions()}}}};
}

std::vector<Seat> seats_from_meta(const json& meta) {
  std::vector<Seat> out;
  for (const auto& j : meta.at("seats")) {
    Seat s;
    s.name = j.at("name").get<std::string>();
    s.type = j.at("type").get<std::string>();
    s.ai = j.value("ai", "");
    s.token = j.value("token", "");
    s.resigned = j.value("resigned", false);
    s.joined = j.value("joined", false);
    out.push_back(std::move(s));
  }
  return out;
}

// Seats from a create/upload request: [{"name", "type": human|remote|ai, "ai": spec}].
std::vector<Seat> seats_from_request(const json& body, const std::vector<std::string>* names) {
  std::vector<Seat> seats;
  auto it = body.find("players");
  if (it == body.end() || it->is_null()) {
    if (!names) fail(400, "'players' is required: a list of {name, type: human|remote|ai, ai}");
    for (const auto& n : *names) seats.push_back(Seat{n, "human", "", "", false, false});
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
    if (s.name.size() > 40) fail(400, "player names have at most 40 characters");
    s.type = str_field(p, "type", "human");
    if (s.type != "human" && s.type != "remote" && s.type != "ai")
      fail(400, "player type must be human, remote or ai, not '" + s.type + "'");
    if (s.type == "ai") {
      s.ai = str_field(p, "ai", "greedy");
      try {
        make_ai(s.ai, 0);
      } catch (const std::exception& e) {
        fail(400, std::string("players[") + std::to_string(i) + "].ai: " + e.what());
      }
    }
    seats.push_back(std::move(s));
  }
  return seats;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// The server

struct Server::Impl {
  ServerOptions opts;
  Db db;
  httplib::Server http;
  std::thread listen_thread;
  int bound_port = 0;
  std::atomic<bool> running{false};
  std::atomic<bool> stopping{false};
  std::mutex stop_m;
  std::condition_variable stop_cv;

  std::mutex sessions_m;
  std::map<std::string, std::shared_ptr<Session>> sessions;
  std::atomic<int> open_streams{0};  // event streams hold an HTTP thread each: at most half the pool

  // AI workers: a queue of (ready time, game) shared by every game.
  std::mutex ai_m;
  std::condition_variable ai_cv;
  std::multimap<Clock::time_point, std::shared_ptr<Session>> ai_queue;
  std::vector<std::thread> ai_workers;

  explicit Impl(ServerOptions o) : opts(std::move(o)) {}

  // --- sessions --------------------------------------------------------------------------

  std::shared_ptr<Session> find(const std::string& id) {
    std::lock_guard lk(sessions_m);
    auto it = sessions.find(id);
    if (it != sessions.end()) return it->second;
    std::optional<GameRow> row = db.load(id);
    if (!row) fail(404, "no game '" + id + "'");
    auto s = std::make_shared<Session>();
    s->id = id;
    s->created = row->created;
    json pending;
    try {
      json meta = json::parse(row->meta);
      s->seats = seats_from_meta(meta);
      s->view_only = meta.value("view_only", false);
      s->end_reason = meta.value("end_reason", "");
      pending = meta.value("pending", json::object());
      Record rec = parse_record(row->record);
      Replay rp = replay(rec);
      s->state = std::make_unique<State>(std::move(rp.state));
      s->events = std::move(rp.events);
    } catch (const std::exception& e) {
      fail(500, "game '" + id + "' cannot be loaded: " + e.what());
    }
    s->state->set_event_log(&s->events);
    if (!s->view_only) {
      advance(*s->state);  // the same tile as before the restart: the generator continues
      apply_pending(*s->state, pending);
    }
    s->players.resize(s->seats.size());
    sessions[id] = s;
    {
      std::lock_guard sl(s->m);
      schedule_ai(*s, s);
    }
    return s;
  }

  std::shared_ptr<Session> add_session(std::vector<Seat> seats, const Record& rec, bool view_only) {
    auto s = std::make_shared<Session>();
    s->created = now_ms();
    s->seats = std::move(seats);
    s->view_only = view_only;
    try {
      Replay rp = replay(rec);
      s->state = std::make_unique<State>(std::move(rp.state));
      s->events = std::move(rp.events);
    } catch (const RecordError& e) {
      fail(400, std::string("invalid record: ") + e.what());
    } catch (const std::exception& e) {
      fail(400, e.what());
    }
    s->state->set_event_log(&s->events);
    if (!view_only) advance(*s->state);
    s->players.resize(s->seats.size());
    for (Seat& seat : s->seats)
      if (seat.type != "ai") seat.token = new_token();
    std::lock_guard lk(sessions_m);
    evict_idle();
    do s->id = new_game_id();
    while (sessions.count(s->id) || db.load(s->id));
    sessions[s->id] = s;
    std::lock_guard sl(s->m);
    commit(*s, s);
    return s;
  }

  // Keeps memory bounded: games nobody is using (no request, event stream or AI task holds
  // them) are dropped from memory; they are reloaded from SQLite when asked for again.
  // Caller holds sessions_m.
  void evict_idle() {
    constexpr size_t kMaxCached = 2000;
    if (sessions.size() < kMaxCached) return;
    for (auto it = sessions.begin(); it != sessions.end();) {
      std::unique_lock sl(it->second->m, std::try_to_lock);
      if (sl.owns_lock() && it->second.use_count() == 1 && !it->second->ai_busy) {
        sl.unlock();
        it = sessions.erase(it);
      } else {
        ++it;
      }
    }
  }

  // Saves the game, publishes the new version, and starts the AI when it is its turn.
  // Caller holds s.m.
  void commit(Session& s, const std::shared_ptr<Session>& sp) {
    ++s.version;
    if (s.auto_seat() < 0) s.thinking = -1;  // e.g. an undo while the AI was thinking
    GameRow row;
    row.id = s.id;
    row.created = s.created;
    row.updated = now_ms();
    row.meta = meta_json(s).dump();
    row.record = record_to_json(record_of(*s.state, s.names()));
    db.save(row);
    schedule_ai(s, sp);
    s.cv.notify_all();
  }

  void schedule_ai(Session& s, const std::shared_ptr<Session>& sp) {
    const int seat = s.auto_seat();
    if (seat < 0 || s.ai_busy || stopping) return;
    s.ai_busy = true;
    s.thinking = seat;
    ++s.version;
    s.cv.notify_all();
    const int delay = s.seats[seat].type == "ai" ? opts.ai_delay_ms : 0;
    std::lock_guard lk(ai_m);
    ai_queue.emplace(Clock::now() + std::chrono::milliseconds(delay), sp);
    ai_cv.notify_one();
  }

  void ai_worker() {
    std::unique_lock lk(ai_m);
    while (!stopping) {
      if (ai_queue.empty()) {
        ai_cv.wait(lk);
        continue;
      }
      auto first = ai_queue.begin();
      if (first->first > Clock::now()) {
        ai_cv.wait_until(lk, first->first);
        continue;
      }
      std::shared_ptr<Session> s = first->second;
      ai_queue.erase(first);
      lk.unlock();
      try {
        run_ai(s);
      } catch (const std::exception& e) {
        std::cerr << "server: AI move in game " << s->id << " failed: " << e.what() << "\n";
        std::lock_guard sl(s->m);
        s->ai_busy = false;
        s->thinking = -1;
      }
      lk.lock();
    }
  }

  void run_ai(const std::shared_ptr<Session>& sp) {
    Session& s = *sp;
    std::unique_lock lk(s.m);
    const int seat = s.auto_seat();
    if (seat < 0) {
      s.ai_busy = false;
      s.thinking = -1;
      ++s.version;
      s.cv.notify_all();
      return;
    }
    const uint64_t version = s.version;
    State copy = *s.state;
    if (!s.players[seat]) {
      const std::string spec = s.seats[seat].type == "ai" ? s.seats[seat].ai : "greedy";
      s.players[seat] = make_ai(spec, s.state->seed() ^ (0x9E3779B97F4A7C15ull * uint64_t(seat + 1)));
    }
    ai::Player* player = s.players[seat].get();
    lk.unlock();
    Move m;
    try {
      m = player->choose(copy);
      if (!copy.check_move(m).empty()) throw std::runtime_error("the AI chose an illegal move");
    } catch (const std::exception& e) {
      std::cerr << "server: AI '" << s.seats[seat].ai << "' failed (" << e.what() << "), playing the first legal move\n";
      std::vector<Move> moves;
      copy.legal_moves(moves);
      m = moves.at(0);
    }
    lk.lock();
    s.ai_busy = false;
    s.thinking = -1;
    if (s.version != version || stopping) {  // the game changed meanwhile (undo, resign): think again
      ++s.version;
      s.cv.notify_all();
      if (!stopping) schedule_ai(s, sp);
      return;
    }
    s.state->apply(m);
    advance(*s.state);
    commit(s, sp);
  }

  // --- HTTP ----------------------------------------------------------------------------

  static void send(httplib::Response& res, const json& j, int status = 200) {
    res.status = status;
    res.set_content(j.dump(), "application/json");
  }

  template <class F>
  httplib::Server::Handler wrap(F f) {
    return [this, f](const httplib::Request& req, httplib::Response& res) {
      try {
        f(req, res);
      } catch (const ApiError& e) {
        send(res, {{"error", e.message}, {"status", e.status}}, e.status);
      } catch (const json::exception& e) {
        send(res, {{"error", std::string("bad request: ") + e.what()}, {"status", 400}}, 400);
      } catch (const std::exception& e) {
        send(res, {{"error", std::string("internal error: ") + e.what()}, {"status", 500}}, 500);
      }
    };
  }

  // The session and the seat a request's token holds (403 when the token is wrong).
  static int seat_for(const Session& s, const json& body, const httplib::Request& req) {
    std::string token = str_field(body, "token");
    if (token.empty() && req.has_header("X-Seat-Token")) token = req.get_header_value("X-Seat-Token");
    if (token.empty()) fail(403, "a seat token is required ('token' in the body or the X-Seat-Token header)");
    const int seat = s.seat_of_token(token);
    if (seat < 0) fail(403, "this token holds no seat in this game");
    return seat;
  }

  void routes() {
    auto& h = http;
    h.Get("/api/health", wrap([](const httplib::Request&, httplib::Response& res) { send(res, {{"ok", true}}); }));

    h.Get("/api/players", wrap([](const httplib::Request&, httplib::Response& res) {
            send(res, {{"players", ai_registry()},
                       {"levels", {"greedy", "mcts:level=easy", "mcts:level=medium", "mcts:level=hard"}}});
          }));

    h.Get("/api/tiles", wrap([](const httplib::Request& req, httplib::Response& res) {
            const std::string tileset = req.has_param("tileset") ? req.get_param_value("tileset") : "base";
            json q = json::object();
            if (req.has_param("expansions")) q["expansions"] = req.get_param_value("expansions");
            Rules rules = rules_from(tileset, expansions_of(q), 2);
            const Game* g;
            try {
              g = Game::get(rules);
            } catch (const std::exception& e) {
              fail(400, e.what());
            }
            json tiles = json::array();
            for (int i = 0; i < g->num_types(); ++i) {
              json t = tile_type_json(g->type(i));
              t["count"] = g->initial_counts()[i] + (i == g->start_type() ? 1 : 0);
              tiles.push_back(t);
            }
            res.set_header("Cache-Control", "max-age=300");
            json out = {{"tileset", tileset}, {"expansions", rules.expansions()}, {"tiles", tiles}};
            out["start"] = g->start_type() >= 0
                               ? json{{"tile", g->type(g->start_type()).id}, {"rotation", 90 * g->start_rotation()}}
                               : json(nullptr);
            if (!g->board_cells().empty()) {  // Wheel of Fortune: the start board and its wheel
              json cells = json::array(), segs = json::array();
              for (const auto& c : g->board_cells()) cells.push_back({{"x", c.x}, {"y", c.y}, {"tile", g->type(c.type).id}});
              for (int i = 0; i < int(g->wheel().size()); ++i)
                segs.push_back({{"event", kWheelEventNames[int(g->wheel()[i].event)]}, {"crowns", g->wheel()[i].crowns}});
              out["board"] = {{"cells", cells}, {"wheel", segs}, {"pig", g->wheel_start()}};
            }
            send(res, out);
          }));

    h.Get("/api/games", wrap([this](const httplib::Request& req, httplib::Response& res) {
            int limit = 50;
            if (req.has_param("limit")) {
              try {
                limit = std::clamp(std::stoi(req.get_param_value("limit")), 1, 500);
              } catch (const std::exception&) {
                fail(400, "'limit' must be a number");
              }
            }
            json games = json::array();
            for (const GameRow& row : db.list(limit)) {
              json meta = json::parse(row.meta, nullptr, false);
              if (meta.is_discarded()) continue;
              json players = json::array();
              for (const auto& s : meta["seats"])
                players.push_back({{"name", s["name"]}, {"type", s["type"]}, {"ai", s["ai"]}});
              json g = meta["summary"];
              g["id"] = row.id;
              g["created"] = row.created;
              g["updated"] = row.updated;
              g["players"] = players;
              games.push_back(g);
            }
            send(res, {{"games", games}});
          }));

    h.Post("/api/games", wrap([this](const httplib::Request& req, httplib::Response& res) {
             json body = parse_body(req);
             std::vector<Seat> seats = seats_from_request(body, nullptr);
             Record rec;
             for (const Seat& s : seats) rec.players.push_back(s.name);
             rec.tileset = str_field(body, "tileset", "base");
             rec.expansions = expansions_of(body);
             rules_from(rec.tileset, rec.expansions, int(seats.size()));  // validates
             auto it = body.find("seed");
             if (it != body.end() && !it->is_null()) {
               if (!it->is_number_unsigned()) fail(400, "'seed' must be a non-negative integer");
               rec.seed = it->get<uint64_t>();
             } else {
               rec.seed = random_seed();
             }
             auto s = add_session(std::move(seats), rec, false);
             send(res, created_json(*s), 201);
           }));

    h.Post("/api/games/upload", wrap([this](const httplib::Request& req, httplib::Response& res) {
             json body = parse_body(req);
             auto it = body.find("record");
             if (it == body.end()) fail(400, "'record' is required: a game record (object or text)");
             std::string text = it->is_string() ? it->get<std::string>() : it->dump();
             Record rec;
             try {
               rec = parse_record(text);
             } catch (const std::exception& e) {
               fail(400, std::string("invalid record: ") + e.what());
             }
             const std::string mode = str_field(body, "mode", "continue");
             if (mode != "continue" && mode != "view") fail(400, "'mode' must be continue or view");
             std::vector<Seat> seats = seats_from_request(body, &rec.players);
             for (size_t i = 0; i < seats.size(); ++i) rec.players[i] = seats[i].name;
             auto s = add_session(std::move(seats), rec, mode == "view");
             send(res, created_json(*s), 201);
           }));

    h.Get(R"(/api/games/([a-z0-9]+))", wrap([this](const httplib::Request& req, httplib::Response& res) {
            auto s = find(req.matches[1]);
            std::lock_guard lk(s->m);
            send(res, view_json(*s));
          }));

    h.Get(R"(/api/games/([a-z0-9]+)/legal)", wrap([this](const httplib::Request& req, httplib::Response& res) {
            auto s = find(req.matches[1]);
            std::lock_guard lk(s->m);
            if (s->over()) {
              send(res, {{"turn", s->state->turn()}, {"player", -1}, {"tile", nullptr}, {"placements", json::array()}});
              return;
            }
            json j = legal_json(*s->state);
            j["version"] = s->version;
            send(res, j);
          }));

    h.Post(R"(/api/games/([a-z0-9]+)/move)", wrap([this](const httplib::Request& req, httplib::Response& res) {
             json body = parse_body(req);
             auto s = find(req.matches[1]);
             std::lock_guard lk(s->m);
             const int seat = seat_for(*s, body, req);
             if (s->view_only) fail(409, "this game is only for viewing");
             if (s->over()) fail(409, "the game is over");
             State& st = *s->state;
             if (st.current_player() != seat) {
               if (st.phase() == Phase::Plague)
                 fail(409, "the Plague: it is " + s->seats[st.current_player()].name + "'s decision, not " + s->seats[seat].name + "'s");
               fail(409, "it is " + s->seats[st.turn_player()].name + "'s turn, not " + s->seats[seat].name + "'s");
             }
             if (s->seats[seat].resigned) fail(409, "you resigned from this game");
             const int turn = int_field(body, "turn", st.turn() + 1);
             if (turn != st.turn() + 1)
               fail(409, "this move is for turn " + std::to_string(turn) + ", the game is at turn " + std::to_string(st.turn() + 1));
             Move m = move_from(st, body);
             s->seats[seat].joined = true;
             st.apply(m);
             advance(st);
             commit(*s, s);
             send(res, view_json(*s));
           }));

    h.Post(R"(/api/games/([a-z0-9]+)/undo)", wrap([this](const httplib::Request& req, httplib::Response& res) {
             json body = parse_body(req);
             auto s = find(req.matches[1]);
             std::lock_guard lk(s->m);
             const int seat = seat_for(*s, body, req);
             (void)seat;
             if (s->view_only) fail(409, "this game is only for viewing");
             if (s->has_remote()) fail(409, "undo is only allowed in games without other human players");
             if (!s->end_reason.empty()) fail(409, "the game is over");
             const size_t n = s->seats.size();
             Record rec = record_of(*s->state, s->names());
             size_t keep = rec.turns.size();
             while (keep > 0 && s->seats[(keep - 1) % n].type != "human") --keep;
             if (keep == 0) fail(409, "there is no move of yours to take back");
             rec.turns.resize(keep - 1);
             Replay rp = replay(rec);
             s->state = std::make_unique<State>(std::move(rp.state));
             s->events = std::move(rp.events);
             s->state->set_event_log(&s->events);
             advance(*s->state);
             commit(*s, s);
             send(res, view_json(*s));
           }));

    h.Post(R"(/api/games/([a-z0-9]+)/resign)", wrap([this](const httplib::Request& req, httplib::Response& res) {
             json body = parse_body(req);
             auto s = find(req.matches[1]);
             std::lock_guard lk(s->m);
             const int seat = seat_for(*s, body, req);
             if (s->over()) fail(409, "the game is over");
             if (s->seats[seat].resigned) fail(409, "you already resigned");
             s->seats[seat].resigned = true;
             int left = 0;
             for (const Seat& x : s->seats) left += !x.resigned;
             if (left <= 1) s->end_reason = s->seats[seat].name + " resigned";
             commit(*s, s);
             send(res, view_json(*s));
           }));

    h.Post(R"(/api/games/([a-z0-9]+)/join)", wrap([this](const httplib::Request& req, httplib::Response& res) {
             json body = parse_body(req);
             auto s = find(req.matches[1]);
             std::lock_guard lk(s->m);
             const int seat = seat_for(*s, body, req);
             if (!s->seats[seat].joined) {
               s->seats[seat].joined = true;
               commit(*s, s);
             }
             send(res, {{"seat", seat}, {"name", s->seats[seat].name}, {"game", view_json(*s)}});
           }));

    h.Get(R"(/api/games/([a-z0-9]+)/record)", wrap([this](const httplib::Request& req, httplib::Response& res) {
            auto s = find(req.matches[1]);
            std::lock_guard lk(s->m);
            Record rec = record_of(*s->state, s->names());
            // A running game's seed decides its future draws: hide it (the record still replays
            // the game so far exactly; the seed only decides draws of a continued game).
            if (!s->over()) rec.seed = random_seed();
            res.set_header("Content-Disposition", "attachment; filename=\"carcassonne-" + s->id + ".json\"");
            res.status = 200;
            res.set_content(record_to_json(rec), "application/json");
          }));

    h.Get(R"(/api/games/([a-z0-9]+)/replay)", wrap([this](const httplib::Request& req, httplib::Response& res) {
            auto s = find(req.matches[1]);
            Record rec;
            {
              std::lock_guard lk(s->m);
              rec = record_of(*s->state, s->names());
            }
            const int total = int(rec.turns.size());
            int turn = total;
            if (req.has_param("turn")) {
              try {
                turn = std::stoi(req.get_param_value("turn"));
              } catch (const std::exception&) {
                fail(400, "'turn' must be a number");
              }
            }
            if (turn < 0 || turn > total) fail(400, "'turn' must be between 0 and " + std::to_string(total));
            rec.turns.resize(size_t(turn));
            Replay rp = replay(rec);
            if (turn == total && rp.state.is_chance()) advance(rp.state);
            json j = board_json(rp.state, rp.events, rec.players);
            j["id"] = s->id;
            j["replay_turn"] = turn;
            j["turns_total"] = total;
            if (turn > 0) {
              const TurnRecord& t = rec.turns[size_t(turn - 1)];
              j["move"] = {{"player", (turn - 1) % int(rec.players.size())}, {"tile", t.tile}, {"x", t.x}, {"y", t.y},
                           {"rotation", t.rotation}, {"meeple", t.meeple}};
              if (!t.fruit_type.empty()) j["move"]["fruit_type"] = t.fruit_type;
              if (t.harvest) j["move"]["fruit"] = {{"harvest", {{"x", t.harvest->x}, {"y", t.harvest->y}}}};
              if (!t.sell.empty()) j["move"]["fruit"] = {{"sell", t.sell}};
              if (t.ret) j["move"]["return"] = t.ret->crown() ? json{{"at", t.ret->at}} : json{{"x", t.ret->x}, {"y", t.ret->y}, {"at", t.ret->at}};
              if (!t.plague.empty()) {
                json pl = json::array();
                for (const auto& p : t.plague) pl.push_back({{"x", p.x}, {"y", p.y}, {"at", p.at}});
                j["move"]["plague"] = pl;
              }
            }
            send(res, j);
          }));

    h.Get(R"(/api/games/([a-z0-9]+)/events)", [this](const httplib::Request& req, httplib::Response& res) {
      std::shared_ptr<Session> s;
      try {
        s = find(req.matches[1]);
      } catch (const ApiError& e) {
        send(res, {{"error", e.message}, {"status", e.status}}, e.status);
        return;
      }
      if (open_streams.fetch_add(1) >= std::max(2, opts.http_threads / 2)) {
        --open_streams;
        send(res, {{"error", "too many open event streams: poll GET /api/games/ID instead"}, {"status", 503}}, 503);
        return;
      }
      res.set_header("Cache-Control", "no-cache");
      res.set_header("X-Accel-Buffering", "no");
      auto last = std::make_shared<uint64_t>(0);
      res.set_chunked_content_provider("text/event-stream", [this, s, last](size_t, httplib::DataSink& sink) {
        std::unique_lock lk(s->m);
        s->cv.wait_for(lk, std::chrono::seconds(15), [&] { return stopping.load() || s->version != *last; });
        if (stopping) {
          lk.unlock();
          sink.done();
          return true;
        }
        std::string msg;
        if (s->version != *last) {
          *last = s->version;
          msg = "event: state\ndata: " + view_json(*s).dump() + "\n\n";
        } else {
          msg = ": keep-alive\n\n";
        }
        lk.unlock();
        if (!sink.is_writable() || !sink.write(msg.data(), msg.size())) return false;
        return true;
      }, [this](bool) { --open_streams; });
    });

    // Errors without a body (404 for unknown paths, 413 for oversized bodies, ...) get one.
    h.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
      if (!res.body.empty()) return;
      std::string msg = res.status == 413   ? "the request body is too large"
                        : res.status == 404 ? "not found: " + req.path
                        : res.status == 400 ? "bad request"
                                            : "error " + std::to_string(res.status);
      res.set_content(json{{"error", msg}, {"status", res.status}}.dump(), "application/json");
    });
    h.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
      std::string msg = "internal error";
      try {
        std::rethrow_exception(ep);
      } catch (const std::exception& e) {
        msg += std::string(": ") + e.what();
      } catch (...) {
      }
      res.status = 500;
      res.set_content(json{{"error", msg}, {"status", 500}}.dump(), "application/json");
    });

    if (!opts.web_dir.empty() && std::filesystem::is_directory(opts.web_dir)) {
      h.set_mount_point("/", opts.web_dir);
    } else {
      h.Get("/", [this](const httplib::Request&, httplib::Response& res) {
        res.set_content(
            "<!doctype html><title>Carcassonne server</title><p>The web client is not built (looked in '" +
                opts.web_dir + "'). Run <code>scripts/setup-web.sh</code> or <code>npm --prefix web run build</code>.</p>",
            "text/html");
      });
    }
    if (opts.log_requests)
      h.set_logger([](const httplib::Request& req, const httplib::Response& res) {
        std::cerr << req.method << " " << req.path << " " << res.status << "\n";
      });
  }

  json created_json(const Session& s) {
    json seats = json::array();
    for (size_t i = 0; i < s.seats.size(); ++i) {
      const Seat& seat = s.seats[i];
      json j = {{"seat", i}, {"name", seat.name}, {"type", seat.type}};
      if (seat.type != "ai") j["token"] = seat.token;
      if (seat.type == "remote") j["join_path"] = "/#/game/" + s.id + "/" + seat.token;
      seats.push_back(j);
    }
    return {{"id", s.id}, {"seats", seats}, {"game", view_json(s)}};
  }

  int start() {
    db.open(opts.db_path);
    const int n = std::max(4, opts.http_threads);
    http.new_task_queue = [n] { return new httplib::ThreadPool(size_t(n)); };
    http.set_payload_max_length(opts.max_body);
    http.set_tcp_nodelay(true);  // small JSON answers: no Nagle/delayed-ACK stalls
    http.set_keep_alive_max_count(100);
    http.set_read_timeout(10);
    http.set_write_timeout(10);
    routes();
    if (opts.port == 0) {
      bound_port = http.bind_to_any_port(opts.host);
      if (bound_port < 0) throw std::runtime_error("cannot bind to " + opts.host);
    } else {
      if (!http.bind_to_port(opts.host, opts.port))
        throw std::runtime_error("cannot listen on " + opts.host + ":" + std::to_string(opts.port) +
                                 " (port in use? try --port)");
      bound_port = opts.port;
    }
    stopping = false;
    running = true;
    for (int i = 0; i < std::max(1, opts.ai_threads); ++i) ai_workers.emplace_back([this] { ai_worker(); });
    listen_thread = std::thread([this] { http.listen_after_bind(); });
    // Games whose AI was to move when the server stopped: resume them.
    for (const GameRow& row : db.list(200)) {
      json meta = json::parse(row.meta, nullptr, false);
      if (meta.is_discarded() || meta["summary"].value("status", "") != "playing") continue;
      try {
        find(row.id);
      } catch (...) {
      }
    }
    return bound_port;
  }

  void stop() {
    if (!running.exchange(false)) return;
    stopping = true;
    {
      std::lock_guard lk(sessions_m);
      for (auto& [id, s] : sessions) {
        std::lock_guard sl(s->m);
        s->cv.notify_all();
      }
    }
    http.stop();
    if (listen_thread.joinable()) listen_thread.join();
    {
      std::lock_guard lk(ai_m);
      ai_queue.clear();
      ai_cv.notify_all();
    }
    for (auto& t : ai_workers) t.join();
    ai_workers.clear();
    {
      std::lock_guard lk(sessions_m);
      sessions.clear();
    }
    db.close();
    std::lock_guard lk(stop_m);
    stop_cv.notify_all();
  }
};

Server::Server(ServerOptions opts) : impl_(std::make_unique<Impl>(std::move(opts))) {}
Server::~Server() { stop(); }
int Server::start() { return impl_->start(); }
void Server::stop() { impl_->stop(); }
int Server::port() const { return impl_->bound_port; }
void Server::wait() {
  std::unique_lock lk(impl_->stop_m);
  impl_->stop_cv.wait(lk, [&] { return !impl_->running.load(); });
}

}  // namespace carc::server
