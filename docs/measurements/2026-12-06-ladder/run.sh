#!/usr/bin/env bash
# The Elo ladder of docs/ai.md ("Levels"), session 18 (2026-12-06): the matches and seeds of session 12's ladder
# (../2026-12-04-ladder/run.sh) again, after `dead=1:scarce=8` became the expect heuristic's default (commit 2fbca50).
# The lobby's Hard is `mcts:iterations=3000` (spelled `mcts:level=medium` in these matches, as before: the same
# player). easy (`dead=0:scarce=0`), greedy and star play exactly as in session 12, so their matches check that
# nothing else moved. Fixed iteration budgets: the load changes the time, not the games. Resumable (../match.sh).
# Run from anywhere: ./run.sh [path to carcassonne]; it ends with `carcassonne ladder *.json`.
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../../build/carcassonne}
export MATCH_NICE=${MATCH_NICE:-5}
source ../match.sh
echo "start $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log
match greedy-random greedy,random 40 21
match easy-random mcts:level=easy,random 40 22
match easy-greedy mcts:level=easy,greedy 80 23
match medium-greedy mcts:level=medium,greedy 80 24
match medium-easy mcts:level=medium,mcts:level=easy 60 25
match star-greedy star,greedy 200 31
match star-random star,random 40 32
match star-easy star,mcts:level=easy 60 33
match star-medium star,mcts:level=medium 80 34
echo "end $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log
"$bin" ladder *.json
