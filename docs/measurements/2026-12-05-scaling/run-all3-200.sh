#!/usr/bin/env bash
# Issue #37, session 16: the ladder with all three expansions, 100 -> 200 games per step (the issue asks for 200).
# Resumes run-prior0.sh's all-three matches in their game folders (same seeds, so games 0-99 are read, not played)
# and writes the 200-game results under new names. Fixed iteration budgets: results do not depend on the load.
# Run from this directory: ./run-all3-200.sh [path to carcassonne]
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../../build/carcassonne}
source ./match.sh
all3=(--expansions festival,fortune-teller,fruit-trees)
MATCH_DIR=games-all3-5k-1k-prior0 match all3-5k-1k-prior0-n200 mcts:iterations=5000:prior=0,mcts:iterations=1000:prior=0 200 43 "${all3[@]}"
MATCH_DIR=games-all3-50k-5k-prior0 match all3-50k-5k-prior0-n200 mcts:iterations=50000:prior=0,mcts:iterations=5000:prior=0 200 44 "${all3[@]}"
echo "festival + fortune-teller + fruit-trees, 200 games per step:"
"$bin" ladder all3-5k-1k-prior0-n200.json all3-50k-5k-prior0-n200.json --anchor mcts:iterations=1000:prior=0
