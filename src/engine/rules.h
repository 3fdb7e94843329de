// The rule variant of a game: tile set, expansions, player count and rule options.
// A plain value type that prints and parses itself (KataGo-style), with defaults that
// follow the decisions in docs/rules-decisions.md.
#pragma once

#include <string>
#include <vector>

namespace carc {

struct Rules {
  int players = 2;                 // 2..6, seat order is turn order
  std::string tileset = "base";    // "base" or "wheel-of-fortune"
  bool festival = false;           // The Festival
  bool fortune_teller = false;     // The Fortune Teller
  bool fruit_trees = false;        // The Fruit-Bearing Trees
  // Options for open questions (see docs/rules-decisions.md).
  bool tent_scores_unoccupied = true;  // T-3: a completed tent scores 3 even with nobody on it

  // Expansion names in canonical order: festival, fortune-teller, fruit-trees.
  std::vector<std::string> expansions() const;
  // Sets one expansion by name; returns false for an unknown name.
  bool enable(const std::string& expansion);
  // "base+festival+fortune-teller/3p" style summary.
  std::string to_string() const;
  // Checks the combination; returns "" or a message saying what is wrong.
  std::string validate() const;
  bool operator==(const Rules& o) const {
    return players == o.players && tileset == o.tileset && festival == o.festival &&
           fortune_teller == o.fortune_teller && fruit_trees == o.fruit_trees &&
           tent_scores_unoccupied == o.tent_scores_unoccupied;
  }
};

// Parses a comma-separated list of expansions into `r`; returns "" or an error message.
std::string parse_expansions(const std::string& list, Rules& r);

}  // namespace carc
