#include "tournament.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "runner.h"
#include "stats.h"

namespace carc::match {

using ai::Tally;
using ai::EloEstimate;
using ai::MeanEstimate;
using ai::Interval;

TournamentGame play_tournament_game(const Game* g, const std::vector<std::string>& specs, uint64_t seed, int64_t i,
                                    bool keep_record) {
  const int k = int(specs.size());
  if (k != g->rules().players)
    throw std::invalid_argument("need one player spec per seat: " + std::to_string(g->rules().players) + " seats, " +
                                std::to_string(k) + " specs");
  if (i < 0) throw std::invalid_argument("game index must be >= 0, got " + std::to_string(i));
  std::vector<std::string> seating;
  for (int j = 0; j < k; ++j) seating.push_back(specs[size_t(tournament_player(i, j, k))]);
  SeatedGame played = play_game(g, seating, game_seed(seed, uint64_t(i)), keep_record);
  TournamentGame r;
  r.scores.assign(size_t(k), 0);
  r.iterations.assign(size_t(k), 0);
  r.decisions.assign(size_t(k), 0);
  for (int j = 0; j < k; ++j) {
    const size_t p = size_t(tournament_player(i, j, k));
    r.scores[p] = played.scores[size_t(j)];
    r.iterations[p] = played.iterations[size_t(j)];
    r.decisions[p] = played.decisions[size_t(j)];
  }
  r.record = std::move(played.record);
  return r;
}

std::string tournament_json(const Rules& rules, const std::vector<std::string>& names,
                            const std::vector<std::vector<int>>& scores_by_game,
                            const std::vector<long long>& iterations, const std::vector<long long>& decisions,
                            uint64_t seed, double seconds) {
  const int k = int(names.size());
  if (k < 2) throw std::invalid_argument("a tournament needs at least 2 players");
  if (int(iterations.size()) != k || int(decisions.size()) != k)
    throw std::invalid_argument("iterations and decisions need one entry per player (" + std::to_string(k) + ")");
  Tally tally(k);
  for (size_t n = 0; n < scores_by_game.size(); ++n) {
    if (int(scores_by_game[n].size()) != k)
      throw std::invalid_argument("game " + std::to_string(n) + ": " + std::to_string(scores_by_game[n].size()) +
                                  " scores for " + std::to_string(k) + " players");
    tally.add_game(scores_by_game[n]);
  }
  const EloEstimate elo = tally.elo(0, 1);
  const MeanEstimate diff = tally.score_diff(0, 1);
  nlohmann::ordered_json j;
  j["games"] = tally.games();
  j["players"] = nlohmann::ordered_json::array();
  for (int p = 0; p < k; ++p) {
    const Interval ci = tally.win_ci(p);
    const MeanEstimate sc = tally.score(p);
    nlohmann::ordered_json e;
    e["name"] = names[size_t(p)];
    e["win_rate"] = tally.win_rate(p);
    e["ci95"] = {ci.lo, ci.hi};
    e["mean_score"] = sc.mean;
    e["wins"] = tally.wins(p);
    e["score_ci95"] = {sc.lo, sc.hi};
    if (decisions[size_t(p)]) e["mean_iterations_per_search"] = double(iterations[size_t(p)]) / decisions[size_t(p)];
    j["players"].push_back(e);
  }
  j["elo_diff"] = elo.elo;
  j["elo_ci95"] = {elo.lo, elo.hi};
  j["score_diff"] = diff.mean;
  j["score_diff_ci95"] = {diff.lo, diff.hi};
  j["rules"] = rules.to_string();
  j["seed"] = seed;
  j["seconds"] = seconds;
  return j.dump();
}

}  // namespace carc::match
