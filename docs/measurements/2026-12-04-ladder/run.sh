#!/usr/bin/env bash
# The Elo ladder of docs/ai.md ("Levels"), session 12 (2026-12-04): session 10's matches (same commands and seeds;
# fixed iteration budgets, so the results do not depend on the machine's load) plus the star yardstick's. Resumable:
# a match whose JSON exists is skipped, and every match keeps its games in games-NAME/ (`--out --resume`), so an
# interrupted run continues where it stopped. Run from this directory: ./run.sh [path to carcassonne]
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../../build/carcassonne}
match() {  # NAME PLAYERS GAMES SEED
  [ -s "$1.json" ] && return 0
  nice -n 10 "$bin" tournament --players "$2" -n "$3" -t 1 --seed "$4" --out "games-$1" --resume --json > "$1.json.tmp"
  mv "$1.json.tmp" "$1.json"
}
match greedy-random greedy,random 40 21
match easy-random mcts:level=easy,random 40 22
match easy-greedy mcts:level=easy,greedy 80 23
match medium-greedy mcts:level=medium,greedy 80 24
match medium-easy mcts:level=medium,mcts:level=easy 60 25
match star-greedy star,greedy 200 31
match star-random star,random 40 32
match star-easy star,mcts:level=easy 60 33
match star-medium star,mcts:level=medium 80 34
match hard-greedy mcts:level=hard,greedy 40 26
match hard-medium mcts:level=hard,mcts:level=medium 40 27
"$bin" ladder *.json
