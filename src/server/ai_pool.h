// The AI players (src/ai, or a stand-in when the AI layer is not built) and the pool of worker
// threads that runs their searches, shared by every game; never the transport's threads.
#pragma once

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

// The player for an AI spec ("greedy", "mcts:level=hard"); throws std::invalid_argument.
std::unique_ptr<ai::Player> make_ai(const std::string& spec, uint64_t seed);
// The AI players a client may choose, for GET /api/players.
json ai_registry();

// Worker threads running tasks at or after their ready time, earliest first.
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
