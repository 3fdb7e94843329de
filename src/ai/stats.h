// Tournament statistics: win shares with Wilson 95% intervals, Elo differences from the score
// fraction, mean scores and score differences. Pure functions, tested on fixed inputs.
#pragma once

#include <string>
#include <vector>

namespace carc::ai {

struct Interval {
  double lo = 0, hi = 0;
};

constexpr double kZ95 = 1.959963984540054;

// Wilson score interval for `successes` out of `n` trials (successes may be fractional: a
// tie counts half). n == 0 gives [0, 1].
Interval wilson(double successes, double n, double z = kZ95);

// Elo difference that makes the expected score fraction p: -400 log10(1/p - 1). p is clamped
// to [kEloClamp, 1 - kEloClamp] so that a clean sweep gives a large finite number (+-1199).
constexpr double kEloClamp = 0.001;
double elo_from_fraction(double p);

// Elo difference of A over B with a 95% interval, from A's score fraction against B over n
// games (ties counted half): the Wilson interval of the fraction mapped through the Elo curve.
struct EloEstimate {
  double elo = 0, lo = 0, hi = 0;
};
EloEstimate elo_estimate(double score, double n);

// Mean with a normal 95% interval (t-free: n is large in tournaments). n < 2: interval = mean.
struct MeanEstimate {
  double mean = 0, sd = 0, lo = 0, hi = 0;
};
MeanEstimate mean_estimate(const std::vector<double>& xs);

// Accumulates the results of games between named players (indices 0..k-1; each game's
// scores are given per player index, whatever seat they had).
class Tally {
 public:
  explicit Tally(int players) : k_(players), wins_(players, 0), scores_(players) {}
  // Win shares: the highest score wins; players tied for it share the win equally.
  void add_game(const std::vector<int>& scores_by_player);
  int games() const { return games_; }
  int players() const { return k_; }
  double wins(int p) const { return wins_[p]; }
  double win_rate(int p) const { return games_ ? wins_[p] / games_ : 0; }
  Interval win_ci(int p) const { return wilson(wins_[p], games_); }
  MeanEstimate score(int p) const { return mean_estimate(scores_[p]); }
  // Per-game score of a minus score of b.
  MeanEstimate score_diff(int a, int b) const;
  // Head-to-head fraction of a over b: games where a scored more count 1, ties half.
  double head_to_head(int a, int b) const;
  EloEstimate elo(int a, int b) const { return elo_estimate(head_to_head(a, b) * games_, games_); }

 private:
  int k_;
  int games_ = 0;
  std::vector<double> wins_;
  std::vector<std::vector<double>> scores_;
};

// Bradley-Terry ratings on the Elo scale from head-to-head results: P(i beats j) =
// 1 / (1 + 10^((elo_j - elo_i) / 400)), fitted by maximum likelihood. Each pair that met gets
// `prior_ties` virtual tied games (default 1) so that a clean sweep gives a finite rating. The
// anchor player's rating is fixed at `anchor_elo`; the others get 95% intervals from the
// observed information (the inverse Hessian of the log-likelihood with the anchor fixed).
// Throws std::invalid_argument for bad indices, negative counts or players not connected to the
// anchor by the matches.
struct PairResult {
  int a = 0, b = 0;
  double score_a = 0;  // a's wins, ties counted half
  double games = 0;
};
struct Rating {
  double elo = 0, lo = 0, hi = 0;
  double games = 0;  // real games played (virtual ties not counted)
};
std::vector<Rating> bradley_terry(int players, const std::vector<PairResult>& results, int anchor, double anchor_elo,
                                  double prior_ties = 1);

}  // namespace carc::ai
