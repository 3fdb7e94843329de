// The server's store: one SQLite table of games, each saved as its game record plus a small
// JSON document of server-side data (seats, tokens, status summary). Thread-safe.
#pragma once

#include <climits>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct sqlite3;

namespace carc::server {

// A write or read the database refused (locked, busy, disk full, I/O error): nothing was
// changed; the server answers 503 and keeps the game as it was.
class DbError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How a write reaches the disk (docs/security.md, "Durability"):
//  Full: synchronous=FULL: a change is answered only after SQLite's fsync; it survives a power
//        loss or OS crash (default).
//  Fast: synchronous=NORMAL in WAL mode: a change survives a crash of the server process, but
//        the last moments before a power loss or OS crash may be lost.
enum class Durability { Full, Fast };

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

  // Opens (creating if needed) the database file. Throws std::runtime_error. A write waits at
  // most `busy_timeout_ms` for another connection's lock before failing with DbError.
  void open(const std::string& path, Durability durability = Durability::Full, int busy_timeout_ms = 5000);
  void close();
  // Inserts or replaces a game, in one transaction: when it returns the row is committed (and,
  // with Durability::Full, on disk); when it throws DbError nothing was written.
  void save(const GameRow& row);
  // Replaces an existing game that is not paused (see game_control below), in one statement.
  // Gone: the row is not there (deleted by the operator); Paused: it is paused. Nothing is
  // written unless Done.
  enum class Update { Done, Gone, Paused };
  Update update(const GameRow& row);
  // The operator's controls (`carcassonne games`), kept in their own table so that the server's
  // saves never overwrite them: a paused game takes no change (update() answers Paused).
  bool paused(const std::string& id);
  void set_paused(const std::string& id, bool paused);
  // Deletes a game (and its controls). Returns whether it was there.
  bool remove(const std::string& id);
  // Games that are not finished (status "playing" or "view" in their meta, or no summary),
  // updated before `before_ms` (unix ms; default: all), oldest first, without the record.
  std::vector<GameRow> unfinished(int64_t before_ms = INT64_MAX);
  // Every game, oldest update first, without the record (the operator's list).
  std::vector<GameRow> all();
  // Replaces only a game's meta (token migration).
  void save_meta(const std::string& id, const std::string& meta);
  // Every game whose meta contains `needle` (id and meta only); `without`: whose meta does not.
  std::vector<GameRow> with_meta_containing(const std::string& needle, bool without = false);
  std::optional<GameRow> load(const std::string& id);
  // Newest first, without the record text.
  std::vector<GameRow> list(int limit);

 private:
  void exec(const char* sql);
  std::mutex m_;
  sqlite3* db_ = nullptr;
};

}  // namespace carc::server
