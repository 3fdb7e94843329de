#!/usr/bin/env bash
# Issue #37's scaling target with session 18's evaluation (dead and scarce cells, the defaults since commit 2fbca50):
# `mcts:iterations=50000` against `mcts:iterations=5000`, both with today's defaults, 200 two-player base games
# (target: 70%), seed 41 (the deals of session 14's 50.0% without the prior). Fixed budgets: the load changes the
# time, not the games. About a minute of a core per game, so the run spans sessions: resumable (../match.sh), the
# games are committed as they finish. Run from anywhere: ./run.sh [path to carcassonne]
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../../build/carcassonne}
export MATCH_NICE=${MATCH_NICE:-5}
source ../match.sh
echo "start $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log
match base-50k-5k mcts:iterations=50000,mcts:iterations=5000 200 41
echo "end $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log
