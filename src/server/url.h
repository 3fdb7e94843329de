// Request targets: percent-decoding and UTF-8 checks (every decoded path and query must be
// valid UTF-8, else the request is refused with 400).
#pragma once

#include <string>
#include <string_view>

#include "api.h"

namespace carc::server {

// True when s is well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF).
bool valid_utf8(std::string_view s);
// Decodes %XX escapes (and '+' as a space when `plus_is_space`). False on a malformed escape.
bool percent_decode(std::string_view in, std::string& out, bool plus_is_space);
// Splits an origin-form target ("/api/tiles?tileset=base") into req.path and req.query,
// decoded. Returns "" on success, else what is wrong (the request is answered 400).
std::string parse_target(std::string_view target, Request& req);

}  // namespace carc::server
