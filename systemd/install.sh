#!/usr/bin/env bash
# Install, upgrade or remove Semedori Board on Raspberry Pi OS (Bookworm or Trixie).
#
#   sudo ./systemd/install.sh               install, or upgrade (backup first), then start
#   sudo ./systemd/install.sh --uninstall   remove the services; the club's data stays
#   ./systemd/install.sh --dry-run          print every step, change nothing
#   ./systemd/install.sh --root DIR         write the files under DIR (tests); skip the system
#
# Idempotent: a second run leaves the same files, and config.txt gets each line once.
# 64-bit Raspberry Pi OS only (arm64): check_system says why.
set -euo pipefail

PREFIX=/opt/semedori
VENV=$PREFIX/venv
DATA=/var/lib/semedori
KIOSK_USER=semedori
HOST_NAME=semedori
REPO_URL=${SEMEDORI_REPO:-https://github.com/semedori/semedori-board.git}
# dpkg's architecture, not the kernel's: 32-bit Raspberry Pi OS on a Pi 4 runs a
# 64-bit kernel (uname -m says aarch64) under an armhf userland. Tests set it.
ARCH=${SEMEDORI_ARCH:-$(dpkg --print-architecture 2>/dev/null || uname -m)}
UNITS=(semedori-web.service semedori-display.service semedori-backup.service semedori-backup.timer)
SERVICES=(semedori-web.service semedori-display.service)
JOURNALD_CONF=/etc/systemd/journald.conf.d/semedori.conf
# build-essential and python3-dev: pip compiles the few small packages that come
# without a wheel (spidev). Pillow and numpy come as self-contained arm64 wheels;
# libopenjp2-7, libtiff6, libopenblas0, libfreetype6, libxcb1 are what they link
# against when pip takes a piwheels build instead (a few MB, so always installed).
# fonts-droid-fallback and fonts-unifont: the wall's fallback fonts for CJK and emoji
# nicknames (display/fonts.py).
PACKAGES=(python3 python3-venv python3-dev python3-pip build-essential git sqlite3 avahi-daemon
  libopenjp2-7 libtiff6 libopenblas0 libfreetype6 libxcb1 fonts-droid-fallback fonts-unifont)
# Pi 5's GPIO back-end for gpiozero; only in the Raspberry Pi repository.
OPTIONAL_PACKAGES=(python3-lgpio)

ROOT=""
DRY_RUN=0
UNINSTALL=0
ASK_PIN=1
REBOOT_NEEDED=0
# Set when config.txt changed: the wall needs the reboot that applies spi0-0cs.
WALL_AFTER_REBOOT=0
# Set while the old version is stopped for an upgrade: any failure puts it back.
UPGRADING=0
# Set when pip stopped: the internet or a full card, most often (the hint differs).
PIP_FAILED=0
# Piped into bash (curl ... | sudo bash) there is no file: the source is cloned.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]:-.}")" && pwd)
SOURCE=""

usage() {
  sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  echo "Options: --dry-run, --root DIR, --uninstall, --hostname NAME (default semedori), --no-pin"
}

# --- how each step runs ------------------------------------------------------------------

step() { printf '\n==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }

# A change to files (under --root DIR when given): printed with --dry-run, done otherwise.
run() {
  if ((DRY_RUN)); then
    note "would run: $*"
  else
    note "\$ $*"
    "$@"
  fi
}

# A change to the running system (packages, users, services): never under --root.
system() {
  if ((DRY_RUN)); then
    note "would run: $*"
  elif [[ -n $ROOT ]]; then
    note "skipped under --root: $*"
  else
    note "\$ $*"
    # stdin from /dev/null: piped into bash, the rest of this script is stdin.
    "$@" </dev/null
  fi
}

# A command of the kiosk itself, as its user, on its data.
kiosk() {
  system runuser -u "$KIOSK_USER" -- env SEMEDORI_HOME="$DATA" "$VENV/bin/semedori" "$@"
}

on_pi() { [[ -z $ROOT ]] && ((!DRY_RUN)); }

# --- the steps ------------------------------------------------------------------------------

check_system() {
  step "Checking this machine"
  if [[ -z $ROOT ]] && ((!DRY_RUN)) && ((EUID != 0)); then
    echo "install.sh: run it as root: sudo $0" >&2
    exit 1
  fi
  local codename="" model="not a Raspberry Pi"
  if [[ -r $ROOT/etc/os-release ]]; then
    codename=$(sed -n 's/^VERSION_CODENAME=//p' "$ROOT/etc/os-release")
  fi
  if [[ -r $ROOT/proc/device-tree/model ]]; then
    model=$(tr -d '\0' <"$ROOT/proc/device-tree/model")
  fi
  note "system: ${codename:-unknown} ($ARCH); board: $model"
  case $codename in
  bookworm | trixie) ;;
  *) note "warning: made for Raspberry Pi OS Bookworm or Trixie; going on anyway" ;;
  esac
  # Only 64-bit: on 32-bit (armhf) the newest numpy and Pillow have no wheels and
  # pip compiles them for an hour or fails. Every Pi the panel fits (Zero 2 W, 3,
  # 4, 5) runs the 64-bit system, and Imager offers it for each of them.
  case $ARCH in
  arm64 | aarch64 | amd64 | x86_64) ;;
  *)
    {
      echo
      echo "install.sh: this Pi runs a 32-bit system ($ARCH); Semedori Board needs the 64-bit one."
      echo "Every Pi the panel fits (Zero 2 W, 3, 4, 5) can run it: write the card again with"
      echo "Raspberry Pi Imager, choosing \"Raspberry Pi OS Lite (64-bit)\", then run this again."
      echo "Nothing was changed."
    } >&2
    exit 1
    ;;
  esac
}

install_packages() {
  step "Installing system packages"
  system apt-get update
  system env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${PACKAGES[@]}"
  local package
  for package in "${OPTIONAL_PACKAGES[@]}"; do
    if on_pi && ! apt-cache show "$package" >/dev/null 2>&1; then
      note "$package is not available here; skipped"
      continue
    fi
    system env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$package"
  done
}

create_user() {
  step "Creating the service user '$KIOSK_USER' (groups gpio, spi, i2c for the panel)"
  if on_pi && id "$KIOSK_USER" >/dev/null 2>&1; then
    note "user $KIOSK_USER exists"
  else
    system useradd --system --user-group --home-dir "$DATA" --no-create-home \
      --shell /usr/sbin/nologin "$KIOSK_USER"
  fi
  local group
  for group in gpio spi i2c; do
    if on_pi && getent group "$group" >/dev/null; then
      continue
    fi
    system groupadd --force --system "$group"
  done
  system usermod --append --groups gpio,spi,i2c "$KIOSK_USER"
}

find_source() {
  step "Finding the program's source"
  if [[ -f $HERE/../pyproject.toml ]]; then
    SOURCE=$(cd "$HERE/.." && pwd)
    note "this checkout: $SOURCE"
  elif [[ -d $ROOT$PREFIX/src/.git ]]; then
    SOURCE=$ROOT$PREFIX/src
    run git -C "$SOURCE" pull --ff-only || download_failed "update $SOURCE from"
  else
    SOURCE=$ROOT$PREFIX/src
    run git clone --depth 1 "$REPO_URL" "$SOURCE" || download_failed "download the program from"
  fi
  if ((!DRY_RUN)) && [[ ! -f $SOURCE/pyproject.toml ]]; then
    download_failed "find the program in what came from"
  fi
}

# In plain words, and before anything on the Pi was changed by this step.
download_failed() {
  {
    echo
    echo "install.sh: could not $1 $REPO_URL"
    echo "The board was not installed or changed. Check that the Pi is on the internet"
    echo "(ping -c 3 github.com) and that the address above opens in a browser, then run"
    echo "the install command again."
  } >&2
  exit 1
}

backup_before_upgrade() {
  step "Backing up the club's data before an upgrade"
  if [[ ! -f $ROOT$DATA/semedori.sqlite3 ]] || [[ ! -x $ROOT$VENV/bin/semedori ]]; then
    note "nothing to back up (first install)"
    return
  fi
  # Stopped first, so nothing is recorded between the backup and the migration.
  # From here on any failure puts the previous version back (restore_previous).
  UPGRADING=1
  trap restore_previous EXIT
  # A closed ssh window (HUP) or Ctrl-C must not leave the board stopped either.
  trap 'exit 129' HUP
  trap 'exit 130' INT
  trap 'exit 143' TERM
  system systemctl stop "${SERVICES[@]}"
  kiosk backup "$DATA/backups/semedori-before-upgrade-$(date +%Y%m%d-%H%M%S).sqlite3"
}

install_program() {
  step "Installing the program into $VENV"
  if on_pi && [[ -x $VENV/bin/python ]]; then
    note "virtual environment exists"
  else
    # System site packages: the Pi's own lgpio (Pi 5) and friends are used as they are.
    system python3 -m venv --system-site-packages "$VENV"
  fi
  if ((UPGRADING)); then
    # pip changes the program in place; this copy is what a failed upgrade goes back to.
    run rm -rf "$ROOT$VENV.previous"
    run cp -a "$ROOT$VENV" "$ROOT$VENV.previous"
  fi
  # --prefer-binary: an older wheel rather than an hour of compiling on the Pi.
  venv_pip install --quiet --upgrade pip || pip_failed
  venv_pip install --quiet --prefer-binary --upgrade "$SOURCE" || pip_failed
}

# pip stopped (no internet, a download cut off, a full card): say so in plain words after
# pip's own lines. An upgrade then goes back to the previous version (restore_previous).
pip_failed() {
  local status=$?
  PIP_FAILED=1
  {
    echo
    echo "install.sh: could not install the program into $VENV (pip stopped with code $status;"
    echo "its last lines above say why). Most often the internet went away during the download,"
    echo "or the card is full. Check: ping -c 3 pypi.org (the Pi is on the internet) and"
    echo "df -h / (some free space; the program needs about 300 MB), then run the install"
    echo "command again: it goes on from where it stopped."
    if ((!UPGRADING)); then
      echo "The club's data was not touched."
    fi
  } >&2
  exit "$status"
}

# pip of the kiosk's virtual environment. Under --root it runs only if that root
# holds one (the tests' stand-in): the venv is files under the root.
venv_pip() {
  if [[ -n $ROOT ]] && ((!DRY_RUN)) && [[ -x $ROOT$VENV/bin/pip ]]; then
    run "$ROOT$VENV/bin/pip" "$@" </dev/null
  else
    system "$VENV/bin/pip" "$@"
  fi
}

# Any failure after the services were stopped for an upgrade: the previous program
# comes back and both services start again, so the club keeps a working board.
restore_previous() {
  local status=$?
  if ((!UPGRADING)) || ((status == 0)); then
    return 0
  fi
  UPGRADING=0
  set +e
  # The ssh window may be gone: writing to it must not stop the repair.
  trap '' HUP PIPE INT TERM
  step "The upgrade failed: putting the previous version back"
  # Stopped first: the new version may run already (install_units restarted it), and one whose
  # program vanishes under it crashes in a loop into systemd's start limit, which then refuses
  # the start below ("Start request repeated too quickly"; seen in make pi-check on main).
  system systemctl stop "${SERVICES[@]}"
  if [[ -d $ROOT$VENV.previous ]]; then
    run rm -rf "$ROOT$VENV"
    run mv "$ROOT$VENV.previous" "$ROOT$VENV"
  fi
  local running="is back and running"
  system systemctl reset-failed "${SERVICES[@]}"
  system systemctl start "${SERVICES[@]}" || running="is back, but did not start: see systemctl status semedori-web"
  {
    echo
    echo "install.sh: the upgrade did not finish (the messages above say where). The previous"
    echo "version $running; the club's data was backed up first and is unchanged."
    if ((PIP_FAILED)); then
      echo "Check the Pi's internet connection and free space (df -h /), then run the install"
      echo "command again."
    else
      echo "Run the install command again; if it stops at the same step, the lines above and"
      echo "journalctl -u semedori-web -n 50 say why."
    fi
  } >&2
  exit "$status"
}

enable_interfaces() {
  step "Turning on SPI and I2C (the panel and its ID chip)"
  system raspi-config nonint do_spi 0
  system raspi-config nonint do_i2c 0
}

# config.txt: Bookworm and Trixie keep it in /boot/firmware, older systems in /boot.
config_txt() {
  if [[ -f $ROOT/boot/firmware/config.txt ]]; then
    echo "$ROOT/boot/firmware/config.txt"
  elif [[ -f $ROOT/boot/config.txt ]]; then
    echo "$ROOT/boot/config.txt"
  fi
}

edit_config_txt() {
  step "Freeing GPIO8 for the panel (dtoverlay=spi0-0cs in config.txt)"
  local file
  file=$(config_txt)
  if [[ -z $file ]]; then
    note "no config.txt found (not a Raspberry Pi?); skipped"
    return
  fi
  local missing=()
  local line
  for line in dtparam=spi=on dtparam=i2c_arm=on dtoverlay=spi0-0cs; do
    grep -qxF "$line" "$file" || missing+=("$line")
  done
  if ((${#missing[@]} == 0)); then
    note "$file already has it"
    return
  fi
  # The original is kept once, before our first edit, and never overwritten.
  [[ -e $file.semedori-backup ]] || run cp -p "$file" "$file.semedori-backup"
  if ((DRY_RUN)); then
    note "would append to $file: [all] ${missing[*]}"
  else
    note "appending to $file: ${missing[*]}"
    {
      printf '\n# Semedori Board: SPI and I2C for the Inky panel. spi0-0cs leaves chip select\n'
      printf '# to the panel driver; without it: "Chip Select: (line 8, GPIO8) currently claimed".\n[all]\n'
      printf '%s\n' "${missing[@]}"
    } >>"$file"
  fi
  REBOOT_NEEDED=1
  # raspi-config's live "spi=on" holds GPIO8 until the reboot applies spi0-0cs:
  # a wall started now would crash until then and end as "failed".
  WALL_AFTER_REBOOT=1
}

set_hostname() {
  step "Naming the Pi '$HOST_NAME', so the form is at http://$HOST_NAME.local"
  local current
  current=$(cat "$ROOT/etc/hostname" 2>/dev/null || true)
  if [[ $current == "$HOST_NAME" ]]; then
    note "already $HOST_NAME"
  else
    system raspi-config nonint do_hostname "$HOST_NAME"
    REBOOT_NEEDED=1
  fi
  system systemctl enable --now avahi-daemon.service
}

install_units() {
  step "Installing the services"
  local unit
  for unit in "${UNITS[@]}"; do
    run install -D -m 0644 "$SOURCE/systemd/$unit" "$ROOT/etc/systemd/system/$unit"
  done
  run install -D -m 0755 "$SOURCE/systemd/semedori-admin.sh" "$ROOT/usr/local/bin/semedori"
  # The same wrapper under the name the wall's "no panel found" gives (sudo semedori-admin wall-check).
  run ln -sfn semedori "$ROOT/usr/local/bin/semedori-admin"
  # A cap on the journal, so months of logs cannot wear out the card.
  run install -D -m 0644 "$SOURCE/systemd/journald-semedori.conf" "$ROOT$JOURNALD_CONF"
  system systemctl try-restart systemd-journald.service
  system systemctl daemon-reload
  system systemctl enable "${SERVICES[@]}" semedori-backup.timer
  if ((WALL_AFTER_REBOOT)); then
    note "the wall starts after the reboot that frees GPIO8 for the panel; the web starts now"
    system systemctl stop semedori-display.service
    system systemctl restart semedori-web.service
  else
    system systemctl restart semedori-web.service
    # The wall is not the phones' business: one that does not start is a warning, never a
    # failure of the install or a reason to undo an upgrade (issue 28).
    system systemctl restart semedori-display.service ||
      note "warning: the wall did not start; the phones work. See: journalctl -u semedori-display -n 50"
    wall_status
  fi
  system systemctl start semedori-backup.timer
  # The new version runs: nothing to go back to any more.
  UPGRADING=0
  if [[ -d $ROOT$VENV.previous ]]; then
    run rm -rf "$ROOT$VENV.previous"
  fi
}

# What the wall said when it started (its systemd status line): a missing panel is a warning.
wall_status() {
  on_pi || return 0
  local said
  said=$(systemctl show --property=StatusText --value semedori-display.service 2>/dev/null || true)
  if [[ $said == "no panel found"* ]]; then
    note "warning: the wall runs, but no panel answers yet. Power off, check the panel sits on all"
    note "40 pins, power on; then: sudo semedori-admin wall-check (the phones work meanwhile)"
  fi
}

# The Pi's time zone (Imager sets it), for the club's settings file on a first install.
system_timezone() {
  local zone=""
  if [[ -z $ROOT ]] && command -v timedatectl >/dev/null; then
    zone=$(timedatectl show --property=Timezone --value 2>/dev/null || true)
  fi
  if [[ -z $zone ]] && [[ -L $ROOT/etc/localtime ]]; then
    zone=$(readlink "$ROOT/etc/localtime")
    zone=${zone#*zoneinfo/}
  fi
  if [[ -z $zone ]] && [[ -r $ROOT/etc/timezone ]]; then
    zone=$(head -n 1 "$ROOT/etc/timezone")
  fi
  # Only a name like Europe/Warsaw goes into the file; anything odd keeps the default.
  if [[ $zone =~ ^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$ ]]; then
    echo "$zone"
  fi
}

seed_timezone() {
  step "The club's time zone (it decides the day and the week of every game)"
  local settings=$ROOT$DATA/semedori.toml zone
  if [[ -e $settings ]]; then
    note "kept what $DATA/semedori.toml says; change it on the owner's Settings page"
    return
  fi
  zone=$(system_timezone)
  if [[ -z $zone ]]; then
    note "the Pi's time zone is unknown; Europe/Warsaw until you change it on the owner's Settings page"
    return
  fi
  if ((DRY_RUN)); then
    note "would write $settings: [club] timezone = \"$zone\" (the Pi's)"
    return
  fi
  note "the Pi's time zone: $zone (change it on the owner's Settings page)"
  run install -d -m 0750 "$ROOT$DATA"
  printf '[club]\ntimezone = "%s"\n' "$zone" >"$settings"
  chmod 0640 "$settings"
  system chown "$KIOSK_USER:$KIOSK_USER" "$DATA" "$DATA/semedori.toml"
}

ask_pin() {
  step "The owner PIN (for corrections, merges and settings on the web)"
  if ((!ASK_PIN)); then
    note "skipped (--no-pin); set it later: sudo semedori set-pin"
  elif grep -qs '^pin_hash' "$ROOT$DATA/semedori.toml"; then
    note "already set; change it with: sudo semedori set-pin"
  elif ! on_pi; then
    note "would ask for it: sudo semedori set-pin"
  elif [[ -r /dev/tty ]] && { : </dev/tty; } 2>/dev/null; then
    # /dev/tty: the script itself may be arriving on stdin (curl ... | sudo bash).
    note "\$ semedori set-pin"
    runuser -u "$KIOSK_USER" -- env SEMEDORI_HOME="$DATA" "$VENV/bin/semedori" set-pin </dev/tty
  else
    note "no terminal to ask on; set it later: sudo semedori set-pin"
  fi
}

ask_orientation() {
  step "Which way the panel hangs (landscape or portrait)"
  local settings=$ROOT$DATA/semedori.toml
  if grep -qs '^orientation' "$settings"; then
    note "already set ($(grep -m1 '^orientation' "$settings")); the owner's tools page says which way needs fewer pages"
  elif ! on_pi; then
    note "would ask, after: semedori render --advise (the way that needs fewer pages for this club)"
  elif [[ -r /dev/tty ]] && { : </dev/tty; } 2>/dev/null; then
    # The advice comes from the club's own board: on a first install both ways may need the same pages.
    runuser -u "$KIOSK_USER" -- env SEMEDORI_HOME="$DATA" "$VENV/bin/semedori" render --advise || true
    local answer=""
    printf '    Hang the panel in portrait? [y/N] '
    read -r answer </dev/tty || answer=n
    local turn=landscape
    [[ $answer =~ ^[Yy] ]] && turn=portrait
    write_orientation "$settings" "$turn"
    note "the panel hangs in $turn (change it with [display] orientation in $DATA/semedori.toml)"
  else
    note "no terminal to ask on; the wall draws landscape (semedori render --advise says which way to hang it)"
  fi
}

write_orientation() {
  local settings=$1 turn=$2
  if grep -qs '^\[display\]' "$settings"; then
    sed -i "/^\[display\]/a orientation = \"$turn\"" "$settings"
  else
    printf '\n[display]\norientation = "%s"\n' "$turn" >>"$settings"
  fi
  system chown "$KIOSK_USER:$KIOSK_USER" "$settings"
}

finish() {
  step "Done"
  note "The form: http://$HOST_NAME.local (or http://<the Pi's address>:8080)"
  if on_pi; then
    note "The Pi's addresses: $(hostname -I 2>/dev/null || echo unknown)"
  fi
  if ((REBOOT_NEEDED)); then
    offer_reboot
  fi
}

offer_reboot() {
  if ((WALL_AFTER_REBOOT)); then
    note "The panel shows the board only after one restart (SPI, I2C and the new name take effect)."
  else
    note "Restart once so the new name takes effect."
  fi
  if on_pi && [[ -r /dev/tty ]] && { : </dev/tty; } 2>/dev/null; then
    local answer=""
    printf '    Restart the Pi now? [Y/n] '
    read -r answer </dev/tty || answer=n
    if [[ ! $answer =~ ^[Nn] ]]; then
      note "restarting; the board is on the panel about a minute after the Pi is back"
      system systemctl reboot
      return
    fi
  fi
  note "Restart when you are ready: sudo reboot"
}

uninstall() {
  step "Removing the services (the club's data in $DATA stays)"
  system systemctl disable --now "${SERVICES[@]}" semedori-backup.timer
  local unit
  for unit in "${UNITS[@]}"; do
    if ((DRY_RUN)) || [[ -e $ROOT/etc/systemd/system/$unit ]]; then
      run rm -f "$ROOT/etc/systemd/system/$unit"
    fi
  done
  local program
  for program in semedori semedori-admin; do
    if ((DRY_RUN)) || [[ -e $ROOT/usr/local/bin/$program ]] || [[ -L $ROOT/usr/local/bin/$program ]]; then
      run rm -f "$ROOT/usr/local/bin/$program"
    fi
  done
  if ((DRY_RUN)) || [[ -e $ROOT$JOURNALD_CONF ]]; then
    run rm -f "$ROOT$JOURNALD_CONF"
  fi
  system systemctl daemon-reload
  # The program: its virtual environment, and the source the install command downloaded.
  local folder
  for folder in "$VENV" "$VENV.previous" "$PREFIX/src"; do
    if ((DRY_RUN)) || [[ -e $ROOT$folder ]]; then
      run rm -rf "$ROOT$folder"
    fi
  done
  if [[ -d $ROOT$PREFIX ]] && ((!DRY_RUN)); then
    rmdir "$ROOT$PREFIX" 2>/dev/null || note "kept $PREFIX: it holds files that are not the board's"
  fi
  step "Done"
  note "Kept: $DATA (the history, settings and backups), the user $KIOSK_USER, config.txt."
}

main() {
  while (($#)); do
    case $1 in
    --dry-run) DRY_RUN=1 ;;
    --root)
      ROOT=$(cd "${2:?--root needs a folder}" && pwd)
      shift
      ;;
    --uninstall) UNINSTALL=1 ;;
    --hostname)
      HOST_NAME=${2:?--hostname needs a name}
      shift
      ;;
    --no-pin) ASK_PIN=0 ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      echo "install.sh: unknown option $1" >&2
      usage >&2
      exit 2
      ;;
    esac
    shift
  done
  ((DRY_RUN)) && note "dry run: nothing is changed"
  [[ -n $ROOT ]] && note "installing under $ROOT: packages, users and services are skipped"
  check_system
  if ((UNINSTALL)); then
    uninstall
    return
  fi
  install_packages
  create_user
  find_source
  backup_before_upgrade
  install_program
  enable_interfaces
  edit_config_txt
  set_hostname
  seed_timezone
  install_units
  ask_pin
  ask_orientation
  finish
}

main "$@"
