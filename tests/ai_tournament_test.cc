// Tournament games as pure functions of (rules, specs, seed, game index), shared by
// `carcassonne tournament` and the Python module (carcassonne.distributed), and the summary JSON
// both print. Strength is not tested here (see docs/ai.md); only reproducibility, seat rotation,
// seeding, bookkeeping and errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "player.h"
#include "stats.h"
#include "tournament.h"

namespace carc::ai {
namespace {

const Game* base2() {
  Rules r;
  return Game::get(r);
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
}  // namespace carc::ai
