// The game record (docs/record-format.md, shared spec §3): parse and validate, replay into
// a State, and write a State back out. Also the full JSON serialization of a state.
// Records are written in format 2 (`carcassonne-record/2`: the move object of every front end,
// `follower` and `take_back`); format 1 (the spec's `meeple` and `return`) still loads.
#pragma once

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "expansions/record_fields.h"
#include "state.h"

namespace carc {

// The record format this build writes, and the older one it still reads (docs/record-format.md).
inline constexpr const char* kRecordFormat = "carcassonne-record/2";
inline constexpr const char* kRecordFormatV1 = "carcassonne-record/1";
// The state JSON (state_to_json) this build writes, and the older one it still reads.
inline constexpr const char* kStateFormat = "carcassonne-state/2";
inline constexpr const char* kStateFormatV1 = "carcassonne-state/1";
// What a player may see (observation_json; public_view.h).
inline constexpr const char* kObservationFormat = "carcassonne-observation/2";

// A record that cannot be read or replayed. what() names the place ("turn 7: ...",
// "setup.players: ...") and the reason.
class RecordError : public std::runtime_error {
 public:
  RecordError(const std::string& msg, int turn = 0) : std::runtime_error(msg), turn_(turn) {}
  int turn() const { return turn_; }

 private:
  int turn_;
};

// ReturnSpec (a follower's place) and the modules' fields (the bases *Parts) are in
// expansions/record_fields.h.
struct TurnRecord : TurnRecordParts {
  std::string tile;
  int x = 0, y = 0, rotation = 0;  // rotation in degrees
  std::string follower;            // the follower's place (location or crown space); empty: none
  std::vector<std::string> discarded;
  std::vector<std::string> drawn;  // Fortune Teller: every tile drawn this turn (tile among them)
  std::optional<int> player;
  std::optional<ReturnSpec> take_back;  // Festival take-back
};

// The turn in progress (record format 2's "pending"): what a record of whole turns cannot hold
// yet, so that a game saved mid-turn is restored exactly: the tiles drawn for it (after an undo
// the generator no longer follows from the seed alone), the drawn tile chosen (Wheel of Fortune
// with the Fortune Teller) and the followers taken back for the Plague so far. One form for the
// server's saved games, the state JSON and downloads; replay() restores it, every decision
// checked by State::check_move (through notation's parse_move).
struct PendingTurn : PendingTurnParts {
  std::vector<std::string> draws;  // tile ids, in draw order (discarded tiles first)
  int choice = -1;                 // the drawn tile chosen (Choose move), -1: none
  bool empty() const { return draws.empty() && choice < 0 && parts_empty(); }
};

struct Record : RecordParts {
  std::vector<std::string> players;
  std::string tileset = "base";
  // setup.tileset_version: the version of the tile set the record was made with (0: not given).
  // Written for tile sets whose file has a "version" (the Wheel of Fortune: 2); a record that
  // names another version than this build's is refused with an error naming both.
  int tileset_version = 0;
  std::vector<std::string> expansions;
  uint64_t seed = 0;
  bool scripted = false;
  std::optional<std::pair<std::string, int>> start;  // tile id, rotation in degrees
  std::vector<TurnRecord> turns;
  PendingTurn pending;  // the turn in progress after the last whole turn (format 2 only)
  // Keeps the first n turns; a shortened record no longer has the turn in progress.
  void keep_turns(size_t n) {
    if (n < turns.size()) {
      turns.resize(n);
      pending = PendingTurn{};
    }
  }
};

// Parses a record; checks its shape (types, unknown fields) but not the moves.
Record parse_record(std::string_view text);
// One turn as a format 2 record writes it (one line of JSON): the one move object of records,
// replays and downloads (`tile`, `x`, `y`, `rotation`, `follower`, `take_back`, `fruit_type`,
// `fruit`, `plague`, with `player`, `discarded`, `drawn` when known).
std::string turn_json(const TurnRecord& t);
// The turn in progress as format 2 writes it (one line of JSON; "{}" when empty).
std::string pending_json(const PendingTurn& p);
// Serializes a record (2-space indentation, one turn per line).
std::string record_to_json(const Record& r);
// The rules a record's setup describes.
Rules rules_of(const Record& r);

struct Replay {
  State state;
  std::vector<ScoreEvent> events;
  std::vector<std::vector<int>> after_turn;  // scores after each turn
};

// Replays every turn, checking each, then the turn in progress (`pending`; "pending: ..." errors).
// With `final`, applies the end-of-game scoring at the end.
Replay replay(const Record& r, bool final = false);
// Fair draws (a server game with several people, docs/security.md): "" when every tile drawn
// after turn `from_turn` is the tile the record's seed draws (State::draw_random's generator),
// otherwise the first turn where it is not ("turn 12: drew C, but the seed draws D"). Throws
// RecordError for a record that does not replay.
std::string check_draws_follow_seed(const Record& r, int from_turn);
// A new game in the record's setup (start tile placed), at the first chance node.
State initial_state(const Record& r);
// The record of a game so far (setup from `names`/`scripted`, every placed turn, and the turn in
// progress as `pending`).
Record record_of(const State& s, const std::vector<std::string>& names, bool scripted = false);

// Applies one recorded turn to a state at a chance node (draws, then the move). Throws
// RecordError with the turn number. Exposed for interactive tools.
void apply_turn(State& s, const TurnRecord& t, int turn_number);
// Its first half: the turn's draws only (discarded tiles, then every drawn tile), each checked
// (known tile, left in the bag, discards really unplaceable, as many as the player draws), so the
// state waits for the turn's move. For tools that analyse a recorded position (`analyse`).
void apply_turn_draws(State& s, const TurnRecord& t, int turn_number);
// Converts a legal placement to a record turn (without draws and Plague entries).
TurnRecord turn_of(const State& s, const Move& m);
// Where a follower stands (or a segment slot lies), as a record names it.
ReturnSpec follower_place(const State& s, int follower_index);
ReturnSpec slot_place(const State& s, uint16_t slot);
// Human-readable description of a move: "K at (2,-1) rot 90, follower on city N".
std::string describe_move(const State& s, const Move& m);

// Full JSON serialization of a state: rules, board, followers, scores, bag, phase, history,
// and the generator; from_json restores an equal state.
std::string state_to_json(const State& s);
State state_from_json(std::string_view text);
// What player `p` may see of a state, as JSON: public_view (public_view.h, the one
// hidden-information policy) with "format" and "observer". Two states that differ only in hidden
// information give the same observation.
std::string observation_json(const State& s, int player);

}  // namespace carc
