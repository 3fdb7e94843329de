#!/usr/bin/env bash
# Load test of `carcassonne serve` on loopback, bounded in time: starts the server on a free
# port with a temporary database, runs scripts/loadtest.mjs, stops the server.
#   scripts/loadtest.sh [--games N] [--seconds S] [--ai SPEC] [--seats K]
#   CARC_BIN=build-web/carcassonne scripts/loadtest.sh ...
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CARC_BIN:-build/carcassonne}"
tmp=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
"$bin" serve --port 0 --db "$tmp/load.sqlite" --ai-delay 0 --ai-threads "${AI_THREADS:-2}" >"$tmp/out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q "http://" "$tmp/out" && break; sleep 0.1; done
url=$(grep -o "http://[0-9.:]*" "$tmp/out" | head -1)
[ -n "$url" ] || { cat "$tmp/out"; exit 1; }
echo "server at $url ($(nproc) cores)"
node scripts/loadtest.mjs "$url" "$@"
echo "database: $(du -h "$tmp/load.sqlite" | cut -f1) ($(ls "$tmp"))"
