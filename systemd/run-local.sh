#!/usr/bin/env bash
# `make run`: the kiosk on a laptop. The web app and the wall (drawn into a PNG
# instead of a panel) run together on the demo club; Ctrl-C stops both.
#
#   systemd/run-local.sh            start both
#   systemd/run-local.sh --dry-run  print what it would start
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export SEMEDORI_HOME=${SEMEDORI_HOME:-$PWD/.demo}
SEMEDORI=${SEMEDORI:-.venv/bin/semedori}
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8080}
DRY_RUN=0
[[ ${1:-} == --dry-run ]] && DRY_RUN=1

WEB=("$SEMEDORI" serve --host "$HOST" --port "$PORT")
WALL=("$SEMEDORI" display --panel png)

if ((DRY_RUN)); then
  echo "data folder: $SEMEDORI_HOME"
  echo "would run: $SEMEDORI demo   (when the history is empty)"
  echo "would start: ${WEB[*]}"
  echo "would start: ${WALL[*]}"
  echo "Open http://$HOST:$PORT"
  exit 0
fi

mkdir -p "$SEMEDORI_HOME"
# An empty history gets the demo club; a club that has games keeps them.
if [[ -z $("$SEMEDORI" export 2>/dev/null | head -c 1) ]]; then
  "$SEMEDORI" demo
fi

# shellcheck disable=SC2317  # reached through the traps below
stop() {
  trap - INT TERM EXIT
  echo
  echo "stopping the web app and the wall"
  # Exactly the background jobs this script started (even one started a moment
  # ago whose id was not noted yet).
  local running
  mapfile -t running < <(jobs -p)
  if ((${#running[@]})); then
    kill "${running[@]}" 2>/dev/null || true
    wait "${running[@]}" 2>/dev/null || true
  fi
}
# Ctrl-C is how one stops it: a success. EXIT covers every other way out.
# shellcheck disable=SC2317
interrupted() {
  stop
  exit 0
}
trap interrupted INT TERM
trap stop EXIT

pids=()
"${WEB[@]}" &
pids+=($!)
"${WALL[@]}" &
pids+=($!)

echo "Open http://$HOST:$PORT"
echo "The wall is drawn into $SEMEDORI_HOME (a PNG); press Ctrl-C to stop both."
# When either program ends on its own, stop the other too: half a kiosk misleads.
status=0
wait -n "${pids[@]}" || status=$?
echo "semedori stopped by itself (exit status $status); see the messages above" >&2
exit "$status"
