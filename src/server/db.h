// The server's store: one SQLite table of games, each saved as its game record plus a small
// JSON document of server-side data (seats, tokens, status summary). Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace carc::server {

struct GameRow {
  std::string id;
  int64_t created = 0;  // unix milliseconds
  int64_t updated = 0;
  std::string meta;     // JSON: seats, status (see server.cc)
  std::string record;   // the game record (carcassonne-record/1)
};

class Db {
 public:
  Db() = default;
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  // Opens (creating if needed) the database file. Throws std::runtime_error.
  void open(const std::string& path);
  void close();
  // Inserts or replaces a game.
  void save(const GameRow& row);
  std::optional<GameRow> load(const std::string& id);
  // Newest first, without the record text.
  std::vector<GameRow> list(int limit);

 private:
  void exec(const char* sql);
  std::mutex m_;
  sqlite3* db_ = nullptr;
};

}  // namespace carc::server
