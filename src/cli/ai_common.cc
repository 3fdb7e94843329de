#include "ai_common.h"

#include <iostream>
#include <stdexcept>

#include "commands.h"

namespace carc::cli {

Rules ai_rules_from(int players, const std::string& tileset, const std::string& expansions) {
  return rules_from(players, tileset, expansions);
}

std::unique_ptr<ai::Player> make_player_checked(const std::string& spec, uint64_t seed) {
  try {
    return ai::make_player(spec, seed);
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: " << e.what() << "\n";
    throw Exit{kExitBadInput};
  }
}

std::vector<std::string> split_players(const std::string& list) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t end = list.find(',', pos);
    if (end == std::string::npos) end = list.size();
    std::string item = list.substr(pos, end - pos);
    if (item.empty()) throw std::invalid_argument("empty player in '" + list + "'");
    out.push_back(item);
    pos = end + 1;
  }
  return out;
}

}  // namespace carc::cli
