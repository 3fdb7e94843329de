// The AI players and the worker pool (see ai_pool.h).
#include "ai_pool.h"

#include <algorithm>

#include "server_limits.h"
#include "state.h"
#include "types.h"
#include "levels.h"
#include "mcts.h"
#include "spec.h"

namespace carc::server {

std::unique_ptr<ai::Player> make_ai(const std::string& spec, uint64_t seed, const AiLimits& limits,
                                    const std::atomic<bool>* cancel) {
  if (spec.size() > 200) throw std::invalid_argument("an AI spec has at most 200 characters");
  const ai::Spec sp = ai::parse_spec(spec);
  if (sp.name != "mcts") return ai::make_player(spec, seed);
  ai::MctsConfig cfg = ai::mcts_config_from(sp.params, seed);
  auto over = [&](const std::string& what, const std::string& got, const std::string& cap) {
    throw std::invalid_argument(what + "=" + got + " is beyond this server's limit of " + cap);
  };
  if (cfg.time > limits.max_seconds) over("time", ai::format_seconds(cfg.time), ai::format_seconds(limits.max_seconds));
  if (cfg.iterations > limits.max_iterations)
    over("iterations", std::to_string(cfg.iterations), std::to_string(limits.max_iterations));
  if (cfg.threads > limits.max_threads) over("threads", std::to_string(cfg.threads), std::to_string(limits.max_threads));
  if (cfg.max_nodes > limits.max_nodes) over("nodes", std::to_string(cfg.max_nodes), std::to_string(limits.max_nodes));
  if (cfg.time <= 0) cfg.time = limits.max_seconds;  // an iteration budget still has a deadline
  // The hard level searches on every thread this server allows an AI (unless the spec says).
  if (cfg.level == "hard" && std::none_of(sp.params.begin(), sp.params.end(), [](const auto& kv) { return kv.first == "threads"; }))
    cfg.threads = std::max(1, limits.max_threads);
  cfg.cancel = cancel;
  return std::make_unique<ai::MctsPlayer>(cfg);
}

std::unique_ptr<ai::Player> make_hint_ai(uint64_t seed, const AiLimits& limits, const std::atomic<bool>* cancel) {
  ai::MctsConfig cfg;
  cfg.seed = seed;
  cfg.iterations = std::max(1LL, std::min(limits.hint_iterations, limits.max_iterations));
  cfg.time = std::min(std::chrono::duration<double>(limits::kHintTime).count(), limits.max_seconds);
  cfg.max_nodes = std::min(cfg.max_nodes, limits.max_nodes);
  cfg.cancel = cancel;
  return std::make_unique<ai::MctsPlayer>(cfg);
}

json ai_registry() {
  json out = json::array();
  for (const auto& p : ai::player_registry()) out.push_back({{"name", p.name}, {"description", p.description}});
  return out;
}

json ai_levels() {
  json out = json::array();
  for (const auto& l : ai::levels())
    out.push_back({{"name", l.name}, {"label", l.label}, {"spec", l.spec}, {"elo", l.elo},
                   {"elo_low", l.elo_low}, {"elo_high", l.elo_high}, {"games", l.games}});
  return out;
}

void AiPool::start(int threads) {
  {
    std::lock_guard lk(m_);
    stopping_ = false;
  }
  for (int i = 0; i < std::max(1, threads); ++i) workers_.emplace_back([this] { work(); });
}

void AiPool::post(Clock::time_point when, std::function<void()> task, Cancel cancel) {
  std::lock_guard lk(m_);
  if (stopping_) {
    if (cancel) cancel->store(true);
    return;
  }
  queue_.emplace(when, Task{std::move(task), std::move(cancel)});
  cv_.notify_one();
}

void AiPool::cancel_all() {
  std::lock_guard lk(m_);
  for (auto& [when, t] : queue_)
    if (t.cancel) t.cancel->store(true);
  for (std::atomic<bool>* c : running_) c->store(true);
}

void AiPool::stop() {
  {
    std::lock_guard lk(m_);
    stopping_ = true;
    for (auto& [when, t] : queue_)
      if (t.cancel) t.cancel->store(true);
    for (std::atomic<bool>* c : running_) c->store(true);
    queue_.clear();
    cv_.notify_all();
  }
  for (auto& t : workers_) t.join();
  workers_.clear();
}

void AiPool::work() {
  std::unique_lock lk(m_);
  while (!stopping_) {
    if (queue_.empty()) {
      cv_.wait(lk);
      continue;
    }
    auto first = queue_.begin();
    if (first->first > Clock::now()) {
      cv_.wait_until(lk, first->first);
      continue;
    }
    Task task = std::move(first->second);
    queue_.erase(first);
    std::atomic<bool>* flag = task.cancel.get();
    if (flag) running_.insert(flag);
    lk.unlock();
    task.run();
    lk.lock();
    if (flag) running_.erase(running_.find(flag));
  }
}

}  // namespace carc::server
