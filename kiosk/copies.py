"""Copies of the club's database file: through SQLite's backup API, synced to the card, written atomically.

The store's backup, the nightly backups and a restore's safety copy are all made here;
a database is never copied as a file (a copy taken mid-write would be torn).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from kiosk.files import replace_atomically

WAL_FAMILY = ("", "-wal", "-shm", "-journal")


def is_database_family(path: Path, database: Path) -> bool:
    """True when ``path`` names ``database`` or its -wal/-shm/-journal, by any path, symlink or hard link."""
    path, database = Path(path), Path(database)
    try:
        resolved, folder = path.resolve(), database.parent.resolve()
    except (OSError, RuntimeError):  # a symlink loop: not ours, and not usable either
        return False
    if resolved.parent == folder and resolved.name in {database.name + suffix for suffix in WAL_FAMILY}:
        return True
    for suffix in WAL_FAMILY:
        family = database.with_name(database.name + suffix)
        try:
            if path.exists() and family.exists() and os.path.samefile(path, family):
                return True
        except OSError:
            continue
    return False


def copy_database(source: Path, path: Path) -> None:
    """A consistent copy of the database file ``source``, opened read-only, synced and written atomically."""
    db = sqlite3.connect(f"{Path(source).resolve().as_uri()}?mode=ro", uri=True)
    try:
        write_copy(db, Path(path))
    finally:
        db.close()


def copy_leaving_no_wal(database: Path, path: Path) -> None:
    """Fold the database's -wal into it (deleting -wal and -shm), then copy it as ``copy_database`` does.

    Fails at once (sqlite3.OperationalError, "locked") while another process has the file open.
    """
    db = sqlite3.connect(database, timeout=0, isolation_level=None)
    try:
        # Leaving WAL mode folds the -wal file into the database and deletes -wal and -shm.
        db.execute("PRAGMA journal_mode=DELETE").fetchone()
        write_copy(db, Path(path))
    finally:
        db.close()


def write_copy(db: sqlite3.Connection, path: Path) -> None:
    """A copy through SQLite's backup API, self-contained (no WAL), synced, written atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)  # the first backup before an upgrade
    temporary = path.with_name(path.name + ".tmp")  # a name the backups' folder knows is not a backup
    temporary.unlink(missing_ok=True)  # left by a copy killed midway

    def copy_into(into: Path) -> None:
        target = sqlite3.connect(into)
        try:
            db.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")
        finally:
            target.close()

    # An SD card losing power is the common fault: a backup counts once it is on the card.
    replace_atomically(path, copy_into, temporary=temporary)
    sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """Make the renames in ``folder`` durable: a rename is only on the card once its folder is."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
