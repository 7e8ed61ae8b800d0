"""Damaging a kiosk's database as a failing SD card would (shared by the web, wall and reliability tests)."""

from __future__ import annotations

import os
import random
from pathlib import Path

from kiosk.config import DATABASE_NAME

PAGE = 4096  # SQLite's page: the unit a dying card overwrites


def damage(home: Path, how: str) -> None:
    """Damage the live database after a clean shutdown: ``empty``, ``half`` (truncated) or one ``page`` overwritten."""
    database = home / DATABASE_NAME
    for suffix in ("-wal", "-shm"):
        (home / f"{DATABASE_NAME}{suffix}").unlink(missing_ok=True)
    size = database.stat().st_size
    if how == "empty":
        database.write_bytes(b"")
    elif how == "half":
        os.truncate(database, size // 2 // PAGE * PAGE)
    else:
        with open(database, "r+b") as file:
            file.seek((size // PAGE // 2) * PAGE)
            file.write(random.Random(7).randbytes(PAGE))
