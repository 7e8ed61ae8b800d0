"""The kiosk's clock on a Pi without internet time: the phones' clocks, the owner, and NTP.

A Pi has no real-time clock. Without NTP it starts at its last shutdown time (fake-hwclock),
and on a club Wi-Fi without internet it never corrects itself: games would be stamped on the
wrong day, and the wrong week would decide the free loss. Every phone knows the right time, so
the game form carries the phone's clock. While the Pi is not NTP-synchronised, the kiosk's time
is the Pi's own clock plus an offset, learned from the phones (one lying phone had
moved the kiosk six days ahead for good):

- **Phones vote by address.** Each address has one voice, its newest reading; a phone that
  sends a hundred forms is still one voice. The offset moves only when at least ``QUORUM``
  addresses agree (within ``TOLERANCE``) and they are most of the addresses heard.
- **A bounded step.** Phones alone move the kiosk at most ``MAX_STEP`` from the Pi's own
  clock (or from the time the owner set by hand this boot). Phones that agree on more are
  kept as ``pending``: the owner page offers to take their time, by hand.
- **The owner** may set the time by hand (the owner page); phones then move it only within
  the step of that time.
- **NTP, once synchronised, always wins**: the Pi's own clock, whatever phones or the owner said.

"Never backwards" keeps games in order while the clock runs on one footing; it does not
outlive a correction (phones, the owner or NTP moving the clock), nor a boot: a clock that was
wrong must be allowed back. Within one boot the Pi's clock runs steadily, so an offset learned
from phones stays right; after a reboot fake-hwclock sets a new wrong time, so readings from
another boot are dropped.

Pure: every function takes the Pi's time and what the system says, and returns a new state.
All times are aware UTC datetimes.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

# Phones within this of each other tell the same time (a phone's clock, a slow page).
TOLERANCE = timedelta(minutes=2)
# The voices that count: the newest reading of each of the latest addresses of this boot.
KEEP = 9
# Phones from this many addresses must agree before the kiosk follows them.
QUORUM = 3
# How far phones alone may move the kiosk from the Pi's own clock (or the owner's time): a Pi
# with fake-hwclock is behind by the time it was switched off, a month at most between evenings.
MAX_STEP = timedelta(days=31)
# A phone claiming a time outside these years is not a clock to learn from.
EARLIEST = datetime(2020, 1, 1, tzinfo=UTC)
LATEST = datetime(2100, 1, 1, tzinfo=UTC)

NTP = "ntp"
PHONES = "phones"
OWNER = "owner"


@dataclass(frozen=True, slots=True)
class Reading:
    """What one phone's clock said, the Pi's own clock when it arrived, and the phone's address."""

    pi: datetime
    phone: datetime
    source: str = ""

    @property
    def offset(self) -> timedelta:
        """How far the Pi's clock is behind this phone."""
        return self.phone - self.pi


@dataclass(frozen=True, slots=True)
class ClockState:
    """What the kiosk knows about the time; kept between requests and shared with the wall."""

    boot: str = ""  # the boot the readings and the offset belong to
    offset: timedelta = timedelta(0)  # added to the Pi's clock
    readings: tuple[Reading, ...] = ()  # newest last: one per address, at most KEEP
    latest: datetime | None = None  # the latest time handed out since the last correction: never below it
    trusted_at: datetime | None = None  # when NTP, agreeing phones or the owner last confirmed the time
    trusted_by: str = ""  # NTP, PHONES or OWNER
    skew: timedelta = timedelta(0)  # how far the Pi's own clock was off, by the last confirmation
    base: timedelta = timedelta(0)  # the offset phones may step from: 0 (the Pi's own), or the owner's
    follows: str = ""  # what the kiosk's time follows this boot: "" (the Pi's own clock), PHONES, OWNER, NTP
    pending: timedelta | None = None  # an offset phones agreed on that is more than MAX_STEP: for the owner


def phone_reading(text: str, pi: datetime, source: str = "") -> Reading | None:
    """A reading from the form's hidden field (milliseconds since 1970, as JavaScript's Date.now()).

    Anything else (no JavaScript, a tampered form) is no reading: the clock just learns nothing.
    """
    raw = text.strip()
    if not raw.isascii() or not raw.isdecimal() or len(raw) > 13:  # 13 digits reach the year 2286
        return None
    phone = datetime.fromtimestamp(int(raw) / 1000, UTC)
    if not EARLIEST <= phone < LATEST:
        return None
    return Reading(pi=pi, phone=phone, source=source)


def same_boot(state: ClockState, boot: str) -> ClockState:
    """The state as it holds for this boot: another boot's offset, readings and last time mean nothing now."""
    if state.boot == boot:
        return state
    return replace(
        state,
        boot=boot,
        offset=timedelta(0),
        readings=(),
        latest=None,
        base=timedelta(0),
        follows="",
        pending=None,
    )


def _kept(readings: tuple[Reading, ...], reading: Reading) -> tuple[Reading, ...]:
    """The readings with this one as its address's newest: one voice per address, the latest KEEP addresses."""
    others = tuple(r for r in readings if r.source != reading.source)
    return (*others, reading)[-KEEP:]


def _agreement(readings: tuple[Reading, ...]) -> tuple[timedelta, Reading] | None:
    """The offset a quorum and most of the addresses agree on, and the newest reading that agrees; else None."""
    if len(readings) < QUORUM:
        return None
    middle = statistics.median_low(r.offset for r in readings)
    agreeing = [r for r in readings if abs(r.offset - middle) <= TOLERANCE]
    if len(agreeing) < QUORUM or 2 * len(agreeing) <= len(readings):
        return None
    return statistics.median_low(r.offset for r in agreeing), agreeing[-1]


def _moved(state: ClockState, offset: timedelta) -> datetime | None:
    """The last time handed out, kept only while the clock stays on its footing (a correction lets it go)."""
    return state.latest if abs(offset - state.offset) <= TOLERANCE else None


def _ntp(state: ClockState, pi: datetime) -> ClockState:
    """NTP wins: the Pi's own clock is right; phones and the owner only told how wrong it had been."""
    latest = state.latest if state.follows == NTP else None  # phones' or the owner's last time does not hold NTP back
    return replace(
        state,
        offset=timedelta(0),
        base=timedelta(0),
        readings=(),
        pending=None,
        latest=latest,
        trusted_at=pi,
        trusted_by=NTP,
        follows=NTP,
    )


def observe(state: ClockState, reading: Reading | None, boot: str, synchronized: bool) -> ClockState:
    """The state after a phone's clock arrived (or none did) at ``reading.pi``."""
    state = same_boot(state, boot)
    if synchronized:
        return _ntp(state, reading.pi) if reading is not None else state
    if reading is None:
        return state
    state = replace(state, readings=_kept(state.readings, reading))
    agreed = _agreement(state.readings)
    if agreed is None:
        return state  # too few addresses, or they disagree: keep the offset there was
    offset, newest = agreed
    if abs(offset - state.base) > MAX_STEP:
        return replace(state, pending=offset)  # too far for phones alone: the owner decides
    return replace(
        state,
        offset=offset,
        latest=_moved(state, offset),
        skew=offset,
        trusted_at=newest.pi + offset,
        trusted_by=PHONES,
        follows=PHONES,
        pending=None,
    )


def set_by_owner(state: ClockState, told: datetime, pi: datetime, boot: str) -> ClockState:
    """The owner set the time by hand to ``told`` when the Pi's clock said ``pi``: the new footing of this boot."""
    state = same_boot(state, boot)
    offset = told - pi
    return replace(
        state,
        offset=offset,
        base=offset,
        latest=None,  # the owner may set the clock back: it was wrong
        skew=offset,
        trusted_at=told,
        trusted_by=OWNER,
        follows=OWNER,
        pending=None,
    )


def now(state: ClockState, pi: datetime, boot: str, synchronized: bool) -> tuple[datetime, ClockState]:
    """The kiosk's time when the Pi's own clock says ``pi``, and the state that remembers it.

    Never earlier than a time already handed out on the same footing: a game is never stamped
    before an earlier one, until a correction or a boot.
    """
    state = same_boot(state, boot)
    if synchronized:
        state = _ntp(state, pi)
    told = pi + state.offset
    if state.latest is not None and told < state.latest:
        told = state.latest
    return told, replace(state, latest=told)
