#!/usr/bin/env bash
# `make run`: the kiosk on a laptop. The web app and the wall (drawn into a PNG
# instead of a panel) run together on the demo club; Ctrl-C stops both.
#
#   systemd/run-local.sh            start both
#   systemd/run-local.sh --dry-run  print what it would start
#   HOST=0.0.0.0 systemd/run-local.sh   (make run HOST=0.0.0.0) also for phones on the same Wi-Fi
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

# The addresses to type into a browser: this machine's own, and with HOST=0.0.0.0 (all
# interfaces) every address a phone on the same network can reach.
addresses() {
  if [[ $HOST == 0.0.0.0 || $HOST == "::" ]]; then
    echo "Open http://127.0.0.1:$PORT"
    local ip
    for ip in $(hostname -I 2>/dev/null); do
      [[ $ip == *:* ]] && continue # IPv6 addresses rarely work from a phone's browser bar
      echo "On a phone on the same Wi-Fi, open http://$ip:$PORT"
    done
  else
    echo "Open http://$HOST:$PORT"
    [[ $HOST == 127.* || $HOST == localhost ]] &&
      echo "(only this machine can open it; for a phone on the same Wi-Fi: make run HOST=0.0.0.0)"
  fi
  # The PIN goes into this very folder: a plain `semedori set-pin` would use another one.
  local command=$SEMEDORI
  [[ $command == */* ]] && command=$(realpath -m "$command")
  echo "Owner PIN for this club: SEMEDORI_HOME=$(printf %q "$SEMEDORI_HOME") $(printf %q "$command") set-pin"
}

if ((DRY_RUN)); then
  echo "data folder: $SEMEDORI_HOME"
  echo "would run: $SEMEDORI demo   (when the history is empty)"
  echo "would start: ${WEB[*]}"
  echo "would start: ${WALL[*]}"
  addresses
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

addresses
echo "The wall is drawn into $SEMEDORI_HOME (a PNG); press Ctrl-C to stop both."
# When either program ends on its own, stop the other too: half a kiosk misleads.
status=0
wait -n "${pids[@]}" || status=$?
echo "semedori stopped by itself (exit status $status); see the messages above" >&2
exit "$status"
