// The modules' rows of the engine's vocabulary (vocabulary.cc appends them to the base game's):
// the event kinds each expansion emits, scoring kinds in display order then the report-only ones,
// and the score categories it adds.
#pragma once

#include <array>

#include "../vocabulary.h"

namespace carc {

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
