"""The clock's edge: what the system says (NTP, this boot) and the state in the data folder.

The web app writes ``clock.json`` when a phone's clock arrives; the wall and the owner page only
read it. A lock file keeps sixteen phones at once from losing each other's readings.
"""

from __future__ import annotations

import fcntl
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from kiosk import clock
from kiosk.clock import ClockState, Reading
from kiosk.files import write_atomically

NAME = "clock.json"
# systemd-timesyncd creates it once the clock is synchronised, and removes it at boot.
SYNCHRONIZED = Path("/run/systemd/timesync/synchronized")
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")

log = logging.getLogger(__name__)


def synchronized(flag: Path = SYNCHRONIZED) -> bool:
    """True when NTP has set the Pi's clock since it booted."""
    return flag.exists()


def boot_id(path: Path = BOOT_ID) -> str:
    """This boot's id: an offset learned before a reboot does not hold after it."""
    try:
        return path.read_text().strip()
    except OSError:
        return ""


def _time(text: Any) -> datetime | None:
    return datetime.fromisoformat(text) if isinstance(text, str) and text else None


def _reading(pi: str, phone: str, source: str = "") -> Reading:
    """A saved reading: [pi, phone] as an older kiosk wrote it (phones not told apart), or [pi, phone, address]."""
    return Reading(pi=datetime.fromisoformat(pi), phone=datetime.fromisoformat(phone), source=str(source))


def load(folder: Path) -> ClockState:
    """The saved state; a missing or damaged file is a clock that knows nothing yet."""
    try:
        raw = json.loads((folder / NAME).read_text())
        return ClockState(
            boot=str(raw.get("boot", "")),
            offset=timedelta(seconds=float(raw.get("offset", 0))),
            readings=tuple(_reading(*each) for each in raw.get("readings", [])),
            latest=_time(raw.get("latest")),
            trusted_at=_time(raw.get("trusted_at")),
            trusted_by=str(raw.get("trusted_by", "")),
            skew=timedelta(seconds=float(raw.get("skew", 0))),
            base=timedelta(seconds=float(raw.get("base", 0))),
            follows=str(raw.get("follows", "")),
            pending=None if raw.get("pending") is None else timedelta(seconds=float(raw["pending"])),
        )
    except (OSError, ValueError, TypeError, AttributeError):
        return ClockState()


def save(folder: Path, state: ClockState) -> None:
    """Write the state whole (a temporary file renamed over the old one)."""
    raw = {
        "boot": state.boot,
        "offset": state.offset.total_seconds(),
        "readings": [[r.pi.isoformat(), r.phone.isoformat(), r.source] for r in state.readings],
        "latest": state.latest.isoformat() if state.latest else "",
        "trusted_at": state.trusted_at.isoformat() if state.trusted_at else "",
        "trusted_by": state.trusted_by,
        "skew": state.skew.total_seconds(),
        "base": state.base.total_seconds(),
        "follows": state.follows,
        "pending": None if state.pending is None else state.pending.total_seconds(),
    }
    write_atomically(folder / NAME, json.dumps(raw), sync=False)


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    with open(folder / f".{NAME}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def heard(folder: Path, phone_text: str, pi: datetime, flag: Path = SYNCHRONIZED, source: str = "") -> datetime:
    """A phone's clock arrived with a form from ``source`` (its address): learn from it; the kiosk's time (UTC) now."""
    synced, boot = synchronized(flag), boot_id()
    try:
        with _locked(folder):
            before = clock.same_boot(load(folder), boot)
            state = clock.observe(before, clock.phone_reading(phone_text, pi, source), boot, synced)
            told, state = clock.now(state, pi, boot, synced)
            save(folder, state)
    except OSError:
        # A full or read-only card: the game's own save will say so; the clock just learns nothing.
        return current(folder, pi, flag)[0]
    _say_what_changed(before, state)
    return told


def set_by_owner(folder: Path, told: datetime, pi: datetime, flag: Path = SYNCHRONIZED) -> ClockState:
    """The owner set the kiosk's time by hand; OSError when the card cannot keep it. Refused (ValueError) under NTP."""
    if synchronized(flag):
        raise ValueError("the Pi has internet time")
    boot = boot_id()
    with _locked(folder):
        before = clock.same_boot(load(folder), boot)
        state = clock.set_by_owner(before, told, pi, boot)
        save(folder, state)
    log.warning("the owner set the kiosk's clock by hand: %s off the Pi's own clock", state.offset)
    return state


def _say_what_changed(before: ClockState, state: ClockState) -> None:
    """Once per change, not per game: the journal says when the clock moved, and why."""
    if state.follows == clock.NTP and before.follows != clock.NTP:
        log.warning("the Pi has internet time (NTP): the kiosk follows it now (it was %s off)", before.offset)
    elif abs(state.offset - before.offset) > clock.TOLERANCE:
        log.warning(
            "the Pi's clock is %s off the phones' time and has no NTP; the kiosk now uses the phones' time",
            state.offset,
        )
    elif state.pending is not None and before.pending is None:
        log.warning(
            "phones say the Pi's clock is %s off, more than the kiosk moves without the owner: "
            "the owner can set the time on the owner page",
            state.pending,
        )


def current(folder: Path, pi: datetime, flag: Path = SYNCHRONIZED) -> tuple[datetime, ClockState]:
    """The kiosk's time (UTC) and what it knows, without changing anything (the wall, the pages)."""
    return clock.now(load(folder), pi, boot_id(), synchronized(flag))
