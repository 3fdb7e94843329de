#!/usr/bin/env bash
# Session 13's diagnostic matches (docs/ai.md): mcts vs mcts at a small and a 10x budget, same
# parameters on both sides. Usage: ./diag.sh NAME SMALL BIG PARAMS GAMES SEED [BIN]
set -euo pipefail
cd "$(dirname "$0")"
name=$1 small=$2 big=$3 params=$4 games=$5 seed=$6 bin=${7:-../../../../build/carcassonne}
[ -s "$name.json" ] && { cat "$name.json"; exit 0; }
nice -n 5 "$bin" tournament --players "mcts:iterations=$big$params,mcts:iterations=$small$params" -n "$games" -t 1 \
  --seed "$seed" --out "games-$name" --resume --json > "$name.json.tmp"
mv "$name.json.tmp" "$name.json"
cat "$name.json"
