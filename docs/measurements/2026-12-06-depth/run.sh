#!/usr/bin/env bash
# Issue #37, session 17: is the base game's saturation (50,000 iterations no stronger than 5,000 with 4 rollout
# moves and the heuristic, Session 14-15) the evaluation's? Rollouts to the game's end (`depth=end`, each move the
# best of 3 sampled by the heuristic) give every iteration the remaining draws' luck instead of a fixed expectation.
#  1. depth=end at 5,000 iterations against the default depth 4 at 50,000 (both without the root prior):
#     is a deeper evaluation worth more than ten times the iterations?
#  2. depth=end, 10,000 against 1,000 iterations (seed 52, the deals of the depth-4 prior=0 1k -> 10k row):
#     does the budget count with a deeper evaluation?
# Fixed iteration budgets: results do not depend on the machine's load. Resumable (match.sh).
# Run from this directory: ./run.sh [path to carcassonne]
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../../build/carcassonne}
source ../match.sh
match end5k-d4-50k mcts:iterations=5000:depth=end:prior=0,mcts:iterations=50000:prior=0 60 81
match end10k-end1k mcts:iterations=10000:depth=end:prior=0,mcts:iterations=1000:depth=end:prior=0 60 52
