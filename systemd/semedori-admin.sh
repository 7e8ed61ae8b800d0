#!/usr/bin/env bash
# `sudo semedori ...` on the Pi: the kiosk's own command, run as its service user
# on its data folder, so every file it writes keeps the owner the services need.
# Installed by install.sh as /usr/local/bin/semedori.
#
#   sudo semedori set-pin                 change the owner PIN
#   sudo semedori check                   the database is sound and the board equals a replay
#   sudo semedori restore BACKUP.sqlite3  stops the wall and the web, restores, starts them again
#   sudo semedori import FILE.jsonl       imports a history file, from a home folder too
#   sudo semedori-admin wall-check        why the wall finds no panel; restarts the wall once one answers
#
# Also installed as /usr/local/bin/semedori-admin: the name the wall's "no panel found" gives.
set -euo pipefail

# The defaults are the Pi's; the tests point them elsewhere.
PROGRAM=${SEMEDORI_PROGRAM:-/opt/semedori/venv/bin/semedori}
DATA=${SEMEDORI_DATA:-/var/lib/semedori}
KIOSK_USER=${SEMEDORI_USER:-semedori}
SYSTEMCTL=${SEMEDORI_SYSTEMCTL:-systemctl}
SERVICES=(semedori-web.service semedori-display.service)

as_kiosk() {
  if [[ $(id -un) == "$KIOSK_USER" ]]; then
    SEMEDORI_HOME=$DATA "$PROGRAM" "$@"
  elif ((EUID == 0)); then
    runuser -u "$KIOSK_USER" -- env SEMEDORI_HOME="$DATA" "$PROGRAM" "$@"
  else
    echo "semedori: run it with sudo: sudo semedori $*" >&2
    exit 1
  fi
}

# A file in a home folder (0700 on Debian for new users) or on a USB stick may be
# unreadable for the service user: a copy in the data folder is what it reads.
readable_copy() {
  local file=$1 kind=$2
  if runuser -u "$KIOSK_USER" -- test -r "$file"; then
    echo "$file"
    return
  fi
  local copy
  copy="$DATA/backups/$kind-$(date +%Y%m%d-%H%M%S).${file##*.}"
  # install -D would make a missing folder root's, and the nightly backup
  # (run as the service user) could then never write there.
  install -d -o "$KIOSK_USER" -g "$KIOSK_USER" -m 0750 "$DATA/backups"
  install -o "$KIOSK_USER" -g "$KIOSK_USER" -m 0640 "$file" "$copy"
  echo "$copy"
}

import_history() {
  # The file is the last argument; options (--replace) go through as they are.
  if (($# == 0)) || ((EUID != 0)); then
    as_kiosk import "$@"
    return
  fi
  local file=${!#}
  if [[ ! -f $file ]]; then
    echo "semedori: there is no history file $file" >&2
    exit 1
  fi
  local copy
  copy=$(readable_copy "$file" import)
  as_kiosk import "${@:1:$#-1}" "$copy"
  if [[ $copy != "$file" ]]; then
    rm -f "$copy"
  fi
}

# The wall's panel, checked as the service user (its groups open the devices); when a panel
# answers, the wall is restarted so it shows the board now rather than at its next look.
wall_check() {
  if ((EUID != 0)); then
    echo "semedori: run it with sudo: sudo semedori-admin wall-check" >&2
    exit 1
  fi
  if as_kiosk wall-check; then
    "$SYSTEMCTL" restart semedori-display.service
    echo "The wall was restarted: the board is on the panel in about a minute."
  else
    exit 1
  fi
}

restore() {
  local backup=${1:?usage: sudo semedori restore BACKUP.sqlite3}
  if ((EUID != 0)); then
    echo "semedori: restoring stops the kiosk; run it with sudo: sudo semedori restore $backup" >&2
    exit 1
  fi
  if [[ ! -f $backup ]]; then
    echo "semedori: there is no backup file $backup" >&2
    exit 1
  fi
  # Brought into the data folder first when the service user cannot read it (the restore checks it there).
  backup=$(readable_copy "$backup" restore)
  # SQLite files must not change under running services; start them again whatever happens.
  "$SYSTEMCTL" stop "${SERVICES[@]}"
  trap '"$SYSTEMCTL" start "${SERVICES[@]}"' EXIT
  as_kiosk restore "$backup"
}

case ${1:-} in
restore)
  shift
  restore "$@"
  ;;
import)
  shift
  import_history "$@"
  ;;
wall-check)
  wall_check
  ;;
*) as_kiosk "$@" ;;
esac
