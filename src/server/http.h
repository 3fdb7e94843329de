// The HTTP transport: listens, reads requests into the neutral Request, answers with the
// Response of the handler (routes.cc), serves the web client's static files and holds the
// event streams. Nothing above this file sees a socket.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "api.h"

namespace carc::server {

struct HttpOptions {
  std::string host = "127.0.0.1";
  int port = 8080;           // 0: any free port
  std::string web_dir;       // static files served at "/", empty: none
  int threads = 128;         // worker threads (each open event stream holds one)
  size_t max_body = 256 * 1024;
  bool log_requests = false;
};

class HttpServer {
 public:
  using Handler = std::function<Response(const Request&)>;
  HttpServer(HttpOptions opts, Handler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds the port; returns it. Throws std::runtime_error when it is taken.
  int bind();
  // Serves on background threads until stop().
  void start();
  // Closes every connection and event stream, and joins the threads. Idempotent.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace carc::server
