"""Wrong owner PINs, counted in a small file in the data folder so a restart forgives nothing.

A 4-digit PIN has only 10,000 values. Five wrong PINs from one phone lock that phone out
for a minute, and every further wrong PIN doubles the wait (up to a day), so guessing
takes years. Twenty wrong PINs from anywhere lock every phone the same way, so a kid
cannot guess from many phones at once. The right PIN clears the counts; a day after the
last wait ends, old wrong PINs are forgotten.

The file is JSON, written to a temporary file and renamed over the old one (atomic on
POSIX): a power cut leaves the old count or the new one, never half of either.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from kiosk.files import write_atomically

FILE_NAME = "pin-failures.json"
PHONE_LIMIT, CLUB_LIMIT = 5, 20
FIRST_LOCK, LONGEST_LOCK = 60.0, 24 * 3600.0
FORGET_AFTER = 24 * 3600.0  # counted from the end of the last wait
EVERYONE = "*"  # the club-wide count
_write_lock = threading.Lock()  # waitress threads share one file


def _read(path: Path) -> dict[str, dict[str, float]]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}  # no file yet, or unreadable: start counting again (never lock the owner out for good)
    return {k: v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}


def _write(path: Path, data: dict[str, dict[str, float]]) -> None:
    write_atomically(path, json.dumps(data), mode=0o600)  # mkstemp's mode, as before


def lock_seconds(failures: int, limit: int) -> float:
    """How long ``failures`` wrong PINs lock the door: none below ``limit``, then 1, 2, 4... minutes."""
    if failures < limit:
        return 0.0
    return min(FIRST_LOCK * 2 ** min(failures - limit, 20), LONGEST_LOCK)


def seconds_left(folder: Path, address: str, now: float) -> float:
    """Seconds until this phone may try a PIN again; 0 when it may now."""
    data = _read(folder / FILE_NAME)
    return max(0.0, *(float(data.get(key, {}).get("until", 0)) - now for key in (address, EVERYONE)))


def failed(folder: Path, address: str, now: float) -> None:
    """Count a wrong PIN from this phone (and for the club), and lock when there were too many."""
    path = folder / FILE_NAME
    with _write_lock:
        _write(path, _counted(_read(path), address, now))


def _counted(data: dict[str, dict[str, float]], address: str, now: float) -> dict[str, dict[str, float]]:
    # A day without wrong PINs forgets the old ones (and keeps the file small).
    data = {k: v for k, v in data.items() if now - float(v.get("until", 0)) < FORGET_AFTER}
    for key, limit in ((address, PHONE_LIMIT), (EVERYONE, CLUB_LIMIT)):
        count = int(data.get(key, {}).get("failures", 0)) + 1
        data[key] = {"failures": count, "until": now + lock_seconds(count, limit)}
    return data


def attempt(folder: Path, address: str, now: float) -> float:
    """Take one PIN check for this phone, atomically: 0 when it may check the PIN now, else the seconds to wait.

    The try is counted as wrong before the PIN is checked (``succeeded`` takes it back):
    checking costs 50 ms, and 100 wrong PINs sent at once must not all pass the door
    before the first is counted (issue 11).
    """
    path = folder / FILE_NAME
    with _write_lock:
        data = _read(path)
        wait = max(0.0, *(float(data.get(key, {}).get("until", 0)) - now for key in (address, EVERYONE)))
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
        (folder / FILE_NAME).unlink(missing_ok=True)
