#include "pg_store.h"

#include <libpq-fe.h>

#include <string_view>
#include <utility>

namespace carc::server {

namespace {

// Type oids of the parameters (pg_type.h): strings are sent as text in binary format, with
// their length (a NUL byte is refused by the database, never silently cut), integers as int8.
constexpr Oid kText = 25, kInt8 = 20;

// The key of the advisory lock taken around the migrations (one per database: "carc").
constexpr long long kMigrationLock = 0x63617263;

// The migrations, in order: carc_schema_version holds the number of each one applied.
const char* const kMigrations[] = {
    // 1: the games and the operator's controls (the same tables as SQLite's).
    "CREATE TABLE games ("
    " id TEXT PRIMARY KEY,"
    " created BIGINT NOT NULL,"
    " updated BIGINT NOT NULL,"
    " meta TEXT NOT NULL,"
    " record TEXT NOT NULL);"
    "CREATE INDEX games_updated ON games(updated);"
    "CREATE TABLE game_control (id TEXT PRIMARY KEY, paused INTEGER NOT NULL DEFAULT 0)",
};
constexpr int kSchemaVersion = int(sizeof kMigrations / sizeof kMigrations[0]);

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

struct Param {
  std::string value;
  Oid type;
};
Param text(std::string v) { return {std::move(v), kText}; }
Param int8(int64_t v) { return {std::to_string(v), kInt8}; }

// One statement's result; throws DbError when the statement failed.
struct Result {
  PGresult* r = nullptr;
  Result(PGconn* c, const char* sql, const std::vector<Param>& params = {}) {
    std::vector<const char*> values;
    std::vector<int> lengths, formats;
    std::vector<Oid> types;
    for (const Param& p : params) {
      values.push_back(p.value.data());
      lengths.push_back(int(p.value.size()));
      formats.push_back(p.type == kText ? 1 : 0);
      types.push_back(p.type);
    }
    // Without parameters, PQexec: a migration may be several statements.
    r = params.empty() ? PQexec(c, sql)
                       : PQexecParams(c, sql, int(params.size()), types.data(), values.data(), lengths.data(), formats.data(), 0);
    const ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
      std::string msg = r ? PQresultErrorMessage(r) : "";
      if (msg.empty()) msg = PQerrorMessage(c);
      PQclear(r);
      r = nullptr;
      throw DbError("database: " + trimmed(msg));
    }
  }
  ~Result() { PQclear(r); }
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  int rows() const { return PQntuples(r); }
  std::string str(int row, int col) const { return std::string(PQgetvalue(r, row, col), size_t(PQgetlength(r, row, col))); }
  int64_t int64(int row, int col) const { return std::stoll(PQgetvalue(r, row, col)); }
  int changed() const { return std::atoi(PQcmdTuples(r)); }
};

// Rows of (id, created, updated, meta).
std::vector<GameRow> summaries(const Result& q) {
  std::vector<GameRow> out;
  out.reserve(size_t(q.rows()));
  for (int i = 0; i < q.rows(); ++i) out.push_back(GameRow{q.str(i, 0), q.int64(i, 1), q.int64(i, 2), q.str(i, 3), {}});
  return out;
}

}  // namespace

struct PgStore::Lease {
  PgStore* store;
  PGconn* c;
  Lease(PgStore* s, PGconn* conn) : store(s), c(conn) {}
  Lease(Lease&& o) noexcept : store(o.store), c(std::exchange(o.c, nullptr)) {}
  ~Lease() {
    if (c) store->release(c);
  }
};

PgStore::~PgStore() { close(); }

int PgStore::schema_version() { return kSchemaVersion; }

PGconn* PgStore::connect() {
  // connect_timeout first: the URI's own parameters (expand_dbname) override it.
  const char* keys[] = {"connect_timeout", "application_name", "dbname", nullptr};
  const char* values[] = {"10", "carcassonne", uri_.c_str(), nullptr};
  PGconn* c = PQconnectdbParams(keys, values, 1);
  if (!c) throw DbError("database: out of memory");
  if (PQstatus(c) != CONNECTION_OK) {
    const std::string msg = trimmed(PQerrorMessage(c));
    PQfinish(c);
    throw DbError("cannot connect to PostgreSQL: " + msg);
  }
  PQsetNoticeProcessor(c, [](void*, const char*) {}, nullptr);
  try {
    Result(c, "SET client_encoding = 'UTF8'");
    // A statement waits at most the busy timeout for another connection's lock (SQLite's
    // busy timeout), then fails: the request gets its 503.
    Result(c, ("SET lock_timeout = " + std::to_string(busy_timeout_ms_)).c_str());
    Result(c, durability_ == Durability::Full ? "SET synchronous_commit = on" : "SET synchronous_commit = off");
  } catch (...) {
    PQfinish(c);
    throw;
  }
  return c;
}

PgStore::Lease PgStore::acquire() {
  std::unique_lock lk(m_);
  cv_.wait(lk, [&] { return !open_ || !idle_.empty() || connections_ < kMaxConnections; });
  if (!open_) throw DbError("database is closed");
  if (!idle_.empty()) {
    PGconn* c = idle_.back();
    idle_.pop_back();
    return Lease(this, c);
  }
  ++connections_;
  lk.unlock();
  try {
    return Lease(this, connect());
  } catch (...) {
    lk.lock();
    --connections_;
    cv_.notify_one();
    throw;
  }
}

void PgStore::release(PGconn* c) {
  std::lock_guard lk(m_);
  // A connection that broke, or is left inside a transaction, is not reused.
  if (!open_ || PQstatus(c) != CONNECTION_OK || PQtransactionStatus(c) != PQTRANS_IDLE) {
    PQfinish(c);
    --connections_;
  } else {
    idle_.push_back(c);
  }
  cv_.notify_one();
}

void PgStore::migrate(PGconn* c) {
  // One transaction (PostgreSQL's DDL is transactional) under an advisory lock: processes that
  // start at once wait for each other here, and each migration is applied exactly once.
  Result(c, "BEGIN");
  try {
    Result(c, "SELECT pg_advisory_xact_lock($1)", {int8(kMigrationLock)});
    Result q(c,
             "SELECT to_regclass('carc_schema_version') IS NOT NULL, to_regclass('games') IS NOT NULL, "
             "to_regclass('game_control') IS NOT NULL");
    const bool versioned = q.str(0, 0) == "t", games = q.str(0, 1) == "t", control = q.str(0, 2) == "t";
    if (!versioned && (games || control))
      throw std::runtime_error(std::string("not a database of this server: it holds a table '") +
                               (games ? "games" : "game_control") +
                               "' without carc_schema_version, which this server did not create; it was left unchanged");
    if (!versioned) Result(c, "CREATE TABLE carc_schema_version (version INTEGER PRIMARY KEY, applied BIGINT NOT NULL)");
    Result v(c, "SELECT coalesce(max(version), 0) FROM carc_schema_version");
    const int have = int(v.int64(0, 0));
    if (have > kSchemaVersion)
      throw std::runtime_error("the database's schema (version " + std::to_string(have) +
                               ") is newer than this server's (version " + std::to_string(kSchemaVersion) + ")");
    for (int n = have + 1; n <= kSchemaVersion; ++n) {
      Result(c, kMigrations[n - 1]);
      Result(c, "INSERT INTO carc_schema_version(version, applied) VALUES($1, (extract(epoch from now()) * 1000)::bigint)",
             {int8(n)});
    }
    Result(c, "COMMIT");
  } catch (...) {
    PQclear(PQexec(c, "ROLLBACK"));
    throw;
  }
}

void PgStore::open(const std::string& uri, Durability durability, int busy_timeout_ms) {
  {
    std::lock_guard lk(m_);
    if (open_) return;
    uri_ = uri;
    durability_ = durability;
    busy_timeout_ms_ = busy_timeout_ms;
    open_ = true;
  }
  try {
    Lease l = acquire();
    migrate(l.c);
  } catch (const std::exception& e) {
    close();
    throw std::runtime_error(std::string("PostgreSQL database: ") + e.what());
  }
}

void PgStore::close() {
  std::lock_guard lk(m_);
  open_ = false;
  for (PGconn* c : idle_) PQfinish(c);
  connections_ -= int(idle_.size());
  idle_.clear();
  cv_.notify_all();
}

void PgStore::save(const GameRow& row) {
  Lease l = acquire();
  Result(l.c,
         "INSERT INTO games(id, created, updated, meta, record) VALUES($1, $2, $3, $4, $5) "
         "ON CONFLICT(id) DO UPDATE SET updated = excluded.updated, meta = excluded.meta, record = excluded.record",
         {text(row.id), int8(row.created), int8(row.updated), text(row.meta), text(row.record)});
}

PgStore::Update PgStore::update(const GameRow& row, uint64_t expected_version) {
  Lease l = acquire();
  // The version check and the write in one statement: of two processes saving the same game
  // from the same version, the second waits for the first's row lock, then finds the version
  // changed (READ COMMITTED re-checks the WHERE clause on the new row) and writes nothing.
  Result u(l.c,
           "UPDATE games SET updated = $2, meta = $3, record = $4 WHERE id = $1 AND "
           "coalesce((games.meta::json ->> 'version')::numeric, 0) = $5 AND NOT EXISTS "
           "(SELECT 1 FROM game_control WHERE game_control.id = $1 AND paused <> 0)",
           {text(row.id), int8(row.updated), text(row.meta), text(row.record), int8(int64_t(expected_version))});
  if (u.changed() == 1) return Update::Done;
  Result q(l.c, "SELECT EXISTS (SELECT 1 FROM game_control WHERE id = $1 AND paused <> 0) FROM games WHERE id = $1",
           {text(row.id)});
  if (q.rows() == 0) return Update::Gone;
  return q.str(0, 0) == "t" ? Update::Paused : Update::Conflict;
}

bool PgStore::paused(const std::string& id) {
  Lease l = acquire();
  Result q(l.c, "SELECT paused FROM game_control WHERE id = $1", {text(id)});
  return q.rows() > 0 && q.int64(0, 0) != 0;
}

void PgStore::set_paused(const std::string& id, bool paused) {
  Lease l = acquire();
  Result(l.c,
         "INSERT INTO game_control(id, paused) VALUES($1, $2) ON CONFLICT(id) DO UPDATE SET paused = excluded.paused",
         {text(id), int8(paused ? 1 : 0)});
}

bool PgStore::remove(const std::string& id) {
  Lease l = acquire();
  // One statement, so one transaction: the game and its controls go together.
  Result d(l.c, "WITH c AS (DELETE FROM game_control WHERE id = $1) DELETE FROM games WHERE id = $1", {text(id)});
  return d.changed() > 0;
}

std::vector<GameRow> PgStore::unfinished(int64_t before_ms) {
  Lease l = acquire();
  return summaries(Result(l.c,
                          "SELECT id, created, updated, meta FROM games WHERE updated < $1 AND "
                          "strpos(meta, '\"status\":\"finished\"') = 0 ORDER BY updated",
                          {int8(before_ms)}));
}

std::vector<GameRow> PgStore::all() {
  Lease l = acquire();
  return summaries(Result(l.c, "SELECT id, created, updated, meta FROM games ORDER BY updated"));
}

void PgStore::save_meta(const std::string& id, const std::string& meta) {
  Lease l = acquire();
  Result(l.c, "UPDATE games SET meta = $2 WHERE id = $1", {text(id), text(meta)});
}

std::vector<GameRow> PgStore::with_meta_containing(const std::string& needle, bool without) {
  Lease l = acquire();
  Result q(l.c, without ? "SELECT id, meta FROM games WHERE strpos(meta, $1) = 0" : "SELECT id, meta FROM games WHERE strpos(meta, $1) > 0",
           {text(needle)});
  std::vector<GameRow> out;
  for (int i = 0; i < q.rows(); ++i) out.push_back(GameRow{q.str(i, 0), 0, 0, q.str(i, 1), {}});
  return out;
}

std::optional<GameRow> PgStore::load(const std::string& id) {
  Lease l = acquire();
  Result q(l.c, "SELECT id, created, updated, meta, record FROM games WHERE id = $1", {text(id)});
  if (q.rows() == 0) return std::nullopt;
  return GameRow{q.str(0, 0), q.int64(0, 1), q.int64(0, 2), q.str(0, 3), q.str(0, 4)};
}

std::vector<GameRow> PgStore::list(int limit) {
  Lease l = acquire();
  return summaries(Result(l.c, "SELECT id, created, updated, meta FROM games ORDER BY updated DESC LIMIT $1", {int8(limit)}));
}

}  // namespace carc::server
