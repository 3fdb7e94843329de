#!/usr/bin/env bash
# Session 13's gate for a new default: SPEC at 5,000 iterations against greedy, 200 base games, seed 11 (the deals of
# Session 10's table). Usage: ./gate.sh NAME PARAMS [BIN]
set -euo pipefail
cd "$(dirname "$0")"
name=$1 params=$2 bin=${3:-../../../../build/carcassonne}
[ -s "$name.json" ] && { cat "$name.json"; exit 0; }
nice -n 5 "$bin" tournament --players "mcts:iterations=5000$params,greedy" -n 200 -t 1 --seed 11 --out "games-$name" \
  --resume --json > "$name.json.tmp"
mv "$name.json.tmp" "$name.json"
