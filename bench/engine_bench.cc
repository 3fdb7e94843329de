// Engine micro-benchmarks: whole random games, clone, legal-move generation, apply.
#include <benchmark/benchmark.h>

#include "playout.h"

using namespace carc;

namespace {

const Game* game_for(int players, bool festival = false, bool fortune = false, bool fruit = false) {
  Rules r;
  r.players = players;
  r.set(Expansion::Festival, festival);
  r.set(Expansion::FortuneTeller, fortune);
  r.set(Expansion::FruitTrees, fruit);
  return Game::get(r);
}

// Positions at turn `turn` of seeded random games, at a decision node.
std::vector<State> midgame(const Game* g, int turn, int count) {
  std::vector<State> out;
  for (int i = 0; out.size() < size_t(count); ++i) {
    State s(g, 1000 + i);
    Rng rng(i);
    play_random_until(s, rng, turn);
    if (!s.is_terminal()) out.push_back(s);
  }
  return out;
}

// Whole uniformly random games; range(0) = players, range(1) = 1 for all three expansions.
void BM_RandomGame(benchmark::State& st) {
  const bool all = st.range(1) != 0;
  const Game* g = game_for(int(st.range(0)), all, all, all);
  std::vector<Move> moves;
  uint64_t seed = 1;
  const State fresh(g, 0);
  State s = fresh;
  for (auto _ : st) {
    s.restart(fresh, seed);
    Rng rng(seed++);
    auto r = random_playout(s, rng, moves);
    benchmark::DoNotOptimize(r);
  }
  st.counters["games/s"] = benchmark::Counter(double(st.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RandomGame)->Args({2, 0})->Args({4, 0})->Args({6, 0})->Args({2, 1});

void BM_CloneMidgame(benchmark::State& st) {
  auto states = midgame(game_for(2), 35, 16);
  size_t i = 0;
  for (auto _ : st) {
    State c = states[i++ & 15];
    benchmark::DoNotOptimize(&c);
    benchmark::ClobberMemory();
  }
  st.counters["bytes"] = double(sizeof(State));
}
BENCHMARK(BM_CloneMidgame);

void BM_LegalMovesMidgame(benchmark::State& st) {
  auto states = midgame(game_for(2), int(st.range(0)), 16);
  std::vector<Move> moves;
  size_t i = 0, total = 0;
  for (auto _ : st) {
    states[i++ & 15].legal_moves(moves);
    total += moves.size();
    benchmark::DoNotOptimize(moves.data());
  }
  st.counters["moves/s"] = benchmark::Counter(double(total), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_LegalMovesMidgame)->Arg(5)->Arg(35)->Arg(65);

}  // namespace

BENCHMARK_MAIN();
