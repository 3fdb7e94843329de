#include "sqlite_store.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <functional>
#include <set>
#include <stdexcept>

namespace carc::server {

namespace {

struct Stmt {
  sqlite3_stmt* s = nullptr;
  Stmt(sqlite3* db, const char* sql) {
    if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK)
      throw DbError(std::string("database: ") + sqlite3_errmsg(db));
  }
  ~Stmt() { sqlite3_finalize(s); }
  void text(int i, const std::string& v) { sqlite3_bind_text(s, i, v.data(), int(v.size()), SQLITE_TRANSIENT); }
  void int64(int i, int64_t v) { sqlite3_bind_int64(s, i, v); }
  std::string col_text(int i) {
    const unsigned char* p = sqlite3_column_text(s, i);
    return p ? std::string(reinterpret_cast<const char*>(p), size_t(sqlite3_column_bytes(s, i))) : std::string();
  }
};

// Why the existing file at `path` is not a database of this server ("" when it is one, or is
// empty or new, so it may be initialised). Read through a read-only connection, before anything
// writes: a foreign file is refused without a byte of it changed (not even the switch to WAL).
// Ours: only the tables `games` and `game_control` (the operator's pauses) with exactly their
// columns, the index `games_updated`, and SQLite's own objects (sqlite_*).
std::string foreign_schema(const std::string& path) {
  struct stat st {};
  if (path.empty() || path == ":memory:" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
    return "";
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return "cannot be read as a SQLite database (" + msg + ")";
  }
  std::string why;
  auto query = [&](const char* sql, const std::function<void(sqlite3_stmt*)>& row) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK) {
      why = std::string("cannot be read as a SQLite database (") + sqlite3_errmsg(db) + ")";
      return;
    }
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) row(s);
    if (rc != SQLITE_DONE && why.empty()) why = std::string("cannot be read as a SQLite database (") + sqlite3_errmsg(db) + ")";
    sqlite3_finalize(s);
  };
  auto text = [](sqlite3_stmt* s, int i) {
    const unsigned char* p = sqlite3_column_text(s, i);
    return p ? std::string(reinterpret_cast<const char*>(p)) : std::string();
  };
  bool has_games = false, has_control = false;
  query("SELECT type, name, tbl_name FROM sqlite_master", [&](sqlite3_stmt* s) {
    const std::string type = text(s, 0), name = text(s, 1), table = text(s, 2);
    if (!why.empty() || name.rfind("sqlite_", 0) == 0) return;
    if (type == "table" && name == "games") has_games = true;
    else if (type == "table" && name == "game_control") has_control = true;
    else if (!(type == "index" && name == "games_updated" && table == "games"))
      why = "holds " + type + " '" + name.substr(0, 64) + "', which this server did not create";
  });
  if (why.empty() && has_games) {
    std::set<std::string> cols;
    query("PRAGMA table_info(games)", [&](sqlite3_stmt* s) { cols.insert(text(s, 1)); });
    if (why.empty() && cols != std::set<std::string>{"id", "created", "updated", "meta", "record"})
      why = "has a table 'games' that is not this server's (other columns)";
  }
  if (why.empty() && has_control) {
    std::set<std::string> cols;
    query("PRAGMA table_info(game_control)", [&](sqlite3_stmt* s) { cols.insert(text(s, 1)); });
    if (why.empty() && cols != std::set<std::string>{"id", "paused"})
      why = "has a table 'game_control' that is not this server's (other columns)";
  }
  sqlite3_close(db);
  return why;
}

// The rows of a statement that selects id, created, updated, meta (no record); a failed step
// is a DbError.
std::vector<GameRow> summary_rows(sqlite3* db, Stmt& st) {
  std::vector<GameRow> out;
  int rc;
  while ((rc = sqlite3_step(st.s)) == SQLITE_ROW)
    out.push_back(GameRow{st.col_text(0), sqlite3_column_int64(st.s, 1), sqlite3_column_int64(st.s, 2), st.col_text(3), {}});
  if (rc != SQLITE_DONE) throw DbError(std::string("database: ") + sqlite3_errmsg(db));
  return out;
}

}  // namespace

SqliteStore::~SqliteStore() { close(); }

void SqliteStore::exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw std::runtime_error("sqlite: " + msg);
  }
}

void SqliteStore::open(const std::string& path, Durability durability, int busy_timeout_ms) {
  std::lock_guard lk(m_);
  if (db_) return;
  if (const std::string why = foreign_schema(path); !why.empty())
    throw std::runtime_error(path + ": not a database of this server: it " + why +
                             "; it was left unchanged (give --db a new file, or one this server created)");
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr) !=
      SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error(path + ": cannot open database: " + msg);
  }
  sqlite3_busy_timeout(db_, busy_timeout_ms);
  try {
    exec("PRAGMA journal_mode=WAL");
    exec(durability == Durability::Full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
    exec(
        "CREATE TABLE IF NOT EXISTS games ("
        " id TEXT PRIMARY KEY,"
        " created INTEGER NOT NULL,"
        " updated INTEGER NOT NULL,"
        " meta TEXT NOT NULL,"
        " record TEXT NOT NULL)");
    exec("CREATE INDEX IF NOT EXISTS games_updated ON games(updated)");
    exec("CREATE TABLE IF NOT EXISTS game_control (id TEXT PRIMARY KEY, paused INTEGER NOT NULL DEFAULT 0)");
  } catch (const std::exception& e) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error(path + ": " + e.what());
  }
}

void SqliteStore::close() {
  std::lock_guard lk(m_);
  if (db_) sqlite3_close(db_);
  db_ = nullptr;
}

void SqliteStore::save(const GameRow& row) {
  std::lock_guard lk(m_);
  if (!db_) throw DbError("database is closed");
  Stmt st(db_,
          "INSERT INTO games(id, created, updated, meta, record) VALUES(?1, ?2, ?3, ?4, ?5) "
          "ON CONFLICT(id) DO UPDATE SET updated=excluded.updated, meta=excluded.meta, record=excluded.record");
  st.text(1, row.id);
  st.int64(2, row.created);
  st.int64(3, row.updated);
  st.text(4, row.meta);
  st.text(5, row.record);
  // One statement outside an explicit transaction is its own transaction: either all of it is
  // committed when step returns DONE, or nothing.
  if (sqlite3_step(st.s) != SQLITE_DONE) throw DbError(std::string("database: ") + sqlite3_errmsg(db_));
}

SqliteStore::Update SqliteStore::update(const GameRow& row, uint64_t expected_version) {
  std::lock_guard lk(m_);
  if (!db_) throw DbError("database is closed");
  Stmt st(db_,
          "UPDATE games SET updated = ?2, meta = ?3, record = ?4 WHERE id = ?1 AND "
          "coalesce(json_extract(games.meta, '$.version'), 0) = ?5 AND NOT EXISTS "
          "(SELECT 1 FROM game_control WHERE game_control.id = ?1 AND paused != 0)");
  st.text(1, row.id);
  st.int64(2, row.updated);
  st.text(3, row.meta);
  st.text(4, row.record);
  st.int64(5, int64_t(expected_version));
  if (sqlite3_step(st.s) != SQLITE_DONE) throw DbError(std::string("database: ") + sqlite3_errmsg(db_));
  if (sqlite3_changes(db_) == 1) return Update::Done;
  Stmt q(db_,
         "SELECT EXISTS (SELECT 1 FROM game_control WHERE id = ?1 AND paused != 0) FROM games WHERE id = ?1");
  q.text(1, row.id);
  if (sqlite3_step(q.s) != SQLITE_ROW) return Update::Gone;
  return sqlite3_column_int64(q.s, 0) != 0 ? Update::Paused : Update::Conflict;
}

bool SqliteStore::paused(const std::string& id) {
  std::lock_guard lk(m_);
  if (!db_) throw DbError("database is closed");
  Stmt st(db_, "SELECT paused FROM game_control WHERE id = ?1");
  st.text(1, id);
  return sqlite3_step(st.s) == SQLITE_ROW && sqlite3_column_int64(st.s, 0) != 0;
}

void SqliteStore::set_paused(const std::string& id, bool paused) {
  std::lock_guard lk(m_);
  if (!db_) throw DbError("database is closed");
  Stmt st(db_, "INSERT INTO game_control(id, paused) VALUES(?1, ?2) ON CONFLICT(id) DO UPDATE SET paused = excluded.paused");
  st.text(1, id);
  st.int64(2, paused ? 1 : 0);
  if (sqlite3_step(st.s) != SQLITE_DONE) throw DbError(std::string("database: ") + sqlite3_errmsg(db_));
}

bool SqliteStore::remove(const std::string& id) {
  std::lock_guard lk(m_);
  if (!db_) throw DbError("database is closed");
  exec("BEGIN IMMEDIATE");
  try {
    Stmt st(db_, "DELETE FROM games WHERE id = ?1");
    st.text(1, id);
    if (sqlite3_step(st.s) != SQLITE_DONE) throw DbError(std::string("database: ") + sqlite3_errmsg(db_));
    const bool found = sqlite3_changes(db_) > 0;
    Stmt c(db_, "DELETE FROM game_control WHERE id = ?1");
    c.text(1, id);
    if (sqlite3_step(c.s) != SQLITE_DONE) throw DbError(std::string("database: ") + sqlite3_errmsg(db_));
    exec("COMMIT");
    return found;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::vector<GameRow> SqliteStore::unfinished(int64_t before_ms) {
  std::lock_guard lk(m_);
  if (!db_) throw DbError("database is closed");
  Stmt st(db_,
          "SELECT id, created, updated, meta FROM games WHERE updated < ?1 AND "
          "instr(meta, '\"status\":\"finished\"') = 0 ORDER BY updated");
  st.int64(1, before_ms);
  return summary_rows(db_, st);
}

std::vector<GameRow> SqliteStore::all() {
  std::lock_guard lk(m_);
  if (!db_) throw DbError("database is closed");
  Stmt st(db_, "SELECT id, created, updated, meta FROM games ORDER BY updated");
  return summary_rows(db_, st);
}

void SqliteStore::save_meta(const std::string& id, const std::string& meta) {
  std::lock_guard lk(m_);
  if (!db_) throw DbError("database is closed");
  Stmt st(db_, "UPDATE games SET meta = ?2 WHERE id = ?1");
  st.text(1, id);
  st.text(2, meta);
  if (sqlite3_step(st.s) != SQLITE_DONE) throw DbError(std::string("database: ") + sqlite3_errmsg(db_));
}

std::vector<GameRow> SqliteStore::with_meta_containing(const std::string& needle, bool without) {
  std::lock_guard lk(m_);
  if (!db_) throw DbError("database is closed");
  Stmt st(db_, without ? "SELECT id, meta FROM games WHERE instr(meta, ?1) = 0"
                       : "SELECT id, meta FROM games WHERE instr(meta, ?1) > 0");
  st.text(1, needle);
  std::vector<GameRow> out;
  int rc;
  while ((rc = sqlite3_step(st.s)) == SQLITE_ROW) out.push_back(GameRow{st.col_text(0), 0, 0, st.col_text(1), {}});
  if (rc != SQLITE_DONE) throw DbError(std::string("database: ") + sqlite3_errmsg(db_));
  return out;
}

std::optional<GameRow> SqliteStore::load(const std::string& id) {
  std::lock_guard lk(m_);
  if (!db_) throw DbError("database is closed");
  Stmt st(db_, "SELECT id, created, updated, meta, record FROM games WHERE id = ?1");
  st.text(1, id);
  const int rc = sqlite3_step(st.s);
  if (rc == SQLITE_DONE) return std::nullopt;
  if (rc != SQLITE_ROW) throw DbError(std::string("database: ") + sqlite3_errmsg(db_));
  return GameRow{st.col_text(0), sqlite3_column_int64(st.s, 1), sqlite3_column_int64(st.s, 2), st.col_text(3),
                 st.col_text(4)};
}

std::vector<GameRow> SqliteStore::list(int limit) {
  std::lock_guard lk(m_);
  if (!db_) throw DbError("database is closed");
  Stmt st(db_, "SELECT id, created, updated, meta FROM games ORDER BY updated DESC LIMIT ?1");
  st.int64(1, limit);
  return summary_rows(db_, st);
}

}  // namespace carc::server
