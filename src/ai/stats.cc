#include "stats.h"

#include <algorithm>
#include <cmath>

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

}  // namespace carc::ai
