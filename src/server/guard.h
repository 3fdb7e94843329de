// Cross-site request checks, made once for every request before any route sees it
// (docs/security.md, "Cross-site requests and security headers"), and the security headers of
// every response. Called by the transport (http.cc: connections and handle_bytes).
//   1. Host: a DNS name must be one the operator allowed (`serve --allowed-host`); loopback
//      names and IP literals are always allowed (a DNS-rebinding page needs a DNS name of its
//      own, so it can never send an IP literal or "localhost" as its Host)    -> 421
//   2. Origin, when sent, must be the request's own origin (http or https, host[:port] equal
//      to the Host header)                                                    -> 403
//   3. A state-changing request (any method but GET and HEAD) must say
//      `Content-Type: application/json` (parameters allowed): a cross-site HTML form or a
//      "simple" fetch cannot send that without a CORS preflight, which step 2 refuses -> 415
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api.h"
#include "server_limits.h"

namespace carc::server {

// The answer refusing `req` (400, 403, 415 or 421), or nothing when it may go on. Besides
// `allowed_hosts`, limits::kDefaultAllowedHosts and IP literals are allowed.
// `allowed_hosts`: host names besides the defaults ("example.org" for any port, or
// "example.org:8080"), compared case-insensitively; "*" turns the Host check off.
std::optional<Response> guard_request(const Request& req, const std::vector<std::string>& allowed_hosts);

// Whether a Host header value is allowed (exposed for tests).
bool host_allowed(std::string_view host, const std::vector<std::string>& allowed_hosts);

// The headers every response carries: limits::kContentSecurityPolicy, X-Frame-Options,
// X-Content-Type-Options and Referrer-Policy.
const std::vector<std::pair<std::string, std::string>>& security_headers();

}  // namespace carc::server
