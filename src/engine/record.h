// The game record (docs/record-format.md, shared spec §3): parse and validate, replay into
// a State, and write a State back out. Also the full JSON serialization of a state.
#pragma once

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "state.h"

namespace carc {

// A record that cannot be read or replayed. what() names the place ("turn 7: ...",
// "setup.players: ...") and the reason.
class RecordError : public std::runtime_error {
 public:
  RecordError(const std::string& msg, int turn = 0) : std::runtime_error(msg), turn_(turn) {}
  int turn() const { return turn_; }

 private:
  int turn_;
};

// A follower's place: a tile position and a location on it, or (x, y unused) a crown space
// "crown:SEGMENT:K".
struct ReturnSpec {
  int x = 0, y = 0;
  std::string at;
  bool crown() const { return at.rfind("crown:", 0) == 0; }
};

struct TurnRecord {
  std::string tile;
  int x = 0, y = 0, rotation = 0;  // rotation in degrees
  std::string meeple;              // empty: no follower deployed
  std::vector<std::string> discarded;
  std::vector<std::string> drawn;  // Fortune Teller: every tile drawn this turn (tile among them)
  std::optional<int> player;
  std::optional<ReturnSpec> ret;   // Festival take-back
  std::string fruit_type;          // Fruit Trees: the stack put on a placed tree tile
  std::optional<ReturnSpec> harvest;  // Fruit Trees: harvested tree (x, y); `at` unused
  std::optional<int> harvest_value;   // the revealed token (required in random-draw records)
  std::vector<std::string> sell;      // Fruit Trees: fruit types sold
  std::vector<ReturnSpec> plague;     // Wheel of Fortune: followers taken back, in order
};

struct Record {
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
  std::optional<std::array<std::array<uint8_t, 4>, kFruitTypes>> fruit_stacks;  // top first
  std::vector<TurnRecord> turns;
};

// Parses a record; checks its shape (types, unknown fields) but not the moves.
Record parse_record(std::string_view text);
// Serializes a record (2-space indentation, one turn per line).
std::string record_to_json(const Record& r);
// The rules a record's setup describes.
Rules rules_of(const Record& r);

struct Replay {
  State state;
  std::vector<ScoreEvent> events;
  std::vector<std::vector<int>> after_turn;  // scores after each turn
};

// Replays every turn, checking each. With `final`, applies the end-of-game scoring at the end.
Replay replay(const Record& r, bool final = false);
// Fair draws (a server game with several people, docs/security.md): "" when every tile drawn
// after turn `from_turn` is the tile the record's seed draws (State::draw_random's generator),
// otherwise the first turn where it is not ("turn 12: drew C, but the seed draws D"). Throws
// RecordError for a record that does not replay.
std::string check_draws_follow_seed(const Record& r, int from_turn);
// A new game in the record's setup (start tile placed), at the first chance node.
State initial_state(const Record& r);
// The record of a game so far (setup from `names`/`scripted`, every placed turn).
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
// What player `p` may see of a state, as JSON: the state JSON without the hidden parts (the
// generator and seed that decide future draws, the order of face-down fruit tokens).
// Two states that differ only in hidden information give the same observation.
std::string observation_json(const State& s, int player);

}  // namespace carc
