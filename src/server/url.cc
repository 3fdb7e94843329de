// Request targets (see url.h).
#include "url.h"

namespace carc::server {

bool valid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  for (size_t i = 0; i < n;) {
    const unsigned c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len;
    unsigned cp, min;
    if ((c & 0xE0) == 0xC0) len = 2, cp = c & 0x1F, min = 0x80;
    else if ((c & 0xF0) == 0xE0) len = 3, cp = c & 0x0F, min = 0x800;
    else if ((c & 0xF8) == 0xF0) len = 4, cp = c & 0x07, min = 0x10000;
    else return false;
    if (i + len > n) return false;
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return false;
      cp = cp << 6 | (p[i + k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

namespace {
int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

bool percent_decode(std::string_view in, std::string& out, bool plus_is_space) {
  out.clear();
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return false;
      const int hi = hex(in[i + 1]), lo = hex(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      out += char(hi << 4 | lo);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return true;
}

std::string parse_target(std::string_view target, Request& req) {
  if (target.empty() || target[0] != '/') return "the request target must be a path starting with '/'";
  const size_t q = target.find('?');
  const std::string_view raw_path = target.substr(0, q);
  if (!percent_decode(raw_path, req.path, false)) return "malformed %-escape in the path";
  if (!valid_utf8(req.path)) return "the path is not valid UTF-8";
  for (char c : req.path)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return "control character in the path";
  // A '.' or '..' segment (also %2e%2e) is refused for every path, /api included, as for
  // static files: no route has one, and a proxy in front might resolve it differently.
  for (size_t start = 1; start <= req.path.size();) {
    size_t end = req.path.find('/', start);
    if (end == std::string::npos) end = req.path.size();
    const std::string_view seg = std::string_view(req.path).substr(start, end - start);
    if (seg == "." || seg == "..") return "a path may not contain '.' or '..' segments";
    start = end + 1;
  }
  req.query.clear();
  if (q == std::string_view::npos) return "";
  std::string_view rest = target.substr(q + 1);
  const size_t hash = rest.find('#');
  if (hash != std::string_view::npos) rest = rest.substr(0, hash);
  while (!rest.empty()) {
    const size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    std::string k, v;
    if (!percent_decode(pair.substr(0, eq), k, true) ||
        (eq != std::string_view::npos && !percent_decode(pair.substr(eq + 1), v, true)))
      return "malformed %-escape in the query";
    if (!valid_utf8(k) || !valid_utf8(v)) return "the query is not valid UTF-8";
    req.query.emplace(std::move(k), std::move(v));
  }
  return "";
}

}  // namespace carc::server
