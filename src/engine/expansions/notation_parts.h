// The modules' parts of the notation (notation.cc): each expansion reads and writes its own
// fields of a named move (crown spaces, the Plague's take-back, fruit stacks and actions), so
// parse_move and name_move hold the base game's parts only and enter the modules here, at fixed
// points, in a fixed order (the order of the checks, and so of the errors, is part of the
// behaviour). Implemented in notation_parts.cc. Included by notation.h only.
#pragma once

#include <cstddef>
#include <string>

namespace carc {

struct NamedMove;
struct MoveResult;
struct NotationOptions;
struct TileType;
struct ReturnSpec;
struct Move;
class State;
struct PendingTurn;

// A module's part of a named move: not the module's (the base parse goes on), read into the
// move, or refused (the refusal is in the MoveResult passed in).
enum class NamePart : unsigned char { NotMine, Done, Refused };

// Before anything is looked up: the longest name among the modules' fields into `longest`;
// false with the refusal in `out` when a list of names is too long.
bool modules_name_lengths(const NamedMove& n, size_t& longest, MoveResult& out);
// A move kind or turn step a module owns (a Plague decision; any move while one is pending):
// Done or Refused with the result in `out`, or NotMine.
NamePart modules_parse_step(const State& s, const NamedMove& n, MoveResult& out);
// The follower's place when a module owns it (a crown space).
NamePart modules_parse_follower(const State& s, const NamedMove& n, Move& m, MoveResult& out);
// The follower taken back when a module owns its place (a crown space).
NamePart modules_parse_take_back(const State& s, const NamedMove& n, Move& m, MoveResult& out);
// The modules' parts of a placement of tile `tt` (the fruit stack and action): false with the
// refusal in `out` when one does not name anything.
bool modules_parse_place(const State& s, const NamedMove& n, const TileType& tt, const NotationOptions& opt,
                         Move& m, MoveResult& out);

// name_move's counterparts: true when the module named the move (a Plague decision) or the part.
bool modules_name_step(const State& s, const Move& m, NamedMove& n);
bool modules_name_follower(const State& s, const Move& m, NamedMove& n);
bool modules_name_take_back(const State& s, const Move& m, NamedMove& n);
void modules_name_place(const State& s, const Move& m, NamedMove& n);

// The turn in progress: the modules' decisions in it (the Plague's take-backs), saved and restored.
bool modules_pending_phase(const State& s);  // a phase a module owns that a saved turn can stop in
void modules_pending_of(const State& s, PendingTurn& p);
bool modules_pending_decisions(const PendingTurn& p);  // the saved turn holds module decisions
std::string modules_apply_pending(State& s, const PendingTurn& p);

// Fruit-Bearing Trees' names, shared by every layer.
// Fruit kinds: index of a name in kFruitNames, or -1.
int fruit_index(const std::string& name);
// "apple, ..." for error messages.
std::string fruit_list();

}  // namespace carc
