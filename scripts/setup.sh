#!/usr/bin/env bash
# Installs everything the project needs on a fresh Debian machine (idempotent, non-interactive)
# and builds it in Release mode into ./build.
#   scripts/setup.sh            packages + build
#   SKIP_APT=1 scripts/setup.sh build only
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build pkg-config git
  nlohmann-json3-dev libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev
  libsqlite3-dev libboost-dev libssl-dev
  libpq-dev postgresql postgresql-client  # the PostgreSQL store (libpq) and its tests (scripts/test-postgres.sh)
  python3 python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pytest
  python3-distributed)  # Dask scheduler and workers: carcassonne.distributed (docs/python.md)

# The fuzzers (scripts/fuzz.sh, run by scripts/test.sh): clang with libFuzzer and the sanitizers.
packages+=(clang libfuzzer-14-dev libclang-rt-14-dev)

if [ "${SKIP_APT:-0}" != 1 ]; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  if [ -x scripts/setup-web.sh ]; then scripts/setup-web.sh; fi
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build
if [ -f web/package.json ] && [ -d web/node_modules ]; then npm --prefix web run build --silent; fi
echo "setup: built ./build/carcassonne"
