#!/usr/bin/env bash
# Issue #37, "the measurements left from the previous AI work": mcts at 1 s per move (the default spec's time, the
# current defaults) against greedy, 200 games each, in the Wheel of Fortune and with all three expansions; the
# same command and seed as session 10's 1 s table (docs/ai.md). Time budgets: each match needs a core of its own
# (MATCH_CPU=0 by default, normal priority); the machine's load is logged with each chunk. Resumable (match.sh).
# Run from this directory: ./run.sh [path to carcassonne]
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../../build/carcassonne}
export MATCH_NICE=${MATCH_NICE:-0} MATCH_CPU=${MATCH_CPU:-0}
source ../match.sh
echo "start $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log
match wheel-1s-greedy mcts:time=1s,greedy 200 11 --tileset wheel-of-fortune
match all3-1s-greedy mcts:time=1s,greedy 200 11 --expansions festival,fortune-teller,fruit-trees
echo "end $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log
