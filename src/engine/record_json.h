// The record reader's and writer's JSON helpers (record.cc), shared with the modules' parts of
// records and state JSON (expansions/record_parts.cc): bounded fields, clear errors naming the
// field and the turn (RecordError). Engine-internal: included by those two files only.
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

#include "input_limits.h"
#include "record.h"

namespace carc::record_json {

using nlohmann::json;
using nlohmann::ordered_json;

[[noreturn]] inline void fail(const std::string& where, const std::string& what, int turn = 0) {
  throw RecordError(where + ": " + what, turn);
}

inline void check_keys(const json& j, const std::string& where, std::initializer_list<const char*> allowed, int turn = 0) {
  for (auto& [k, v] : j.items()) {
    bool ok = false;
    for (const char* a : allowed) ok |= k == a;
    if (!ok) fail(where, "unknown field '" + k + "'", turn);
  }
}

// An integer in [lo, hi]. Checked on the JSON number itself, so that no value wraps: a number
// beyond 64 bits or with a fraction/exponent is not an integer, 2^64-1 is not -1.
inline int64_t int_in(const json& v, const std::string& field, const std::string& where, int turn, int64_t lo, int64_t hi) {
  if (!v.is_number_integer()) fail(where, "'" + field + "' must be an integer", turn);
  bool ok;
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    ok = hi >= 0 && u <= uint64_t(hi) && int64_t(u) >= lo;
  } else {
    const int64_t x = v.get<int64_t>();
    ok = x >= lo && x <= hi;
  }
  if (!ok)
    fail(where, "'" + field + "' is out of range (" + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + v.dump() + ")",
         turn);
  return v.is_number_unsigned() ? int64_t(v.get<uint64_t>()) : v.get<int64_t>();
}

// A board coordinate, a rotation in degrees, a seat... by default a coordinate's range.
inline int get_int(const json& j, const char* key, const std::string& where, int turn = 0, int lo = -limits::kMaxCoordinate,
            int hi = limits::kMaxCoordinate) {
  if (!j.contains(key)) fail(where, std::string("missing '") + key + "'", turn);
  return int(int_in(j[key], key, where, turn, lo, hi));
}

// A string of at most `max_bytes` bytes.
inline std::string str_of(const json& v, const std::string& field, const std::string& where, int turn,
                   size_t max_bytes = limits::kMaxRecordStringBytes) {
  if (!v.is_string()) fail(where, "'" + field + "' must be a string", turn);
  const std::string& s = v.get_ref<const std::string&>();
  if (s.size() > max_bytes)
    fail(where, "'" + field + "' has " + std::to_string(s.size()) + " bytes (at most " + std::to_string(max_bytes) + ")", turn);
  return s;
}

inline std::string get_str(const json& j, const char* key, const std::string& where, int turn = 0) {
  if (!j.contains(key)) fail(where, std::string("missing '") + key + "'", turn);
  return str_of(j[key], key, where, turn);
}

// An array of at most limits::kMaxListEntries entries.
inline const json& list_of(const json& v, const std::string& field, const std::string& where, int turn, const std::string& what) {
  if (!v.is_array()) fail(where, "'" + field + "' must be an array of " + what, turn);
  if (v.size() > limits::kMaxListEntries)
    fail(where, "'" + field + "' has " + std::to_string(v.size()) + " entries (at most " +
                    std::to_string(limits::kMaxListEntries) + ")", turn);
  return v;
}

// check_keys with the allowed keys in two lists (the base format's and the modules').
template <class More>
void check_keys_with(const json& j, const std::string& where, std::initializer_list<const char*> allowed, const More& more,
                int turn = 0) {
  for (auto& [k, v] : j.items()) {
    bool ok = false;
    for (const char* a : allowed) ok |= k == a;
    for (const char* a : more) ok |= k == a;
    if (!ok) fail(where, "unknown field '" + k + "'", turn);
  }
}

// A follower's place as records read it: {"x", "y", "at"}, or {"at": "crown:SEGMENT:K"}.
inline ReturnSpec place_of(const json& rj, const std::string& w, int n) {
  if (!rj.is_object()) fail(w, "must be {\"x\", \"y\", \"at\"} (or {\"at\": \"crown:SEGMENT:K\"})", n);
  check_keys(rj, w, {"x", "y", "at"}, n);
  ReturnSpec rs;
  rs.at = get_str(rj, "at", w, n);
  if (!rs.crown() || rj.contains("x") || rj.contains("y")) {
    rs.x = get_int(rj, "x", w, n);
    rs.y = get_int(rj, "y", w, n);
  }
  return rs;
}

// A follower's place as records write it: {"x", "y", "at"}, or {"at"} for a crown space.
inline ordered_json place_json(const ReturnSpec& p) {
  if (p.crown()) return {{"at", p.at}};
  return {{"x", p.x}, {"y", p.y}, {"at", p.at}};
}

}  // namespace carc::record_json
