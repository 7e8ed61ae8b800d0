"""Wrong owner PINs, counted in a small file in the data folder so a restart forgives nothing.

A 4-digit PIN has only 10,000 values. Five wrong PINs from one phone lock that phone out
for a minute, and every further wrong PIN doubles the wait (up to a day), so guessing
takes years. Twenty wrong PINs from anywhere slow every phone down: from then on each
address may try one PIN every ``CLUB_PACE`` seconds, so a kid guessing from many phones
at once gets one guess per phone per half minute, and the owner at the club, typing the
right PIN from a phone of their own, still gets in (the club-wide count used to
lock every phone, the owner's too, for longer with every wrong PIN). The right PIN clears
the counts; a day after the last wait ends, old wrong PINs are forgotten.

The file is JSON, written to a temporary file and renamed over the old one (atomic on
POSIX): a power cut leaves the old count or the new one, never half of either. On a full
card the counts are kept in memory instead, so the PIN is still checked (the
count written before the check made the owner's right PIN a 500).
"""

from __future__ import annotations

import json
import logging
import math
import threading
from pathlib import Path

from kiosk.files import write_atomically

FILE_NAME = "pin-failures.json"
PHONE_LIMIT, CLUB_LIMIT = 5, 20
FIRST_LOCK, LONGEST_LOCK = 60.0, 24 * 3600.0
FORGET_AFTER = 24 * 3600.0  # counted from the end of the last wait
CLUB_PACE = 30.0  # over the club-wide limit: one PIN per address this often (the owner's slip costs half a minute)
EVERYONE = "*"  # the club-wide count
_write_lock = threading.Lock()  # waitress threads share one file
# The counts that could not be written (a full card), by file: newer than the file while kept.
_unsaved: dict[Path, dict[str, dict[str, float]]] = {}
log = logging.getLogger(__name__)


def _read(path: Path) -> dict[str, dict[str, float]]:
    if path in _unsaved:
        return dict(_unsaved[path])
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}  # no file yet, or unreadable: start counting again (never lock the owner out for good)
    return {k: v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}


def _write(path: Path, data: dict[str, dict[str, float]]) -> None:
    """Save the counts; on a card that cannot take them, keep them in memory (they still count)."""
    try:
        write_atomically(path, json.dumps(data), mode=0o600)  # mkstemp's mode, as before
    except OSError as error:
        if path not in _unsaved:
            log.warning("cannot save the wrong-PIN counts (%s): counting them in memory", error.strerror or error)
        _unsaved[path] = data
    else:
        _unsaved.pop(path, None)


def lock_seconds(failures: int, limit: int) -> float:
    """How long ``failures`` wrong PINs lock the door: none below ``limit``, then 1, 2, 4... minutes."""
    if failures < limit:
        return 0.0
    return min(FIRST_LOCK * (1 << min(failures - limit, 20)), LONGEST_LOCK)


def _wait(data: dict[str, dict[str, float]], address: str, now: float) -> float:
    """Seconds this address must wait: its own lock, and the club's pace once the club-wide count is over its limit."""
    own = data.get(address, {})
    wait = float(own.get("until", 0)) - now
    if int(data.get(EVERYONE, {}).get("failures", 0)) >= CLUB_LIMIT:
        wait = max(wait, float(own.get("last", -math.inf)) + CLUB_PACE - now)
    return max(0.0, wait)


def seconds_left(folder: Path, address: str, now: float) -> float:
    """Seconds until this phone may try a PIN again; 0 when it may now."""
    return _wait(_read(folder / FILE_NAME), address, now)


def failed(folder: Path, address: str, now: float) -> None:
    """Count a wrong PIN from this phone (and for the club), and lock when there were too many."""
    path = folder / FILE_NAME
    with _write_lock:
        _write(path, _counted(_read(path), address, now))


def _counted(data: dict[str, dict[str, float]], address: str, now: float) -> dict[str, dict[str, float]]:
    # A day without wrong PINs forgets the old ones (and keeps the file small).
    data = {k: v for k, v in data.items() if now - float(v.get("until", 0)) < FORGET_AFTER}
    count = int(data.get(address, {}).get("failures", 0)) + 1
    data[address] = {"failures": count, "until": now + lock_seconds(count, PHONE_LIMIT), "last": now}
    # The club-wide count locks nobody: past CLUB_LIMIT it only paces every address (see _wait).
    data[EVERYONE] = {"failures": int(data.get(EVERYONE, {}).get("failures", 0)) + 1, "until": now}
    return data


def attempt(folder: Path, address: str, now: float) -> float:
    """Take one PIN check for this phone, atomically: 0 when it may check the PIN now, else the seconds to wait.

    The try is counted as wrong before the PIN is checked (``succeeded`` takes it back):
    checking costs 50 ms, and 100 wrong PINs sent at once must not all pass the door
    before the first is counted.
    """
    path = folder / FILE_NAME
    with _write_lock:
        data = _read(path)
        wait = _wait(data, address, now)
        if wait > 0:
            return wait
        _write(path, _counted(data, address, now))
    return 0.0


def succeeded(folder: Path, address: str) -> None:
    """The right PIN: this phone starts counting afresh (the club-wide count too)."""
    path = folder / FILE_NAME
    with _write_lock:
        data = _read(path)
        if address in data or EVERYONE in data:
            data.pop(address, None)
            data.pop(EVERYONE, None)
            _write(path, data)


def forgive(folder: Path) -> None:
    """Forget every wrong PIN (``semedori set-pin`` at the kiosk's console: the owner's way back in)."""
    with _write_lock:
        _unsaved.pop(folder / FILE_NAME, None)
        (folder / FILE_NAME).unlink(missing_ok=True)
