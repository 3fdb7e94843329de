// AI benchmarks: MCTS iterations per second from the opening of a 2-player base game (one
// thread), and the greedy player's decision time. Figures go to docs/ai.md.
#include <benchmark/benchmark.h>

#include "mcts.h"
#include "player.h"
#include "value_net.h"

namespace {

using namespace carc;

State opening(uint64_t seed) {
  Rules r;
  State s(Game::get(r), seed);
  while (s.is_chance()) s.draw_random();
  return s;
}

// One search of `iterations` from the opening, rollouts of `depth` moves each the best of `rk`
// sampled (rk=1: uniformly random, the configuration tracked since session 2; rk=3 is the
// default since session 10); reports iterations per second.
void BM_MctsOpening(benchmark::State& st) {
  const State s = opening(7);
  ai::MctsConfig cfg = st.range(2) == 1 ? ai::mcts_speed_config() : ai::MctsConfig{};
  cfg.iterations = st.range(0);
  cfg.depth = int(st.range(1));
  cfg.rollout_best_of = int(st.range(2));
  ai::MctsPlayer p(cfg);
  long long iters = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(p.choose(s));
    iters += p.last_stats().iterations;
  }
  st.counters["iterations/s"] = benchmark::Counter(double(iters), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MctsOpening)
    ->Args({5000, 4, 1})
    ->Args({5000, 12, 1})
    ->Args({5000, -1, 1})
    ->Args({5000, 0, 1})
    ->Args({5000, 4, 3})
    ->Unit(benchmark::kMillisecond);

void BM_GreedyOpening(benchmark::State& st) {
  const State s = opening(7);
  auto p = ai::make_player("greedy", 1);
  for (auto _ : st) benchmark::DoNotOptimize(p->choose(s));
}
BENCHMARK(BM_GreedyOpening)->Unit(benchmark::kMicrosecond);

// The learned evaluator's cost (issue #37): one leaf evaluation of a mid-game position with the
// expect heuristic alone (net=0) and with the value network's adjustment (net=1), i.e. what a
// rollout's cut costs under mcts and mcts:eval=net.
void BM_LeafEvaluation(benchmark::State& st) {
  State s = opening(7);
  Rng rng(3);
  for (int i = 0; i < 30 && !s.is_terminal(); ++i) {
    if (s.is_chance()) {
      s.draw_random();
      continue;
    }
    s.apply(s.sample_move(rng));
  }
  ai::EvalWeights w = ai::MctsConfig{}.eval;
  w.net = st.range(0) == 1;
  for (auto _ : st) {
    State c = s;
    benchmark::DoNotOptimize(ai::evaluate_consuming(c, w));
  }
  st.counters["leaves/s"] = benchmark::Counter(double(st.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_LeafEvaluation)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// Inference alone: the network's prediction for one feature vector.
void BM_ValueNetPredict(benchmark::State& st) {
  const ai::ValueNet& net = ai::ValueNet::builtin();
  ai::Features x{};
  for (int i = 0; i < ai::kValueFeatures; ++i) x[size_t(i)] = 0.1f * float(i + 1);
  for (auto _ : st) {
    benchmark::DoNotOptimize(net.predict(x));
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_ValueNetPredict)->Unit(benchmark::kNanosecond);

}  // namespace

BENCHMARK_MAIN();
