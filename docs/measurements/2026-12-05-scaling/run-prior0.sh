#!/usr/bin/env bash
# Issue #37, session 14: the search without the root prior (prior=0), which scaled best at small budgets (80.0% at
# 500 vs 5,000 and at 1,000 vs 10,000; docs/ai.md, "Session 13"). First the gate (prior=0 at 5,000 iterations against
# greedy, 200 base games, seed 11: the deals of Session 10's table), then 50,000 against 5,000 iterations, 200 base
# games, seed 41 (the deals of the pmode=2 run), then the ladder steps 1k-5k and, with all three expansions, 5k-1k and
# 50k-5k. Fixed iteration budgets: results do not depend on the machine's load. Resumable (`--out --resume`; a match
# whose JSON exists is skipped). Run from this directory: ./run-prior0.sh [path to carcassonne]
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../../build/carcassonne}
source ./match.sh
match gate-prior0-5000-greedy mcts:iterations=5000:prior=0,greedy 200 11
match 50k-5k-prior0 mcts:iterations=50000:prior=0,mcts:iterations=5000:prior=0 200 41
all3=(--expansions festival,fortune-teller,fruit-trees)
match 5k-1k-prior0 mcts:iterations=5000:prior=0,mcts:iterations=1000:prior=0 100 42
match all3-5k-1k-prior0 mcts:iterations=5000:prior=0,mcts:iterations=1000:prior=0 100 43 "${all3[@]}"
match all3-50k-5k-prior0 mcts:iterations=50000:prior=0,mcts:iterations=5000:prior=0 100 44 "${all3[@]}"
echo "base:"
"$bin" ladder 50k-5k-prior0.json 5k-1k-prior0.json --anchor mcts:iterations=1000:prior=0
echo "festival + fortune-teller + fruit-trees:"
"$bin" ladder all3-5k-1k-prior0.json all3-50k-5k-prior0.json --anchor mcts:iterations=1000:prior=0
