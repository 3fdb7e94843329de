// The JSON views (see views.h).
#include "views.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "game.h"
#include "notation.h"
#include "public_view.h"
#include "session.h"
#include "vocabulary.h"
#include "expansions/vocabulary_rows.h"

namespace carc::server {

namespace {

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

// The kind of feature an event scores (a farm scores a field; taxes pay for knights in a city,
// the famine for farmers, the inquisition for monks), or nullptr (Fortuna, the storm, ...).
const char* event_feature(const std::string& kind) {
  static const std::pair<const char*, const char*> k[] = {{"road", "road"},    {"city", "city"},         {"monastery", "monastery"},
                                                          {"tent", "tent"},    {"farm", "field"},        {"famine", "field"},
                                                          {"taxes", "city"},   {"inquisition", "monastery"}};
  for (const auto& [event, feature] : k)
    if (kind == event) return feature;
  return nullptr;
}

// A follower's role by the kind of feature it stands on.
std::string follower_role(const std::string& kind) {
  if (kind == "road") return "thief";
  if (kind == "city") return "knight";
  if (kind == "monastery") return "monk";
  if (kind == "field") return "farmer";
  if (kind == "tent") return "fortune teller";
  return "follower";
}

}  // namespace

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
  for (int d = 0; d < 4; ++d) edges += (r.closed_sides >> d & 1) ? 'W' : "?FRC"[int(r.edge(d))];  // W: a wheel side
  json symbols = json::array();
  if (t.festival) symbols.push_back("festival");
  if (t.tree) symbols.push_back("tree");
  return {{"id", t.id},         {"set", t.set},     {"note", t.note},
          {"count", t.count},   {"edges", edges},   {"segments", segs},
          {"center", t.center}, {"symbols", symbols}, {"wheel", t.wheel},
          {"canonical_rot", {t.canonical_rot[0] * 90, t.canonical_rot[1] * 90, t.canonical_rot[2] * 90,
                             t.canonical_rot[3] * 90}}};
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
// each, -1 when free), the pig's segment and the player deciding the Plague now (-1). The
// pig's moves and the Plague's take-backs are in the view's one event log (event_json).
json wheel_json(const State& s, const json& pv_wheel) {
  const Game& g = s.game();
  json segs = json::array();
  for (int i = 0; i < int(g.wheel().size()); ++i) {
    json crowns = json::array();
    for (int k = 0; k < kMaxCrownsPerSegment; ++k) {
      const int c = g.crown_at(i, k);
      if (!g.crown_exists(c)) continue;
      int who = -1;  // from the public view's crown spaces
      for (const auto& cj : pv_wheel["crowns"])
        if (cj["space"] == g.crown_name(c)) who = cj["player"];
      crowns.push_back({{"space", g.crown_name(c)}, {"player", who}});
    }
    segs.push_back({{"event", kWheelEventNames[int(g.wheel()[i].event)]}, {"name", segment_words(g, i)}, {"crowns", crowns}});
  }
  return {{"segments", segs},
          {"pig", pv_wheel["pig_segment"]},
          {"pig_event", pv_wheel["pig"]},
          {"plague_player", pv_wheel.value("plague_player", -1)}};
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
  } else if (e.kind == "pig") {
    text = "The pig moves " + std::to_string(e.steps) + " to " + segment_words(s.game(), e.segment) + " (tile " + e.tile +
           " drawn by " + who + ")";
  } else if (e.kind == "fruit" && e.final) {
    text = who + " scores " + std::to_string(e.points) + " for " + std::to_string(e.points) + " fruit token" +
           (e.points == 1 ? "" : "s") + " held";
  } else if (e.kind == "fruit" && e.turn >= 1 && e.turn <= int(s.history().size())) {
    const Move& m = s.history()[size_t(e.turn - 1)].move;
    if (const int h = m.ext.harvest(); h >= 0 && h < kFruitTypes) {
      text = who + " harvests " + fruit_words(h) + " worth " + std::to_string(e.points);
      fruit = {{"harvest", kFruitNames[h]}};
      if (const int pt = s.mod<FruitBlock>().tree(h); pt >= 0) {
        x = s.placed(pt).x;
        y = s.placed(pt).y;
      }
    } else if (const uint32_t sale = m.ext.sale()) {
      const int n = __builtin_popcount(sale);
      text = who + " sells " + std::to_string(n) + " fruit" + (n == 1 ? "" : "s") + " for " + std::to_string(e.points);
      json sold = json::array();
      for (int f = 0; f < kFruitTypes; ++f)
        if (sale >> f & 1) sold.push_back(kFruitNames[f]);
      fruit = {{"sell", sold}};
    }
  }
  if (e.final) text += " (final scoring)";
  const EventKindInfo* info = event_kind(e.kind);
  const std::string where = info ? info->where : "board";
  json j = {{"turn", e.turn}, {"player", e.player}, {"points", e.points}, {"kind", e.kind}, {"final", e.final},
            {"where", where}, {"x", x},           {"y", y},           {"text", text}};
  if (!fruit.is_null()) j["fruit"] = fruit;
  const Game& g = s.game();
  if (e.segment >= 0) j["segment"] = kWheelEventNames[int(g.wheel()[e.segment].event)];  // wheel scorings, the pig
  if (e.kind == "pig") {  // the pig's move: from which segment, how many steps, the drawn tile that turned it
    j["from"] = kWheelEventNames[int(g.wheel()[e.from].event)];
    j["to"] = kWheelEventNames[int(g.wheel()[e.segment].event)];
    j["steps"] = e.steps;
    j["tile"] = e.tile;
  }
  // On the board: the tile at x, y, the feature scored (its kind) and, for the Plague, the
  // location of the follower taken back and its role.
  const int pi = where == "board" ? s.tile_at(x, y) : -1;
  if (pi >= 0) {
    const PlacedTile& P = s.placed(pi);
    const TileType& t = g.type(P.type);
    j["tile"] = t.id;
    if (e.kind == "plague") {
      const int seg = t.segment_at(e.at, P.rot);
      j["seg"] = seg;
      j["at"] = e.at;
      j["feature"] = kind_name(t.rot[P.rot].seg[seg].kind);
      j["follower"] = follower_role(kind_name(t.rot[P.rot].seg[seg].kind));
      j["text"] = who + " takes back a " + j["follower"].get<std::string>() + " from (" + std::to_string(e.x) + "," +
                  std::to_string(e.y) + ") for the Plague";
    } else if (const char* f = event_feature(e.kind)) {
      j["feature"] = f;
    }
  }
  return j;
}

// Fruit-Bearing Trees, public part: the trees on the board with the tokens left on each, the
// tokens each player holds ({"apple": 2}), and the stacks not yet on a tree.
json fruit_json(const State& s) {
  json trees = json::array(), held = json::array(), stacks = json::array();
  for (int f = 0; f < kFruitTypes; ++f) {
    if (s.mod<FruitBlock>().tree(f) >= 0) {
      const PlacedTile& P = s.placed(s.mod<FruitBlock>().tree(f));
      trees.push_back({{"type", kFruitNames[f]}, {"x", P.x}, {"y", P.y}, {"left", s.mod<FruitBlock>().left(f)}});
    } else {
      stacks.push_back(kFruitNames[f]);
    }
  }
  for (int p = 0; p < s.num_players(); ++p) {
    json h = json::object();
    for (int f = 0; f < kFruitTypes; ++f)
      if (s.mod<FruitBlock>().held_by(p, f)) h[kFruitNames[f]] = s.mod<FruitBlock>().held_by(p, f);
    held.push_back(h);
  }
  return {{"trees", trees}, {"held", held}, {"stacks", stacks}};
}

// The public view of a position: every field that depends on the state comes from the engine's
// one public view (public_view.h, the hidden-information policy), never from the State itself;
// the game's constant tables (tile set, wheel layout) and the narration of the events are added.
json board_json(const State& s, const std::vector<ScoreEvent>& events, const std::vector<std::string>& names) {
  const Game& g = s.game();
  const json pv = json(public_view(s, -1));
  json j;
  j["tileset"] = pv["rules"]["tileset"];
  j["expansions"] = pv["rules"]["expansions"];
  j["turn"] = pv["turn"];
  j["phase"] = pv["phase"];
  // The player to decide: during the Plague the player taking a follower back, who may not be
  // the player whose turn it is (turn_player).
  j["current_player"] = pv["current_player"];
  j["turn_player"] = pv["phase"] == "terminal" ? json(-1) : pv["player"];
  j["tile"] = pv.contains("tile") ? pv["tile"] : json(nullptr);
  j["drawn"] = pv["drawn"];  // Fortune Teller: every tile drawn this turn, the player picks one
  // Wheel of Fortune: the drawn tile chosen to turn the wheel (-1: none yet)
  if (s.game().has_wheel()) j["chosen"] = pv["chosen"];
  int left = 0;
  for (const auto& [id, n] : pv["bag"].items()) left += n.get<int>();
  j["bag"] = left;
  j["total_tiles"] = g.total_tiles();
  j["bag_counts"] = pv["bag"];  // what is left in the bag (public: every draw is seen)
  j["board"] = pv["board"];
  json fol = json::array();
  for (const auto& f : pv["followers"])
    fol.push_back({{"player", f["player"]}, {"x", f["x"]}, {"y", f["y"]}, {"seg", f["seg"]}, {"at", f["at"]}, {"kind", f["kind"]}});
  j["followers"] = fol;
  j["scores"] = pv["scores"];
  j["supply"] = pv["supply"];
  // The one event log, in the engine's order (the table's log): scorings, the pig's moves and
  // the Plague's take-backs, each with where to show it ("wheel" or "board").
  json ev = json::array();
  for (const auto& e : events) ev.push_back(event_json(e, names, s));
  j["events"] = ev;
  if (pv.contains("fruit")) {
    json stacks = json::array();  // the stacks not yet on a tree
    for (int f = 0; f < kFruitTypes; ++f) {
      bool on_tree = false;
      for (const auto& t : pv["fruit"]["trees"]) on_tree |= t["type"] == kFruitNames[f];
      if (!on_tree) stacks.push_back(kFruitNames[f]);
    }
    j["fruit"] = {{"trees", pv["fruit"]["trees"]}, {"held", pv["fruit"]["held"]}, {"stacks", stacks}};
  }
  if (pv.contains("wheel")) j["wheel"] = wheel_json(s, pv["wheel"]);
  if (pv["board"].size() > size_t(g.num_setup_tiles())) {
    const json& P = pv["board"].back();
    j["last"] = {{"x", P["x"]}, {"y", P["y"]}};
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
// "take_backs" (Festival) the player's crown followers as {"at": "crown:taxes:0", "crown": true}.
json legal_json(const State& s) {
  json out;
  out["turn"] = s.turn() + 1;
  out["player"] = s.is_terminal() ? -1 : s.phase() == Phase::Plague ? s.current_player() : s.turn_player();
  out["phase"] = phase_name(s);
  if (s.phase() == Phase::Plague) {
    out["tile"] = s.game().type(s.current_tile()).id;
    out["placements"] = json::array();
    std::vector<Move> moves;
    s.legal_moves(moves);
    json pl = json::array();
    for (const Move& m : moves) {
      json f = follower_json(s, m.ext.plague());
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
    uint32_t fruit_types = 0;     // stacks that may go on a tree tile
    // Fruit-Bearing Trees: every (stack, tree) harvest the engine lists, in its order (stack -1:
    // not a tree tile), the fruit types sold in some sale and the largest sale.
    std::vector<std::pair<int, int>> harvests;
    uint32_t sell = 0;
    int sell_max = 0;
  };
  auto add = [](auto& v, const auto& x) {
    if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
  };
  std::map<std::tuple<int, int, int, int>, Group> groups;  // (choice, x, y, rot)
  for (const Move& m : moves) {
    if (m.kind != MoveKind::Place) continue;
    Group& g = groups[{m.choice, m.x, m.y, m.rot}];
    if (const int f = m.ext.fruit_type(); f >= 0) g.fruit_types |= 1u << f;
    if (m.ext.harvest() >= 0) add(g.harvests, std::pair<int, int>{m.ext.fruit_type(), m.ext.harvest()});
    g.sell |= m.ext.sale();
    g.sell_max = std::max(g.sell_max, __builtin_popcount(m.ext.sale()));
    if (m.ext.crown() >= 0)
      add(g.crowns, m.ext.crown());
    else if (m.meeple >= 0)
      add(g.segs, m.meeple);
    else if (m.ext.take_back_crown() >= 0)
      add(g.crown_rets, m.ext.take_back_crown());
    else if (m.ext.take_back() >= 0)
      add(g.rets, m.ext.take_back());
    else
      g.plain = true;
  }
  json pl = json::array();
  for (const auto& [key, g] : groups) {
    const auto [choice, x, y, cr] = key;
    const TileType& t = s.game().type(s.drawn_tile(choice));
    json fruit;
    if (!g.harvests.empty() || g.sell) {
      json harvest = json::array(), sell = json::array();
      for (int f = 0; f < kFruitTypes; ++f)
        if (g.sell >> f & 1) sell.push_back(kFruitNames[f]);
      for (const auto& [stack, f] : g.harvests) {
        // The new tree (a tree tile's own, of the chosen stack) or one already on the board.
        const bool own = t.tree && f == stack;
        const int tx = own ? x : s.placed(s.mod<FruitBlock>().tree(f)).x, ty = own ? y : s.placed(s.mod<FruitBlock>().tree(f)).y;
        const int left = own ? int(kFruitTokenValues.size()) : s.mod<FruitBlock>().left(f);
        json h = {{"type", kFruitNames[f]}, {"x", tx}, {"y", ty}, {"left", left}, {"new", own}};
        if (stack >= 0) h["fruit_type"] = kFruitNames[stack];
        harvest.push_back(h);
      }
      fruit = {{"harvest", harvest}, {"sell", sell}, {"sell_max", g.sell_max}};
    }
    for (int r = 0; r < 4; ++r) {
      if (t.canonical_rot[r] != cr) continue;
      json spots = json::array(), rets = json::array();
      for (int seg : g.segs) {
        const std::string loc = t.location_name(seg, cr);
        const int seg_r = t.segment_at(loc, r);
        spots.push_back({{"seg", seg_r}, {"at", loc}, {"kind", kind_name(t.rot[0].seg[seg_r].kind)}});
      }
      for (int ri : g.rets) {
        json f = follower_json(s, ri);
        rets.push_back({{"x", f["x"]}, {"y", f["y"]}, {"at", f["at"]}, {"seg", f["seg"]}, {"kind", f["kind"]}});
      }
      for (int c : g.crown_rets) rets.push_back({{"at", s.game().crown_name(c)}, {"crown", true}});
      json p = {{"x", x}, {"y", y}, {"rotation", 90 * r}, {"choice", choice}, {"tile", t.id}, {"plain", g.plain},
                {"followers", spots}, {"take_backs", rets}};
      if (s.game().has_wheel()) {
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

json seats_public(const Session& s) {
  json out = json::array();
  for (size_t i = 0; i < s.num_seats(); ++i) {
    const match::Seat& seat = s.seat(int(i));
    out.push_back({{"seat", i},
                   {"name", seat.name},
                   {"type", seat.type},
                   {"ai", seat.ai},
                   {"resigned", seat.resigned},
                   {"joined", s.access[i].joined},
                   {"chat_public", s.access[i].chat_public}});
  }
  return out;
}

// Who won: the best score among the players who did not resign. Whoever resigns loses, whatever
// the scores (the one rule for every front end: the web client shows `winners`).
std::vector<int> winners(const State& st, const std::vector<match::Seat>& seats) {
  auto resigned = [&](int p) { return size_t(p) < seats.size() && seats[size_t(p)].resigned; };
  std::vector<int> w;
  int best = -1;
  for (int p = 0; p < st.num_players(); ++p)
    if (!resigned(p)) best = std::max(best, st.score(p));
  for (int p = 0; p < st.num_players(); ++p)
    if (!resigned(p) && st.score(p) == best) w.push_back(p);
  return w;
}

json move_body_json(const State& s, const Move& m) {
  const NamedMove n = name_move(s, m);
  json j;
  if (n.kind == MoveKind::Plague) {
    j["kind"] = "plague";
    if (n.take_back) j.update({{"x", n.take_back->x}, {"y", n.take_back->y}, {"at", n.take_back->at}});
    return j;
  }
  j["kind"] = n.kind == MoveKind::Choose ? "choose" : "place";
  j["choice"] = int(m.choice);
  j["tile"] = s.game().type(s.drawn_tile(m.choice)).id;
  if (n.kind == MoveKind::Choose) return j;
  j["x"] = n.x;
  j["y"] = n.y;
  j["rotation"] = n.rotation;
  if (!n.follower.empty()) j["follower"] = n.follower;
  if (n.take_back)
    j["take_back"] = n.take_back->crown() ? json{{"at", n.take_back->at}}
                                       : json{{"x", n.take_back->x}, {"y", n.take_back->y}, {"at", n.take_back->at}};
  if (!n.fruit_type.empty()) j["fruit_type"] = n.fruit_type;
  if (n.harvest) j["fruit"] = {{"harvest", {{"x", n.harvest->first}, {"y", n.harvest->second}}}};
  if (!n.sell.empty()) j["fruit"] = {{"sell", n.sell}};
  return j;
}

json chat_json(const Session& s) {
  json out = json::array();
  for (const ChatLine& c : s.chat) out.push_back({{"seat", c.seat}, {"name", c.name}, {"text", c.text}, {"at", c.at}});
  return out;
}

json view_json(const Session& s) {
  const match::Table& t = *s.table;
  json j = board_json(t.state(), t.events(), t.names());
  j["id"] = s.id;
  j["version"] = s.version;
  j["status"] = t.status();
  j["end_reason"] = t.end_reason();
  j["players"] = seats_public(s);
  j["thinking"] = s.thinking;
  j["allow_hints"] = t.allow_hints();
  j["turns_total"] = t.state().history().size();
  const bool has_human_turn = [&] {
    const size_t n = t.seats().size();
    for (size_t i = 0; i < t.state().history().size(); ++i)
      if (t.seat(int(i % n)).type == "human") return true;
    return false;
  }();
  j["can_undo"] = !t.over() && !t.has_remote() && has_human_turn;
  j["winners"] = t.over() && !t.view_only() ? json(winners(t.state(), t.seats())) : json::array();
  // The AI failure policy (docs/server.md, "When an AI fails"): an AI seat that failed does not
  // move and nothing plays in its place; the game says which seat, its spec and what failed.
  if (const auto& f = t.ai_failure()) j["ai_failure"] = {{"seat", f->seat}, {"ai", f->spec}, {"error", f->error}};
  if (s.over()) j["current_player"] = -1;
  j["paused"] = s.paused;
  // Chat: how many messages (a new one changes it: the seats' clients then read them with their
  // token, GET /api/games/ID/chat), whether spectators may read them, and then the messages too.
  j["chat_count"] = s.chat.size();
  j["chat_public"] = s.chat_public();
  if (s.chat_public()) j["chat"] = chat_json(s);
  if (!s.rematch.empty()) j["rematch"] = s.rematch;
  // Fair draws (docs/security.md): the commitment from the start; the salt and the seed that
  // open it once the game is over.
  if (s.draw_from_turn >= 0) {
    json f = {{"from_turn", s.draw_from_turn}, {"commitment", s.draw_commitment}};
    if (s.over()) {
      f["salt"] = s.draw_salt;
      f["seed"] = t.state().seed();
    }
    j["fair_draws"] = f;
  }
  return j;
}

}  // namespace carc::server
