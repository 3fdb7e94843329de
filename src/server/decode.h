// Request bodies -> engine values: the JSON body, its fields, rules, seats and moves.
// Everything here refuses bad input by throwing ApiError (400 malformed, 422 illegal).
#pragma once

#include <string>
#include <vector>

#include "api.h"
#include "notation.h"
#include "rules.h"
#include "state.h"

namespace carc::server {

struct Seat;
struct AiLimits;

// The request body as a JSON object ({} when empty); 400 when malformed or not an object.
json parse_body(const std::string& body);
std::string str_field(const json& j, const char* key, const std::string& def = "");
// An integer field in [lo, hi] (400 naming the field and the range otherwise; a number too
// large for 64 bits or with a fraction is not an integer). int_field: `def` when absent/null.
int int_field(const json& j, const char* key, int def, int lo, int hi);
int int_required(const json& j, const char* key, int lo, int hi);
// A board coordinate: |v| <= carc::limits::kMaxCoordinate.
int coordinate(const json& j, const char* key);
// The largest "choice" (index of a drawn tile) a move may name.
constexpr int kMaxDrawnChoice = 15;

Rules rules_from(const std::string& tileset, const std::vector<std::string>& expansions, int players);
std::vector<std::string> expansions_of(const json& j);

// A move request -> the named move it stands for (docs/vocabulary.md): only the fields and their
// input limits are checked here (400 for a missing or mistyped field). "kind": "place" (default),
// "choose" (Wheel of Fortune: a drawn tile named by "choice" or "tile") or "plague"
// ({"x", "y", "at"}: the follower taken back). A placement names "x", "y", "rotation" (degrees),
// "follower", "take_back" (the old names "meeple" and "return" are refused: 400), "fruit_type"
// and "fruit" ({"harvest": {x, y}} or {"sell": [types]}).
NamedMove named_move_from(const json& body);
// A move request -> the engine's Move, through notation::parse_move: 400 when the move is
// malformed, 422 when it is not legal now (the message says why).
Move move_from(const State& s, const json& body);

// Seats from a create/upload request: [{"name", "type": human|remote|ai, "ai": spec}].
// AI seats are checked against `limits` (400 beyond them); names have at most
// carc::limits::kMaxPlayerNameBytes bytes, also those kept from an uploaded record.
std::vector<Seat> seats_from_request(const json& body, const std::vector<std::string>* names, const AiLimits& limits);

}  // namespace carc::server
