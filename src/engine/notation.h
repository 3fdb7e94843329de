// Moves as people and files name them: the drawn tile by id, board coordinates, the rotation in
// degrees, follower places by location name ("N", "Sw", "C") or crown space ("crown:taxes:0"),
// fruit stacks and kinds by name. One converter each way, used by the record reader, and meant
// for every front end (server, Python), so a named move means the same everywhere
// (docs/vocabulary.md). Errors are values, never exceptions.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "input_limits.h"
#include "record.h"
#include "state.h"
#include "expansions/notation_parts.h"

namespace carc {

// NamedMoveParts, NotationOptionsParts: the modules' fields (expansions/record_fields.h).
struct NamedMove : NamedMoveParts {
  MoveKind kind = MoveKind::Place;
  std::string tile;      // the drawn tile to play, by id ("" : by `choice`, else the tile to place now)
  int choice = -1;       // index among the drawn tiles (-1: by `tile`)
  int x = 0, y = 0;      // Place: the cell
  int rotation = 0;      // Place: degrees clockwise, 0, 90, 180 or 270 (any of equivalent rotations)
  std::string follower;  // Place: location on the placed tile or a crown space; "" none
  // Place: the follower taken back (Festival), by its place or crown space.
  // Plague: the follower the deciding player takes back, by its place.
  std::optional<ReturnSpec> take_back;
};

enum class MoveStatus : uint8_t {
  Ok,
  Malformed,  // the named move cannot mean anything (bad rotation, unknown fruit name): a client error
  Illegal,    // it names a move, but not a legal one now
};

struct MoveResult {
  Move move;
  MoveStatus status = MoveStatus::Ok;
  std::string error;  // why, in words, when status != Ok
  bool ok() const { return status == MoveStatus::Ok; }
};

struct NotationOptions : NotationOptionsParts {};

// The engine move a named move stands for at state `s`, checked (State::check_move) when it names one.
MoveResult parse_move(const State& s, const NamedMove& n, const NotationOptions& opt = {});
// The named form of a legal move at state `s` (parse_move(s, name_move(s, m)) gives m back).
NamedMove name_move(const State& s, const Move& m);

// The half-finished turn of `s` (empty at the start of a turn).
PendingTurn pending_of(const State& s);
// Restores a half-finished turn in two steps: its draws on the state the record replays to (a
// chance node), then, once the state has advanced to the decision, the Choose and the Plague
// take-backs. Each returns "" or why the saved turn does not fit the game (the state is then
// left at the last step that fitted: the caller reports the error, it never drops it silently).
std::string apply_pending_draws(State& s, const PendingTurn& p);
std::string apply_pending_decisions(State& s, const PendingTurn& p);
// Both steps, for a state that is not advanced in between (records and the state JSON: the
// saved draws reach the decision, or there are no decisions). "" or why the turn does not fit.
std::string apply_pending(State& s, const PendingTurn& p);

// Index into s.followers() of `player`'s follower at a named place, or -1.
int follower_at(const State& s, const ReturnSpec& at, int player);

}  // namespace carc
