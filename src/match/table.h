// A game in progress (issue #36): the one object that the server, `carcassonne play` and the
// tests drive. It owns the state, the seats (people and AI players with their spec and seat
// seed), the one ordered event log, the turn in progress (restored from its saved form), the
// undo policy, resignation, AI turns and hints. It has no HTTP, no storage and no threads:
// a front end asks it for decisions ("AI seat N must move: here is what to search"), runs the
// search where it wants (the server on its worker pool, without the game's lock), and hands the
// result back. Its errors are `Refused` values that say what is refused and why; the server maps
// their kind to an HTTP status. What is allowed is written in docs/security.md ("Undo policy")
// and docs/server.md ("Seats, tokens, AI"; the AI failure policy).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "notation.h"
#include "player.h"
#include "record.h"
#include "state.h"

namespace carc::match {

// One seat at the table.
struct Seat {
  std::string name;
  std::string type = "human";  // "human" (at the creator's screen), "remote" (another person), "ai"
  std::string ai;              // the AI spec of an "ai" seat
  bool resigned = false;       // played on automatically (greedy) from now on
  bool person() const { return type != "ai"; }
};

// A request the table refuses; nothing was changed. `kind` says why, for a front end's status
// (the server: Conflict 409, Forbidden 403, Invalid 400, Illegal 422).
class Refused : public std::runtime_error {
 public:
  enum Kind { Conflict, Forbidden, Invalid, Illegal };
  Refused(Kind k, const std::string& what) : std::runtime_error(what), kind(k) {}
  Kind kind;
};

// The AI failure policy (docs/server.md, "When an AI fails"): an AI seat whose player cannot be
// made (e.g. its spec is beyond the server's caps now) or whose search fails (throws, or
// answers an illegal move) does not move, and nothing plays in its place: the table keeps the
// failure (the seat, its spec, what failed), the front ends show it, and the game waits. Any
// change by a person (undo, resignation) clears it, and the AI then tries again; so does
// loading the game anew (a server restarted with other caps).
struct AiFailure {
  int seat = -1;
  std::string spec;
  std::string error;
};

// Makes the player of an AI spec with its seat seed (throws std::invalid_argument for a spec it
// refuses). The server's applies its caps and cancel flag; the CLI's is ai::make_player.
using PlayerFactory = std::function<std::unique_ptr<ai::Player>(const std::string& spec, uint64_t seed)>;

// An AI decision that is due: search `position` (a copy: the table may change meanwhile) with
// `player`, then hand the result to Table::finish_ai_turn.
struct AiTurn {
  int seat = -1;
  std::string spec;  // the seat's spec, or "greedy" for a resigned seat
  int turn = 0;      // the state's turn when asked
  std::shared_ptr<ai::Player> player;
  std::shared_ptr<const State> position;
};
struct AiResult {
  Move move;
  std::string error;  // "" when the search answered a legal move
};
// Runs the search of an AI turn (the caller's thread; no table involved): any exception and an
// illegal answer become AiResult::error.
AiResult think(const AiTurn& t);

class Table {
 public:
  // A game from a record (a new game: a record with no turns). Throws RecordError or
  // std::invalid_argument when the record does not replay, or its player count is not the
  // seats'. `view_only`: a finished or uploaded game that is only looked at (nothing is drawn).
  Table(std::vector<Seat> seats, const Record& rec, bool view_only = false, bool allow_hints = true);
  Table(const Table& o);
  Table& operator=(const Table& o);
  Table(Table&&) = delete;

  // --- What the table holds ---
  const State& state() const { return *state_; }
  const std::vector<ScoreEvent>& events() const { return events_; }
  const std::vector<Seat>& seats() const { return seats_; }
  const Seat& seat(int i) const { return seats_.at(size_t(i)); }
  std::vector<std::string> names() const;
  bool view_only() const { return view_only_; }
  bool allow_hints() const { return allow_hints_; }
  const std::string& end_reason() const { return end_reason_; }  // "" unless ended early (resignation)
  const std::optional<AiFailure>& ai_failure() const { return failure_; }
  bool over() const { return view_only_ || !end_reason_.empty() || state_->is_terminal(); }
  std::string status() const;  // "view", "finished" or "playing"
  // How many people play: one for the "human" seats (one screen) plus each remote seat.
  int people() const;
  bool ai_only() const;  // no seat a person plays
  bool has_ai() const;
  bool has_remote() const;
  // The seat that plays automatically now (an AI, or a resigned seat), or -1 (also while an AI
  // failure waits for a person).
  int auto_seat() const;
  // The game as a record (players named by the seats; the turn in progress is not in it).
  Record record() const { return record_of(*state_, names()); }

  // --- Changes; each throws Refused and leaves the table as it was ---
  // Checks that `seat` may move now (`turn`: the turn the client saw, 1-based; 0: any).
  void check_move_allowed(int seat, int turn = 0) const;
  // Plays `m` for `seat` (checked: Illegal with the engine's reason) and draws to the next decision.
  void play(int seat, const Move& m);
  // The undo policy (docs/security.md): `seat` takes back its own last move together with the
  // automatic replies after it; never another person's move, never in a finished or view-only
  // game, never with remote seats. What is still hidden is drawn afresh from `fresh_seed` (the
  // server: from the secure source); the undone turn's own draws come again.
  void undo(int seat, uint64_t fresh_seed);
  // `seat` resigns: it is played on automatically; when one seat is left the game ends.
  void resign(int seat);
  // Closes the game (e.g. deleted by the server's operator): only viewed from now on.
  void close() { view_only_ = true; }

  // --- AI turns ---
  // The AI decision due now, or nothing (a person's turn, the game is over, or an AI failure
  // waits). The seat's player is made on first use by `make` with seat_seed(state seed, seat);
  // when that fails the failure is kept (AiFailure) and nothing is returned.
  std::optional<AiTurn> ai_turn(const PlayerFactory& make);
  // Applies a finished search: its move (checked again), or its failure (kept, see AiFailure).
  // The turn must still be due (the caller drops results of a table that changed meanwhile).
  void finish_ai_turn(const AiTurn& t, const AiResult& r);
  // Players made so far are kept across a reload of the same game (server: another process saved it).
  void adopt_players(const Table& o);

  // --- Hints ---
  // The position a hint for `seat` searches: the state with everything hidden drawn afresh from
  // `hidden_seed` (the search sees only what the player sees). Refused when hints are off, the
  // game is over or view-only, it is not `seat`'s decision, or `seat` resigned.
  State hint_position(int seat, uint64_t hidden_seed) const;

  // --- Saving ---
  // The table's part of the server's stored meta: seats (name, type, ai, resigned), "view_only",
  // "end_reason", "allow_hints". The game itself, its turn in progress included (the record's
  // "pending": draws, Choose and Plague take-backs so far), is record_json().
  nlohmann::json to_json() const;
  std::string record_json() const { return record_to_json(record()); }
  // The table saved by to_json and record_json. Throws std::invalid_argument naming what does
  // not fit (a bad meta, a record that does not replay); PendingError when the turn in progress
  // (the record's, or a meta "pending" of a game saved before record format 2) does not fit.
  // `allow_hints_default` is used when the meta has no "allow_hints" (saved before hints existed).
  static std::unique_ptr<Table> from_json(const nlohmann::json& meta, const std::string& record_text,
                                          std::optional<bool> allow_hints_default = std::nullopt);

 private:
  void advance();
  void check_seat(int seat) const;
  std::vector<Seat> seats_;
  std::unique_ptr<State> state_;
  std::vector<ScoreEvent> events_;
  bool view_only_ = false;
  bool allow_hints_ = true;
  std::string end_reason_;
  std::optional<AiFailure> failure_;
  std::vector<std::shared_ptr<ai::Player>> players_;  // per seat, made on first use (shared by copies)
};

// How many people play at these seats: one for the "human" seats (one screen) plus each remote seat.
int people(const std::vector<Seat>& seats);
// Hints are on by default when at most one person plays (alone against the computer, or
// hot-seat at one screen).
inline bool hints_default(int people) { return people <= 1; }

// Table::from_json: the saved turn in progress does not fit the game (the rest loaded).
class PendingError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The turn in progress as games saved before record format 2 kept it in their meta ("pending":
// draws, choice, plague), read into the one form ("" or why the JSON is not one; no state involved).
std::string pending_from_json(const nlohmann::json& j, PendingTurn& p);

}  // namespace carc::match
