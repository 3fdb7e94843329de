// `carcassonne serve`: the game server with the browser client (src/server, web/).
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "commands.h"
#include "server.h"
#include "store.h"

namespace carc::cli {

namespace {

// The built web client: next to the binary's source tree (build/../web/dist), else ./web/dist.
std::string default_web_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (fs::path dir = exe.parent_path(); !dir.empty() && dir != dir.root_path(); dir = dir.parent_path()) {
      if (fs::is_directory(dir / "web" / "dist")) return (dir / "web" / "dist").string();
    }
  }
  return "web/dist";
}

}  // namespace

void register_serve(CLI::App& app) {
  auto* cmd = app.add_subcommand("serve", "Run the game server and the browser client (open the printed URL)");
  auto opts = std::make_shared<server::ServerOptions>();
  opts->port = 8080;
  opts->ai_delay_ms = 500;
  cmd->add_option("--port", opts->port, "TCP port (0: any free port)")->capture_default_str();
  cmd->add_option("--host", opts->host, "address to listen on (0.0.0.0 for every interface)")->capture_default_str();
  cmd->add_option("--db", opts->db_path, "where every game is kept: a SQLite file, or a PostgreSQL database as a libpq URI (postgresql://USER@HOST:PORT/DBNAME)")->capture_default_str();
  cmd->add_option("--web", opts->web_dir, "directory of the built web client (default: web/dist of the source tree)");
  cmd->add_option("--ai-threads", opts->ai_threads, "worker threads for AI seats")->capture_default_str();
  cmd->add_option_function<std::string>(
         "--durability", [opts](const std::string& v) { opts->durability_fast = v == "fast"; },
         "full: a move is answered once it is on disk (fsync); fast: it survives a crash of the server but not a power "
         "loss or OS crash (docs/security.md) [full]")
      ->check(CLI::IsMember({"full", "fast"}));
  cmd->add_option("--ai-max-time", opts->ai_max_seconds, "largest mcts time=... per move a game may ask for, in seconds")
      ->check(CLI::Range(0.01, 600.0))
      ->capture_default_str();
  cmd->add_option("--ai-max-iterations", opts->ai_max_iterations, "largest mcts iterations=... a game may ask for")
      ->check(CLI::Range(1LL, 100000000LL))
      ->capture_default_str();
  cmd->add_option("--ai-max-threads", opts->ai_max_threads, "largest mcts threads=... a game may ask for")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--ai-max-nodes", opts->ai_max_nodes, "largest mcts nodes=... (tree size) a game may ask for")
      ->check(CLI::Range(1000LL, 100000000LL))
      ->capture_default_str();
  cmd->add_option("--hint-interval", opts->hint_interval_ms, "a player may ask for a hint at most once per this many ms")
      ->check(CLI::Range(0, 3'600'000))
      ->capture_default_str();
  cmd->add_option("--hint-iterations", opts->hint_iterations, "MCTS iterations of one hint (at most --ai-max-iterations)")
      ->check(CLI::Range(1LL, 100000000LL))
      ->capture_default_str();
  cmd->add_option("--ai-delay", opts->ai_delay_ms, "minimum AI thinking time in ms, so moves can be followed")
      ->capture_default_str();
  cmd->add_option_function<std::vector<std::string>>(
         "--allowed-host",
         [opts](const std::vector<std::string>& v) {
           for (const auto& item : v) {
             std::string cur;
             for (char c : item + ",") {
               if (c == ',') {
                 if (!cur.empty()) opts->allowed_hosts.push_back(cur);
                 cur.clear();
               } else if (c != ' ') {
                 cur += c;
               }
             }
           }
         },
         "a host name (Host header) this server answers to, e.g. carcassonne.example.org or "
         "carcassonne.example.org:8080; repeatable or comma-separated; '*' for any. Loopback names (localhost, "
         "127.0.0.1, [::1]) and IP addresses are always allowed; any other name is refused (421), which stops "
         "DNS-rebinding pages (docs/security.md)")
      ->type_name("NAME")
      ->allow_extra_args(false);
  cmd->add_flag("--log", opts->log_requests, "log every request on stderr");
  // Transport limits (docs/security.md, "Transport limits"; the others are fixed in server_limits.h).
  cmd->add_option("--io-threads", opts->io_threads, "threads running every connection")->capture_default_str()->check(CLI::Range(1, 64));
  cmd->add_option("--handler-threads", opts->handler_threads, "threads running API requests")->capture_default_str()->check(CLI::Range(1, 256));
  cmd->add_option("--max-body", opts->max_body, "largest request body in bytes, chunked too (413 beyond)")
      ->capture_default_str()
      ->check(CLI::Range(size_t(1024), size_t(64) << 20));
  cmd->add_option("--max-connections", opts->max_connections, "open connections in total (503 beyond)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--max-connections-per-ip", opts->max_connections_per_address,
                  "open connections from one client address (503 beyond)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--max-streams", opts->max_streams, "open event streams (503 beyond)")->capture_default_str()->check(CLI::Range(0, 1'000'000));
  auto ms_option = [cmd](const char* name, std::chrono::milliseconds* v, const char* what) {
    cmd->add_option_function<int>(
           name, [v](int ms) { *v = std::chrono::milliseconds(ms); },
           std::string(what) + " in ms [" + std::to_string(v->count()) + "]")
        ->check(CLI::Range(1, 3'600'000));
  };
  cmd->add_option_function<int>(
         "--game-lifetime-days", [opts](int d) { opts->game_lifetime = std::chrono::hours(24 * d); },
         "delete an unfinished game after this many days without a move (0: never) [" +
             std::to_string(opts->game_lifetime.count() / 24) + "]")
      ->check(CLI::Range(0, 36500));
  cmd->add_option("--games-per-client", opts->quotas.create_burst,
                  "games one client address may create at once; then one more every " +
                      std::to_string(opts->quotas.create_refill.count() / 1000) + " s (429 beyond)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--trusted-proxy", opts->trusted_proxies,
                  "address of a reverse proxy whose X-Forwarded-For names the client (repeatable); without it "
                  "every client behind the proxy shares one quota");
  cmd->add_option("--ai-games-per-client", opts->quotas.ai_games_per_address,
                  "unfinished games with a computer player one client address may have (429 beyond)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1'000'000));
  ms_option("--header-timeout", &opts->header_timeout, "time for a request line and headers");
  ms_option("--body-timeout", &opts->body_timeout, "time for a request body");
  ms_option("--idle-timeout", &opts->idle_timeout, "time a kept-alive connection may stay silent");
  cmd->callback([opts] {
    if (opts->web_dir.empty()) opts->web_dir = default_web_dir();
    // Block SIGINT/SIGTERM in every thread; the main thread waits for them and stops cleanly.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    server::Server srv(*opts);
    const int port = srv.start();
    const std::string host = opts->host == "0.0.0.0" ? "127.0.0.1" : opts->host;
    std::cout << "Carcassonne server running. Open http://" << host << ":" << port << "/ in your browser.\n"
              << "  games are saved in " << server::store_display_name(opts->db_path) << "; press Ctrl-C to stop.\n"
              << std::flush;
    int sig = 0;
    sigwait(&set, &sig);
    std::cout << "stopping\n" << std::flush;
    srv.stop();
  });
}

}  // namespace carc::cli
