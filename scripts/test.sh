#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs every test: C++ (ctest; the server's API tests
# also on PostgreSQL, scripts/test-postgres.sh), Python (pytest),
# the browser end-to-end tests when the web client is present, and the fuzzers for a bounded
# time (scripts/fuzz.sh: FUZZ_SECONDS each, default 60; SKIP_FUZZ=1 skips them).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo "== C++ tests (ctest)"
# A suite that runs no test fails: ctest must have run at least one test (it exits 0 when none
# matched), and pytest's exit status 5 (no tests collected) is an error like any other non-zero one.
ctest_log=$(mktemp)
trap 'rm -f "$ctest_log"' EXIT
ctest --test-dir build --output-on-failure -j2 | tee "$ctest_log"
ctest_ran=$(sed -n 's/.*tests passed, [0-9]* tests failed out of \([0-9][0-9]*\).*/\1/p' "$ctest_log" | tail -1)
if [ -z "$ctest_ran" ] || [ "$ctest_ran" -eq 0 ]; then
  echo "error: ctest ran no test" >&2
  exit 1
fi
# The server's API tests again, on a PostgreSQL the script starts and stops itself.
echo "== Server tests on PostgreSQL (scripts/test-postgres.sh)"
scripts/test-postgres.sh
# The Python suite always runs: a module that was not built fails it (the tests import it plainly).
echo "== Python tests (pytest)"
pytest_rc=0
CARC_BUILD_DIR="$PWD/build" PYTHONPATH="$PWD/build/python" /usr/bin/python3 -m pytest -q python/tests || pytest_rc=$?
if [ "$pytest_rc" -eq 5 ]; then
  echo "error: pytest collected no test" >&2
  exit 1
elif [ "$pytest_rc" -ne 0 ]; then
  exit "$pytest_rc"
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
