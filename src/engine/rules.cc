#include "rules.h"

#include <sstream>

namespace carc {

std::vector<std::string> Rules::expansions() const {
  std::vector<std::string> out;
  if (festival) out.push_back("festival");
  if (fortune_teller) out.push_back("fortune-teller");
  if (fruit_trees) out.push_back("fruit-trees");
  return out;
}

bool Rules::enable(const std::string& e) {
  if (e == "festival") festival = true;
  else if (e == "fortune-teller") fortune_teller = true;
  else if (e == "fruit-trees") fruit_trees = true;
  else return false;
  return true;
}

std::string Rules::to_string() const {
  std::string s = tileset;
  for (auto& e : expansions()) s += "+" + e;
  return s + "/" + std::to_string(players) + "p";
}

std::string Rules::validate() const {
  if (players < 2 || players > 6) return "players must be 2 to 6 (got " + std::to_string(players) + ")";
  if (tileset != "base" && tileset != "wheel-of-fortune")
    return "unknown tile set '" + tileset + "' (base or wheel-of-fortune)";
  return "";
}

std::string parse_expansions(const std::string& list, Rules& r) {
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty() || item == "none") continue;
    if (!r.enable(item))
      return "unknown expansion '" + item + "' (known: festival, fortune-teller, fruit-trees)";
  }
  return "";
}

}  // namespace carc
