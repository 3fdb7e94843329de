// The one game runner (issue #36): plays a whole game between built-in players (AI specs) from a
// game seed, by the one seed rule of seeds.h. `carcassonne simulate` and `tournament`, Python's
// play_games and tournament, and the Dask module all play their games through it, so the same
// (run seed, game index, seating) is the same game in every front end.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "game.h"
#include "record.h"
#include "seeds.h"

namespace carc::match {

struct SeatedGame {
  uint64_t seed = 0;                             // the game's draw seed
  std::vector<int> scores;                       // final scores by seat
  int moves = 0;                                 // decisions made (chance nodes not counted)
  int followers_deployed = 0;                    // placements that put a follower out
  std::vector<long long> iterations, decisions;  // MCTS search effort by seat (0 for other players)
  std::optional<Record> record;                  // when asked for
};

// Plays one game on `g` from its start: the draws follow `game_seed` (the state's generator),
// seat j is the player `seat_specs[j]` made with seat_seed(game_seed, j). When every seat is
// "random" the game is played without player objects (random_playout_seated): the same game.
// `names` (one per seat, or empty: the players' names) go into the record.
// Throws std::invalid_argument for a bad spec or a seat count that is not the rules'.
SeatedGame play_game(const Game* g, const std::vector<std::string>& seat_specs, uint64_t game_seed,
                     bool keep_record = false, const std::vector<std::string>& names = {});

// True when every spec is "random" (the fast path of play_game).
bool all_random(const std::vector<std::string>& specs);

}  // namespace carc::match
