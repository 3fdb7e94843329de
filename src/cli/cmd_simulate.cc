// `carcassonne simulate` (random self-play with statistics) and `carcassonne bench` (a fixed,
// seeded workload whose signature changes when behaviour changes, plus speed figures).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "commands.h"
#include "playout.h"
#ifdef CARC_HAVE_AI
#include "mcts.h"
#endif

namespace carc::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// CPU time of the calling thread: the bench reports speed per core from it, so figures stay
// meaningful on a loaded machine (wall time is reported too).
double thread_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

struct GameTotals {
  int64_t games = 0, moves = 0, followers = 0, tiles = 0;
  std::vector<double> score_sum, score_sq;
  std::vector<int64_t> wins;
  uint64_t signature = 0;
  double cpu_seconds = 0;  // CPU time of the threads that played
  void init(int players) {
    score_sum.assign(players, 0);
    score_sq.assign(players, 0);
    wins.assign(players, 0);
  }
  void add(const State& s, const PlayoutStats& st) {
    ++games;
    moves += st.moves;
    followers += st.followers_deployed;
    tiles += s.num_placed() - s.game().num_setup_tiles();
    int best = 0;
    for (int p = 0; p < s.num_players(); ++p) best = std::max(best, s.score(p));
    for (int p = 0; p < s.num_players(); ++p) {
      score_sum[p] += s.score(p);
      score_sq[p] += double(s.score(p)) * s.score(p);
      wins[p] += s.score(p) == best;
      signature = signature * 1000003 + uint64_t(s.score(p));
    }
  }
  void merge(const GameTotals& o) {
    games += o.games, moves += o.moves, followers += o.followers, tiles += o.tiles;
    cpu_seconds += o.cpu_seconds;
    for (size_t p = 0; p < score_sum.size(); ++p)
      score_sum[p] += o.score_sum[p], score_sq[p] += o.score_sq[p], wins[p] += o.wins[p];
  }
};

// Plays games [from, to) of a seeded run by the one seed rule (seeds.h): game i draws with
// game_seed(seed, i) and its seats play uniformly at random with their seat generators, so game i
// is the game `tournament --players random,...`, Python's play_games and the match runner play,
// and results do not depend on the number of threads.
// The bench workload's own seeding, unchanged since it was pinned (tests/golden/bench_signatures.txt),
// so its signatures and its speed history stay comparable: game i draws with bench_seed(seed, i) and
// one generator (that seed ^ 0x5bd1e995) makes every seat's moves.
uint64_t bench_seed(uint64_t a, uint64_t b) {
  Rng r(a * 0x9E3779B97F4A7C15ull ^ b);
  return r.next();
}

void play_range(const Game* g, uint64_t seed, int64_t from, int64_t to, GameTotals& tot, const std::string& out_dir,
                std::atomic<int64_t>& done, bool bench = false) {
  const double cpu0 = thread_cpu_seconds();
  std::vector<Move> moves;  // random_playout's scratch (bench)
  // One state for all the games: each starts from `fresh` (State::restart clears only the
  // board cells the previous game used, not the whole board).
  const State fresh(g, 0);
  State s = fresh;
  for (int64_t i = from; i < to; ++i) {
    const uint64_t gs = bench ? bench_seed(seed, uint64_t(i)) : game_seed(seed, uint64_t(i));
    s.restart(fresh, gs);
    PlayoutStats st;
    if (bench) {
      Rng rng(gs ^ 0x5bd1e995);
      st = random_playout(s, rng, moves);
    } else {
      st = random_playout_seated(s, gs);
    }
    tot.add(s, st);
    if (!out_dir.empty()) {
      std::vector<std::string> names;
      for (int p = 0; p < s.num_players(); ++p) names.push_back("P" + std::to_string(p));
      char name[64];
      std::snprintf(name, sizeof name, "/game_%06lld.record.json", static_cast<long long>(i));
      write_file(out_dir + name, record_to_json(record_of(s, names)));
    }
    done.fetch_add(1, std::memory_order_relaxed);
  }
  tot.cpu_seconds += thread_cpu_seconds() - cpu0;
}

GameTotals run_games(const Game* g, uint64_t seed, int64_t games, int threads, const std::string& out_dir,
                     bool progress) {
  GameTotals total;
  total.init(g->rules().players);
  std::atomic<int64_t> done{0};
  std::vector<GameTotals> parts(threads);
  if (threads == 1 && !progress) {
    // One thread: play on the calling thread, exactly like `bench`.
    parts[0].init(g->rules().players);
    play_range(g, seed, 0, games, parts[0], out_dir, done);
    total.merge(parts[0]);
    total.signature = total.signature * 0x100000001b3ull ^ parts[0].signature;
    return total;
  }
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    parts[t].init(g->rules().players);
    pool.emplace_back([&, t] {
      play_range(g, seed, games * t / threads, games * (t + 1) / threads, parts[t], out_dir, done);
    });
  }
  auto t0 = Clock::now();
  while (progress && done.load() < games) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    int64_t d = done.load();
    double el = seconds_since(t0);
    std::cerr << "\r  " << d << "/" << games << " games, " << std::fixed << std::setprecision(0) << (d / std::max(el, 1e-9))
              << " games/s   " << std::flush;
  }
  for (auto& th : pool) th.join();
  if (progress) std::cerr << "\r" << std::string(60, ' ') << "\r";
  for (auto& p : parts) total.merge(p);
  // The signature is combined in game order, independent of threads: recompute per part order.
  for (auto& p : parts) total.signature = total.signature * 0x100000001b3ull ^ p.signature;
  return total;
}

}  // namespace

void register_simulate(CLI::App& app) {
  auto* cmd = app.add_subcommand("simulate", "Random self-play: every move uniform over all legal moves");
  struct Opts {
    int64_t games = 1000;
    uint64_t seed = 1;
    int players = 2;
    int threads = 1;
    std::string tileset = "base", expansions, out;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("-n,--games", o->games, "number of games")->check(CLI::PositiveNumber);
  cmd->add_option("--seed", o->seed, "seed of the run (game i uses a seed derived from it and i)");
  cmd->add_option("-p,--players", o->players, "players per game (2..6)")->check(CLI::Range(2, 6));
  cmd->add_option("--tileset", o->tileset, tileset_help());
  cmd->add_option("--expansions", o->expansions, expansions_help());
  cmd->add_option("-t,--threads", o->threads, "worker threads")->check(CLI::Range(1, 256));
  cmd->add_option("--out", o->out, "directory to save every game's record in");
  cmd->add_flag("--json", o->json, "print one JSON object instead of text");
  cmd->callback([o] {
    Rules rules = rules_from(o->players, o->tileset, o->expansions);
    const Game* g = Game::get(rules);
    if (!o->out.empty()) std::filesystem::create_directories(o->out);
    auto t0 = Clock::now();
    GameTotals t = run_games(g, o->seed, o->games, o->threads, o->out, !o->json && isatty(2));
    const double sec = seconds_since(t0);
    std::vector<double> mean, sd;
    for (int p = 0; p < rules.players; ++p) {
      mean.push_back(t.score_sum[p] / t.games);
      sd.push_back(std::sqrt(std::max(0.0, t.score_sq[p] / t.games - mean[p] * mean[p])));
    }
    if (o->json) {
      nlohmann::ordered_json j;
      j["games"] = t.games;
      j["rules"] = rules.to_string();
      j["seconds"] = sec;
      j["cpu_seconds"] = t.cpu_seconds;
      j["games_per_second"] = t.games / sec;
      j["games_per_second_per_core"] = t.games / t.cpu_seconds;
      j["mean_scores"] = mean;
      j["score_stddev"] = sd;
      j["win_share"] = [&] {
        std::vector<double> w;
        for (auto x : t.wins) w.push_back(double(x) / t.games);
        return w;
      }();
      j["mean_tiles_placed"] = double(t.tiles) / t.games;
      j["mean_followers_deployed"] = double(t.followers) / t.games;
      j["threads"] = o->threads;
      std::cout << j.dump() << "\n";
      return;
    }
    std::cout << std::fixed << std::setprecision(1);
    std::cout << t.games << " random games (" << rules.to_string() << ") in " << std::setprecision(3) << sec << " s: "
              << std::setprecision(0) << t.games / sec << " games/s on " << o->threads << " thread(s) by wall clock, "
              << t.games / t.cpu_seconds << " per core (CPU time)\n";
    std::cout << std::setprecision(2);
    for (int p = 0; p < rules.players; ++p)
      std::cout << "  seat " << p << ": mean score " << mean[p] << " (sd " << sd[p] << "), wins or shares "
                << 100.0 * t.wins[p] / t.games << "%\n";
    std::cout << "  tiles placed per game: " << double(t.tiles) / t.games
              << ", followers deployed per game: " << double(t.followers) / t.games << "\n";
    if (!o->out.empty()) std::cout << "  records saved in " << o->out << "\n";
  });
}

namespace {

// The `bench` workload: `games` uniformly random games of a rule variant, seeded (seed
// 20240101), on the calling thread. The signature combines every final score in game order,
// so any change of behaviour changes it (tests/golden/bench_signatures.txt pins it).
struct BenchResult {
  Rules rules;
  int64_t games = 0;
  uint64_t signature = 0;
  int64_t total_score = 0, moves = 0, tiles = 0;
  double cpu_seconds = 0, wall_seconds = 0;
};

BenchResult bench_workload(const Rules& rules, int64_t games) {
  const Game* g = Game::get(rules);
  std::atomic<int64_t> done{0};
  GameTotals t;
  t.init(rules.players);
  const auto t0 = Clock::now();
  play_range(g, 20240101, 0, games, t, "", done, /*bench=*/true);
  BenchResult r;
  r.rules = rules;
  r.games = t.games;
  r.signature = t.signature;
  double total = 0;
  for (double x : t.score_sum) total += x;
  r.total_score = int64_t(total);
  r.moves = t.moves;
  r.tiles = t.tiles;
  r.cpu_seconds = t.cpu_seconds;
  r.wall_seconds = seconds_since(t0);
  return r;
}

// The variants of `bench --suite`, from the module table (expansions/registry.h), the base game
// first: the first tile set with 2 and 4 players, with each expansion alone and with all of them;
// then every other tile set alone and with every expansion.
std::vector<Rules> bench_suite() {
  std::vector<Rules> out;
  auto add = [&](int players, std::string_view tileset, ExpansionSet expansions) {
    Rules r;
    r.players = players;
    r.tileset = std::string(tileset);
    r.expansion_set = expansions;
    out.push_back(r);
  };
  bool first = true;
  for_each_module(ModuleKind::TileSet, [&](const ModuleInfo& t) {
    if (first) {
      add(2, t.name, 0);
      add(4, t.name, 0);
      for_each_module(ModuleKind::Expansion, [&](const ModuleInfo& e) { add(2, t.name, ExpansionSet(1) << e.bit); });
    } else {
      add(2, t.name, 0);
    }
    add(2, t.name, kAllExpansions);
    first = false;
  });
  return out;
}

// "players tileset expansions games signature total_score moves" (expansions "-" for none):
// a line of tests/golden/bench_signatures.txt.
std::string golden_line(const BenchResult& r) {
  std::string exp;
  for (const auto& e : r.rules.expansions()) exp += (exp.empty() ? "" : ",") + e;
  return std::to_string(r.rules.players) + " " + r.rules.tileset + " " + (exp.empty() ? "-" : exp) + " " +
         std::to_string(r.games) + " " + std::to_string(r.signature) + " " + std::to_string(r.total_score) + " " +
         std::to_string(r.moves);
}

}  // namespace

void register_bench(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "bench", "Fixed seeded workload: prints a behaviour signature and the speed on one core");
  struct Opts {
    int64_t games = 20000;
    int players = 2;
    std::string tileset = "base", expansions;
    bool json = false, suite = false, quick = false, golden = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("-n,--games", o->games, "games in the workload (the signature depends on it)")->check(CLI::PositiveNumber);
  cmd->add_option("-p,--players", o->players, "players per game")->check(CLI::Range(2, 6));
  cmd->add_option("--tileset", o->tileset, tileset_help());
  cmd->add_option("--expansions", o->expansions, expansions_help());
  cmd->add_flag("--suite", o->suite,
                "every variant of the suite (base 2p and 4p, each expansion, all three, Wheel of Fortune alone and with "
                "all three), --games each; speeds relative to the base game");
  cmd->add_flag("--quick", o->quick, "only the games (no clone, move-list and MCTS figures)");
  cmd->add_flag("--golden", o->golden,
                "with --suite: print only the signature lines of tests/golden/bench_signatures.txt");
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->callback([o] {
    Rules rules = rules_from(o->players, o->tileset, o->expansions);
    const Game* g = Game::get(rules);
    // 1. Whole random games (each variant of the suite, or the one asked for).
    std::vector<BenchResult> results;
    for (const Rules& r : o->suite ? bench_suite() : std::vector<Rules>{rules})
      results.push_back(bench_workload(r, o->games));
    if (o->golden) {
      for (const auto& r : results) std::cout << golden_line(r) << "\n";
      return;
    }
    if (o->suite) g = Game::get(results[0].rules);
    const BenchResult& t = results[0];
    const double sec = t.cpu_seconds, wall = t.wall_seconds;
    // 2. Mid-game positions: state size, clone time and legal-move generation speed.
    std::vector<State> mids;
    std::vector<Move> moves;
    double clone_ns = 0, gen_sec = 0;
    int64_t gens = 0, listed = 0;
    size_t owned = 0;
#ifdef CARC_HAVE_AI
    double mcts_ips = 0, mcts_default_ips = 0;
#endif
    if (!o->quick) {
      for (int i = 0; i < 64; ++i) {
        State s(g, 777 + i);
        Rng rng(i);
        play_random_until(s, rng, 35);
        if (!s.is_terminal()) mids.push_back(s);
      }
      for (const auto& m : mids) owned += m.bytes_owned();
      owned /= std::max<size_t>(1, mids.size());
      int64_t clones = 0;
      int64_t sink = 0;
      auto t1 = Clock::now();
      while (seconds_since(t1) < 0.3) {
        for (auto& m : mids) {
          State c = m;
          sink += c.turn();
          ++clones;
        }
      }
      clone_ns = seconds_since(t1) * 1e9 / clones;
      auto t2 = Clock::now();
      while (seconds_since(t2) < 0.3) {
        for (auto& m : mids) {
          m.legal_moves(moves);
          listed += int64_t(moves.size());
          ++gens;
        }
      }
      gen_sec = seconds_since(t2);
      (void)sink;
#ifdef CARC_HAVE_AI
      // One core, from the opening: the search tracked since session 2 (rk=1), then the defaults.
      mcts_ips = ai::mcts_iterations_per_second(g, ai::mcts_speed_config());
      mcts_default_ips = ai::mcts_iterations_per_second(g, ai::MctsConfig{});
#endif
    }
    auto result_json = [](const BenchResult& r) {
      nlohmann::ordered_json j;
      j["rules"] = r.rules.to_string();
      j["games"] = r.games;
      j["signature"] = std::to_string(r.signature);
      j["total_score"] = r.total_score;
      j["total_moves"] = r.moves;
      j["seconds"] = r.wall_seconds;
      j["cpu_seconds"] = r.cpu_seconds;
      j["games_per_second"] = r.games / r.cpu_seconds;
      j["games_per_second_wall"] = r.games / r.wall_seconds;
      j["ns_per_tile"] = r.cpu_seconds * 1e9 / double(r.tiles);
      return j;
    };
    if (o->json) {
      nlohmann::ordered_json j = result_json(t);
      if (!o->quick) {
        j["state_bytes"] = sizeof(State);
        j["state_bytes_owned"] = owned;
        j["clone_ns"] = clone_ns;
        j["legal_move_lists_per_second"] = gens / gen_sec;
        j["legal_moves_per_second"] = listed / gen_sec;
#ifdef CARC_HAVE_AI
        j["mcts_iterations_per_second"] = mcts_ips;
        j["mcts_default_iterations_per_second"] = mcts_default_ips;
#endif
      }
      if (o->suite) {
        j["suite"] = nlohmann::ordered_json::array();
        for (const auto& r : results) {
          auto e = result_json(r);
          e["relative_to_base"] = (r.games / r.cpu_seconds) / (t.games / t.cpu_seconds);
          j["suite"].push_back(e);
        }
      }
      std::cout << j.dump() << "\n";
      return;
    }
    if (o->suite) {
      std::cout << "bench suite: " << o->games << " random games per variant, games/s per core (CPU time)\n";
      for (const auto& r : results) {
        const double gps = r.games / r.cpu_seconds;
        std::cout << "  " << std::left << std::setw(56) << r.rules.to_string() << std::right << " signature "
                  << std::setw(20) << r.signature << std::fixed << std::setprecision(0) << std::setw(9) << gps
                  << " games/s" << std::setw(7) << r.cpu_seconds * 1e9 / double(r.tiles) << " ns/tile" << std::setw(5)
                  << 100 * gps / (t.games / t.cpu_seconds) << "% of " << t.rules.to_string() << "\n";
      }
      std::cout << "first variant:\n";
    }
    std::cout << "bench " << t.rules.to_string() << ": " << t.games << " random games\n";
    std::cout << "  signature        " << t.signature << " (total score " << t.total_score << ", moves " << t.moves
              << ")\n";
    std::cout << std::fixed << std::setprecision(0);
    std::cout << "  games/second     " << t.games / sec << " per core (CPU time; " << t.games / wall
              << " by wall clock), " << std::setprecision(1) << sec * 1e9 / double(t.tiles) << " ns per placed tile\n";
    if (o->quick) return;
    std::cout << std::setprecision(0);
    std::cout << "  state size       " << sizeof(State) << " bytes (" << owned
              << " owned at turn 35, with the history on the heap)\n";
    std::cout << "  clone mid-game   " << clone_ns << " ns\n";
    std::cout << "  legal move lists " << gens / gen_sec << " per second (" << listed / gen_sec << " moves/s, "
              << double(listed) / gens << " moves per list at turn 35)\n";
#ifdef CARC_HAVE_AI
    std::cout << "  mcts iterations  " << mcts_ips << " per second per core (from the opening, rk=1 rollouts: "
              << "the figure tracked since session 2); " << mcts_default_ips << " with the defaults (rk=3)\n";
#endif
  });
}

}  // namespace carc::cli
