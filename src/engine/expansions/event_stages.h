// The order of a turn's events in the engine's event log (vocabulary.h): the modules' stages
// (the Wheel of Fortune's), then the placement's and the end-of-game scoring; and the name of a
// module's decision phase. Read by vocabulary.h; the modules' event kinds are in vocabulary_rows.h.
#pragma once

#include <array>
#include <cstdint>

namespace carc {

// Where a turn's events stand in the engine's event log: every event of a turn comes in this
// order of stages (ranks), the end-of-game scoring after every turn.
enum class EventStage : uint8_t {
  Pig = 0,        // Wheel of Fortune: the pig moves (report-only event "pig")
  WheelEvent,     // the segment's event scores: fortuna, taxes, famine, storm, inquisition
  Plague,         // the Plague: each follower taken back (report-only event "plague")
  Crown,          // the crown spaces of the pig's segment score
  Placement,      // the placed tile's features and the fruit action score
  Final,          // the end-of-game scoring (events with final = true)
};
inline constexpr int kEventStages = 6;
inline constexpr std::array<const char*, kEventStages> kEventStageNames = {"pig",       "wheel-event", "plague",
                                                                          "crown",     "placement",   "final"};

// The name of the module's decision phase (Phase::Plague) in every JSON form (kPhaseNames).
inline constexpr const char* kModulePhaseName = "plague";

}  // namespace carc
