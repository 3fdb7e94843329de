// (Not "limits.h": that name would hide the C library header.)
// Every limit on untrusted input the engine (record reader, state JSON) and its front ends
// (the CLI's `replay`, the server) enforce, in one place. Each is tested at and beyond its edge
// (tests/record_test.cc "Limits", tests/server_test.cc "BadInput"); docs/security.md lists them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace carc::limits {

// JSON: deepest nesting of arrays/objects accepted anywhere (a record needs 5, the state JSON 6,
// a request body 6). Checked by a non-recursive scan before parsing.
constexpr int kMaxJsonDepth = 32;
// A game record or state JSON text, in bytes (a full 2-player base game is about 8 KB).
constexpr size_t kMaxRecordBytes = 1 << 20;
// Turns in a record (no tile set with every expansion has 200 tiles).
constexpr size_t kMaxRecordTurns = 200;
// A player name in a record, in bytes (tournament records name players by their AI spec).
constexpr size_t kMaxRecordNameBytes = 100;
// A player name chosen in the server's lobby or kept from an uploaded record, in bytes.
constexpr size_t kMaxPlayerNameBytes = 40;
// Any other string in a record (tile ids, locations, fruit and expansion names), in bytes.
constexpr size_t kMaxRecordStringBytes = 64;
// Entries of a list inside one turn ('drawn', 'discarded', 'plague') or of 'expansions'.
constexpr size_t kMaxListEntries = 100;
// Board coordinates: far beyond any reachable position (at most ~100 tiles from the start),
// well inside the engine's int16 coordinates, so no value wraps.
constexpr int kMaxCoordinate = 1000;

// The first place where `text` nests arrays/objects deeper than `max_depth`, as a message
// ("JSON nested deeper than 32 levels at byte 1234"), or "" when it does not. Strings (with
// their escapes) are skipped; the scan is a loop, never a recursion, so any input is safe.
std::string json_depth_error(std::string_view text, int max_depth = kMaxJsonDepth);

}  // namespace carc::limits
