// The JSON views the API answers with: tiles, boards, legal moves, events, the Wheel of
// Fortune and the Fruit-Bearing Trees (public information only: no seed, no bag order).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api.h"
#include "state.h"
#include "tiles.h"

namespace carc::server {

struct Session;
}  // namespace carc::server
namespace carc::match {
struct Seat;
}  // namespace carc::match
namespace carc::server {

json tile_type_json(const TileType& t);
json follower_json(const State& s, int i);
// A follower's place given by its slot, and who put it there.
json slot_json(const State& s, uint16_t slot);
// `pv_wheel`: the public view's "wheel" (public_view.h).
json wheel_json(const State& s, const json& pv_wheel);
json fruit_json(const State& s);
// The public view of a position: its state-derived fields come from carc::public_view (the one
// hidden-information policy: no seed, no generator, no face-down fruit order).
json board_json(const State& s, const std::vector<ScoreEvent>& events, const std::vector<std::string>& names);
// The legal moves for the tile to place, grouped by placement (see views.cc).
json legal_json(const State& s);
json seats_public(const Session& s);
// The best score among the players who did not resign: whoever resigns loses, whatever the scores.
std::vector<int> winners(const State& st, const std::vector<match::Seat>& seats);
// A legal move at `s` as the body of POST /api/games/ID/move names it (for hints): "kind"
// (place, choose, plague), and for a placement "choice", "tile", "x", "y", "rotation" and,
// when used, "follower", "take_back", "fruit_type", "fruit": the one move object of records,
// requests, hints and replays (docs/vocabulary.md).
json move_body_json(const State& s, const Move& m);
// The game's chat messages, oldest first: {seat, name, text, at (unix ms)}.
json chat_json(const Session& s);
// A game as GET /api/games/ID answers it.
json view_json(const Session& s);

}  // namespace carc::server
