#!/usr/bin/env bash
# Issue #37's equal-time target: at 1 s per move, the heuristic with scarce cells (`dead=1:scarce=8`, session 18)
# against today's default MCTS (`mcts:time=1s`), 200 games each in the base game (target 60%), with all three
# expansions and in the Wheel of Fortune (55%). Seed 11, the deals of the 1 s tables in docs/ai.md.
# Time budgets: the match needs a core of its own (MATCH_CPU, default 0, normal priority); the machine's load is
# logged with each chunk. Resumable (match.sh): an interrupted run continues where it stopped, with a binary whose
# spec names are the same: commits 7494a69 to 4b145fd (the default changed after it, session 18: there
# `dead=1:scarce=8` is the default and these names no longer mean the same players). The games from 2026-12-06
# 18:16 UTC on were played by a build of 4b145fd; before, by 7494a69 (the same search for these specs).
# Run: ./run.sh [path to carcassonne] [base|all3|wheel|all]
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../../build/carcassonne}
which=${2:-all}
export MATCH_NICE=${MATCH_NICE:-0} MATCH_CPU=${MATCH_CPU:-0}
source ../match.sh
new=mcts:time=1s:dead=1:scarce=8
old=mcts:time=1s
log() { echo "$1 $which $(date -u +%FT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.log; }
log start
if [ "$which" = base ] || [ "$which" = all ]; then match base-scarce8-1s-vs-1s "$new,$old" 200 11; fi
if [ "$which" = all3 ] || [ "$which" = all ]; then
  match all3-scarce8-1s-vs-1s "$new,$old" 200 11 --expansions festival,fortune-teller,fruit-trees
fi
if [ "$which" = wheel ] || [ "$which" = all ]; then match wheel-scarce8-1s-vs-1s "$new,$old" 200 11 --tileset wheel-of-fortune; fi
log end
