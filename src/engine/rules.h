// The rule variant of a game: tile set, expansions, player count and rule options.
// A plain value type that prints and parses itself (KataGo-style), with defaults that
// follow the decisions in docs/rules-decisions.md. The tile sets and expansions it knows are
// the rows of the module table (expansions/registry.h).
#pragma once

#include <string>
#include <vector>

#include "expansions/registry.h"

namespace carc {

// RulesParts (expansions/registry.h): the modules' rule options.
struct Rules : RulesParts {
  int players = 2;                 // 2..6, seat order is turn order
  std::string tileset = "base";    // a tile set row of kModules ("base", "wheel-of-fortune")
  ExpansionSet expansion_set = 0;  // bit int(Expansion) per expansion in play

  bool has(Expansion e) const { return expansion_set >> int(e) & 1; }
  void set(Expansion e, bool on = true) {
    expansion_set = on ? expansion_set | ExpansionSet(1) << int(e) : expansion_set & ~(ExpansionSet(1) << int(e));
  }

  // The rows of kModules in play (the tile set and the expansions on), one bit per row.
  ModuleSet modules() const;
  // Names of the expansions on, in the table's (canonical) order.
  std::vector<std::string> expansions() const;
  // Sets one expansion by name; returns false for an unknown name.
  bool enable(const std::string& expansion);
  // "base+festival+fortune-teller/3p" style summary.
  std::string to_string() const;
  // Checks the combination; returns "" or a message saying what is wrong.
  std::string validate() const;
  // Every field, compared by the compiler (Game::get caches by this: a field cannot be forgotten).
  bool operator==(const Rules& o) const = default;
};

// Parses a comma-separated list of expansions into `r`; returns "" or an error message.
std::string parse_expansions(const std::string& list, Rules& r);

}  // namespace carc
