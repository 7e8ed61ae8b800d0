#!/usr/bin/env bash
# The emulated Pi: boots Raspberry Pi OS-like systems (Debian Bookworm and Trixie, with a
# Pi's /boot/firmware/config.txt, a stand-in raspi-config and stand-in gpiochip, spidev
# and i2c nodes) with systemd-nspawn, runs the installer in each from a local clone as
# the guide says, and checks what a club would notice. Not part of `make test`: it takes
# tens of minutes. As root: sudo make pi-check (PI_RELEASES, PI_ARCHES choose).
#
#   systemd/pi-check.sh [--release bookworm|trixie]... [--arch amd64|arm64]... [--keep] [--build-only]
#
# Root filesystems are built once with debootstrap and cached in $PI_CACHE (default
# /var/cache/semedori-pi-check). arm64 runs under qemu-user-static through binfmt_misc;
# where binfmt_misc cannot be used the arm64 part is skipped, and the report says so.
# The containers share the machine's network (apt and pip need it), so ports 80 and
# 8080 must be free here. Everything it mounts, registers or starts is undone at the end.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The checkout whose committed state is installed (PI_SOURCE: another one, e.g. main for a "before").
REPO=$(cd "${PI_SOURCE:-$HERE/..}" && pwd)
CACHE=${PI_CACHE:-/var/cache/semedori-pi-check}
MIRROR=${PI_MIRROR:-http://deb.debian.org/debian}
RELEASES=()
ARCHES=()
KEEP=0
BUILD_ONLY=0
# What Raspberry Pi OS Lite has that Debian has too (the installer adds its own packages).
BASE_PACKAGES=systemd-sysv,dbus,udev,kmod,sudo,ca-certificates,iproute2,iputils-ping,curl,git,python3,python3-venv,locales,tzdata,less,nano,libcap2-bin,procps,systemd-timesyncd,cron
PATH_IN=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
MOUNTED_BINFMT=0
REGISTERED_QEMU=0
NSPAWN_PID=""
WORK=""
REPORT=()
FAILED=0

say() { printf '[pi-check] %s\n' "$*" >&2; }

# One line of the report: PASS, FAIL or SKIP, and what was checked.
result() {
  local verdict=$1
  shift
  REPORT+=("$(printf '%-4s %-16s %s' "$verdict" "$LABEL" "$*")")
  [[ $verdict == FAIL ]] && FAILED=1
  say "$verdict $*"
}

check() {
  local what=$1
  shift
  if "$@" >>"$LOG" 2>&1; then result PASS "$what"; else result FAIL "$what"; fi
}

usage() { sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

# --- the machine: binfmt_misc and qemu for arm64 ---------------------------------------------

arm64_possible() {
  [[ $(dpkg --print-architecture) == arm64 ]] && return 0
  if [[ ! -x /usr/bin/qemu-aarch64-static ]]; then
    SKIP_WHY="qemu-user-static is not installed (apt-get install qemu-user-static binfmt-support)"
    return 1
  fi
  if [[ ! -e /proc/sys/fs/binfmt_misc/status ]]; then
    if mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null; then
      MOUNTED_BINFMT=1
    else
      SKIP_WHY="binfmt_misc cannot be mounted on this machine"
      return 1
    fi
  fi
  if [[ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]]; then
    # F (fix binary): the kernel opens qemu now, so it runs inside the containers too.
    if ! printf '%s' ':qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-aarch64-static:FOC' \
      >/proc/sys/fs/binfmt_misc/register 2>/dev/null; then
      SKIP_WHY="qemu-aarch64 cannot be registered with binfmt_misc"
      return 1
    fi
    REGISTERED_QEMU=1
  fi
  return 0
}

cleanup() {
  finish_one
  if ((REGISTERED_QEMU)); then
    echo -1 >/proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null || true
  fi
  if ((MOUNTED_BINFMT)); then
    umount /proc/sys/fs/binfmt_misc 2>/dev/null || true
  fi
}

# --- the root filesystem -------------------------------------------------------------------------

build_rootfs() {
  local release=$1 arch=$2
  local base=$CACHE/$release-$arch
  if [[ -f $base/.built ]]; then
    say "$release $arch: the cached root filesystem $base"
    return 0
  fi
  say "$release $arch: building the root filesystem with debootstrap (once; cached in $base)"
  rm -rf "$base"
  mkdir -p "$CACHE/apt-archives-$arch"
  if ! debootstrap --arch="$arch" --include="$BASE_PACKAGES" --cache-dir="$CACHE/apt-archives-$arch" \
    "$release" "$base" "$MIRROR" >"$CACHE/$release-$arch.debootstrap.log" 2>&1; then
    say "$release $arch: debootstrap failed; see $CACHE/$release-$arch.debootstrap.log"
    tail -n 5 "$CACHE/$release-$arch.debootstrap.log" >&2
    return 1
  fi
  touch "$base/.built"
}

# What Raspberry Pi Imager leaves on a card: config.txt, raspi-config, the user it asked
# for (home 0700, Debian's default for new users), the time zone, pip's settings.
make_pi_like() {
  local root=$1 release=$2
  mkdir -p "$root/boot/firmware"
  cat >"$root/boot/firmware/config.txt" <<'CONFIG'
# For more options and information see
# http://rptl.io/configtxt
# Some settings may impact device functionality. See link above for details

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

# Automatically load overlays for detected cameras
camera_auto_detect=1

# Automatically load overlays for detected DSI displays
display_auto_detect=1

# Automatically load initramfs files, if found
auto_initramfs=1

# Enable DRM VC4 V3D driver
dtoverlay=vc4-kms-v3d
max_framebuffers=2

# Don't have the firmware create an initial video= setting in cmdline.txt.
# Use the kernel's default instead.
disable_fw_kms_setup=1

# Run in 64-bit mode
arm_64bit=1

# Disable compensation for displays with overscan
disable_overscan=1

# Run as fast as firmware / board allows
arm_boost=1

[cm4]
# Enable host mode on the 2711 built-in XHCI USB controller.
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
CONFIG
  # raspi-config's nonint calls the installer makes, done as raspi-config does them:
  # an uncommented line in config.txt, and the hostname in /etc/hostname and /etc/hosts.
  cat >"$root/usr/bin/raspi-config" <<'RASPI'
#!/bin/sh
# Stand-in for Raspberry Pi OS's raspi-config (pi-check): the nonint calls install.sh makes.
set -e
CONFIG=/boot/firmware/config.txt
set_line() {
  if grep -q "^#$1\$" "$CONFIG"; then sed -i "s/^#$1\$/$1/" "$CONFIG"
  elif ! grep -q "^$1\$" "$CONFIG"; then echo "$1" >>"$CONFIG"; fi
}
[ "$1" = nonint ] || { echo "raspi-config stand-in: only nonint" >&2; exit 1; }
case $2 in
do_spi) [ "$3" = 0 ] && set_line dtparam=spi=on ;;
do_i2c) [ "$3" = 0 ] && set_line dtparam=i2c_arm=on ;;
do_hostname)
  old=$(cat /etc/hostname)
  echo "$3" >/etc/hostname
  sed -i "s/127.0.1.1.*$old/127.0.1.1\t$3/" /etc/hosts
  hostname "$3" 2>/dev/null || true ;;
*) echo "raspi-config stand-in: $2 is not known" >&2; exit 1 ;;
esac
RASPI
  chmod 0755 "$root/usr/bin/raspi-config"
  echo raspberrypi >"$root/etc/hostname"
  printf '127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n' >"$root/etc/hosts"
  ln -sf /usr/share/zoneinfo/Europe/Warsaw "$root/etc/localtime"
  echo Europe/Warsaw >"$root/etc/timezone"
  # The stand-in device nodes get the groups udev gives them on a Pi (the installer makes the groups).
  cat >"$root/etc/systemd/system/pi-devices.service" <<'UNIT'
[Unit]
Description=Groups of the stand-in panel devices, as udev sets them on a Pi (pi-check)
Before=semedori-display.service
[Service]
Type=oneshot
ExecStart=/bin/sh -c 'for g in gpio:/dev/gpiochip0 spi:/dev/spidev0.0 i2c:/dev/i2c-1; do getent group $${g%%%%:*} >/dev/null && chgrp $${g%%%%:*} $${g#*:} && chmod 0660 $${g#*:}; done; true'
[Install]
WantedBy=multi-user.target
UNIT
  ln -sf /etc/systemd/system/pi-devices.service "$root/etc/systemd/system/multi-user.target.wants/pi-devices.service"
  # The club organiser's own user, as Imager creates it.
  chroot "$root" /usr/sbin/useradd --create-home --groups sudo --shell /bin/bash club
  chmod 0700 "$root/home/club"
  echo 'club ALL=(ALL) NOPASSWD:ALL' >"$root/etc/sudoers.d/010_club-nopasswd"
  # This machine's pip settings (its package mirror) and its network's own certificate
  # authorities, if any, as a Pi on that network would have them.
  [[ -f /etc/pip.conf ]] && cp /etc/pip.conf "$root/etc/pip.conf"
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >/dev/null 2>&1
  fi
  : "$release"
}

# --- the container -------------------------------------------------------------------------------

# Stand-in device nodes (char 1:3, the null device the container may open) at the panel's names.
device_nodes() {
  local dir=$1
  mkdir -p "$dir"
  local name
  for name in gpiochip0 spidev0.0 i2c-1; do
    [[ -e $dir/$name ]] || mknod "$dir/$name" c 1 3
  done
}

boot_container() {
  local nodes=$WORK.dev
  device_nodes "$nodes"
  # --keep-unit --register=no: no machined on this machine; the shared network for apt and pip.
  setsid systemd-nspawn -q -D "$WORK" -b --machine="$MACHINE" --register=no --keep-unit --console=pipe \
    --bind="$nodes/gpiochip0:/dev/gpiochip0" --bind="$nodes/spidev0.0:/dev/spidev0.0" --bind="$nodes/i2c-1:/dev/i2c-1" \
    --bind=/opt/pypi --bind=/opt/wheels \
    >>"$LOG.console" 2>&1 </dev/null &
  NSPAWN_PID=$!
  local leader="" i
  for ((i = 0; i < 600; i++)); do
    leader=$(pgrep -P "$NSPAWN_PID" | head -n 1)
    if [[ -n $leader ]] && inside true 2>/dev/null; then
      if [[ $(inside systemctl is-system-running --wait 2>/dev/null) =~ running|degraded ]]; then
        return 0
      fi
    fi
    kill -0 "$NSPAWN_PID" 2>/dev/null || return 1
    sleep 1
  done
  return 1
}

leader() { pgrep -P "$NSPAWN_PID" | head -n 1; }

# A command inside the booted container, as root, in its namespaces.
inside() {
  local pid
  pid=$(leader)
  [[ -n $pid ]] || return 125
  nsenter --target "$pid" --mount --uts --ipc --net --pid --root --wd=/ -- /usr/bin/env -i PATH="$PATH_IN" \
    LANG=C.UTF-8 HOME=/root "$@"
}

# The club organiser at the Pi's shell (ssh): the user club, in its home, with no terminal.
as_club() {
  inside setsid runuser -l club -c "$*" </dev/null
}

stop_container() {
  [[ -n $NSPAWN_PID ]] || return 0
  inside systemctl poweroff >/dev/null 2>&1 || true
  local i
  for ((i = 0; i < 120; i++)); do
    kill -0 "$NSPAWN_PID" 2>/dev/null || break
    sleep 1
  done
  kill "$NSPAWN_PID" 2>/dev/null || true
  wait "$NSPAWN_PID" 2>/dev/null || true
  NSPAWN_PID=""
}

reboot_container() {
  stop_container
  boot_container
}

# --- what a club would notice --------------------------------------------------------------------

service_state() { inside systemctl is-active "$1" 2>/dev/null; }

active() { [[ $(service_state "$1") == active ]]; }

# Waits for a unit to settle (not activating); then it must be active.
settled_active() {
  local i state
  for ((i = 0; i < 180; i++)); do
    state=$(service_state "$1")
    [[ $state == activating ]] || break
    sleep 1
  done
  echo "$1: $state"
  [[ $state == active ]]
}

listening() { inside ss -ltnH "( sport = :$1 )" | grep -q LISTEN; }

# The web runs as its own user with CAP_NET_BIND_SERVICE only; the wall with no capability.
capabilities() {
  local web display
  web=$(inside systemctl show -p MainPID --value semedori-web.service)
  display=$(inside systemctl show -p MainPID --value semedori-display.service)
  inside ps -o user= -p "$web" | grep -qx semedori || return 1
  inside grep -qx 'CapEff:[[:space:]]*0000000000000400' "/proc/$web/status" || return 1
  inside grep -qx 'CapEff:[[:space:]]*0000000000000000' "/proc/$display/status"
}

journal_says_no_panel() { inside journalctl -b -u semedori-display --no-pager | grep 'no panel found'; }
both_ports() { listening 80 && listening 8080; }
both_active() { settled_active semedori-web.service && settled_active semedori-display.service; }
upgrade_backup() { inside ls /var/lib/semedori/backups | grep before-upgrade; }
uninstalled() {
  ! inside test -e /etc/systemd/system/semedori-web.service && ! inside test -e /opt/semedori/venv &&
    ! inside test -e /opt/semedori/src && ! inside test -e /usr/local/bin/semedori
}

no_tracebacks() {
  ! inside journalctl -b --no-pager -q -u semedori-web -u semedori-display -u semedori-backup | grep -n -B2 -A8 Traceback
}

# The installer as the guide says: from the clone in the organiser's home, with sudo.
run_installer() {
  local started=$SECONDS
  as_club "sudo semedori-board/systemd/install.sh $*" >"$LOG.install" 2>&1
  local status=$?
  INSTALL_SECONDS=$((SECONDS - started))
  cat "$LOG.install" >>"$LOG"
  return $status
}

# A game over HTTP reaching the PNG panel: its time from the POST to the new picture.
game_reaches_png() {
  inside sh -c 'printf "\n[display]\npanel = \"png\"\ndebounce = 1\nmin_interval = 1\nquiet_from = \"\"\n" >>/var/lib/semedori/semedori.toml'
  inside systemctl restart semedori-display.service || return 1
  local png=/var/lib/semedori/wall.png i before after
  for ((i = 0; i < 120; i++)); do
    inside test -s $png && break
    sleep 1
  done
  before=$(inside sha256sum $png | cut -c1-64)
  for nick in Ala Bartek; do
    inside curl -fsS -H 'Content-Type: application/json' -d "{\"nick\": \"$nick\", \"size\": 9, \"kyu\": 10}" \
      http://localhost/api/players || return 1
  done
  local posted=$SECONDS
  inside curl -fsS -H 'Content-Type: application/json' \
    -d '{"size": 9, "players": ["Ala", "Bartek"], "winner": "Ala", "by": "resignation"}' http://localhost:8080/api/games ||
    return 1
  for ((i = 0; i < 300; i++)); do
    after=$(inside sha256sum $png | cut -c1-64)
    if [[ $after != "$before" ]]; then
      PICTURE_SECONDS=$((SECONDS - posted))
      inside cat $png >"$CACHE/${LABEL//\//-}.wall.png"
      return 0
    fi
    sleep 1
  done
  return 1
}

# In the clone, a new version (a commit), as `git pull` brings one.
new_version() {
  as_club "cd semedori-board && git -c user.name=pi-check -c user.email=pi@check commit -q --allow-empty -m '$1'"
}

# A new version whose pip install fails: a dependency no index has (as a download cut off would).
broken_version() {
  as_club "cd semedori-board && sed -i 's/^dependencies = \\[/dependencies = [\\n    \"semedori-pi-check-no-such-package>=1\",/' pyproject.toml && git -c user.name=pi-check -c user.email=pi@check commit -q -am 'a version pip cannot install'"
}

run_one() {
  local release=$1 arch=$2
  LABEL="$release/$arch"
  MACHINE="semedori-pi-check-$release-$arch"
  LOG="$CACHE/$release-$arch.log"
  : >"$LOG"
  : >"$LOG.console"
  if ! build_rootfs "$release" "$arch"; then
    result FAIL "the root filesystem could not be built (see $CACHE/$release-$arch.debootstrap.log)"
    return
  fi
  WORK=/var/tmp/semedori-pi-check-$release-$arch
  rm -rf "$WORK" "$WORK.dev"
  cp -a "$CACHE/$release-$arch" "$WORK"
  make_pi_like "$WORK" "$release"
  local python
  python=$(chroot "$WORK" python3 -c 'import platform; print(platform.python_version())')
  say "$LABEL: Python $python; booting"
  # A clone of this checkout (its committed state) in the organiser's home, as `git clone` makes one.
  if ! git clone -q --no-hardlinks "$REPO" "$WORK/home/club/semedori-board" >>"$LOG" 2>&1 ||
    ! chroot "$WORK" chown -R club:club /home/club/semedori-board; then
    result FAIL "git clone of the checkout failed (see $LOG)"
    return
  fi
  if ! boot_container; then
    result FAIL "systemd did not boot in the container (see $LOG.console)"
    return
  fi
  result PASS "systemd boots (Python $python)"


  # 1. The first install, as the guide says (no terminal: the PIN and the restart are left for later).
  if run_installer; then
    result PASS "first install (${INSTALL_SECONDS} s)"
  else
    result FAIL "first install: rc $? (see $LOG.install); the rest is not checked"
    tail -n 15 "$LOG.install" >&2
    return
  fi
  FIRST_INSTALL=$INSTALL_SECONDS
  check "config.txt has spi, i2c and spi0-0cs" inside grep -qx dtoverlay=spi0-0cs /boot/firmware/config.txt
  check "systemd-analyze verify of the units" inside systemd-analyze verify /etc/systemd/system/semedori-web.service \
    /etc/systemd/system/semedori-display.service /etc/systemd/system/semedori-backup.service
  # 2. A second run, as the troubleshooting section suggests.
  if run_installer; then result PASS "second run (${INSTALL_SECONDS} s)"; else result FAIL "second run: rc $?"; fi
  # 3. The restart the installer asks for; nothing but the panel is missing.
  reboot_container || result FAIL "the reboot did not come back"
  check "after the reboot: semedori-web active" settled_active semedori-web.service
  check "after the reboot: semedori-display active without a panel" settled_active semedori-display.service
  check "the wall says 'no panel found' in the journal" journal_says_no_panel
  check "semedori-backup.timer active" active semedori-backup.timer
  check "ports 80 and 8080 listen" both_ports
  check "capabilities: web CAP_NET_BIND_SERVICE only, wall none" capabilities
  check "sudo semedori check" as_club "sudo semedori check"
  check "sudo semedori-admin wall-check: the EEPROM does not answer" as_club \
    "sudo semedori-admin wall-check | grep 'EEPROM does not answer'"
  # 4. A game posted over HTTP reaches the PNG panel.
  PICTURE_SECONDS=""
  if game_reaches_png >>"$LOG" 2>&1; then
    result PASS "a game posted over HTTP reaches the PNG panel in ${PICTURE_SECONDS} s"
  else
    result FAIL "a game posted over HTTP did not reach the PNG panel"
  fi
  # 5. sudo semedori import from a 0700 home folder.
  check "sudo semedori import /home/club/club.jsonl (a 0700 home)" as_club \
    "sudo semedori export > club.jsonl && sudo semedori import --replace /home/club/club.jsonl"
  # 6. An upgrade: a new version in the clone.
  new_version "a new version"
  if run_installer; then result PASS "upgrade (${INSTALL_SECONDS} s)"; else result FAIL "upgrade: rc $?"; fi
  check "after the upgrade: both services active" both_active
  check "a backup was made before the upgrade" upgrade_backup
  # 7. An upgrade whose pip fails: the previous version comes back, in plain words.
  broken_version >>"$LOG" 2>&1
  if run_installer; then
    result FAIL "an upgrade whose pip fails: the installer said it worked"
  else
    result PASS "an upgrade whose pip fails stops (rc $?)"
  fi
  check "  ... and says so in plain words" grep -q "could not install the program" "$LOG.install"
  check "  ... and the previous version runs" both_active
  check "  ... and the history is intact" as_club "sudo semedori check"
  as_club "cd semedori-board && git reset -q --hard HEAD~1" >>"$LOG" 2>&1
  check "the journal has no traceback" no_tracebacks
  # 8. Removing the board: the program goes, the club's data stays.
  if run_installer --uninstall; then result PASS "--uninstall"; else result FAIL "--uninstall: rc $?"; fi
  check "  ... removes the services and the program" uninstalled
  check "  ... and keeps the club's history" inside test -s /var/lib/semedori/semedori.sqlite3
  TIMINGS+=("$LABEL: first install ${FIRST_INSTALL} s, first picture after a game ${PICTURE_SECONDS:-?} s")
}

# Whatever run_one reached: the container stops and its copy goes (unless --keep).
finish_one() {
  stop_container
  if [[ -n $WORK ]] && ((!KEEP)); then
    rm -rf "$WORK" "$WORK.dev"
  fi
  WORK=""
}

main() {
  while (($#)); do
    case $1 in
    --release)
      RELEASES+=("${2:?}")
      shift
      ;;
    --arch)
      ARCHES+=("${2:?}")
      shift
      ;;
    --keep) KEEP=1 ;;
    --build-only) BUILD_ONLY=1 ;;
    -h | --help)
      usage
      return 0
      ;;
    *)
      usage >&2
      return 2
      ;;
    esac
    shift
  done
  ((${#RELEASES[@]})) || read -ra RELEASES <<<"${PI_RELEASES:-bookworm trixie}"
  ((${#ARCHES[@]})) || read -ra ARCHES <<<"${PI_ARCHES:-amd64 arm64}"
  if ((EUID != 0)); then
    say "run it as root (debootstrap, systemd-nspawn): sudo make pi-check"
    return 1
  fi
  local tool
  for tool in debootstrap systemd-nspawn nsenter git; do
    if ! command -v "$tool" >/dev/null; then
      say "$tool is missing: apt-get install debootstrap systemd-container util-linux git"
      return 1
    fi
  done
  mkdir -p "$CACHE"
  trap cleanup EXIT
  trap 'exit 130' INT TERM
  TIMINGS=()
  local started_at release arch
  started_at=$(date -u '+%Y-%m-%d %H:%M UTC')
  local commit
  commit=$(git -C "$REPO" rev-parse --short HEAD)
  for arch in "${ARCHES[@]}"; do
    if [[ $arch == arm64 ]] && ! arm64_possible; then
      LABEL="*/arm64"
      result SKIP "arm64 under qemu: $SKIP_WHY"
      continue
    fi
    for release in "${RELEASES[@]}"; do
      LABEL="$release/$arch"
      if ((BUILD_ONLY)); then
        if build_rootfs "$release" "$arch"; then result PASS "root filesystem built"; else result FAIL "root filesystem"; fi
        continue
      fi
      if ss -ltnH '( sport = :80 or sport = :8080 )' | grep -q LISTEN; then
        result FAIL "ports 80 or 8080 are taken on this machine; the container shares its network"
        continue
      fi
      run_one "$release" "$arch"
      finish_one
    done
  done
  {
    echo
    echo "pi-check report, $started_at, commit $commit of $REPO"
    printf '%s\n' "${REPORT[@]}"
    printf 'timing: %s\n' "${TIMINGS[@]}"
  } | tee "$CACHE/report.txt"
  cp "$CACHE/report.txt" "$CACHE/report-$(date -u +%Y%m%d-%H%M%S).txt"
  return $FAILED
}

main "$@"
