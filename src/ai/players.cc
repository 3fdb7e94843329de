// The simple players (random, greedy) and the registry of every player.
#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "eval.h"
#include "mcts.h"
#include "player.h"
#include "seeds.h"
#include "spec.h"
#include "star.h"

namespace carc::ai {

namespace {

// Uniform over the legal moves: one State::sample_move per decision with the generator
// Rng(seed ^ kRandomSeatSalt), so a random seat plays exactly as the fast all-random path of
// simulate and play_games (random_playout_seated, seeds.h).
class RandomPlayer : public Player {
 public:
  explicit RandomPlayer(uint64_t seed) : rng_(seed ^ kRandomSeatSalt) {}
  std::string name() const override { return "random"; }
  Move choose(const State& s) override { return s.sample_move(rng_); }

 private:
  Rng rng_;
};

// One-turn lookahead: every legal move is applied to a copy and valued by the heuristic of
// eval.h (scores if the game ended now + followers in hand); the move with the best margin
// over the strongest opponent wins, ties broken at random.
class GreedyPlayer : public Player {
 public:
  GreedyPlayer(uint64_t seed, const EvalWeights& w) : rng_(seed ^ 0x67726565ull), w_(w) {}
  std::string name() const override {
    return "greedy" + eval_param_suffix(w_, EvalWeights{});
  }
  Move choose(const State& s) override {
    std::vector<MoveEval> ev = evaluate_all(s);
    double best = -1e300;
    int nbest = 0;
    Move pick = ev[0].move;
    for (const MoveEval& e : ev) {
      if (e.score_diff > best + 1e-9) {
        best = e.score_diff;
        nbest = 1;
        pick = e.move;
      } else if (e.score_diff > best - 1e-9 && rng_.below(uint32_t(++nbest)) == 0) {
        pick = e.move;  // reservoir sampling over equal moves
      }
    }
    return pick;
  }
  std::vector<MoveEval> analyse(const State& s) override {
    std::vector<MoveEval> ev = evaluate_all(s);
    std::stable_sort(ev.begin(), ev.end(), [](const MoveEval& a, const MoveEval& b) { return a.score_diff > b.score_diff; });
    return ev;
  }

 private:
  std::vector<MoveEval> evaluate_all(const State& s) {
    s.legal_moves(moves_);
    const int me = s.current_player();
    std::vector<MoveEval> ev;
    ev.reserve(moves_.size());
    for (const Move& m : moves_) {
      State c = s;
      c.apply(m);
      const Values v = evaluate_consuming(c, w_);
      const double d = margin(v, me, s.num_players());
      ev.push_back(MoveEval{m, d > 0 ? 1.0 : d < 0 ? 0.0 : 0.5, d, 0});
    }
    return ev;
  }

  Rng rng_;
  EvalWeights w_;
  std::vector<Move> moves_;
};

}  // namespace

const std::vector<PlayerInfo>& player_registry() {
  static const std::vector<PlayerInfo> reg = {
      {"random", "uniform over the legal moves (no parameters)"},
      {"greedy",
       "one-turn lookahead: best margin of (score if the game ended now + followers in hand); "
       "follower=POINTS (default 2) values a follower in hand at the start; eval=expect adds the expected "
       "gains of open features (cq=0.65, mk=15, farm=0.5, grow=0; see docs/ai.md)"},
      {"star",
       "Star2.5-style expectimax (Heyden 2009), a yardstick from the literature: each own move, every tile the next "
       "player may draw, that player's best reply, the heuristic at the leaves; width=8 (own moves searched that deep, "
       "best first by one turn; 0 = all), eval=plain (or expect), seed=N"},
      {"mcts",
       "information-set Monte-Carlo tree search; time=1s | iterations=N (default time=1s), "
       "threads=N (root parallel), level=easy|medium|hard (300 iterations without prior/3000/30000), "
       "early=1 (stop once the choice cannot change; 0 = use the whole budget), c=0.5, "
       "depth=4 (rollout moves before the heuristic, end = to the end of the game), rf=1, rk=3, rkf=1, fk=0, rr=1, tb=0, "
       "prior=10, pscale=5, win=0.5, scale=20, eval=expect (or plain), follower=7, cq=0.65, mk=15, farm=0.5, grow=0.5, "
       "fmin=5, fminw=0, fmerge=0.2, fmergef=0.2 (with the Festival), fmroad=1, wev=1.5, tent=1, fest=0, nodes=4000000, seed=N; weights at most 1000 (docs/ai.md)"},
  };
  return reg;
}

std::unique_ptr<Player> make_player(const std::string& text, uint64_t seed) {
  const Spec spec = parse_spec(text);
  if (spec.name == "random") {
    if (!spec.params.empty()) throw std::invalid_argument("player 'random' takes no parameters (got '" + text + "')");
    return std::make_unique<RandomPlayer>(seed);
  }
  if (spec.name == "greedy") {
    EvalWeights w;
    for (const auto& [k, v] : spec.params) {
      bool known;
      try {
        known = apply_eval_param(k, v, w);
        if (!known && k == "seed") known = true, seed = uint64_t(parse_count(v));
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("greedy: " + k + "=" + v + ": " + e.what());
      }
      if (!known)
        throw std::invalid_argument("greedy: unknown parameter '" + k + "' (allowed: " + std::string(kEvalParamNames) +
                                    ", seed)");
    }
    return std::make_unique<GreedyPlayer>(seed, w);
  }
  if (spec.name == "mcts") return std::make_unique<MctsPlayer>(mcts_config_from(spec.params, seed));
  if (spec.name == "star") return make_star_player(star_config_from(spec.params, seed));
  std::string names;
  for (const auto& p : player_registry()) names += (names.empty() ? "" : ", ") + p.name;
  throw std::invalid_argument("unknown player '" + spec.name + "' (known: " + names + ")");
}

Move choose_move(const State& s, const std::string& spec, uint64_t seed) {
  return make_player(spec, seed)->choose(s);
}

}  // namespace carc::ai
