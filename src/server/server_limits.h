// Every limit of the HTTP transport, in one place (not "limits.h": that is the C header) (documented in docs/security.md,
// "Transport limits"). The ones an operator may tune are also fields of ServerOptions
// (server.h) and options of `carcassonne serve`; these are their defaults.
#pragma once

#include <chrono>
#include <cstddef>

namespace carc::server::limits {

using std::chrono::milliseconds;

// --- time --------------------------------------------------------------------------------
// A new connection must send its whole request line and headers within this time of being
// accepted; a kept-alive connection, within this time of its first byte.
inline constexpr milliseconds kHeaderTimeout{10'000};
// The body, once the headers are in, must arrive within this time.
inline constexpr milliseconds kBodyTimeout{20'000};
// A kept-alive connection may stay silent between requests for this long.
inline constexpr milliseconds kIdleTimeout{30'000};
// A response (or one event of a stream) must be taken by the client within this time.
inline constexpr milliseconds kWriteTimeout{30'000};
// An event stream without news gets a comment line this often (keeps proxies from closing it).
inline constexpr milliseconds kStreamKeepAlive{15'000};
// After refusing a request whose body is still coming (413), read and discard at most this
// much for at most this long so the client can see the answer, then close.
inline constexpr milliseconds kLingerTime{500};
inline constexpr std::size_t kLingerBytes = 256 * 1024;

// --- size --------------------------------------------------------------------------------
inline constexpr std::size_t kMaxHeaderBytes = 16 * 1024;  // request line + headers (431, or 414 for the line)
inline constexpr std::size_t kMaxHeaderCount = 100;        // header fields (431)
inline constexpr std::size_t kMaxUrlBytes = 8 * 1024;      // request target (414)
inline constexpr std::size_t kMaxBodyBytes = 256 * 1024;   // body, also chunked (413)

// --- count -------------------------------------------------------------------------------
inline constexpr int kMaxConnections = 4096;            // open connections in total (503 beyond)
inline constexpr int kMaxConnectionsPerAddress = 128;   // open connections from one client address (503 beyond)
inline constexpr int kMaxEventStreams = 3072;           // open event streams in total (503 beyond)
inline constexpr int kListenBacklog = 1024;             // pending connections the kernel queues (capped by somaxconn)
inline constexpr int kIoThreads = 2;                    // threads running the sockets (all connections)
inline constexpr int kHandlerThreads = 4;               // threads running the API handlers (SQLite, JSON)

// --- cross-site requests and security headers (guard.cc; docs/security.md, "Cross-site requests
// and security headers") -----------------------------------------------------------------------
// Host names always allowed, whatever the port (IP literals are allowed too; others only with
// `serve --allowed-host`, ServerOptions::allowed_hosts: 421 otherwise).
inline constexpr const char* kDefaultAllowedHosts[] = {"localhost", "127.0.0.1", "[::1]"};
// The Content-Security-Policy of every response: no inline script or style, nothing from other
// origins, no framing (the web client needs nothing more; its icon is a data: image).
inline constexpr const char* kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

// --- hints (POST /api/games/{id}/hint, docs/security.md "Hints") --------------------------
// One hint is one MCTS search of at most this many iterations (about 0.1 s on one core) and at
// most this long (also capped by the server's AI limits, ServerOptions::ai_max_*).
inline constexpr long long kHintIterations = 20'000;
inline constexpr milliseconds kHintTime{2'000};
// The moves a hint lists.
inline constexpr int kHintMoves = 3;
// A seat may ask for a hint at most once per this time (429 with Retry-After otherwise), and a
// game has at most one hint being computed at a time (429).
inline constexpr milliseconds kHintInterval{2'000};
// Hints being computed on the whole server at once (503 beyond): each holds a handler thread
// while it waits, so this stays below kHandlerThreads.
inline constexpr int kMaxHintsRunning = 2;
// A hint waits at most this long for the AI pool (which may be busy with AI moves) and its
// search together; then its search is cancelled and the answer is 503.
inline constexpr milliseconds kHintWait{15'000};

// --- chat (POST /api/games/{id}/chat, docs/security.md "Chat") ----------------------------
// A chat message, after cleaning (clean_player_name's rules: valid UTF-8, no control,
// bidirectional or invisible characters, whitespace collapsed), has at most this many bytes (400
// beyond; an empty one is 400 too).
inline constexpr std::size_t kMaxChatMessageBytes = 500;
// A seat may post at most one message per this time (429 with Retry-After otherwise).
inline constexpr milliseconds kChatInterval{1'000};
// A game keeps its last this many messages (older ones are dropped when a new one comes).
inline constexpr std::size_t kMaxChatMessages = 200;

// --- fair AI scheduling (docs/security.md, "Fair AI scheduling") -------------------------
// One client address's AI tasks (its games' AI moves, its hints) run on at most
// 1/kAiShareDivisor of the AI workers at once (at least one), and so do the tasks of all
// games of computers only together; with two or more workers, the rest stays free for others.
inline constexpr int kAiShareDivisor = 2;
// A game of computers only (no human or remote seat) runs at the lowest priority, and each of
// its AI moves searches at most this long on one thread, whatever its specs say.
inline constexpr milliseconds kAiOnlyMoveTime{1'000};
// Unfinished games with an AI seat that one client address may have (429 beyond), and of
// those, games of computers only.
inline constexpr int kMaxAiGamesPerAddress = 8;
inline constexpr int kMaxAiOnlyGamesPerAddress = 2;
// The star player (a fixed-depth expectimax, no time budget) searches at most this many of its
// own moves two turns deep on this server (its `width`; 400 beyond).
inline constexpr int kMaxStarWidth = 16;
// Several processes on one database (docs/deployment.md): the claim on an AI move lasts the
// longest search the server allows (`--ai-max-time`) plus this margin (for its save; a save
// slower than that costs a second search at most, never a second move: the version check); a
// process that dies holding one, or after saving the move before it, delays that AI move by at
// most the lease.
inline constexpr milliseconds kAiClaimMargin{3'000};
// Hints being computed for one client address at once (429 beyond).
inline constexpr int kMaxHintsPerAddress = 1;

// --- quotas (docs/security.md, "Quotas and lifetimes") ------------------------------------
// Games created by one client address: a bucket of kCreateBurst games, refilled by one every
// kCreateRefill (429 with Retry-After when empty). Uploads (POST /api/games/upload) have their
// own bucket.
inline constexpr int kCreateBurst = 20;
inline constexpr milliseconds kCreateRefill{30'000};
inline constexpr int kUploadBurst = 10;
inline constexpr milliseconds kUploadRefill{60'000};
// Client addresses whose buckets are remembered; beyond it, full buckets are forgotten first.
inline constexpr std::size_t kMaxTrackedAddresses = 100'000;
// IPv6 clients are counted by their /64 network (one subscriber's usual allocation).
inline constexpr int kIpv6PrefixBits = 64;
// An unfinished game (or an uploaded one for viewing) without a change for this long is
// deleted (`serve --game-lifetime-days`); the server looks for them at start and this often.
inline constexpr std::chrono::hours kUnfinishedGameLifetime{24 * 14};
inline constexpr std::chrono::minutes kExpirySweepInterval{60};
// The server applies the operator's pauses and deletions (`carcassonne games`) to the games in
// memory this often; a change to a paused or deleted game is refused at once (423, 410).
inline constexpr milliseconds kOperatorSyncInterval{5'000};

}  // namespace carc::server::limits

namespace carc::server {

// The per-client quotas as one value (ServerOptions::quotas, `serve` options): the defaults are
// the named limits above. An operator may raise them for a club server behind one address.
struct Quotas {
  int create_burst = limits::kCreateBurst;
  std::chrono::milliseconds create_refill = limits::kCreateRefill;
  int upload_burst = limits::kUploadBurst;
  std::chrono::milliseconds upload_refill = limits::kUploadRefill;
  int ai_games_per_address = limits::kMaxAiGamesPerAddress;
  int ai_only_games_per_address = limits::kMaxAiOnlyGamesPerAddress;
  int hints_per_address = limits::kMaxHintsPerAddress;
};

}  // namespace carc::server
