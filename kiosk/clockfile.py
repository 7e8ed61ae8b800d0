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


def load(folder: Path) -> ClockState:
    """The saved state; a missing or damaged file is a clock that knows nothing yet."""
    try:
        raw = json.loads((folder / NAME).read_text())
        return ClockState(
            boot=str(raw.get("boot", "")),
            offset=timedelta(seconds=float(raw.get("offset", 0))),
            readings=tuple(
                Reading(pi=datetime.fromisoformat(pi), phone=datetime.fromisoformat(phone))
                for pi, phone in raw.get("readings", [])
            ),
            latest=_time(raw.get("latest")),
            trusted_at=_time(raw.get("trusted_at")),
            trusted_by=str(raw.get("trusted_by", "")),
            skew=timedelta(seconds=float(raw.get("skew", 0))),
        )
    except (OSError, ValueError, TypeError, AttributeError):
        return ClockState()


def save(folder: Path, state: ClockState) -> None:
    """Write the state whole (a temporary file renamed over the old one)."""
    raw = {
        "boot": state.boot,
        "offset": state.offset.total_seconds(),
        "readings": [[r.pi.isoformat(), r.phone.isoformat()] for r in state.readings],
        "latest": state.latest.isoformat() if state.latest else "",
        "trusted_at": state.trusted_at.isoformat() if state.trusted_at else "",
        "trusted_by": state.trusted_by,
        "skew": state.skew.total_seconds(),
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


def heard(folder: Path, phone_text: str, pi: datetime, flag: Path = SYNCHRONIZED) -> datetime:
    """A phone's clock arrived with a form: learn from it, and return the kiosk's time (UTC) now."""
    synced, boot = synchronized(flag), boot_id()
    try:
        with _locked(folder):
            before = clock.same_boot(load(folder), boot)
            state = clock.observe(before, clock.phone_reading(phone_text, pi), boot, synced)
            told, state = clock.now(state, pi, boot, synced)
            save(folder, state)
    except OSError:
        # A full or read-only card: the game's own save will say so; the clock just learns nothing.
        return current(folder, pi, flag)[0]
    if abs(state.offset - before.offset) > clock.TOLERANCE:
        # Once per correction, not per game: the journal says when and by how much.
        log.warning(
            "the Pi's clock is %s off the phones' time and has no NTP; the kiosk now uses the phones' time",
            state.offset,
        )
    return told


def current(folder: Path, pi: datetime, flag: Path = SYNCHRONIZED) -> tuple[datetime, ClockState]:
    """The kiosk's time (UTC) and what it knows, without changing anything (the wall, the pages)."""
    return clock.now(load(folder), pi, boot_id(), synchronized(flag))
