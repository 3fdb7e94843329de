#!/usr/bin/env bash
# Runs the server's API tests (ServerTest, SecurityTest, HintsTest, FairnessTest, ServerChatTest: the tests on
# tests/server_fixture.h) on PostgreSQL, and the tests of several `carcassonne serve` processes
# on one database (ClusterTest, tests/server_cluster_test.cc: event streams across processes,
# races, AI moves played once, kill -9, shared quotas): starts Debian's PostgreSQL (the `postgresql` package)
# itself in a temporary directory, on a unix socket there only (no TCP port, no system service),
# points CARC_TEST_PG_URI at it (each test then gets a fresh schema), runs the tests through
# ctest and stops the database (also on failure or Ctrl-C); first, a smoke test of `carcassonne games`
# on it. Needs a built ./build (or BUILD_DIR): carcassonne and the server_* test binaries.
# Run as root, the database runs as the `postgres` user (initdb refuses root).
#   scripts/test-postgres.sh --run CMD ARGS...   starts the database the same way, runs CMD with
#   CARC_TEST_PG_URI set instead of the tests (e.g. the load test, docs/performance.md), then stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
pgbin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
if [ -z "$pgbin" ] || [ ! -x "$pgbin/initdb" ]; then
  echo "error: PostgreSQL's server binaries are missing (apt-get install postgresql; or set PG_BIN)" >&2
  exit 1
fi
start=$SECONDS
tmp=$(mktemp -d /tmp/carc-pg.XXXXXX)
as_db=()
if [ "$(id -u)" = 0 ]; then
  chown postgres: "$tmp"
  as_db=(runuser -u postgres --)
fi
cleanup() {
  "${as_db[@]}" "$pgbin/pg_ctl" -D "$tmp/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
# Throwaway data: no fsync (the tests check the server, not the disk); PG_DURABLE=1 keeps
# PostgreSQL's defaults (fsync on: for load figures comparable with SQLite's).
nofsync="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
[ "${PG_DURABLE:-0}" = 1 ] && nofsync=""
"${as_db[@]}" "$pgbin/initdb" -D "$tmp/data" -U carc --auth=trust -E UTF8 --no-locale -N >"$tmp/initdb.log" 2>&1 ||
  { cat "$tmp/initdb.log" >&2; exit 1; }
"${as_db[@]}" "$pgbin/pg_ctl" -D "$tmp/data" -l "$tmp/postgres.log" -w -t 60 start \
  -o "-k $tmp -c listen_addresses='' -p 5432 $nofsync" >/dev/null ||
  { cat "$tmp/postgres.log" >&2; exit 1; }
"$pgbin/psql" -q -h "$tmp" -p 5432 -U carc -d postgres -c "CREATE DATABASE carc_test" >/dev/null
export CARC_TEST_PG_URI="postgresql://carc@/carc_test?host=$tmp&port=5432"
if [ "${1:-}" = --run ]; then
  shift
  echo "== $* (PostgreSQL at $CARC_TEST_PG_URI)"
  "$@"
  exit
fi
# The operator's command on PostgreSQL: creates the schema in the fresh database, lists no game, and refuses
# an unknown id (exit status 2).
echo "== carcassonne games --db postgresql://..."
listed=$("$build/carcassonne" games --db "$CARC_TEST_PG_URI" list 2>&1) || true
[ "$listed" = "0 game(s)" ] || { echo "error: carcassonne games list on PostgreSQL: $listed" >&2; exit 1; }
games_rc=0
"$build/carcassonne" games --db "$CARC_TEST_PG_URI" pause nosuchgame >/dev/null 2>&1 || games_rc=$?
[ "$games_rc" = 2 ] || { echo "error: carcassonne games pause of an unknown id exited $games_rc, not 2" >&2; exit 1; }
version=$("$pgbin/psql" -q -h "$tmp" -p 5432 -U carc -d carc_test -Atc "SELECT max(version) FROM carc_schema_version")
[ "$version" -ge 1 ] || { echo "error: no schema version after carcassonne games: $version" >&2; exit 1; }
echo "== server API tests on PostgreSQL ($("$pgbin/postgres" --version), $CARC_TEST_PG_URI)"
log="$tmp/ctest.log"
rc=0
ctest --test-dir "$build" --output-on-failure -j2 -R '^(ServerTest|SecurityTest|HintsTest|FairnessTest|ClusterTest|ServerChatTest)\.' | tee "$log" || rc=$?
ran=$(sed -n 's/.*tests passed, [0-9]* tests failed out of \([0-9][0-9]*\).*/\1/p' "$log" | tail -1)
if [ "$rc" = 0 ] && { [ -z "$ran" ] || [ "$ran" -eq 0 ]; }; then
  echo "error: ctest ran no test" >&2
  rc=1
fi
echo "== PostgreSQL tests: $((SECONDS - start)) s"
exit "$rc"
