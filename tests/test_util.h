// Helpers shared by the tests: build a scripted record from a compact text, replay it, and
// locate the shared conformance games.
#pragma once

#include <string>
#include <vector>

#include "record.h"

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

}  // namespace carc::test
