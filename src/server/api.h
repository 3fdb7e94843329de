// The server's transport-neutral request and response, and the errors routes answer with.
// The transport (http.cc) turns bytes on a socket into a Request and a Response back into
// bytes; everything between (routes.cc) never sees a socket, so it can be driven by tests and
// fuzzers without one.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace carc::server {

using json = nlohmann::json;

// A refusal: the status and a message for the client ({"error": message, "status": status}).
struct ApiError {
  int status;
  std::string message;
  long long retry_after = 0;  // > 0: sent as "Retry-After" (seconds), with a 429 or 503
};
[[noreturn]] inline void fail(int status, const std::string& msg) { throw ApiError{status, msg}; }
[[noreturn]] inline void fail_retry(int status, const std::string& msg, long long retry_after_s) {
  throw ApiError{status, msg, retry_after_s};
}

struct Request {
  std::string method;                          // "GET", "POST", ...
  std::string path;                            // percent-decoded, without the query
  std::multimap<std::string, std::string> query;  // percent-decoded names and values
  std::vector<std::pair<std::string, std::string>> headers;  // as received
  std::string body;
  std::string client;                          // the peer's address ("127.0.0.1")

  bool has_param(const std::string& k) const { return query.count(k) > 0; }
  std::string param(const std::string& k) const {
    auto it = query.find(k);
    return it == query.end() ? std::string() : it->second;
  }
  bool has_header(const std::string& k) const;
  std::string header(const std::string& k) const;  // case-insensitive; "" when absent
};

// A message of an event stream (the text of one server-sent event), shared by every stream
// of a game.
using StreamMessage = std::shared_ptr<const std::string>;
using Deliver = std::function<void(const StreamMessage&)>;

// An event stream: once its headers are sent, the transport calls subscribe(deliver); deliver
// is called with the current state at once and then with every new state of the game, from
// any thread, and must not block. subscribe returns the function that ends the subscription
// (called once, when the stream closes).
struct EventSource {
  std::function<std::function<void()>(Deliver)> subscribe;
};

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::shared_ptr<EventSource> stream;  // set: the body is an event stream (text/event-stream)

  void set_header(const std::string& k, const std::string& v) { headers.emplace_back(k, v); }
  void send(const json& j, int code = 200) {
    status = code;
    content_type = "application/json";
    body = j.dump(-1, ' ', false, json::error_handler_t::replace);  // never throws on bad UTF-8
  }
};

// The JSON error body of a refusal.
inline Response error_response(int status, const std::string& message) {
  Response r;
  r.send(json{{"error", message}, {"status", status}}, status);
  return r;
}

}  // namespace carc::server
