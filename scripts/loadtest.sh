#!/usr/bin/env bash
# Load tests of `carcassonne serve` on loopback, bounded in time: starts the server on a free
# port with a temporary database, runs the load, stops the server.
#   scripts/loadtest.sh [--games N] [--seconds S] [--ai SPEC] [--seats K]
#       games against AI seats, polled (scripts/loadtest.mjs)
#   scripts/loadtest.sh streams [--streams 1000] [--slow 150] [--idle 300] [--games 20] [--seconds 30] [--think 250]
#       the transport: event streams, slow and idle connections while games are played
#       (scripts/loadtest-streams.mjs; reports the server's RSS)
#   CARC_BIN=build-web/carcassonne scripts/loadtest.sh ...
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CARC_BIN:-build/carcassonne}"
script=scripts/loadtest.mjs
if [ "${1:-}" = streams ]; then
  script=scripts/loadtest-streams.mjs
  shift
fi
tmp=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
"$bin" serve --port 0 --db "$tmp/load.sqlite" --ai-delay 0 --ai-threads "${AI_THREADS:-2}" ${SERVE_ARGS:-} >"$tmp/out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q "http://" "$tmp/out" && break; sleep 0.1; done
url=$(grep -o "http://[0-9.:]*" "$tmp/out" | head -1)
[ -n "$url" ] || { cat "$tmp/out"; exit 1; }
echo "server at $url ($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
CARC_SERVER_PID=$pid node "$script" "$url" "$@"
echo "database: $(du -h "$tmp/load.sqlite" | cut -f1) ($(ls "$tmp"))"
