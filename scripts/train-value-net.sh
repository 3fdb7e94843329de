#!/usr/bin/env bash
# The value network's whole pipeline, one command (docs/ai.md, "Learned evaluator"):
#   1. self-play shards on this machine (a local Dask cluster of WORKERS processes; on a real cluster
#      run `python3 -m carcassonne.distributed selfplay --scheduler ADDRESS ...` with the same settings),
#      resumable: an interrupted run keeps its finished shards;
#   2. training in PyTorch (Debian's python3-torch, installed here if missing), with a progress bar and
#      the loss curves, writing data/nets/value.txt (the built-in network, embedded at build time);
#   3. a rebuild, so `mcts:eval=net` uses the new weights.
# Settings (environment): GAMES (default 2000), PLAYERS (greedy,greedy), SEED (1), WORKERS (2),
# EPOCHS (30), HIDDEN (16), DIR (build/selfplay-value), OUT (data/nets/value.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-2000} PLAYERS=${PLAYERS:-greedy,greedy} SEED=${SEED:-1} WORKERS=${WORKERS:-2}
EPOCHS=${EPOCHS:-30} HIDDEN=${HIDDEN:-16} DIR=${DIR:-build/selfplay-value} OUT=${OUT:-data/nets/value.txt}
PY=/usr/bin/python3  # Debian's Python: python3-torch, python3-distributed and the module are built for it
if ! $PY -c "import torch" 2>/dev/null; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-torch >/dev/null
fi
ls build/python/carcassonne/_core*.so >/dev/null || { echo "train-value-net: build first (scripts/setup.sh)" >&2; exit 1; }
export PYTHONPATH="$PWD/build/python"
echo "train-value-net: self-play, $GAMES games of $PLAYERS (seed $SEED) into $DIR"
$PY -m carcassonne.distributed selfplay --workers "$WORKERS" --players "$PLAYERS" -n "$GAMES" --seed "$SEED" \
  --out "$DIR" --progress
echo "train-value-net: training ($EPOCHS epochs, $HIDDEN hidden units)"
$PY -m carcassonne.train_value --shards "$DIR" --out "$OUT" --epochs "$EPOCHS" --hidden "$HIDDEN" --seed "$SEED" \
  --curve "$DIR/curve.json"
ninja -C build carcassonne >/dev/null
echo "train-value-net: $OUT written and built in; try it: build/carcassonne tournament --players mcts:iterations=3000:eval=net,mcts:iterations=3000 -n 200 --seed 11"
