#!/usr/bin/env bash
# `sudo semedori ...` on the Pi: the kiosk's own command, run as its service user
# on its data folder, so every file it writes keeps the owner the services need.
# Installed by install.sh as /usr/local/bin/semedori.
#
#   sudo semedori set-pin                 change the owner PIN
#   sudo semedori check                   the database is sound and the board equals a replay
#   sudo semedori restore BACKUP.sqlite3  stops the wall and the web, restores, starts them again
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
  # A copy on a USB stick or in a home folder may be unreadable for the service
  # user: bring it into the data folder first (the restore checks it there).
  if ! runuser -u "$KIOSK_USER" -- test -r "$backup"; then
    local copy
    copy="$DATA/backups/restore-$(date +%Y%m%d-%H%M%S).sqlite3"
    # install -D would make a missing folder root's, and the nightly backup
    # (run as the service user) could then never write there.
    install -d -o "$KIOSK_USER" -g "$KIOSK_USER" -m 0750 "$DATA/backups"
    install -o "$KIOSK_USER" -g "$KIOSK_USER" -m 0640 "$backup" "$copy"
    backup=$copy
  fi
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
*) as_kiosk "$@" ;;
esac
