#include "stats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace carc::ai {

Interval wilson(double s, double n, double z) {
  if (n <= 0) return {0, 1};
  const double p = s / n;
  const double z2 = z * z;
  const double den = 1 + z2 / n;
  const double centre = (p + z2 / (2 * n)) / den;
  const double half = z * std::sqrt(std::max(0.0, p * (1 - p) / n + z2 / (4 * n * n))) / den;
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

double elo_from_fraction(double p) {
  p = std::clamp(p, kEloClamp, 1 - kEloClamp);
  return -400.0 * std::log10(1.0 / p - 1.0);
}

EloEstimate elo_estimate(double score, double n) {
  if (n <= 0) return {0, elo_from_fraction(0), elo_from_fraction(1)};
  const Interval ci = wilson(score, n);
  return {elo_from_fraction(score / n), elo_from_fraction(ci.lo), elo_from_fraction(ci.hi)};
}

MeanEstimate mean_estimate(const std::vector<double>& xs) {
  MeanEstimate m;
  if (xs.empty()) return m;
  double sum = 0;
  for (double x : xs) sum += x;
  m.mean = sum / xs.size();
  if (xs.size() < 2) {
    m.lo = m.hi = m.mean;
    return m;
  }
  double ss = 0;
  for (double x : xs) ss += (x - m.mean) * (x - m.mean);
  m.sd = std::sqrt(ss / (xs.size() - 1));
  const double half = kZ95 * m.sd / std::sqrt(double(xs.size()));
  m.lo = m.mean - half;
  m.hi = m.mean + half;
  return m;
}

void Tally::add_game(const std::vector<int>& sc) {
  ++games_;
  const int best = *std::max_element(sc.begin(), sc.end());
  const int nbest = int(std::count(sc.begin(), sc.end(), best));
  for (int p = 0; p < k_; ++p) {
    if (sc[p] == best) wins_[p] += 1.0 / nbest;
    scores_[p].push_back(sc[p]);
  }
}

MeanEstimate Tally::score_diff(int a, int b) const {
  std::vector<double> d(scores_[a].size());
  for (size_t i = 0; i < d.size(); ++i) d[i] = scores_[a][i] - scores_[b][i];
  return mean_estimate(d);
}

double Tally::head_to_head(int a, int b) const {
  if (!games_) return 0.5;
  double s = 0;
  for (size_t i = 0; i < scores_[a].size(); ++i)
    s += scores_[a][i] > scores_[b][i] ? 1.0 : scores_[a][i] == scores_[b][i] ? 0.5 : 0.0;
  return s / games_;
}

namespace {

// Solves A x = b (A symmetric positive definite, small) by Gaussian elimination with pivoting;
// returns false when A is singular.
bool solve(std::vector<std::vector<double>> a, std::vector<double>& x) {
  const size_t n = a.size();
  for (size_t c = 0; c < n; ++c) {
    size_t piv = c;
    for (size_t r = c + 1; r < n; ++r)
      if (std::fabs(a[r][c]) > std::fabs(a[piv][c])) piv = r;
    if (std::fabs(a[piv][c]) < 1e-12) return false;
    std::swap(a[piv], a[c]);
    std::swap(x[piv], x[c]);
    for (size_t r = 0; r < n; ++r) {
      if (r == c) continue;
      const double f = a[r][c] / a[c][c];
      if (f == 0) continue;
      for (size_t k = c; k < n; ++k) a[r][k] -= f * a[c][k];
      x[r] -= f * x[c];
    }
  }
  for (size_t c = 0; c < n; ++c) x[c] /= a[c][c];
  return true;
}

}  // namespace

std::vector<Rating> bradley_terry(int players, const std::vector<PairResult>& results, int anchor, double anchor_elo,
                                  double prior_ties) {
  if (players < 1) throw std::invalid_argument("bradley_terry: no players");
  if (anchor < 0 || anchor >= players) throw std::invalid_argument("bradley_terry: the anchor is not a player");
  if (prior_ties < 0) throw std::invalid_argument("bradley_terry: prior_ties must be >= 0");
  const size_t n = size_t(players);
  // Pooled results per pair: w[i][j] = i's score against j, g[i][j] = games (virtual ties included).
  std::vector<std::vector<double>> w(n, std::vector<double>(n, 0)), g = w;
  std::vector<Rating> out(n);
  for (const PairResult& r : results) {
    if (r.a < 0 || r.a >= players || r.b < 0 || r.b >= players || r.a == r.b)
      throw std::invalid_argument("bradley_terry: bad pair " + std::to_string(r.a) + "-" + std::to_string(r.b));
    if (r.games < 0 || r.score_a < 0 || r.score_a > r.games)
      throw std::invalid_argument("bradley_terry: bad score " + std::to_string(r.score_a) + " of " + std::to_string(r.games));
    if (r.games == 0) continue;
    w[size_t(r.a)][size_t(r.b)] += r.score_a;
    w[size_t(r.b)][size_t(r.a)] += r.games - r.score_a;
    g[size_t(r.a)][size_t(r.b)] += r.games;
    g[size_t(r.b)][size_t(r.a)] += r.games;
    out[size_t(r.a)].games += r.games;
    out[size_t(r.b)].games += r.games;
  }
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j && g[i][j] > 0) w[i][j] += prior_ties / 2, g[i][j] += prior_ties;
  // Every player must be connected to the anchor.
  std::vector<bool> seen(n, false);
  std::vector<size_t> stack{size_t(anchor)};
  seen[size_t(anchor)] = true;
  while (!stack.empty()) {
    const size_t i = stack.back();
    stack.pop_back();
    for (size_t j = 0; j < n; ++j)
      if (!seen[j] && g[i][j] > 0) seen[j] = true, stack.push_back(j);
  }
  for (size_t i = 0; i < n; ++i)
    if (!seen[i]) throw std::invalid_argument("bradley_terry: player " + std::to_string(i) + " has no games linking it to the anchor");
  // Newton's method on the natural-log strengths r (anchor fixed at 0).
  std::vector<double> r(n, 0);
  std::vector<size_t> free;
  for (size_t i = 0; i < n; ++i)
    if (int(i) != anchor) free.push_back(i);
  const size_t m = free.size();
  std::vector<std::vector<double>> info(m, std::vector<double>(m, 0));
  auto build = [&](std::vector<double>& grad) {
    for (auto& row : info) std::fill(row.begin(), row.end(), 0.0);
    grad.assign(m, 0);
    for (size_t a = 0; a < m; ++a) {
      const size_t i = free[a];
      for (size_t j = 0; j < n; ++j) {
        if (j == i || g[i][j] <= 0) continue;
        const double p = 1 / (1 + std::exp(r[j] - r[i]));
        grad[a] += w[i][j] - g[i][j] * p;
        const double h = g[i][j] * p * (1 - p);
        info[a][a] += h;
        for (size_t b = 0; b < m; ++b)
          if (free[b] == j) info[a][b] -= h;
      }
    }
  };
  std::vector<double> grad;
  for (int it = 0; it < 100 && m > 0; ++it) {
    build(grad);
    std::vector<double> step = grad;
    if (!solve(info, step)) throw std::invalid_argument("bradley_terry: the ratings are not determined");
    double big = 0;
    for (size_t a = 0; a < m; ++a) {
      const double d = std::clamp(step[a], -2.0, 2.0);  // damped: far from the optimum a step can overshoot
      r[free[a]] += d;
      big = std::max(big, std::fabs(d));
    }
    if (big < 1e-10) break;
  }
  const double k = 400 / std::log(10.0);
  out[size_t(anchor)].elo = out[size_t(anchor)].lo = out[size_t(anchor)].hi = anchor_elo;
  if (m == 0) return out;
  build(grad);
  for (size_t a = 0; a < m; ++a) {
    std::vector<double> e(m, 0);
    e[a] = 1;
    if (!solve(info, e)) throw std::invalid_argument("bradley_terry: the ratings are not determined");
    const double se = std::sqrt(std::max(0.0, e[a]));
    Rating& o = out[free[a]];
    o.elo = anchor_elo + k * r[free[a]];
    o.lo = o.elo - kZ95 * k * se;
    o.hi = o.elo + kZ95 * k * se;
  }
  return out;
}

}  // namespace carc::ai
