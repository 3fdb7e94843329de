// The modules' rows of the engine's vocabulary (vocabulary.cc appends them to the base game's):
// the event kinds each expansion emits, scoring kinds in display order then the report-only ones,
// and the score categories it adds.
#pragma once

#include <array>

#include "../vocabulary.h"

namespace carc {

// The values of a fruit stack's tokens, top first as printed (a harvest scores the top one).
inline constexpr std::array<int, 4> kFruitTokenValues = {5, 4, 3, 2};
// The points of a sale of n different fruit types (n = 1..4; index 0 unused).
inline constexpr std::array<int, 5> kFruitSalePoints = {0, 3, 6, 10, 15};
// The points of each fruit token a player still holds at the end of the game.
inline constexpr int kFruitHeldTokenPoints = 1;

// The modules' tables in vocabulary_json() (GET /api/tables): the fruit kinds, sale points, token
// values and held tokens' points, the wheel's events (defined in modules.cc).
void modules_vocabulary_json(nlohmann::json& j);

inline constexpr std::array<EventKindInfo, 10> kModuleEventKinds = {{
    {"tent", "tent", EventStage::Placement, "board"},             // The Fortune Teller
    {"fruit", "fruit", EventStage::Placement, "board"},           // Fruit-Bearing Trees
    {"fortuna", "wheel", EventStage::WheelEvent, "wheel"},        // The Wheel of Fortune
    {"taxes", "wheel", EventStage::WheelEvent, "board"},
    {"famine", "wheel", EventStage::WheelEvent, "board"},
    {"storm", "wheel", EventStage::WheelEvent, "wheel"},
    {"inquisition", "wheel", EventStage::WheelEvent, "board"},
    {"crown", "wheel", EventStage::Crown, "wheel"},
    {"pig", "", EventStage::Pig, "wheel"},                        // report-only
    {"plague", "", EventStage::Plague, "board"},
}};

inline constexpr std::array<ScoreCategory, 3> kModuleScoreCategories = {{
    {"tent", "Tents"},
    {"fruit", "Fruit"},
    {"wheel", "Wheel"},
}};

}  // namespace carc
