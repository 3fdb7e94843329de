// The star expectimax player (see star.h).
#include "star.h"

#include <algorithm>
#include <stdexcept>

#include "eval.h"
#include "spec.h"

namespace carc::ai {

namespace {

class StarPlayer : public Player {
 public:
  explicit StarPlayer(const StarConfig& cfg)
      : cfg_(cfg), rng_(cfg.seed ^ 0x73746172ull), w_(cfg.expect ? EvalWeights::expected() : EvalWeights{}) {}
  std::string name() const override {
    std::string n = "star";
    if (cfg_.width != StarConfig{}.width) n += ":width=" + std::to_string(cfg_.width);
    if (cfg_.expect) n += ":eval=expect";
    return n;
  }
  Move choose(const State& s) override { return analyse(s).front().move; }

  std::vector<MoveEval> analyse(const State& s) override {
    const int me = s.current_player();
    const int n = s.num_players();
    std::vector<Move> moves;
    s.legal_moves(moves);
    // One turn ahead: every move by the heuristic (this orders the moves for the beam).
    std::vector<MoveEval> ev;
    ev.reserve(moves.size());
    for (const Move& m : moves) {
      State c = s;
      c.apply(m);
      ev.push_back(MoveEval{m, 0.5, margin(evaluate_consuming(c, w_), me, n), 0});
    }
    std::stable_sort(ev.begin(), ev.end(), [](const MoveEval& a, const MoveEval& b) { return a.score_diff > b.score_diff; });
    // Only placements lead to the next player's draw; other decisions (a wheel tile chosen, the
    // Plague) are judged one turn ahead.
    if (s.phase() != Phase::Place && s.phase() != Phase::Chance) return finish(ev);
    const size_t width = cfg_.width <= 0 ? ev.size() : std::min(ev.size(), size_t(cfg_.width));
    // The hidden part (the bag's order) drawn afresh: the search never sees the real one.
    State pub = s;
    pub.resample_hidden(rng_);
    for (size_t i = 0; i < width; ++i) {
      State c = pub;
      c.apply(ev[i].move);
      ev[i].score_diff = expect_over_draws(c, me);
      ev[i].visits = 1;
    }
    std::stable_sort(ev.begin(), ev.begin() + std::ptrdiff_t(width),
                     [](const MoveEval& a, const MoveEval& b) { return a.score_diff > b.score_diff; });
    return finish(ev);
  }

 private:
  std::vector<MoveEval> finish(std::vector<MoveEval> ev) const {
    for (MoveEval& e : ev) e.win_probability = e.score_diff > 0 ? 1.0 : e.score_diff < 0 ? 0.0 : 0.5;
    return ev;
  }

  // The chance node after one of our moves: the next player's draw, each tile type weighted by
  // its count; then that player's best reply by its own margin.
  double expect_over_draws(const State& c, int me) {
    const int n = c.num_players();
    if (!c.is_chance()) return margin(evaluate(c, w_), me, n);  // over, or a decision before any draw
    const auto outcomes = c.chance_outcomes();
    double total = 0, weight = 0;
    for (const auto& [type, count] : outcomes) {
      State d = c;
      d.apply_draw(type);
      while (d.is_chance()) d.draw_random();  // more tiles this turn (Fortune Teller), from the resampled bag
      total += double(count) * reply_value(d, me);
      weight += count;
    }
    return weight > 0 ? total / weight : margin(evaluate(c, w_), me, n);
  }

  // The player to move picks the move best for itself (max-n), valued for `me` at the leaf.
  double reply_value(const State& d, int me) {
    const int n = d.num_players();
    const int p = d.current_player();
    if (p < 0) return margin(evaluate(d, w_), me, n);
    d.legal_moves(reply_);
    double best_for_p = -1e300, value_for_me = 0;
    for (const Move& m : reply_) {
      State e = d;
      e.apply(m);
      const Values v = evaluate_consuming(e, w_);
      const double mine = margin(v, p, n);
      if (mine > best_for_p) {
        best_for_p = mine;
        value_for_me = margin(v, me, n);
      }
    }
    return value_for_me;
  }

  StarConfig cfg_;
  Rng rng_;
  EvalWeights w_;
  std::vector<Move> reply_;
};

}  // namespace

StarConfig star_config_from(const std::vector<std::pair<std::string, std::string>>& params, uint64_t seed) {
  StarConfig cfg;
  cfg.seed = seed;
  for (const auto& [k, v] : params) {
    try {
      if (k == "width") {
        const long long w = parse_count(v);
        if (w > 1000) throw std::invalid_argument("at most 1000 (0 = every move)");
        cfg.width = int(w);
      } else if (k == "eval") {
        if (v != "plain" && v != "expect") throw std::invalid_argument("plain or expect");
        cfg.expect = v == "expect";
      } else if (k == "seed") {
        cfg.seed = uint64_t(parse_count(v));
      } else {
        throw std::invalid_argument("unknown parameter (allowed: width, eval, seed)");
      }
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("star: " + k + "=" + v + ": " + e.what());
    }
  }
  return cfg;
}

std::unique_ptr<Player> make_star_player(const StarConfig& cfg) { return std::make_unique<StarPlayer>(cfg); }

}  // namespace carc::ai
