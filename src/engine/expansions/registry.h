// The one table of the game's modules: every tile set and every expansion, one row each.
// Everything that lists expansions or tile sets (Rules, Game, the record reader, the CLI's help
// and checks, the server's answers and the web lobby through them, the Python module, the
// tests' variant enumeration) reads this table; a new expansion is a new row here plus its
// rules (ARCHITECTURE.md, "How a new expansion is added").
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace carc {

// An expansion's capability bit: its index in Rules::expansion_set (and in kExpansions).
enum class Expansion : uint8_t { Festival = 0, FortuneTeller = 1, FruitTrees = 2 };
constexpr int kNumExpansions = 3;
using ExpansionSet = uint32_t;  // bit int(Expansion)
static_assert(kNumExpansions <= 32, "ExpansionSet holds one bit per expansion");

// The modules' rule options (Rules' base; compared with the rest of Rules by its defaulted ==).
// Options for open questions (see docs/rules-decisions.md).
struct RulesParts {
  bool tent_scores_unoccupied = true;  // T-3: a completed tent scores 3 even with nobody on it
  bool operator==(const RulesParts&) const = default;
};

enum class ModuleKind : uint8_t {
  TileSet,    // the main tile set of a game (Rules::tileset): exactly one is in play
  Expansion,  // switched on in any combination on top of a tile set (Rules::expansion_set)
};

struct ModuleInfo {
  ModuleKind kind;
  std::string_view name;   // record, CLI, server and Python name ("fortune-teller")
  std::string_view label;  // human name ("The Fortune Teller")
  std::string_view tiles;  // the tile file it adds (data/tiles/<tiles>.json)
  bool board;              // it starts with a board (data/boards/) instead of a start tile
  int bit;                 // Expansion: its capability bit (int(Expansion)); TileSet: -1
};

// The table. Tile sets first; expansions in their canonical order (bit order), which is also the
// order their tiles are appended to a Game's tile types and the order Rules::expansions() lists.
inline constexpr std::array<ModuleInfo, 2 + kNumExpansions> kModules = {{
    {ModuleKind::TileSet, "base", "Base game", "base", false, -1},
    {ModuleKind::TileSet, "wheel-of-fortune", "The Wheel of Fortune", "wheel-of-fortune", true, -1},
    {ModuleKind::Expansion, "festival", "The Festival", "festival", false, int(Expansion::Festival)},
    {ModuleKind::Expansion, "fortune-teller", "The Fortune Teller", "fortune-teller", false,
     int(Expansion::FortuneTeller)},
    {ModuleKind::Expansion, "fruit-trees", "Fruit-Bearing Trees", "fruit-trees", false, int(Expansion::FruitTrees)},
}};

// A module's row index in kModules (a compile-time constant for the rule files), -1 when unknown.
constexpr int module_index(std::string_view name) {
  for (size_t i = 0; i < kModules.size(); ++i)
    if (kModules[i].name == name) return int(i);
  return -1;
}
// The modules in play in a game, one bit per row of kModules (its tile set and its expansions):
// the rule files loop over the bits that concern them in this fixed order (no virtual calls).
using ModuleSet = uint32_t;
static_assert(kModules.size() <= 32, "ModuleSet holds one bit per row");
constexpr ModuleSet module_bit(std::string_view name) { return ModuleSet(1) << module_index(name); }

// The rows of one kind, in table order.
template <class F>
constexpr void for_each_module(ModuleKind kind, F&& f) {
  for (const ModuleInfo& m : kModules)
    if (m.kind == kind) f(m);
}

// The row of an expansion (by bit) and of a name of that kind, or nullptr.
const ModuleInfo& expansion_info(Expansion e);
const ModuleInfo* find_module(ModuleKind kind, std::string_view name);
// Every expansion switched on.
constexpr ExpansionSet kAllExpansions = (ExpansionSet(1) << kNumExpansions) - 1;

// The names of one kind for messages and help, joined by `sep` ("festival, fortune-teller, fruit-trees")
// and by `last` before the last one when given ("base or wheel-of-fortune" with ", ", " or ").
std::string module_names(ModuleKind kind, std::string_view sep = ", ", std::string_view last = {});

}  // namespace carc
