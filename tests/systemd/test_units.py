"""The systemd units: `systemd-analyze verify` on what the installer writes, and the promises they keep."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from deployment import SYSTEMD, UNITS, install, tool

PROGRAM = "/opt/semedori/venv/bin/semedori"


def settings(unit: str) -> dict[str, list[str]]:
    """A unit file's settings; systemd allows a key more than once, so each has a list."""
    found: dict[str, list[str]] = {}
    for raw in (SYSTEMD / unit).read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def one(unit: str, key: str) -> str:
    values = settings(unit)[key]
    assert len(values) == 1, f"{unit}: {key} set {len(values)} times"
    return values[0]


def seconds(span: str) -> int:
    match = re.fullmatch(r"(\d+)(s|min)?", span)
    assert match, span
    return int(match[1]) * (60 if match[2] == "min" else 1)


@pytest.fixture
def pi_root(tmp_path: Path) -> Path:
    """A root folder holding what the installer writes, the program, and systemd's own units."""
    root = tmp_path / "root"
    root.mkdir()
    install("--root", root)
    program = root / PROGRAM.lstrip("/")
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    # verify resolves sysinit.target, multi-user.target, ... inside the root.
    system_units = Path("/usr/lib/systemd/system")
    shutil.copytree(system_units, root / "usr/lib/systemd/system", symlinks=False, ignore_dangling_symlinks=True)
    return root


def verify(root: Path, *units: str) -> subprocess.CompletedProcess[str]:
    analyze = tool("systemd-analyze", "systemd")
    return subprocess.run(
        [analyze, "verify", f"--root={root}", "--man=no", "--generators=no", *units],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_systemd_accepts_every_unit_as_installed(pi_root: Path) -> None:
    result = verify(pi_root, *UNITS)
    # Unknown keys and bad values are only warnings to systemd: any output is a failure here.
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_verify_catches_a_broken_unit(pi_root: Path) -> None:
    unit = pi_root / "etc/systemd/system/semedori-display.service"
    original = unit.read_text()
    broken = original.replace("WatchdogSec=180s", "WatchdogSec=three minutes\nRestartOn=failure")
    assert broken != original
    unit.write_text(broken)
    result = verify(pi_root, "semedori-display.service")
    assert "three minutes" in result.stderr
    assert "RestartOn" in result.stderr


def test_verify_catches_a_missing_program(pi_root: Path) -> None:
    (pi_root / PROGRAM.lstrip("/")).unlink()
    result = verify(pi_root, "semedori-web.service")
    assert result.returncode != 0
    assert PROGRAM in result.stderr


@pytest.mark.parametrize("unit", ["semedori-web.service", "semedori-display.service", "semedori-backup.service"])
def test_every_service_runs_hardened_as_the_kiosk_user_on_its_data(unit: str) -> None:
    assert one(unit, "User") == "semedori"
    assert one(unit, "StateDirectory") == "semedori"
    assert "SEMEDORI_HOME=/var/lib/semedori" in settings(unit)["Environment"]
    for key, value in {
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "NoNewPrivileges": "yes",
    }.items():
        assert one(unit, key) == value, key
    assert one(unit, "ExecStart").startswith(PROGRAM + " ")


@pytest.mark.parametrize("unit", ["semedori-web.service", "semedori-display.service"])
def test_the_kiosk_comes_back_after_a_crash_but_does_not_loop_forever(unit: str) -> None:
    assert one(unit, "Restart") == "on-failure"
    assert 1 <= seconds(one(unit, "RestartSec")) <= 30
    assert int(one(unit, "StartLimitBurst")) >= 3
    assert seconds(one(unit, "StartLimitIntervalSec")) >= 60
    assert one(unit, "WantedBy") == "multi-user.target"


def test_the_web_answers_on_port_80_without_root() -> None:
    unit = "semedori-web.service"
    command = one(unit, "ExecStart").split()
    assert command[1:] == ["serve", "--host", "0.0.0.0", "--port", "80", "--port", "8080"]
    assert one(unit, "AmbientCapabilities") == "CAP_NET_BIND_SERVICE"
    assert one(unit, "CapabilityBoundingSet") == "CAP_NET_BIND_SERVICE"
    # Only the wall may own the panel's pins.
    assert one(unit, "PrivateDevices") == "yes"


def test_the_wall_can_reach_the_panel_and_has_a_watchdog() -> None:
    unit = "semedori-display.service"
    assert one(unit, "ExecStart").split()[1:] == ["display"]
    # /dev/spidev*, /dev/gpiochip* and /dev/i2c-* stay visible: access comes from the groups.
    assert settings(unit).get("PrivateDevices", ["no"]) == ["no"]
    # Any device allow list (ProtectClock= implies one) shuts out every device not on it.
    for closes_devices in ("DevicePolicy", "DeviceAllow", "ProtectClock"):
        assert closes_devices not in settings(unit), closes_devices
    assert one(unit, "CapabilityBoundingSet") == ""
    assert one(unit, "Type") == "notify"
    assert one(unit, "NotifyAccess") == "main"
    # A ping comes every loop turn (2 s) once half the interval passed, and right before each refresh;
    # a refresh blocks the loop for at most its driver's BUSY waits (read from inky, tests/systemd/test_watchdog.py).
    watchdog = seconds(one(unit, "WatchdogSec"))
    assert watchdog / 2 + 2 + 10 < watchdog * 0.9
    # ... and a hung panel is noticed while the club is still there.
    assert watchdog <= 5 * 60


def test_the_backup_runs_nightly_and_catches_up_after_a_power_cut() -> None:
    assert one("semedori-backup.service", "ExecStart").split()[1:] == ["backup-nightly"]
    assert one("semedori-backup.service", "Type") == "oneshot"
    assert one("semedori-backup.timer", "Persistent") == "true"
    assert one("semedori-backup.timer", "WantedBy") == "timers.target"
    analyze = tool("systemd-analyze", "systemd")
    calendar = subprocess.run(
        [analyze, "calendar", one("semedori-backup.timer", "OnCalendar")], capture_output=True, text=True, check=True
    )
    assert "Normalized form: *-*-* 03:30:00" in calendar.stdout


@pytest.mark.parametrize("unit", ["semedori-web.service", "semedori-display.service", "semedori-backup.service"])
def test_exposure_stays_low(unit: str) -> None:
    # systemd's own score of what a compromised service could reach (0 best, 10 worst).
    analyze = tool("systemd-analyze", "systemd")
    result = subprocess.run(
        [analyze, "security", "--offline=true", "--threshold=25", "--no-pager", str(SYSTEMD / unit)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout.splitlines()[-1:]


def test_the_units_command_lines_are_ones_the_program_accepts() -> None:
    from kiosk.backup import backup_nightly_command
    from web.cli import serve_command

    for unit, command in (("semedori-web.service", serve_command), ("semedori-backup.service", backup_nightly_command)):
        _program, name, *args = one(unit, "ExecStart").split()
        assert name == command.name
        command.make_context(name, args)  # raises on an option the command does not know


def test_the_backup_units_command_makes_a_backup(tmp_path: Path) -> None:
    # The unit's own command line and environment, with the Pi's paths pointed at this machine.
    unit = "semedori-backup.service"
    data = tmp_path / "var/lib/semedori"
    program = Path(sys.executable).with_name("semedori")
    env = dict(os.environ)
    for assignment in settings(unit)["Environment"]:
        key, _, value = assignment.partition("=")
        env[key] = value.replace("/var/lib/semedori", str(data))
    subprocess.run([str(program), "demo"], env=env, check=True, capture_output=True)
    command = one(unit, "ExecStart").replace(PROGRAM, str(program)).split()

    subprocess.run(command, env=env, check=True, capture_output=True, cwd=data)

    (backup,) = (data / "backups").iterdir()
    assert re.fullmatch(r"semedori-\d{4}-\d{2}-\d{2}\.sqlite3", backup.name)
    assert backup.stat().st_size > 0


@pytest.mark.parametrize("unit", ["semedori-web.service", "semedori-display.service", "semedori-backup.service"])
def test_a_repeating_fault_cannot_flood_the_journal(unit: str) -> None:
    # Per unit: at most this many lines per interval, whatever the program does.
    assert seconds(one(unit, "LogRateLimitIntervalSec")) >= 10
    assert 10 <= int(one(unit, "LogRateLimitBurst")) <= 1000


def test_the_journal_as_a_whole_is_capped_on_the_card(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    install("--root", root)
    conf = (root / "etc/systemd/journald.conf.d/semedori.conf").read_text()
    assert "[Journal]" in conf
    assert re.search(r"^SystemMaxUse=\d+M$", conf, re.MULTILINE)


@pytest.mark.parametrize("unit", ["semedori-web.service", "semedori-display.service"])
def test_the_services_start_after_the_clock_is_set_when_it_can_be(unit: str) -> None:
    assert "time-sync.target" in one(unit, "After").split()
    # Never Wants= or Requires= it: with no internet the board must still start.
    for key in ("Wants", "Requires"):
        assert "time-sync.target" not in " ".join(settings(unit).get(key, []))


@pytest.mark.parametrize("unit", UNITS)
def test_every_documentation_link_names_a_page_that_exists(unit: str) -> None:
    from deployment import REPO

    readme_anchors = {
        re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        for line in (REPO / "README.md").read_text().splitlines()
        if line.startswith("#")
    }
    for link in one(unit, "Documentation").split():
        base = "https://github.com/semedori/semedori-board/"
        assert link.startswith(base), link
        rest = link.removeprefix(base)
        if rest.startswith("#"):
            assert rest[1:] in readme_anchors, link
        else:
            assert rest.startswith("blob/main/"), link
            assert (REPO / rest.removeprefix("blob/main/").split("#")[0]).exists(), link
