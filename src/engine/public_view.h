// What a player may see: the hidden-information policy in one place (issue #36). Every exit that
// shows a game to a player goes through it: the observation (observation_json, Python's
// State.public_view), the server's views and event stream (views.cc's board_json is built from
// it), and the record download of a game in progress (public_record).
//
// Hidden from every player (nothing in these games is private to one player; `viewer` is kept
// for the observation's `observer` and for a future private field):
//   - the generator and the seed, which decide every future draw (the order of the supply: base
//     game; the tiles a Fortune Teller draws and the wheel tiles drawn later; after a Fortune
//     Teller's draw the others go back and the supply is reshuffled, so only the counts are known);
//   - the order of the face-down fruit tokens (Fruit-Bearing Trees: setup's stacks and the tokens
//     still on each stack; a harvested token is public).
// Public: everything else, in particular the bag's counts (every draw is seen), the tiles drawn
// this turn (the Fortune Teller's draw is shown to every player: the rules do not make it
// secret, docs/vocabulary.md "What a player may see"), the held fruit, the crown spaces, the
// history and the turn in progress.
// state_to_json is this view plus exactly the hidden fields above (`kHiddenStateFields`).
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "record.h"
#include "state.h"

namespace carc {

// The state JSON's fields that public_view leaves out (the policy's list; a test walks every exit
// for each of them): top level "seed", "rng"; under "fruit": "initial_stacks", "stacks".
// The base game's two, then the modules' (expansions/record_fields.h).
inline constexpr std::array<const char*, 2 + kModuleHiddenStateFields.size()> kHiddenStateFields = [] {
  std::array<const char*, 2 + kModuleHiddenStateFields.size()> r{"seed", "rng"};
  for (size_t i = 0; i < kModuleHiddenStateFields.size(); ++i) r[2 + i] = kModuleHiddenStateFields[i];
  return r;
}();

// The position as `viewer` (a seat, or -1 for a spectator) may see it: rules, phase, players to
// decide, turn, scores, supply, the tile(s) drawn, bag counts, board, followers, fruit trees and
// holdings, the wheel, the history (format 2 record turns) and the turn in progress.
nlohmann::ordered_json public_view(const State& s, int viewer);

// A record as a player may download it: a game in progress keeps its turns and its turn in
// progress, but its seed (which decides the coming draws) is replaced by `cover_seed` (the
// caller's fresh secret) and scripted fruit stacks (the face-down order) are dropped. A finished
// game's record is returned whole.
Record public_record(Record r, bool finished, uint64_t cover_seed);

}  // namespace carc
