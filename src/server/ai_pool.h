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
// search early (the best move so far is played). `time_cap` > 0 (a game of computers only,
// limits::kAiOnlyMoveTime): a search stops after that many seconds, on one thread, whatever
// the spec says (not refused: the spec was accepted when the game was created).
std::unique_ptr<ai::Player> make_ai(const std::string& spec, uint64_t seed, const AiLimits& limits = {},
                                    const std::atomic<bool>* cancel = nullptr, double time_cap = 0);
// The player that computes hints (POST /api/games/{id}/hint): MCTS of at most
// limits::kHintIterations iterations and limits::kHintTime, within `limits`, stopped by `cancel`.
// Its analyse() lists the candidate moves best first.
std::unique_ptr<ai::Player> make_hint_ai(uint64_t seed, const AiLimits& limits, const std::atomic<bool>* cancel);
// The AI players a client may choose, for GET /api/players.
json ai_registry();
// The lobby's levels (ai::levels(): name, label, spec, elo, elo_low, elo_high, games; games = 0
// means not calibrated yet), for GET /api/players.
json ai_levels();

// How urgent an AI task is: a game with a person at the table (an AI reply a human waits for,
// a hint) comes before a game of computers only (docs/security.md, "Fair AI scheduling").
enum class AiPriority { Interactive = 0, Background = 1 };

// Worker threads running tasks at or after their ready time, fairly (docs/security.md, "Fair AI
// scheduling"). Each task has an owner (the client address that caused it: a game's creator,
// a hint's requester) and a priority. A free worker takes, among the ready tasks:
//  - only tasks whose owner runs fewer than owner_share() tasks now (an address's share of the
//    pool: half the workers, at least one), and Background tasks only while fewer than
//    background_share() of them run (half the workers, at least one), so with two or more
//    workers one address, or all the games of computers together, can never hold every worker;
//  - Interactive before Background; then the owner with the fewest tasks running, then the
//    owner served longest ago; then the earliest ready time (first in, first out).
// A worker leaves a task waiting rather than break a share, even when it is idle: the free
// worker is the reserve that keeps everyone else's replies quick. Each game has at most one
// task queued or running (Games), so an address's many games take turns on its share.
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
  // Runs `task` on a worker at or after `when`, by the rules above. `cancel` (may be null) is
  // set by cancel_all() and stop(), also when the task is dropped from the queue before it ran.
  void post(Clock::time_point when, std::function<void()> task, Cancel cancel = nullptr, std::string owner = {},
            AiPriority priority = AiPriority::Interactive);
  // Sets the cancel flag of every queued and running task (the workers keep running).
  void cancel_all();
  // Cancels every task, drops the queued ones and joins the workers.
  void stop();
  // The most tasks of one owner, and of Background priority, running at once.
  int owner_share() const { return share_; }
  int background_share() const { return share_; }
  // Tasks queued (ready or not) and running now, for tests and the operator.
  size_t queued() const;
  size_t running() const;

 private:
  struct Task {
    Clock::time_point when;
    uint64_t seq = 0;
    std::function<void()> run;
    Cancel cancel;
    std::string owner;
    AiPriority priority = AiPriority::Interactive;
  };
  void work();
  mutable std::mutex m_;
  std::condition_variable cv_;
  bool stopping_ = false;
  int share_ = 1;
  uint64_t seq_ = 0;
  std::vector<Task> queue_;                    // small: at most one task per game with an AI to move, plus hints
  std::multiset<std::atomic<bool>*> running_;  // cancel flags of the tasks running now
  size_t running_count_ = 0;
  int background_running_ = 0;
  std::map<std::string, int> owner_running_;             // owner -> tasks running now (no entry: none)
  std::map<std::string, uint64_t> owner_last_start_;     // owner -> when its last task started (a counter)
  uint64_t starts_ = 0;
  std::vector<std::thread> workers_;
};

}  // namespace carc::server
