// The modules' fields of records and named moves (record.h, notation.h): bases of TurnRecord,
// PendingTurn, Record, NamedMove and NotationOptions, so that every reader sees the fields while
// the modules own them; read and written by record_parts.cc and notation_parts.cc.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "move_ext.h"

namespace carc {

// A follower's place: a tile position and a location on it, or (x, y unused) a crown space
// "crown:SEGMENT:K" (Wheel of Fortune).
struct ReturnSpec {
  int x = 0, y = 0;
  std::string at;
  bool crown() const { return at.rfind("crown:", 0) == 0; }
};

// A whole turn's module fields (TurnRecord's base).
struct TurnRecordParts {
  std::string fruit_type;             // Fruit Trees: the stack put on a placed tree tile
  std::optional<ReturnSpec> harvest;  // Fruit Trees: harvested tree (x, y); `at` unused
  std::optional<int> harvest_value;   // the revealed token (required in random-draw records)
  std::vector<std::string> sell;      // Fruit Trees: fruit types sold
  std::vector<ReturnSpec> plague;     // Wheel of Fortune: followers taken back, in order
};

// The turn in progress' module fields (PendingTurn's base).
struct PendingTurnParts {
  std::vector<ReturnSpec> plague;  // Wheel of Fortune: the followers taken back, in order
  bool parts_empty() const { return plague.empty(); }
};

// A record's module setup fields (Record's base).
struct RecordParts {
  std::optional<std::array<std::array<uint8_t, 4>, kFruitTypes>> fruit_stacks;  // Fruit Trees: top first
};

// The modules' hidden fields of the state JSON, by path (public_view.h's kHiddenStateFields).
inline constexpr std::array<const char*, 2> kModuleHiddenStateFields = {"fruit.initial_stacks", "fruit.stacks"};

// A named move's module fields (NamedMove's base).
struct NamedMoveParts {
  std::string fruit_type;                      // Place, tree tile: the fruit stack put on it
  std::optional<std::pair<int, int>> harvest;  // Place: the tree harvested, by its cell
  std::vector<std::string> sell;               // Place: the fruit kinds sold
};

// The modules' notation options (NotationOptions' base).
struct NotationOptionsParts {
  // A tree tile with no `fruit_type` gets the first unused stack (the choice makes no difference,
  // R-8); otherwise naming the stack is required (records).
  bool default_fruit_stack = false;
};

}  // namespace carc
