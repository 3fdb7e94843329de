// What MCTS decides, pinned in tests/golden/mcts_signatures.txt: for each rule set a few seeded
// positions (the first decision, a mid-game decision, the same with threads=2, and a few
// non-default rollout settings) are analysed at a fixed iteration budget and seed, and the root's
// visit counts (legal_moves order), the tree size and the best move's estimates are compared
// with the file. A speed change of the search must leave every line unchanged; a deliberate
// change of behaviour (new defaults, heuristic terms, a changed sampler in the engine)
// regenerates it with CARC_UPDATE_GOLDEN=1 ./build/tests/ai_mcts_golden_test and says why in
// the commit message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "mcts.h"
#include "spec.h"
#include "test_util.h"

namespace carc::ai {
namespace {

struct Variant {
  const char* name;
  const char* tileset;
  bool festival, fortune_teller, fruit_trees;
};

// The rule sets of issue 17's MCTS figures.
const Variant kVariants[] = {
    {"base", "base", false, false, false},
    {"festival", "base", true, false, false},
    {"fortune-teller", "base", false, true, false},
    {"fruit-trees", "base", false, false, true},
    {"all-three", "base", true, true, true},
    {"wheel-of-fortune", "wheel-of-fortune", false, false, false},
    {"wheel+all-three", "wheel-of-fortune", true, true, true},
};

std::string signature(const std::string& name, const State& s, const std::string& params) {
  std::vector<std::pair<std::string, std::string>> kv;
  std::istringstream ps(params);
  std::string item;
  while (std::getline(ps, item, ':')) {
    const size_t eq = item.find('=');
    kv.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  MctsPlayer p(mcts_config_from(kv, 0));
  std::vector<Move> legal;
  s.legal_moves(legal);
  const std::vector<MoveEval> out = p.analyse(s);
  std::vector<int> visits(legal.size(), -1);
  for (const MoveEval& e : out) {
    const size_t i = size_t(std::find(legal.begin(), legal.end(), e.move) - legal.begin());
    if (i < legal.size()) visits[i] = e.visits;
  }
  const size_t best = size_t(std::find(legal.begin(), legal.end(), out.at(0).move) - legal.begin());
  char est[96];
  std::snprintf(est, sizeof est, " win=%.4f diff=%.3f", out[0].win_probability, out[0].score_diff);
  std::ostringstream o;
  o << name << " turn=" << s.turn() << " " << params << " moves=" << legal.size()
    << " nodes=" << p.last_stats().nodes << " best=" << best << est << " visits=";
  for (size_t i = 0; i < visits.size(); ++i) o << (i ? "," : "") << visits[i];
  return o.str();
}

std::string all_signatures() {
  std::string got;
  for (const Variant& v : kVariants) {
    Rules r;
    r.tileset = v.tileset;
    r.set(Expansion::Festival, v.festival);
    r.set(Expansion::FortuneTeller, v.fortune_teller);
    r.set(Expansion::FruitTrees, v.fruit_trees);
    const Game* g = Game::get(r);
    const State opening = test::random_position(g, 1, 0);
    const State mid = test::random_position(g, 2, 24);
    got += signature(v.name, opening, "iterations=3000:seed=1") + "\n";
    got += signature(v.name, mid, "iterations=3000:seed=1") + "\n";
    got += signature(v.name, mid, "iterations=3000:seed=1:threads=2") + "\n";
    if (std::string(v.name) == "base" || std::string(v.name) == "all-three" ||
        std::string(v.name) == "wheel+all-three") {
      // The non-default rollout paths: listed moves without a follower, best of K, uniform random
      // rollout moves (rk=1, the default before session 10), to the end.
      got += signature(v.name, mid, "iterations=1000:seed=3:rf=0.5:rk=2") + "\n";
      got += signature(v.name, mid, "iterations=1000:seed=5:rk=1:fmerge=0") + "\n";
      got += signature(v.name, mid, "iterations=500:seed=4:depth=end:prior=0") + "\n";
    }
  }
  return got;
}

TEST(MctsGolden, RootVisitsMatchTheGoldenFile) {
  const int lines = test::expect_golden("mcts_signatures.txt", all_signatures(), "the search decides differently");
  if (test::updating_golden()) GTEST_SKIP() << "rewrote tests/golden/mcts_signatures.txt";
  EXPECT_GE(lines, 24) << "tests/golden/mcts_signatures.txt lists too few positions";
}

}  // namespace
}  // namespace carc::ai
