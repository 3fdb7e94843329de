// The web client's static files (GET of any path outside /api).
#pragma once

#include <optional>
#include <string>

#include "api.h"

namespace carc::server {

// The file at the decoded request path `path` under `dir` ("/" and "/x/": index.html), or
// nullopt when there is none. Never leaves `dir`: a path with a "." or ".." segment is
// refused (400), and a file whose real path (symbolic links resolved) is outside `dir` is
// not served.
std::optional<Response> static_file(const std::string& dir, const std::string& path);

}  // namespace carc::server
