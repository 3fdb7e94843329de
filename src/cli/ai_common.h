// Helpers shared by the AI commands (tournament, play, analyse): rules from options, seeds,
// splitting player lists, and playing one game between AI players.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "player.h"
#include "rules.h"
#include "seeds.h"
#include "state.h"

namespace carc::cli {

// Rules from command-line options; throws std::invalid_argument.
Rules ai_rules_from(int players, const std::string& tileset, const std::string& expansions);
// ai::make_player; a bad spec prints "error: ..." and exits with kExitBadInput.
std::unique_ptr<ai::Player> make_player_checked(const std::string& spec, uint64_t seed);
// "a,b,c" -> {"a","b","c"} (empty items are an error).
std::vector<std::string> split_players(const std::string& list);

}  // namespace carc::cli
