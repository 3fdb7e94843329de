#!/usr/bin/env bash
# Issue #37, base game: chance widening (cw=1, session 20) at 50,000 iterations against the defaults at 50,000
# (equal iterations: a gain here is a gain of the large budget), 60 base games, seed 61 (the deals of run.sh's pw run).
# Needs a binary with `cw` (commit 2475919 or later). Fixed budgets: the machine's load changes the time, not the
# games. Resumable (../match.sh).
# Run: ./run-cw.sh [path to carcassonne]
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../../build/carcassonne}
which=cw
source ../match.sh
log() { echo "$1 $which $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log; }
log start
match base-cw1-50k "mcts:iterations=50000:cw=1,mcts:iterations=50000" 60 61
log end
