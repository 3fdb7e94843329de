// The AI players (the AI layer's, src/ai: ai::make_player, MCTS within AiLimits) and the pool of worker
// threads that runs their searches, shared by every game; never the transport's threads.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "api.h"
#include "player.h"

namespace carc::server {

// What a client may ask of the AI for one seat (ServerOptions, `carcassonne serve --help`,
// docs/server.md): beyond a limit a create request is refused (400). A search given only an
// iteration budget still stops at max_seconds.
struct AiLimits {
  double max_seconds = 10;            // mcts time=... per decision
  long long max_iterations = 100000;  // mcts iterations=... per decision (level=hard is 30000)
  int max_threads = 2;                // mcts threads=...
  long long max_nodes = 4'000'000;    // mcts nodes=... per tree (the default)
};

// The player for an AI spec ("greedy", "mcts:level=hard"); throws std::invalid_argument for a
// bad spec or one beyond `limits` (the message names the limit). `cancel`, when set, stops a
// search early (the best move so far is played).
std::unique_ptr<ai::Player> make_ai(const std::string& spec, uint64_t seed, const AiLimits& limits = {},
                                    const std::atomic<bool>* cancel = nullptr);
// The AI players a client may choose, for GET /api/players.
json ai_registry();

// Worker threads running tasks at or after their ready time, earliest first. Each game has at
// most one task queued or running, and a finished move queues the game's next one behind
// every game already waiting: the games' AIs take turns (round robin), and each move is
// bounded by AiLimits, so no game can hold the workers from another for longer than one
// move of at most max_seconds.
class AiPool {
 public:
  using Clock = std::chrono::steady_clock;
  AiPool() = default;
  ~AiPool() { stop(); }
  void start(int threads);
  void post(Clock::time_point when, std::function<void()> task);
  // Drops the queued tasks and joins the workers (each finishes the task it runs).
  void stop();

 private:
  void work();
  std::mutex m_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::multimap<Clock::time_point, std::function<void()>> queue_;
  std::vector<std::thread> workers_;
};

}  // namespace carc::server
