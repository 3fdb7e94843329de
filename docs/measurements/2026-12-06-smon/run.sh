#!/usr/bin/env bash
# Does `smon=1` (scarce cells around a monastery take its completion chance, session 18) help MCTS? With the one-move
# search it won 53.7% (+1.8 points) in the base game, 52.5% (+3.9) with all three expansions and 53.5% (+2.6) in the
# Wheel of Fortune (1,000 games each). Here: `mcts:iterations=5000:smon=1` against `mcts:iterations=5000` (today's
# defaults, dead=1:scarce=8, smon=0), 400 games per rule set (a gain of 2 points needs about that many), seed 13.
# Fixed budgets: the load changes the time, not the games. Resumable (../match.sh), with any binary where smon is an
# option and off by default (commit 4b145fd on). Run: ./run.sh [path to carcassonne] [base|all3|wheel|all]
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../../build/carcassonne}
which=${2:-all}
export MATCH_NICE=${MATCH_NICE:-5}
source ../match.sh
log() { echo "$1 $which $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log; }
log start
players=mcts:iterations=5000:smon=1,mcts:iterations=5000
if [ "$which" = base ] || [ "$which" = all ]; then match base-smon1-5k "$players" 400 13; fi
if [ "$which" = all3 ] || [ "$which" = all ]; then
  match all3-smon1-5k "$players" 400 13 --expansions festival,fortune-teller,fruit-trees
fi
if [ "$which" = wheel ] || [ "$which" = all ]; then match wheel-smon1-5k "$players" 400 13 --tileset wheel-of-fortune; fi
log end
