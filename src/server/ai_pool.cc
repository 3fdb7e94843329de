// The AI players and the worker pool (see ai_pool.h).
#include "ai_pool.h"

#include <algorithm>

#include "server_limits.h"
#include "state.h"
#include "types.h"
#ifdef CARC_SERVER_HAVE_AI
#include "levels.h"
#include "mcts.h"
#include "spec.h"
#endif

namespace carc::server {

namespace {
#ifndef CARC_SERVER_HAVE_AI
// Stand-in used only when the AI layer (src/ai) is not built: "random" plays a uniformly
// random legal move, everything else plays the move with the best immediate score margin.
class FallbackPlayer : public ai::Player {
 public:
  FallbackPlayer(std::string spec, uint64_t seed) : spec_(std::move(spec)), rng_(seed) {}
  std::string name() const override { return spec_; }
  Move choose(const State& s) override {
    std::vector<Move> moves;
    s.legal_moves(moves);
    if (spec_ == "random" || moves.size() == 1) return moves[rng_.below(uint32_t(moves.size()))];
    const int me = s.current_player();
    double best = -1e9;
    std::vector<Move> top;
    for (const Move& m : moves) {
      State c = s;
      c.apply(m);
      int other = -1000;
      for (int p = 0; p < s.num_players(); ++p)
        if (p != me) other = std::max(other, c.score(p) - s.score(p));
      double v = (c.score(me) - s.score(me)) - 0.5 * other + (m.meeple >= 0 ? 0.3 : 0.0);
      if (v > best + 1e-9) {
        best = v;
        top.clear();
      }
      if (v > best - 1e-9) top.push_back(m);
    }
    return top[rng_.below(uint32_t(top.size()))];
  }

 private:
  std::string spec_;
  Rng rng_;
};
#endif
}  // namespace

std::unique_ptr<ai::Player> make_ai(const std::string& spec, uint64_t seed, const AiLimits& limits,
                                    const std::atomic<bool>* cancel) {
  if (spec.size() > 200) throw std::invalid_argument("an AI spec has at most 200 characters");
#ifdef CARC_SERVER_HAVE_AI
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
  cfg.cancel = cancel;
  return std::make_unique<ai::MctsPlayer>(cfg);
#else
  const std::string name = spec.substr(0, spec.find(':'));
  if (name != "random" && name != "greedy" && name != "mcts")
    throw std::invalid_argument("unknown player '" + spec + "' (random, greedy, mcts[:level=easy|medium|hard])");
  return std::make_unique<FallbackPlayer>(spec, seed);
#endif
}

std::unique_ptr<ai::Player> make_hint_ai(uint64_t seed, const AiLimits& limits, const std::atomic<bool>* cancel) {
#ifdef CARC_SERVER_HAVE_AI
  ai::MctsConfig cfg;
  cfg.seed = seed;
  cfg.iterations = std::max(1LL, std::min(limits.hint_iterations, limits.max_iterations));
  cfg.time = std::min(std::chrono::duration<double>(limits::kHintTime).count(), limits.max_seconds);
  cfg.max_nodes = std::min(cfg.max_nodes, limits.max_nodes);
  cfg.cancel = cancel;
  return std::make_unique<ai::MctsPlayer>(cfg);
#else
  return make_ai("greedy", seed, limits, cancel);
#endif
}

json ai_registry() {
  json out = json::array();
#ifdef CARC_SERVER_HAVE_AI
  for (const auto& p : ai::player_registry()) out.push_back({{"name", p.name}, {"description", p.description}});
#else
  out.push_back({{"name", "random"}, {"description", "a uniformly random legal move"}});
  out.push_back({{"name", "greedy"}, {"description", "the best immediate score margin"}});
  out.push_back({{"name", "mcts"}, {"description", "tree search (stand-in: greedy until the AI layer is built)"}});
#endif
  return out;
}

json ai_levels() {
  json out = json::array();
#ifdef CARC_SERVER_HAVE_AI
  for (const auto& l : ai::levels())
    out.push_back({{"name", l.name}, {"label", l.label}, {"spec", l.spec}, {"elo", l.elo},
                   {"elo_low", l.elo_low}, {"elo_high", l.elo_high}, {"games", l.games}});
#else
  for (const char* n : {"easy", "medium", "hard"})
    out.push_back({{"name", n}, {"label", std::string(1, char(n[0] - 32)) + (n + 1)}, {"spec", std::string("mcts:level=") + n},
                   {"elo", 0}, {"elo_low", 0}, {"elo_high", 0}, {"games", 0}});
  out.push_back({{"name", "greedy"}, {"label", "Greedy (fast)"}, {"spec", "greedy"}, {"elo", 0}, {"elo_low", 0}, {"elo_high", 0}, {"games", 0}});
#endif
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
