// The modules' parts of records and of the state JSON (record.cc): each expansion reads and
// writes its own fields (the setup's fruit stacks, a turn's fruit stack and action and Plague
// take-backs, the turn in progress's Plague take-backs, the state's fruit stacks), with the
// record reader's bounded helpers (record_json.h), so record.cc holds the base format's fields
// only. Output is byte-identical to the format before the split (docs/record-format.md): the
// modules' fields come after the base fields, in this order.
#pragma once

#include <array>
#include <string>

#include "../record_json.h"

namespace carc {

class State;
struct NamedMove;
struct TurnLog;
struct Move;
struct TileType;

// The fields each module adds to the setup, a turn and the turn in progress (check_keys).
inline constexpr std::array<const char*, 1> kModuleSetupKeys = {"fruit_stacks"};
inline constexpr std::array<const char*, 3> kModuleTurnKeys = {"fruit_type", "fruit", "plague"};
inline constexpr std::array<const char*, 1> kModulePendingKeys = {"plague"};

// Records: read (checked, RecordError naming the field) and written.
void modules_read_setup(const record_json::json& su, Record& r);
void modules_read_turn(const record_json::json& tj, const std::string& where, int n, TurnRecord& t);
void modules_read_pending(const record_json::json& pj, PendingTurn& p);
void modules_write_setup(const Record& r, record_json::ordered_json& su);
void modules_write_turn(const TurnRecord& t, record_json::ordered_json& tj);
void modules_write_pending(const PendingTurn& p, record_json::ordered_json& j);
// The new game's module state a record sets (the fruit stacks of a scripted record). With a start
// tile the rule set is not checked (the state's own check refuses a mismatch).
void modules_initial_state(const Record& r, State& s, bool start_tile);

// The state JSON: the hidden module fields it adds to the public view, the setup a state's
// record replays from, the hidden fields restored after the replay, and state format 1's
// turn in progress.
void modules_write_state(const State& s, record_json::ordered_json& j);
void modules_state_setup(const record_json::json& j, record_json::ordered_json& setup);
void modules_read_state(const record_json::json& j, State& s);
void modules_read_pending_v1(const record_json::json& j, PendingTurn& p);

// The public view (public_view.cc): each module's public fields (the trees and held fruit, the
// wheel), a drawn tile's module fields, and what a module hides of a record in progress (the
// scripted fruit stacks).
void modules_public_view(const State& s, record_json::ordered_json& j);
void modules_drawn_json(const TileType& tt, record_json::ordered_json& d);
// The drawn tile chosen by a module's decision before placing (the Wheel of Fortune's Choose), or -1.
int modules_chosen_tile(const State& s);
void modules_hide_record(Record& r);

// Replaying a record's turn (apply_turn): the steps a module takes before the placement (a wheel
// tile chosen among several drawn, the Plague's take-backs), the module fields of the named
// placement, and what a module does with the placement before it is applied (a random-draw
// record's harvested token put on top of its stack). Each fails with RecordError naming the turn.
void modules_replay_steps(State& s, const TurnRecord& t, const std::string& where, int n);
void modules_name_turn(const TurnRecord& t, NamedMove& named);
void modules_before_apply(State& s, const TurnRecord& t, const Move& m, const std::string& where, int n);
// Writing a record: the module fields of a turn from its named move (turn_of), the setup a
// scripted record needs (the fruit stacks), a history entry's module fields (record_of).
void modules_turn_of(const NamedMove& n, TurnRecord& t);
void modules_record_setup(const State& s, bool scripted, Record& r);
void modules_record_turn(const State& s, const TurnLog& tl, TurnRecord& t);
// describe_move: a move kind a module owns (true: `d` is the whole description), the follower's
// place when a module owns it, the take-back when a module owns its place, the rest of a placement.
bool modules_describe_step(const State& s, const Move& m, std::string& d);
bool modules_describe_follower(const State& s, const Move& m, std::string& d);
bool modules_describe_take_back(const Move& m, const TurnRecord& t, std::string& d);
void modules_describe_place(const Move& m, const TurnRecord& t, std::string& d);

}  // namespace carc
