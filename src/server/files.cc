// Static files (see files.h).
#include "files.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace carc::server {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxFileBytes = 32u << 20;  // the web client's files are far smaller

std::string content_type(const fs::path& p) {
  const std::string e = p.extension().string();
  if (e == ".html") return "text/html; charset=utf-8";
  if (e == ".js" || e == ".mjs") return "text/javascript; charset=utf-8";
  if (e == ".css") return "text/css; charset=utf-8";
  if (e == ".json" || e == ".map" || e == ".webmanifest") return "application/json";
  if (e == ".svg") return "image/svg+xml";
  if (e == ".png") return "image/png";
  if (e == ".jpg" || e == ".jpeg") return "image/jpeg";
  if (e == ".ico") return "image/x-icon";
  if (e == ".woff2") return "font/woff2";
  if (e == ".wasm") return "application/wasm";
  if (e == ".txt") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

}  // namespace

std::optional<Response> static_file(const std::string& dir, const std::string& path) {
  if (dir.empty() || path.empty() || path[0] != '/') return std::nullopt;
  fs::path rel;
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    const std::string seg = path.substr(start, end - start);
    if (seg == "." || seg == "..") fail(400, "a path may not contain '.' or '..' segments");
    if (seg.find('\\') != std::string::npos) fail(400, "a path may not contain '\\'");
    if (!seg.empty()) rel /= seg;
    start = end + 1;
  }
  std::error_code ec;
  const fs::path root = fs::canonical(dir, ec);
  if (ec) return std::nullopt;
  fs::path file = root / rel;
  if (path.back() == '/' || rel.empty()) file /= "index.html";
  const fs::path real = fs::canonical(file, ec);
  if (ec) return std::nullopt;
  const std::string r = real.string(), base = root.string() + "/";
  if (r.compare(0, base.size(), base) != 0) return std::nullopt;  // a link out of the web directory
  if (!fs::is_regular_file(real, ec) || fs::file_size(real, ec) > kMaxFileBytes || ec) return std::nullopt;
  std::ifstream in(real, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  Response res;
  res.content_type = content_type(real);
  res.body = ss.str();
  return res;
}

}  // namespace carc::server
