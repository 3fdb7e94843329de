// The server's store: every game saved as its game record plus a small JSON document of
// server-side data (seats, tokens, status summary), and the operator's controls (pauses). One
// interface, two implementations, chosen by what `--db` names (make_store below):
//   sqlite_store.cc  a SQLite file (the default: no database server needed)
//   pg_store.cc      a PostgreSQL database, named by a libpq connection URI
// Implementations are thread-safe: the server calls them from several handler threads. No SQL
// leaves them: session.cc, routes.cc and `carcassonne games` see only this interface.
#pragma once

#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace carc::server {

// A write or read the database refused (locked, busy, disk full, I/O error, connection lost):
// nothing was changed; the server answers 503 and keeps the game as it was.
class DbError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How a write reaches the disk (docs/security.md, "Durability"):
//  Full: a change is answered only once it is on disk (SQLite: synchronous=FULL; PostgreSQL:
//        synchronous_commit=on); it survives a power loss or OS crash (default).
//  Fast: SQLite: synchronous=NORMAL in WAL mode; PostgreSQL: synchronous_commit=off. A change
//        survives a crash of the game server, but the last moments before a power loss, an OS
//        crash (or, on PostgreSQL, a crash of the database server) may be lost.
enum class Durability { Full, Fast };

struct GameRow {
  std::string id;
  int64_t created = 0;  // unix milliseconds
  int64_t updated = 0;
  std::string meta;     // JSON: seats, status (see server.cc)
  std::string record;   // the game record (carcassonne-record/2; rows saved before it: /1)
};

class Store {
 public:
  virtual ~Store() = default;

  // Opens (creating the schema if needed) the database. Throws std::runtime_error. A write
  // waits at most `busy_timeout_ms` for another connection's lock before failing with DbError.
  virtual void open(const std::string& where, Durability durability = Durability::Full, int busy_timeout_ms = 5000) = 0;
  virtual void close() = 0;
  // Inserts or replaces a game, in one transaction: when it returns the row is committed (and,
  // with Durability::Full, on disk); when it throws DbError nothing was written.
  virtual void save(const GameRow& row) = 0;
  // Replaces an existing game that is not paused (see the operator's controls below) and whose
  // stored meta still has "version": `expected_version` (what this process loaded or last saved;
  // a meta without a version counts as 0), in one statement: check and write in one
  // transaction. Gone: the row is not there (deleted by the operator); Paused: it is paused;
  // Conflict: another process (another server on the same database) saved it since. Nothing is
  // written unless Done.
  enum class Update { Done, Gone, Paused, Conflict };
  virtual Update update(const GameRow& row, uint64_t expected_version) = 0;
  // The operator's controls (`carcassonne games`), kept in their own table so that the server's
  // saves never overwrite them: a paused game takes no change (update() answers Paused).
  virtual bool paused(const std::string& id) = 0;
  virtual void set_paused(const std::string& id, bool paused) = 0;
  // Deletes a game (and its controls), in one transaction. Returns whether it was there.
  virtual bool remove(const std::string& id) = 0;
  // Games that are not finished (status "playing" or "view" in their meta, or no summary),
  // updated before `before_ms` (unix ms; default: all), oldest first, without the record.
  virtual std::vector<GameRow> unfinished(int64_t before_ms = INT64_MAX) = 0;
  // Every game, oldest update first, without the record (the operator's list).
  virtual std::vector<GameRow> all() = 0;
  // Replaces only a game's meta (token migration).
  virtual void save_meta(const std::string& id, const std::string& meta) = 0;
  // Every game whose meta contains `needle` (id and meta only); `without`: whose meta does not.
  virtual std::vector<GameRow> with_meta_containing(const std::string& needle, bool without = false) = 0;
  virtual std::optional<GameRow> load(const std::string& id) = 0;
  // Newest first, without the record text.
  virtual std::vector<GameRow> list(int limit) = 0;

  // --- several server processes on one database (docs/deployment.md) ----------------------
  // A store that several server processes may share (PostgreSQL) answers true; then the calls
  // below coordinate them through the database. A SQLite file serves one process: the defaults
  // below are what one process needs (nothing to tell, every claim won, quotas kept in memory).
  virtual bool shared() const { return false; }
  // Calls `on_change(id, version)` (on a thread of the store's own) after a connection committed
  // a save of game `id` at meta version `version` (save() and update() announce every commit
  // right after it, this process's own included; a process that dies in between leaves one
  // unannounced), and `on_change("", 0)` after the listening connection was lost and made anew
  // (changes may have been missed meanwhile: check every game). At most one listener; it runs
  // until close(). Throws DbError when it cannot start listening.
  virtual void listen(std::function<void(const std::string& id, uint64_t version)> on_change) { (void)on_change; }
  // The claim on the computer's move in game `id` at stored version `version` (one move per
  // version): taken by `holder` for `lease_ms` when nobody holds it, when the holder's lease
  // expired (the holder died), or when the claim held was for an older version; the same holder
  // renews its own. Returns 0 when `holder` has it, otherwise the milliseconds until the other
  // holder's lease ends (a stale version: -1, nothing to play). Times are the database's clock.
  virtual int64_t claim_ai_move(const std::string& id, uint64_t version, const std::string& holder, int64_t lease_ms) {
    (void)id, (void)version, (void)holder, (void)lease_ms;
    return 0;
  }
  // The unfinished games with an AI seat that client `owner` (its address key, meta "creator")
  // created, and of those the games of computers only, as stored: the per-client caps across
  // processes. {-1, -1} when this store keeps no such count (not shared()): the caller counts in
  // memory.
  virtual std::pair<int, int> ai_games_of(const std::string& owner) {
    (void)owner;
    return {-1, -1};
  }
  // One token from the shared bucket (`kind`, `key`) of `burst` tokens refilled by one every
  // `refill_ms` (quota.h's RateLimiter, kept in the database so that it holds across
  // processes): 0 when taken, otherwise the milliseconds until one is there (nothing taken);
  // -1 when this store keeps no buckets (not shared()): the caller keeps them in memory.
  virtual int64_t take_token(const std::string& kind, const std::string& key, int burst, int64_t refill_ms) {
    (void)kind, (void)key, (void)burst, (void)refill_ms;
    return -1;
  }
};

// Whether `--db` names a PostgreSQL database: a libpq connection URI, postgresql://... or
// postgres://... (anything else is a SQLite file path).
bool is_postgres_uri(const std::string& where);
// `where` for a log or a terminal: a URI's password, if any, replaced by "***".
std::string store_display_name(const std::string& where);
// An unopened store for `where`: PgStore for a PostgreSQL URI, SqliteStore otherwise.
std::unique_ptr<Store> make_store(const std::string& where);

}  // namespace carc::server
