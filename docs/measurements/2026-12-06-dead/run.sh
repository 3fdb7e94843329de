#!/usr/bin/env bash
# Issue #37, session 18: dead cells (`dead=1`: roads and cities facing a cell no tile left fits lose their
# completion chance) against the defaults at equal iterations (5,000 per move), 200 games per rule set. Fixed budgets,
# so the load changes the time, not the games. Resumable (match.sh). Run from anywhere: ./run.sh [carcassonne] [which]
# which = base (default), all3 or wheel (dead=1 alone), or scarce-base, scarce-all3, scarce-wheel (dead=1:scarce=8,
# the best of the one-move search's tuning, docs/ai.md session 18); MATCH_CPU picks a core.
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../../build/carcassonne}
which=${2:-base}
export MATCH_NICE=${MATCH_NICE:-5}
source ../match.sh
echo "start $which $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log
case $which in
  base) match dead1-5k-vs-5k mcts:iterations=5000:dead=1,mcts:iterations=5000 200 11 ;;
  all3) match all3-dead1-5k-vs-5k mcts:iterations=5000:dead=1,mcts:iterations=5000 200 11 --expansions festival,fortune-teller,fruit-trees ;;
  wheel) match wheel-dead1-5k-vs-5k mcts:iterations=5000:dead=1,mcts:iterations=5000 200 11 --tileset wheel-of-fortune ;;
  scarce-base) match scarce8-5k-vs-5k mcts:iterations=5000:dead=1:scarce=8,mcts:iterations=5000 200 11 ;;
  scarce-all3) match all3-scarce8-5k-vs-5k mcts:iterations=5000:dead=1:scarce=8,mcts:iterations=5000 200 11 --expansions festival,fortune-teller,fruit-trees ;;
  scarce-wheel) match wheel-scarce8-5k-vs-5k mcts:iterations=5000:dead=1:scarce=8,mcts:iterations=5000 200 11 --tileset wheel-of-fortune ;;
  *) echo "unknown match: $which" >&2; exit 2 ;;
esac
echo "end $which $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log
