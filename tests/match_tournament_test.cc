// The match layer's runner (runner.h) and the seed rule (seeds.h), and tournament games as pure
// functions of (rules, specs, seed, game index), shared by `carcassonne tournament` and the Python
// module (carcassonne.distributed), and the summary JSON both print. Strength is not tested here (see docs/ai.md); only reproducibility, seat rotation,
// seeding, bookkeeping and errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "player.h"
#include "runner.h"
#include "stats.h"
#include "test_util.h"
#include "tournament.h"

namespace carc::match {
namespace {

using ai::elo_from_fraction;
using ai::make_player;

const Game* base2() {
  Rules r;
  return Game::get(r);
}

// The game a runner plays, played again by hand: players made from the specs with the seat seeds,
// chance from the state's generator.
Record by_hand(const Game* g, const std::vector<std::string>& specs, uint64_t gs) {
  State s(g, gs);
  std::vector<std::unique_ptr<ai::Player>> seat;
  std::vector<std::string> names;
  for (size_t j = 0; j < specs.size(); ++j) {
    seat.push_back(make_player(specs[j], seat_seed(gs, int(j))));
    names.push_back(seat.back()->name());
  }
  while (!s.is_terminal()) {
    if (s.is_chance()) s.draw_random();
    else s.apply(seat[size_t(s.current_player())]->choose(s));
  }
  return record_of(s, names);
}

// The fast all-random path (random_playout_seated) is the game random players play, in every
// rule set of the table, so simulate, play_games and tournaments of random seats agree.
TEST(Runner, AllRandomFastPathIsTheGameOfRandomPlayers) {
  for (const auto& v : test::all_variants(3)) {
    const Game* g = Game::get(v.rules);
    for (uint64_t i = 0; i < 2; ++i) {
      const uint64_t gs = game_seed(7, i);
      const SeatedGame fast = play_game(g, {"random", "random", "random"}, gs, true);
      ASSERT_TRUE(fast.record.has_value());
      EXPECT_EQ(record_to_json(*fast.record), record_to_json(by_hand(g, {"random", "random", "random"}, gs)))
          << v.name << " game " << i;
      EXPECT_EQ(fast.record->seed, gs);
      EXPECT_EQ(fast.scores, replay(*fast.record, true).state.scores());
    }
  }
}

TEST(Runner, MixedSeatsAreTheSpecsPlayersWithSeatSeeds) {
  const std::vector<std::string> specs = {"greedy", "random"};
  const uint64_t gs = game_seed(3, 2);
  const SeatedGame a = play_game(base2(), specs, gs, true);
  EXPECT_EQ(record_to_json(*a.record), record_to_json(by_hand(base2(), specs, gs)));
  EXPECT_GT(a.moves, 60);
  // Seat seeds differ by seat and from the game seed.
  EXPECT_NE(seat_seed(gs, 0), seat_seed(gs, 1));
  EXPECT_NE(seat_seed(gs, 0), gs);
  EXPECT_EQ(game_seed(3, 2), derive_seed(3, 2));
}

TEST(Runner, RejectsBadSeatsAndNames) {
  EXPECT_THROW(play_game(base2(), {"random"}, 1), std::invalid_argument);
  EXPECT_THROW(play_game(base2(), {"random", "nobody"}, 1), std::invalid_argument);
  EXPECT_THROW(play_game(base2(), {"random", "random"}, 1, true, {"only one"}), std::invalid_argument);
  const SeatedGame named = play_game(base2(), {"random", "random"}, 1, true, {"Ann", "Bob"});
  EXPECT_EQ(named.record->players, (std::vector<std::string>{"Ann", "Bob"}));
}

TEST(TournamentGame, IsTheRunnersGameWithRotatedSeats) {
  const std::vector<std::string> specs = {"greedy", "random"};
  for (int64_t i = 0; i < 2; ++i) {
    const TournamentGame t = play_tournament_game(base2(), specs, 11, i, true);
    std::vector<std::string> seating = {specs[size_t(tournament_player(i, 0, 2))],
                                        specs[size_t(tournament_player(i, 1, 2))]};
    const SeatedGame r = play_game(base2(), seating, game_seed(11, uint64_t(i)), true);
    EXPECT_EQ(record_to_json(*t.record), record_to_json(*r.record));
  }
}

TEST(TournamentGame, IsAFunctionOfSeedAndIndexOnly) {
  const std::vector<std::string> specs = {"greedy", "random"};
  // Played in a different order and interleaved with other games: the same games.
  const TournamentGame a3 = play_tournament_game(base2(), specs, 11, 3, true);
  const TournamentGame a0 = play_tournament_game(base2(), specs, 11, 0, true);
  const TournamentGame b0 = play_tournament_game(base2(), specs, 11, 0, true);
  const TournamentGame b3 = play_tournament_game(base2(), specs, 11, 3, true);
  EXPECT_EQ(a3.scores, b3.scores);
  EXPECT_EQ(a0.scores, b0.scores);
  EXPECT_EQ(record_to_json(*a3.record), record_to_json(*b3.record));
  EXPECT_EQ(record_to_json(*a0.record), record_to_json(*b0.record));
  EXPECT_NE(record_to_json(*a0.record), record_to_json(*a3.record));
  // Another run seed: other games.
  const TournamentGame c3 = play_tournament_game(base2(), specs, 12, 3, true);
  EXPECT_NE(record_to_json(*a3.record), record_to_json(*c3.record));
  EXPECT_FALSE(play_tournament_game(base2(), specs, 11, 3, false).record.has_value());
}

TEST(TournamentGame, SeatsRotateAndScoresAreByPlayer) {
  const std::vector<std::string> specs = {"greedy", "random", "greedy:eval=expect"};
  Rules r;
  r.players = 3;
  const Game* g = Game::get(r);
  for (int64_t i = 0; i < 4; ++i) {
    const TournamentGame t = play_tournament_game(g, specs, 5, i, true);
    ASSERT_TRUE(t.record.has_value());
    EXPECT_EQ(t.record->seed, derive_seed(5, uint64_t(i)));  // the draws' seed
    const Replay rp = replay(*t.record, true);
    for (int seat = 0; seat < 3; ++seat) {
      const int p = tournament_player(i, seat, 3);
      EXPECT_EQ(p, int((i + seat) % 3));
      EXPECT_EQ(t.record->players[size_t(seat)], make_player(specs[size_t(p)])->name());
      EXPECT_EQ(t.scores[size_t(p)], rp.state.score(seat)) << "game " << i << " seat " << seat;
    }
  }
}

TEST(TournamentGame, CountsSearchEffortOfMctsPlayersOnly) {
  const std::vector<std::string> specs = {"greedy", "mcts:iterations=16"};
  for (int64_t i = 0; i < 2; ++i) {
    const TournamentGame t = play_tournament_game(base2(), specs, 1, i, false);
    EXPECT_EQ(t.decisions[0], 0);
    EXPECT_EQ(t.iterations[0], 0);
    EXPECT_GT(t.decisions[1], 30);  // 71 tiles, about half of them placed by player 1
    EXPECT_EQ(t.iterations[1], 16 * t.decisions[1]);
  }
}

TEST(TournamentGame, RejectsBadInput) {
  EXPECT_THROW(play_tournament_game(base2(), {"greedy"}, 1, 0), std::invalid_argument);
  EXPECT_THROW(play_tournament_game(base2(), {"greedy", "greedy", "greedy"}, 1, 0), std::invalid_argument);
  EXPECT_THROW(play_tournament_game(base2(), {"greedy", "nobody"}, 1, 0), std::invalid_argument);
  EXPECT_THROW(play_tournament_game(base2(), {"greedy", "greedy"}, 1, -1), std::invalid_argument);
}

TEST(TournamentJson, SummarisesFixedGames) {
  Rules r;
  const std::string text =
      tournament_json(r, {"greedy", "mcts:iterations=10"}, {{80, 70}, {60, 90}, {75, 75}, {100, 50}}, {0, 1000},
                      {0, 40}, 9, 1.5);
  const nlohmann::json j = nlohmann::json::parse(text);
  // nlohmann::json sorts keys; the text keeps the CLI's order.
  EXPECT_LT(text.find("\"games\""), text.find("\"players\""));
  EXPECT_LT(text.find("\"score_diff_ci95\""), text.find("\"rules\""));
  EXPECT_EQ(j["games"], 4);
  EXPECT_DOUBLE_EQ(j["players"][0]["wins"].get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(j["players"][0]["win_rate"].get<double>(), 0.625);
  EXPECT_DOUBLE_EQ(j["players"][1]["win_rate"].get<double>(), 0.375);
  EXPECT_DOUBLE_EQ(j["players"][0]["mean_score"].get<double>(), 78.75);
  EXPECT_FALSE(j["players"][0].contains("mean_iterations_per_search"));
  EXPECT_DOUBLE_EQ(j["players"][1]["mean_iterations_per_search"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(j["score_diff"].get<double>(), 7.5);
  EXPECT_NEAR(j["elo_diff"].get<double>(), elo_from_fraction(0.625), 1e-9);
  EXPECT_EQ(j["rules"], "base/2p");
  EXPECT_EQ(j["seed"], 9);
  EXPECT_DOUBLE_EQ(j["seconds"].get<double>(), 1.5);
  EXPECT_EQ(j["players"][1]["name"], "mcts:iterations=10");
}

TEST(TournamentJson, RejectsMismatchedSizes) {
  Rules r;
  EXPECT_THROW(tournament_json(r, {"a", "b"}, {{1, 2, 3}}, {0, 0}, {0, 0}, 1, 0), std::invalid_argument);
  EXPECT_THROW(tournament_json(r, {"a", "b"}, {{1, 2}}, {0}, {0, 0}, 1, 0), std::invalid_argument);
  EXPECT_THROW(tournament_json(r, {"a"}, {{1}}, {0}, {0}, 1, 0), std::invalid_argument);
}

}  // namespace
}  // namespace carc::match
