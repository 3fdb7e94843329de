#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs every test: C++ (ctest), Python (pytest),
# the browser end-to-end tests when the web client is present, and the fuzzers for a bounded
# time (scripts/fuzz.sh: FUZZ_SECONDS each, default 60; SKIP_FUZZ=1 skips them).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo "== C++ tests (ctest)"
ctest --test-dir build --output-on-failure -j2
if [ -d python/tests ] && ls build/python/carcassonne/_core*.so >/dev/null 2>&1; then
  echo "== Python tests (pytest)"
  CARC_BUILD_DIR="$PWD/build" PYTHONPATH="$PWD/build/python" /usr/bin/python3 -m pytest -q python/tests
fi
if [ -f web/package.json ] && grep -q '"test"' web/package.json; then
  echo "== Browser tests"
  CARC_BIN="$PWD/build/carcassonne" npm --prefix web test
fi
if [ "${SKIP_FUZZ:-0}" != 1 ]; then
  echo "== Fuzzers (scripts/fuzz.sh)"
  scripts/fuzz.sh
fi
echo "all tests passed"
