// `carcassonne tournament`: AI players against each other over many games, seats rotating;
// win rates with Wilson 95% intervals, mean scores, score difference and Elo difference.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "ai_common.h"
#include "commands.h"
#include "player.h"
#include "stats.h"
#include "tournament.h"

namespace carc::cli {

namespace {

using Clock = std::chrono::steady_clock;

std::string bar(double frac, int width) {
  const int full = int(frac * width + 0.5);
  return "[" + std::string(full, '#') + std::string(width - full, '.') + "]";
}

}  // namespace

void register_tournament(CLI::App& app) {
  auto* cmd = app.add_subcommand("tournament", "AI players against each other: win rates, scores, Elo difference");
  struct Opts {
    std::string players;
    int64_t games = 100;
    uint64_t seed = 1;
    std::string tileset = "base", expansions, out;
    int threads = 1;
    bool json = false, resume = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("--players", o->players,
                  "comma-separated player specs, one per seat, e.g. mcts:time=1s,greedy (see docs/ai.md)")
      ->required();
  cmd->add_option("-n,--games", o->games, "number of games")->check(CLI::PositiveNumber);
  cmd->add_option("--seed", o->seed, "seed of the run (game i's draws and players' seeds derive from it and i)");
  cmd->add_option("--tileset", o->tileset, tileset_help());
  cmd->add_option("--expansions", o->expansions, expansions_help());
  cmd->add_option("-t,--threads", o->threads, "games played in parallel")->check(CLI::Range(1, 256));
  cmd->add_option("--out", o->out, "directory to keep every game's record in");
  cmd->add_flag("--json", o->json, "print one JSON object instead of text");
  cmd->add_flag("--resume", o->resume,
                "with --out: a game whose record is already in the directory is read from it (replayed for its "
                "scores) instead of played, so a stopped run continues where it stopped; a record of another run "
                "(seed, players or rules) is an error");
  cmd->callback([o] {
    std::vector<std::string> specs = split_players(o->players);
    const int k = int(specs.size());
    if (k < 2 || k > 6) throw std::invalid_argument("--players needs 2 to 6 players, got " + std::to_string(k));
    std::vector<std::string> names;
    for (const auto& sp : specs) names.push_back(make_player_checked(sp, 0)->name());  // validates every spec
    Rules rules = ai_rules_from(k, o->tileset, o->expansions);
    const Game* g = Game::get(rules);
    if (o->resume && o->out.empty()) throw std::invalid_argument("--resume needs --out DIR (the records to continue from)");
    if (!o->out.empty()) std::filesystem::create_directories(o->out);
    auto record_path = [&](int64_t i) {
      char name[64];
      std::snprintf(name, sizeof name, "/game_%06lld.record.json", static_cast<long long>(i));
      return o->out + name;
    };
    // --resume: game i from its record, checked to be this run's game i (its seed, players and
    // rules), with the scores of its replay. Iterations are not recorded, so resumed games do not
    // count in the iterations per search.
    auto resumed_game = [&](int64_t i, const std::string& path) {
      const Record rec = load_record(path);
      const uint64_t gs = game_seed(o->seed, uint64_t(i));
      if (rec.seed != gs)
        throw std::invalid_argument(path + ": not this run's game " + std::to_string(i) + " (its seed is " +
                                    std::to_string(rec.seed) + ", this run's is " + std::to_string(gs) +
                                    "; same --seed?)");
      std::vector<std::string> seats;
      for (int j = 0; j < k; ++j) seats.push_back(names[size_t(match::tournament_player(i, j, k))]);
      if (rec.players != seats) throw std::invalid_argument(path + ": its players are not this run's (same --players?)");
      if (rules_of(rec).to_string() != rules.to_string())
        throw std::invalid_argument(path + ": its rules are " + rules_of(rec).to_string() + ", this run's " +
                                    rules.to_string());
      Replay rp = replay(rec, true);
      if (!rp.state.is_terminal()) throw std::invalid_argument(path + ": the game in it is not finished");
      match::TournamentGame r;
      r.iterations.assign(size_t(k), 0);
      r.decisions.assign(size_t(k), 0);
      r.scores.assign(size_t(k), 0);
      for (int j = 0; j < k; ++j) r.scores[size_t(match::tournament_player(i, j, k))] = rp.state.score(j);
      return r;
    };
    std::atomic<int64_t> nresumed{0};

    std::vector<match::TournamentGame> results(o->games);
    std::atomic<int64_t> next{0}, done{0};
    std::mutex err_mu;
    std::string error;
    std::atomic<bool> failed{false};
    auto worker = [&] {
      for (;;) {
        const int64_t i = next.fetch_add(1);
        if (i >= o->games) return;
        try {
          if (o->resume && std::filesystem::exists(record_path(i))) {
            results[i] = resumed_game(i, record_path(i));
            nresumed.fetch_add(1);
          } else {
            results[i] = match::play_tournament_game(g, specs, o->seed, i, !o->out.empty());
            if (!o->out.empty()) {
              write_file(record_path(i), record_to_json(*results[i].record));
              results[i].record.reset();
            }
          }
        } catch (const std::exception& e) {
          std::lock_guard<std::mutex> lk(err_mu);
          if (error.empty()) error = "game " + std::to_string(i) + ": " + e.what();
          failed.store(true);
          next.store(o->games);
        }
        done.fetch_add(1);
      }
    };
    const auto t0 = Clock::now();
    std::vector<std::thread> pool;
    for (int t = 0; t < o->threads; ++t) pool.emplace_back(worker);
    const bool progress = isatty(2);
    while (progress && done.load() < o->games && !failed.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      const int64_t d = done.load();
      const double el = std::chrono::duration<double>(Clock::now() - t0).count();
      const double eta = d > 0 ? el / d * (o->games - d) : 0;
      std::cerr << "\r  " << bar(double(d) / o->games, 30) << " " << d << "/" << o->games << " games, " << std::fixed
                << std::setprecision(0) << el << " s elapsed, ~" << eta << " s left   " << std::flush;
    }
    for (auto& th : pool) th.join();
    if (progress) std::cerr << "\r" << std::string(79, ' ') << "\r" << std::flush;
    if (!error.empty()) throw std::runtime_error(error);
    const double sec = std::chrono::duration<double>(Clock::now() - t0).count();
    if (o->resume) std::cerr << nresumed.load() << " of " << o->games << " games read from " << o->out << "\n";

    ai::Tally tally(k);
    std::vector<std::vector<int>> scores;
    std::vector<long long> iters(k, 0), decisions(k, 0);
    scores.reserve(results.size());
    for (const auto& r : results) {
      tally.add_game(r.scores);
      scores.push_back(r.scores);
      for (int p = 0; p < k; ++p) iters[p] += r.iterations[p], decisions[p] += r.decisions[p];
    }
    if (o->json) {  // the same code makes the summary of carcassonne.distributed (Python)
      std::cout << match::tournament_json(rules, names, scores, iters, decisions, o->seed, sec) << "\n";
      return;
    }
    auto mean_iters = [&](int p) { return decisions[p] ? double(iters[p]) / decisions[p] : 0.0; };
    const ai::EloEstimate elo = tally.elo(0, 1);
    const ai::MeanEstimate diff = tally.score_diff(0, 1);
    std::cout << "tournament " << rules.to_string() << ": " << tally.games() << " games, seats rotating, seed "
              << o->seed << ", " << std::fixed << std::setprecision(1) << sec << " s\n";
    size_t w = 0;
    for (auto& n : names) w = std::max(w, n.size());
    for (int p = 0; p < k; ++p) {
      const ai::Interval ci = tally.win_ci(p);
      const ai::MeanEstimate sc = tally.score(p);
      std::cout << "  " << std::left << std::setw(int(w)) << names[p] << std::right << "  wins " << std::setprecision(1)
                << std::setw(5) << 100 * tally.win_rate(p) << "%  (95% CI " << 100 * ci.lo << "-" << 100 * ci.hi
                << "%)  mean score " << sc.mean << " (sd " << sc.sd << ")";
      if (decisions[p]) std::cout << "  " << std::setprecision(0) << mean_iters(p) << " iterations/search";
      std::cout << "\n";
    }
    std::cout << "  score difference " << names[0] << " - " << names[1] << ": " << std::showpos << diff.mean
              << " (95% CI " << diff.lo << " to " << diff.hi << ")\n";
    std::cout << "  Elo difference   " << names[0] << " - " << names[1] << ": " << std::setprecision(0) << elo.elo
              << " (95% CI " << elo.lo << " to " << elo.hi << ")" << std::noshowpos << "\n";
    std::cout << "  (ties count half; Elo from the head-to-head score fraction)\n";
    if (!o->out.empty()) std::cout << "  records saved in " << o->out << "\n";
  });
}

}  // namespace carc::cli
