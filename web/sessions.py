"""Owner sessions that can be ended: a generation number in the data folder.

A signed session cookie stays valid wherever it is copied to. Each owner login records
the current generation in its session; logging out or a new PIN (on the web or with
`semedori set-pin`) moves the generation on, which ends every owner session at once, on
every phone, even a copied cookie. A number, not a time: a Pi without a
clock battery may boot with its clock behind, and the owner must still get in.
"""

from __future__ import annotations

import threading
from pathlib import Path

from kiosk.files import write_atomically

FILE_NAME = "owner-sessions"
_lock = threading.Lock()


def generation(folder: Path) -> int:
    """The current generation of owner sessions (0 before any logout or PIN change)."""
    try:
        return int((Path(folder) / FILE_NAME).read_text().strip() or 0)
    except (OSError, ValueError):
        return 0


def end_all(folder: Path) -> int:
    """End every owner session: move the generation on (written atomically); returns the new one."""
    path = Path(folder) / FILE_NAME
    with _lock:
        new = generation(folder) + 1
        write_atomically(path, str(new), mode=0o600)  # mkstemp's mode, as before
    return new
