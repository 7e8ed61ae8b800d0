"""Copies of the club's database file: through SQLite's backup API, synced to the card, written atomically.

The store's backup, the nightly backups and a restore's safety copy are all made here;
a database is never copied as a file (a copy taken mid-write would be torn). A copy that
fails (a full card, above all) leaves nothing behind and says why (a failed
backup's ``.tmp`` and its journal had stayed on the full card, and every game after was a 503).
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from kiosk.catalogue import N_, translate
from kiosk.config import DATABASE_NAME
from kiosk.errors import HistoryError, StoreError
from kiosk.files import replace_atomically
from kiosk.scale import decimal_mark

WAL_FAMILY = ("", "-wal", "-shm", "-journal")
MEGABYTE = 1_000_000
# The copy's own journal and the card's rounding: what a copy needs beyond the database's pages.
HEADROOM = 256 * 1024

COPY_MESSAGES = {
    "copy-no-space": N_(
        "the copy {path} was not written: the card is full ({free} MB free, about {needed} MB needed); "
        "nothing was left behind"
    ),
    "copy-failed": N_("the copy {path} was not written ({detail}); nothing was left behind"),
    "backup-no-space": N_(
        "the backup {path} was not written: the card is full ({free} MB free, about {needed} MB needed). "
        "Backups that can go: {spare}"
    ),
}


def megabytes(size: int, language: str = "en") -> str:
    """A size in megabytes as the owner reads it: 0.4, 12.3, 1500 (a decimal comma in Polish)."""
    return decimal_mark(f"{size / MEGABYTE:.1f}" if size < 100 * MEGABYTE else str(round(size / MEGABYTE)), language)


class CopyError(StoreError):
    """A copy of the database that could not be written; its leftovers are gone, nothing else changed."""

    def __init__(self, code: str, **params: Any) -> None:
        self.params = params
        super().__init__(code, detail=str(params.get("detail", "")))

    def message(self, language: str = "en") -> str:
        """The message in ``language``, the sizes in megabytes."""
        sizes = {k: megabytes(v, language) for k, v in self.params.items() if k in ("free", "needed")}
        return translate(language, COPY_MESSAGES[self.code], **{**self.params, **sizes})


def free_space(folder: Path) -> int:
    """Bytes a file in ``folder`` may still take on its card (what the kiosk's user may write)."""
    return shutil.disk_usage(folder).free


def copy_size(db: sqlite3.Connection) -> int:
    """About how many bytes a copy of this database takes on the card, with its journal while written."""
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    return int(pages) * int(page_size) + HEADROOM


def no_space(error: BaseException) -> bool:
    """True when the card was full (the system's ENOSPC, or SQLite's 'database or disk is full')."""
    if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    return isinstance(error, sqlite3.Error) and (
        getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "disk is full" in str(error)
    )


def remove_leftovers(temporary: Path) -> None:
    """Delete a copy's temporary file and whatever SQLite kept beside it."""
    for suffix in WAL_FAMILY:
        temporary.with_name(temporary.name + suffix).unlink(missing_ok=True)


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


def refuse_live(path: Path, folder: Path) -> None:
    """Refuse to write a file onto the data folder's live database or its -wal/-shm/-journal.

    Every command that writes a file the owner names (`export --out`, `render --out`, `backup`)
    asks first: JSON or a PNG over the live database destroys the club's history.
    """
    if is_database_family(Path(path), Path(folder) / DATABASE_NAME):
        raise HistoryError("out-is-live", path=str(path))


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
    """A copy through SQLite's backup API, self-contained (no WAL), synced, written atomically.

    CopyError (with nothing left behind) when the card cannot take it.
    """
    temporary = path.with_name(path.name + ".tmp")  # a name the backups' folder knows is not a backup

    def copy_into(into: Path) -> None:
        target = sqlite3.connect(into)
        try:
            db.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")
        finally:
            target.close()

    try:
        path.parent.mkdir(parents=True, exist_ok=True)  # the first backup before an upgrade
        remove_leftovers(temporary)  # left by a copy killed midway
        # An SD card losing power is the common fault: a backup counts once it is on the card.
        replace_atomically(path, copy_into, temporary=temporary)
        sync_folder(path.parent)
    except (OSError, sqlite3.Error) as error:
        remove_leftovers(temporary)  # replace_atomically removes the copy; SQLite's journal beside it too
        if no_space(error):
            raise CopyError("copy-no-space", path=path, free=_free(path), needed=_needed(db)) from None
        if isinstance(error, sqlite3.Error):
            raise  # a locked or damaged database: each caller says what that means for it (a restore, a backup)
        raise CopyError("copy-failed", path=path, detail=error.strerror or str(error)) from None


def _free(path: Path) -> int:
    try:
        return free_space(path.parent)
    except OSError:
        return 0


def _needed(db: sqlite3.Connection) -> int:
    try:
        return copy_size(db)
    except sqlite3.Error:
        return 0


def sync_folder(folder: Path) -> None:
    """Make the renames in ``folder`` durable: a rename is only on the card once its folder is."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
