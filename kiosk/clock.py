"""The kiosk's clock on a Pi without internet time: the phones' clocks, and never backwards.

A Pi has no real-time clock. Without NTP it starts at its last shutdown time (fake-hwclock),
and on a club Wi-Fi without internet it never corrects itself: games would be stamped on the
wrong day, and the wrong week would decide the free loss. Every phone knows the right time, so
the game form carries the phone's clock. While the Pi is not NTP-synchronised, the kiosk's time
is the Pi's own clock plus an offset: the median of what recent phones said, counted only when
most of them agree (a phone set by hand is outvoted). NTP, once synchronised, always wins.

Within one boot the Pi's clock runs steadily, so an offset learned from phones stays right;
after a reboot fake-hwclock sets a new wrong time, so readings from another boot are dropped.

Pure: every function takes the Pi's time and what the system says, and returns a new state.
All times are aware UTC datetimes.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

# Phones within this of each other tell the same time (a phone's clock, a slow page).
TOLERANCE = timedelta(minutes=2)
# The readings that count: the newest of this boot.
KEEP = 9
# A phone claiming a time outside these years is not a clock to learn from.
EARLIEST = datetime(2020, 1, 1, tzinfo=UTC)
LATEST = datetime(2100, 1, 1, tzinfo=UTC)

NTP = "ntp"
PHONES = "phones"


@dataclass(frozen=True, slots=True)
class Reading:
    """What one phone's clock said, and the Pi's own clock when it arrived."""

    pi: datetime
    phone: datetime

    @property
    def offset(self) -> timedelta:
        """How far the Pi's clock is behind this phone."""
        return self.phone - self.pi


@dataclass(frozen=True, slots=True)
class ClockState:
    """What the kiosk knows about the time; kept between requests and shared with the wall."""

    boot: str = ""  # the boot the readings and the offset belong to
    offset: timedelta = timedelta(0)  # added to the Pi's clock
    readings: tuple[Reading, ...] = ()  # newest last, at most KEEP
    latest: datetime | None = None  # the latest time handed out: the clock never goes below it
    trusted_at: datetime | None = None  # when NTP or agreeing phones last confirmed the time
    trusted_by: str = ""  # NTP or PHONES
    skew: timedelta = timedelta(0)  # how far the Pi's own clock was off, by the phones' last agreement


def phone_reading(text: str, pi: datetime) -> Reading | None:
    """A reading from the form's hidden field (milliseconds since 1970, as JavaScript's Date.now()).

    Anything else (no JavaScript, a tampered form) is no reading: the clock just learns nothing.
    """
    raw = text.strip()
    if not raw.isascii() or not raw.isdecimal() or len(raw) > 13:  # 13 digits reach the year 2286
        return None
    phone = datetime.fromtimestamp(int(raw) / 1000, UTC)
    if not EARLIEST <= phone < LATEST:
        return None
    return Reading(pi=pi, phone=phone)


def same_boot(state: ClockState, boot: str) -> ClockState:
    """The state as it holds for this boot: another boot's offset and readings mean nothing now."""
    if state.boot == boot:
        return state
    return replace(state, boot=boot, offset=timedelta(0), readings=())


def _agreement(readings: tuple[Reading, ...]) -> tuple[timedelta, Reading] | None:
    """The offset most phones agree on, and the newest reading that agrees; None when they do not."""
    if not readings:
        return None
    middle = statistics.median_low(r.offset for r in readings)
    agreeing = [r for r in readings if abs(r.offset - middle) <= TOLERANCE]
    if 2 * len(agreeing) <= len(readings):
        return None
    return statistics.median_low(r.offset for r in agreeing), agreeing[-1]


def observe(state: ClockState, reading: Reading | None, boot: str, synchronized: bool) -> ClockState:
    """The state after a phone's clock arrived (or none did) at ``reading.pi``."""
    state = same_boot(state, boot)
    if synchronized:
        # NTP wins: the Pi's own clock is right; phones only tell how wrong it had been.
        return replace(state, offset=timedelta(0), readings=())
    if reading is None:
        return state
    readings = (*state.readings, reading)[-KEEP:]
    state = replace(state, readings=readings)
    agreed = _agreement(readings)
    if agreed is None:
        return state  # phones disagree: keep the offset there was
    offset, newest = agreed
    return replace(state, offset=offset, skew=offset, trusted_at=newest.pi + offset, trusted_by=PHONES)


def now(state: ClockState, pi: datetime, boot: str, synchronized: bool) -> tuple[datetime, ClockState]:
    """The kiosk's time when the Pi's own clock says ``pi``, and the state that remembers it.

    Never earlier than a time already handed out: a game is never stamped before an earlier one.
    """
    state = same_boot(state, boot)
    if synchronized:
        state = replace(state, offset=timedelta(0), readings=(), trusted_at=pi, trusted_by=NTP)
    told = pi + state.offset
    if state.latest is not None and told < state.latest:
        told = state.latest
    return told, replace(state, latest=told)
