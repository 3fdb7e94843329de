#include "pg_store.h"

#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <chrono>
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
    // 2: several processes: the claims on AI moves (one row per game: the version whose move is
    // claimed, by whom, until when in the database's unix ms) and the quotas' shared token
    // buckets (kind: "create", "upload", "hint"; key: the client's address key or "game:seat").
    // Both UNLOGGED: no WAL, so no disk flush per claim or take; after a crash of the database
    // server they are empty (no claim: at worst one search twice, never a move twice; full buckets).
    "CREATE UNLOGGED TABLE ai_claims ("
    " id TEXT PRIMARY KEY,"
    " version BIGINT NOT NULL,"
    " holder TEXT NOT NULL,"
    " expires BIGINT NOT NULL);"
    "CREATE UNLOGGED TABLE quota_buckets ("
    " kind TEXT NOT NULL,"
    " key TEXT NOT NULL,"
    " tokens DOUBLE PRECISION NOT NULL,"
    " at BIGINT NOT NULL,"
    " PRIMARY KEY (kind, key));"
    // The per-client caps on AI games count a client's games (ai_games_of).
    "CREATE INDEX games_creator ON games ((meta::json ->> 'creator'))",
};
// The database's clock in unix milliseconds (one clock for every process: claims, buckets).
#define CARC_NOW_MS "(extract(epoch from clock_timestamp()) * 1000)::bigint"
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
    // The channel is per schema (search_path), so that databases shared by several
    // installations (or tests) in different schemas do not hear each other; at most 63 bytes.
    Result q(l.c, "SELECT current_schema()");
    std::string ch = "carc:" + (q.rows() ? q.str(0, 0) : std::string());
    if (ch.size() > 63) ch.resize(63);
    std::lock_guard lk(m_);
    channel_ = ch;
  } catch (const std::exception& e) {
    close();
    throw std::runtime_error(std::string("PostgreSQL database: ") + e.what());
  }
}

void PgStore::close() {
  listening_ = false;
  if (listener_.joinable() && listener_.get_id() != std::this_thread::get_id()) listener_.join();
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
  announce(l.c, row);
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
  if (u.changed() == 1) {
    announce(l.c, row);
    return Update::Done;
  }
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
  Result d(l.c,
           "WITH c AS (DELETE FROM game_control WHERE id = $1), a AS (DELETE FROM ai_claims WHERE id = $1) "
           "DELETE FROM games WHERE id = $1",
           {text(id)});
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

// The other processes hear of a committed save: NOTIFY "id version" right after the commit, in
// a transaction of its own. Not inside the saving transaction: PostgreSQL holds a global lock from
// a notifying transaction's pre-commit to its end, so every notifying commit would wait for the
// previous one's WAL flush (measured with pgbench, docs/performance.md: 1,693 commits/s with the
// NOTIFY after the commit, 137 with it inside). A process that dies between the two leaves that
// save unheard: the others find it within kOperatorSyncInterval (Games::sync_operator_changes
// compares each game's stored version) or at their next save of the game (409, reloaded).
// A failed NOTIFY does not fail the save (it committed).
void PgStore::announce(PGconn* c, const GameRow& row) {
  try {
    Result(c, "SELECT pg_notify($1, $2 || ' ' || coalesce($3::json ->> 'version', '0'))",
           {text(channel_), text(row.id), text(row.meta)});
  } catch (const DbError&) {
  }
}

void PgStore::listen(std::function<void(const std::string& id, uint64_t version)> on_change) {
  std::string channel;
  {
    std::lock_guard lk(m_);
    if (!open_) throw DbError("database is closed");
    if (listener_.joinable()) throw DbError("already listening");
    channel = channel_;
  }
  PGconn* c = connect();
  try {
    char* ident = PQescapeIdentifier(c, channel.c_str(), channel.size());
    if (!ident) throw DbError("database: " + trimmed(PQerrorMessage(c)));
    const std::string sql = std::string("LISTEN ") + ident;
    PQfreemem(ident);
    Result(c, sql.c_str());
  } catch (...) {
    PQfinish(c);
    throw;
  }
  listening_ = true;
  listener_ = std::thread([this, c, on_change = std::move(on_change)] { listen_loop(c, on_change); });
}

void PgStore::listen_loop(PGconn* c, std::function<void(const std::string&, uint64_t)> on_change) {
  auto call = [&](const std::string& id, uint64_t version) {
    try {
      on_change(id, version);
    } catch (...) {  // the listener outlives a failed reload (that game is reloaded on its next use)
    }
  };
  auto reconnect = [&]() -> PGconn* {
    try {
      PGconn* n = connect();
      char* ident = PQescapeIdentifier(n, channel_.c_str(), channel_.size());
      const std::string sql = std::string("LISTEN ") + (ident ? ident : "\"\"");
      if (ident) PQfreemem(ident);
      try {
        Result(n, sql.c_str());
      } catch (...) {
        PQfinish(n);
        throw;
      }
      return n;
    } catch (const DbError&) {
      return nullptr;
    }
  };
  while (listening_) {
    if (!c) {
      // Lost: a new connection every half second until one listens; then every game in
      // memory is checked (saves made meanwhile were not heard).
      for (int i = 0; i < 5 && listening_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (!listening_) break;
      c = reconnect();
      if (c) call("", 0);
      continue;
    }
    pollfd p{PQsocket(c), POLLIN, 0};
    if (p.fd < 0) {
      PQfinish(c);
      c = nullptr;
      continue;
    }
    ::poll(&p, 1, 100);  // wakes at least every 0.1 s to see close()
    if (!PQconsumeInput(c) || PQstatus(c) != CONNECTION_OK) {
      PQfinish(c);
      c = nullptr;
      continue;
    }
    while (PGnotify* n = PQnotifies(c)) {
      // The payload is "id version" (save, update): ids never hold a space.
      const std::string extra = n->extra ? n->extra : "";
      PQfreemem(n);
      const size_t sp = extra.rfind(' ');
      if (sp == std::string::npos || sp == 0) continue;
      uint64_t version = 0;
      try {
        version = std::stoull(extra.substr(sp + 1));
      } catch (const std::exception&) {
        continue;
      }
      call(extra.substr(0, sp), version);
    }
  }
  if (c) PQfinish(c);
}

int64_t PgStore::claim_ai_move(const std::string& id, uint64_t version, const std::string& holder, int64_t lease_ms) {
  Lease l = acquire();
  // Taken when free, expired (the holder died), held for an older version, or renewed by its
  // holder; two processes claiming at once: the second waits for the first's row lock, then
  // sees its claim (READ COMMITTED re-checks the WHERE clause) and takes nothing.
  Result q(l.c,
           "INSERT INTO ai_claims AS c (id, version, holder, expires) VALUES($1, $2, $3, " CARC_NOW_MS " + $4) "
           "ON CONFLICT(id) DO UPDATE SET version = excluded.version, holder = excluded.holder, expires = excluded.expires "
           "WHERE c.version < excluded.version OR c.expires <= " CARC_NOW_MS
           " OR (c.holder = excluded.holder AND c.version = excluded.version) RETURNING 1",
           {text(id), int8(int64_t(version)), text(holder), int8(lease_ms)});
  if (q.rows() == 1) return 0;
  Result h(l.c, "SELECT version, expires - " CARC_NOW_MS " FROM ai_claims WHERE id = $1", {text(id)});
  if (h.rows() == 0) return 1;  // released meanwhile: try again at once
  if (uint64_t(h.int64(0, 0)) > version) return -1;
  return std::max<int64_t>(1, h.int64(0, 1));
}

std::pair<int, int> PgStore::ai_games_of(const std::string& owner) {
  Lease l = acquire();
  Result q(l.c,
           "SELECT count(*), count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM json_array_elements(g.meta::json -> 'seats') e "
           "WHERE e ->> 'type' IN ('human', 'remote'))) FROM games g WHERE g.meta::json ->> 'creator' = $1 "
           "AND strpos(g.meta, '\"status\":\"finished\"') = 0 AND coalesce(g.meta::json ->> 'view_only', 'false') <> 'true' "
           "AND EXISTS (SELECT 1 FROM json_array_elements(g.meta::json -> 'seats') e WHERE e ->> 'type' = 'ai')",
           {text(owner)});
  return {int(q.int64(0, 0)), int(q.int64(0, 1))};
}

int64_t PgStore::take_token(const std::string& kind, const std::string& key, int burst, int64_t refill_ms) {
  if (burst < 1) burst = 1;
  if (refill_ms < 1) refill_ms = 1;
  Lease l = acquire();
  // One statement: the bucket's level now (its tokens plus one per refill_ms since `at`, at most
  // burst), one token taken when there is one. Concurrent takes of one bucket queue on its row.
  Result q(l.c,
           "INSERT INTO quota_buckets AS b (kind, key, tokens, at) VALUES($1, $2, $3 - 1, " CARC_NOW_MS ") "
           "ON CONFLICT(kind, key) DO UPDATE SET tokens = least($3::float8, b.tokens + greatest(0, excluded.at - b.at)::float8 / $4) - 1, "
           "at = excluded.at WHERE least($3::float8, b.tokens + greatest(0, excluded.at - b.at)::float8 / $4) >= 1 RETURNING 1",
           {text(kind), text(key), int8(burst), int8(refill_ms)});
  // Now and then, the buckets untouched for a whole refill of their burst are full, like a
  // missing one: forgotten (the table holds only clients seen lately).
  if (++takes_ % 1024 == 0)
    Result(l.c, "DELETE FROM quota_buckets WHERE kind = $1 AND at < " CARC_NOW_MS " - $2 * $3",
           {text(kind), int8(burst), int8(refill_ms)});
  if (q.rows() == 1) return 0;
  Result h(l.c,
           "SELECT least($3::float8, tokens + greatest(0, " CARC_NOW_MS " - at)::float8 / $4) FROM quota_buckets "
           "WHERE kind = $1 AND key = $2",
           {text(kind), text(key), int8(burst), int8(refill_ms)});
  if (h.rows() == 0) return 1;
  const double level = std::stod(h.str(0, 0));
  return std::max<int64_t>(1, int64_t((1.0 - level) * double(refill_ms) + 0.999));
}

}  // namespace carc::server
