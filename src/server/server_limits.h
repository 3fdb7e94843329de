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

}  // namespace carc::server::limits
