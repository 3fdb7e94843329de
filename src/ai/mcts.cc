#include "mcts.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <thread>

#include "spec.h"

namespace carc::ai {

namespace {

using Clock = std::chrono::steady_clock;

// Early stop with a time limit: the iterations left are estimated as this factor times the rate
// so far times the time left (the rate varies a little as the tree grows).
constexpr double kEarlyStopMargin = 1.25;

// Tree node. Children of an expanded node are contiguous: first .. first + n - 1. A decision
// node has one child per legal move (legal_moves order); a chance node one per tile type.
struct Node {
  uint32_t first = 0;   // 0: not expanded (the root is node 0, so no child is ever 0)
  uint16_t n = 0;
  int8_t player = -1;   // who chose the move leading here (-1 below a chance node)
  uint8_t chance : 1 = 0;  // this node is a chance node (set on expansion)
  uint8_t full : 1 = 0;    // every child has been visited (select() then skips its scan for one)
  uint8_t primed : 1 = 0;  // its children got the tree prior's virtual visits (tprior)
  uint32_t visits = 0;
  float value = 0;      // summed reward of `player`
};

// Per-player reward of a finished (or cut) rollout, and the raw win share and margin.
struct Outcome {
  double reward[kMaxPlayers];
  double win[kMaxPlayers];
  double margin[kMaxPlayers];
};

}  // namespace

void soft_win_shares(const double* v, int np, double sd, double* out) {
  double sum = 0;
  for (int p = 0; p < np; ++p) {
    double w = 1;
    for (int q = 0; q < np; ++q)
      if (q != p) w *= 0.5 * std::erfc(-(v[p] - v[q]) / (sd * std::sqrt(2.0)));
    out[p] = w;
    sum += w;
  }
  for (int p = 0; p < np; ++p) out[p] = sum > 0 ? out[p] / sum : 1.0 / np;
}

int chance_widen_draw(int drawn, const uint32_t* visits, const int* copies, int n, double allowed, Rng& rng) {
  if (drawn < 0 || drawn >= n || visits[drawn] > 0) return drawn;
  int open = 0;
  uint32_t total = 0;
  for (int i = 0; i < n; ++i)
    if (visits[i] > 0) ++open, total += uint32_t(std::max(0, copies[i]));
  if (double(open) < allowed || total == 0) return drawn;
  uint32_t r = rng.below(total);
  for (int i = 0; i < n; ++i) {
    if (visits[i] == 0 || copies[i] <= 0) continue;
    if (r < uint32_t(copies[i])) return i;
    r -= uint32_t(copies[i]);
  }
  return drawn;  // unreachable: r < total
}

namespace {

// `tiles_left`: the tiles still in the bag when the rollout was cut (0 at the game's end).
Outcome outcome_of(const Values& v, int np, const MctsConfig& cfg, int tiles_left = 0) {
  Outcome o{};
  if (cfg.win_sd > 0 && tiles_left > 0) {
    soft_win_shares(v.data(), np, cfg.win_sd * std::sqrt(double(tiles_left)), o.win);
  } else {
    // The leaders share the win (a step function of the values).
    double best = -1e300;
    for (int p = 0; p < np; ++p) best = std::max(best, v[p]);
    int nbest = 0;
    for (int p = 0; p < np; ++p) nbest += v[p] == best;
    for (int p = 0; p < np; ++p) o.win[p] = v[p] == best ? 1.0 / nbest : 0.0;
  }
  for (int p = 0; p < np; ++p) {
    o.margin[p] = margin(v, p, np);
    o.reward[p] = cfg.win_weight * o.win[p] + (1 - cfg.win_weight) * (0.5 + 0.5 * std::tanh(o.margin[p] / cfg.margin_scale));
  }
  return o;
}

// One search tree (one thread of root parallelism).
class Tree {
 public:
  Tree(const State& root, const MctsConfig& cfg, uint64_t seed) : root_(root), cfg_(cfg), rng_(seed), scratch_(root) {
    nodes_.reserve(1 << 18);
    child_move_.reserve(1 << 18);
    child_move_.resize(1);  // the root's (unused): child_move_ follows nodes_ up to kMoveNodes
    nodes_.push_back(Node{});
    moves_.reserve(512);
    path_.reserve(256);
    // The heuristic prior is for rollout search; an Evaluator brings its own priors.
    if (cfg_.prior > 0 && !cfg_.evaluator && !root_.is_chance() && !root_.is_terminal()) add_root_prior();
  }

  // `early`: stop as soon as no other root move can catch the most visited one in the
  // iterations left (see settled()).
  void run(long long iterations, Clock::time_point deadline, bool timed, bool early) {
    if (cfg_.evaluator) return run_evaluated(iterations, deadline, timed);
    const auto start = Clock::now();
    for (long long i = 0; iterations <= 0 || i < iterations; ++i) {
      if ((i & 15) == 0 && ((timed && Clock::now() >= deadline) ||
                            (cfg_.cancel && cfg_.cancel->load(std::memory_order_relaxed))))
        break;
      if (early && (i & 63) == 0 && i > 0 && settled(iterations_left(i, iterations, start, deadline, timed)))
        break;
      iterate();
      ++done_;
    }
  }

  // An upper bound on the iterations this tree still runs: exact for an iteration budget; for a
  // time limit, the rate so far times the time left, with a margin of kEarlyStopMargin.
  static long long iterations_left(long long i, long long iterations, Clock::time_point start,
                                   Clock::time_point deadline, bool timed) {
    long long left = iterations > 0 ? iterations - i : (1LL << 62);
    if (timed) {
      const auto now = Clock::now();
      const double spent = std::chrono::duration<double>(now - start).count();
      const double rest = std::chrono::duration<double>(deadline - now).count();
      if (spent > 0) left = std::min(left, (long long)(kEarlyStopMargin * double(i) * std::max(0.0, rest) / spent) + 1);
    }
    return left;
  }

  // True when the most visited root move leads every other by more than `left` visits: each
  // iteration adds one visit to one root move, so no other move can reach it and the search
  // would choose the same move if it went on (with an iteration budget, exactly so).
  bool settled(long long left) const {
    const Node& r = nodes_[0];
    if (!r.first || r.chance) return false;
    uint32_t a = 0, b = 0;
    for (int i = 0; i < r.n; ++i) {
      const uint32_t v = nodes_[r.first + i].visits;
      if (v > a) {
        b = a;
        a = v;
      } else if (v > b) {
        b = v;
      }
    }
    return (long long)(a - b) > left;
  }

  // Progressive bias at the root: every move starts with `prior` virtual visits whose reward
  // reflects its heuristic margin after one move (the greedy player's view) relative to the
  // best move's, so that a small budget is spent on the promising moves first.
  void add_root_prior() {
    expand(0, root_);
    Node& r = nodes_[0];
    if (!r.first || r.chance) return;
    std::vector<double> m;
    const double best = one_move_margins(scratch_, root_, &child_move_[r.first], r.n, m, true);
    prior_ = uint32_t(cfg_.prior);
    prune_festival_root(m);
    for (size_t i = 0; i < m.size(); ++i) {
      Node& c = nodes_[r.first + i];
      c.visits = prior_;
      if (cfg_.prior_mode == 2)
        root_delta_.push_back(prior_delta(m[i], best));  // valued at selection (select_root)
      else
        c.value = float(prior_ * prior_reward(m[i], best));
      nodes_[0].visits += prior_;
    }
  }

  // The margin (by the search's heuristic) of the player to move in `base` one move ahead, for
  // each of the n moves mv, into m; returns the best. Each move is tried on `c`, which holds
  // `base` or a state restore() brings back to it (a copy at the cost of the cells the last try
  // touched); with `resample` each try first redraws the hidden part (the root prior: no margin
  // rests on the real draw order).
  double one_move_margins(State& c, const State& base, const Move* mv, int n, std::vector<double>& m, bool resample) {
    const int me = base.current_player();
    m.resize(size_t(n));
    double best = -1e300;
    for (int i = 0; i < n; ++i) {
      c.restore(base);
      if (resample) c.resample_hidden(rng_);
      c.apply(mv[i]);
      m[size_t(i)] = margin(evaluate_consuming(c, cfg_.eval), me, base.num_players());
      best = std::max(best, m[size_t(i)]);
    }
    return best;
  }

  // The reward of a prior's virtual visits for a move whose heuristic margin one move ahead is
  // m, the best move's being best: 0.5 + 0.5 tanh((m - best) / pscale), so that the best move
  // starts at 0.5; with pmode=1 that is scaled by the best margin's squashed value,
  // (0.5 + 0.5 tanh(best / scale)) * (1 + tanh((m - best) / pscale)), the same at an even
  // position but on the scale of real rewards in a won or lost one (where the relative prior
  // would look worse than any real visit of a winning move and stop the search exploring).
  double prior_reward(double m, double best) const {
    const double rel = std::tanh((m - best) / cfg_.prior_scale);
    if (cfg_.prior_mode == 1) return (0.5 + 0.5 * std::tanh(best / cfg_.margin_scale)) * (1 + rel);
    return 0.5 + 0.5 * rel;
  }
  // pmode=2: a move's virtual reward is the mean real reward of its siblings plus this offset
  // (0 for the best move by the prior, down to -0.5), clamped to [0, 1].
  double prior_delta(double m, double best) const { return 0.5 * std::tanh((m - best) / cfg_.prior_scale); }

  // The tree prior (tprior > 0): a decision node below the root that has been visited tpmin
  // times gives each child tprior virtual visits valued like the root prior (the decider's
  // heuristic margin one move ahead, relative to the best child's), so that from then on its
  // replies are searched in the heuristic's order rather than uniformly. s is the node's
  // (determinized) state, mv its moves.
  void prime(Node& nd, const State& s, const Move* mv) {
    nd.primed = 1;
    if (!prime_base_) prime_base_ = std::make_unique<State>(s), prime_scratch_ = std::make_unique<State>(s);
    *prime_base_ = s;
    *prime_scratch_ = *prime_base_;
    const double best = one_move_margins(*prime_scratch_, *prime_base_, mv, nd.n, prime_m_, false);
    const uint32_t p = uint32_t(cfg_.tree_prior);
    double w = 0, v = 0;  // the decider's mean reward so far (pmode=2)
    for (int i = 0; i < nd.n; ++i) w += nodes_[nd.first + i].value, v += nodes_[nd.first + i].visits;
    const double mean = v > 0 ? w / v : 0.5;
    for (int i = 0; i < nd.n; ++i) {
      Node& c = nodes_[nd.first + i];
      const double r = cfg_.prior_mode == 2 ? std::clamp(mean + prior_delta(prime_m_[size_t(i)], best), 0.0, 1.0)
                                            : prior_reward(prime_m_[size_t(i)], best);
      c.visits += p;
      c.value += float(p * r);
    }
    nd.full = 1;
  }

  // Festival (festival_root_moves = K > 0): at a root that offers take-backs and more than K
  // moves, all but the K best by the prior margins m are left out of the search (never selected).
  void prune_festival_root(const std::vector<double>& m) {
    const size_t k = size_t(std::max(0, cfg_.festival_root_moves));
    if (k == 0 || m.size() <= k || !root_.rules().has(Expansion::Festival)) return;
    const Node& r = nodes_[0];
    bool take_backs = false;
    // (A Plague decision at the root counts too, as it did when one field held both.)
    for (int i = 0; i < r.n; ++i) {
      const MoveExt& e = child_move_[r.first + i].ext;
      take_backs = take_backs || e.takes_back() || e.plague() >= 0;
    }
    if (!take_backs) return;
    std::vector<double> sorted = m;
    std::nth_element(sorted.begin(), sorted.begin() + long(k - 1), sorted.end(), std::greater<double>());
    const double cut = sorted[k - 1];
    pruned_.assign(m.size(), 0);
    size_t kept = 0;  // ties at the cut: the first ones in move order
    for (size_t i = 0; i < m.size(); ++i)
      if (m[i] > cut) ++kept;
    for (size_t i = 0; i < m.size(); ++i) {
      if (m[i] > cut) continue;
      if (m[i] == cut && kept < k) {
        ++kept;
        continue;
      }
      pruned_[i] = 1;
    }
  }

  // Statistics of the root's children (legal_moves order of the root).
  void root_stats(std::vector<MoveEval>& out) const {
    const Node& r = nodes_[0];
    // A chance root (a search asked before the draw) has no moves to report.
    if (!r.first || r.chance || out.size() < r.n) return;
    for (int i = 0; i < r.n; ++i) {
      const Node& c = nodes_[r.first + i];
      out[i].visits += int(c.visits - prior_);
      out[i].win_probability += win_sum_[i];
      out[i].score_diff += margin_sum_[i];
    }
  }
  long long iterations() const { return done_; }
  long long nodes() const { return (long long)nodes_.size(); }

 private:
  void expand(uint32_t id, const State& s) {
    if ((long long)nodes_.size() >= cfg_.max_nodes) return;
    const bool chance = s.is_chance();
    int n;
    if (chance) {
      n = s.game().num_types();
    } else {
      s.legal_moves(moves_);
      if (id != 0) drop_take_backs(moves_);
      n = int(moves_.size());
    }
    if (n == 0 || n > 0xFFFF) return;
    const uint32_t first = uint32_t(nodes_.size());
    const int8_t decider = chance ? int8_t(-1) : int8_t(s.current_player());
    Node child;
    child.player = decider;
    nodes_.resize(nodes_.size() + n, child);
    // The first kMoveNodes nodes (the top of the tree, where descents pass most) keep the move
    // leading to them, so a descent there does not list the legal moves again; the moves at a
    // node depend only on public information (the path's moves and draws), never on what
    // resample_hidden changes. Deeper nodes list them (keeping every node's moves costs more in
    // memory than listing them in large trees).
    if (child_move_.size() == first && nodes_.size() <= kMoveNodes) {
      if (chance)
        child_move_.resize(nodes_.size());
      else
        child_move_.insert(child_move_.end(), moves_.begin(), moves_.end());
    }
    Node& e = nodes_[id];  // resize may move the array
    e.first = first;
    e.n = uint16_t(n);
    e.chance = chance;
    if (id == 0 && !chance) {
      win_sum_.assign(n, 0);
      margin_sum_.assign(n, 0);
    }
  }

  // Festival, with tree_take_back off: below the root, placements that take a follower back are
  // left out (the same placement without it is always legal). Not with an Evaluator, whose
  // priors are given over the full list of moves. Without the Festival there is nothing to drop.
  void drop_take_backs(std::vector<Move>& moves) const {
    if (cfg_.tree_take_back || cfg_.evaluator || !root_.rules().has(Expansion::Festival)) return;
    moves.erase(std::remove_if(moves.begin(), moves.end(),
                               [](const Move& m) { return m.kind == MoveKind::Place && m.ext.takes_back(); }),
                moves.end());
  }

  // Festival, in a rollout: a placement that takes a follower back is kept with probability
  // keep / 65536, else replaced by the same placement without it (when that is legal).
  Move rollout_take_back(const State& s, const Move& m, uint32_t keep) {
    if (m.kind != MoveKind::Place || rng_.below(65536) < keep) return m;
    Move bare = m;
    bare.ext.set_take_back(-1);
    bare.ext.set_take_back_crown(-1);
    return s.check_move(bare).empty() ? bare : m;
  }

  // Picks a tile type with probability count / bag size, using the search's generator.
  int sample_tile(const State& s) {
    uint32_t r = rng_.below(uint32_t(s.bag_size()));
    const int nt = s.game().num_types();
    for (int t = 0; t < nt; ++t) {
      const int c = s.bag_count(t);
      if (r < uint32_t(c)) return t;
      r -= c;
    }
    return -1;
  }

  // A draw at a chance node below the root with chance widening (MctsConfig::chance_widen): the
  // drawn type if it has been visited there or fewer than the allowed number of types have; else a
  // type among the visited ones, in proportion to its copies in the bag.
  int sample_tile_widen(const Node& nd, const State& s) {
    const int t = sample_tile(s);
    if (t < 0 || t >= nd.n || nodes_[nd.first + t].visits > 0) return t;
    const double allowed =
        std::max(1.0, std::floor(cfg_.chance_widen * std::pow(double(nd.visits), cfg_.chance_widen_alpha)));
    widen_visits_.resize(nd.n);
    widen_copies_.resize(nd.n);
    for (int i = 0; i < nd.n; ++i) {
      widen_visits_[size_t(i)] = nodes_[nd.first + i].visits;
      widen_copies_[size_t(i)] = s.bag_count(i);
    }
    return chance_widen_draw(t, widen_visits_.data(), widen_copies_.data(), nd.n, allowed, rng_);
  }

  int select(Node& nd) {
    if (&nd == nodes_.data() && (!root_delta_.empty() || !pruned_.empty())) return select_root(nd);
    // Unvisited children first, from a random offset so that no move order is favoured. (The
    // offset is drawn even when all are visited, so the generator's sequence does not depend
    // on the `full` shortcut; visits never decrease, so a full node stays full.)
    const uint32_t off = rng_.below(nd.n);
    if (!nd.full) {
      for (uint32_t k = 0; k < nd.n; ++k) {
        uint32_t i = off + k;
        if (i >= nd.n) i -= nd.n;
        if (nodes_[nd.first + i].visits == 0) return int(i);
      }
      nd.full = 1;
    }
    const double logn = std::log(double(nd.visits));
    double best = -1e300;
    int bi = 0;
    for (int i = 0; i < nd.n; ++i) {
      const Node& c = nodes_[nd.first + i];
      const double u = c.value / c.visits + cfg_.c * std::sqrt(logn / c.visits);
      if (u > best) best = u, bi = i;
    }
    return bi;
  }

  // Progressive widening (MctsConfig::widen) at a decision node below the root: UCT among the
  // children visited so far while there are max(1, floor(widen * visits^alpha)) of them (or all),
  // else a new child, the best by the decider's heuristic margin one move ahead of up to
  // widen_sample sampled unvisited children (so the tree's replies are at least as good as the
  // rollouts' and improve with visits instead of being tried in random order).
  int select_widen(Node& nd, const State& s, const Move* mv) {
    const double logn = std::log(double(std::max<uint32_t>(1, nd.visits)));
    double best = -1e300;
    int bi = -1;
    uint32_t open = 0;
    for (int i = 0; i < nd.n; ++i) {
      const Node& c = nodes_[nd.first + i];
      if (c.visits == 0) continue;
      ++open;
      const double u = c.value / c.visits + cfg_.c * std::sqrt(logn / c.visits);
      if (u > best) best = u, bi = i;
    }
    const double allowed = std::max(1.0, std::floor(cfg_.widen * std::pow(double(nd.visits), cfg_.widen_alpha)));
    if (open >= nd.n || (bi >= 0 && double(open) >= allowed)) return bi;
    // A new child: sample candidates among the unvisited ones.
    const int k = std::max(1, cfg_.widen_sample);
    cand_.clear();
    for (int t = 0; t < 4 * k && int(cand_.size()) < k; ++t) {
      const uint32_t i = rng_.below(nd.n);
      if (nodes_[nd.first + i].visits == 0 && std::find(cand_.begin(), cand_.end(), i) == cand_.end()) cand_.push_back(i);
    }
    if (cand_.empty()) {  // nearly all visited: the first unvisited from a random offset
      const uint32_t off = rng_.below(nd.n);
      for (uint32_t j = 0; j < nd.n; ++j) {
        uint32_t i = off + j;
        if (i >= nd.n) i -= nd.n;
        if (nodes_[nd.first + i].visits == 0) return int(i);
      }
      return bi;  // unreachable: open < n
    }
    if (cand_.size() == 1) return int(cand_[0]);
    if (!rollout_scratch_) rollout_scratch_ = std::make_unique<State>(s);
    State& c = *rollout_scratch_;
    c = s;  // a full copy, then restores (the rollout copies it again)
    const int me = s.current_player();
    double best_m = -1e300;
    int pick = int(cand_[0]);
    for (size_t j = 0; j < cand_.size(); ++j) {
      if (j > 0) c.restore(s);
      c.apply(mv[cand_[j]]);
      const double mg = margin(evaluate_consuming(c, cfg_.eval), me, s.num_players());
      if (mg > best_m) best_m = mg, pick = int(cand_[j]);
    }
    return pick;
  }

  // UCT at the root when the prior is valued at selection (pmode=2: each move's prior_ virtual
  // visits are worth the mean real reward of the root's moves plus the move's offset,
  // prior_delta, so that the prior ranks the moves on the scale of the rewards the search finds)
  // or when moves are left out (prune_festival_root). Every move has the prior's virtual
  // visits, so there are no unvisited ones.
  int select_root(Node& nd) {
    const bool mean_prior = !root_delta_.empty();
    double mean = 0.5;
    if (mean_prior) {
      double w = 0, v = 0;
      for (int i = 0; i < nd.n; ++i) w += nodes_[nd.first + i].value, v += nodes_[nd.first + i].visits - prior_;
      if (v > 0) mean = w / v;
    }
    const double logn = std::log(double(nd.visits));
    double best = -1e300;
    int bi = 0;
    for (int i = 0; i < nd.n; ++i) {
      if (!pruned_.empty() && pruned_[size_t(i)]) continue;
      const Node& c = nodes_[nd.first + i];
      const double virt = mean_prior ? prior_ * std::clamp(mean + root_delta_[size_t(i)], 0.0, 1.0) : 0.0;
      const double u = (c.value + virt) / c.visits + cfg_.c * std::sqrt(logn / c.visits);
      if (u > best) best = u, bi = i;
    }
    return bi;
  }

  void iterate() {
    State& s = scratch_;
    s.restore(root_);  // a copy of the root, copying only the board cells the last iteration touched
    s.resample_hidden(rng_);
    path_.clear();
    uint32_t id = 0;
    path_.push_back(0);
    int root_child = -1;
    while (!s.is_terminal()) {
      if (nodes_[id].visits == 0 && id != 0) break;  // a new leaf: evaluate by a rollout
      if (!nodes_[id].first) {
        expand(id, s);
        if (!nodes_[id].first) break;
      }
      Node& nd = nodes_[id];
      uint32_t next;
      if (s.is_chance()) {
        if (!nd.chance) break;
        const int t = id != 0 && cfg_.chance_widen > 0 ? sample_tile_widen(nd, s) : sample_tile(s);
        if (t < 0 || t >= nd.n) break;
        s.apply_draw(t);
        next = nd.first + t;
      } else {
        if (nd.chance) break;
        const Move* mv;
        if (nd.first + nd.n <= child_move_.size()) {
          mv = &child_move_[nd.first];
        } else {
          s.legal_moves(moves_);
          if (id != 0) drop_take_backs(moves_);
          if (int(moves_.size()) != nd.n) break;  // defensive: hidden information changed the options
          mv = moves_.data();
        }
        if (id != 0 && cfg_.tree_prior > 0 && !nd.primed && nd.visits >= uint32_t(cfg_.tree_prior_min))
          prime(nd, s, mv);
        const int i = id != 0 && cfg_.widen > 0 ? select_widen(nd, s, mv) : select(nd);
        s.apply(mv[i]);
        if (id == 0) root_child = i;
        next = nd.first + i;
      }
      id = next;
      path_.push_back(id);
    }
    // Rollout: uniformly random moves, draws from the resampled generator.
    int left = cfg_.depth >= 0 ? cfg_.depth : 1 << 30;
    const uint32_t keep = uint32_t(cfg_.rollout_follower * 65536);
    const uint32_t keep_ret = uint32_t(cfg_.rollout_take_back * 65536);
    // While `twin`, rollout_scratch_ equals s: it follows s's moves and draws, so that trying a
    // move's candidates needs restores only, not a full copy of s per move (about 25% more
    // default iterations per second, docs/performance.md "Session 11").
    bool twin = false;
    while (!s.is_terminal() && left > 0) {
      if (s.is_chance()) {
        s.draw_random();
        if (twin) rollout_scratch_->draw_random();  // equal states draw equal tiles
        continue;
      }
      const int best_of = rollout_sample_count(cfg_, s);
      if (best_of > 1) {
        // The best of K sampled moves by the heuristic after it (for the player to move).
        const int me = s.current_player();
        Move best = s.sample_move(rng_);
        double best_m = -1e300;
        if (!rollout_scratch_) rollout_scratch_ = std::make_unique<State>(s), twin = true;
        State& c = *rollout_scratch_;
        if (!twin) c = s;  // one full copy per rollout, then restores
        for (int k = 0; k < best_of; ++k) {
          const Move m = k == 0 ? best : s.sample_move(rng_);
          if (k > 0) c.restore(s);
          c.apply(m);
          const double mg = margin(evaluate_consuming(c, cfg_.eval), me, s.num_players());
          if (mg > best_m) best_m = mg, best = m;
        }
        c.restore(s);
        c.apply(best);
        s.apply(best);
        twin = true;
        assert(c == s);
        --left;
        continue;
      }
      twin = false;
      if (keep >= 65536) {
        // Uniform over the legal moves without listing them (the playout hot path).
        Move m = s.sample_move(rng_);
        if (m.ext.takes_back() && keep_ret < 65536) m = rollout_take_back(s, m, keep_ret);
        s.apply(m);
        --left;
        continue;
      }
      s.legal_moves(moves_);
      Move m = moves_[rng_.below(uint32_t(moves_.size()))];
      if (m.deploys() && rng_.below(65536) >= keep) {
        // The same placement without the follower, when that is legal (it always is in the base game).
        Move bare = m;
        bare.meeple = -1;
        bare.ext.set_crown(-1);
        if (std::find(moves_.begin(), moves_.end(), bare) != moves_.end()) m = bare;
      }
      if (m.ext.takes_back() && keep_ret < 65536) m = rollout_take_back(s, m, keep_ret);
      s.apply(m);
      --left;
    }
    const int tiles_left = s.is_terminal() ? 0 : s.bag_size();
    const Values v = evaluate_consuming(s, cfg_.eval);
    const Outcome o = outcome_of(v, s.num_players(), cfg_, tiles_left);
    for (uint32_t n : path_) {
      Node& nd = nodes_[n];
      ++nd.visits;
      if (nd.player >= 0) nd.value += float(o.reward[nd.player]);
    }
    if (root_child >= 0) {
      const int p = root_.current_player();
      win_sum_[root_child] += o.win[p];
      margin_sum_[root_child] += o.margin[p];
    }
  }

  // --- AlphaZero-style search with an Evaluator (MctsConfig::evaluator) ---
  // Leaves are gathered in batches: each descent adds a virtual visit to its path (lowering the
  // mean reward there, so the next descent of the batch tends elsewhere); one evaluator call
  // values the batch; the backup adds the rewards.
  void run_evaluated(long long iterations, Clock::time_point deadline, bool timed) {
    const int B = std::max(1, cfg_.batch);
    std::vector<State> leaves;
    std::vector<std::vector<uint32_t>> paths;
    std::vector<int> root_children;
    for (long long i = 0; iterations <= 0 || i < iterations;) {
      // Checked once per batch (MctsConfig::batch iterations, 8 by default).
      if ((timed && Clock::now() >= deadline) || (cfg_.cancel && cfg_.cancel->load(std::memory_order_relaxed))) break;
      const int nb = int(iterations > 0 ? std::min<long long>(B, iterations - i) : B);
      leaves.clear();
      paths.clear();
      root_children.clear();
      for (int b = 0; b < nb; ++b) {
        State s = root_;
        s.resample_hidden(rng_);
        std::vector<uint32_t> path{0};
        uint32_t id = 0;
        int root_child = -1;
        while (!s.is_terminal() && nodes_[id].first) {
          const Node& nd = nodes_[id];
          if (s.is_chance() != bool(nd.chance)) break;
          uint32_t next;
          if (s.is_chance()) {
            const int t = sample_tile(s);
            if (t < 0 || t >= nd.n) break;
            s.apply_draw(t);
            next = nd.first + uint32_t(t);
          } else {
            s.legal_moves(moves_);
            if (int(moves_.size()) != nd.n) break;
            const int c = select_puct(nd);
            s.apply(moves_[size_t(c)]);
            if (id == 0) root_child = c;
            next = nd.first + uint32_t(c);
          }
          id = next;
          path.push_back(id);
        }
        for (uint32_t n : path) ++nodes_[n].visits;  // virtual visit (the backup adds the reward)
        leaves.push_back(std::move(s));
        paths.push_back(std::move(path));
        root_children.push_back(root_child);
      }
      std::vector<const State*> ask;
      std::vector<int> slot(leaves.size(), -1);
      for (size_t b = 0; b < leaves.size(); ++b)
        if (!leaves[b].is_terminal()) slot[b] = int(ask.size()), ask.push_back(&leaves[b]);
      std::vector<std::vector<double>> priors(ask.size()), values(ask.size());
      if (!ask.empty()) cfg_.evaluator->evaluate(ask, priors, values);
      for (size_t b = 0; b < leaves.size(); ++b) {
        const State& s = leaves[b];
        const int np = s.num_players();
        double reward[kMaxPlayers] = {}, win[kMaxPlayers] = {}, mg[kMaxPlayers] = {};
        if (slot[b] < 0) {
          State end = s;
          const Outcome o = outcome_of(evaluate_consuming(end, cfg_.eval), np, cfg_);
          for (int p = 0; p < np; ++p) reward[p] = o.reward[p], win[p] = o.win[p], mg[p] = o.margin[p];
        } else {
          const std::vector<double>& v = values[size_t(slot[b])];
          for (int p = 0; p < np; ++p)
            win[p] = reward[p] = p < int(v.size()) ? std::clamp(v[size_t(p)], 0.0, 1.0) : 0.5;
          const uint32_t leaf = paths[b].back();
          if (!nodes_[leaf].first) {
            expand(leaf, s);
            set_priors(leaf, s.is_chance() ? std::vector<double>{} : priors[size_t(slot[b])]);
          }
        }
        for (uint32_t n : paths[b]) {
          Node& nd = nodes_[n];
          if (nd.player >= 0) nd.value += float(reward[nd.player]);
        }
        if (root_children[b] >= 0) {
          const int p = root_.current_player();
          win_sum_[size_t(root_children[b])] += win[p];
          margin_sum_[size_t(root_children[b])] += mg[p];
        }
      }
      i += nb;
      done_ += nb;
    }
  }

  void set_priors(uint32_t id, const std::vector<double>& w) {
    const Node& nd = nodes_[id];
    if (!nd.first) return;
    if (prior_w_.size() < nodes_.size()) prior_w_.resize(nodes_.size(), 0);
    double sum = 0;
    const bool ok = int(w.size()) == nd.n;
    if (ok)
      for (double x : w) sum += std::max(0.0, x);
    for (int i = 0; i < nd.n; ++i)
      prior_w_[nd.first + uint32_t(i)] = float(ok && sum > 0 ? std::max(0.0, w[size_t(i)]) / sum : 1.0 / nd.n);
  }

  int select_puct(const Node& nd) const {
    const double sq = std::sqrt(double(std::max<uint32_t>(1, nd.visits)));
    double best = -1e300;
    int bi = 0;
    for (int i = 0; i < nd.n; ++i) {
      const uint32_t id = nd.first + uint32_t(i);
      const Node& c = nodes_[id];
      const double q = c.visits ? c.value / c.visits : 0.5;
      const double p = id < prior_w_.size() ? prior_w_[id] : 1.0 / nd.n;
      const double u = q + cfg_.puct * p * sq / (1.0 + c.visits);
      if (u > best) best = u, bi = i;
    }
    return bi;
  }

  std::vector<float> prior_w_;  // evaluator priors per node (run_evaluated only)

  const State& root_;
  const MctsConfig& cfg_;
  Rng rng_;
  State scratch_;  // the iteration's state (restored from root_)
  std::vector<Node> nodes_;
  std::vector<Move> child_move_;  // per node up to kMoveNodes: the move leading to it (decision nodes' children)
  static constexpr size_t kMoveNodes = size_t(1) << 18;
  std::vector<Move> moves_;
  std::vector<uint32_t> path_;
  std::vector<double> win_sum_, margin_sum_;
  long long done_ = 0;
  uint32_t prior_ = 0;
  // Made on first use (most searches need none): rk > 1 tries a rollout's candidate moves on
  // rollout_scratch_; prime() copies a node's state to prime_base_ and tries its moves on
  // prime_scratch_.
  std::unique_ptr<State> rollout_scratch_, prime_base_, prime_scratch_;
  std::vector<double> prime_m_;
  std::vector<double> root_delta_;  // pmode=2: per root move, prior_delta
  std::vector<uint32_t> cand_;  // select_widen's candidates
  std::vector<uint32_t> widen_visits_;  // sample_tile_widen's children's visits
  std::vector<int> widen_copies_;       // and their types' copies in the bag
  std::vector<char> pruned_;  // per root child: left out by prune_festival_root
};

uint64_t mix(uint64_t a, uint64_t b) {
  Rng r(a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull));
  return r.next();
}

}  // namespace

int rollout_sample_count(const MctsConfig& cfg, const State& s) {
  int k = cfg.rollout_best_of;
  if (cfg.rollout_festival_best_of > k && s.rules().has(Expansion::Festival) && s.phase() == Phase::Place) {
    const int t = s.current_tile();
    if (t >= 0 && s.game().type(t).festival) k = cfg.rollout_festival_best_of;
  }
  return k;
}

MctsConfig mcts_config_from(const std::vector<std::pair<std::string, std::string>>& params, uint64_t seed) {
  MctsConfig c;
  c.seed = seed;
  // A level first, so that explicit parameters override it wherever they appear.
  for (const auto& [k, v] : params) {
    if (k != "level") continue;
    c.level = v;
    if (v == "easy") {
      c.iterations = 300;
      c.prior = 0;  // no heuristic prior: about greedy's strength (docs/ai.md, "Levels")
      // ... and the rollouts and heuristic it was calibrated with before session 10's defaults.
      const MctsConfig old = mcts_speed_config();
      c.rollout_best_of = old.rollout_best_of;
      c.eval.field_merge = old.eval.field_merge;
      c.eval.dead_cells = old.eval.dead_cells;
      c.eval.scarce_cells = old.eval.scarce_cells;
    } else if (v == "medium") {
      c.iterations = 3000;
    } else if (v == "hard") {
      c.iterations = 30000;
    } else if (v == "expert") {
      // The whole machine for a fixed time per move, without the root prior, which caps large
      // budgets (docs/ai.md, "Levels" and "Session 13"); the server gives it its AI thread cap.
      c.time = kExpertSeconds;
      c.prior = 0;
      c.threads = int(std::clamp(std::thread::hardware_concurrency(), 1u, unsigned(kExpertMaxThreads)));
    } else {
      throw std::invalid_argument("mcts: unknown level '" + v + "' (allowed: easy, medium, hard, expert)");
    }
  }
  bool limited = c.iterations > 0 || c.time > 0;
  for (const auto& [k, v] : params) {
    try {
      if (k == "level") {
      } else if (k == "time") {
        c.time = parse_seconds(v);
        limited = true;
      } else if (k == "iterations" || k == "iter") {
        c.iterations = parse_count(v);
        limited = true;
      } else if (k == "threads") {
        c.threads = int(parse_count(v));
        if (c.threads < 1 || c.threads > 256) throw std::invalid_argument("threads must be 1..256");
      } else if (k == "c") {
        c.c = parse_real_in(v, "c", 0, kMaxSpecWeight);
      } else if (k == "depth") {
        if (v != "end" && parse_count(v) > kMaxSpecSmallInt)
          throw std::invalid_argument("depth must be 0.." + std::to_string(kMaxSpecSmallInt) + " or end");
        c.depth = v == "end" ? -1 : int(parse_count(v));
      } else if (k == "rf") {
        c.rollout_follower = parse_real_in(v, "rf", 0, 1);
      } else if (k == "rk") {
        c.rollout_best_of = int(parse_count(v));
        if (c.rollout_best_of < 1 || c.rollout_best_of > 1000) throw std::invalid_argument("rk must be 1..1000");
      } else if (k == "rkf") {
        const long long k2 = parse_count(v);
        if (k2 < 1 || k2 > 1000) throw std::invalid_argument("rkf must be 1..1000");
        c.rollout_festival_best_of = int(k2);
      } else if (k == "fk") {
        const long long k2 = parse_count(v);
        if (k2 > 10000) throw std::invalid_argument("fk must be 0..10000");
        c.festival_root_moves = int(k2);
      } else if (k == "rr") {
        c.rollout_take_back = parse_real_in(v, "rr", 0, 1);
      } else if (k == "early") {
        if (v != "0" && v != "1") throw std::invalid_argument("early must be 0 or 1");
        c.early_stop = v == "1";
      } else if (k == "tb") {
        if (v != "0" && v != "1") throw std::invalid_argument("tb must be 0 or 1");
        c.tree_take_back = v == "1";
      } else if (k == "prior") {
        const long long p = parse_count(v);
        if (p > kMaxSpecSmallInt) throw std::invalid_argument("prior must be 0.." + std::to_string(kMaxSpecSmallInt));
        c.prior = int(p);
      } else if (k == "pmode") {
        if (v != "0" && v != "1" && v != "2") throw std::invalid_argument("pmode must be 0, 1 or 2");
        c.prior_mode = v[0] - '0';
      } else if (k == "tprior") {
        const long long p = parse_count(v);
        if (p > kMaxSpecSmallInt) throw std::invalid_argument("tprior must be 0.." + std::to_string(kMaxSpecSmallInt));
        c.tree_prior = int(p);
      } else if (k == "tpmin") {
        const long long p = parse_count(v);
        if (p < 1 || p > kMaxSpecSmallInt) throw std::invalid_argument("tpmin must be 1.." + std::to_string(kMaxSpecSmallInt));
        c.tree_prior_min = int(p);
      } else if (k == "pw") {
        c.widen = parse_real_in(v, "pw", 0, kMaxSpecWeight);
      } else if (k == "pwa") {
        c.widen_alpha = parse_real_in(v, "pwa", 0, 1);
      } else if (k == "pwk") {
        const long long p = parse_count(v);
        if (p < 1 || p > 1000) throw std::invalid_argument("pwk must be 1..1000");
        c.widen_sample = int(p);
      } else if (k == "cw") {
        c.chance_widen = parse_real_in(v, "cw", 0, kMaxSpecWeight);
      } else if (k == "cwa") {
        c.chance_widen_alpha = parse_real_in(v, "cwa", 0, 1);
      } else if (k == "pscale") {
        c.prior_scale = parse_real_in(v, "pscale", 0, kMaxSpecWeight);
        if (c.prior_scale <= 0) throw std::invalid_argument("pscale must be > 0");
      } else if (k == "win") {
        c.win_weight = parse_real_in(v, "win", 0, 1);
      } else if (k == "wsd") {
        c.win_sd = parse_real_in(v, "wsd", 0, kMaxSpecWeight);
      } else if (k == "scale") {
        c.margin_scale = parse_real_in(v, "scale", 0, kMaxSpecWeight);
        if (c.margin_scale <= 0) throw std::invalid_argument("scale must be > 0");
      } else if (apply_eval_param(k, v, c.eval)) {
      } else if (k == "nodes") {
        c.max_nodes = parse_count(v);
      } else if (k == "seed") {
        c.seed = uint64_t(parse_count(v));
      } else {
        throw std::invalid_argument(
            "unknown parameter '" + k +
            "' (allowed: time, iterations, threads, level, early, c, depth, rf, rk, rkf, fk, rr, tb, prior, pmode, tprior, tpmin, pw, pwa, pwk, cw, cwa, pscale, win, wsd, scale, " + kEvalParamNames +
            ", nodes, seed)");
      }
    } catch (const std::invalid_argument& e) {
      const std::string msg = e.what();
      throw std::invalid_argument(msg.rfind("mcts:", 0) == 0 ? msg : "mcts: " + k + "=" + v + ": " + msg);
    }
  }
  if (!limited) c.time = 1.0;  // default: one second per decision
  return c;
}

MctsPlayer::MctsPlayer(const MctsConfig& cfg) : cfg_(cfg), rng_(cfg.seed ^ 0x6d637473ull) {}

std::string MctsPlayer::name() const {
  std::string s = "mcts";
  // Parameters are named where they differ from the level's (or the defaults).
  const MctsConfig d = cfg_.level.empty() ? MctsConfig{} : mcts_config_from({{"level", cfg_.level}}, 0);
  if (!cfg_.level.empty()) {
    s += ":level=" + cfg_.level;
    if (cfg_.time != d.time && cfg_.time > 0) s += ":time=" + format_seconds(cfg_.time);
    if (cfg_.iterations != d.iterations && cfg_.iterations > 0) s += ":iterations=" + std::to_string(cfg_.iterations);
    if (cfg_.threads != d.threads) s += ":threads=" + std::to_string(cfg_.threads);
  } else {
    if (cfg_.time > 0) s += ":time=" + format_seconds(cfg_.time);
    if (cfg_.iterations > 0) s += ":iterations=" + std::to_string(cfg_.iterations);
    if (cfg_.threads != 1) s += ":threads=" + std::to_string(cfg_.threads);
  }
  const auto num = format_real;
  if (cfg_.depth != d.depth) s += ":depth=" + (cfg_.depth < 0 ? std::string("end") : std::to_string(cfg_.depth));
  if (cfg_.prior != d.prior) s += ":prior=" + std::to_string(cfg_.prior);
  if (cfg_.prior_mode != d.prior_mode) s += ":pmode=" + std::to_string(cfg_.prior_mode);
  if (cfg_.tree_prior != d.tree_prior) s += ":tprior=" + std::to_string(cfg_.tree_prior);
  if (cfg_.tree_prior_min != d.tree_prior_min) s += ":tpmin=" + std::to_string(cfg_.tree_prior_min);
  if (cfg_.widen != d.widen) s += ":pw=" + num(cfg_.widen);
  if (cfg_.widen_alpha != d.widen_alpha) s += ":pwa=" + num(cfg_.widen_alpha);
  if (cfg_.widen_sample != d.widen_sample) s += ":pwk=" + std::to_string(cfg_.widen_sample);
  if (cfg_.chance_widen != d.chance_widen) s += ":cw=" + num(cfg_.chance_widen);
  if (cfg_.chance_widen_alpha != d.chance_widen_alpha) s += ":cwa=" + num(cfg_.chance_widen_alpha);
  if (cfg_.prior_scale != d.prior_scale) s += ":pscale=" + num(cfg_.prior_scale);
  if (cfg_.rollout_follower != d.rollout_follower) s += ":rf=" + num(cfg_.rollout_follower);
  if (cfg_.rollout_take_back != d.rollout_take_back) s += ":rr=" + num(cfg_.rollout_take_back);
  if (cfg_.early_stop != d.early_stop) s += std::string(":early=") + (cfg_.early_stop ? "1" : "0");
  if (cfg_.tree_take_back != d.tree_take_back) s += std::string(":tb=") + (cfg_.tree_take_back ? "1" : "0");
  if (cfg_.rollout_best_of != d.rollout_best_of) s += ":rk=" + std::to_string(cfg_.rollout_best_of);
  if (cfg_.festival_root_moves != d.festival_root_moves) s += ":fk=" + std::to_string(cfg_.festival_root_moves);
  if (cfg_.rollout_festival_best_of != d.rollout_festival_best_of)
    s += ":rkf=" + std::to_string(cfg_.rollout_festival_best_of);
  if (cfg_.c != d.c) s += ":c=" + num(cfg_.c);
  if (cfg_.win_weight != d.win_weight) s += ":win=" + num(cfg_.win_weight);
  if (cfg_.margin_scale != d.margin_scale) s += ":scale=" + num(cfg_.margin_scale);
  if (cfg_.win_sd != d.win_sd) s += ":wsd=" + num(cfg_.win_sd);
  s += eval_param_suffix(cfg_.eval, d.eval);
  return s;
}

std::vector<MoveEval> MctsPlayer::search(const State& s, bool early) {
  const uint64_t base = rng_.next();  // one draw per decision: same seed, same sequence of searches
  const int T = std::max(1, cfg_.threads);
  std::vector<Move> moves;
  s.legal_moves(moves);
  std::vector<MoveEval> out(moves.size());
  for (size_t i = 0; i < moves.size(); ++i) out[i].move = moves[i];
  const auto t0 = Clock::now();
  const bool timed = cfg_.time > 0;
  const auto deadline = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(cfg_.time));
  std::vector<std::unique_ptr<Tree>> trees;
  for (int t = 0; t < T; ++t) trees.push_back(std::make_unique<Tree>(s, cfg_, mix(base, uint64_t(t))));
  auto budget = [&](int t) {
    if (cfg_.iterations <= 0) return 0LL;
    return std::max(1LL, cfg_.iterations * (t + 1) / T - cfg_.iterations * t / T);
  };
  if (T == 1) {
    trees[0]->run(budget(0), deadline, timed, early);
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < T; ++t) pool.emplace_back([&, t] { trees[t]->run(budget(t), deadline, timed, early); });
    for (auto& th : pool) th.join();
  }
  stats_ = SearchStats{};
  for (auto& tr : trees) {
    tr->root_stats(out);
    stats_.iterations += tr->iterations();
    stats_.nodes += tr->nodes();
  }
  stats_.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  for (auto& e : out) {
    if (e.visits > 0) {
      e.win_probability /= e.visits;
      e.score_diff /= e.visits;
    }
  }
  return out;
}

std::vector<MoveEval> MctsPlayer::analyse(const State& s) {
  std::vector<MoveEval> out = search(s, false);  // full statistics for the caller
  std::stable_sort(out.begin(), out.end(), [](const MoveEval& a, const MoveEval& b) {
    if (a.visits != b.visits) return a.visits > b.visits;
    return a.win_probability > b.win_probability;
  });
  return out;
}

Move MctsPlayer::choose(const State& s) {
  if (s.count_legal_moves() == 1) {
    std::vector<Move> moves;
    s.legal_moves(moves);
    rng_.next();  // keep the per-decision sequence independent of this shortcut
    stats_ = SearchStats{};
    return moves[0];
  }
  // Only the choice matters here, so the search may stop once it cannot change (early_stop): with
  // one tree and an iteration budget the move is exactly the full search's; with root-parallel
  // trees, at an iteration budget, the summed visits could differ, so they run in full.
  const bool early = cfg_.early_stop && !cfg_.evaluator && (cfg_.time > 0 || std::max(1, cfg_.threads) == 1);
  std::vector<MoveEval> out = search(s, early);
  size_t best = 0;
  for (size_t i = 1; i < out.size(); ++i) {
    const MoveEval &a = out[i], &b = out[best];
    if (a.visits > b.visits || (a.visits == b.visits && a.score_diff > b.score_diff)) best = i;
  }
  return out[best].move;
}

}  // namespace carc::ai

namespace carc::ai {

MctsConfig mcts_speed_config() {
  MctsConfig c;
  c.rollout_best_of = 1;
  c.eval.field_merge = 0;
  c.eval.dead_cells = 0;  // and without session 18's dead and scarce cells
  c.eval.scarce_cells = 0;
  return c;
}

double mcts_iterations_per_second(const Game* game, const MctsConfig& base, double seconds, int positions) {
  long long iters = 0;
  double sec = 0;
  for (int i = 0; i < positions; ++i) {
    State s(game, 1000 + i);
    while (s.is_chance()) s.draw_random();
    if (s.is_terminal()) continue;
    MctsConfig cfg = base;
    cfg.time = seconds;
    cfg.iterations = 0;
    cfg.seed = uint64_t(i);
    MctsPlayer p(cfg);
    p.analyse(s);
    iters += p.last_stats().iterations;
    sec += p.last_stats().seconds;
  }
  return sec > 0 ? iters / sec : 0;
}

}  // namespace carc::ai
