// A minimal blocking HTTP/1.1 client over a raw loopback socket, for the server tests: one
// request per connection, chunked and Content-Length bodies, event streams, and raw bytes for
// the transport's bad-input tests. Header-only.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace testhttp {

struct Reply {
  int status = -1;  // -1: no answer (connection failed or closed before a status line)
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
};

// A connected socket to ip:port (optionally from the local address `from`), or -1.
inline int connect_to(int port, const char* ip = "127.0.0.1", const char* from = nullptr) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (from) {
    sockaddr_in local{};
    local.sin_family = AF_INET;
    ::inet_pton(AF_INET, from, &local.sin_addr);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) {
      ::close(fd);
      return -1;
    }
  }
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(uint16_t(port));
  ::inet_pton(AF_INET, ip, &a.sin_addr);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

inline bool send_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    data.remove_prefix(size_t(n));
  }
  return true;
}

// Bytes until the peer closes, an error, or `timeout_ms` of silence; "" when none.
inline std::string recv_some(int fd, int timeout_ms) {
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, timeout_ms) <= 0) return "";
  char buf[65536];
  const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
  return n > 0 ? std::string(buf, size_t(n)) : std::string();
}

// True when the peer has closed the connection (or reset it) within timeout_ms; data it sends
// meanwhile is appended to *got.
inline bool closed_within(int fd, int timeout_ms, std::string* got = nullptr) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (std::chrono::steady_clock::now() < end) {
    const int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now()).count());
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, std::max(1, left)) <= 0) continue;
    char buf[65536];
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return true;
    if (got) got->append(buf, size_t(n));
  }
  return false;
}

// Reads one response from fd. on_body (when set) gets the decoded body bytes as they come and
// stops the reading by returning false; otherwise the body is collected in Reply::body.
inline Reply read_reply(int fd, int timeout_ms, const std::function<bool(std::string_view)>& on_body = nullptr) {
  Reply r;
  std::string buf;
  auto more = [&]() {
    std::string s = recv_some(fd, timeout_ms);
    buf += s;
    return !s.empty();
  };
  size_t end;
  while ((end = buf.find("\r\n\r\n")) == std::string::npos)
    if (!more()) return r;
  const std::string head = buf.substr(0, end);
  buf.erase(0, end + 4);
  if (head.size() < 12 || head.compare(0, 5, "HTTP/") != 0) return r;
  r.status = std::atoi(head.c_str() + 9);
  size_t pos = head.find("\r\n");
  while (pos != std::string::npos) {
    const size_t next = head.find("\r\n", pos + 2);
    const std::string line = head.substr(pos + 2, next == std::string::npos ? std::string::npos : next - pos - 2);
    const size_t colon = line.find(':');
    if (colon != std::string::npos) {
      std::string k = line.substr(0, colon), v = line.substr(colon + 1);
      for (char& c : k) c = char(std::tolower(static_cast<unsigned char>(c)));
      while (!v.empty() && v[0] == ' ') v.erase(0, 1);
      r.headers[k] = v;
    }
    pos = next;
  }
  auto deliver = [&](std::string_view d) {
    if (on_body) return on_body(d);
    r.body.append(d);
    return true;
  };
  if (r.headers.count("transfer-encoding")) {
    for (;;) {
      size_t eol;
      while ((eol = buf.find("\r\n")) == std::string::npos)
        if (!more()) return r;
      const size_t n = std::strtoul(buf.c_str(), nullptr, 16);
      buf.erase(0, eol + 2);
      if (n == 0) return r;
      while (buf.size() < n + 2)
        if (!more()) return r;
      if (!deliver(std::string_view(buf).substr(0, n))) return r;
      buf.erase(0, n + 2);
    }
  }
  if (r.headers.count("content-length")) {
    const size_t n = std::stoul(r.headers["content-length"]);
    while (buf.size() < n)
      if (!more()) break;
    deliver(std::string_view(buf).substr(0, std::min(n, buf.size())));
    return r;
  }
  if (!buf.empty() && !deliver(buf)) return r;
  for (;;) {
    std::string s = recv_some(fd, timeout_ms);
    if (s.empty() || !deliver(s)) return r;
  }
}

// One request on a fresh connection.
inline Reply request(int port, const std::string& method, const std::string& path, const std::string& body = "",
                     const std::string& extra_headers = "", int timeout_ms = 30000,
                     const std::function<bool(std::string_view)>& on_body = nullptr) {
  const int fd = connect_to(port);
  if (fd < 0) return {};
  std::string req = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + extra_headers;
  if (!body.empty() || method == "POST")
    req += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  req += "\r\n" + body;
  Reply r;
  if (send_all(fd, req)) r = read_reply(fd, timeout_ms, on_body);
  ::close(fd);
  return r;
}

// One request on a fresh connection from the local address `from` (any 127.x.y.z on Linux's
// loopback): the server sees another client address (per-client quotas and shares).
inline Reply request_as(const char* from, int port, const std::string& method, const std::string& path,
                        const std::string& body = "", int timeout_ms = 30000) {
  const int fd = connect_to(port, "127.0.0.1", from);
  if (fd < 0) return {};
  std::string req = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
  if (!body.empty() || method == "POST")
    req += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  req += "\r\n" + body;
  Reply r;
  if (send_all(fd, req)) r = read_reply(fd, timeout_ms);
  ::close(fd);
  return r;
}

inline Reply get(int port, const std::string& path) { return request(port, "GET", path); }
inline Reply post(int port, const std::string& path, const std::string& body) { return request(port, "POST", path, body); }

}  // namespace testhttp
