#!/usr/bin/env bash
# The base game's budget ladder with session 18's evaluation: the first step, `mcts:iterations=5000` against
# `mcts:iterations=1000`, today's defaults on both sides, 200 base games, seed 42 (the deals of session 14's step
# without the prior, 62.0% of 100). With run.sh's 50,000 against 5,000 it gives the ladder 1k / 5k / 50k:
#   carcassonne ladder base-5k-1k.json base-50k-5k.json --anchor mcts:iterations=1000
# Fixed budgets: the load changes the time, not the games. Resumable (../match.sh), with a binary where
# dead=1:scarce=8 is the default: commits 2fbca50 to 9878151 are the players of run.sh (played by a build of
# 9878151); e62d2cc fixed DeadRoots' cap of 64 cells and features, which may change a late position's search.
# Run: ./run-5k-1k.sh [path to carcassonne]
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../../build/carcassonne}
export MATCH_NICE=${MATCH_NICE:-5}
source ../match.sh
echo "start 5k-1k $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log
match base-5k-1k mcts:iterations=5000,mcts:iterations=1000 200 42
echo "end 5k-1k $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log
