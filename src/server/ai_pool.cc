// The AI players and the worker pool (see ai_pool.h).
#include "ai_pool.h"

#include <algorithm>
#include <tuple>

#include "server_limits.h"
#include "state.h"
#include "types.h"
#include "levels.h"
#include "mcts.h"
#include "spec.h"
#include "star.h"

namespace carc::server {

std::unique_ptr<ai::Player> make_ai(const std::string& spec, uint64_t seed, const AiLimits& limits,
                                    const std::atomic<bool>* cancel, double time_cap) {
  if (spec.size() > 200) throw std::invalid_argument("an AI spec has at most 200 characters");
  const ai::Spec sp = ai::parse_spec(spec);
  if (sp.name == "star") {  // no time budget of its own: its width bounds its work
    const ai::StarConfig cfg = ai::star_config_from(sp.params, seed);
    if (cfg.width <= 0 || cfg.width > limits::kMaxStarWidth)
      throw std::invalid_argument("width=" + std::to_string(cfg.width) + " is beyond this server's limit of " +
                                  std::to_string(limits::kMaxStarWidth) + " (0, every move, is not allowed here)");
  }
  if (sp.name != "mcts") return ai::make_player(spec, seed);
  ai::MctsConfig cfg = ai::mcts_config_from(sp.params, seed);
  auto over = [&](const std::string& what, const std::string& got, const std::string& cap) {
    throw std::invalid_argument(what + "=" + got + " is beyond this server's limit of " + cap);
  };
  auto names = [&](const char* key) {
    return std::any_of(sp.params.begin(), sp.params.end(), [&](const auto& kv) { return kv.first == key; });
  };
  // The hard and expert levels search on every thread this server allows an AI, and expert's time
  // is at most the server's (unless the spec says otherwise, which is then checked like any spec).
  if ((cfg.level == "hard" || cfg.level == "expert") && !names("threads")) cfg.threads = std::max(1, limits.max_threads);
  if (cfg.level == "expert" && !names("time")) cfg.time = std::min(cfg.time, limits.max_seconds);
  if (cfg.time > limits.max_seconds) over("time", ai::format_seconds(cfg.time), ai::format_seconds(limits.max_seconds));
  if (cfg.iterations > limits.max_iterations)
    over("iterations", std::to_string(cfg.iterations), std::to_string(limits.max_iterations));
  if (cfg.threads > limits.max_threads) over("threads", std::to_string(cfg.threads), std::to_string(limits.max_threads));
  if (cfg.max_nodes > limits.max_nodes) over("nodes", std::to_string(cfg.max_nodes), std::to_string(limits.max_nodes));
  if (cfg.time <= 0) cfg.time = limits.max_seconds;  // an iteration budget still has a deadline
  if (time_cap > 0) {
    cfg.time = std::min(cfg.time, time_cap);
    cfg.threads = 1;
  }
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
    out.push_back({{"name", l.name}, {"label", l.label}, {"description", l.description}, {"spec", l.spec}, {"elo", l.elo},
                   {"elo_low", l.elo_low}, {"elo_high", l.elo_high}, {"games", l.games}});
  return out;
}

void AiPool::start(int threads) {
  threads = std::max(1, threads);
  {
    std::lock_guard lk(m_);
    stopping_ = false;
    share_ = std::max(1, threads / limits::kAiShareDivisor);
  }
  for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

void AiPool::post(Clock::time_point when, std::function<void()> task, Cancel cancel, std::string owner,
                  AiPriority priority) {
  std::lock_guard lk(m_);
  if (stopping_) {
    if (cancel) cancel->store(true);
    return;
  }
  queue_.push_back(Task{when, seq_++, std::move(task), std::move(cancel), std::move(owner), priority});
  cv_.notify_all();
}

void AiPool::cancel_all() {
  std::lock_guard lk(m_);
  for (auto& t : queue_)
    if (t.cancel) t.cancel->store(true);
  for (std::atomic<bool>* c : running_) c->store(true);
}

void AiPool::stop() {
  {
    std::lock_guard lk(m_);
    stopping_ = true;
    for (auto& t : queue_)
      if (t.cancel) t.cancel->store(true);
    for (std::atomic<bool>* c : running_) c->store(true);
    queue_.clear();
    cv_.notify_all();
  }
  for (auto& t : workers_) t.join();
  workers_.clear();
}

size_t AiPool::queued() const {
  std::lock_guard lk(m_);
  return queue_.size();
}

size_t AiPool::running() const {
  std::lock_guard lk(m_);
  return running_count_;
}

void AiPool::work() {
  std::unique_lock lk(m_);
  while (!stopping_) {
    // The best task a worker may take now (see ai_pool.h), and when the next one becomes ready.
    const auto now = Clock::now();
    auto next_ready = Clock::time_point::max();
    size_t best = queue_.size();
    auto running_of = [&](const std::string& o) {
      auto it = owner_running_.find(o);
      return it == owner_running_.end() ? 0 : it->second;
    };
    auto last_start_of = [&](const std::string& o) {
      auto it = owner_last_start_.find(o);
      return it == owner_last_start_.end() ? uint64_t(0) : it->second;
    };
    for (size_t i = 0; i < queue_.size(); ++i) {
      const Task& t = queue_[i];
      if (t.when > now) {
        next_ready = std::min(next_ready, t.when);
        continue;
      }
      if (running_of(t.owner) >= share_) continue;
      if (t.priority == AiPriority::Background && background_running_ >= share_) continue;
      if (best == queue_.size()) {
        best = i;
        continue;
      }
      const Task& b = queue_[best];
      auto key = [&](const Task& x) {
        return std::make_tuple(int(x.priority), running_of(x.owner), last_start_of(x.owner), x.when, x.seq);
      };
      if (key(t) < key(b)) best = i;
    }
    if (best == queue_.size()) {
      if (next_ready == Clock::time_point::max()) cv_.wait(lk);
      else cv_.wait_until(lk, next_ready);
      continue;
    }
    Task task = std::move(queue_[best]);
    queue_.erase(queue_.begin() + std::ptrdiff_t(best));
    std::atomic<bool>* flag = task.cancel.get();
    if (flag) running_.insert(flag);
    ++running_count_;
    ++owner_running_[task.owner];
    owner_last_start_[task.owner] = ++starts_;
    const bool background = task.priority == AiPriority::Background;
    if (background) ++background_running_;
    lk.unlock();
    task.run();
    task.run = nullptr;  // whatever it holds is released outside the lock
    lk.lock();
    if (flag) running_.erase(running_.find(flag));
    --running_count_;
    if (--owner_running_[task.owner] == 0) owner_running_.erase(task.owner);
    if (background) --background_running_;
    // owner_last_start_ keeps one entry per owner seen; bounded by dropping the ones idle now.
    if (owner_last_start_.size() > 4096)
      for (auto it = owner_last_start_.begin(); it != owner_last_start_.end();)
        it = owner_running_.count(it->first) ? std::next(it) : owner_last_start_.erase(it);
    cv_.notify_all();  // a share freed: another worker may now take a waiting task
  }
}

}  // namespace carc::server
