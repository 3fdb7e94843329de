#include "rules.h"

#include <sstream>

namespace carc {

std::vector<std::string> Rules::expansions() const {
  std::vector<std::string> out;
  for_each_module(ModuleKind::Expansion, [&](const ModuleInfo& m) {
    if (expansion_set >> m.bit & 1) out.emplace_back(m.name);
  });
  return out;
}

ModuleSet Rules::modules() const {
  ModuleSet out = 0;
  for (size_t i = 0; i < kModules.size(); ++i) {
    const ModuleInfo& m = kModules[i];
    const bool on = m.kind == ModuleKind::TileSet ? m.name == tileset : (expansion_set >> m.bit & 1) != 0;
    if (on) out |= ModuleSet(1) << i;
  }
  return out;
}

bool Rules::enable(const std::string& e) {
  const ModuleInfo* m = find_module(ModuleKind::Expansion, e);
  if (!m) return false;
  set(Expansion(m->bit));
  return true;
}

std::string Rules::to_string() const {
  std::string s = tileset;
  for (auto& e : expansions()) s += "+" + e;
  return s + "/" + std::to_string(players) + "p";
}

std::string Rules::validate() const {
  if (players < 2 || players > 6) return "players must be 2 to 6 (got " + std::to_string(players) + ")";
  if (!find_module(ModuleKind::TileSet, tileset))
    return "unknown tile set '" + tileset + "' (" + module_names(ModuleKind::TileSet, ", ", " or ") + ")";
  if (expansion_set & ~kAllExpansions) return "unknown expansion bit set";
  return "";
}

std::string parse_expansions(const std::string& list, Rules& r) {
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty() || item == "none") continue;
    if (!r.enable(item))
      return "unknown expansion '" + item + "' (known: " + module_names(ModuleKind::Expansion) + ")";
  }
  return "";
}

}  // namespace carc
