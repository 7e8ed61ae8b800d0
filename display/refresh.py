"""The refresh loop: notice a new result cheaply, wait for calm, refresh the panel when it pays.

The loop only reads the store (the change counter, then the board when a refresh is due);
it never writes to the history. Buttons only leave a request here; the loop does the
refresh, so two refreshes never run at once and a slow panel never blocks a button.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
import time as clock
from collections.abc import Callable
from dataclasses import replace
from datetime import date, datetime

from PIL import Image

from display import fonts, sdnotify
from display.fonts import faces_open
from display.panels import LOOK_AGAIN, AwaitedPanel, NoPanelError, Panel, PanelError
from display.render import board_pages, event_pages, handicap_pages, render, ruler_pages, tonight_pages, week_pages
from display.settings import DisplaySettings
from display.wall import DamagedDatabase, View, WallData, from_source
from kiosk.board_source import BoardSource
from kiosk.evening import club_evening, is_open
from kiosk.handicap import SIZES
from kiosk.wallstatus import NO_PANEL

log = logging.getLogger(__name__)
MAX_RETRY = 3600.0
# Font faces kept open between refreshes: a page needs 10 to 20; more (pages drawn at many sizes, the handicap
# table's, tonight's) are closed before the next picture, so the process stays under 80 MB on the 13.3".
FACES_KEPT = 24
# A fault that persists is told again (as a count, no traceback) at most this often: the
# journal lives on an SD card, and a traceback every 2 s loop turn wears it for nothing.
RETELL_AFTER = 600.0


class RepeatedErrors:
    """Logs a fault once with its traceback, then only how often it came back, and when it cleared.

    "Same" means the same type and message. A different fault is logged in full at once.
    """

    def __init__(
        self, what: str, monotonic: Callable[[], float], now: Callable[[], datetime], every: float = RETELL_AFTER
    ) -> None:
        self.what, self.monotonic, self.now, self.every = what, monotonic, now, every
        self.key: tuple[str, str] | None = None
        self.count = 0
        self.since = ""  # club time of the first of the run, HH:MM
        self.told_at = 0.0

    def failed(self, error: BaseException) -> None:
        """One more failure."""
        key = (type(error).__name__, str(error))
        if key == self.key:
            self.count += 1
            if self.monotonic() - self.told_at >= self.every:
                self.told_at = self.monotonic()
                log.error("%s: the same error %d times since %s (%s)", self.what, self.count, self.since, error)
            return
        if self.key is not None and self.count > 1:
            log.info("%s: the previous error came %d times since %s", self.what, self.count, self.since)
        self.key, self.count, self.told_at = key, 1, self.monotonic()
        self.since = self.now().strftime("%H:%M")
        log.error("%s failed: %s (told once; if it persists, only counted)", self.what, error, exc_info=error)

    def cleared(self) -> None:
        """A turn went well: say so once if it had been failing."""
        if self.key is None:
            return
        log.info("%s works again (the last error came %d times since %s)", self.what, self.count, self.since)
        self.key, self.count = None, 0


def picture_hash(image: Image.Image) -> str:
    """A fingerprint of a picture: same pixels and inks, same hash."""
    digest = hashlib.sha256(image.tobytes())
    digest.update(repr((image.mode, image.size, image.getpalette())).encode())
    return digest.hexdigest()


class Wall:
    """What the wall shows and when it refreshes; ``tick()`` is one turn of the loop."""

    def __init__(
        self,
        source: BoardSource,
        panel: Panel,
        settings: DisplaySettings,
        monotonic: Callable[[], float] = clock.monotonic,
        now: Callable[[], datetime] = datetime.now,
        watchdog: sdnotify.Watchdog | None = None,
    ) -> None:
        self.source, self.panel, self.settings = source, panel, settings
        self.monotonic, self.now = monotonic, now
        self.watchdog = watchdog or sdnotify.Watchdog()
        self.loop_errors = RepeatedErrors("a turn of the display loop", monotonic, now)
        self.failing_since = ""  # club time (HH:MM) of the panel's first failure in a row
        self.view = View("board", 13)
        self.view_since = monotonic()
        self.parts = 1  # pages of the board (or handicap table) on the wall now (buttons A and B, the page advance)
        # While the club is open the first page is tonight's (home()); button A or the page advance chose the board.
        self.board_chosen = False
        self.data: WallData | None = None
        self.counter: int | None = None
        # The club evening of the last refresh: tonight's event leaves the wall when the evening ends, with nothing
        # written. Anything else about the event is a history write, which the change counter shows.
        self.evening_seen: date | None = None
        self.changed_at: float | None = None  # when the last unseen change was noticed
        self.requested = False  # a button asked for a refresh: no debounce, no minimum interval
        self.forced = False  # button D: redraw even an unchanged picture (it also clears ghosting)
        self.last_refresh: float | None = None
        self.last_hash: str | None = None
        self.failures = 0
        self.retry_at = 0.0
        self.cleaned_on: date | None = None
        self.refreshes = 0  # pictures sent to the panel
        self.skipped = 0  # refreshes that found the same picture
        self._busy = threading.Lock()
        self._lock = threading.Lock()  # buttons press from gpiozero's threads
        self.wake = threading.Event()

    # --- buttons ------------------------------------------------------------------------

    def press(self, button: str) -> None:
        """A button: A steps through the board's pages then the sizes, B the handicap tables, D now.

        C shows tonight's pairs while the club is open (its pages, then the next size), the week otherwise.
        While an event of tonight is open, C shows the event first: its pages, then tonight's pairs (from the
        event's size on through the other sizes) while the club is open, or the week while it is closed, then
        the event again.
        """
        with self._lock:
            sizes = self.data.sizes() if self.data else ()
            page, size = self.view.page, self.view.size
            part = 0
            if button == "A":  # through the pages of a size's board, then on to the next size
                self.board_chosen = True  # from tonight's ruler too: someone wants the whole board
                if page == "board" and self.view.part + 1 < self.parts:
                    part = self.view.part + 1
                else:
                    size = size if page != "board" else _next(sizes, size)
                page = "board"
            elif button == "B":  # through the pages of a size's handicap table, then on to the next size
                if page == "handicap" and self.view.part + 1 < self.parts:
                    part = self.view.part + 1
                else:
                    size = size if page != "handicap" else _next(sizes or SIZES, size)
                page = "handicap"
            elif button == "C" and self.data is not None and self.data.event is not None:
                page, size, part = self._event_cycle(sizes)
            elif button == "C" and self.club_open():  # through tonight's pages, then on to the next size
                if page == "tonight" and self.view.part + 1 < self.parts:
                    part = self.view.part + 1
                else:
                    size = size if page != "tonight" else _next(sizes, size)
                page = "tonight"
            elif button == "C":  # the week, through its pages (the small panels need two)
                if page == "week" and self.view.part + 1 < self.parts:
                    part = self.view.part + 1
                page = "week"
            elif button == "D":
                self.forced = True
            self.view = View(page, size, part)
            self.view_since = self.monotonic()
            self.requested = True
        self.wake.set()

    def _event_cycle(self, sizes: tuple[int, ...]) -> tuple[str, int, int]:
        """Button C while an event is on: event pages → tonight's pages by size (or the week) → the event."""
        assert self.data is not None and self.data.event is not None
        page, size, part = self.view.page, self.view.size, self.view.part
        event_size = self.data.event.size
        if page == "event":
            if part + 1 < self.parts:
                return "event", event_size, part + 1
            return ("tonight", event_size, 0) if self.club_open() else ("week", size, 0)
        if page == "tonight" and self.club_open():
            if part + 1 < self.parts:
                return "tonight", size, part + 1
            order = [event_size, *(s for s in sizes if s > event_size), *(s for s in sizes if s < event_size)]
            later = order[order.index(size) + 1 :] if size in order else []
            if later:
                return "tonight", later[0], 0
        return "event", event_size, 0

    def home(self) -> str:
        """The wall's first page: while the club is open and someone is here, tonight's ruler on a
        panel it fits, tonight's pairs on a small one; the board otherwise."""
        from display.tonight_ruler import shown_on

        tonight = self.data.tonight if self.data is not None else None
        if tonight is None or not tonight.here or not self.club_open():
            return "board"
        return "ruler" if shown_on(self.panel.profile, self.settings.orientation) else "tonight"

    def club_open(self) -> bool:
        """True while the club's evening is on (``[club] evening_starts`` to ``evening_ends``, club time)."""
        config = self.source.config
        return is_open(self.now(), config.evening_starts, config.evening_ends)

    # --- the loop -----------------------------------------------------------------------

    def tick(self) -> bool:
        """One turn: look at the counter, refresh when due; True when the panel was refreshed."""
        # Long: one turn's decisions in the order they must be taken (which page is up, then whether to refresh),
        # sharing the clock readings.
        t = self.monotonic()
        counter = self.source.change_counter()
        if counter != self.counter:
            self.counter, self.changed_at = counter, t
        moment = self.now()
        # Tonight's page stays up while the club is open (results come in all evening); the others go back.
        # So does the event's while it is open.
        lasting = (self.view.page in ("tonight", "ruler") and self.club_open()) or (
            self.view.page == "event" and self.data is not None and self.data.event is not None
        )
        if self.view.page == "ruler" and not self.club_open():  # the club closed: the board, with nothing written
            self.changed_at = self.changed_at or t
        if self.view.page != "board" and not lasting and t - self.view_since >= self.settings.page_timeout:
            self.view = View("board", self.view.size)
            self.changed_at = self.changed_at or t
        if self.view.page == "tonight" and self._new_evening(moment):
            # The evening turned (its list starts empty) with nothing written: read again.
            self.changed_at = self.changed_at or t
        self._notice_evening(moment, t)
        data = self.data
        if data is not None and data.sleeper_weeks and data.updated and moment.date() != data.updated.date():
            # A new day may send a magnet to rest (kiosk.sleepers) with nothing written: read the board again
            # (an unchanged picture leaves the panel alone).
            self.changed_at = self.changed_at or t
        home = self.home()
        advance = (
            self.settings.page_advance
            and t - self.view_since >= self.settings.page_advance
            and not self.settings.quiet(moment.time())
        )
        last = self.view.part + 1 >= self.parts
        if home != "board" and self.view.page in (home, "board") and last and advance:
            # While the club is open the board's pages and tonight's follow each other, tonight's first.
            page = "board" if self.view.page == home else home
            self.board_chosen = page == "board"
            self.view = View(page, self.view.size)
            self.view_since, self.requested = t, True
        elif home != "board" and self.view.page == "board" and self.board_chosen and not self.settings.page_advance:
            if t - self.view_since >= self.settings.page_timeout:  # back to tonight after a look at the board
                self.board_chosen = False
                self.view = View(home, self.view.size)
                self.view_since, self.requested = t, True
        elif self.view.page in ("board", "tonight", "event", "ruler", "week") and self.parts > 1 and advance:
            self.view = View(self.view.page, self.view.size, (self.view.part + 1) % self.parts)
            self.view_since, self.requested = t, True
        if self._clean_due(moment):
            return self.refresh(clean=True)
        if self.requested:
            return self.refresh(force=self.forced)
        if self.changed_at is None or t < self.retry_at or self.settings.quiet(moment.time()):
            return False
        if t - self.changed_at < self.settings.debounce:
            return False  # more results may follow: one refresh for the lot
        if self.last_refresh is not None and t - self.last_refresh < self.settings.min_interval:
            return False
        return self.refresh()

    def _new_evening(self, moment: datetime) -> bool:
        """True when the tonight page shows another evening than the club's now (a check-in, a leaving or a
        refusal bumps the store's change counter: only the evening's turn needs a look of its own)."""
        shown = self.data.tonight if self.data is not None else None
        return shown is not None and club_evening(self.source.config, moment)[0] != shown.evening

    def _notice_evening(self, moment: datetime, t: float) -> None:
        """The club evening ended: tonight's event leaves the wall with it, with nothing written."""
        if self.data is None or self.data.event is None:
            return  # an event's start is a history write: the change counter shows it
        evening = club_evening(self.source.config, moment)[0]
        if evening != self.evening_seen:
            self.evening_seen = evening
            self.changed_at = self.changed_at or t

    def _clean_due(self, moment: datetime) -> bool:
        at = self.settings.clean_at
        if at is None or self.cleaned_on == moment.date() or moment.time() < at:
            return False
        return not self.settings.quiet(moment.time()) and self.monotonic() >= self.retry_at

    def refresh(self, clean: bool = False, force: bool = False) -> bool:
        """Read the board, draw it, and send it to the panel unless it shows that already."""
        if not self._busy.acquire(blocking=False):
            return False  # a refresh is running; the request stays for the next turn
        try:
            return self._refresh(clean, force)
        finally:
            self._busy.release()

    def _refresh(self, clean: bool, force: bool) -> bool:
        # A panel plugged in (or reseated) since the last try: draw for it. None yet: nothing to draw.
        # Long: one refresh in the order the panel needs it (panel found, view kept valid, fingerprint, draw, retry);
        # its early returns are the loop's decisions, clearest read in one place.
        if isinstance(self.panel, AwaitedPanel) and self.panel.look() is None:
            return self._wait_for_panel(self.changed_at)
        moment = self.now()
        if faces_open() > FACES_KEPT:
            forget_faces()
        self.counter = self.source.change_counter()  # read first: a later write is noticed next turn
        self.evening_seen = club_evening(self.source.config, moment)[0]  # likewise the evening
        self.data = from_source(self.source, moment)
        with self._lock:
            sizes = self.data.sizes()
            if sizes and self.view.size not in sizes:
                self.view = View(self.view.page, sizes[0] if 13 not in sizes else 13)
            if self.view.page == "event" and self.data.event is None:  # the owner closed it: back to the board
                self.view = View("board", self.view.size)
            home = self.home()
            if self.view.page == "ruler" and home != "ruler":  # closed, or nobody here any more
                self.view, self.board_chosen = View("board", self.view.size), False
            elif self.view.page == "board" and self.view.part == 0 and home != "board" and not self.board_chosen:
                self.view = View(home, self.view.size)  # the club opened and someone is here: tonight first
                self.view_since = self.monotonic()
            counted = {
                "handicap": handicap_pages,
                "tonight": tonight_pages,
                "event": event_pages,
                "ruler": ruler_pages,
                "week": week_pages,
            }.get(self.view.page, board_pages)
            self.parts = counted(self.data, self.view.size, self.panel.profile, self.settings.orientation)
            if self.view.part >= self.parts:  # the club shrank to fewer pages
                self.view = View(self.view.page, self.view.size, self.parts - 1)
            view = self.view
            self.requested = self.forced = False
        changed_at = self.changed_at
        self.changed_at = None
        # The fingerprint leaves out the "updated" time: a new time alone is no reason to flash the panel.
        fingerprint = picture_hash(
            render(replace(self.data, updated=None), view, self.panel.profile, self.settings.orientation)
        )
        if fingerprint == self.last_hash and not (clean or force):
            self.skipped += 1
            log.info("the picture did not change; the panel is left alone")
            return False
        image = render(self.data, view, self.panel.profile, self.settings.orientation)
        try:
            if clean:  # a white page first shakes off the ghosts of older pictures
                self._alive()
                self.panel.show(_white(image))
            # Before each refresh: one on the older 7-colour 7.3" takes about 93 s, so a refresh
            # begun late in the ping's half interval, or the clean's two in a row (186 s), would
            # outlast WatchdogSec=180.
            self._alive()
            self.panel.show(image)
        except NoPanelError:
            return self._wait_for_panel(changed_at)
        except Exception as error:  # a panel error, or a driver's own bug: either way, try again later
            self.failures += 1
            wait = min(self.settings.retry_after * 2 ** (self.failures - 1), MAX_RETRY)
            self.retry_at = self.monotonic() + wait
            # Still to show; a refresh that had no pending change (start-up, a button) is retried
            # at retry_at, not a debounce later.
            self.changed_at = changed_at or self.monotonic() - self.settings.debounce
            if self.failures == 1:
                self.failing_since = self.now().strftime("%H:%M")
                log.error(
                    "the panel failed (%s); trying again in %.0f s",
                    error,
                    wait,
                    exc_info=None if isinstance(error, PanelError) else error,
                )
            else:  # the traceback, if any, was logged with the first failure
                log.error(
                    "the panel failed again (%d times since %s: %s); trying again in %.0f s",
                    self.failures,
                    self.failing_since,
                    error,
                    wait,
                )
            return False
        if clean:
            self.cleaned_on = moment.date()
        if self.failures:
            log.info("the panel works again after %d failures since %s", self.failures, self.failing_since)
        self.failures, self.retry_at = 0, 0.0
        self.last_hash, self.last_refresh = fingerprint, self.monotonic()
        self.refreshes += 1
        log.info("the wall shows %s %dx%d", view.page, view.size, view.size)
        return True

    def _wait_for_panel(self, changed_at: float | None) -> bool:
        """No panel answers (it said so once): look again a minute later, without counting failures
        or backing off, so a panel plugged in later shows the board within a minute."""
        self.retry_at = self.monotonic() + LOOK_AGAIN
        self.changed_at = changed_at or self.monotonic() - self.settings.debounce
        self.requested = self.forced = False
        return False

    def _alive(self) -> None:
        """Ping systemd's watchdog now, once the loop pings at all (never before READY=1)."""
        if self.watchdog.started:
            self.watchdog.ping()

    def turn(self) -> None:
        """One turn of the running loop: ping systemd, then tick; a fault is logged, never raised."""
        self.watchdog.tick()
        try:
            self.tick()
        except Exception as error:  # the store being replaced, a bug in a page: keep the wall alive
            self.loop_errors.failed(error)
            if isinstance(error, sqlite3.DatabaseError):
                self._check_for_damage()
        else:
            self.loop_errors.cleared()

    def _check_for_damage(self) -> None:
        """A read failed: if the card damaged the database, the wall says "restore a backup" from now on."""
        from kiosk.backup import quick_check

        folder = getattr(self.source, "folder", None)
        damage = quick_check(folder) if folder is not None else None
        if damage is None:
            return  # a passing fault (the store being replaced): the next turn tries again
        log.error(
            "the database is damaged (%s); the wall says so. Restore a backup: %s",
            damage.detail,
            f"semedori restore {damage.backup}" if damage.backup else "no good backup in DATA/backups",
        )
        # semedori.toml's settings: the rules in force are read from the damaged file, the club's name is not.
        config = getattr(self.source, "file_config", None) or self.source.config
        self.source = DamagedDatabase(config, damage.backup.name if damage.backup else None)
        self.requested = True

    def run(self, stop: threading.Event) -> None:
        """Turn the loop until ``stop`` is set; tells systemd it is ready and alive."""
        shown = self.refresh()
        waiting = isinstance(self.panel, AwaitedPanel) and self.panel.found is None
        # Ready either way: a wall waiting for its panel is a running service, not a failed one.
        sdnotify.ready(NO_PANEL if waiting else "the wall shows the board" if shown else "the wall is running")
        while not stop.is_set():
            self.turn()
            self.wake.wait(self.settings.poll)
            self.wake.clear()
        sdnotify.stopping()


def forget_faces() -> None:
    """Close the cached font faces and everything measured or laid out with them (they open again as needed)."""
    from display import canvas, columns, render

    fonts.forget()
    canvas.is_bold.cache_clear()
    columns._chip.cache_clear()
    columns._label_texts.cache_clear()
    render._LAYOUTS.clear()


def _white(image: Image.Image) -> Image.Image:
    """A blank page in the picture's palette (index 0 is white on every profile)."""
    white = Image.new("P", image.size, 0)
    white.putpalette(image.getpalette() or [])
    return white


def _next(sizes: tuple[int, ...], size: int) -> int:
    """The next board size with magnets after ``size``, round the cycle."""
    if not sizes:
        return size
    later = [s for s in sizes if s > size]
    return later[0] if later else sizes[0]
