// Games in memory: a Session is one game (state, seats, version for live updates); Games is
// the table of sessions over the database, where every change to a game is committed
// (saved, published to the event streams, and the AI started when it is its turn).
#pragma once

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "api.h"
#include "player.h"
#include "record.h"
#include "state.h"

namespace carc::server {

class Db;
class AiPool;

struct Seat {
  std::string name;
  std::string type = "human";  // "human" (held by the creator), "remote" (joins by link), "ai"
  std::string ai;              // AI spec for "ai" seats
  std::string token;
  bool resigned = false;
  bool joined = false;
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
  uint64_t version = 1;
  int thinking = -1;        // seat of the AI that is thinking, or -1
  bool ai_busy = false;     // an AI task is queued or running
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
  bool has_remote() const {
    return std::any_of(seats.begin(), seats.end(), [](const Seat& s) { return s.type == "remote"; });
  }
  // The seat that plays automatically now (an AI, or a resigned player), or -1.
  int auto_seat() const {
    if (over()) return -1;
    const int p = state->current_player();
    if (p < 0) return -1;
    return seats[p].type == "ai" || seats[p].resigned ? p : -1;
  }
  int seat_of_token(const std::string& token) const {
    if (token.empty()) return -1;
    for (size_t i = 0; i < seats.size(); ++i)
      if (seats[i].token == token) return int(i);
    return -1;
  }
};

// Draws until a tile is to be placed or the game ends.
void advance(State& s);
// Decisions of the turn in progress that the record cannot hold yet (see session.cc).
json pending_json(const State& s);
void apply_pending(State& s, const json& p);
json meta_json(const Session& s);
std::vector<Seat> seats_from_meta(const json& meta);
// Sends the game's current view to every event stream of the game. Caller holds s.m.
void notify(Session& s);

// The table of games in memory over the database; thread-safe.
class Games {
 public:
  Games(Db& db, AiPool& ai, int ai_delay_ms) : db_(db), ai_(ai), ai_delay_ms_(ai_delay_ms) {}

  // The game with this id, loaded from the database when not in memory (404 when unknown).
  std::shared_ptr<Session> find(const std::string& id);
  // A new game from a record (created or uploaded); committed before it is returned.
  std::shared_ptr<Session> add_session(std::vector<Seat> seats, const Record& rec, bool view_only);
  // Saves the game, publishes the new version, and starts the AI when it is its turn.
  // Caller holds s.m.
  void commit(Session& s, const std::shared_ptr<Session>& sp);
  // Resumes the games whose AI was to move when the server stopped.
  void resume();
  // No AI is started from now on; the games in memory are dropped by clear().
  void stop() { stopping_ = true; }
  void clear();
  bool stopping() const { return stopping_; }

 private:
  void evict_idle();
  void schedule_ai(Session& s, const std::shared_ptr<Session>& sp);
  void run_ai(const std::shared_ptr<Session>& sp);

  Db& db_;
  AiPool& ai_;
  int ai_delay_ms_;
  std::atomic<bool> stopping_{false};
  std::mutex sessions_m_;
  std::map<std::string, std::shared_ptr<Session>> sessions_;
};

}  // namespace carc::server
