// Request bodies -> engine values: the JSON body, its fields, rules, seats and moves.
// Everything here refuses bad input by throwing ApiError (400 malformed, 422 illegal).
#pragma once

#include <string>
#include <vector>

#include "api.h"
#include "rules.h"
#include "state.h"

namespace carc::server {

struct Seat;

// The request body as a JSON object ({} when empty); 400 when malformed or not an object.
json parse_body(const std::string& body);
std::string str_field(const json& j, const char* key, const std::string& def = "");
int int_field(const json& j, const char* key, int def);
int int_required(const json& j, const char* key);

Rules rules_from(const std::string& tileset, const std::vector<std::string>& expansions, int players);
std::vector<std::string> expansions_of(const json& j);

// Wheel of Fortune, the Plague: {"kind": "plague", "x", "y", "at"}.
Move plague_move_from(const State& s, const json& body);
// A move request (record-style: board-oriented locations) -> the engine's Move. Throws 422.
Move move_from(const State& s, const json& body);

// Seats from a create/upload request: [{"name", "type": human|remote|ai, "ai": spec}].
std::vector<Seat> seats_from_request(const json& body, const std::vector<std::string>* names);

}  // namespace carc::server
