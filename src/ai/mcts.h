// Information-set Monte-Carlo tree search (see docs/ai.md).
//
// Each iteration works on a copy of the root state whose hidden part (the generator that
// decides future draws, face-down fruit tokens) is replaced by State::resample_hidden, so
// the search never plays with knowledge of the real future. Tile draws are explicit chance
// nodes: the tree samples the drawn tile type from the remaining bag counts with its own
// generator. Decision nodes select by UCT (unvisited moves first); a new leaf is evaluated by
// one random rollout, played to the end or cut after `depth` moves and scored with the
// heuristic of eval.h. The reward mixes winning and the score margin. With threads > 1 the
// search is root-parallel: independent trees whose root statistics are summed.
//
// Deterministic for a given seed, iteration budget and threads (no time limit).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "eval.h"
#include "player.h"

namespace carc::ai {

// A leaf evaluator for AlphaZero-style search (off by default: leaves are valued by rollouts).
// With one, a new leaf is valued by the evaluator instead of a rollout, decision nodes select by
// PUCT with the evaluator's priors, and leaves are gathered in batches of MctsConfig::batch
// (virtual visits keep a batch's paths apart) so that one call values many states.
class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // For each state (never terminal): values[i][p] = expected reward of player p in [0, 1], and
  // for a decision node priors[i] = weights over states[i]->legal_moves() in that order (empty or
  // of another size: uniform; normalised here). Both outputs arrive sized states.size(), empty.
  virtual void evaluate(const std::vector<const State*>& states, std::vector<std::vector<double>>& priors,
                        std::vector<std::vector<double>>& values) = 0;
};

// The win shares of np players whose heuristic values are v when the luck still to come has
// standard deviation sd (points): P(p) proportional to the product over q != p of
// Phi((v_p - v_q) / sd), normalised to sum 1 (MctsConfig::win_sd). sd > 0.
void soft_win_shares(const double* v, int np, double sd, double* out);

// Chance widening's draw (MctsConfig::chance_widen): `drawn` if visits[drawn] > 0 or fewer than
// `allowed` types have visits; else a type with visits, drawn in proportion to its copies (the
// `copies` of each of the n types, the bag's counts). Exposed for tests.
int chance_widen_draw(int drawn, const uint32_t* visits, const int* copies, int n, double allowed, Rng& rng);

// level=expert: seconds per move, and at most this many threads (the machine's cores otherwise).
inline constexpr double kExpertSeconds = 3.0;
inline constexpr int kExpertMaxThreads = 16;

struct MctsConfig {
  double time = 0;              // seconds per decision, 0 = no time limit
  long long iterations = 0;     // iterations per decision (all threads together), 0 = no limit
  int threads = 1;              // root parallelism
  // choose() stops a search once no other root move can catch the most visited one in the
  // iterations left (exact at an iteration budget with one tree; estimated from the rate with a
  // time limit), so the move is the same and answers come sooner. analyse() always runs in full.
  bool early_stop = true;
  double c = 0.5;               // UCT exploration constant (rewards are in [0, 1])
  int depth = 4;                // rollout moves before the heuristic takes over, -1 = to the end
  double rollout_follower = 1;  // rollouts keep a random move's follower with this probability
  // A rollout move is the best by the heuristic of this many sampled moves (1 = uniform random;
  // 3 since session 10: stronger at equal time in every rule set, docs/ai.md).
  int rollout_best_of = 3;
  // Festival: at a festival tile a rollout move is the best by the heuristic of this many sampled
  // moves (1 = as any other tile; with rollout_best_of > 1, the larger of the two).
  int rollout_festival_best_of = 1;
  // Festival: a rollout keeps a random move's take-back of a follower with this probability (else
  // the same placement without it); random take-backs throw away the followers' features.
  double rollout_take_back = 1;
  // Festival: whether decision nodes below the root list take-backs of followers (false: only the
  // root's own decision considers them; the tree and its opponents' replies place without; the
  // default since session 7, docs/ai.md).
  bool tree_take_back = false;
  // Festival: at a root decision that offers take-backs, only the this many best moves by the
  // root prior (the heuristic one move ahead) are searched; 0 = all (needs prior > 0).
  int festival_root_moves = 0;
  int prior = 10;               // root moves start with this many virtual visits valued by the heuristic
  // Tree prior: a decision node below the root, once visited tree_prior_min times, gives each
  // child tree_prior virtual visits valued like the root prior (0 = off).
  int tree_prior = 0;
  int tree_prior_min = 64;
  // Progressive widening below the root (session 13, docs/ai.md; 0 = off): a decision node below
  // the root visited N times considers only max(1, floor(widen * N^widen_alpha)) of its moves,
  // UCT among them; each new one is the best by the decider's heuristic (one move ahead) of
  // widen_sample sampled moves not yet considered. Without it, a node below the root tries its
  // unvisited moves first in random order, so with many moves and few visits per node (every
  // opponent's reply sits under a chance node of ~20 tile types) the tree's replies are random.
  double widen = 0;
  double widen_alpha = 0.5;
  int widen_sample = 3;
  // Progressive widening of chance nodes below the root (session 20, docs/ai.md; 0 = off): a
  // chance node visited N times draws among at most max(1, floor(chance_widen * N^chance_widen_alpha))
  // tile types: a draw of a type not yet visited there beyond that many is replaced by a draw among
  // the visited types, in proportion to their copies in the bag. Fewer outcomes per chance node, so
  // the decision nodes below them (the opponent's replies) get more visits each.
  double chance_widen = 0;
  double chance_widen_alpha = 0.5;
  // How the priors' virtual visits are valued (mcts.cc, prior_reward and select_root):
  // 0 = 0.5 for the best move by the heuristic and less for the others; 1 = the same scaled by
  // the best move's squashed margin; 2 = the mean real reward of the moves plus an offset.
  int prior_mode = 0;
  double prior_scale = 5;       // pmode=0: prior reward = 0.5 + 0.5 tanh((margin - best margin) / prior_scale)
  double win_weight = 0.5;      // reward = w * win + (1 - w) * squashed score margin
  double margin_scale = 20;     // points for which the squashed margin reaches tanh(1)
  // wsd > 0: a rollout cut before the end counts a win as likely as the heuristic lead is against
  // the luck still to come: P(p wins) = prod over q of Phi((v_p - v_q) / (wsd sqrt(tiles left))),
  // normalised (mcts.cc, outcome_of); 0 = the step function (the leader wins).
  double win_sd = 0;
  EvalWeights eval = EvalWeights::expected();  // heuristic at the rollout cut
  long long max_nodes = 4'000'000;  // per tree; beyond it leaves are not expanded
  uint64_t seed = 0;
  std::string level;            // "easy", "medium", "hard" or "" (for the name)
  // Set by the owner to stop a search early (the server stopping): checked every 16
  // iterations; the best move found so far is returned. Not part of the spec.
  const std::atomic<bool>* cancel = nullptr;
  std::shared_ptr<Evaluator> evaluator;  // none: rollouts (see Evaluator)
  int batch = 8;                // leaves per evaluator call
  double puct = 1.5;            // PUCT exploration constant (with an evaluator)
};

// Applies "key=value" parameters of an mcts spec to a config; throws std::invalid_argument.
MctsConfig mcts_config_from(const std::vector<std::pair<std::string, std::string>>& params, uint64_t seed);

// How many sampled moves a rollout compares by the heuristic at decision state s: `rk`
// (rollout_best_of), or at a festival tile in a Festival game the larger of `rk` and `rkf`.
int rollout_sample_count(const MctsConfig& cfg, const State& s);

// Figures of the last search.
struct SearchStats {
  long long iterations = 0;
  long long nodes = 0;
  double seconds = 0;
};

class MctsPlayer : public Player {
 public:
  explicit MctsPlayer(const MctsConfig& cfg);
  std::string name() const override;
  Move choose(const State& s) override;
  std::vector<MoveEval> analyse(const State& s) override;
  const SearchStats& last_stats() const { return stats_; }
  const MctsConfig& config() const { return cfg_; }

 private:
  // Runs the search from s and returns per root move (legal_moves order) the summed statistics.
  // early: the trees may stop once their choice cannot change (choose(), not analyse()).
  std::vector<MoveEval> search(const State& s, bool early);

  MctsConfig cfg_;
  Rng rng_;
  SearchStats stats_;
};

}  // namespace carc::ai

namespace carc::ai {

// MCTS throughput on one core: searches from the opening (first decision) of `positions`
// seeded games of `game`, `seconds` each, with `cfg` (its time and seed are set here). Returns
// iterations per second (for `carcassonne bench` and docs/performance.md).
double mcts_iterations_per_second(const Game* game, const MctsConfig& cfg, double seconds = 0.5, int positions = 4);
// The configuration whose speed `bench` has tracked since session 2: the defaults with uniformly
// random rollout moves (rk=1), no field-merge term and no dead or scarce cells, the defaults before session 10.
MctsConfig mcts_speed_config();

}  // namespace carc::ai
