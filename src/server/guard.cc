// Cross-site request checks and security headers (see guard.h).
#include "guard.h"

#include <arpa/inet.h>

#include <cctype>

namespace carc::server {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// host[:port] split; false when malformed. `name` keeps the brackets of an IPv6 literal.
bool split_authority(std::string_view a, std::string& name, std::string& port) {
  a = trim(a);
  if (a.empty()) return false;
  size_t end;
  if (a[0] == '[') {
    end = a.find(']');
    if (end == std::string_view::npos) return false;
    ++end;
  } else {
    end = a.find(':');
    if (end == std::string_view::npos) end = a.size();
  }
  name = lower(a.substr(0, end));
  port.clear();
  if (end < a.size()) {
    if (a[end] != ':') return false;
    port = std::string(a.substr(end + 1));
    if (port.empty() || port.size() > 5) return false;
    for (char c : port)
      if (c < '0' || c > '9') return false;
  }
  if (name.empty() || name == "[]") return false;
  for (char c : name)  // a host name or an IP literal: no spaces, slashes, '@' or controls
    if (static_cast<unsigned char>(c) <= 0x20 || c == '/' || c == '@' || c == '\\' || c == 0x7F) return false;
  return true;
}

bool ip_literal(const std::string& name) {
  unsigned char buf[16];
  if (name.size() > 2 && name.front() == '[' && name.back() == ']')
    return inet_pton(AF_INET6, name.substr(1, name.size() - 2).c_str(), buf) == 1;
  return inet_pton(AF_INET, name.c_str(), buf) == 1;  // dotted quad only ("127.1" is a name)
}

// The header's value and how many times it was sent.
std::pair<std::string, int> header_of(const Request& req, std::string_view name) {
  std::pair<std::string, int> out{"", 0};
  for (const auto& [k, v] : req.headers)
    if (iequal(k, name)) {
      if (out.second++ == 0) out.first = v;
    }
  return out;
}

// "http://host:port" -> true, and the authority with the scheme's default port dropped.
bool origin_authority(std::string_view origin, std::string& scheme, std::string& name, std::string& port) {
  origin = trim(origin);
  const size_t sep = origin.find("://");
  if (sep == std::string_view::npos) return false;
  scheme = lower(origin.substr(0, sep));
  if (scheme != "http" && scheme != "https") return false;
  std::string_view rest = origin.substr(sep + 3);
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if (rest.find('/') != std::string_view::npos) return false;
  if (!split_authority(rest, name, port)) return false;
  if ((scheme == "http" && port == "80") || (scheme == "https" && port == "443")) port.clear();
  return true;
}

}  // namespace

bool host_allowed(std::string_view host, const std::vector<std::string>& allowed_hosts) {
  for (const auto& a : allowed_hosts)
    if (trim(a) == "*") return true;
  std::string name, port;
  if (!split_authority(host, name, port)) return false;
  if (name.size() > 1 && name.back() == '.' && name[0] != '[') name.pop_back();  // "localhost." is "localhost"
  if (ip_literal(name)) return true;
  for (const char* d : limits::kDefaultAllowedHosts)
    if (name == d) return true;
  for (const auto& a : allowed_hosts) {
    std::string an, ap;
    if (!split_authority(a, an, ap)) continue;
    if (an.size() > 1 && an.back() == '.') an.pop_back();
    if (an == name && (ap.empty() || ap == port)) return true;
  }
  return false;
}

std::optional<Response> guard_request(const Request& req, const std::vector<std::string>& allowed_hosts) {
  // 1. Host. A request without one (HTTP/1.0, raw clients) cannot come from a browser.
  const auto [host, hosts] = header_of(req, "Host");
  if (hosts > 1) return error_response(400, "more than one Host header");
  if (hosts == 1 && !host_allowed(host, allowed_hosts)) {
    std::string shown = std::string(trim(host)).substr(0, 100);
    return error_response(421, "this server does not answer to the host name '" + shown +
                                   "': start it with --allowed-host NAME (or --allowed-host '*') to allow it");
  }
  // 2. Origin: only the server's own pages may ask.
  const auto [origin, origins] = header_of(req, "Origin");
  if (origins > 1) return error_response(403, "more than one Origin header");
  if (origins == 1) {
    std::string scheme, oname, oport, hname, hport;
    const bool ok = origin_authority(origin, scheme, oname, oport) && hosts == 1 && split_authority(host, hname, hport);
    if (ok && ((scheme == "http" && hport == "80") || (scheme == "https" && hport == "443"))) hport.clear();
    if (!ok || oname != hname || oport != hport)
      return error_response(403, "cross-origin request refused: Origin '" + std::string(trim(origin)).substr(0, 100) +
                                     "' is not this server ('" + std::string(trim(host)).substr(0, 100) + "')");
  }
  // 3. Content-Type of a state-changing request.
  if (req.method != "GET" && req.method != "HEAD") {
    const auto [type, types] = header_of(req, "Content-Type");
    const std::string_view media = trim(std::string_view(type).substr(0, type.find(';')));
    if (types != 1 || !iequal(media, "application/json"))
      return error_response(415, "a " + req.method.substr(0, 10) + " request needs 'Content-Type: application/json'" +
                                     (types == 0 ? std::string(" (none was sent)")
                                                 : " (got '" + std::string(trim(type)).substr(0, 100) + "')"));
  }
  return std::nullopt;
}

const std::vector<std::pair<std::string, std::string>>& security_headers() {
  static const std::vector<std::pair<std::string, std::string>> h = {
      {"Content-Security-Policy", limits::kContentSecurityPolicy},
      {"X-Frame-Options", "DENY"},
      {"X-Content-Type-Options", "nosniff"},
      {"Referrer-Policy", "no-referrer"},
  };
  return h;
}

}  // namespace carc::server
