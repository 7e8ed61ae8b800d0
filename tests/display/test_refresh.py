"""The refresh loop against a real store: debounce, unchanged pictures, quiet hours, failures."""

from __future__ import annotations

import itertools
import json
import logging
import socket
import sqlite3
from collections.abc import Iterator
from datetime import datetime, time, timedelta
from pathlib import Path

import pytest
from gpiozero import Button, Device
from gpiozero.pins.mock import MockFactory
from PIL import Image

from display import sdnotify
from display.buttons import Buttons
from display.panels import InkyPanel, PanelError
from display.profiles import profile
from display.refresh import MAX_RETRY, Wall
from display.settings import DisplaySettings
from kiosk.events import parse_line
from kiosk.store import Store

PLAYERS = [
    {"type": "player", "at": "2026-11-02T18:00", "nick": "Bianka", "size": 13, "status": "member", "strength": 34.5},
    {"type": "player", "at": "2026-11-02T18:00", "nick": "Czarek", "size": 13, "status": "member", "strength": 25},
    {"type": "player", "at": "2026-11-02T18:00", "nick": "Ola", "size": 9, "status": "member", "strength": 20},
    {"type": "player", "at": "2026-11-02T18:00", "nick": "Kuba", "size": 9, "status": "member", "strength": 22},
]


class Clock:
    """Seconds and club time that move only when the test says so."""

    def __init__(self, start: datetime = datetime(2026, 11, 5, 19, 0)) -> None:  # a Thursday evening
        self.seconds = 1000.0
        self.start = start

    def monotonic(self) -> float:
        return self.seconds

    def now(self) -> datetime:
        return self.start + timedelta(seconds=self.seconds - 1000.0)

    def wait(self, seconds: float) -> None:
        self.seconds += seconds


class Screen:
    """A panel that keeps what it was shown; it can be told to fail."""

    def __init__(self, name: str = "impression-7.3") -> None:
        self.profile = profile(name)
        self.shown: list[Image.Image] = []
        self.failures = 0

    def show(self, image: Image.Image) -> None:
        if self.failures:
            self.failures -= 1
            raise PanelError("SPI transfer failed")
        self.shown.append(image)


def game(at: str, winner: str = "Czarek", size: int = 13, players: tuple[str, str] = ("Bianka", "Czarek")) -> object:
    """A game event."""
    return parse_line(
        json.dumps(
            {"type": "game", "at": at, "size": size, "players": list(players), "winner": winner, "by": "resignation"}
        )
    )


def wall_for(store: Store, screen: Screen, clock: Clock, **settings: object) -> Wall:
    """A wall with short, test-sized timings."""
    chosen = DisplaySettings(debounce=20, min_interval=60, quiet_from=time(23, 0), quiet_until=time(7, 0), **settings)  # type: ignore[arg-type]
    wall = Wall(store, screen, chosen, monotonic=clock.monotonic, now=clock.now)
    assert wall.refresh()  # the first picture at start-up
    return wall


def test_a_new_result_shows_after_a_short_calm(store: Store) -> None:
    clock, screen = Clock(), Screen()
    wall = wall_for(store, screen, clock)
    clock.wait(120)
    store.record(game("2026-11-05T19:01"))
    assert not wall.tick()  # noticed, but more results may follow
    clock.wait(10)
    assert not wall.tick()
    clock.wait(11)
    assert wall.tick()
    assert len(screen.shown) == 2
    assert screen.shown[-1] != screen.shown[0]


def test_several_results_in_a_row_make_one_refresh(store: Store) -> None:
    clock, screen = Clock(), Screen()
    wall = wall_for(store, screen, clock)
    clock.wait(120)
    for minute in range(1, 4):
        store.record(game(f"2026-11-05T19:0{minute}", winner="Czarek" if minute % 2 else "Bianka"))
        wall.tick()
        clock.wait(15)
    clock.wait(30)
    wall.tick()
    wall.tick()
    assert len(screen.shown) == 2


def test_the_panel_is_left_alone_when_the_picture_did_not_change(store: Store) -> None:
    clock, screen = Clock(), Screen()
    wall = wall_for(store, screen, clock)
    clock.wait(120)
    # A new player on 19x19 changes the counter but not the 13x13 board on the wall.
    store.record(
        parse_line(
            json.dumps(
                {
                    "type": "player",
                    "at": "2026-11-05T19:00",
                    "nick": "Ewa",
                    "size": 19,
                    "status": "guest",
                    "strength": 0,
                }
            )
        )
    )
    assert not wall.tick()
    clock.wait(30)
    assert not wall.tick()
    assert len(screen.shown) == 1
    assert wall.skipped == 1


def test_refreshes_keep_a_minimum_interval(store: Store) -> None:
    clock, screen = Clock(), Screen()
    wall = wall_for(store, screen, clock)
    store.record(game("2026-11-05T19:01"))
    assert not wall.tick()
    clock.wait(25)
    assert not wall.tick()  # calm, but the last refresh was only 25 s ago
    clock.wait(40)
    assert wall.tick()


def test_no_refresh_in_quiet_hours_then_one_in_the_morning(store: Store) -> None:
    clock, screen = Clock(), Screen()
    clock.start = datetime(2026, 11, 5, 22, 59)
    wall = wall_for(store, screen, clock)
    clock.wait(120)  # 23:01
    store.record(game("2026-11-05T23:00"))
    for _ in range(8 * 6 - 1):  # the night, ten minutes at a time, until 06:51
        clock.wait(600)
        wall.tick()
    assert len(screen.shown) == 1
    clock.wait(600)  # past 07:00
    assert wall.tick()


def test_a_failing_panel_is_retried_with_growing_waits_and_the_wall_carries_on(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    clock, screen = Clock(), Screen()
    wall = wall_for(store, screen, clock)
    clock.wait(120)
    screen.failures = 2
    store.record(game("2026-11-05T19:01"))
    assert not wall.tick()
    clock.wait(21)
    assert not wall.tick()
    assert "SPI transfer failed" in caplog.text
    clock.wait(20)
    assert not wall.tick()  # first wait: 30 s
    clock.wait(11)
    assert not wall.tick()  # fails again; now 60 s
    clock.wait(59)
    assert not wall.tick()
    clock.wait(2)
    assert wall.tick()
    assert len(screen.shown) == 2


def test_the_wall_never_writes_to_the_history(store: Store) -> None:
    clock, screen = Clock(), Screen()
    before = (store.change_counter(), list(store.export_lines()))
    wall = wall_for(store, screen, clock)
    for button in "ABCD":
        wall.press(button)
        wall.tick()
    assert (store.change_counter(), list(store.export_lines())) == before


def test_a_refresh_never_starts_while_one_is_running(store: Store) -> None:
    clock, screen = Clock(), Screen()
    wall = wall_for(store, screen, clock)
    answers: list[bool] = []
    show = screen.show

    def show_and_press_d(image: Image.Image) -> None:
        wall.press("D")  # someone presses "refresh now" while the panel is refreshing
        answers.append(wall.refresh())
        show(image)

    screen.show = show_and_press_d  # type: ignore[method-assign]
    wall.press("A")
    assert wall.tick()
    assert answers == [False]  # refused at once, not queued behind the running one
    screen.show = show  # type: ignore[method-assign]
    wall.tick()  # the request waited for the next turn (and found the same picture)
    assert not wall.requested


def test_a_clean_cycle_runs_once_a_day_at_its_time(store: Store) -> None:
    clock, screen = Clock(), Screen()
    wall = wall_for(store, screen, clock, clean_at=time(19, 30))
    clock.wait(29 * 60)
    assert not wall.tick()
    clock.wait(2 * 60)
    assert wall.tick()
    assert len(screen.shown) == 3  # a white page, then the board again
    assert screen.shown[1].getextrema() == (0, 0)
    clock.wait(600)
    assert not wall.tick()


def test_button_a_shows_the_next_size_with_magnets(store: Store) -> None:
    clock, screen = Clock(), Screen()
    wall = wall_for(store, screen, clock)
    Device.pin_factory = MockFactory()
    try:
        buttons = Buttons({"A": 5, "B": 6, "C": 16, "D": 24}, wall.press)
        assert wall.view.size == 13
        pin = Device.pin_factory.pin(5)
        pin.drive_low()  # pressed: the buttons pull the line to ground
        pin.drive_high()
        assert wall.tick()
        assert wall.view.size == 9
        assert screen.shown[-1] != screen.shown[0]
        Device.pin_factory.pin(16).drive_low()
        assert wall.tick()
        assert wall.view.page == "tonight"  # 19:00 is in the club's evening (17:00-03:00): tonight's pairs
        buttons.close()
    finally:
        Device.pin_factory.close()
        Device.pin_factory = None


def test_another_page_goes_back_to_the_board_after_a_while(store: Store) -> None:
    clock, screen = Clock(), Screen()
    wall = wall_for(store, screen, clock)
    wall.press("B")
    assert wall.tick()
    assert wall.view.page == "handicap"
    clock.wait(601)
    wall.tick()
    clock.wait(61)
    assert wall.tick()
    assert wall.view.page == "board"


def test_button_b_steps_through_the_pages_of_a_tall_handicap_table_then_the_sizes(store: Store) -> None:
    """The wHAT's 13x13 table takes two pages at 2 mm: B shows both before the next size."""
    clock, screen = Clock(), Screen()
    screen.profile = profile("what")
    wall = wall_for(store, screen, clock)
    seen = []
    for _ in range(3):
        wall.press("B")
        assert wall.tick()
        seen.append((wall.view.page, wall.view.size, wall.view.part))
    assert seen == [("handicap", 13, 0), ("handicap", 13, 1), ("handicap", 9, 0)]
    assert screen.shown[-2].tobytes() != screen.shown[-3].tobytes()  # the second page is another picture


def test_the_loop_runs_until_told_to_stop(store: Store) -> None:
    import threading

    clock, screen = Clock(), Screen()
    chosen = DisplaySettings(poll=0.1)
    wall = Wall(store, screen, chosen, monotonic=clock.monotonic, now=clock.now)
    stop = threading.Event()
    folder = store.folder  # SQLite connections stay in their thread: the loop opens its own

    def run() -> None:
        with Store.open(folder) as own:
            wall.source = own
            wall.run(stop)

    runner = threading.Thread(target=run)
    runner.start()
    for _ in range(50):
        if screen.shown:
            break
        stop.wait(0.1)
    stop.set()
    wall.wake.set()
    runner.join(5)
    assert not runner.is_alive()
    assert len(screen.shown) == 1  # the board at start-up


def test_a_driver_bug_is_logged_and_retried_too(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    clock, screen = Clock(), Screen()
    wall = wall_for(store, screen, clock)
    show = screen.show
    calls: list[int] = []

    def broken_once(image: Image.Image) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise ValueError("Image must be (800x480) pixels!")
        show(image)

    screen.show = broken_once  # type: ignore[method-assign]
    wall.press("D")  # refresh now: even the same picture goes to the panel
    clock.wait(1)
    assert not wall.tick()
    assert "Image must be" in caplog.text
    clock.wait(31)
    store.record(game("2026-11-05T19:01"))
    wall.tick()
    clock.wait(61)
    assert wall.tick()


def test_a_panel_whose_pins_are_taken_leaves_the_loop_running_until_the_overlay_is_fixed(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The real driver, its GPIO from gpiodevice: SystemExit there must not end the wall."""
    import gpiodevice
    from inky.inky_e673 import Inky as InkyE673
    from inky_fakes import FakeChip, FakeGpio, FakeSpi, NoEeprom, Wire

    wire = Wire()
    instance = InkyE673(spi_bus=FakeSpi(wire), i2c_bus=NoEeprom())
    chip = FakeChip({8: "spi0 CS0"}, FakeGpio(wire, instance.dc_pin, (instance.cs_pin,), instance.busy_pin, "toggle"))
    monkeypatch.setattr(gpiodevice, "find_chip_by_platform", lambda: chip)
    clock = Clock()
    wall = Wall(
        store,
        InkyPanel(instance, profile("impression-7.3")),
        DisplaySettings(),
        monotonic=clock.monotonic,
        now=clock.now,
    )
    assert not wall.refresh()  # no SystemExit
    assert "dtoverlay=spi0-0cs" in caplog.text
    assert wall.failures == 1 and wall.retry_at > clock.seconds
    chip.claimed = {}  # the organiser added the overlay and rebooted… the loop tries again by itself
    clock.wait(31)
    assert wall.tick()
    assert dict(wire.commands())[0x10]  # the picture reached the panel


def test_buttons_that_cannot_claim_their_pins_are_left_out_and_the_others_work(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    clock, screen = Clock(), Screen()
    wall = wall_for(store, screen, clock)
    Device.pin_factory = MockFactory()
    try:
        other = Button(6)  # another program's (here: device's) claim on B's pin
        buttons = Buttons({"A": 5, "B": 6, "C": 16, "D": 24}, wall.press, reserved={16: "chip select 1"})
        assert sorted(buttons.buttons) == ["A", "D"]
        assert "button B does not work" in caplog.text and "GPIO6" in caplog.text
        assert "button C does not work: GPIO16 is the panel's chip select 1 line" in caplog.text
        assert "pins = { C = N }" in caplog.text  # the setting to change
        Device.pin_factory.pin(5).drive_low()
        Device.pin_factory.pin(5).drive_high()
        assert wall.tick() and wall.view.size == 9  # A still cycles the sizes
        buttons.close()
        other.close()
    finally:
        Device.pin_factory.close()
        Device.pin_factory = None


class Systemd:
    """A datagram socket where systemd's would be ($NOTIFY_SOCKET): what arrived, and when on the test clock."""

    def __init__(self, path: Path, clock: Clock) -> None:
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(str(path))
        self.socket.setblocking(False)
        self.clock = clock
        self.pings: list[float] = []

    def drain(self) -> None:
        """Stamp what arrived since the last look with the clock's time now."""
        while True:
            try:
                message = self.socket.recv(4096)
            except BlockingIOError:
                return
            if message == b"WATCHDOG=1":
                self.pings.append(self.clock.seconds)


@pytest.fixture
def systemd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Systemd]:
    """systemd's notify socket for the wall, on a test clock (``systemd.clock``)."""
    listener = Systemd(tmp_path / "notify", Clock())
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    yield listener
    listener.socket.close()


class SlowScreen(Screen):
    """The older 7-colour 7.3": a refresh takes 93 s."""

    def __init__(self, clock: Clock, systemd: Systemd) -> None:
        super().__init__()
        self.clock, self.systemd = clock, systemd

    def show(self, image: Image.Image) -> None:
        self.systemd.drain()
        super().show(image)
        self.clock.wait(93)


def test_the_daily_clean_pings_the_watchdog_between_its_two_long_refreshes(store: Store, systemd: Systemd) -> None:
    clock = systemd.clock
    watchdog = sdnotify.Watchdog(interval=180.0, clock=clock.monotonic)  # WatchdogSec=180
    settings = DisplaySettings(clean_at=time(19, 5), quiet_from=None, quiet_until=None)
    screen = SlowScreen(clock, systemd)
    wall = Wall(store, screen, settings, monotonic=clock.monotonic, now=clock.now, watchdog=watchdog)
    wall.refresh()
    clock.seconds = 1000.0 + 5 * 60  # 19:05, the clean is due
    for _ in range(3):  # the loop's turns, 2 s apart
        wall.turn()
        systemd.drain()
        clock.wait(2)
    assert wall.cleaned_on is not None and len(screen.shown) == 3  # board, white, board
    gaps = [b - a for a, b in itertools.pairwise(systemd.pings)]
    assert max(gaps) < 180, gaps  # without the ping between, 186 s: systemd would kill the wall mid-clean
    assert len(systemd.pings) >= 3


def test_a_long_refresh_begun_late_in_the_half_interval_is_pinged_for(store: Store, systemd: Systemd) -> None:
    clock = systemd.clock
    watchdog = sdnotify.Watchdog(interval=180.0, clock=clock.monotonic)
    screen = SlowScreen(clock, systemd)
    wall = Wall(store, screen, DisplaySettings(), monotonic=clock.monotonic, now=clock.now, watchdog=watchdog)
    wall.refresh()  # at start-up, before READY=1: no ping yet
    systemd.drain()
    assert systemd.pings == []
    wall.turn()  # the loop's first turn pings
    clock.wait(89)  # just inside the half interval: the next turn's tick does not ping…
    wall.press("D")
    wall.turn()  # …and a 93 s refresh begins
    systemd.drain()
    clock.wait(2)
    wall.turn()
    systemd.drain()
    gaps = [b - a for a, b in itertools.pairwise(systemd.pings)]
    assert len(screen.shown) == 2
    assert max(gaps) < 180, gaps  # 89 + 93 s without the ping before the refresh


class Failing:
    """A store whose change counter fails while told to (a disk fault, the file replaced)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.broken = True

    def __getattr__(self, name: str) -> object:
        return getattr(self.store, name)

    def change_counter(self) -> int:
        if self.broken:
            raise sqlite3.OperationalError("disk I/O error")
        return self.store.change_counter()


def test_a_persistent_fault_is_logged_once_then_counted_then_its_end(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    clock, screen = Clock(), Screen()
    wall_for(store, screen, clock)
    source = Failing(store)
    wall = Wall(
        source,
        screen,
        DisplaySettings(),
        monotonic=clock.monotonic,
        now=clock.now,  # type: ignore[arg-type]
        watchdog=sdnotify.Watchdog(interval=None),
    )
    caplog.clear()
    caplog.set_level(logging.INFO, logger="display.refresh")
    clock.wait(120)  # 19:02
    for _ in range(330):  # 11 minutes of 2 s turns
        wall.turn()
        clock.wait(2)
    told = [r.getMessage() for r in caplog.records if "display loop" in r.getMessage()]
    assert len([r for r in caplog.records if r.exc_info]) == 1  # one traceback, not 330
    assert told == [
        "a turn of the display loop failed: disk I/O error (told once; if it persists, only counted)",
        "a turn of the display loop: the same error 301 times since 19:02 (disk I/O error)",
    ]
    source.broken = False
    wall.turn()
    wall.turn()
    told = [r.getMessage() for r in caplog.records if "display loop" in r.getMessage()]
    assert told[2:] == ["a turn of the display loop works again (the last error came 330 times since 19:02)"]


def test_a_panel_that_keeps_failing_logs_its_traceback_once(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    clock, screen = Clock(), Screen()
    wall = wall_for(store, screen, clock)

    def broken(image: Image.Image) -> None:
        raise ValueError("Image must be (800x480) pixels!")

    screen.show = broken  # type: ignore[method-assign]
    caplog.set_level(logging.INFO, logger="display.refresh")
    for _ in range(6):
        wall.press("D")
        wall.tick()
        clock.wait(MAX_RETRY)
    assert wall.failures == 6
    assert len([r for r in caplog.records if r.exc_info]) == 1
    assert "failed again (6 times since 19:00" in caplog.text
    del screen.show  # the panel is fixed
    wall.press("D")
    assert wall.tick()
    assert "the panel works again after 6 failures since 19:00" in caplog.text


@pytest.fixture
def full_store(tmp_path: Path) -> Iterator[Store]:
    """A club whose 13x13 board takes several pages of the 7.3" panel, and a 9x9 board."""
    with Store.open(tmp_path) as opened:
        for line in PLAYERS:
            opened.record(parse_line(json.dumps(line)))
        for n in range(90):
            opened.record(
                parse_line(
                    json.dumps(
                        {
                            "type": "player",
                            "at": "2026-11-02T18:00",
                            "nick": f"Gracz {n}",
                            "size": 13,
                            "status": "member",
                            "strength": n % 50,
                        }
                    )
                )
            )
        yield opened


def test_button_a_steps_through_the_boards_pages_then_the_sizes(full_store: Store) -> None:
    clock, screen = Clock(), Screen()
    wall = wall_for(full_store, screen, clock, page_advance=0)
    parts = wall.parts
    assert parts > 1
    seen = [wall.view]
    for _ in range(parts):
        wall.press("A")
        assert wall.tick()
        seen.append(wall.view)
    assert [(v.size, v.part) for v in seen] == [(13, part) for part in range(parts)] + [(9, 0)]
    assert len({picture.tobytes() for picture in screen.shown}) == len(screen.shown)  # each page its own picture


def test_the_pages_follow_each_other_by_themselves_but_never_at_night(full_store: Store) -> None:
    clock, screen = Clock(), Screen()
    wall = wall_for(full_store, screen, clock, page_advance=600)
    clock.wait(599)
    assert not wall.tick()
    clock.wait(2)
    assert wall.tick() and wall.view.part == 1
    clock.seconds += 4 * 3600 - 601  # 23:00: quiet hours
    assert not wall.tick() and wall.view.part == 1
