// AI players: legal moves on random positions of every rule combination the engine offers,
// reproducible MCTS, MCTS blind to the bag order, spec parsing, and tournament statistics on
// fixed inputs. Budgets are small: strength is measured by `carcassonne tournament`.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <cmath>

#include "eval.h"
#include "mcts.h"
#include "player.h"
#include "spec.h"
#include "stats.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

namespace carc::ai {
namespace {

// Every tile set and expansion combination of the module table (test::all_variants).
std::vector<Rules> rule_variants() {
  std::vector<Rules> out;
  for (const test::Variant& v : test::all_variants()) out.push_back(v.rules);
  return out;
}

using test::random_position;

bool is_legal(const State& s, const Move& m) {
  std::vector<Move> moves;
  s.legal_moves(moves);
  return std::find(moves.begin(), moves.end(), m) != moves.end() && s.check_move(m).empty();
}

TEST(AiPlayers, EveryPlayerReturnsALegalMoveOnRandomPositions) {
  const std::vector<Rules> variants = rule_variants();
  ASSERT_FALSE(variants.empty());
  bool festival_seen = false;
  for (Rules r : variants) {
    festival_seen = festival_seen || r.has(Expansion::Festival);
    for (int players : {2, 3}) {
      r.players = players;
      const Game* g = Game::get(r);
      for (int k = 0; k < 6; ++k) {
        const State s = random_position(g, 100 + k, k * 13);
        if (s.is_terminal()) continue;
        for (const char* spec : {"random", "greedy", "greedy:eval=expect", "mcts:iterations=60",
                                 "mcts:iterations=40:depth=5:threads=2", "mcts:iterations=20:rk=3:eval=plain", "star:width=2"}) {
          auto p = make_player(spec, k);
          const Move m = p->choose(s);
          EXPECT_TRUE(is_legal(s, m)) << spec << " on " << r.to_string() << " turn " << s.turn();
        }
      }
    }
  }
  EXPECT_TRUE(festival_seen) << "the Festival should be available in the engine";
}

TEST(AiPlayers, EveryPlayerMakesTheWheelOfFortuneDecisions) {
  // Random games with the wheel and fortune tellers until every kind of decision has been
  // met: a Plague take-back by a player whose turn it is not, a Choose of a wheel tile,
  // placements with crown spaces. Each player must answer each with a legal move.
  Rules r;
  r.tileset = "wheel-of-fortune";
  r.set(Expansion::FortuneTeller);
  r.players = 3;
  const Game* g = Game::get(r);
  int plague = 0, choose = 0, crowns = 0;
  std::vector<Move> moves;
  for (uint64_t seed = 1; seed <= 40 && (plague < 3 || choose < 2); ++seed) {
    State s(g, seed);
    Rng rng(seed);
    while (!s.is_terminal()) {
      if (s.is_chance()) {
        s.draw_random();
        continue;
      }
      s.legal_moves(moves);
      const bool is_plague = s.phase() == Phase::Plague;
      const bool has_choose = std::any_of(moves.begin(), moves.end(), [](const Move& m) { return m.kind == MoveKind::Choose; });
      if ((is_plague && plague < 3) || (has_choose && choose < 2)) {
        if (is_plague) {
          ++plague;
          EXPECT_EQ(s.current_player(), s.mod<WheelBlock>().plague_decider());
        }
        if (has_choose) ++choose;
        for (const char* spec : {"random", "greedy", "mcts:iterations=80"}) {
          const Move m = make_player(spec, seed)->choose(s);
          EXPECT_TRUE(is_legal(s, m)) << spec << " seed " << seed << " turn " << s.turn();
          if (is_plague) EXPECT_EQ(m.kind, MoveKind::Plague);
        }
      }
      const Move m = moves[rng.below(uint32_t(moves.size()))];
      crowns += m.ext.crown() >= 0;
      s.apply(m);
    }
  }
  EXPECT_GE(plague, 3);
  EXPECT_GE(choose, 2);
  EXPECT_GT(crowns, 0);
}

TEST(AiPlayers, WholeGamesStayLegal) {
  // Greedy against a tiny MCTS to the end of a game, base and Festival.
  for (const char* exp : {"", "festival"}) {
    Rules r;
    if (*exp) {
      ASSERT_TRUE(r.enable(exp));
    }
    State s(Game::get(r), 5);
    auto a = make_player("greedy", 1);
    auto b = make_player("mcts:iterations=30:depth=10", 2);
    while (!s.is_terminal()) {
      if (s.is_chance()) {
        s.draw_random();
        continue;
      }
      const Move m = (s.current_player() == 0 ? a : b)->choose(s);
      ASSERT_TRUE(is_legal(s, m)) << exp << " turn " << s.turn();
      s.apply(m);
    }
    EXPECT_EQ(s.validate(), "");
  }
}

TEST(Mcts, SameSeedAndIterationsGiveTheSameMove) {
  const Game* g = Game::get(Rules{});
  for (int k = 0; k < 3; ++k) {
    const State s = random_position(g, 40 + k, 10 + 7 * k);
    auto a = make_player("mcts:iterations=400", 99);
    auto b = make_player("mcts:iterations=400", 99);
    const auto ea = a->analyse(s), eb = b->analyse(s);
    ASSERT_EQ(ea.size(), eb.size());
    for (size_t i = 0; i < ea.size(); ++i) {
      EXPECT_EQ(ea[i].move, eb[i].move);
      EXPECT_EQ(ea[i].visits, eb[i].visits);
    }
    EXPECT_EQ(make_player("mcts:iterations=400", 99)->choose(s), make_player("mcts:iterations=400", 99)->choose(s));
  }
}

// choose() stops once no other root move can catch the most visited one in the iterations left:
// at an iteration budget with one tree, the move is exactly the full search's (the next
// decisions too: the player draws one seed per decision either way), in fewer iterations.
TEST(Mcts, EarlyStopChoosesTheFullSearchsMove) {
  Rules fest;
  fest.set(Expansion::Festival);
  Rules wheel;
  wheel.tileset = "wheel-of-fortune";
  long long full = 0, early = 0;
  int positions = 0;
  for (const Rules& r : {Rules{}, fest, wheel}) {
    for (int k = 0; k < 6; ++k) {
      const State s = random_position(Game::get(r), 60 + k, 4 + 9 * k);
      if (s.is_terminal() || s.is_chance() || s.count_legal_moves() < 2) continue;
      ++positions;
      auto a = make_player("mcts:iterations=1500:early=0", 5);
      auto b = make_player("mcts:iterations=1500", 5);
      auto* ma = dynamic_cast<MctsPlayer*>(a.get());
      auto* mb = dynamic_cast<MctsPlayer*>(b.get());
      ASSERT_TRUE(ma && mb);
      for (int d = 0; d < 2; ++d) {  // two decisions in a row: the players stay in step
        EXPECT_EQ(a->choose(s), b->choose(s)) << "position " << k << ", decision " << d;
        EXPECT_EQ(ma->last_stats().iterations, 1500);
        EXPECT_LE(mb->last_stats().iterations, 1500);
        full += ma->last_stats().iterations;
        early += mb->last_stats().iterations;
      }
      // analyse() always runs in full.
      const auto ev = b->analyse(s);
      int visits = 0;
      for (const auto& e : ev) visits += e.visits;
      EXPECT_EQ(visits, 1500);
    }
  }
  EXPECT_GE(positions, 12);
  EXPECT_LT(early, full * 9 / 10) << "the early stop never saved a tenth";
  EXPECT_EQ(make_player("mcts:iterations=10:early=0")->name(), "mcts:iterations=10:early=0");
  EXPECT_EQ(make_player("mcts:iterations=10:early=1")->name(), "mcts:iterations=10");
  EXPECT_THROW(make_player("mcts:early=2"), std::invalid_argument);
}

TEST(Mcts, FestivalOptionsChangeNothingWithoutFestivalTiles) {
  // rr (take-backs in rollouts) and fest (the heuristic's festival term) only act on take-back
  // moves and festival tiles left in the bag: base-game and Wheel of Fortune searches are the same
  // with any values. With the Festival they change the search.
  Rules wheel;
  wheel.tileset = "wheel-of-fortune";
  for (const Rules& r : {Rules{}, wheel}) {
    const State s = random_position(Game::get(r), 41, 12);
    ASSERT_FALSE(s.is_terminal());
    const auto ea = make_player("mcts:iterations=400:rr=0:fest=1:tb=1:rkf=4", 7)->analyse(s);
    const auto eb = make_player("mcts:iterations=400:rr=1:fest=0", 7)->analyse(s);
    ASSERT_EQ(ea.size(), eb.size());
    for (size_t i = 0; i < ea.size(); ++i) {
      EXPECT_EQ(ea[i].move, eb[i].move);
      EXPECT_EQ(ea[i].visits, eb[i].visits);
      EXPECT_DOUBLE_EQ(ea[i].score_diff, eb[i].score_diff);
    }
  }
  Rules fest;
  ASSERT_TRUE(fest.enable("festival"));
  const State s = random_position(Game::get(fest), 41, 12);
  const auto ea = make_player("mcts:iterations=400:rr=0:fest=1", 7)->analyse(s);
  const auto eb = make_player("mcts:iterations=400:rr=1:fest=0", 7)->analyse(s);
  ASSERT_EQ(ea.size(), eb.size());
  bool differ = false;
  for (size_t i = 0; i < ea.size(); ++i) differ = differ || ea[i].score_diff != eb[i].score_diff;
  EXPECT_TRUE(differ);
  // rkf (the heuristic's choice at festival tiles in rollouts) changes a Festival search too.
  const auto ec = make_player("mcts:iterations=400:rkf=4", 7)->analyse(s);
  ASSERT_EQ(ec.size(), eb.size());
  differ = false;
  for (size_t i = 0; i < ec.size(); ++i) differ = differ || ec[i].score_diff != eb[i].score_diff;
  EXPECT_TRUE(differ);
}

// Plays uniformly random moves in a Festival game from `seed` until `stop` holds at a decision.
template <class Stop>
bool walk_festival(uint64_t seed, State& s, Stop&& stop) {
  Rules fest;
  if (!fest.enable("festival")) return false;
  s = State(Game::get(fest), seed);
  Rng rng(seed);
  return test::walk_until(s, rng, stop);
}

TEST(Mcts, TreeTakeBacksOnlyAtTheRootWithTbZero) {
  // At a decision with take-back moves, tb=0 still lists and searches every legal move at the
  // root, take-backs included.
  auto has_take_back = [](const State& s) {
    std::vector<Move> moves;
    s.legal_moves(moves);
    return s.turn() > 20 && std::any_of(moves.begin(), moves.end(), [](const Move& m) { return m.ext.takes_back(); });
  };
  Rules fest;
  ASSERT_TRUE(fest.enable("festival"));
  State s(Game::get(fest), 1);
  ASSERT_TRUE(walk_festival(1, s, has_take_back));
  std::vector<Move> moves;
  s.legal_moves(moves);
  const auto eo = make_player("mcts:iterations=3000:tb=0", 5)->analyse(s);
  ASSERT_EQ(eo.size(), moves.size());
  int visits = 0, take_back_visits = 0;
  for (const MoveEval& e : eo) {
    visits += e.visits;
    if (e.move.ext.takes_back()) take_back_visits += e.visits;
  }
  EXPECT_EQ(visits, 3000);
  EXPECT_GT(take_back_visits, 0);

  // Below the root they are left out: with one tile left in the bag, a festival tile, the
  // opponent's reply (the last move of the game) has no take-backs with tb=0, so the tree, whose
  // every root move leads to that one reply position, is smaller than with tb=1.
  auto last_is_festival = [](const State& st) {
    if (st.bag_size() != 1) return false;
    for (int t = 0; t < st.game().num_types(); ++t)
      if (st.bag_count(t) == 1) return st.game().type(t).festival && st.num_followers() > 0;
    return false;
  };
  int positions = 0;
  for (uint64_t seed = 1; seed < 300 && positions < 2; ++seed) {
    if (!walk_festival(seed, s, last_is_festival)) continue;
    const int opp = 1 - s.current_player();
    bool opp_on_board = false;
    for (int i = 0; i < s.num_followers(); ++i) opp_on_board = opp_on_board || s.followers()[i].player == opp;
    if (!opp_on_board) continue;
    ++positions;
    MctsPlayer off(mcts_config_from({{"iterations", "3000"}, {"tb", "0"}}, 5));
    MctsPlayer on(mcts_config_from({{"iterations", "3000"}, {"tb", "1"}}, 5));
    off.analyse(s);
    on.analyse(s);
    EXPECT_LT(off.last_stats().nodes, on.last_stats().nodes) << "seed " << seed;
  }
  EXPECT_EQ(positions, 2);
}

TEST(Mcts, RolloutsCompareRkfMovesAtFestivalTiles) {
  // rkf: at a festival tile a rollout move is the best of rkf sampled moves (or of rk, if larger);
  // at any other tile, and without the Festival, of rk.
  auto festival_tile = [](const State& st) {
    const int t = st.current_tile();
    return st.phase() == Phase::Place && t >= 0 && st.game().type(t).festival;
  };
  auto other_tile = [](const State& st) {
    const int t = st.current_tile();
    return st.phase() == Phase::Place && t >= 0 && !st.game().type(t).festival;
  };
  const MctsConfig rkf4 = mcts_config_from({{"rkf", "4"}, {"rk", "1"}}, 1);
  const MctsConfig rk6 = mcts_config_from({{"rkf", "4"}, {"rk", "6"}}, 1);
  const MctsConfig rk2 = mcts_config_from({{"rkf", "4"}, {"rk", "2"}}, 1);
  State s(Game::get(Rules{}), 1);
  ASSERT_TRUE(walk_festival(3, s, festival_tile));
  EXPECT_EQ(rollout_sample_count(MctsConfig{}, s), 3);  // rk's default
  EXPECT_EQ(rollout_sample_count(mcts_config_from({{"rk", "1"}}, 1), s), 1);
  EXPECT_EQ(rollout_sample_count(rkf4, s), 4);
  EXPECT_EQ(rollout_sample_count(rk6, s), 6);
  EXPECT_EQ(rollout_sample_count(rk2, s), 4);
  ASSERT_TRUE(walk_festival(3, s, other_tile));
  EXPECT_EQ(rollout_sample_count(rkf4, s), 1);
  EXPECT_EQ(rollout_sample_count(rk2, s), 2);
  const State base = random_position(Game::get(Rules{}), 41, 12);
  ASSERT_FALSE(base.is_chance());
  EXPECT_EQ(rollout_sample_count(rkf4, base), 1);
}

TEST(Mcts, FkSearchesOnlyTheBestRootMovesAtAFestivalDecision) {
  // fk=K: at a root that offers take-backs, only the K best moves by the root prior (the expect
  // heuristic's margin one move ahead) get visits; the others are reported with none.
  auto has_take_back = [](const State& st) {
    std::vector<Move> moves;
    st.legal_moves(moves);
    return st.turn() > 20 && moves.size() > 12 &&
           std::any_of(moves.begin(), moves.end(), [](const Move& m) { return m.ext.takes_back(); });
  };
  State s(Game::get(Rules{}), 1);
  ASSERT_TRUE(walk_festival(1, s, has_take_back));
  std::vector<Move> moves;
  s.legal_moves(moves);
  const int me = s.current_player();
  std::vector<std::pair<double, size_t>> by_margin;
  for (size_t i = 0; i < moves.size(); ++i) {
    State c = s;
    c.apply(moves[i]);
    by_margin.emplace_back(-margin(evaluate(c, EvalWeights::expected()), me, s.num_players()), i);
  }
  std::sort(by_margin.begin(), by_margin.end());  // best first, ties in move order
  std::vector<bool> top(moves.size(), false);
  for (size_t k = 0; k < 8; ++k) top[by_margin[k].second] = true;

  const auto e = make_player("mcts:iterations=2000:fk=8", 5)->analyse(s);
  ASSERT_EQ(e.size(), moves.size());
  int visited = 0, visits = 0;
  for (const MoveEval& me_ : e) {
    const size_t i = size_t(std::find(moves.begin(), moves.end(), me_.move) - moves.begin());
    ASSERT_LT(i, moves.size());
    if (me_.visits > 0) {
      ++visited;
      EXPECT_TRUE(top[i]) << "move " << i << " is not among the 8 best by the prior";
    }
    visits += me_.visits;
  }
  EXPECT_EQ(visited, 8);
  EXPECT_EQ(visits, 2000);
  // Without take-backs at the root (the base game), fk changes nothing.
  const State base = random_position(Game::get(Rules{}), 41, 12);
  const auto ea = make_player("mcts:iterations=400:fk=2", 7)->analyse(base);
  const auto eb = make_player("mcts:iterations=400", 7)->analyse(base);
  ASSERT_EQ(ea.size(), eb.size());
  for (size_t i = 0; i < ea.size(); ++i) EXPECT_EQ(ea[i].visits, eb[i].visits);
}

// tprior=P: a decision node below the root, once visited tpmin times, gives its children P
// virtual visits valued by the heuristic. It changes the search once nodes reach tpmin, not
// before; it stays deterministic; and its parameters are named and bounded. (Without the root
// prior, which in a won position can keep every visit on one move: see the next test.)
TEST(Mcts, TreePriorActsOnceNodesReachTpmin) {
  const Game* g = Game::get(Rules{});
  int changed = 0, positions = 0;
  for (int k = 0; k < 4; ++k) {
    const State s = random_position(g, 70 + k, 6 + 8 * k);
    if (s.is_terminal() || s.is_chance() || s.count_legal_moves() < 2) continue;
    ++positions;
    const auto off = make_player("mcts:iterations=3000:prior=0", 9)->analyse(s);
    const auto unreached = make_player("mcts:iterations=3000:prior=0:tprior=10:tpmin=100000", 9)->analyse(s);
    const auto on = make_player("mcts:iterations=3000:prior=0:tprior=10:tpmin=2", 9)->analyse(s);
    const auto again = make_player("mcts:iterations=3000:prior=0:tprior=10:tpmin=2", 9)->analyse(s);
    ASSERT_EQ(off.size(), on.size());
    bool differs = false;
    int visits = 0;
    for (size_t i = 0; i < off.size(); ++i) {
      EXPECT_EQ(off[i].move, unreached[i].move);
      EXPECT_EQ(off[i].visits, unreached[i].visits) << "no node reaches tpmin: the search is unchanged";
      EXPECT_EQ(on[i].move, again[i].move);
      EXPECT_EQ(on[i].visits, again[i].visits);
      differs = differs || on[i].visits != off[i].visits;
      visits += on[i].visits;
    }
    EXPECT_EQ(visits, 3000) << "virtual visits below the root are not reported at the root";
    changed += differs;
  }
  EXPECT_GE(positions, 3);
  EXPECT_EQ(changed, positions);
  EXPECT_EQ(make_player("mcts:iterations=10:tprior=10:tpmin=32")->name(), "mcts:iterations=10:tprior=10:tpmin=32");
  EXPECT_NO_THROW(make_player("mcts:tprior=1000000:tpmin=1000000"));  // at the caps (kMaxSpecSmallInt)
  EXPECT_THROW(make_player("mcts:tpmin=1000001"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:tpmin=0"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:tprior=1000001"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:tprior=-1"), std::invalid_argument);
}

// An option of the search below the root: at 3,000 iterations in three random base positions
// (seeds `seed`..`seed`+2) it changes the root's visits, stays deterministic, spends exactly the
// budget, and `zero` (its value for off) is the search without it.
void expect_option_changes_the_search(uint64_t seed, const std::string& zero, const std::string& on) {
  const Game* g = Game::get(Rules{});
  int changed = 0, positions = 0;
  for (int k = 0; k < 3; ++k) {
    const State s = random_position(g, seed + uint64_t(k), 8 + 10 * k);
    if (s.is_terminal() || s.is_chance() || s.count_legal_moves() < 2) continue;
    ++positions;
    const std::string base = "mcts:iterations=3000:prior=0";
    const auto off = make_player(base, 9)->analyse(s);
    const auto zeroed = make_player(base + ":" + zero, 9)->analyse(s);
    const auto with = make_player(base + ":" + on, 9)->analyse(s);
    const auto again = make_player(base + ":" + on, 9)->analyse(s);
    ASSERT_EQ(off.size(), with.size());
    bool differs = false;
    int visits = 0;
    for (size_t i = 0; i < off.size(); ++i) {
      EXPECT_EQ(off[i].move, zeroed[i].move);
      EXPECT_EQ(off[i].visits, zeroed[i].visits) << zero << " is the search without the option";
      EXPECT_EQ(with[i].move, again[i].move);
      EXPECT_EQ(with[i].visits, again[i].visits);
      differs = differs || with[i].visits != off[i].visits;
      visits += with[i].visits;
    }
    EXPECT_EQ(visits, 3000);
    changed += differs;
  }
  EXPECT_GE(positions, 2);
  EXPECT_EQ(changed, positions) << on << " changes the search in every position";
}

// pw=K: progressive widening below the root (session 13). It changes the search (the tree's
// replies are no longer tried in random order), stays deterministic, spends exactly the budget at
// the root, and its parameters are named and bounded. (Without the root prior, which in most
// positions keeps every visit on the prior's best moves: see "Session 13" in docs/ai.md.)
TEST(Mcts, WideningChangesTheTreeAndStaysDeterministic) {
  expect_option_changes_the_search(80, "pw=0", "pw=1");
  EXPECT_EQ(make_player("mcts:iterations=10:pw=2:pwa=0.25:pwk=5")->name(), "mcts:iterations=10:pw=2:pwa=0.25:pwk=5");
  EXPECT_NO_THROW(make_player("mcts:pw=1000:pwa=1:pwk=1000"));  // at the caps
  EXPECT_NO_THROW(make_player("mcts:pw=0:pwa=0:pwk=1"));
  EXPECT_THROW(make_player("mcts:pw=1001"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:pw=-1"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:pwa=1.5"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:pwk=0"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:pwk=1001"), std::invalid_argument);
}

// cw=K: progressive widening of chance nodes below the root (session 20). The draw itself: the
// drawn type while fewer than `allowed` types have visits or when it has visits itself; else a
// visited type in proportion to its copies.
TEST(Mcts, ChanceWideningDrawsAmongTheVisitedTypesInProportionToTheirCopies) {
  Rng rng(5);
  const uint32_t visits[5] = {0, 3, 0, 1, 0};
  const int copies[5] = {4, 1, 2, 3, 0};
  EXPECT_EQ(chance_widen_draw(0, visits, copies, 5, 3.0, rng), 0) << "2 types open, 3 allowed";
  EXPECT_EQ(chance_widen_draw(1, visits, copies, 5, 1.0, rng), 1) << "a visited type stays";
  EXPECT_EQ(chance_widen_draw(3, visits, copies, 5, 1.0, rng), 3);
  int count[5] = {};
  const int n = 40000;
  for (int k = 0; k < n; ++k) ++count[chance_widen_draw(k % 2 ? 0 : 2, visits, copies, 5, 2.0, rng)];
  EXPECT_EQ(count[0] + count[2] + count[4], 0) << "unvisited types are replaced at the limit";
  EXPECT_NEAR(double(count[1]) / n, 0.25, 0.01) << "type 1: 1 copy of 4 among the visited";
  EXPECT_NEAR(double(count[3]) / n, 0.75, 0.01);
  const uint32_t none[3] = {0, 0, 0};
  const int some[3] = {1, 1, 1};
  EXPECT_EQ(chance_widen_draw(2, none, some, 3, 1.0, rng), 2) << "nothing visited: the draw";
  const uint32_t gone[2] = {4, 0};
  const int empty[2] = {0, 2};
  EXPECT_EQ(chance_widen_draw(1, gone, empty, 2, 1.0, rng), 1) << "the visited types are out of the bag";
}

// In the search it changes the tree, stays deterministic, spends exactly the budget, and cw=0 is
// the search without it; its parameters are named and bounded.
TEST(Mcts, ChanceWideningChangesTheTreeAndStaysDeterministic) {
  expect_option_changes_the_search(90, "cw=0", "cw=0.5");
  EXPECT_EQ(make_player("mcts:iterations=10:cw=2:cwa=0.25")->name(), "mcts:iterations=10:cw=2:cwa=0.25");
  EXPECT_NO_THROW(make_player("mcts:cw=1000:cwa=1"));  // at the caps
  EXPECT_NO_THROW(make_player("mcts:cw=0:cwa=0"));
  EXPECT_THROW(make_player("mcts:cw=1001"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:cw=-1"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:cwa=1.5"), std::invalid_argument);
}

// wsd=K (session 16): a rollout cut before the end counts its win share as the chance that the
// heuristic lead survives the draws still to come, Phi(lead / (K sqrt(tiles left))) for two players,
// instead of all of it to the leader. The shares: half each at a tie, Phi(1) at a lead of one
// standard deviation, normalised over several players and ordered like the values.
TEST(Mcts, SoftWinSharesFollowTheNormalCurve) {
  double v2[2] = {10, 10}, w2[2];
  soft_win_shares(v2, 2, 6, w2);
  EXPECT_DOUBLE_EQ(w2[0], 0.5);
  EXPECT_DOUBLE_EQ(w2[1], 0.5);
  v2[0] = 16;  // a lead of one standard deviation
  soft_win_shares(v2, 2, 6, w2);
  EXPECT_NEAR(w2[0], 0.841345, 1e-6);
  EXPECT_NEAR(w2[0] + w2[1], 1.0, 1e-12);
  double v3[3] = {30, 20, 0}, w3[3];
  soft_win_shares(v3, 3, 10, w3);
  EXPECT_NEAR(w3[0] + w3[1] + w3[2], 1.0, 1e-12);
  EXPECT_GT(w3[0], w3[1]);
  EXPECT_GT(w3[1], w3[2]);
  EXPECT_GT(w3[2], 0.0);
}

// The search with wsd: wsd=0 is the search without it, visit for visit; wsd=3 changes it and stays
// deterministic; the parameter is named and bounded.
TEST(Mcts, WinSdChangesTheSearchAndStaysDeterministic) {
  const State s = random_position(Game::get(Rules{}), 71, 14);
  ASSERT_FALSE(s.is_chance());
  const auto off = make_player("mcts:iterations=2000:prior=0", 9)->analyse(s);
  const auto zero = make_player("mcts:iterations=2000:prior=0:wsd=0", 9)->analyse(s);
  const auto on = make_player("mcts:iterations=2000:prior=0:wsd=3", 9)->analyse(s);
  const auto again = make_player("mcts:iterations=2000:prior=0:wsd=3", 9)->analyse(s);
  ASSERT_EQ(off.size(), on.size());
  bool differs = false;
  for (size_t i = 0; i < off.size(); ++i) {
    EXPECT_EQ(off[i].visits, zero[i].visits);
    EXPECT_EQ(off[i].win_probability, zero[i].win_probability);
    EXPECT_EQ(on[i].visits, again[i].visits);
    EXPECT_EQ(on[i].win_probability, again[i].win_probability);
    differs = differs || on[i].win_probability != off[i].win_probability;
  }
  EXPECT_TRUE(differs);
  EXPECT_EQ(make_player("mcts:iterations=10:wsd=3")->name(), "mcts:iterations=10:wsd=3");
  EXPECT_NO_THROW(make_player("mcts:wsd=1000"));  // at the cap (kMaxSpecWeight)
  EXPECT_THROW(make_player("mcts:wsd=1001"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:wsd=-1"), std::invalid_argument);
}

// pmode=2 values the root prior's virtual visits at the mean real reward plus the move's
// offset. In a position that the player to move is winning (win estimate about 0.96 here), the
// fixed prior (the best move at 0.5, a move 5 points worse at 0.12) looks worse than any real
// visit of the first move searched, so the search never leaves that move; with pmode=2 the
// other moves stay in reach.
TEST(Mcts, MeanPriorKeepsExploringAWonPosition) {
  const State s = random_position(Game::get(Rules{}), 71, 14);
  ASSERT_FALSE(s.is_chance());
  ASSERT_GE(s.count_legal_moves(), 20);
  auto tried = [&](const std::string& spec) {
    int n = 0;
    for (const MoveEval& e : make_player(spec, 9)->analyse(s)) n += e.visits > 0;
    return n;
  };
  EXPECT_EQ(tried("mcts:iterations=3000"), 1);
  EXPECT_GE(tried("mcts:iterations=3000:pmode=2"), 5);
  EXPECT_EQ(make_player("mcts:iterations=10:pmode=2")->name(), "mcts:iterations=10:pmode=2");
  EXPECT_THROW(make_player("mcts:pmode=3"), std::invalid_argument);
}

TEST(Mcts, DecisionDoesNotDependOnTheBagOrder) {
  // Two states equal in everything a player may see, but whose generators (the future bag
  // order) differ: the search must behave identically. If MCTS drew with the state's own
  // generator instead of resampling it, the visit counts would differ.
  const Game* g = Game::get(Rules{});
  for (int k = 0; k < 3; ++k) {
    const State a = random_position(g, 70 + k, 5 + 9 * k);
    State b = a;
    b.set_rng(Rng(0xDEADBEEF + k));
    ASSERT_FALSE(a == b);
    for (const char* spec : {"mcts:iterations=300", "mcts:iterations=300:depth=8"}) {
      auto pa = make_player(spec, 5), pb = make_player(spec, 5);
      const auto ea = pa->analyse(a), eb = pb->analyse(b);
      ASSERT_EQ(ea.size(), eb.size());
      for (size_t i = 0; i < ea.size(); ++i) {
        EXPECT_EQ(ea[i].move, eb[i].move) << spec;
        EXPECT_EQ(ea[i].visits, eb[i].visits) << spec;
        EXPECT_DOUBLE_EQ(ea[i].score_diff, eb[i].score_diff) << spec;
      }
      EXPECT_EQ(make_player(spec, 8)->choose(a), make_player(spec, 8)->choose(b)) << spec;
    }
  }
}

// The star yardstick (src/ai/star.h) simulates the next player's draw: from the public bag only.
TEST(Star, DecisionDoesNotDependOnTheBagOrderAndFollowsItsSeed) {
  Rules r;
  r.set(Expansion::Festival);
  r.set(Expansion::FortuneTeller);
  const Game* g = Game::get(r);
  for (int k = 0; k < 3; ++k) {
    const State a = random_position(g, 40 + k, 6 + 11 * k);
    if (a.is_terminal()) continue;
    State b = a;
    b.set_rng(Rng(0xBEEF + k));
    ASSERT_FALSE(a == b);
    const auto ea = make_player("star:width=4", 3)->analyse(a), eb = make_player("star:width=4", 3)->analyse(b);
    ASSERT_EQ(ea.size(), eb.size());
    for (size_t i = 0; i < ea.size(); ++i) {
      EXPECT_EQ(ea[i].move, eb[i].move);
      EXPECT_DOUBLE_EQ(ea[i].score_diff, eb[i].score_diff);
    }
    // Two turns deep for the best `width` moves by one turn, one turn for the rest.
    int deep = 0;
    for (const auto& e : ea) deep += e.visits;
    EXPECT_EQ(deep, std::min<int>(4, int(ea.size())));
  }
  EXPECT_THROW(make_player("star:width=x"), std::invalid_argument);
  EXPECT_THROW(make_player("star:depth=3"), std::invalid_argument);
  EXPECT_EQ(make_player("star:width=3:eval=expect")->name(), "star:width=3:eval=expect");
}

TEST(Mcts, AnalyseListsEveryMoveBestFirstWithEstimates) {
  const State s = random_position(Game::get(Rules{}), 3, 12);
  auto p = make_player("mcts:iterations=500", 1);
  const auto ev = p->analyse(s);
  EXPECT_EQ(int(ev.size()), s.count_legal_moves());
  int total = 0;
  for (size_t i = 0; i < ev.size(); ++i) {
    total += ev[i].visits;
    if (i) EXPECT_GE(ev[i - 1].visits, ev[i].visits);
    EXPECT_GE(ev[i].win_probability, 0.0);
    EXPECT_LE(ev[i].win_probability, 1.0);
  }
  EXPECT_EQ(total, 500);
}

// Before the draw there is no move to choose: analyse lists none (it wrote per tile type into
// the empty move list and crashed, e.g. `carcassonne analyse` of a Fortune Teller turn).
TEST(Mcts, AnalyseAtAChanceNodeListsNoMoves) {
  Rules r;
  r.enable("fortune-teller");
  State s(Game::get(r), 5);
  ASSERT_TRUE(s.is_chance());
  for (const char* spec : {"mcts:iterations=300", "mcts:iterations=300:threads=2"}) {
    auto p = make_player(spec, 1);
    EXPECT_TRUE(p->analyse(s).empty()) << spec;
  }
}

TEST(Mcts, ThreadsSplitTheIterationBudget) {
  const State s = random_position(Game::get(Rules{}), 4, 20);
  auto p = std::make_unique<MctsPlayer>(mcts_config_from({{"iterations", "600"}, {"threads", "2"}}, 3));
  const auto ev = p->analyse(s);
  int total = 0;
  for (const auto& e : ev) total += e.visits;
  EXPECT_EQ(total, 600);
  EXPECT_EQ(p->last_stats().iterations, 600);
}

TEST(Mcts, ThreadsAtAnIterationBudgetAreDeterministic) {
  // Root-parallel trees with seeds derived from the player's seed and a fixed share of the
  // budget each: the same seed, budget and thread count give the same statistics, whatever the
  // scheduling of the threads.
  for (const char* tileset : {"", "wheel-of-fortune"}) {
    Rules r;
    if (*tileset) r.tileset = tileset;
    const State s = random_position(Game::get(r), 12, 14);
    for (int threads : {2, 3}) {
      const std::string spec = "mcts:iterations=900:threads=" + std::to_string(threads);
      const auto ea = make_player(spec, 21)->analyse(s);
      const auto eb = make_player(spec, 21)->analyse(s);
      ASSERT_EQ(ea.size(), eb.size());
      int total = 0;
      for (size_t i = 0; i < ea.size(); ++i) {
        EXPECT_EQ(ea[i].move, eb[i].move) << spec;
        EXPECT_EQ(ea[i].visits, eb[i].visits) << spec;
        EXPECT_DOUBLE_EQ(ea[i].score_diff, eb[i].score_diff) << spec;
        total += ea[i].visits;
      }
      EXPECT_EQ(total, 900) << spec;
    }
  }
}

TEST(Greedy, TakesAnImmediateCompletion) {
  // Greedy values a move by the margin after it: its best move is never worse than another.
  const State s = random_position(Game::get(Rules{}), 11, 15);
  auto p = make_player("greedy", 1);
  const auto ev = p->analyse(s);
  ASSERT_FALSE(ev.empty());
  const Move m = make_player("greedy", 2)->choose(s);
  double chosen = -1e9;
  for (const auto& e : ev)
    if (e.move == m) chosen = e.score_diff;
  EXPECT_DOUBLE_EQ(chosen, ev[0].score_diff);
}

TEST(Specs, ParseAndName) {
  EXPECT_DOUBLE_EQ(parse_seconds("1s"), 1.0);
  EXPECT_DOUBLE_EQ(parse_seconds("100ms"), 0.1);
  EXPECT_DOUBLE_EQ(parse_seconds("0.5"), 0.5);
  EXPECT_EQ(parse_count("5k"), 5000);
  EXPECT_THROW(parse_seconds("fast"), std::invalid_argument);
  const Spec sp = parse_spec("mcts:time=1s:threads=2");
  EXPECT_EQ(sp.name, "mcts");
  ASSERT_EQ(sp.params.size(), 2u);
  EXPECT_EQ(sp.params[1].first, "threads");
  EXPECT_EQ(make_player("mcts:time=1s:threads=2")->name(), "mcts:time=1s:threads=2");
  EXPECT_EQ(make_player("mcts:level=hard")->name(), "mcts:level=hard");
  EXPECT_EQ(make_player("mcts:level=easy")->name(), "mcts:level=easy");
  EXPECT_EQ(make_player("mcts:level=easy:prior=10")->name(), "mcts:level=easy:prior=10");
  EXPECT_EQ(make_player("mcts:level=expert")->name(), "mcts:level=expert");
  {  // expert: the whole machine for kExpertSeconds, no root prior; a parameter overrides it
    const MctsConfig e = mcts_config_from({{"level", "expert"}}, 0);
    EXPECT_DOUBLE_EQ(e.time, kExpertSeconds);
    EXPECT_EQ(e.iterations, 0);
    EXPECT_EQ(e.prior, 0);
    EXPECT_GE(e.threads, 1);
    EXPECT_LE(e.threads, kExpertMaxThreads);
    EXPECT_EQ(mcts_config_from({{"level", "expert"}, {"threads", "1"}}, 0).threads, 1);
    EXPECT_THROW(make_player("mcts:level=grandmaster"), std::invalid_argument);
  }
  EXPECT_EQ(make_player("mcts:time=100ms")->name(), "mcts:time=100ms");
  EXPECT_EQ(make_player("mcts")->name(), "mcts:time=1s");
  EXPECT_EQ(make_player("greedy")->name(), "greedy");
  EXPECT_EQ(make_player("greedy:eval=expect:follower=7")->name(), "greedy:eval=expect:follower=7");
  EXPECT_EQ(make_player("mcts:iterations=10:eval=plain:follower=2:rk=1")->name(),
            "mcts:iterations=10:rk=1:eval=plain:follower=2");
  EXPECT_EQ(make_player("mcts:iterations=10:rk=3:fmerge=0.2")->name(), "mcts:iterations=10");  // the defaults
  EXPECT_EQ(make_player("mcts:level=easy:rk=1:fmerge=0")->name(), "mcts:level=easy");  // easy's own
  EXPECT_EQ(make_player("mcts:level=easy:dead=0:scarce=0")->name(), "mcts:level=easy");
  // Session 18: the expect heuristic (MCTS's) counts dead and scarce cells; easy and the speed yardstick do not.
  EXPECT_EQ(make_player("mcts:iterations=10:dead=1:scarce=8")->name(), "mcts:iterations=10");
  EXPECT_EQ(make_player("mcts:iterations=10:scarce=0")->name(), "mcts:iterations=10:scarce=0");
  EXPECT_EQ(MctsConfig{}.eval.dead_cells, 1);
  EXPECT_EQ(MctsConfig{}.eval.scarce_cells, 8);
  EXPECT_EQ(mcts_config_from({{"level", "easy"}}, 1).eval.scarce_cells, 0);
  EXPECT_EQ(mcts_config_from({{"level", "easy"}}, 1).eval.dead_cells, 0);
  EXPECT_EQ(mcts_config_from({{"level", "hard"}}, 1).eval.scarce_cells, 8);
  EXPECT_EQ(mcts_speed_config().eval.scarce_cells, 0);
  EXPECT_EQ(EvalWeights{}.scarce_cells, 0);  // greedy's plain heuristic is unchanged
  EXPECT_THROW(make_player("greedy:eval=magic"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:cq=2"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:rk=0"), std::invalid_argument);
  EXPECT_EQ(make_player("mcts:iterations=10:fest=0.25")->name(), "mcts:iterations=10:fest=0.25");
  EXPECT_EQ(make_player("mcts:iterations=10:rr=0.5")->name(), "mcts:iterations=10:rr=0.5");
  EXPECT_THROW(make_player("mcts:rr=2"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:fest=1.5"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:fest=-0.1"), std::invalid_argument);
  EXPECT_EQ(make_player("mcts:iterations=10:tb=1:fmin=4")->name(), "mcts:iterations=10:tb=1:fmin=4");
  EXPECT_EQ(make_player("mcts:iterations=10:tb=0:fmin=5")->name(), "mcts:iterations=10");  // the defaults
  EXPECT_EQ(MctsConfig{}.eval.follower_min, 5);
  EXPECT_FALSE(MctsConfig{}.tree_take_back);
  EXPECT_EQ(EvalWeights{}.follower_min, 0);  // the plain heuristic (greedy's) has no floor
  EXPECT_EQ(make_player("greedy:eval=expect:fmin=2.5")->name(), "greedy:eval=expect:fmin=2.5");
  EXPECT_THROW(make_player("mcts:tb=2"), std::invalid_argument);
  EXPECT_EQ(MctsConfig{}.rollout_festival_best_of, 1);
  EXPECT_EQ(MctsConfig{}.festival_root_moves, 0);
  EXPECT_EQ(make_player("mcts:iterations=10:fk=30")->name(), "mcts:iterations=10:fk=30");
  EXPECT_EQ(make_player("mcts:iterations=10:fk=0")->name(), "mcts:iterations=10");
  EXPECT_THROW(make_player("mcts:fk=10001"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:fk=-1"), std::invalid_argument);
  EXPECT_EQ(make_player("mcts:iterations=10:rkf=4")->name(), "mcts:iterations=10:rkf=4");
  EXPECT_EQ(make_player("mcts:iterations=10:rkf=1")->name(), "mcts:iterations=10");
  EXPECT_EQ(mcts_config_from({{"rkf", "1000"}}, 1).rollout_festival_best_of, 1000);
  EXPECT_THROW(make_player("mcts:rkf=0"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:rkf=1001"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:rkf=99999999999"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:rkf=x"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:fmin=-1"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:speed=3"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:level=godlike"), std::invalid_argument);
  EXPECT_THROW(make_player("minimax"), std::invalid_argument);
  EXPECT_THROW(make_player("random:x=1"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:time"), std::invalid_argument);
  MctsConfig c = mcts_config_from({{"level", "easy"}}, 1);
  EXPECT_EQ(c.iterations, 300);
  EXPECT_EQ(c.prior, 0);  // easy has no heuristic prior
  EXPECT_EQ(mcts_config_from({{"level", "easy"}, {"prior", "5"}}, 1).prior, 5);
  EXPECT_EQ(mcts_config_from({{"level", "medium"}}, 1).prior, MctsConfig{}.prior);
  c = mcts_config_from({{"iterations", "50"}, {"level", "hard"}}, 1);
  EXPECT_EQ(c.iterations, 50);  // explicit parameters override the level
  EXPECT_EQ(player_registry().size(), 4u);  // random, greedy, star, mcts
}

// Every number of a spec is capped (spec.h, docs/security.md "Limits"): at the cap it is
// accepted, beyond it refused with a message naming the cap, so no value overflows a sum, an int
// or a duration.
TEST(Specs, Limits) {
  const std::string cap = format_real(kMaxSpecWeight);
  for (const char* w : {"follower", "grow", "farm", "fmin", "fminw", "wev", "tent", "mk", "c", "pscale", "scale"}) {
    SCOPED_TRACE(w);
    const std::string at = std::string("mcts:iterations=10:") + w + "=" + cap;
    EXPECT_NO_THROW(make_player(at));
    EXPECT_THROW(make_player(at + "1"), std::invalid_argument);  // 10001
    EXPECT_THROW(make_player(std::string("mcts:") + w + "=1e308"), std::invalid_argument);
    try {
      make_player(std::string("mcts:") + w + "=1e308");
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(cap), std::string::npos) << e.what();
    }
  }
  for (const char* w : {"follower", "grow", "farm", "fmin"}) {
    EXPECT_NO_THROW(make_player(std::string("greedy:") + w + "=" + cap));
    EXPECT_THROW(make_player(std::string("greedy:") + w + "=1000.5"), std::invalid_argument);
    EXPECT_THROW(make_player(std::string("greedy:") + w + "=-1"), std::invalid_argument);
  }
  // At the caps the heuristic's values stay finite.
  State s = random_position(Game::get(Rules{}), 9, 30);
  EvalWeights big = EvalWeights::expected();
  big.follower_value = big.follower_min = big.grow = big.farm = kMaxSpecWeight;
  const Values v = evaluate(s, big);
  EXPECT_TRUE(std::isfinite(margin(v, 0, 2)));
  // Integers: no wrap into int.
  EXPECT_EQ(mcts_config_from({{"prior", std::to_string(kMaxSpecSmallInt)}}, 1).prior, kMaxSpecSmallInt);
  EXPECT_THROW(make_player("mcts:prior=" + std::to_string(kMaxSpecSmallInt + 1)), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:prior=4294967297"), std::invalid_argument);
  EXPECT_EQ(mcts_config_from({{"depth", std::to_string(kMaxSpecSmallInt)}}, 1).depth, kMaxSpecSmallInt);
  EXPECT_THROW(make_player("mcts:depth=4294967297"), std::invalid_argument);
  EXPECT_EQ(mcts_config_from({{"depth", "end"}}, 1).depth, -1);
  // Durations: at most a day, so the deadline's conversion cannot overflow.
  EXPECT_DOUBLE_EQ(parse_seconds("86400s"), kMaxSpecSeconds);
  EXPECT_THROW(parse_seconds("86401s"), std::invalid_argument);
  EXPECT_THROW(parse_seconds("1e300"), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:time=1e300s"), std::invalid_argument);
}

TEST(Eval, FinalScoreOfAFinishedGameIsItsScore) {
  State s = random_position(Game::get(Rules{}), 9, 1000);
  ASSERT_TRUE(s.is_terminal());
  const Values v = evaluate(s);
  EXPECT_DOUBLE_EQ(v[0], s.score(0));
  EXPECT_DOUBLE_EQ(v[1], s.score(1));
  EXPECT_DOUBLE_EQ(margin(v, 0, 2), double(s.score(0) - s.score(1)));
}

TEST(Eval, ExpectAddsTheCompletionChanceOfAnOpenCityAndMonastery) {
  // A's knight on the open D + M city (2 tiles, 1 pennant, 1 open edge); B's monk on a
  // monastery at (0,1) with only D around it (7 neighbours missing). 69 tiles in the bag.
  const Replay r = test::play(test::scenario(R"([
    {"tile":"M","x":0,"y":-1,"rotation":90,"meeple":"E"},
    {"tile":"B","x":0,"y":1,"rotation":0,"meeple":"C"}])"));
  const State& s = r.state;
  ASSERT_EQ(s.bag_size(), 69);
  ASSERT_EQ(s.game().total_tiles(), 71);  // the bag at the start (the start tile is apart)
  EvalWeights plain;
  plain.follower_value = 6;
  EvalWeights expect = plain;  // cq = 0.65, mk = 15, farm = 0.5, grow = 0
  expect.expect = true;
  const Values p = evaluate(s, plain), e = evaluate(s, expect);
  // Plain: the end-of-game value (city 2 + 1 pennant = 3, monastery 1 + 1 = 2) plus
  // 6 * 69/71 per follower in hand (6 each).
  const double fv = 6.0 * 69 / 71;
  EXPECT_NEAR(p[0], 3 + 6 * fv, 1e-9);
  EXPECT_NEAR(p[1], 2 + 6 * fv, 1e-9);
  // Expect: the city completes with q = 0.65 (bag >= 12): +3 q, and the knight comes back
  // with that chance: + fv q. The monastery gains 7 g, g = 70 / (70 + 15), and the monk comes
  // back with chance g^7.
  const double q = 0.65, g = 69.0 / 84;
  EXPECT_NEAR(e[0] - p[0], 3 * q + fv * q, 1e-9);
  EXPECT_NEAR(e[1] - p[1], 7 * g + fv * std::pow(g, 7), 1e-9);
  // Growth: grow * open edges * bag share (69/71) more tiles for the city, doubled when it
  // completes; a monastery does not grow.
  expect.grow = 0.5;
  const Values e2 = evaluate(s, expect);
  EXPECT_NEAR(e2[0] - e[0], 0.5 * 1 * 69.0 / 71 * (1 + q), 1e-9);
  EXPECT_NEAR(e2[1] - e[1], 0, 1e-9);
}

// The tiles left in the bag (counting copies) that have a legal place on cell (x, y): asked of the engine's own
// move list after drawing each type, independently of the frontier's edge patterns.
int tiles_that_fit(const State& s, int x, int y) {
  int k = 0;
  for (auto [t, count] : s.chance_outcomes()) {
    State c = s;
    if (!c.apply_draw(t) || c.phase() != Phase::Place) continue;
    std::vector<Move> moves;
    c.legal_moves(moves);
    for (const Move& m : moves)
      if (m.kind == MoveKind::Place && m.x == x && m.y == y) {
        k += count;
        break;
      }
  }
  return k;
}

// A random base position `turns` moves in, one move further, at the chance node before the next draw (false when the
// game ended or the move left no draw to make): where the dead and scarce cell tests look.
bool chance_position(const Game* g, uint64_t seed, int turns, State& out) {
  State s = random_position(g, seed, turns);
  if (s.is_terminal()) return false;
  std::vector<Move> moves;
  s.legal_moves(moves);
  s.apply(moves[0]);
  if (!s.is_chance()) return false;
  out = s;
  return true;
}

// The engine oracle's factors for DeadRoots(s, dead, scarce): per frontier cell (frontier order) 1 - dead when no
// tile left fits it, else min(1, fit / scarce); per road or city root facing a cell below 1 the product over those
// cells.
struct OracleFactors {
  std::vector<double> cell;
  std::map<uint16_t, double> root;
};
OracleFactors oracle_factors(const State& s, double dead, double scarce) {
  OracleFactors o;
  for (int i = 0; i < s.frontier_size(); ++i) {
    const FrontierCell& fc = s.frontier_cell(i);
    const int fit = tiles_that_fit(s, fc.x, fc.y);
    const double f = fit == 0 ? 1 - dead : std::min(1.0, fit / scarce);
    o.cell.push_back(f);
    if (f >= 1) continue;
    for (int port = 0; port < 4; ++port)
      if (fc.present >> port & 1) {
        const uint16_t r = s.root(fc.port_slot[port]);
        if (s.feature(r).kind != Kind::City && s.feature(r).kind != Kind::Road) continue;
        auto [it, fresh] = o.root.emplace(r, 1.0);
        it->second *= f;
      }
  }
  return o;
}

// Every slot's DeadRoots factor equals the oracle's (1 for the roots it does not list).
void expect_root_factors(const DeadRoots& dead, const OracleFactors& o, const std::string& where) {
  for (int slot = 0; slot < kMaxSlots; ++slot) {
    auto it = o.root.find(uint16_t(slot));
    ASSERT_NEAR(dead.factor(uint16_t(slot)), it == o.root.end() ? 1.0 : it->second, 1e-12) << where << ", slot " << slot;
  }
}

TEST(Eval, DeadRootsAreTheRoadsAndCitiesFacingACellNoTileLeftFits) {
  // Late positions of random base games, at the chance node after a move: every road and city
  // whose open edge faces a cell that no tile left can fill is marked, and no other.
  const Game* g = Game::get(Rules{});
  int dead_cells = 0, positions = 0;
  for (int k = 0; k < 24; ++k) {
    State s(g, 0);
    if (!chance_position(g, 700 + k, 30 + 2 * k, s)) continue;
    ++positions;
    const DeadRoots dead(s);
    std::vector<uint16_t> expected;
    for (int i = 0; i < s.frontier_size(); ++i) {
      const FrontierCell& fc = s.frontier_cell(i);
      if (tiles_that_fit(s, fc.x, fc.y) > 0) continue;
      ++dead_cells;
      for (int port = 0; port < 4; ++port)
        if (fc.present >> port & 1) {
          const uint16_t r = s.root(fc.port_slot[port]);
          if (s.feature(r).kind == Kind::City || s.feature(r).kind == Kind::Road) expected.push_back(r);
        }
    }
    for (int slot = 0; slot < kMaxSlots; ++slot) {
      const bool want = std::find(expected.begin(), expected.end(), uint16_t(slot)) != expected.end();
      ASSERT_EQ(dead.has(uint16_t(slot)), want) << "seed " << 700 + k << ", slot " << slot;
    }
  }
  EXPECT_GE(positions, 20);
  EXPECT_GT(dead_cells, 0);  // the check saw some dead cells
}

TEST(Eval, DeadCellsTakeTheCompletionChanceOfOccupiedFeaturesFacingThem) {
  // With dead=1 a follower on a road or city that can no longer be completed is not expected
  // back, and its city's doubling is not expected: its owner's value falls; positions without
  // such a feature keep their values exactly.
  const Game* g = Game::get(Rules{});
  int changed = 0, same = 0;
  for (int k = 0; k < 40; ++k) {
    State s = random_position(g, 900 + k, 40 + k % 20);
    if (s.is_terminal()) continue;
    std::vector<Move> moves;
    s.legal_moves(moves);
    s.apply(moves.back());
    if (!s.is_chance()) continue;
    const DeadRoots dead(s);
    bool occupied_dead[kMaxPlayers] = {};
    bool any = false;
    bool farm_beside_dead = false;  // a farmer's field touches an open city that is dead
    for (int i = 0; i < s.num_followers(); ++i) {
      const uint16_t r = s.root(s.followers()[i].slot);
      if (!s.feature(r).done && dead.has(r)) occupied_dead[s.followers()[i].player] = any = true;
      if (s.feature(r).kind == Kind::Field) {
        uint16_t cities[kMaxPlaced * 4];
        const int nc = s.field_cities(r, cities, kMaxPlaced * 4);
        for (int c = 0; c < nc; ++c) farm_beside_dead |= !s.feature(cities[c]).done && dead.has(cities[c]);
      }
    }
    EvalWeights w = EvalWeights::expected();
    w.dead_cells = w.scarce_cells = 0;  // dead cells alone, against neither
    const Values off = evaluate(s, w);
    w.dead_cells = 1;
    const Values on = evaluate(s, w);
    if (!any && !farm_beside_dead) {
      ++same;
      for (int p = 0; p < s.num_players(); ++p) EXPECT_EQ(on[p], off[p]) << "seed " << 900 + k;
      continue;
    }
    if (!any) continue;
    ++changed;
    for (int p = 0; p < s.num_players(); ++p) {
      if (occupied_dead[p]) EXPECT_LT(on[p], off[p]) << "seed " << 900 + k << ", player " << p;
      else EXPECT_LE(on[p], off[p]) << "seed " << 900 + k << ", player " << p;  // farms beside dead cities
    }
  }
  EXPECT_GT(changed, 0);
  EXPECT_GT(same, 0);
  // The spec key: dead=1 is read, named, and bounded like the other shares.
  EXPECT_EQ(make_player("mcts:iterations=10:dead=0.5")->name(), "mcts:iterations=10:dead=0.5");
  EXPECT_THROW(make_player("mcts:iterations=10:dead=2"), std::invalid_argument);
}

TEST(Eval, ScarceCellsScaleTheCompletionChanceByTheTilesLeftThatFit) {
  // scarce=8: a cell that k < 8 tiles left fit multiplies the chance of every road and city facing it by k / 8
  // (a dead cell by 1 - dead); a feature facing several such cells gets the product.
  const Game* g = Game::get(Rules{});
  int scarce_cells = 0, positions = 0;
  for (int k = 0; k < 16; ++k) {
    State s(g, 0);
    if (!chance_position(g, 1300 + k, 30 + 3 * k, s)) continue;
    ++positions;
    const DeadRoots dead(s, 0.75, 8);
    const OracleFactors o = oracle_factors(s, 0.75, 8);
    scarce_cells += int(std::count_if(o.cell.begin(), o.cell.end(), [](double f) { return f < 1; }));
    expect_root_factors(dead, o, "seed " + std::to_string(1300 + k));
  }
  EXPECT_GE(positions, 12);
  EXPECT_GT(scarce_cells, 0);
  EXPECT_EQ(make_player("mcts:iterations=10:scarce=4")->name(), "mcts:iterations=10:scarce=4");
  EXPECT_THROW(make_player("mcts:iterations=10:scarce=101"), std::invalid_argument);
}

TEST(Eval, DeadRootsHoldEveryScarceCellAndFeatureOfALateBoard) {
  // scarce=100 (the largest allowed): late in a game with all three expansions every frontier cell fits fewer
  // than 100 tiles left, so every cell and every road and city facing one has a factor below 1: more than the 64
  // cells and features an earlier version held (it dropped the rest silently). Each factor and each monastery's
  // product must match the engine oracle.
  Rules r;
  for (const char* e : {"festival", "fortune-teller", "fruit-trees"}) ASSERT_TRUE(r.enable(e));
  const Game* g = Game::get(r);
  bool checked = false;
  for (int k = 0; k < 64 && !checked; ++k) {
    State s(g, 0);
    if (!chance_position(g, 2100 + k, 70 + k % 16, s) || s.frontier_size() <= 64) continue;
    const DeadRoots dead(s, 1, 100);
    const OracleFactors o = oracle_factors(s, 1, 100);
    if (o.root.size() <= 64) continue;
    for (double f : o.cell) ASSERT_LT(f, 1);
    EXPECT_EQ(dead.cells(), s.frontier_size());
    expect_root_factors(dead, o, "seed " + std::to_string(2100 + k));
    for (int t = 0; t < s.num_placed(); ++t) {  // around every placed tile, as for a monastery there
      const int x = s.placed(t).x, y = s.placed(t).y;
      double want = 1;
      int want_dead = 0;
      for (int i = 0; i < s.frontier_size(); ++i)
        if (std::abs(s.frontier_cell(i).x - x) <= 1 && std::abs(s.frontier_cell(i).y - y) <= 1) {
          want *= o.cell[size_t(i)];
          want_dead += o.cell[size_t(i)] == 0;
        }
      int got_dead = -1;
      ASSERT_NEAR(dead.around(x, y, got_dead), want, 1e-12) << "tile at " << x << "," << y;
      ASSERT_EQ(got_dead, want_dead) << "tile at " << x << "," << y;
    }
    std::printf("frontier %d cells, %zu roads and cities facing them\n", s.frontier_size(), o.root.size());
    checked = true;
  }
  EXPECT_TRUE(checked);  // some late position had more than 64 cells and more than 64 features facing them
}

TEST(Eval, ScarceCellsAroundAMonasteryTakeItsCompletionChance) {
  // smon=1: a monk whose monastery has a cell around it that few or no tiles left fit is worth less to its
  // owner; positions where no occupied monastery has such a cell keep their values exactly.
  const Game* g = Game::get(Rules{});
  int changed = 0, same = 0;
  for (int k = 0; k < 60; ++k) {
    State s = random_position(g, 1500 + k, 40 + k % 25);
    if (s.is_terminal()) continue;
    std::vector<Move> moves;
    s.legal_moves(moves);
    s.apply(moves.back());
    if (!s.is_chance()) continue;
    EvalWeights w = EvalWeights::expected();
    w.dead_cells = 1;
    w.scarce_cells = 8;
    const DeadRoots dead(s, w.dead_cells, w.scarce_cells);
    bool scarce_monk[kMaxPlayers] = {};
    bool any = false;
    for (int i = 0; i < s.num_followers(); ++i) {
      const uint16_t r = s.root(s.followers()[i].slot);
      if (s.feature(r).done || s.feature(r).kind != Kind::Monastery) continue;
      const PlacedTile& pt = s.placed(s.slot_tile(r));
      int dead_around = 0;
      if (dead.around(pt.x, pt.y, dead_around) < 1) scarce_monk[s.followers()[i].player] = any = true;
    }
    const Values off = evaluate(s, w);
    w.monastery_cells = 1;
    const Values on = evaluate(s, w);
    for (int p = 0; p < s.num_players(); ++p) {
      if (scarce_monk[p]) EXPECT_LT(on[p], off[p]) << "seed " << 1500 + k << ", player " << p;
      else EXPECT_EQ(on[p], off[p]) << "seed " << 1500 + k << ", player " << p;
    }
    any ? ++changed : ++same;
  }
  EXPECT_GT(changed, 0);
  EXPECT_GT(same, 0);
}

TEST(Eval, FieldMergeValuesTwoFarmersWhoseFieldsMayJoin) {
  // A's farmer on the field south of the start tile's road (joined to the E city cap at (0,1)
  // and to the south side of the straight road U at (-1,0)); B's farmer north of the road (on
  // U, joined to the start tile's north field). The two fields touch the empty cells (1,0) and
  // (-2,0), on the two sides of the road's ends. Each touches one open city with one open edge,
  // worth farm * 3 * q = 0.5 * 3 * 0.65 now. A join would give both players both fields (1 to
  // 1), so each gains chance * 0.975, chance = 1 - (1 - fmerge)^2 with two such cells.
  const Replay r = test::play(test::scenario(R"([
    {"tile":"E","x":0,"y":1,"rotation":180,"meeple":"Nw"},
    {"tile":"U","x":-1,"y":0,"rotation":90,"meeple":"Nw"}])"));
  const State& s = r.state;
  ASSERT_EQ(s.num_followers(), 2);
  ASSERT_EQ(s.feature(s.followers()[0].slot).kind, Kind::Field);
  ASSERT_EQ(s.feature(s.followers()[1].slot).kind, Kind::Field);
  ASSERT_NE(s.root(s.followers()[0].slot), s.root(s.followers()[1].slot));
  EvalWeights w = EvalWeights::expected();
  EXPECT_EQ(w.field_merge, kDefaultFieldMerge);  // on by default in the expect heuristic
  w.field_merge = 0;
  w.field_merge_road = 1;
  const Values off = evaluate(s, w);
  w.field_merge = 0.1;
  const Values on = evaluate(s, w);
  const double chance = 1 - 0.9 * 0.9, value = 0.5 * 3 * 0.65;
  EXPECT_NEAR(on[0] - off[0], chance * value, 1e-9);
  EXPECT_NEAR(on[1] - off[1], chance * value, 1e-9);
  // Both cells are ends of the road between the two fields: fmroad scales their chance.
  w.field_merge_road = 0.5;
  const Values road = evaluate(s, w);
  const double chance_road = 1 - 0.95 * 0.95;
  EXPECT_NEAR(road[0] - off[0], chance_road * value, 1e-9);
  EXPECT_NEAR(road[1] - off[1], chance_road * value, 1e-9);
  // In a Festival game the weight is fmergef, not fmerge (the same board, base tiles only).
  const Replay rf = test::play(test::scenario(R"([
    {"tile":"E","x":0,"y":1,"rotation":180,"meeple":"Nw"},
    {"tile":"U","x":-1,"y":0,"rotation":90,"meeple":"Nw"}])", 2, "", {"festival"}));
  ASSERT_TRUE(rf.state.rules().has(Expansion::Festival));
  EvalWeights wf = EvalWeights::expected();
  wf.field_merge_festival = 0;
  wf.field_merge = 0;
  const Values foff = evaluate(rf.state, wf);
  wf.field_merge = 0.1;  // other games' weight: no effect here
  const Values fother = evaluate(rf.state, wf);
  EXPECT_NEAR(fother[0] - foff[0], 0, 1e-12);
  wf.field_merge_festival = 0.1;
  wf.field_merge_road = 1;
  const Values fon = evaluate(rf.state, wf);
  EXPECT_NEAR(fon[0] - foff[0], chance * value, 1e-9);
  EXPECT_NEAR(fon[1] - foff[1], chance * value, 1e-9);
  w.field_merge_festival = 0.9;  // and the Festival's weight does nothing in a base game
  w.field_merge_road = 1;
  const Values base = evaluate(s, w);
  EXPECT_NEAR(base[0] - on[0], 0, 1e-12);
  // Fields held by the same player (or the same tie) gain nothing from a join: after A's farmer
  // leaves (a scenario where both fields are A's) nothing changes.
  const Replay r2 = test::play(test::scenario(R"([
    {"tile":"E","x":0,"y":1,"rotation":180,"meeple":"Nw"},
    {"tile":"U","x":-1,"y":0,"rotation":90},
    {"tile":"U","x":-2,"y":0,"rotation":90,"meeple":"Nw"}])"));
  // Turn 3 is A's again (two players): A holds both fields now.
  ASSERT_EQ(r2.state.num_followers(), 2);
  EvalWeights w2 = EvalWeights::expected();
  const Values off2 = evaluate(r2.state, w2);
  w2.field_merge = 0.1;
  const Values on2 = evaluate(r2.state, w2);
  EXPECT_NEAR(on2[0] - off2[0], 0, 1e-12);
  EXPECT_NEAR(on2[1] - off2[1], 0, 1e-12);
}

TEST(Eval, ExpectValuesAFarmerByTheOpenCitiesItTouches) {
  // An E city cap south of the start tile, its city facing south (open), A's farmer on its
  // field (joined to D's field south of the road): the farm touches one open city, worth
  // farm * 3 * q = 0.5 * 3 * 0.65 with the expect heuristic, nothing with the plain one. The
  // farmer never comes back, so nothing else changes.
  const Replay r = test::play(test::scenario(R"([{"tile":"E","x":0,"y":1,"rotation":180,"meeple":"Nw"}])"));
  const State& s = r.state;
  ASSERT_EQ(s.num_followers(), 1);
  ASSERT_EQ(s.feature(s.followers()[0].slot).kind, Kind::Field);
  EvalWeights plain;
  plain.follower_value = 6;
  EvalWeights expect = plain;
  expect.expect = true;
  const Values p = evaluate(s, plain), e = evaluate(s, expect);
  EXPECT_NEAR(e[0] - p[0], 0.5 * 3 * 0.65, 1e-9);
  EXPECT_NEAR(e[1] - p[1], 0, 1e-9);
  EvalWeights no_farm = expect;
  no_farm.farm = 0;
  EXPECT_NEAR(evaluate(s, no_farm)[0], p[0], 1e-9);
}

TEST(Eval, WheelForecastCountsEveryOrderOfThePigNumbersLeft) {
  // Pig on segment 0 of 6; one "1" and one "2" left: orders 1,2 (stops 1, 3) and 2,1 (stops 2, 3).
  WheelForecast f = wheel_forecast(6, 0, {0, 1, 1, 0, 0, 0, 0});
  const double v12[6] = {0, 0.5, 0.5, 1, 0, 0};
  for (int sg = 0; sg < 6; ++sg) {
    EXPECT_DOUBLE_EQ(f.visits[sg], v12[sg]) << sg;
    EXPECT_DOUBLE_EQ(f.hit[sg], v12[sg]) << sg;
  }
  // Seven "1"s from segment 5: every segment once, segment 0 twice (visits 2, hit 1).
  f = wheel_forecast(6, 5, {0, 7, 0, 0, 0, 0, 0});
  EXPECT_DOUBLE_EQ(f.visits[0], 2);
  EXPECT_DOUBLE_EQ(f.hit[0], 1);
  for (int sg = 1; sg < 6; ++sg) EXPECT_DOUBLE_EQ(f.visits[sg], 1) << sg;
  // Two "1"s and one "3" from 0: orders 113 (1, 2, 5), 131 (1, 4, 5), 311 (3, 4, 5), each 1/3.
  f = wheel_forecast(6, 0, {0, 2, 0, 1, 0, 0, 0});
  EXPECT_NEAR(f.hit[1], 2.0 / 3, 1e-12);
  EXPECT_NEAR(f.hit[2], 1.0 / 3, 1e-12);
  EXPECT_NEAR(f.hit[3], 1.0 / 3, 1e-12);
  EXPECT_NEAR(f.hit[4], 2.0 / 3, 1e-12);
  EXPECT_NEAR(f.hit[5], 1, 1e-12);
  EXPECT_NEAR(f.hit[0], 0, 1e-12);
  // Nothing left: no stop.
  f = wheel_forecast(6, 2, {});
  for (int sg = 0; sg < 6; ++sg) EXPECT_EQ(f.visits[sg], 0);
  EXPECT_THROW(wheel_forecast(6, 6, {}), std::invalid_argument);
  EXPECT_THROW(wheel_forecast(7, 0, {}), std::invalid_argument);
  // The start of a Wheel of Fortune game: 19 wheel tiles (eleven 1, five 2, three 3), pig on
  // fortuna (segment 0). Expected stops sum to 19.
  Rules r;
  r.tileset = "wheel-of-fortune";
  const State s(Game::get(r), 1);
  f = wheel_forecast(s);
  const WheelForecast g = wheel_forecast(6, 0, {0, 11, 5, 3, 0, 0, 0});
  double total = 0;
  for (int sg = 0; sg < 6; ++sg) {
    total += f.visits[sg];
    EXPECT_DOUBLE_EQ(f.visits[sg], g.visits[sg]);
    EXPECT_GT(f.hit[sg], 0.9);  // 19 moves of the pig: every segment is very likely reached
    EXPECT_LE(f.hit[sg], 1.0);
  }
  EXPECT_NEAR(total, 19, 1e-9);
}

// Wheel of Fortune position after two turns: A's knight in the open F city north of the board
// (one pennant), B's follower on the fortuna crown space (a one-space segment). The pig has not
// moved (on fortuna); 6 followers in hand each.
Replay wheel_position() {
  nlohmann::json j;
  j["format"] = "carcassonne-record/1";
  j["setup"] = {{"players", {"A", "B"}}, {"tileset", "wheel-of-fortune"}, {"seed", 1}, {"draws", "scripted"}};
  j["turns"] = nlohmann::json::parse(R"([
    {"tile":"F","x":0,"y":-1,"rotation":90,"meeple":"N"},
    {"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:fortuna:0"}])");
  return replay(parse_record(j.dump()));
}

TEST(Eval, ExpectValuesACrownByTheChanceThatThePigStopsThere) {
  const Replay r = wheel_position();
  const State& s = r.state;
  ASSERT_EQ(s.mod<WheelBlock>().pig_segment(), 0);
  ASSERT_EQ(s.mod<WheelBlock>().crown_player(0), 1);
  ASSERT_EQ(s.supply(0), 6);
  ASSERT_EQ(s.supply(1), 6);
  const WheelForecast f = wheel_forecast(s);
  EvalWeights e = EvalWeights::expected();
  e.wheel_events = 0;
  const Values v = evaluate(s, e);
  const double fv = 7.0 * s.bag_size() / s.game().total_tiles();
  // B: 6 followers in hand, and the crown follower: 3 points (alone on a one-space segment) and
  // its return, times the chance that the pig stops on fortuna before the end.
  EXPECT_NEAR(v[1], 6 * fv + f.hit[0] * (3 + fv), 1e-9);
  // The plain heuristic keeps its estimate (1 - (5/6)^k) * 3 + a follower in hand: k = 19
  // wheel tiles left.
  EvalWeights plain;
  EXPECT_NEAR(evaluate(s, plain)[1], 6 * 2.0 * s.bag_size() / s.game().total_tiles() +
                                         (1 - std::pow(5.0 / 6, 19)) * 3 + 2.0 * s.bag_size() / s.game().total_tiles(),
              1e-9);
}

TEST(Eval, WithTheWheelTheFollowerFloorIsFminw) {
  // With the Wheel of Fortune the floor under a follower in hand is fminw (0 in the expect
  // heuristic's defaults), not fmin: B has 6 followers in hand and one on a crown space (its
  // return counts hit[0] times the follower's worth).
  const Replay r = wheel_position();
  const State& s = r.state;
  ASSERT_EQ(s.supply(1), 6);
  const WheelForecast f = wheel_forecast(s);
  EvalWeights e = EvalWeights::expected();
  ASSERT_EQ(e.follower_min_wheel, 0);
  const double fv = 7.0 * s.bag_size() / s.game().total_tiles();
  ASSERT_LT(fv, 7.5);
  EvalWeights a = e, b = e;
  a.follower_min = 7.5;  // no effect with the Wheel
  b.follower_min_wheel = 7.5;
  EXPECT_NEAR(evaluate(s, a)[1], evaluate(s, e)[1], 1e-9);
  EXPECT_NEAR(evaluate(s, b)[1] - evaluate(s, e)[1], (7.5 - fv) * (6 + f.hit[0]), 1e-9);
  EXPECT_EQ(make_player("mcts:iterations=10:fminw=2")->name(), "mcts:iterations=10:fminw=2");
  EXPECT_THROW(make_player("mcts:fminw=-1"), std::invalid_argument);
}

TEST(Eval, ExpectAddsTheWheelEventsTimesTheirExpectedStops) {
  const Replay r = wheel_position();
  const State& s = r.state;
  const WheelForecast f = wheel_forecast(s);
  EvalWeights e = EvalWeights::expected();
  e.wheel_events = 0;
  EvalWeights ev = e;
  ev.wheel_events = 1;
  const Values a = evaluate(s, e), b = evaluate(s, ev);
  // Segments: fortuna 0, taxes 1, famine 2, storm 3, inquisition 4, plague 5. A: one knight in a
  // city with one pennant: taxes 1 x (1 + 1) = 2; storm: 6 in hand each. No monk, no farmer.
  const Feature& city = s.feature(s.followers()[0].slot);
  ASSERT_EQ(city.kind, Kind::City);
  ASSERT_EQ(city.pennants, 1);
  EXPECT_NEAR(b[0] - a[0], f.visits[1] * 2 + f.visits[3] * 6, 1e-9);
  EXPECT_NEAR(b[1] - a[1], f.visits[3] * 6, 1e-9);
  ev.wheel_events = 0.5;
  EXPECT_NEAR(evaluate(s, ev)[0] - a[0], 0.5 * (f.visits[1] * 2 + f.visits[3] * 6), 1e-9);
}

TEST(Eval, ExpectValuesAFortuneTellerByTheOwnTurnsLeft) {
  // A's fortune teller on FT01 south of the start tile.
  const Replay r = test::play(test::scenario(R"([{"tile":"FT01","x":0,"y":1,"rotation":0,"meeple":"C"}])", 2, "",
                                             {"fortune-teller"}));
  const State& s = r.state;
  ASSERT_EQ(s.mod<FortuneTellerBlock>().tellers(0), 1);
  EvalWeights e = EvalWeights::expected();
  e.tent = 0;
  EvalWeights t = e;
  t.tent = 1.5;
  // 1.5 points per own turn left: bag / 2 players turns.
  EXPECT_NEAR(evaluate(s, t)[0] - evaluate(s, e)[0], 1.5 * s.bag_size() / 2, 1e-9);
  EXPECT_NEAR(evaluate(s, t)[1] - evaluate(s, e)[1], 0, 1e-9);
}

TEST(Eval, ExpectValuesFollowersOnTheBoardThatAFestivalTileMayBringBack) {
  // Festival: A's knight on the open M city (one open edge), B's farmer on the E field south of
  // the start tile; all ten festival tiles still in the bag.
  const Replay r = test::play(test::scenario(R"([
    {"tile":"M","x":0,"y":-1,"rotation":90,"meeple":"E"},
    {"tile":"E","x":0,"y":1,"rotation":180,"meeple":"Nw"}])", 2, "", {"festival"}));
  const State& s = r.state;
  ASSERT_EQ(s.num_followers(), 2);
  int fest_left = 0;
  for (int t = 0; t < s.game().num_types(); ++t)
    if (s.game().type(t).festival) fest_left += s.bag_count(t);
  ASSERT_EQ(fest_left, 10);
  EvalWeights e = EvalWeights::expected();
  e.festival = 0;
  EvalWeights f = e;
  f.festival = 0.5;
  const double fv = 7.0 * s.bag_size() / s.game().total_tiles();
  // Each player draws about 10 / 2 = 5 festival tiles, more than its followers on the board, so
  // each follower keeps 0.5 x the part of a follower in hand that the heuristic does not already
  // give back: the knight 1 - q (q = 0.65: its city completes), the farmer all of it.
  const Values a = evaluate(s, e), b = evaluate(s, f);
  EXPECT_NEAR(b[0] - a[0], 0.5 * fv * (1 - 0.65), 1e-9);
  EXPECT_NEAR(b[1] - a[1], 0.5 * fv, 1e-9);
  const Values fr = festival_returns(s, f, fv);
  EXPECT_NEAR(fr[0], 0.5 * fv * (1 - 0.65), 1e-9);
  EXPECT_NEAR(fr[1], 0.5 * fv, 1e-9);
  // Nothing without festival tiles, nor with the plain heuristic.
  const Replay base = test::play(test::scenario(R"([{"tile":"E","x":0,"y":1,"rotation":180,"meeple":"Nw"}])"));
  EXPECT_NEAR(evaluate(base.state, f)[0], evaluate(base.state, e)[0], 1e-9);
  EvalWeights plain;
  EvalWeights plain_f = plain;
  plain_f.festival = 0.5;
  EXPECT_NEAR(evaluate(s, plain_f)[1], evaluate(s, plain)[1], 1e-9);
}

TEST(Eval, AFollowerInHandIsWorthAtLeastTheFloorWhileTurnsAreLeft) {
  // A's knight on the open D + M city (1 open edge), B's monk on a monastery with 7 neighbours
  // missing; 69 of 71 tiles in the bag. fmin sets a floor under the worth of a follower in hand,
  // fmin * min(1, bag / players), which also counts in a follower's expected return.
  const Replay r = test::play(test::scenario(R"([
    {"tile":"M","x":0,"y":-1,"rotation":90,"meeple":"E"},
    {"tile":"B","x":0,"y":1,"rotation":0,"meeple":"C"}])"));
  const State& s = r.state;
  ASSERT_EQ(s.bag_size(), 69);
  EvalWeights e = EvalWeights::expected();
  e.follower_min = 0;
  const double fv = 7.0 * 69 / 71;  // 6.80: above a floor of 5, so fmin=5 changes nothing yet
  EvalWeights f = e;
  f.follower_min = 5;
  EXPECT_NEAR(evaluate(s, f)[0], evaluate(s, e)[0], 1e-9);
  EXPECT_NEAR(evaluate(s, f)[1], evaluate(s, e)[1], 1e-9);
  // A floor of 7.5 is above 6.80: each of the 6 followers in hand gains 7.5 - fv, the knight's
  // return (chance q = 0.65) q times that, the monk's g^7 (g = 69 / 84) times that.
  f.follower_min = 7.5;
  const double d = 7.5 - fv, q = 0.65, g = 69.0 / 84;
  EXPECT_NEAR(evaluate(s, f)[0] - evaluate(s, e)[0], d * (6 + q), 1e-9);
  EXPECT_NEAR(evaluate(s, f)[1] - evaluate(s, e)[1], d * (6 + std::pow(g, 7)), 1e-9);
  // With one tile left for two players the floor is halved (the last turn may be the other
  // player's): fmin=5 and fmin=10 give each follower 2.5 - 7/71 and 5 - 7/71 more, in the same
  // proportion for every player (K = followers in hand plus the expected returns).
  State late(Game::get(Rules{}), 12);
  Rng rng(3);
  std::vector<Move> moves;
  while (!late.is_terminal() && !(late.bag_size() == 1 && !late.is_chance())) {
    if (late.is_chance()) {
      late.draw_random();
      continue;
    }
    late.legal_moves(moves);
    late.apply(moves[rng.below(uint32_t(moves.size()))]);
  }
  ASSERT_EQ(late.bag_size(), 1);
  EvalWeights f5 = e, f10 = e;
  f5.follower_min = 5;
  f10.follower_min = 10;
  const Values v0 = evaluate(late, e), v5 = evaluate(late, f5), v10 = evaluate(late, f10);
  const double w = 7.0 / 71;
  for (int p = 0; p < 2; ++p) {
    const double k = (v5[p] - v0[p]) / (2.5 - w);
    EXPECT_GT(k, late.supply(p) - 1e-9) << p;
    EXPECT_NEAR(v10[p] - v0[p], k * (5 - w), 1e-9) << p;
  }
  // No tile left: a follower in hand is worth nothing, the value is the score.
  State end = random_position(Game::get(Rules{}), 9, 1000);
  ASSERT_TRUE(end.is_terminal());
  EXPECT_DOUBLE_EQ(evaluate(end, f5)[0], end.score(0));
  EXPECT_DOUBLE_EQ(evaluate(end, f5)[1], end.score(1));
}

TEST(Eval, ExpectOnAFinishedGameIsItsScore) {
  State s = random_position(Game::get(Rules{}), 9, 1000);
  ASSERT_TRUE(s.is_terminal());
  const Values v = evaluate(s, EvalWeights::expected());
  EXPECT_DOUBLE_EQ(v[0], s.score(0));
  EXPECT_DOUBLE_EQ(v[1], s.score(1));
}

TEST(Stats, WilsonInterval) {
  Interval a = wilson(50, 100);
  EXPECT_NEAR(a.lo, 0.403832, 1e-6);
  EXPECT_NEAR(a.hi, 0.596168, 1e-6);
  a = wilson(95, 100);
  EXPECT_NEAR(a.lo, 0.888250, 1e-6);
  EXPECT_NEAR(a.hi, 0.978456, 1e-6);
  a = wilson(10.5, 20);  // a tie counts half
  EXPECT_NEAR(a.lo, 0.320480, 1e-6);
  EXPECT_NEAR(a.hi, 0.721463, 1e-6);
  a = wilson(0, 0);
  EXPECT_EQ(a.lo, 0);
  EXPECT_EQ(a.hi, 1);
  a = wilson(20, 20);
  EXPECT_DOUBLE_EQ(a.hi, 1.0);
  EXPECT_GT(a.lo, 0.8);
}

TEST(Stats, Elo) {
  EXPECT_DOUBLE_EQ(elo_from_fraction(0.5), 0);
  EXPECT_NEAR(elo_from_fraction(0.75), 190.8485, 1e-3);
  EXPECT_NEAR(elo_from_fraction(0.25), -190.8485, 1e-3);
  EXPECT_NEAR(elo_from_fraction(1.0), 1199.826, 1e-3);  // clamped
  const EloEstimate e = elo_estimate(150, 200);
  EXPECT_NEAR(e.elo, 190.8485, 1e-3);
  EXPECT_NEAR(e.lo, 135.4829, 1e-3);
  EXPECT_NEAR(e.hi, 246.2141, 1e-3);
}

TEST(Stats, BradleyTerryOnFixedResults) {
  const double k = 400 / std::log(10.0);
  // Two players, 30 of 40: the Elo difference of the fraction, 400 log10(3); the standard error of
  // the log-odds is 1 / sqrt(n p (1 - p)).
  auto r = bradley_terry(2, {{0, 1, 30, 40}}, 1, 1000, 0);
  EXPECT_NEAR(r[0].elo, 1000 + 400 * std::log10(3.0), 1e-6);
  EXPECT_NEAR(r[0].hi - r[0].elo, kZ95 * k / std::sqrt(40 * 0.75 * 0.25), 1e-6);
  EXPECT_NEAR(r[0].elo - r[0].lo, kZ95 * k / std::sqrt(40 * 0.75 * 0.25), 1e-6);
  EXPECT_DOUBLE_EQ(r[1].elo, 1000);
  EXPECT_DOUBLE_EQ(r[0].games, 40);
  // A chain a > b > c, 3:1 each, anchor c = 0: b = 400 log10 3, a twice that.
  r = bradley_terry(3, {{0, 1, 30, 40}, {1, 2, 30, 40}}, 2, 0, 0);
  EXPECT_NEAR(r[1].elo, 400 * std::log10(3.0), 1e-6);
  EXPECT_NEAR(r[0].elo, 800 * std::log10(3.0), 1e-6);
  EXPECT_GT(r[0].hi - r[0].lo, r[1].hi - r[1].lo);  // two links away: wider
  // A clean sweep with one virtual tie: 20.5 of 21.
  r = bradley_terry(2, {{1, 0, 20, 20}}, 0, 0);
  EXPECT_NEAR(r[1].elo, 400 * std::log10(20.5 / 0.5), 1e-6);
  // A consistent triangle: a-b 3:1, b-c 3:1, a-c 9:1 gives the same ratings as the chain.
  r = bradley_terry(3, {{0, 1, 300, 400}, {1, 2, 300, 400}, {0, 2, 360, 400}}, 2, 0, 0);
  EXPECT_NEAR(r[1].elo, 400 * std::log10(3.0), 1e-6);
  EXPECT_NEAR(r[0].elo, 800 * std::log10(3.0), 1e-6);
  EXPECT_THROW(bradley_terry(3, {{0, 1, 5, 10}}, 0, 0), std::invalid_argument);   // 2 is not linked
  EXPECT_THROW(bradley_terry(2, {{0, 1, 11, 10}}, 0, 0), std::invalid_argument);  // more wins than games
  EXPECT_THROW(bradley_terry(2, {{0, 2, 1, 10}}, 0, 0), std::invalid_argument);
  EXPECT_THROW(bradley_terry(2, {{0, 1, 1, 10}}, 5, 0), std::invalid_argument);
}

TEST(Stats, TallyCountsTiesHalf) {
  Tally t(2);
  t.add_game({80, 70});
  t.add_game({60, 90});
  t.add_game({75, 75});
  t.add_game({100, 50});
  EXPECT_EQ(t.games(), 4);
  EXPECT_DOUBLE_EQ(t.wins(0), 2.5);
  EXPECT_DOUBLE_EQ(t.wins(1), 1.5);
  EXPECT_DOUBLE_EQ(t.win_rate(0), 0.625);
  EXPECT_DOUBLE_EQ(t.head_to_head(0, 1), 0.625);
  EXPECT_DOUBLE_EQ(t.score(0).mean, 78.75);
  EXPECT_DOUBLE_EQ(t.score_diff(0, 1).mean, 7.5);
  const MeanEstimate d = t.score_diff(0, 1);  // diffs 10, -30, 0, 50
  EXPECT_NEAR(d.sd, std::sqrt((6.25 + 1406.25 + 56.25 + 1806.25) / 3), 1e-9);
  EXPECT_NEAR(t.elo(0, 1).elo, elo_from_fraction(0.625), 1e-9);
  Tally three(3);
  three.add_game({10, 10, 10});
  EXPECT_NEAR(three.wins(2), 1.0 / 3, 1e-12);
}

}  // namespace
}  // namespace carc::ai

namespace {

// Puts all prior weight on move `k` of the root position (turn `turn`) and values every leaf 0.5.
class PeakedEvaluator : public carc::ai::Evaluator {
 public:
  PeakedEvaluator(int turn, int k) : turn_(turn), k_(k) {}
  void evaluate(const std::vector<const carc::State*>& states, std::vector<std::vector<double>>& priors,
                std::vector<std::vector<double>>& values) override {
    ++calls;
    leaves += int(states.size());
    for (size_t i = 0; i < states.size(); ++i) {
      const carc::State& s = *states[i];
      values[i].assign(size_t(s.num_players()), 0.5);
      if (s.is_chance() || s.turn() != turn_) continue;
      priors[i].assign(size_t(s.count_legal_moves()), 1e-3);
      priors[i][size_t(k_)] = 1;
    }
  }
  int calls = 0, leaves = 0;

 private:
  int turn_, k_;
};

}  // namespace

TEST(Mcts, EvaluatorPriorsSteerTheSearchInBatches) {
  carc::State s(carc::Game::get(carc::Rules{}), 5);
  while (s.is_chance()) s.draw_random();
  std::vector<carc::Move> moves;
  s.legal_moves(moves);
  ASSERT_GT(moves.size(), 4u);
  carc::ai::MctsConfig cfg;
  cfg.iterations = 64;
  cfg.batch = 16;
  auto ev = std::make_shared<PeakedEvaluator>(s.turn(), 3);
  cfg.evaluator = ev;
  carc::ai::MctsPlayer p(cfg);
  EXPECT_EQ(p.choose(s), moves[3]);
  EXPECT_EQ(ev->calls, 4);  // 64 leaves in batches of 16
  EXPECT_EQ(ev->leaves, 64);
  // Deterministic for a seed.
  carc::ai::MctsPlayer q(cfg);
  EXPECT_EQ(q.choose(s), moves[3]);
}
