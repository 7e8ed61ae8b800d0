"""A wall whose panel does not answer (missing, badly seated, its EEPROM unread) stays up and waits for it.

The real ``inky`` detection (``inky.auto`` reading the EEPROM) and the real driver class it picks,
with fake I2C, SPI and GPIO (tests/display/inky_fakes.py); the real loop (``Wall.run``) in a thread
on a test clock, against a datagram socket where systemd's would be.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
from collections.abc import Callable, Iterator
from datetime import datetime, time, timedelta
from pathlib import Path

import pytest
from inky.eeprom import EPDType
from inky.inky_e673 import Inky as InkyE673
from inky_fakes import Eeprom, FakeGpio, FakeSpi, NoEeprom, Wire

from display import sdnotify
from display.panels import LOOK_AGAIN, AwaitedPanel, InkyPanel
from display.refresh import Wall
from display.settings import DisplaySettings
from kiosk import wallstatus
from kiosk.store import Store

SPECTRA_7_3 = EPDType(800, 480, color="spectra6", pcb_variant=12, display_variant=22).encode()


class Clock:
    """Seconds and club time that move only when the test says so (the loop's thread reads them)."""

    def __init__(self) -> None:
        self.seconds = 1000.0

    def monotonic(self) -> float:
        return self.seconds

    def now(self) -> datetime:
        return datetime(2026, 11, 5, 19, 0) + timedelta(seconds=self.seconds - 1000.0)


class Systemd:
    """systemd's notify socket: every message that arrived."""

    def __init__(self, path: Path) -> None:
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(str(path))
        self.socket.settimeout(0.05)
        self.messages: list[str] = []

    def heard(self, predicate: Callable[[list[str]], bool], seconds: float = 20.0) -> bool:
        """Read until ``predicate(messages)`` holds, or give up after ``seconds``."""
        deadline = datetime.now() + timedelta(seconds=seconds)
        while not predicate(self.messages):
            if datetime.now() > deadline:
                return False
            with contextlib.suppress(TimeoutError):
                self.messages.append(self.socket.recv(4096).decode())
        return True


@pytest.fixture
def systemd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Systemd]:
    listener = Systemd(tmp_path / "notify")
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    yield listener
    listener.socket.close()


class Header:
    """The Pi's 40-pin header: the I2C bus the EEPROM is read on, and what the driver found gets."""

    def __init__(self) -> None:
        self.bus: object = NoEeprom()  # nothing seated
        self.wire = Wire()
        self.looks = 0

    def find(self) -> InkyPanel:
        """``panel = "auto"``: inky.auto reads the EEPROM and picks the driver class."""
        self.looks += 1
        panel = InkyPanel.detect(i2c_bus=self.bus)
        found = panel.driver
        found._spi_bus = FakeSpi(self.wire)
        found._gpio = FakeGpio(self.wire, found.dc_pin, (found.cs_pin,), found.busy_pin, "toggle")
        return panel


def wait_for(condition: Callable[[], bool], clock: Clock, seconds: float = 20.0) -> bool:
    """Poll a condition the loop's thread makes true, the test clock going on half a second each look."""
    done = threading.Event()
    deadline = datetime.now() + timedelta(seconds=seconds)
    while not condition():
        if datetime.now() > deadline:
            return False
        clock.seconds += 0.5
        done.wait(0.005)
    return True


def test_a_wall_without_its_panel_stays_up_and_shows_the_board_once_the_panel_is_seated(
    store: Store, tmp_path: Path, systemd: Systemd, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    clock, header = Clock(), Header()
    found: list[InkyPanel] = []
    panel = AwaitedPanel(header.find, tmp_path, on_found=found.append)
    settings = DisplaySettings(poll=0.01, debounce=1, min_interval=1, quiet_from=time(23), quiet_until=time(7))
    watchdog = sdnotify.Watchdog(interval=180.0, clock=clock.monotonic)  # WatchdogSec=180
    wall = Wall(store, panel, settings, monotonic=clock.monotonic, now=clock.now, watchdog=watchdog)
    stop = threading.Event()

    def service() -> None:
        with Store.open(store.folder) as own:  # the wall's own connection, in its own thread, as in the service
            wall.source = own
            wall.run(stop)

    loop = threading.Thread(target=service, daemon=True)
    loop.start()
    try:
        # Ready at once, with the reason in `systemctl status`: systemd counts the wall as running.
        assert systemd.heard(lambda m: any(x.startswith("READY=1") for x in m))
        ready = next(x for x in systemd.messages if x.startswith("READY=1"))
        assert f"STATUS={wallstatus.NO_PANEL}" in ready
        # The owner page's file says so, for this boot.
        status = wallstatus.read(tmp_path)
        assert status is not None and "No EEPROM detected" in status.detail

        # Ten minutes without a panel: the watchdog is pinged all along, the panel looked for every minute,
        # and the journal says it once.
        started = clock.seconds
        for _ in range(10):
            looks = header.looks
            assert wait_for(lambda looks=looks: header.looks > looks, clock), "the wall stopped looking for its panel"
        assert clock.seconds - started < 11 * (LOOK_AGAIN + 5)  # about once a minute, not less and less often
        assert systemd.heard(lambda m: m.count("WATCHDOG=1") >= 5)
        assert caplog.text.count("no panel found") == 1
        assert wall.failures == 0 and wall.refreshes == 0 and not header.wire.segments

        # The panel is seated (its EEPROM now answers): within a minute the board is on it.
        header.bus = Eeprom(SPECTRA_7_3)
        seated = clock.seconds
        assert wait_for(lambda: wall.refreshes == 1, clock), "the panel found later shows nothing"
        assert clock.seconds - seated < 2 * LOOK_AGAIN  # at the next look (the clock runs on during the refresh)
        assert isinstance(found[0].driver, InkyE673)
        assert panel.profile.name == "impression-7.3"
        payload = dict(header.wire.commands())[0x10]  # the picture went over SPI to the real driver
        assert len(payload) == 800 * 480 // 2
        assert wallstatus.read(tmp_path) is None  # the owner page stops saying so
        assert "the panel was found: impression-7.3" in caplog.text
        assert systemd.heard(lambda m: "STATUS=the panel was found" in m)
        assert caplog.text.count("no panel found") == 1
    finally:
        stop.set()
        wall.wake.set()
        loop.join(10)
    assert not loop.is_alive()


def test_a_status_from_an_earlier_boot_is_not_shown(tmp_path: Path) -> None:
    this_boot, earlier = tmp_path / "boot_id", tmp_path / "earlier"
    this_boot.write_text("b2\n")
    earlier.write_text("b1\n")
    wallstatus.panel_missing(tmp_path, datetime(2026, 11, 5, 18, 0), "No EEPROM detected", boot=earlier)
    assert wallstatus.read(tmp_path, boot=earlier) is not None
    assert wallstatus.read(tmp_path, boot=this_boot) is None
    (tmp_path / wallstatus.NAME).write_text("{half a file")
    assert wallstatus.read(tmp_path, boot=this_boot) is None


def test_display_once_without_a_panel_says_what_to_do(store: Store, tmp_path: Path) -> None:
    """`semedori display --once` with panel = "auto" and nothing on the header: one clear line, exit 1."""
    from click.testing import CliRunner

    from display.cli import display_command

    result = CliRunner(env={"SEMEDORI_HOME": str(store.folder)}).invoke(display_command, ["--once"])
    assert result.exit_code == 1
    assert "no panel found" in result.output and "wall-check" in result.output
    assert "Traceback" not in result.output
