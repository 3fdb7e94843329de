// Games in memory: a Session is one game (state, seats, version for live updates); Games is
// the table of sessions over the database, where every change to a game is committed
// (saved, published to the event streams, and the AI started when it is its turn).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ai_pool.h"
#include "api.h"
#include "notation.h"
#include "player.h"
#include "record.h"
#include "state.h"

namespace carc::server {

class Store;
struct GameRow;

struct Seat {
  std::string name;
  std::string type = "human";  // "human" (held by the creator), "remote" (joins by link), "ai"
  std::string ai;              // AI spec for "ai" seats
  std::string token;           // the seat's secret: only in memory, only until the creator got it
  std::string token_hash;      // SHA-256 of the token (hex): what is stored and compared
  bool resigned = false;
  bool joined = false;
  // Chat: this seat lets spectators read the game's chat (they see it only when every seat a
  // person holds allows it).
  bool chat_public = false;
};

// One chat message of a game: the seat that posted it, its name then, the cleaned text, and
// when (unix ms).
struct ChatLine {
  int seat = 0;
  std::string name;
  std::string text;
  int64_t at = 0;
};

// What a change to a game may modify, copied before the change so that a change that cannot
// be saved leaves the game exactly as it was (Games::change).
struct SessionSnapshot {
  std::unique_ptr<State> state;
  std::vector<ScoreEvent> events;
  std::vector<Seat> seats;
  std::string end_reason;
  uint64_t version = 0;
  int thinking = -1;
  std::vector<ChatLine> chat;
  std::string rematch;
};

struct Session {
  std::mutex m;
  std::string id;
  int64_t created = 0;
  std::vector<Seat> seats;
  std::unique_ptr<State> state;
  std::vector<ScoreEvent> events;
  bool view_only = false;
  std::string end_reason;  // set when the game ended early (resignation)
  // Chat between the seats (POST /api/games/{id}/chat), stored in the meta: at most
  // limits::kMaxChatMessages, oldest first; each seat's last post (for limits::kChatInterval).
  std::vector<ChatLine> chat;
  std::vector<std::chrono::steady_clock::time_point> last_chat;
  // The rematch of this finished game (POST /api/games/{id}/rematch), "" when none yet.
  std::string rematch;
  // The client that created (or uploaded) the game, by its quota key (address_key): its AI
  // tasks count against that client's share of the AI pool (docs/security.md). "" for games
  // stored before this was kept.
  std::string owner;
  // Paused by the server's operator (`carcassonne games pause`): no change, no AI move.
  bool paused = false;
  // Fair draws (games with a seat another person plays, docs/security.md "Fair draws"): the
  // draws from turn draw_from_turn + 1 on follow the game's secret seed, committed to at the
  // start by draw_commitment = SHA-256(draw_salt + ":" + seed); the salt and the seed are
  // published when the game is over. draw_from_turn < 0: not a fair-draw game.
  int draw_from_turn = -1;
  std::string draw_salt, draw_commitment;
  // Grows at every change seen by clients, also across restarts: it is saved with the game, and
  // a game loaded from the database continues from max(saved + 1, the time in microseconds).
  uint64_t version = 1;
  bool stored = false;      // saved at least once (later saves must find the row: see Games::commit)
  // The version in the stored row as this process last loaded or saved it: a save must find it
  // unchanged (Store::update), or another process changed the game (409, reloaded).
  uint64_t stored_version = 0;
  // Another process changed the stored game: find() drops this copy and loads the game anew.
  std::atomic<bool> stale{false};
  int thinking = -1;        // seat of the AI that is thinking, or -1
  bool ai_busy = false;     // an AI task is queued or running
  // Several processes: the queued AI task waits for another process's claim on this move to end
  // (Store::claim_ai_move); any new scheduling replaces it. ai_task numbers the tasks: only the
  // newest one runs.
  bool ai_claim_wait = false;
  uint64_t ai_task = 0;
  // The cancel flag of this game's AI searches (MctsConfig::cancel of its players): set by the
  // AI pool when the server stops; a search that sees it returns and its move is not played.
  std::shared_ptr<std::atomic<bool>> ai_cancel = std::make_shared<std::atomic<bool>>(false);
  // Hints ("suggest a move", POST /api/games/{id}/hint): allowed in this game? Chosen at
  // creation (default: hints_default), stored in the meta, never changed afterwards.
  bool allow_hints = true;
  bool hint_running = false;  // a hint for this game is being computed (one at a time)
  std::vector<std::chrono::steady_clock::time_point> last_hint;  // per seat: when it last asked
  std::vector<std::unique_ptr<ai::Player>> players;  // per seat, made on first use
  std::map<uint64_t, Deliver> watchers;  // the open event streams of this game, by number
  uint64_t next_watcher = 0;

  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const auto& s : seats) n.push_back(s.name);
    return n;
  }
  bool over() const { return view_only || !end_reason.empty() || state->is_terminal(); }
  std::string status() const {
    if (view_only) return "view";
    if (!end_reason.empty() || state->is_terminal()) return "finished";
    return "playing";
  }
  // How many people play: the creator (if any seat is "human") plus each remote seat.
  int people() const {
    int n = std::any_of(seats.begin(), seats.end(), [](const Seat& x) { return x.type == "human"; }) ? 1 : 0;
    for (const Seat& x : seats) n += x.type == "remote";
    return n;
  }
  // A game of computers only: no seat a person plays (it runs at the lowest AI priority).
  bool ai_only() const {
    return std::none_of(seats.begin(), seats.end(), [](const Seat& x) { return x.type == "human" || x.type == "remote"; });
  }
  bool has_ai() const {
    return std::any_of(seats.begin(), seats.end(), [](const Seat& x) { return x.type == "ai"; });
  }
  // Spectators may read the chat: every seat a person holds allowed it.
  bool chat_public() const {
    bool any = false;
    for (const Seat& x : seats)
      if (x.type != "ai") {
        if (!x.chat_public) return false;
        any = true;
      }
    return any;
  }
  bool has_remote() const {
    return std::any_of(seats.begin(), seats.end(), [](const Seat& s) { return s.type == "remote"; });
  }
  // The seat that plays automatically now (an AI, or a resigned player), or -1.
  int auto_seat() const {
    if (over() || paused) return -1;
    const int p = state->current_player();
    if (p < 0) return -1;
    return seats[p].type == "ai" || seats[p].resigned ? p : -1;
  }
  // The seat a token holds (compared by SHA-256, in constant time), or -1.
  int seat_of_token(const std::string& token) const;
  SessionSnapshot snapshot() const;
  void restore(SessionSnapshot&& snap);
};

// Draws until a tile is to be placed or the game ends.
void advance(State& s);
// The turn in progress as games saved before record format 2 kept it (their meta's "pending"),
// read into the one form (the record's PendingTurn): "" or why the JSON is not one.
std::string pending_from_json(const json& j, PendingTurn& p);
json meta_json(const Session& s);
std::vector<Seat> seats_from_meta(const json& meta);
// Hints are on by default when at most one person plays (alone against the computer, or
// hot-seat at one screen); with several people they are off unless the creator enabled them
// ("allow_hints": true) for everyone. Games stored before hints existed get this default.
bool hints_default(const std::vector<Seat>& seats);
// Sends the game's current view to every event stream of the game. Caller holds s.m.
void notify(Session& s);

// This process's name in the database's AI move claims: host:pid:random.
std::string claim_holder_name();

// The table of games in memory over the database; thread-safe.
class Games {
 public:
  Games(Store& db, AiPool& ai, int ai_delay_ms, AiLimits limits = {}, Quotas quotas = {})
      : db_(db), ai_(ai), ai_delay_ms_(ai_delay_ms), limits_(limits), quotas_(quotas), claim_holder_(claim_holder_name()) {}

  // The game with this id, loaded from the database when not in memory (404 when unknown).
  std::shared_ptr<Session> find(const std::string& id);
  // Another server process committed game `id` at meta version `version` (Store::listen; ""
  // when any game may have changed): a copy in memory that is older is reloaded from the store
  // in place and its event streams get the new state. Games not in memory are left alone.
  void on_store_change(const std::string& id, uint64_t version);
  // A new game from a record (created or uploaded); committed before it is returned.
  // `owner`: the creating client's address_key (its AI games are capped: 429 beyond
  // limits::kMaxAiGamesPerAddress). `fair_draws`: the record's seed is replaced by a secret one,
  // committed to in the game (its draws from now on are secret to everyone).
  std::shared_ptr<Session> add_session(std::vector<Seat> seats, Record rec, bool view_only, bool allow_hints,
                                       const std::string& owner = {}, bool fair_draws = false);
  // Saves the game, then (only once the write committed) publishes the new version and starts
  // the AI when it is its turn. A write that fails throws ApiError 503. Caller holds s.m.
  void commit(Session& s, const std::shared_ptr<Session>& sp);
  // Runs `mutate` on the game and commits it; when mutate throws or the write fails, the game
  // is restored exactly as it was (state, events, seats, version) and the error propagates
  // (503 for a failed write). Caller holds s.m.
  template <class F>
  void change(Session& s, const std::shared_ptr<Session>& sp, F&& mutate) {
    if (s.paused) fail(423, "this game is paused by the server's operator");
    SessionSnapshot snap = s.snapshot();
    try {
      mutate();
      commit(s, sp);
    } catch (...) {
      s.restore(std::move(snap));
      throw;
    }
  }
  // Stored games whose meta still holds plain seat tokens (written before tokens were hashed)
  // get the tokens' SHA-256 instead. Returns how many games were rewritten.
  int migrate_tokens();
  // Stored games without "allow_hints" (written before hints existed) get the default for their
  // seats (hints_default) written into their meta. Returns how many games were rewritten.
  int migrate_hints();
  const AiLimits& ai_limits() const { return limits_; }
  // Resumes the games whose AI was to move when the server stopped.
  void resume();
  // No AI is started from now on, and every queued or running search (AI moves, hints) is
  // cancelled; the games in memory are dropped by clear().
  void stop();
  ~Games() { stop(); }
  // Hints for the player to move at `s` (a copy of a game's state; its hidden part is drawn
  // afresh before the search sees it): at most limits::kHintMoves moves, best first, searched
  // on the AI pool within limits::kHintIterations / kHintTime. Throws ApiError 503 when too
  // many hints are being computed, when the pool does not get to it in time, or when the
  // server stops.
  // `owner`: the asking client's address_key (at most limits::kMaxHintsPerAddress at once: 429).
  std::vector<ai::MoveEval> hint(const State& s, const std::string& owner = {});
  void clear();
  // Reads the unfinished games with an AI seat of every client (for the per-address caps) from
  // the database; called at start.
  void load_ai_games();
  // Deletes the games without a change since `cutoff` (unix ms) that are not finished
  // (unfinished, or uploaded for viewing), from the database and from memory. Returns how many.
  int expire(int64_t cutoff_ms);
  // Applies what the operator changed in the database (`carcassonne games pause|resume|delete`)
  // to the games in memory: deleted ones are dropped, paused ones stop, resumed ones continue.
  void sync_operator_changes();
  // Unfinished games with an AI seat of one client (for tests and the operator).
  int ai_games_of(const std::string& owner);
  bool stopping() const { return stopping_; }
  // This process's counters since it started (GET /api/health): AI searches it ran, AI moves it
  // played and saved, AI moves it left to another process's claim, games reloaded after
  // another process's save.
  struct Counters {
    uint64_t ai_searches, ai_moves, ai_claims_waited, reloads;
  };
  Counters counters() const { return {ai_searches_.load(), ai_moves_.load(), ai_claims_waited_.load(), reloads_.load()}; }

 private:
  void evict_idle();
  // A session from a stored row (the game, its seats, the turn in progress); ApiError 500.
  std::shared_ptr<Session> load_session(const GameRow& row);
  // `standby`: heard from another process (its NOTIFY): the AI move that follows is that
  // process's; this one claims it only after a lease without news.
  void refresh(const std::shared_ptr<Session>& sp, bool standby = false);
  void refresh_loop();
  void refresh_heard(const std::string& id, uint64_t version);
  int64_t ai_lease_ms() const;
  void schedule_ai(Session& s, const std::shared_ptr<Session>& sp, int extra_delay_ms = 0);
  void run_ai(const std::shared_ptr<Session>& sp, uint64_t task);

  Store& db_;
  AiPool& ai_;
  int ai_delay_ms_;
  AiLimits limits_;
  Quotas quotas_;
  // This process's name in the AI move claims (Store::claim_ai_move): random, per Games.
  std::string claim_holder_;
  std::atomic<bool> stopping_{false};
  std::atomic<int> hints_running_{0};
  std::atomic<uint64_t> ai_searches_{0}, ai_moves_{0}, ai_claims_waited_{0}, reloads_{0};
  // Per client (address_key): its unfinished games with an AI seat (id -> computers only?), and
  // its hints being computed. Guarded by quota_m_.
  std::mutex quota_m_;
  std::map<std::string, std::map<std::string, bool>> ai_games_;
  std::map<std::string, int> hints_by_owner_;
  void forget_ai_game(const Session& s);
  // Other processes' saves heard (on_store_change), newest version per game, for the refresh
  // workers (started on the first one; a SQLite store never has any).
  static constexpr int kRefreshThreads = 2;
  std::mutex refresh_m_;
  std::condition_variable refresh_cv_;
  std::map<std::string, uint64_t> refresh_pending_;
  bool refresh_all_ = false;
  std::vector<std::thread> refreshers_;
  std::mutex sessions_m_;
  std::map<std::string, std::shared_ptr<Session>> sessions_;
};

}  // namespace carc::server
