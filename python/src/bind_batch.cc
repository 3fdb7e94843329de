// Bindings: batch play in C++ from one Python call. Plays N games with built-in players
// ("random", and with the AI library "greedy", "mcts:iterations=200", ...), on several
// threads with the GIL released, and returns records and scores.
//
// The one seed rule (src/engine/seeds.h): game i draws with game_seed(seed, i) and its seat p is
// made with seat_seed(game seed, p), played by the match runner (src/match/runner.h), so game i is
// the game `carcassonne simulate` (all random) and `carcassonne tournament` (with the same seating)
// play. Results do not depend on the number of threads.
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "common.h"
#include "playout.h"
#include "seeds.h"
#ifdef CARC_HAVE_AI
#include "player.h"
#include "runner.h"
#endif

namespace carc::py {

namespace {

struct GameResult {
  int index = 0;
  uint64_t seed = 0;
  std::vector<int> scores;
  int moves = 0;
  bool has_record = false;
  Record record;
};

void check_specs(const std::vector<std::string>& specs) {
#ifdef CARC_HAVE_AI
  for (const auto& s : specs) ai::make_player(s, 0);  // throws std::invalid_argument
#else
  for (const auto& s : specs)
    if (s != "random")
      throw std::invalid_argument("player '" + s + "': this module was built without the AI library; only 'random'");
#endif
}

GameResult play_one(const Game* g, const std::vector<std::string>& specs, uint64_t seed, int i, bool records) {
  GameResult r;
  r.index = i;
  r.seed = game_seed(seed, uint64_t(i));
#ifdef CARC_HAVE_AI
  match::SeatedGame played = match::play_game(g, specs, r.seed, records, specs);
  r.scores = std::move(played.scores);
  r.moves = played.moves;
  if (played.record) {
    r.has_record = true;
    r.record = std::move(*played.record);
  }
#else
  State s(g, r.seed);  // only "random" seats without the AI library (check_specs)
  r.moves = random_playout_seated(s, r.seed).moves;
  r.scores = s.scores();
  if (records) {
    r.has_record = true;
    r.record = record_of(s, specs);
  }
#endif
  return r;
}

// Plays the games on `threads` worker threads while the calling thread polls `interrupted`
// (Ctrl-C from Python) every 50 ms; when it returns true, the workers stop after their
// current game and the function returns early with `stopped` set.
std::vector<GameResult> play_games(const Rules& rules, const std::vector<std::string>& specs, int games, uint64_t seed,
                                   int threads, bool records, const std::function<bool()>& interrupted, bool& stopped) {
  if (games < 0) throw std::invalid_argument("games must be >= 0");
  if (int(specs.size()) != rules.players)
    throw std::invalid_argument("need one player spec per seat (" + std::to_string(rules.players) + ")");
  check_specs(specs);
  const Game* g = Game::get(rules);
  if (threads <= 0) threads = int(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::max(1, std::min(threads, games));
  std::vector<GameResult> out(static_cast<size_t>(games));
  std::atomic<int> next{0};
  std::atomic<int> running{threads};
  std::exception_ptr error;
  std::mutex mu;
  std::condition_variable cv;
  auto work = [&] {
    for (int i; (i = next.fetch_add(1)) < games;) {
      try {
        out[size_t(i)] = play_one(g, specs, seed, i, records);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!error) error = std::current_exception();
        next.store(games);
      }
    }
    std::lock_guard<std::mutex> lock(mu);
    --running;
    cv.notify_all();
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(work);
  stopped = false;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu);
      if (cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return running.load() == 0; })) break;
    }
    if (!stopped && interrupted()) {
      stopped = true;
      next.store(games);
    }
  }
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
  return out;
}

}  // namespace

void bind_batch(pyb::module_& m) {
  pyb::class_<GameResult>(m, "GameResult", "One game of play_games(): its index, seed, final scores and record.")
      .def(pyb::init([](int index, uint64_t seed, std::vector<int> scores, int moves, std::optional<Record> record) {
             GameResult r;
             r.index = index;
             r.seed = seed;
             r.scores = std::move(scores);
             r.moves = moves;
             r.has_record = record.has_value();
             if (record) r.record = *record;
             return r;
           }),
           pyb::arg("index"), pyb::arg("seed"), pyb::arg("scores"), pyb::arg("moves"), pyb::arg("record") = pyb::none(),
           "A result made in Python (play_games with Python players).")
      .def_readonly("index", &GameResult::index, "Position of the game in the batch.")
      .def_readonly("seed", &GameResult::seed, "The game's draw seed (derive_seed(seed, index)).")
      .def_readonly("scores", &GameResult::scores, "Final scores per seat.")
      .def_readonly("moves", &GameResult::moves, "Decisions made (placements, Choose and Plague decisions).")
      .def_property_readonly("record",
                             [](const GameResult& r) -> std::optional<Record> {
                               if (!r.has_record) return std::nullopt;
                               return r.record;
                             },
                             "The game's Record, or None with records=False.")
      .def("__repr__", [](const GameResult& r) {
        std::string s = "<carcassonne.GameResult #" + std::to_string(r.index) + " scores";
        for (int x : r.scores) s += " " + std::to_string(x);
        return s + ">";
      });

  m.def(
      "play_games",
      [](std::vector<std::string> players, int games, uint64_t seed, int threads, const std::string& tileset,
         const std::vector<std::string>& expansions, std::optional<Rules> rules, bool records) {
        Rules r = rules ? *rules : make_rules(int(players.size()), tileset, expansions);
        r.players = int(players.size());
        bool stopped = false;
        std::vector<GameResult> out;
        {
          pyb::gil_scoped_release release;
          out = play_games(
              r, players, games, seed, threads, records,
              [] {
                pyb::gil_scoped_acquire acquire;
                return PyErr_CheckSignals() != 0;  // leaves KeyboardInterrupt set
              },
              stopped);
        }
        if (stopped) throw pyb::error_already_set();
        return out;
      },
      pyb::arg("players") = std::vector<std::string>{"random", "random"}, pyb::arg("games") = 1, pyb::arg("seed") = 1,
      pyb::arg("threads") = 1, pyb::arg("tileset") = "base", pyb::arg("expansions") = std::vector<std::string>{},
      pyb::arg("rules") = pyb::none(), pyb::arg("records") = true,
      "Plays `games` games in C++ (GIL released) with one player spec per seat, on `threads` threads "
      "(0 = all cores). Returns a list of GameResult in game order. Ctrl-C stops it (KeyboardInterrupt).");

  m.def(
      "game_seed", [](uint64_t seed, uint64_t i) { return game_seed(seed, i); }, pyb::arg("seed"), pyb::arg("i"),
      "The draw seed of game i of a run with `seed`: the one seed rule of every front end (simulate, tournament, play_games, carcassonne.distributed, the server's AI seats).");
  m.def(
      "seat_seed", [](uint64_t game, int seat) { return seat_seed(game, seat); }, pyb::arg("game_seed"), pyb::arg("seat"),
      "The seed of the player in seat `seat` (0-based) of a game with draw seed `game_seed`.");
  pyb::class_<Rng>(m, "RandomSeat",
                   "A uniformly random seat as every front end plays it (seeds.h): RandomSeat(seat_seed(g, j)) "
                   "makes the moves of 'random' in seat j of the game with draw seed g, with or without the AI "
                   "library.")
      .def(pyb::init([](uint64_t seed) { return Rng(seed ^ kRandomSeatSalt); }), pyb::arg("seed"))
      .def(
          "choose",
          [](Rng& rng, const PyState& ps) {
            require_decision(ps.s);
            return from_engine(ps.s, ps.s.sample_move(rng));
          },
          pyb::arg("state"), "A legal move, uniform over the legal moves.");
  m.def(
      "has_ai",
      [] {
#ifdef CARC_HAVE_AI
        return true;
#else
        return false;
#endif
      },
      "True when the module was built with the AI players (greedy, mcts, ...).");
}

}  // namespace carc::py
