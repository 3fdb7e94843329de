// (Not "limits.h": that name would hide the C library header.)
// Every limit on untrusted input the engine (record reader, state JSON) and its front ends
// (the CLI's `replay`, the server) enforce, in one place. Each is tested at and beyond its edge
// (tests/record_test.cc "Limits", tests/server_test.cc "BadInput"); docs/security.md lists them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
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
// Player names (server lobby, names kept from an uploaded record; docs/security.md "Player
// names"): a run of combining marks (U+0300-036F, 1AB0-1AFF, 1DC0-1DFF, 20D0-20FF, FE20-FE2F)
// after one character has at most this many marks (Vietnamese in decomposed form needs 2; a
// "Zalgo" name that spills over the lines around it needs dozens).
constexpr size_t kMaxCombiningMarks = 3;
// Board coordinates: far beyond any reachable position (at most ~100 tiles from the start),
// well inside the engine's int16 coordinates, so no value wraps.
constexpr int kMaxCoordinate = 1000;

// The first place where `text` nests arrays/objects deeper than `max_depth`, as a message
// ("JSON nested deeper than 32 levels at byte 1234"), or "" when it does not. Strings (with
// their escapes) are skipped; the scan is a loop, never a recursion, so any input is safe.
std::string json_depth_error(std::string_view text, int max_depth = kMaxJsonDepth);

// The next code point of UTF-8 text at `i` (advanced past it). False for a malformed sequence
// (overlong, surrogate, beyond U+10FFFF, truncated): `i` is then advanced by one byte.
bool next_code_point(std::string_view text, size_t& i, char32_t& cp);
// Code points that must never reach a terminal or a player's screen raw, as a name for messages
// ("a control character", "a bidirectional control character", "an invisible character"), or
// nullptr. Controls: U+0000-001F, U+007F-009F. Bidirectional: U+202A-202E (embeddings,
// overrides), U+2066-2069 (isolates), U+061C, U+200E-200F (marks). Invisible: U+200B-200D,
// U+2060-2064, U+FEFF, U+00AD, U+034F, U+115F, U+1160, U+180E, U+3164, U+FFA0, and the line
// and paragraph separators U+2028, U+2029.
const char* unsafe_code_point(char32_t cp);
// A player name checked and cleaned (docs/security.md, "Player names"): valid UTF-8; no control,
// bidirectional-control or invisible character (see unsafe_code_point); at most
// kMaxCombiningMarks combining marks after one character; surrounding whitespace trimmed and
// every inner run of whitespace (space, U+00A0, U+1680, U+2000-200A, U+202F, U+205F, U+3000)
// made one space; not only whitespace. Returns "" and sets `out`, or why it is refused
// ("holds a control character (U+001B)"), for a message that names the field. Names are not
// NFC-normalised (no Unicode tables): they are only shown, never compared to find a player.
std::string clean_player_name(std::string_view name, std::string& out);

// An object of untrusted JSON that has the same key twice ({"x": 1, "x": 2}): refused, never
// "the last one wins" (two readers of the same text must not see different values).
struct DuplicateKeyError : std::runtime_error {
  std::string key;
  explicit DuplicateKeyError(const std::string& k);
};
// Parses untrusted JSON text (its depth checked first with json_depth_error by the caller) like
// nlohmann::json::parse, but throws DuplicateKeyError at the first object with a repeated key.
// Malformed text throws nlohmann::json::parse_error as json::parse does. The one JSON reader of
// the record reader, the state JSON reader and the server's request bodies.
nlohmann::json parse_json_unique_keys(std::string_view text);

}  // namespace carc::limits
