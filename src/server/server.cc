// The game server: wires the parts together (see ARCHITECTURE.md, "The game server"):
//   http.cc      transport: connections, requests, static files, event streams
//   routes.cc    the API: a neutral Request -> a Response
//   session.cc   games in memory; every change goes through Games::commit(), which saves the
//                record to the store, publishes the new version to the event streams and
//                schedules the AI when it is its turn
//   views.cc     JSON views;  decode.cc  request bodies -> moves;  ai_pool.cc  AI workers
//   store.h      the store: sqlite_store.cc (a SQLite file) or pg_store.cc (PostgreSQL)
#include "server.h"

#include <signal.h>

#include <cstdio>
#include <thread>

#include <atomic>
#include <condition_variable>
#include <mutex>

#include "ai_pool.h"
#include "store.h"
#include "http.h"
#include "routes.h"
#include "session.h"

namespace carc::server {

struct Server::Impl {
  ServerOptions opts;
  std::unique_ptr<Store> db;  // chosen by --db (make_store)
  AiPool ai;
  Games games;
  Api api;
  HttpServer http;
  int bound_port = 0;
  std::atomic<bool> running{false};
  std::mutex stop_m;
  std::condition_variable stop_cv;
  // Maintenance (docs/security.md, "Quotas and lifetimes"): expires idle unfinished games and
  // applies the operator's pauses and deletions to the games in memory.
  std::thread upkeep;

  static HttpOptions http_options(const ServerOptions& o) {
    HttpOptions h;
    h.host = o.host;
    h.port = o.port;
    h.log_requests = o.log_requests;
    h.io_threads = o.io_threads;
    h.handler_threads = o.handler_threads;
    h.max_body = o.max_body;
    h.max_connections = o.max_connections;
    h.max_connections_per_address = o.max_connections_per_address;
    h.max_streams = o.max_streams;
    h.header_timeout = o.header_timeout;
    h.body_timeout = o.body_timeout;
    h.idle_timeout = o.idle_timeout;
    h.allowed_hosts = o.allowed_hosts;
    h.allowed_hosts.push_back(o.host);  // the name it listens on (--host), if a name
    return h;
  }

  explicit Impl(ServerOptions o)
      : opts(std::move(o)),
        db(make_store(opts.db_path)),
        games(*db, ai, opts.ai_delay_ms, AiLimits{opts.ai_max_seconds, opts.ai_max_iterations, opts.ai_max_threads, opts.ai_max_nodes, opts.hint_interval_ms,
                                    opts.hint_iterations}, opts.quotas),
        api(games, *db, opts.web_dir, opts.quotas, opts.trusted_proxies),
        http(http_options(opts), [this](const Request& r) { return api.handle(r); }) {}

  int start() {
    // A write beyond the file-size limit (ulimit -f) would kill the process with SIGXFSZ;
    // ignored, the write fails with EFBIG instead, SQLite reports it, and the request gets its
    // 503 with nothing changed (docs/security.md, "Writes").
    struct sigaction ign {};
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGXFSZ, &ign, nullptr);
    db->open(opts.db_path, opts.durability_fast ? Durability::Fast : Durability::Full, opts.db_busy_timeout_ms);
    games.migrate_tokens();  // games stored with plain seat tokens keep only their SHA-256
    games.migrate_hints();   // games stored before hints get the default for their seats
    // Several processes on one database (PostgreSQL): another process's saves reach the games
    // in memory here, and so their event streams (docs/deployment.md).
    if (db->shared()) db->listen([this](const std::string& id, uint64_t version) { games.on_store_change(id, version); });
    bound_port = http.bind();
    running = true;
    ai.start(opts.ai_threads);
    games.load_ai_games();  // each client's unfinished AI games, for its caps
    expire();
    http.start();
    games.resume();  // games whose AI was to move when the server stopped
    upkeep = std::thread([this] { upkeep_loop(); });
    return bound_port;
  }

  void expire() {
    if (opts.game_lifetime.count() <= 0) return;
    const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch()).count();
    try {
      const int n = games.expire(now - std::chrono::duration_cast<std::chrono::milliseconds>(opts.game_lifetime).count());
      if (n > 0) std::fprintf(stderr, "carcassonne serve: %d idle unfinished game(s) expired\n", n);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "carcassonne serve: expiring idle games failed (tried again later): %s\n", e.what());
    }
  }

  void upkeep_loop() {
    auto next_expiry = std::chrono::steady_clock::now() + limits::kExpirySweepInterval;
    std::unique_lock lk(stop_m);
    while (running) {
      stop_cv.wait_for(lk, limits::kOperatorSyncInterval, [&] { return !running.load(); });
      if (!running) break;
      lk.unlock();
      try {
        games.sync_operator_changes();
      } catch (const std::exception& e) {
        std::fprintf(stderr, "carcassonne serve: reading the operator's changes failed: %s\n", e.what());
      }
      if (std::chrono::steady_clock::now() >= next_expiry) {
        expire();
        next_expiry = std::chrono::steady_clock::now() + limits::kExpirySweepInterval;
      }
      lk.lock();
    }
  }

  void stop() {
    if (!running.exchange(false)) return;
    {
      std::lock_guard lk(stop_m);
      stop_cv.notify_all();
    }
    if (upkeep.joinable()) upkeep.join();
    games.stop();
    http.stop();
    ai.stop();
    games.clear();
    db->close();
    std::lock_guard lk(stop_m);
    stop_cv.notify_all();
  }
};

Server::Server(ServerOptions opts) : impl_(std::make_unique<Impl>(std::move(opts))) {}
Server::~Server() { stop(); }
int Server::start() { return impl_->start(); }
void Server::stop() { impl_->stop(); }
int Server::port() const { return impl_->bound_port; }
void Server::wait() {
  std::unique_lock lk(impl_->stop_m);
  impl_->stop_cv.wait(lk, [&] { return !impl_->running.load(); });
}


}  // namespace carc::server
