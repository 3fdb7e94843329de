#!/usr/bin/env bash
# Issue #37, base game: does widening make 50,000 iterations worth more? Each option at 50,000 iterations against the
# defaults at 50,000 (equal iterations, so a gain here is a gain of the large budget), 60 base games, seed 61.
#   pw=1 (progressive widening of decision nodes below the root, session 13; never measured at 50,000)
# Fixed budgets: the machine's load changes the time, not the games. Resumable (../match.sh).
# Run: ./run.sh [path to carcassonne] [pw|all]
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../../build/carcassonne}
which=${2:-all}
source ../match.sh
log() { echo "$1 $which $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log; }
log start
if [ "$which" = pw ] || [ "$which" = all ]; then
  match base-pw1-50k "mcts:iterations=50000:pw=1,mcts:iterations=50000" 60 61
fi
log end
