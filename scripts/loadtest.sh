#!/usr/bin/env bash
# Load tests of `carcassonne serve` on loopback, bounded in time: starts the server on a free
# port with a temporary database, runs the load, stops the server.
#   scripts/loadtest.sh [--games N] [--seconds S] [--ai SPEC] [--seats K]
#       games against AI seats, polled (scripts/loadtest.mjs)
#   scripts/loadtest.sh streams [--streams 1000] [--slow 150] [--idle 300] [--games 20] [--seconds 30] [--think 250]
#       the transport: event streams, slow and idle connections while games are played
#       (scripts/loadtest-streams.mjs; reports the server's RSS)
#   CARC_BIN=build-web/carcassonne scripts/loadtest.sh ...
# Several processes on one PostgreSQL database (docs/deployment.md): LOAD_DB=postgresql://... and
# PROCS=N start N processes on it (the games' requests go to them in turn); with a throwaway
# database: scripts/test-postgres.sh --run env PROCS=2 scripts/loadtest.sh --games 200 --streams
# (LOAD_DB defaults to the CARC_TEST_PG_URI that script sets; a fresh schema per run).
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CARC_BIN:-build/carcassonne}"
script=scripts/loadtest.mjs
if [ "${1:-}" = streams ]; then
  script=scripts/loadtest-streams.mjs
  shift
fi
procs=${PROCS:-1}
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
db=${LOAD_DB:-}
if [ -z "$db" ] && [ "$procs" -gt 1 ]; then db=${CARC_TEST_PG_URI:-}; fi
if [ -z "$db" ]; then
  db="$tmp/load.sqlite"
elif [[ "$db" == postgres* ]]; then
  # A fresh schema for this run (dropped by the throwaway database's end, or left for a look).
  schema="carc_load_$$"
  psql -q "$db" -c "CREATE SCHEMA $schema" >/dev/null
  db="$db$([[ "$db" == *\?* ]] && echo '&' || echo '?')options=-csearch_path%3D$schema"
fi
if [ "$procs" -gt 1 ] && [[ "$db" != postgres* ]]; then
  echo "error: PROCS=$procs needs a PostgreSQL database (LOAD_DB=postgresql://...); SQLite serves one process" >&2
  exit 2
fi
urls=()
for i in $(seq "$procs"); do
  "$bin" serve --port 0 --db "$db" --ai-delay 0 --ai-threads "${AI_THREADS:-2}" ${SERVE_ARGS:-} >"$tmp/out$i" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do grep -q "http://" "$tmp/out$i" && break; sleep 0.1; done
  url=$(grep -o "http://[0-9.:]*" "$tmp/out$i" | head -1)
  [ -n "$url" ] || { cat "$tmp/out$i"; exit 1; }
  urls+=("$url")
done
list=$(IFS=,; echo "${urls[*]}")
echo "$procs server(s) at $list on $([[ "$db" == postgres* ]] && echo PostgreSQL || echo SQLite) ($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
CARC_SERVER_PID=${pids[0]} node "$script" "$list" "$@"
if [[ "$db" != postgres* ]]; then echo "database: $(du -h "$db" | cut -f1) ($(ls "$tmp"))"; fi
