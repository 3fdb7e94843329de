// The game server: an HTTP JSON API with live updates (server-sent events) over the engine,
// AI seats played on worker threads, and every game kept in SQLite as its game record.
// See docs/server.md for the API.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "server_limits.h"

namespace carc::server {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                 // 0: any free port (see Server::port())
  std::string db_path = "carcassonne.sqlite";
  std::string web_dir;             // static files served at "/", empty: none
  // Durability of a move (docs/security.md): true = "fast" (synchronous=NORMAL: survives a
  // server crash, not a power loss), false = "full" (synchronous=FULL: answered once on disk).
  bool durability_fast = false;
  int db_busy_timeout_ms = 5000;   // a write waits this long for a lock, then answers 503
  // What a client may ask of an AI seat (400 beyond; see AiLimits in ai_pool.h).
  double ai_max_seconds = 10;
  long long ai_max_iterations = 100000;
  int ai_max_threads = 2;
  long long ai_max_nodes = 4'000'000;
  int ai_threads = 2;              // worker threads for AI seats (shared by all games)
  int ai_delay_ms = 0;             // minimum time an AI seat "thinks" before moving (for humans to see)
  // A seat may ask for a hint at most once per this time (`serve --hint-interval`).
  int hint_interval_ms = int(limits::kHintInterval.count());
  // MCTS iterations of one hint (`serve --hint-iterations`; also capped by ai_max_iterations).
  long long hint_iterations = limits::kHintIterations;
  bool log_requests = false;       // one line per request on stderr
  // An unfinished game without a change for this long is deleted (0: never;
  // `serve --game-lifetime-days`; docs/security.md "Quotas and lifetimes").
  std::chrono::hours game_lifetime = limits::kUnfinishedGameLifetime;
  // Per-client quotas: games created and uploaded, AI games, hints (docs/security.md).
  Quotas quotas;
  // Reverse proxies (their addresses, as the server sees them) whose X-Forwarded-For names the
  // client, for the per-client quotas and shares (`serve --trusted-proxy`; docs/security.md).
  std::vector<std::string> trusted_proxies;
  // The transport's limits an operator may tune (defaults and the others: limits.h,
  // docs/security.md "Transport limits").
  int io_threads = limits::kIoThreads;            // threads running every connection
  int handler_threads = limits::kHandlerThreads;  // threads running the API handlers
  size_t max_body = limits::kMaxBodyBytes;        // largest accepted request body, in bytes (also chunked)
  int max_connections = limits::kMaxConnections;                        // in total
  int max_connections_per_address = limits::kMaxConnectionsPerAddress;  // from one client address
  int max_streams = limits::kMaxEventStreams;                           // open event streams
  std::chrono::milliseconds header_timeout = limits::kHeaderTimeout;    // whole request line + headers
  std::chrono::milliseconds body_timeout = limits::kBodyTimeout;
  std::chrono::milliseconds idle_timeout = limits::kIdleTimeout;        // kept-alive, between requests
  // Host names (Host header) the server answers to besides loopback names and IP literals
  // (`serve --allowed-host`; "example.org" for any port, "example.org:8080"; "*": any). A request
  // naming another host is refused (421): this stops DNS-rebinding pages (docs/security.md).
  std::vector<std::string> allowed_hosts;
};

class Server {
 public:
  explicit Server(ServerOptions opts);
  ~Server();  // stops the server
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Opens the database, binds and starts serving on a background thread. Returns the bound
  // port. Throws std::runtime_error when the database cannot be opened or the port is taken.
  int start();
  // Stops serving, finishes the AI workers, closes the database. Idempotent.
  void stop();
  // Blocks until stop() is called (from another thread or a signal handler).
  void wait();
  int port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace carc::server
