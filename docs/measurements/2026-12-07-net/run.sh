#!/usr/bin/env bash
# Issue #37, the learned evaluator: is `eval=net` stronger than the heuristic it moves, at equal iterations?
# Fixed budgets (the load changes the time, not the games), so this may share the machine; MATCH_CPU pins it to a
# core (default 1, leaving core 0 to a time-budgeted run). At equal iterations the net can only lose time (its
# inference costs ~0.1-0.2 us per leaf, docs/performance.md on top of the heuristic), so a draw here is a loss at equal time. Resumable
# (match.sh). Run from this directory: ./run.sh [path to carcassonne]
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../../build/carcassonne}
export MATCH_NICE=${MATCH_NICE:-5} MATCH_CPU=${MATCH_CPU:-1}
source ../match.sh
echo "start $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log
match net-5k-vs-expect-5k mcts:iterations=5000:eval=net,mcts:iterations=5000 200 11
echo "end $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log
