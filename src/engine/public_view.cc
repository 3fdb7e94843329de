// The public view (see public_view.h): built from the state's public accessors only.
#include "public_view.h"

#include "game.h"
#include "notation.h"
#include "vocabulary.h"
#include "expansions/record_parts.h"

namespace carc {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json public_view(const State& s, int viewer) {
  (void)viewer;  // nothing is private to one player (public_view.h)
  const Game& g = s.game();
  const bool deciding = s.phase() == Phase::Place || modules_pending_phase(s);
  ordered_json j;
  ordered_json rules;
  rules["players"] = s.num_players();
  rules["tileset"] = s.rules().tileset;
  rules["expansions"] = s.rules().expansions();
  j["rules"] = rules;
  j["phase"] = phase_name(s);
  j["player"] = s.turn_player();
  // The player to decide: in a module's decision the player deciding (-1 at the end).
  j["current_player"] = s.is_terminal() ? -1 : modules_pending_phase(s) ? s.current_player() : s.turn_player();
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
    for (int i = 0; i < s.num_drawn(); ++i) {
      ordered_json d = {{"tile", g.type(s.drawn_tile(i)).id}, {"placeable", s.drawn_placeable(i)}};
      modules_drawn_json(g.type(s.drawn_tile(i)), d);
      drawn.push_back(d);
    }
  j["drawn"] = drawn;
  j["chosen"] = deciding ? modules_chosen_tile(s) : -1;
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
  modules_public_view(s, j);
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
  modules_hide_record(r);
  return r;
}

}  // namespace carc
