// Helpers shared by the tests: build a scripted record from a compact text, replay it, and
// locate the shared conformance games.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "record.h"
#include "state.h"

namespace carc::test {

// Path of the project source tree and of ../shared next to it (CI lays shared/ beside the clone).
std::string source_dir();
std::string shared_dir();  // "" when not found

// A scripted 2..6-player record. `turns` is JSON text of the turns array, e.g.
// R"([{"tile":"E","x":0,"y":-1,"rotation":180,"meeple":"N"}])".
Record scenario(const std::string& turns, int players = 2, const std::string& start = "",
                const std::vector<std::string>& expansions = {});

// Replays a scenario and returns the replay (with events).
Replay play(const Record& r, bool final = false);

// A position after `turns` turns of a seeded game whose moves are picked uniformly from the listed
// legal moves (list order pinned by tests/golden/move_counts.txt): at a decision, or terminal when
// the game ended first.
State random_position(const Game* g, uint64_t seed, int turns);

// Plays moves picked uniformly from the listed legal moves with `rng` (drawing tiles as the game
// does) until `stop` holds at a decision: true then, false when the game ended first.
bool walk_until(State& s, Rng& rng, const std::function<bool(const State&)>& stop);

// One rule variant of the module table (src/engine/expansions/registry.h): `name` is
// "base+festival+fruit-trees" (Rules::to_string without the players).
struct Variant {
  std::string name;
  Rules rules;
};
// Every variant the module table allows, with `players`: every tile set (table order) x every
// subset of the expansions (subset masks in increasing order, bit i = expansion i), so a new row
// of the table is tested everywhere this is used. Each variant is loaded (Game::get); one that
// fails to load fails the calling test (ADD_FAILURE with the error) instead of being skipped.
std::vector<Variant> all_variants(int players = 2);

// Compares `got` line by line with the golden file tests/golden/<name> (EXPECT failures naming the
// line and `why` it may differ); with CARC_UPDATE_GOLDEN=1 rewrites the file instead and returns
// false (the caller then skips). Returns the number of lines compared.
int expect_golden(const std::string& name, const std::string& got, const std::string& why);
bool updating_golden();

}  // namespace carc::test
