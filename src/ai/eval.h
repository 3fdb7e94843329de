// The heuristic position value shared by the greedy player and by MCTS when a rollout is cut
// short: for each player, the score the game would end with if it ended now (State::finish on
// a copy, so incomplete roads, cities and monasteries score their end-of-game value and
// farms score for the completed cities they touch), plus `follower_value` points for each
// follower still in the supply, scaled by the share of tiles still in the bag (a follower in
// hand is worth more early: it can still go on a new feature).
#pragma once

#include <array>

#include "state.h"

namespace carc::ai {

using Values = std::array<double, kMaxPlayers>;

// Default worth of a follower in hand at the very start of the game, in points.
constexpr double kDefaultFollowerValue = 2.0;

// Evaluates `s` and consumes it (applies the final scoring to it).
Values evaluate_consuming(State& s, double follower_value = kDefaultFollowerValue);
// Same on a copy.
Values evaluate(const State& s, double follower_value = kDefaultFollowerValue);

// Own value minus the best other player's value.
double margin(const Values& v, int player, int nplayers);

}  // namespace carc::ai
