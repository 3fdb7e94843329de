// Games in memory (see session.h).
#include "session.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <condition_variable>
#include <thread>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "ai_pool.h"
#include "store.h"
#include "server_limits.h"
#include "decode.h"
#include "ids.h"
#include "input_limits.h"
#include "quota.h"
#include "secure.h"
#include "seeds.h"
#include "views.h"

namespace carc::server {

// Draws until a tile is to be placed or the game ends.
void advance(State& s) {
  while (s.is_chance()) s.draw_random();
}

int Session::seat_of_token(const std::string& token) const {
  if (token.empty() || token.size() > 200) return -1;
  const std::string h = sha256_hex(token);
  int seat = -1;
  for (size_t i = 0; i < access.size(); ++i)
    if (!access[i].token_hash.empty() && constant_time_equal(access[i].token_hash, h)) seat = int(i);
  return seat;
}

SessionSnapshot Session::snapshot() const {
  return SessionSnapshot{std::make_unique<match::Table>(*table), access, version, thinking, chat, rematch};
}

void Session::restore(SessionSnapshot&& snap) {
  table = std::move(snap.table);
  access = std::move(snap.access);
  version = snap.version;
  thinking = snap.thinking;
  chat = std::move(snap.chat);
  rematch = std::move(snap.rematch);
}

namespace {
uint64_t now_us() {
  return uint64_t(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}
}  // namespace


json meta_json(const Session& s) {
  json meta = s.table->to_json();  // seats, pending, view_only, end_reason, allow_hints
  for (size_t i = 0; i < s.access.size() && i < meta["seats"].size(); ++i) {
    json& seat = meta["seats"][i];
    seat["token_sha256"] = s.access[i].token_hash;
    seat["joined"] = s.access[i].joined;
    seat["chat_public"] = s.access[i].chat_public;
  }
  json fair = nullptr;
  if (s.draw_from_turn >= 0)
    fair = {{"from_turn", s.draw_from_turn}, {"commitment", s.draw_commitment}, {"salt", s.draw_salt}};
  json chat = json::array();
  for (const ChatLine& c : s.chat) chat.push_back({{"seat", c.seat}, {"name", c.name}, {"text", c.text}, {"at", c.at}});
  const State& st = s.state();
  meta["chat"] = chat;
  meta["rematch"] = s.rematch;
  meta["creator"] = s.owner;
  meta["fair_draws"] = fair;
  meta["version"] = s.version;
  meta["summary"] = {{"status", s.status()},
                     {"turn", st.turn()},
                     {"scores", st.scores()},
                     {"current_player", s.over() ? -1 : st.phase() == Phase::Plague ? st.current_player() : st.turn_player()},
                     {"tileset", st.rules().tileset},
                     {"expansions", st.rules().expansions()}};
  return meta;
}

std::vector<SeatAccess> access_from_meta(const json& meta) {
  std::vector<SeatAccess> out;
  for (const auto& j : meta.at("seats")) {
    SeatAccess s;
    s.token_hash = j.value("token_sha256", "");
    // Games stored before tokens were hashed: hash the plain token (migrate_tokens rewrites them).
    if (s.token_hash.empty() && !j.value("token", "").empty()) s.token_hash = sha256_hex(j.value("token", ""));
    s.joined = j.value("joined", false);
    s.chat_public = j.contains("chat_public") && j["chat_public"].is_boolean() && j["chat_public"].get<bool>();
    out.push_back(std::move(s));
  }
  return out;
}

bool hints_default(const std::vector<Seat>& seats) {
  return match::hints_default(match::people(std::vector<match::Seat>(seats.begin(), seats.end())));
}

void notify(Session& s) {
  if (s.watchers.empty()) return;
  auto msg = std::make_shared<const std::string>("event: state\ndata: " + view_json(s).dump() + "\n\n");
  for (auto& [n, deliver] : s.watchers) deliver(msg);
}

// ---------------------------------------------------------------------------------------
// Games: the table of sessions

std::string claim_holder_name() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = 0;
  return std::string(host) + ":" + std::to_string(getpid()) + ":" + new_token().substr(0, 12);
}

std::shared_ptr<Session> Games::find(const std::string& id) {
  std::shared_ptr<Session> cached;
  {
    std::lock_guard lk(sessions_m_);
    auto it = sessions_.find(id);
    if (it != sessions_.end()) cached = it->second;
  }
  if (cached) {
    // Changed by another process (a 409, or its NOTIFY): reloaded in place, so that the
    // game's event streams stay attached and see the new state.
    if (cached->stale) refresh(cached);
    return cached;
  }
  std::lock_guard lk(sessions_m_);
  auto it = sessions_.find(id);
  if (it != sessions_.end()) return it->second;  // loaded by another request meanwhile
  std::optional<GameRow> row = db_.load(id);
  if (!row) fail(404, "no game '" + id + "'");
  std::shared_ptr<Session> s = load_session(*row);
  sessions_[id] = s;
  {
    std::lock_guard sl(s->m);
    schedule_ai(*s, s);
  }
  return s;
}

std::shared_ptr<Session> Games::load_session(const GameRow& row) {
  const std::string& id = row.id;
  auto s = std::make_shared<Session>();
  s->id = id;
  s->created = row.created;
  try {
    json meta = json::parse(row.meta);
    // The game, its seats and its turn in progress (restored exactly or not at all).
    s->table = match::Table::from_json(meta, row.record);
    s->access = access_from_meta(meta);
    if (s->access.size() != s->num_seats()) throw std::invalid_argument("the seats do not match the record");
    s->owner = meta.contains("creator") && meta["creator"].is_string() ? meta["creator"].get<std::string>() : "";
    if (meta.contains("fair_draws") && meta["fair_draws"].is_object()) {
      const json& f = meta["fair_draws"];
      s->draw_from_turn = f.value("from_turn", 0);
      s->draw_commitment = f.value("commitment", "");
      s->draw_salt = f.value("salt", "");
    }
    // The chat as stored (entries of another shape are skipped; at most kMaxChatMessages).
    if (meta.contains("chat") && meta["chat"].is_array())
      for (const auto& c : meta["chat"]) {
        if (!c.is_object() || !c.contains("seat") || !c["seat"].is_number_unsigned() || !c.contains("text") ||
            !c["text"].is_string() || c["seat"].get<uint64_t>() >= s->num_seats())
          continue;
        s->chat.push_back(ChatLine{int(c["seat"].get<uint64_t>()), c.value("name", ""), c["text"].get<std::string>(),
                                   c.contains("at") && c["at"].is_number_integer() ? c["at"].get<int64_t>() : 0});
      }
    if (s->chat.size() > limits::kMaxChatMessages)
      s->chat.erase(s->chat.begin(), s->chat.end() - long(limits::kMaxChatMessages));
    s->rematch = meta.contains("rematch") && meta["rematch"].is_string() ? meta["rematch"].get<std::string>() : "";
    const uint64_t saved = meta.contains("version") && meta["version"].is_number_unsigned() ? meta["version"].get<uint64_t>() : 0;
    s->version = std::max(saved + 1, now_us());
    s->stored_version = saved;
  } catch (const match::PendingError& e) {
    // The saved turn in progress is restored exactly or the game is not loaded (500, logged),
    // never half-restored in silence; the stored game is left as it is.
    std::fprintf(stderr, "carcassonne serve: game '%s': %s\n", id.c_str(), e.what());
    fail(500, "game '" + id + "' cannot be loaded: " + e.what() + "; the stored game is unchanged");
  } catch (const std::exception& e) {
    fail(500, "game '" + id + "' cannot be loaded: " + e.what());
  }
  s->last_hint.resize(s->num_seats());
  s->last_chat.resize(s->num_seats());
  s->stored = true;
  s->paused = db_.paused(id);
  return s;
}

// Another process saved the game (its NOTIFY, or a 409 here): the stored game replaces this
// process's copy in place, keeping what belongs to this process (event streams, AI players,
// hint times, a queued AI task), and the streams get the new state.
void Games::refresh(const std::shared_ptr<Session>& sp, bool standby) {
  std::optional<GameRow> row = db_.load(sp->id);
  if (!row) return;  // deleted by the operator: sync_operator_changes drops it
  std::shared_ptr<Session> fresh = load_session(*row);
  std::lock_guard sl(sp->m);
  Session& s = *sp;
  s.stale = false;
  if (fresh->stored_version <= s.stored_version) return;  // not newer (this process's own save)
  ++reloads_;
  fresh->table->adopt_players(*s.table);  // this process's AI players play on
  s.table = std::move(fresh->table);
  for (size_t i = 0; i < s.access.size() && i < fresh->access.size(); ++i)
    if (fresh->access[i].token_hash == s.access[i].token_hash) fresh->access[i].token = s.access[i].token;
  s.access = std::move(fresh->access);
  s.draw_from_turn = fresh->draw_from_turn;
  s.draw_salt = fresh->draw_salt;
  s.draw_commitment = fresh->draw_commitment;
  s.paused = fresh->paused;
  s.stored = true;
  s.stored_version = fresh->stored_version;
  s.version = std::max(s.version + 1, fresh->version);
  s.last_hint.resize(s.num_seats());
  if (s.over()) forget_ai_game(s);
  if (s.auto_seat() < 0 && !s.ai_busy) s.thinking = -1;
  if (standby && s.auto_seat() >= 0 && (!s.ai_busy || s.ai_claim_wait)) {
    // Heard from the process that saved it, which plays the AI move that follows itself: this
    // one stands by, and claims the move only if nothing changes for a lease (that process
    // died before claiming it). A change heard meanwhile replaces this task.
    schedule_ai(s, sp, int(ai_lease_ms()));
    s.ai_claim_wait = true;
  } else {
    schedule_ai(s, sp);
  }
  notify(s);
}

int64_t Games::ai_lease_ms() const {
  return int64_t(limits_.max_seconds * 1000) + std::chrono::duration_cast<std::chrono::milliseconds>(limits::kAiClaimMargin).count();
}

// Called on the store's listening thread: queued (one entry per game, the newest version) for
// the refresh workers, so that the listener never waits for the database or a game's lock.
void Games::on_store_change(const std::string& id, uint64_t version) {
  if (stopping_) return;
  std::lock_guard lk(refresh_m_);
  if (id.empty()) {
    refresh_all_ = true;
  } else {
    uint64_t& v = refresh_pending_[id];
    v = std::max(v, version);
  }
  while (refreshers_.size() < size_t(kRefreshThreads)) refreshers_.emplace_back([this] { refresh_loop(); });
  refresh_cv_.notify_one();
}

void Games::refresh_loop() {
  std::unique_lock lk(refresh_m_);
  for (;;) {
    refresh_cv_.wait(lk, [&] { return stopping_ || refresh_all_ || !refresh_pending_.empty(); });
    if (stopping_) return;
    std::string id;
    uint64_t version = 0;
    if (refresh_all_) {
      refresh_all_ = false;
    } else {
      auto it = refresh_pending_.begin();
      id = it->first;
      version = it->second;
      refresh_pending_.erase(it);
    }
    lk.unlock();
    refresh_heard(id, version);
    lk.lock();
  }
}

void Games::refresh_heard(const std::string& id, uint64_t version) {
  std::vector<std::shared_ptr<Session>> check;
  {
    std::lock_guard lk(sessions_m_);
    if (id.empty()) {  // the listener reconnected: any game may have changed meanwhile
      for (auto& [gid, sp] : sessions_) check.push_back(sp);
    } else if (auto it = sessions_.find(id); it != sessions_.end()) {
      check.push_back(it->second);
    }
  }
  for (auto& sp : check) {
    if (!id.empty()) {
      std::lock_guard sl(sp->m);
      if (version <= sp->stored_version) continue;  // this process's own save (or an older one)
    }
    try {
      refresh(sp, true);
    } catch (const ApiError& e) {  // e.g. 500: marked stale, reloaded on its next use
      sp->stale = true;
      std::cerr << "server: game " << sp->id << " changed by another process; reloading it failed: " << e.message << "\n";
    } catch (const std::exception& e) {  // DbError: likewise
      sp->stale = true;
      std::cerr << "server: game " << sp->id << " changed by another process; reloading it failed: " << e.what() << "\n";
    }
  }
}

void Games::stop() {
  stopping_ = true;
  ai_.cancel_all();
  std::vector<std::thread> workers;
  {
    std::lock_guard lk(refresh_m_);
    workers.swap(refreshers_);
    refresh_cv_.notify_all();
  }
  for (auto& t : workers) t.join();
}

std::shared_ptr<Session> Games::add_session(std::vector<Seat> seats, Record rec, bool view_only, bool allow_hints,
                                            const std::string& owner, bool fair_draws) {
  auto s = std::make_shared<Session>();
  s->created = now_ms();
  s->owner = owner;
  s->last_hint.resize(seats.size());
  s->last_chat.resize(seats.size());
  if (fair_draws && !view_only) {
    // The draws from now on follow a secret seed that nobody chose, committed to now and
    // published at the end (docs/security.md, "Fair draws"). The turns so far (an uploaded
    // record's) replay exactly whatever the seed: they list every draw. Fruit stacks given by
    // the record would tell its uploader the face-down tokens: they are drawn afresh too.
    rec.seed = random_seed();
    rec.fruit_stacks.reset();
    rec.pending = PendingTurn{};  // a turn in progress named by the uploader is drawn afresh too
    s->draw_from_turn = int(rec.turns.size());
    s->draw_salt = new_token();
    s->draw_commitment = draw_commitment(s->draw_salt, rec.seed);
  }
  // A rematch passes the seats' token hashes on (the same tokens hold the same seats).
  for (Seat& seat : seats)
    if (seat.type != "ai" && seat.token_hash.empty()) {
      seat.token = new_token();
      seat.token_hash = sha256_hex(seat.token);
    }
  try {
    s->table = std::make_unique<match::Table>(std::vector<match::Seat>(seats.begin(), seats.end()), rec, view_only,
                                              allow_hints);
  } catch (const RecordError& e) {
    fail(400, std::string("invalid record: ") + e.what());
  } catch (const std::exception& e) {
    fail(400, e.what());
  }
  s->access.assign(seats.begin(), seats.end());
  // The client's AI games are capped (docs/security.md, "Fair AI scheduling"): counted here,
  // before the game exists, and given back if it is not saved.
  const bool counts = !view_only && s->has_ai() && !s->over();
  // Several processes on one database: the client's games as stored, whichever process made
  // them (two creations at the same instant on two processes may both pass: one over the cap).
  const std::pair<int, int> stored = counts ? db_.ai_games_of(owner) : std::pair<int, int>{-1, -1};
  std::lock_guard lk(sessions_m_);
  evict_idle();
  do s->id = new_game_id();
  while (sessions_.count(s->id) || db_.load(s->id));
  if (counts) {
    std::lock_guard ql(quota_m_);
    auto& mine = ai_games_[owner];
    const int all = std::max(int(mine.size()), stored.first);
    const int only = std::max(int(std::count_if(mine.begin(), mine.end(), [](const auto& kv) { return kv.second; })), stored.second);
    if (all >= quotas_.ai_games_per_address)
      fail(429, "you have " + std::to_string(all) + " unfinished games with computer players, this server's limit per client; "
                "finish or resign one first");
    if (s->ai_only() && only >= quotas_.ai_only_games_per_address)
      fail(429, "you have " + std::to_string(only) + " unfinished games of computers only, this server's limit per client; "
                "wait until one is over");
    mine[s->id] = s->ai_only();
  }
  sessions_[s->id] = s;
  std::lock_guard sl(s->m);
  try {
    commit(*s, s);
  } catch (...) {
    sessions_.erase(s->id);  // not saved: the game does not exist
    forget_ai_game(*s);
    throw;
  }
  return s;
}

void Games::forget_ai_game(const Session& s) {
  std::lock_guard ql(quota_m_);
  auto it = ai_games_.find(s.owner);
  if (it == ai_games_.end()) return;
  it->second.erase(s.id);
  if (it->second.empty()) ai_games_.erase(it);
}

int Games::ai_games_of(const std::string& owner) {
  std::lock_guard ql(quota_m_);
  auto it = ai_games_.find(owner);
  return it == ai_games_.end() ? 0 : int(it->second.size());
}

void Games::load_ai_games() {
  std::map<std::string, std::map<std::string, bool>> found;
  for (const GameRow& row : db_.unfinished()) {
    json meta = json::parse(row.meta, nullptr, false);
    if (meta.is_discarded() || !meta.contains("seats") || !meta["seats"].is_array()) continue;
    if (meta.value("view_only", false)) continue;
    bool ai = false, person = false;
    for (const auto& seat : meta["seats"]) {
      if (!seat.is_object()) continue;
      const std::string t = seat.value("type", "");
      ai |= t == "ai";
      person |= t == "human" || t == "remote";
    }
    if (!ai) continue;
    const std::string owner = meta.contains("creator") && meta["creator"].is_string() ? meta["creator"].get<std::string>() : "";
    found[owner][row.id] = !person;
  }
  std::lock_guard ql(quota_m_);
  ai_games_ = std::move(found);
}

int Games::expire(int64_t cutoff_ms) {
  int n = 0;
  for (const GameRow& row : db_.unfinished(cutoff_ms)) {
    std::shared_ptr<Session> sp;
    {
      std::lock_guard lk(sessions_m_);
      auto it = sessions_.find(row.id);
      if (it != sessions_.end()) sp = it->second;
    }
    if (sp) {
      std::lock_guard sl(sp->m);
      sp->ai_cancel->store(true);  // its AI, if thinking, stops and its move is not played
      sp->paused = true;           // nothing more happens to it while it is being removed
    }
    if (!db_.remove(row.id)) continue;
    ++n;
    {
      std::lock_guard lk(sessions_m_);
      sessions_.erase(row.id);
    }
    std::lock_guard ql(quota_m_);
    for (auto it = ai_games_.begin(); it != ai_games_.end();) {
      it->second.erase(row.id);
      it = it->second.empty() ? ai_games_.erase(it) : std::next(it);
    }
  }
  return n;
}

void Games::sync_operator_changes() {
  std::vector<std::shared_ptr<Session>> cached;
  {
    std::lock_guard lk(sessions_m_);
    for (auto& [id, sp] : sessions_) cached.push_back(sp);
  }
  for (auto& sp : cached) {
    const std::optional<GameRow> row = db_.load(sp->id);
    if (!row) {  // deleted by the operator
      {
        std::lock_guard sl(sp->m);
        sp->ai_cancel->store(true);
        sp->paused = true;
        sp->table->close();
        ++sp->version;
        notify(*sp);
        forget_ai_game(*sp);
      }
      std::lock_guard lk(sessions_m_);  // never while holding a game's lock (the order is sessions_m_, then s.m)
      sessions_.erase(sp->id);
      continue;
    }
    if (db_.shared()) {
      // Saved by another process that died before announcing it (Store::listen): reloaded here.
      const json meta = json::parse(row->meta, nullptr, false);
      const uint64_t v = !meta.is_discarded() && meta.contains("version") && meta["version"].is_number_unsigned()
                             ? meta["version"].get<uint64_t>()
                             : 0;
      bool behind;
      {
        std::lock_guard sl(sp->m);
        behind = v > sp->stored_version;
      }
      if (behind) {
        try {
          refresh(sp, true);
        } catch (...) {  // ApiError (not loadable) or DbError: reloaded on its next use
          sp->stale = true;
        }
      }
    }
    std::lock_guard sl(sp->m);
    const bool paused = db_.paused(sp->id);
    if (paused == sp->paused) continue;
    sp->paused = paused;
    ++sp->version;
    if (paused) {
      sp->thinking = -1;
    } else {
      schedule_ai(*sp, sp);
    }
    notify(*sp);
  }
}

// Keeps memory bounded: games nobody is using (no request, event stream or AI task holds
// them) are dropped from memory; they are reloaded from the store when asked for again.
// Caller holds sessions_m_.
void Games::evict_idle() {
  constexpr size_t kMaxCached = 2000;
  if (sessions_.size() < kMaxCached) return;
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    std::unique_lock sl(it->second->m, std::try_to_lock);
    if (sl.owns_lock() && it->second.use_count() == 1 && !it->second->ai_busy) {
      sl.unlock();
      it = sessions_.erase(it);
    } else {
      ++it;
    }
  }
}

// Saves the game, publishes the new version, and starts the AI when it is its turn.
// Caller holds s.m.
void Games::commit(Session& s, const std::shared_ptr<Session>& sp) {
  const uint64_t before = s.version;
  ++s.version;  // saved with the game; restored below when the write fails
  GameRow row;
  row.id = s.id;
  row.created = s.created;
  row.updated = now_ms();
  row.meta = meta_json(s).dump();
  row.record = s.table->record_json();
  try {
    if (!s.stored) {
      db_.save(row);
    } else if (const Store::Update u = db_.update(row, s.stored_version); u != Store::Update::Done) {
      s.version = before;
      if (u == Store::Update::Conflict) {
        // Another server process on the same database saved it since this one loaded it.
        s.stale = true;
        fail(409, "this game was changed by another server process; reload it and try again");
      }
      // The operator deleted or paused it since it was loaded (`carcassonne games`).
      s.paused = true;
      if (u == Store::Update::Gone) fail(410, "this game was deleted by the server's operator");
      fail(423, "this game is paused by the server's operator");
    }
  } catch (const DbError& e) {
    s.version = before;
    fail(503, std::string("the game could not be saved, nothing was changed; try again (") + e.what() + ")");
  }
  s.stored = true;
  s.stored_version = s.version;
  if (s.over()) forget_ai_game(s);
  if (s.auto_seat() < 0) s.thinking = -1;  // e.g. an undo while the AI was thinking
  schedule_ai(s, sp);
  notify(s);
}

int Games::migrate_tokens() {
  int n = 0;
  for (const GameRow& row : db_.with_meta_containing("\"token\"")) {
    json meta = json::parse(row.meta, nullptr, false);
    if (meta.is_discarded() || !meta.contains("seats") || !meta["seats"].is_array()) continue;
    bool changed = false;
    for (auto& seat : meta["seats"]) {
      if (!seat.is_object() || !seat.contains("token")) continue;
      if (seat["token"].is_string() && !seat["token"].get<std::string>().empty())
        seat["token_sha256"] = sha256_hex(seat["token"].get<std::string>());
      seat.erase("token");
      changed = true;
    }
    if (changed) {
      db_.save_meta(row.id, meta.dump());
      ++n;
    }
  }
  return n;
}

int Games::migrate_hints() {
  int n = 0;
  for (const GameRow& row : db_.with_meta_containing("\"allow_hints\"", true)) {
    json meta = json::parse(row.meta, nullptr, false);
    if (meta.is_discarded() || !meta.contains("seats") || !meta["seats"].is_array()) continue;
    std::vector<Seat> seats;
    for (const auto& seat : meta["seats"])
      if (seat.is_object() && seat.contains("type") && seat["type"].is_string()) seats.push_back(Seat{"", seat["type"].get<std::string>()});
    meta["allow_hints"] = hints_default(seats);
    db_.save_meta(row.id, meta.dump());
    ++n;
  }
  return n;
}

void Games::schedule_ai(Session& s, const std::shared_ptr<Session>& sp, int extra_delay_ms) {
  const int seat = s.auto_seat();
  if (seat < 0 || (s.ai_busy && !s.ai_claim_wait) || stopping_) return;
  s.ai_busy = true;
  s.ai_claim_wait = false;
  const uint64_t task = ++s.ai_task;  // a task waiting for a claim, if any, is superseded
  s.thinking = seat;
  ++s.version;
  notify(s);
  const int delay = (s.seat(seat).type == "ai" ? ai_delay_ms_ : 0) + extra_delay_ms;
  ai_.post(
      AiPool::Clock::now() + std::chrono::milliseconds(delay),
      [this, sp, task] {
        try {
          run_ai(sp, task);
        } catch (const std::exception& e) {
          std::cerr << "server: AI move in game " << sp->id << " failed: " << e.what() << "\n";
          std::lock_guard sl(sp->m);
          if (sp->ai_task != task) return;
          sp->ai_busy = false;
          sp->ai_claim_wait = false;
          sp->thinking = -1;
        }
      },
      s.ai_cancel, s.owner, s.ai_only() ? AiPriority::Background : AiPriority::Interactive);
}

void Games::run_ai(const std::shared_ptr<Session>& sp, uint64_t task) {
  Session& s = *sp;
  std::unique_lock lk(s.m);
  if (task != s.ai_task) return;  // superseded by a newer task (see schedule_ai)
  s.ai_claim_wait = false;
  const int seat = s.auto_seat();
  if (seat < 0) {
    s.ai_busy = false;
    s.thinking = -1;
    ++s.version;
    notify(s);
    return;
  }
  if (db_.shared()) {
    // Several processes may run this game's AI: the one holding the database's claim on the
    // move at this stored version plays it; the others wait until the claim ends (its holder
    // died) or the game moves on (its NOTIFY reschedules them). The lease covers the longest
    // search this server allows, plus a margin for the save.
    const uint64_t at = s.stored_version;
    const int64_t lease = ai_lease_ms();
    lk.unlock();
    int64_t wait;
    try {
      wait = db_.claim_ai_move(s.id, at, claim_holder_, lease);
    } catch (const DbError& e) {
      std::cerr << "server: AI move in game " << s.id << ": claiming it failed (tried again in 1 s): " << e.what() << "\n";
      wait = 1000;
    }
    if (wait < 0) {  // the stored game is newer than this copy: reloaded, and the claim's holder plays on
      {
        std::lock_guard relk(s.m);
        if (task != s.ai_task) return;
        s.ai_busy = false;
        s.stale = true;
      }
      try {
        refresh(sp, true);
      } catch (const ApiError& e) {  // stays stale: reloaded on its next use
        std::cerr << "server: game " << s.id << ": reloading it failed: " << e.message << "\n";
      } catch (const std::exception& e) {
        std::cerr << "server: game " << s.id << ": reloading it failed: " << e.what() << "\n";
      }
      return;
    }
    lk.lock();
    if (task != s.ai_task) return;
    if (wait > 0) {  // another process plays it: look again when its claim ends
      ++ai_claims_waited_;
      s.ai_claim_wait = true;
      const uint64_t again = ++s.ai_task;
      ai_.post(
          AiPool::Clock::now() + std::chrono::milliseconds(wait + 10),
          [this, sp, again] {
            try {
              run_ai(sp, again);
            } catch (const std::exception& e) {
              std::cerr << "server: AI move in game " << sp->id << " failed: " << e.what() << "\n";
              std::lock_guard sl(sp->m);
              if (sp->ai_task != again) return;
              sp->ai_busy = false;
              sp->ai_claim_wait = false;
            }
          },
          s.ai_cancel, s.owner, s.ai_only() ? AiPriority::Background : AiPriority::Interactive);
      return;
    }
    if (s.auto_seat() != seat || s.stored_version != at) {  // changed meanwhile: think again
      s.ai_busy = false;
      schedule_ai(s, sp);
      return;
    }
  }
  const uint64_t version = s.version;
  // The seat's player (made on first use with the seat seed, within this server's caps; a game
  // of computers only searches within limits::kAiOnlyMoveTime on one thread).
  const double cap = s.ai_only() ? std::chrono::duration<double>(limits::kAiOnlyMoveTime).count() : 0.0;
  const std::shared_ptr<std::atomic<bool>> cancel = s.ai_cancel;
  const match::PlayerFactory make = [this, cancel, cap](const std::string& spec, uint64_t seed) {
    return make_ai(spec, seed, limits_, cancel.get(), cap);
  };
  const std::optional<match::AiTurn> turn = s.table->ai_turn(make);
  if (!turn) {  // the player cannot be made (e.g. its spec is beyond the caps now): shown, the game waits
    if (const auto& f = s.table->ai_failure())
      std::cerr << "server: game " << s.id << " seat " << f->seat << ": AI '" << f->spec << "' failed: " << f->error
                << "; the game waits (no move is played for it)\n";
    s.ai_busy = false;
    s.thinking = -1;
    ++s.version;
    notify(s);
    return;
  }
  lk.unlock();
  // The search runs on this worker, without the game's lock (the game may change meanwhile:
  // then the move is dropped below). A stopping server sets the cancel flag: the search returns
  // within 16 iterations and its move is not played.
  ++ai_searches_;
  const match::AiResult result = match::think(*turn);
  if (cancel->load() || stopping_) return;  // the server stops (the game is saved as it was)
  lk.lock();
  s.ai_busy = false;
  s.thinking = -1;
  if (s.version != version || stopping_) {  // the game changed meanwhile (undo, resign): think again
    ++s.version;
    notify(s);
    if (!stopping_) schedule_ai(s, sp);
    return;
  }
  if (!result.error.empty()) {
    // The AI failure policy (docs/server.md, "When an AI fails"): nothing is played in its
    // place; the failure is shown in the game view ("ai_failure") and logged, and the game
    // waits until a person changes it (undo, resignation) or the server loads it anew.
    s.table->finish_ai_turn(*turn, result);
    std::cerr << "server: game " << s.id << " seat " << turn->seat << ": AI '" << turn->spec << "' failed: " << result.error
              << "; the game waits (no move is played for it)\n";
    ++s.version;
    notify(s);
    return;
  }
  try {
    change(s, sp, [&] { s.table->finish_ai_turn(*turn, result); });
    ++ai_moves_;
  } catch (const ApiError& e) {  // not saved: the game is as it was; try the move again later
    if (s.paused) return;       // deleted or paused by the operator: no retry
    if (s.stale) return;        // another process changed it: the copy loaded anew plays on
    std::cerr << "server: AI move in game " << s.id << " not saved: " << e.message << "\n";
    schedule_ai(s, sp, 1000);
  }
}
std::vector<ai::MoveEval> Games::hint(const State& pub_position, const std::string& owner) {
  if (stopping_) fail(503, "the server is stopping");
  // At most kMaxHintsPerAddress hints of one client at once: one client asking in many games
  // cannot hold every hint slot.
  struct OwnerSlot {
    Games& g;
    const std::string& owner;
    bool held = false;
    OwnerSlot(Games& games, const std::string& o) : g(games), owner(o) {
      std::lock_guard ql(g.quota_m_);
      int& n = g.hints_by_owner_[owner];
      if (n < g.quotas_.hints_per_address) {
        ++n;
        held = true;
      } else if (n == 0) {
        g.hints_by_owner_.erase(owner);
      }
    }
    ~OwnerSlot() {
      std::lock_guard ql(g.quota_m_);
      if (held && --g.hints_by_owner_[owner] == 0) g.hints_by_owner_.erase(owner);
    }
  } owner_slot(*this, owner);
  if (!owner_slot.held)
    fail(429, "a hint of yours is being computed (at most " + std::to_string(quotas_.hints_per_address) +
                  " per client at once); try again when it is shown");
  // At most kMaxHintsRunning hints at once on the whole server (each holds a handler thread).
  struct Slot {
    std::atomic<int>& n;
    bool held;
    explicit Slot(std::atomic<int>& c) : n(c), held(++c <= limits::kMaxHintsRunning) {}
    ~Slot() { --n; }
  } slot(hints_running_);
  if (!slot.held)
    fail(503, "the server is computing " + std::to_string(limits::kMaxHintsRunning) +
                  " hints already (its limit); try again in a moment");
  struct Result {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::vector<ai::MoveEval> moves;
    std::string error;
  };
  auto result = std::make_shared<Result>();
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  // The search sees only what the player sees: the caller drew the hidden part afresh
  // (match::Table::hint_position), and MCTS redraws it again at every iteration.
  auto pub = std::make_shared<State>(pub_position);
  std::shared_ptr<ai::Player> player = make_hint_ai(random_seed(), limits_, cancel.get());
  ai_.post(
      AiPool::Clock::now(),
      [result, cancel, pub, player] {
        std::vector<ai::MoveEval> moves;
        std::string error;
        if (!cancel->load()) {
          try {
            moves = player->analyse(*pub);
          } catch (const std::exception& e) {
            error = e.what();
          }
        }
        std::lock_guard lk(result->m);
        result->done = true;
        result->moves = std::move(moves);
        result->error = std::move(error);
        result->cv.notify_all();
      },
      cancel, owner, AiPriority::Interactive);
  std::unique_lock lk(result->m);
  const auto until = std::chrono::steady_clock::now() + limits::kHintWait;
  while (!result->done && !cancel->load() && !stopping_) {
    if (std::chrono::steady_clock::now() >= until) break;
    result->cv.wait_for(lk, std::chrono::milliseconds(20));
  }
  if (!result->done || cancel->load()) {
    cancel->store(true);  // a search that has not started never starts; a running one returns
    if (stopping_) fail(503, "the server is stopping");
    fail(503, "the computer players are busy; no hint within " + std::to_string(limits::kHintWait.count() / 1000) +
                  " s, try again in a moment");
  }
  if (!result->error.empty()) fail(500, "the hint search failed: " + result->error);
  std::vector<ai::MoveEval> out = std::move(result->moves);
  if (out.size() > size_t(limits::kHintMoves)) out.resize(size_t(limits::kHintMoves));
  return out;
}

void Games::resume() {
  for (const GameRow& row : db_.list(200)) {
    json meta = json::parse(row.meta, nullptr, false);
    if (meta.is_discarded() || meta["summary"].value("status", "") != "playing") continue;
    try {
      find(row.id);
    } catch (...) {
    }
  }
}

void Games::clear() {
  std::lock_guard lk(sessions_m_);
  sessions_.clear();
}

}  // namespace carc::server
