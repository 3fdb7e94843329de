// The AI players and the worker pool (see ai_pool.h).
#include "ai_pool.h"

#include <algorithm>

#include "state.h"
#include "types.h"
#ifdef CARC_SERVER_HAVE_AI
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
  // The hard level searches on every thread this server allows an AI (unless the spec says).
  if (cfg.level == "hard" && std::none_of(sp.params.begin(), sp.params.end(), [](const auto& kv) { return kv.first == "threads"; }))
    cfg.threads = std::max(1, limits.max_threads);
  cfg.cancel = cancel;
  return std::make_unique<ai::MctsPlayer>(cfg);
#else
  const std::string name = spec.substr(0, spec.find(':'));
  if (name != "random" && name != "greedy" && name != "mcts")
    throw std::invalid_argument("unknown player '" + spec + "' (random, greedy, mcts[:level=easy|medium|hard])");
  return std::make_unique<FallbackPlayer>(spec, seed);
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

void AiPool::start(int threads) {
  {
    std::lock_guard lk(m_);
    stopping_ = false;
  }
  for (int i = 0; i < std::max(1, threads); ++i) workers_.emplace_back([this] { work(); });
}

void AiPool::post(Clock::time_point when, std::function<void()> task) {
  std::lock_guard lk(m_);
  queue_.emplace(when, std::move(task));
  cv_.notify_one();
}

void AiPool::stop() {
  {
    std::lock_guard lk(m_);
    stopping_ = true;
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
    std::function<void()> task = std::move(first->second);
    queue_.erase(first);
    lk.unlock();
    task();
    lk.lock();
  }
}

}  // namespace carc::server
