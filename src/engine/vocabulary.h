// The engine's vocabulary as data: the tables every front end shows, so that none keeps a copy
// (docs/vocabulary.md). Score kinds (the `kind` of a ScoreEvent) with their categories and
// display order, the report-only event kinds, the order in which a turn's events happen, the
// feature kinds, the fruit kinds and the points of a fruit sale. The server serves them
// (GET /api/tables, vocabulary_json()), the web client reads them from there.
#pragma once

#include <array>

#include <nlohmann/json.hpp>

#include "expansions/event_stages.h"
#include "types.h"

namespace carc {

// EventStage, kEventStages and kEventStageNames (the order of a turn's events) are in
// expansions/event_stages.h: the modules' stages come first.

// One kind of event: its name (ScoreEvent::kind), the score category it counts for in a
// breakdown ("" for report-only events), its stage within a turn, and where a client shows it:
// "wheel" for what happens to the Wheel of Fortune as a whole (the pig's move, Fortuna, the
// storm, the crown spaces), "board" for what happens at a tile (x, y).
struct EventKindInfo {
  const char* name;
  const char* category;
  EventStage stage;
  const char* where;
};
// Every event kind the engine emits, scoring kinds in display order, then the report-only ones:
// the base game's, then the modules' (expansions/vocabulary_rows.h).
extern const std::array<EventKindInfo, 14> kEventKinds;
// A score breakdown's categories in display order, with their labels (the base game's, then the modules').
struct ScoreCategory {
  const char* name;
  const char* label;
};
extern const std::array<ScoreCategory, 7> kScoreCategories;

// The event kind's entry, or nullptr for a name the engine never emits.
const EventKindInfo* event_kind(const std::string& name);
// The score kind of a feature scored (a field scores as a "farm").
const char* score_kind_name(Kind k);

// The phases of a game, one name each in every JSON form (state JSON, observation, the server's
// views and legal moves, Python's State.phase): "chance" (a tile is to be drawn), "place" (the
// turn player places, or chooses a drawn wheel tile), "plague" (Wheel of Fortune: a player takes
// a follower back), "terminal" (the game is over). Indexed by Phase.
inline constexpr std::array<const char*, 4> kPhaseNames = {"chance", "place", kModulePhaseName, "terminal"};
class State;
// The phase name of a state (terminal and chance judged by is_terminal()/is_chance()).
const char* phase_name(const State& s);

// All of the tables above (and feature kinds, fruit kinds, wheel events) as one JSON object:
// what GET /api/tables serves.
nlohmann::json vocabulary_json();

}  // namespace carc
