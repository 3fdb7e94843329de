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
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "api.h"
#include "player.h"
#include "server_limits.h"

namespace carc::server {

// What a client may ask of the AI for one seat (ServerOptions, `carcassonne serve --help`,
// docs/server.md): beyond a limit a create request is refused (400). A search given only an
// iteration budget still stops at max_seconds.
struct AiLimits {
  double max_seconds = 10;            // mcts time=... per decision
  long long max_iterations = 100000;  // mcts iterations=... per decision (level=hard is 30000)
  int max_threads = 2;                // mcts threads=...
  long long max_nodes = 4'000'000;    // mcts nodes=... per tree (the default)
  int hint_interval_ms = int(limits::kHintInterval.count());  // a seat's hints at most this often
  long long hint_iterations = limits::kHintIterations;        // MCTS iterations of one hint
};

// The player for an AI spec ("greedy", "mcts:level=hard"); throws std::invalid_argument for a
// bad spec or one beyond `limits` (the message names the limit). `cancel`, when set, stops a
// search early (the best move so far is played).
std::unique_ptr<ai::Player> make_ai(const std::string& spec, uint64_t seed, const AiLimits& limits = {},
                                    const std::atomic<bool>* cancel = nullptr);
// The player that computes hints (POST /api/games/{id}/hint): MCTS of at most
// limits::kHintIterations iterations and limits::kHintTime, within `limits`, stopped by `cancel`.
// Its analyse() lists the candidate moves best first.
std::unique_ptr<ai::Player> make_hint_ai(uint64_t seed, const AiLimits& limits, const std::atomic<bool>* cancel);
// The AI players a client may choose, for GET /api/players.
json ai_registry();
// The lobby's levels (ai::levels(): name, label, spec, elo, elo_low, elo_high, games; games = 0
// means not calibrated yet), for GET /api/players.
json ai_levels();

// Worker threads running tasks at or after their ready time, earliest first. Each game has at
// most one task queued or running, and a finished move queues the game's next one behind
// every game already waiting: the games' AIs take turns (round robin), and each move is
// bounded by AiLimits, so no game can hold the workers from another for longer than one
// move of at most max_seconds.
//
// Stopping a search: one way only, the cancel flag of its task (MctsConfig::cancel, checked
// every 16 iterations; the search returns its best move so far, which the task then drops).
// The pool sets the flag of every queued and running task on cancel_all() and stop(); a
// task's owner may set it too (a hint whose client gave up). A search runs on the worker
// itself, never on a thread of its own, so stop() returns once every search has seen its flag.
class AiPool {
 public:
  using Clock = std::chrono::steady_clock;
  using Cancel = std::shared_ptr<std::atomic<bool>>;
  AiPool() = default;
  ~AiPool() { stop(); }
  void start(int threads);
  // Runs `task` on a worker at or after `when`. `cancel` (may be null) is set by cancel_all()
  // and stop(), also when the task is dropped from the queue before it ran.
  void post(Clock::time_point when, std::function<void()> task, Cancel cancel = nullptr);
  // Sets the cancel flag of every queued and running task (the workers keep running).
  void cancel_all();
  // Cancels every task, drops the queued ones and joins the workers.
  void stop();

 private:
  struct Task {
    std::function<void()> run;
    Cancel cancel;
  };
  void work();
  std::mutex m_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::multimap<Clock::time_point, Task> queue_;
  std::multiset<std::atomic<bool>*> running_;  // cancel flags of the tasks running now
  std::vector<std::thread> workers_;
};

}  // namespace carc::server
