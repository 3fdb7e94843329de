// The HTTP transport (Boost.Beast on Boost.Asio): a few I/O threads hold every connection
// asynchronously; requests are read under the limits of limits.h into the neutral Request,
// answered by the handler (routes.cc) on a small pool of handler threads, and event streams
// are cheap objects fed by their game (one rendering per change, shared by every stream).
// Nothing above this file sees a socket.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api.h"
#include "server_limits.h"

namespace carc::server {

struct HttpOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port
  bool log_requests = false;
  int io_threads = limits::kIoThreads;
  int handler_threads = limits::kHandlerThreads;
  std::chrono::milliseconds header_timeout = limits::kHeaderTimeout;
  std::chrono::milliseconds body_timeout = limits::kBodyTimeout;
  std::chrono::milliseconds idle_timeout = limits::kIdleTimeout;
  std::chrono::milliseconds write_timeout = limits::kWriteTimeout;
  std::chrono::milliseconds stream_keep_alive = limits::kStreamKeepAlive;
  size_t max_header_bytes = limits::kMaxHeaderBytes;
  size_t max_header_count = limits::kMaxHeaderCount;
  size_t max_url_bytes = limits::kMaxUrlBytes;
  size_t max_body = limits::kMaxBodyBytes;
  int max_connections = limits::kMaxConnections;
  int max_connections_per_address = limits::kMaxConnectionsPerAddress;
  int max_streams = limits::kMaxEventStreams;
  int backlog = limits::kListenBacklog;
  // Host names a request may name besides loopback and IP literals; "*": any (guard.h).
  std::vector<std::string> allowed_hosts;
};

using Handler = std::function<Response(const Request&)>;

class HttpServer {
 public:
  HttpServer(HttpOptions opts, Handler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and listens; returns the port. Throws std::runtime_error when it cannot.
  int bind();
  // Serves on the I/O threads until stop().
  void start();
  // Stops accepting, closes every connection and event stream, joins the threads (in well
  // under a second: nothing waits for a client). Idempotent.
  void stop();

  // Counters, for tests and logs.
  int open_connections() const;
  int open_streams() const;

  struct Impl;  // http.cc

 private:
  std::shared_ptr<Impl> impl_;
};

// The request handling of the transport without a socket: `raw` is the bytes a client sent
// (one request: request line, headers, body, chunked or not). Parses them under the same
// limits and checks as a connection does, and returns the response: the handler's, or the
// transport's refusal (400, 413, 414, 431). An event stream is not subscribed to. For tests
// and the fuzzer (fuzz/http_fuzz.cc).
Response handle_bytes(std::string_view raw, const Handler& handler, const HttpOptions& opts = {});

}  // namespace carc::server
