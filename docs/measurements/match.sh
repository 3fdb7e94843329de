# The resumable match of the run scripts in this folder's measurement folders (sourced from a measurement folder,
# as `source ../match.sh`; needs $bin): NAME PLAYERS GAMES SEED [EXTRA ARGS].
# A match whose NAME.json exists is skipped; its games are kept in games-NAME/ (`--out --resume`), so an interrupted
# run continues where it stopped. MATCH_DIR=DIR plays into DIR instead (to extend a finished match to more games
# under a new NAME, resuming its games). Fixed iteration budgets do not depend on the machine's load; time budgets do.
# MATCH_NICE (default 5) and MATCH_CPU (cores for taskset, e.g. 1 or 0,1) set the priority and the cores; MATCH_THREADS
# (default 1) plays that many games at once: a time budget needs a core of its own per thread.
match() {
  local name=$1 players=$2 games=$3 seed=$4
  shift 4
  [ -s "$name.json" ] && return 0
  echo "== $name ($(date -u +%H:%M))" >&2
  nice -n "${MATCH_NICE:-5}" ${MATCH_CPU:+taskset -c "$MATCH_CPU"} "$bin" tournament --players "$players" -n "$games" -t "${MATCH_THREADS:-1}" --seed "$seed" "$@" --out "${MATCH_DIR:-games-$name}" --resume \
    --json > "$name.json.tmp"
  mv "$name.json.tmp" "$name.json"
}
