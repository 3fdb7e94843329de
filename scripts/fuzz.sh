#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/*_fuzz.cc; clang with AddressSanitizer and UBSan) into
# ./build-fuzz and runs each for a bounded time from its seed corpus (fuzz/corpus/<name>/ for
# fuzz/<name>_fuzz.cc).
# Fails on any crash, sanitizer report, leak, timeout (one input > 10 s) or memory blow-up.
#   scripts/fuzz.sh                  every harness, FUZZ_SECONDS (default 60) each
#   FUZZ_SECONDS=600 scripts/fuzz.sh record_fuzz     one harness, longer
#   FUZZ_SEED=0 FUZZ_SECONDS=900 scripts/fuzz.sh     a fresh libFuzzer seed (default: seed 1)
# New inputs found go to build-fuzz/corpus/<name>/ (the repository's corpus is only read);
# a crashing input is saved as build-fuzz/artifacts/<name>-crash-... (replay it with
# ./build-fuzz/fuzz/<name> FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
# libFuzzer's seed: fixed by default, so a CI run explores the same inputs on every machine and a
# finding reproduces (FUZZ_SEED=0 lets libFuzzer pick one; longer runs should try other seeds).
fuzz_seed=${FUZZ_SEED:-1}
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCARC_BUILD_FUZZ=ON \
  -DCARC_BUILD_TESTS=OFF -DCARC_BUILD_BENCH=OFF -DCARC_BUILD_PYTHON=OFF >/dev/null
if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for f in fuzz/*_fuzz.cc; do targets+=("$(basename "$f" .cc)"); done
fi
nice ninja -C build-fuzz "${targets[@]}"
mkdir -p build-fuzz/artifacts
for t in "${targets[@]}"; do
  work=build-fuzz/corpus/$t
  seeds=fuzz/corpus/${t%_fuzz}
  mkdir -p "$work" "$seeds"
  echo "== fuzz $t for ${seconds}s (seed $fuzz_seed)"
  # -timeout: one input may take at most 10 s; -rss_limit_mb: memory; leaks are reported by ASan.
  set +e
  ./build-fuzz/fuzz/"$t" -seed="$fuzz_seed" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$t-" "$work" "$seeds" >"build-fuzz/$t.log" 2>&1
  status=$?
  set -e
  grep -vE '^#[0-9]+|# Uses:|recommended dictionary' "build-fuzz/$t.log" | tail -25
  if [ "$status" != 0 ]; then
    # the finding itself (the sanitizer's report and its first frames), not only the shadow legend
    grep -m1 -A24 -E '^==[0-9]+==ERROR|runtime error:|ERROR: libFuzzer' "build-fuzz/$t.log" | cut -c1-240 >&2 || true
    echo "fuzz: $t FAILED (exit $status); inputs in build-fuzz/artifacts/" >&2
    exit 1
  fi
done
echo "fuzz: ${targets[*]} ran ${seconds}s each without a finding"
