"""`semedori display` keeps the promise its unit makes: READY=1, then pings well inside WatchdogSec.

The real program runs on the demo club with a PNG panel; a datagram socket stands in for
systemd, exactly as systemd hands it over ($NOTIFY_SOCKET, $WATCHDOG_USEC).
"""

from __future__ import annotations

import itertools
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from deployment import SYSTEMD

SEMEDORI = Path(sys.executable).with_name("semedori")
INTERVAL = 2.0  # WatchdogSec, shortened so the test is quick


@pytest.fixture
def club(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    subprocess.run(
        [str(SEMEDORI), "demo"], env={**os.environ, "SEMEDORI_HOME": str(home)}, check=True, capture_output=True
    )
    # A loop turn must come well inside half the interval for the pings to be on time.
    with (home / "semedori.toml").open("a") as toml:
        toml.write("\n[display]\npoll = 0.2\n")
    return home


def stopping_after_pings(systemd: socket.socket, wall: subprocess.Popen[bytes]) -> bytes:
    """The first notification after a SIGTERM that is not a ping: a ping already on its way (the
    pinging thread does not wait for the signal's handler) may come first on a busy machine."""
    while (said := receive(systemd, wall)) == b"WATCHDOG=1":
        pass
    return said


def receive(systemd: socket.socket, wall: subprocess.Popen[bytes]) -> bytes:
    """The next notification; when none comes, say why (the wall's own last words)."""
    try:
        return systemd.recv(4096)
    except TimeoutError:
        if wall.poll() is not None:
            assert wall.stderr is not None
            pytest.fail(f"the wall ended (exit {wall.returncode}): {wall.stderr.read().decode()[-2000:]}")
        pytest.fail("the wall is running but sent nothing in time")


def test_the_wall_says_ready_then_pings_inside_the_watchdog_interval(club: Path, tmp_path: Path) -> None:
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(str(path))
        systemd.settimeout(30)
        env = {
            **os.environ,
            "SEMEDORI_HOME": str(club),
            "NOTIFY_SOCKET": str(path),
            "WATCHDOG_USEC": str(int(INTERVAL * 1_000_000)),
        }
        with subprocess.Popen([str(SEMEDORI), "display", "--panel", "png"], env=env, stderr=subprocess.PIPE) as wall:
            try:
                assert receive(systemd, wall).decode().startswith("READY=1")
                assert (club / "wall.png").exists()  # ready means the board is on the wall
                pings = []
                systemd.settimeout(INTERVAL)  # a ping later than this and systemd would restart the wall
                while len(pings) < 4:
                    assert receive(systemd, wall) == b"WATCHDOG=1"
                    pings.append(time.monotonic())
                gaps = [b - a for a, b in itertools.pairwise(pings[1:])]
                assert all(INTERVAL / 2 - 0.1 <= gap < INTERVAL for gap in gaps), gaps

                wall.send_signal(signal.SIGTERM)  # systemctl stop
                systemd.settimeout(30)
                assert stopping_after_pings(systemd, wall) == b"STOPPING=1"
                assert wall.wait(timeout=30) == 0
            finally:
                if wall.poll() is None:
                    wall.kill()


# The real `semedori display` on a 7.3" whose chip select the Pi's SPI driver holds (no
# dtoverlay=spi0-0cs): only the GPIO chip is fake, as gpiodevice finds it on a Pi.
PINS_TAKEN = """
import sys
sys.path.insert(0, {tests!r})
import gpiodevice
from inky_fakes import FakeChip
gpiodevice.find_chip_by_platform = lambda: FakeChip({{8: "spi0 CS0"}})
from kiosk.cli import main
sys.argv = ["semedori", "display", "--panel", "impression-7.3"]
main()
"""


def test_a_panel_pin_in_use_never_ends_the_wall(club: Path, tmp_path: Path) -> None:
    with (club / "semedori.toml").open("a") as toml:
        # Retries within the test (1, 2, 4 s), at any hour: quiet hours would hold them until morning.
        toml.write('retry_after = 1\nquiet_from = ""\n')
    path = tmp_path / "notify"
    code = PINS_TAKEN.format(tests=str(Path(__file__).parents[1] / "display"))
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(str(path))
        systemd.settimeout(30)
        env = {
            **os.environ,
            "SEMEDORI_HOME": str(club),
            "NOTIFY_SOCKET": str(path),
            "WATCHDOG_USEC": str(int(INTERVAL * 1_000_000)),
            "GPIOZERO_PIN_FACTORY": "mock",
        }
        with subprocess.Popen([sys.executable, "-c", code], env=env, stderr=subprocess.PIPE) as wall:
            try:
                assert receive(systemd, wall).decode().startswith("READY=1")
                systemd.settimeout(INTERVAL)
                deadline = time.monotonic() + 8
                while time.monotonic() < deadline:  # alive and pinging through three failed retries
                    assert receive(systemd, wall) == b"WATCHDOG=1"
                assert wall.poll() is None
                wall.send_signal(signal.SIGTERM)
                systemd.settimeout(30)
                assert stopping_after_pings(systemd, wall) == b"STOPPING=1"
                assert wall.wait(timeout=30) == 0
            finally:
                if wall.poll() is None:
                    wall.kill()
            assert wall.stderr is not None
            log = wall.stderr.read().decode()
    assert "dtoverlay=spi0-0cs" in log and "currently claimed by spi0 CS0" in log
    assert "failed again (3 times since" in log  # retried, each time one line
    assert "Traceback" not in log
    assert "buttons unavailable" not in log and "does not work" not in log  # A–D claimed their pins


# --- the unit's numbers against the installed inky driver ------------------------------------------


def test_the_display_units_watchdog_and_stop_timeout_fit_the_drivers_longest_refresh() -> None:
    """inky 2.6.0's 13.3" waits up to 65 s for its refresh (68 s with the settle waits), not ~45 s as once assumed."""
    from deployment import driver_waits
    from test_units import one, seconds

    waits = driver_waits()
    longest = max(waits.values())
    assert waits["el133uf1"] == longest == 68.0  # the 13.3": 1 + 1 + 65 + 1 s (a test that reads the driver)
    unit = "semedori-display.service"
    watchdog = seconds(one(unit, "WatchdogSec"))
    # The loop pings right before each refresh, so a refresh shorter than half the interval (with ~10 s of
    # SPI transfer and drawing) never makes a gap longer than the turns' own: half the interval + a turn.
    assert longest + 10 < watchdog / 2
    # A stop waits for the refresh in progress to finish.
    assert seconds(one(unit, "TimeoutStopSec")) >= longest + 10
    # The first refresh comes before READY=1.
    assert seconds(one(unit, "TimeoutStartSec")) >= longest + 60
    # The unit's comment states the driver's figure, so whoever changes one sees the other.
    text = (SYSTEMD / unit).read_text()
    assert f'{longest:.0f} s on the 13.3"' in text
    assert f'{waits["ac073tc1a"]:.0f} s on the older 7-colour 7.3"' in text
    assert f'{waits["e673"]:.0f} s on the Spectra 7.3"' in text
