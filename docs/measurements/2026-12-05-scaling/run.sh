#!/usr/bin/env bash
# Issue #37, "strength that scales with thinking time" (docs/ai.md, "Session 13"): 50,000 against 5,000 iterations
# per move with the mean-valued root prior (pmode=2), 200 two-player base games, seed 41, then (step 4) the budget
# ladder. Fixed iteration budgets, so results do not depend on the machine's load. Resumable: a match whose JSON
# exists is skipped, and every match keeps its games in games-NAME/ (`--out --resume`), so an interrupted run
# continues where it stopped. The games so far were played by the binary of commit cca740e (branch ai-37b); the
# search is the same at any later commit whose golden signatures (tests/golden/mcts_signatures.txt) and pmode=2
# path are unchanged. Run from this directory: ./run.sh [path to carcassonne]
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../../build/carcassonne}
source ./match.sh
match 50k-5k-pmode2 mcts:iterations=50000:pmode=2,mcts:iterations=5000:pmode=2 200 41
# Step 4: the budget ladder (1k, 5k, 50k, pmode=2), base and all three expansions; adjacent budgets meet.
all3=(--expansions festival,fortune-teller,fruit-trees)
match 5k-1k-pmode2 mcts:iterations=5000:pmode=2,mcts:iterations=1000:pmode=2 100 42
match all3-5k-1k-pmode2 mcts:iterations=5000:pmode=2,mcts:iterations=1000:pmode=2 100 43 "${all3[@]}"
match all3-50k-5k-pmode2 mcts:iterations=50000:pmode=2,mcts:iterations=5000:pmode=2 100 44 "${all3[@]}"
echo "base:"
"$bin" ladder 50k-5k-pmode2.json 5k-1k-pmode2.json --anchor mcts:iterations=1000:pmode=2
echo "festival + fortune-teller + fruit-trees:"
"$bin" ladder all3-5k-1k-pmode2.json all3-50k-5k-pmode2.json --anchor mcts:iterations=1000:pmode=2
