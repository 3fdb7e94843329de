// The PostgreSQL store (store.h), over libpq: `--db postgresql://USER@HOST:PORT/DBNAME` (a
// libpq connection URI; also postgres://). The same two tables as SQLite (games, game_control)
// plus carc_schema_version; the schema is created and migrated once, under an advisory lock, so
// that several processes may start at once (docs/server.md, "Persistence").
//
// Connections: a small pool (at most kMaxConnections, opened as needed, kept open); a handler
// thread takes one for one statement (or one transaction) and gives it back. A connection that
// broke is closed and replaced by a new one on a later call; the failing call is a DbError (503).
// One more connection, outside the pool, LISTENs for the other processes' saves (listen()).
//
// Several processes (docs/deployment.md): every save that committed is followed by a NOTIFY of
// "id version" on the channel "carc:<schema>" (see announce() in pg_store.cc for why not inside
// the save's transaction); the AI move claims live in ai_claims, the shared token buckets of the
// quotas in quota_buckets.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "store.h"

struct pg_conn;

namespace carc::server {

class PgStore final : public Store {
 public:
  static constexpr int kMaxConnections = 4;

  PgStore() = default;
  ~PgStore() override;
  PgStore(const PgStore&) = delete;
  PgStore& operator=(const PgStore&) = delete;

  // Connects to `uri`, creates or migrates the schema. Throws std::runtime_error (a message
  // without the URI's password).
  void open(const std::string& uri, Durability durability = Durability::Full, int busy_timeout_ms = 5000) override;
  void close() override;
  void save(const GameRow& row) override;
  Update update(const GameRow& row, uint64_t expected_version) override;
  bool paused(const std::string& id) override;
  void set_paused(const std::string& id, bool paused) override;
  bool remove(const std::string& id) override;
  std::vector<GameRow> unfinished(int64_t before_ms = INT64_MAX) override;
  std::vector<GameRow> all() override;
  void save_meta(const std::string& id, const std::string& meta) override;
  std::vector<GameRow> with_meta_containing(const std::string& needle, bool without = false) override;
  std::optional<GameRow> load(const std::string& id) override;
  std::vector<GameRow> list(int limit) override;
  bool shared() const override { return true; }
  void listen(std::function<void(const std::string& id, uint64_t version)> on_change) override;
  int64_t claim_ai_move(const std::string& id, uint64_t version, const std::string& holder, int64_t lease_ms) override;
  std::pair<int, int> ai_games_of(const std::string& owner) override;
  int64_t take_token(const std::string& kind, const std::string& key, int burst, int64_t refill_ms) override;

  // The current schema version (the last migration).
  static int schema_version();

 private:
  struct Lease;
  Lease acquire();
  void release(pg_conn* c);
  pg_conn* connect();  // a new, configured connection; throws DbError
  void migrate(pg_conn* c);
  void announce(pg_conn* c, const GameRow& row);  // NOTIFY "id version" after a save committed
  void listen_loop(pg_conn* c, std::function<void(const std::string&, uint64_t)> on_change);

  std::string uri_;
  Durability durability_ = Durability::Full;
  int busy_timeout_ms_ = 5000;
  std::mutex m_;
  std::condition_variable cv_;
  std::vector<pg_conn*> idle_;
  int connections_ = 0;  // open ones, idle or leased
  bool open_ = false;
  std::string channel_;  // NOTIFY channel: "carc:" + the schema the tables are in
  std::thread listener_;
  std::atomic<bool> listening_{false};
  std::atomic<uint64_t> takes_{0};  // take_token calls, for the occasional sweep of full buckets
};

}  // namespace carc::server
