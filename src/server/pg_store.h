// The PostgreSQL store (store.h), over libpq: `--db postgresql://USER@HOST:PORT/DBNAME` (a
// libpq connection URI; also postgres://). The same two tables as SQLite (games, game_control)
// plus carc_schema_version; the schema is created and migrated once, under an advisory lock, so
// that several processes may start at once (docs/server.md, "Persistence").
//
// Connections: a small pool (at most kMaxConnections, opened as needed, kept open); a handler
// thread takes one for one statement (or one transaction) and gives it back. A connection that
// broke is closed and replaced by a new one on a later call; the failing call is a DbError (503).
#pragma once

#include <condition_variable>
#include <mutex>
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

  // The current schema version (the last migration).
  static int schema_version();

 private:
  struct Lease;
  Lease acquire();
  void release(pg_conn* c);
  pg_conn* connect();  // a new, configured connection; throws DbError
  void migrate(pg_conn* c);

  std::string uri_;
  Durability durability_ = Durability::Full;
  int busy_timeout_ms_ = 5000;
  std::mutex m_;
  std::condition_variable cv_;
  std::vector<pg_conn*> idle_;
  int connections_ = 0;  // open ones, idle or leased
  bool open_ = false;
};

}  // namespace carc::server
