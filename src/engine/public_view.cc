// The public view (see public_view.h): built from the state's public accessors only.
#include "public_view.h"

#include "game.h"
#include "notation.h"
#include "vocabulary.h"

namespace carc {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json public_view(const State& s, int viewer) {
  (void)viewer;  // nothing is private to one player (public_view.h)
  const Game& g = s.game();
  const bool deciding = s.phase() == Phase::Place || s.phase() == Phase::Plague;
  ordered_json j;
  ordered_json rules;
  rules["players"] = s.num_players();
  rules["tileset"] = s.rules().tileset;
  rules["expansions"] = s.rules().expansions();
  j["rules"] = rules;
  j["phase"] = phase_name(s);
  j["player"] = s.turn_player();
  // The player to decide: during the Plague the player taking a follower back (-1 at the end).
  j["current_player"] = s.is_terminal() ? -1 : s.phase() == Phase::Plague ? s.current_player() : s.turn_player();
  j["turn"] = s.turn();
  j["scores"] = s.scores();
  std::vector<int> supply;
  for (int p = 0; p < s.num_players(); ++p) supply.push_back(s.supply(p));
  j["supply"] = supply;
  if (deciding) j["tile"] = g.type(s.current_tile()).id;
  // The tiles drawn this turn (Fortune Teller: several; every player sees them), and the one
  // chosen (Wheel of Fortune: -1 until a drawn wheel tile is chosen).
  ordered_json drawn = ordered_json::array();
  if (deciding)
    for (int i = 0; i < s.num_drawn(); ++i)
      drawn.push_back({{"tile", g.type(s.drawn_tile(i)).id},
                       {"placeable", s.drawn_placeable(i)},
                       {"wheel", g.type(s.drawn_tile(i)).wheel}});
  j["drawn"] = drawn;
  j["chosen"] = deciding ? s.chosen() : -1;
  // The bag's counts: every draw is seen, so they are public; their order is not.
  ordered_json bag = ordered_json::object();
  for (int t = 0; t < g.num_types(); ++t)
    if (s.bag_count(t)) bag[g.type(t).id] = s.bag_count(t);
  j["bag"] = bag;
  ordered_json board = ordered_json::array();
  for (int i = 0; i < s.num_placed(); ++i) {
    const PlacedTile& P = s.placed(i);
    board.push_back({{"x", P.x}, {"y", P.y}, {"tile", g.type(P.type).id}, {"rotation", 90 * P.rot}});
  }
  j["board"] = board;
  ordered_json fol = ordered_json::array();
  for (int i = 0; i < s.num_followers(); ++i) {
    const Follower& f = s.followers()[i];
    const PlacedTile& P = s.placed(s.slot_tile(f.slot));
    const TileType& tt = g.type(P.type);
    const int seg = s.slot_segment(f.slot);
    fol.push_back({{"player", f.player}, {"x", P.x}, {"y", P.y}, {"at", tt.location_name(seg, P.rot)},
                   {"kind", kind_name(tt.rot[P.rot].seg[seg].kind)}, {"seg", seg}});
  }
  j["followers"] = fol;
  if (s.rules().fruit_trees()) {
    // Public: the trees with the number of tokens left, and what each player holds. Hidden: the
    // order (values) of the tokens still face down.
    ordered_json fruit;
    ordered_json trees = ordered_json::array();
    for (int f = 0; f < kFruitTypes; ++f)
      if (s.fruit_tree(f) >= 0)
        trees.push_back({{"type", kFruitNames[f]}, {"x", s.placed(s.fruit_tree(f)).x},
                         {"y", s.placed(s.fruit_tree(f)).y}, {"left", s.fruit_left(f)}});
    fruit["trees"] = trees;
    ordered_json held = ordered_json::array();
    for (int p = 0; p < s.num_players(); ++p) {
      ordered_json h = ordered_json::object();
      for (int f = 0; f < kFruitTypes; ++f)
        if (s.fruit_held(p, f)) h[kFruitNames[f]] = s.fruit_held(p, f);
      held.push_back(h);
    }
    fruit["held"] = held;
    j["fruit"] = fruit;
  }
  if (s.has_wheel()) {
    ordered_json w;
    w["pig"] = kWheelEventNames[int(g.wheel()[s.pig()].event)];
    w["pig_segment"] = s.pig();
    ordered_json crowns = ordered_json::array();
    for (int c = 0; c < kMaxCrowns; ++c)
      if (g.crown_exists(c)) crowns.push_back({{"space", g.crown_name(c)}, {"player", s.crown(c)}});
    w["crowns"] = crowns;
    if (s.phase() == Phase::Plague) w["plague_player"] = s.plague_player();
    j["wheel"] = w;
  }
  // The history (format 2 record turns: every draw already made and every harvested token are
  // public) and the turn in progress, without the record's setup (its seed is hidden).
  const Record rec = record_of(s, {}, false);
  if (g.board_cells().empty())
    j["start"] = {{"tile", g.type(s.placed(0).type).id}, {"rotation", 90 * s.placed(0).rot}};
  ordered_json turns = ordered_json::array();
  for (const TurnRecord& t : rec.turns) turns.push_back(ordered_json::parse(turn_json(t)));
  j["history"] = turns;
  j["pending"] = ordered_json::parse(pending_json(rec.pending));
  j["finished_scoring"] = s.finished_scoring();
  return j;
}

Record public_record(Record r, bool finished, uint64_t cover_seed) {
  if (finished) return r;
  r.seed = cover_seed;
  r.fruit_stacks.reset();
  return r;
}

}  // namespace carc
