// Stopping a search (MctsConfig::cancel, the one way the server stops its searches): a set flag
// stops the rollout search and the evaluator search, also one without any other budget, and
// also with several threads; and the lobby's levels (src/ai/levels.h) are playable specs.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include "levels.h"
#include "mcts.h"
#include "player.h"

namespace carc::ai {
namespace {

State opening(uint64_t seed) {
  State s(Game::get(Rules{}), seed);
  while (s.is_chance()) s.draw_random();
  return s;
}

TEST(MctsCancel, AFlagSetBeforeTheSearchStopsItAtOnce) {
  const State s = opening(3);
  std::atomic<bool> stop{true};
  MctsConfig cfg;
  cfg.iterations = 1'000'000;
  cfg.cancel = &stop;
  MctsPlayer p(cfg);
  std::vector<MoveEval> ev = p.analyse(s);
  EXPECT_EQ(p.last_stats().iterations, 0);
  EXPECT_EQ(ev.size(), size_t(s.count_legal_moves()));  // still every move, with no visits
  Move m = p.choose(s);
  EXPECT_TRUE(s.check_move(m).empty()) << s.check_move(m);
}

// An unbounded search (no time, no iteration budget) ends only by its flag: set from another
// thread while it runs, it returns (a search that ignored the flag would never end).
TEST(MctsCancel, AnUnboundedSearchReturnsWhenTheFlagIsSet) {
  const State s = opening(4);
  for (int threads : {1, 2}) {
    std::atomic<bool> stop{false};
    MctsConfig cfg;
    cfg.threads = threads;
    cfg.cancel = &stop;
    MctsPlayer p(cfg);
    std::thread setter([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      stop = true;
    });
    const Move m = p.choose(s);
    setter.join();
    EXPECT_TRUE(s.check_move(m).empty());
    EXPECT_GT(p.last_stats().iterations, 0) << threads;
  }
}

// Sets the cancel flag on its `stop_at`-th call; values every leaf 0.5 with uniform priors.
class StoppingEvaluator : public Evaluator {
 public:
  StoppingEvaluator(std::atomic<bool>& flag, int stop_at) : flag_(flag), stop_at_(stop_at) {}
  void evaluate(const std::vector<const State*>& states, std::vector<std::vector<double>>&,
                std::vector<std::vector<double>>& values) override {
    if (++calls == stop_at_) flag_ = true;
    for (size_t i = 0; i < states.size(); ++i) values[i].assign(size_t(states[i]->num_players()), 0.5);
  }
  int calls = 0;

 private:
  std::atomic<bool>& flag_;
  int stop_at_;
};

// The evaluator search (run_evaluated) checks the flag before every batch: set during the 3rd
// evaluator call, the search ends right after that batch, whatever its budget.
TEST(MctsCancel, TheEvaluatorSearchStopsAfterTheBatchThatSawTheFlag) {
  const State s = opening(5);
  std::atomic<bool> stop{false};
  MctsConfig cfg;
  cfg.iterations = 1'000'000;
  cfg.batch = 8;
  cfg.cancel = &stop;
  auto ev = std::make_shared<StoppingEvaluator>(stop, 3);
  cfg.evaluator = ev;
  MctsPlayer p(cfg);
  const Move m = p.choose(s);
  EXPECT_TRUE(s.check_move(m).empty());
  EXPECT_EQ(ev->calls, 3);
  EXPECT_LE(p.last_stats().iterations, 3 * cfg.batch);
}

TEST(Levels, AreNamedPlayableAndRatedOnlyWhenMeasured) {
  std::set<std::string> names, specs;
  for (const Level& l : levels()) {
    EXPECT_TRUE(names.insert(l.name).second) << "duplicate level " << l.name;
    EXPECT_TRUE(specs.insert(l.spec).second) << "duplicate spec " << l.spec;
    EXPECT_FALSE(l.label.empty()) << l.name;
    EXPECT_NO_THROW(make_player(l.spec, 1)) << l.spec;
    EXPECT_GE(l.games, 0) << l.name;
    if (l.games > 0) {
      EXPECT_LE(l.elo_low, l.elo) << l.name;
      EXPECT_LE(l.elo, l.elo_high) << l.name;
    } else {  // not calibrated: no made-up rating
      EXPECT_EQ(l.elo, 0) << l.name;
      EXPECT_EQ(l.elo_low, 0) << l.name;
      EXPECT_EQ(l.elo_high, 0) << l.name;
    }
  }
  for (const char* n : {"easy", "medium", "hard"}) EXPECT_TRUE(names.count(n)) << n;
  EXPECT_EQ(levels().front().name, "easy");  // the lobby's default
}

}  // namespace
}  // namespace carc::ai
