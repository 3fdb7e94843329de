// The SQLite store (store.h): one file, one table of games and one of the operator's controls.
// WAL journal, the durability of store.h, a busy timeout for other connections' locks, and a
// file that is not this server's database is refused unchanged (docs/security.md, "Foreign
// databases"). One connection, serialised by a mutex.
#pragma once

#include <mutex>

#include "store.h"

struct sqlite3;

namespace carc::server {

class SqliteStore final : public Store {
 public:
  SqliteStore() = default;
  ~SqliteStore() override;
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

  // Opens (creating if needed) the database file.
  void open(const std::string& path, Durability durability = Durability::Full, int busy_timeout_ms = 5000) override;
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

 private:
  void exec(const char* sql);
  std::mutex m_;
  sqlite3* db_ = nullptr;
};

}  // namespace carc::server
