"""Backups the club can trust: nightly copies with rotation, and a restore that checks first.

A backup is only as good as the restore. ``restore`` reads the copy (read-only),
checks it thoroughly, keeps a safety copy of the database it replaces, and swaps the
file in with one rename, so the kiosk never sees half a database. The nightly timer
calls ``backup-nightly``: one consistent copy a day, the newest 14 kept.
"""

from __future__ import annotations

import os
import re
import sqlite3
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, NoReturn

import click

from kiosk import config as configuration
from kiosk.errors import ConfigError, HistoryError, SemedoriError
from kiosk.events import format_at, parse_line
from kiosk.replay import Replay
from kiosk.store import (
    SCHEMA_VERSION,
    CopyFacts,
    Store,
    copy_database,
    copy_leaving_no_wal,
    inspect_copy,
    is_database_family,
    sync_folder,
)

BACKUPS_FOLDER = "backups"
KEEP = 14
# Only files of exactly this form are rotated: a copy made by hand is never deleted.
NIGHTLY = re.compile(r"^semedori-(\d{4}-\d{2}-\d{2})\.sqlite3$")

MESSAGES: dict[str, dict[str, str]] = {
    "missing": {"en": "there is no backup file {path}", "pl": "nie ma pliku kopii {path}"},
    "not-a-database": {
        "en": "{path} is not a Semedori backup (not an SQLite database)",
        "pl": "{path} to nie kopia Semedori (to nie baza SQLite)",
    },
    "not-semedori": {
        "en": "{path} is an SQLite database, but not a Semedori one",
        "pl": "{path} to baza SQLite, ale nie Semedori",
    },
    "newer": {
        "en": "{path} comes from a newer Semedori (schema {version}); update the kiosk first",
        "pl": "{path} pochodzi z nowszej wersji Semedori (schemat {version}); najpierw zaktualizuj kiosk",
    },
    "damaged": {
        "en": "{path} is damaged ({detail}); nothing was changed, try an older backup",
        "pl": "{path} jest uszkodzona ({detail}); nic nie zmieniono, spróbuj starszej kopii",
    },
    "same-file": {
        "en": "{path} is the kiosk's own database (or its -wal/-shm file); pick a backup",
        "pl": "{path} to baza samego kiosku (lub jej plik -wal/-shm); wybierz kopię",
    },
    "in-use": {
        "en": "the kiosk is still running; stop it first: sudo systemctl stop semedori-web semedori-display",
        "pl": "kiosk nadal działa; najpierw go zatrzymaj: sudo systemctl stop semedori-web semedori-display",
    },
}


class RestoreError(SemedoriError, ValueError):
    """A backup that cannot be restored; nothing was changed."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(self.message("en"))

    def message(self, language: str = "en") -> str:
        """The message in ``language`` ('en' or 'pl')."""
        templates = MESSAGES[self.code]
        return templates.get(language, templates["en"]).format(**self.params)


@dataclass(frozen=True)
class Summary:
    """What a backup holds, so the owner can see it is the right one."""

    events: int
    games: int
    last: str | None  # when the last event happened, local club time


@dataclass(frozen=True)
class Restored:
    """What a restore put in place, and where the database it replaced is kept."""

    summary: Summary
    safety: Path | None


# --- checking a copy ----------------------------------------------------------------------


def verify(path: Path, config: configuration.Config | None = None, replay: bool = True) -> Summary:
    """Check a backup without changing it: integrity, schema, and (``replay``) a replay of its history."""
    path = Path(path)
    if not path.is_file():
        raise RestoreError("missing", path=path)
    try:
        facts = inspect_copy(path, lines=replay)
    except sqlite3.DatabaseError as error:
        if "not a database" in str(error):
            raise RestoreError("not-a-database", path=path) from None
        raise RestoreError("damaged", path=path, detail=str(error)) from None
    return _judge(facts, path, config or configuration.Config())


def _judge(facts: CopyFacts, path: Path, config: configuration.Config) -> Summary:
    """The summary of a sound copy, or the RestoreError that says what is wrong with it."""
    if facts.problems:
        raise RestoreError("damaged", path=path, detail="; ".join(facts.problems[:3]))
    if facts.version < 1 or not facts.has_history:
        raise RestoreError("not-semedori", path=path)
    if facts.version > SCHEMA_VERSION:
        raise RestoreError("newer", path=path, version=facts.version)
    last = format_at(datetime.fromisoformat(facts.latest)) if facts.latest else None
    if facts.lines is None:
        return Summary(facts.events, facts.games or 0, last)
    # Integrity says the pages are sound; only a replay says the history makes a board.
    try:
        entries = [(seq, parse_line(line)) for seq, line in facts.lines]
        games = len(Replay(config).run(entries).games)
    except HistoryError as error:
        raise RestoreError("damaged", path=path, detail=f"history {error.message('en')}") from None
    return Summary(facts.events, games, last)


# --- a damaged database at start -----------------------------------------------------------


@dataclass(frozen=True)
class Damage:
    """What is wrong with the live database, and the newest backup that reads back whole."""

    detail: str
    backup: Path | None


def quick_check(folder: Path) -> Damage | None:
    """A quick look at the live database before serving it (issue 11): None when it is sound or new.

    A 0-byte file is what a first start leaves when it is cut short, so it counts as damage
    only when the club has a good backup (then a database existed, and its data is gone).
    """
    database = Path(folder) / configuration.DATABASE_NAME
    if not database.exists():
        return None
    if database.stat().st_size == 0:
        backup = newest_good_backup(folder)
        return Damage("the database file is empty", backup) if backup else None
    try:
        db = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
        try:
            problems = [row[0] for row in db.execute("PRAGMA quick_check") if row[0] != "ok"]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if not problems and version >= 1:
                db.execute("SELECT count(*) FROM event").fetchone()  # the history table is there and reads
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        problems = [str(error)]
    if not problems:
        return None
    return Damage("; ".join(problems[:3]), newest_good_backup(folder))


def newest_good_backup(folder: Path) -> Path | None:
    """The newest nightly backup in DATA/backups that passes an integrity check, if any."""
    backups = Path(folder) / BACKUPS_FOLDER
    if not backups.is_dir():
        return None
    for path in sorted((p for p in backups.iterdir() if NIGHTLY.match(p.name)), reverse=True):
        try:
            verify(path, replay=False)
        except (RestoreError, OSError):
            continue
        return path
    return None


# --- restoring ------------------------------------------------------------------------------


def restore(backup_path: Path, folder: Path) -> Restored:
    """Put a checked backup in place of the data folder's database, keeping a safety copy of it.

    The kiosk's services must be stopped (``RestoreError('in-use')`` otherwise).
    """
    backup_path, folder = Path(backup_path), Path(folder)
    database = folder / configuration.DATABASE_NAME
    if is_database_family(backup_path, database):  # the live file, its -wal or -shm: never a backup
        raise RestoreError("same-file", path=backup_path)
    summary = verify(backup_path, _config(folder))
    folder.mkdir(parents=True, exist_ok=True)  # restoring onto a fresh card
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    if database.exists():
        safety: Path | None = _set_aside(database, stamp)
    else:
        safety = None
        _move_damaged(database, stamp)  # an orphaned -wal would be replayed onto the restored file
    staging = folder / f".{configuration.DATABASE_NAME}.restoring"
    copy_database(backup_path, staging)
    verify(staging, replay=False)  # what landed on this card reads back whole
    os.replace(staging, database)
    sync_folder(folder)
    _same_owner_as(folder, database)
    with Store.open(folder) as store:
        # A copy from an older version migrates on opening. verify() proved the history
        # replays; one replay here puts the board of today's semedori.toml in its cache.
        store.rebuild()
    return Restored(summary, safety)


def _set_aside(database: Path, stamp: str) -> Path:
    """Keep the current database as a safety copy and leave no -wal/-shm behind."""
    safety = database.with_name(f"semedori-before-restore-{stamp}.sqlite3")
    try:
        # A stale -wal beside the restored file would be replayed onto it and corrupt
        # it, so this must succeed; it fails while the kiosk has the file open.
        copy_leaving_no_wal(database, safety)
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            raise RestoreError("in-use") from None
        damaged = True
    except sqlite3.DatabaseError:
        damaged = True
    else:
        damaged = False
    if damaged:
        # Too damaged to copy: move the files aside byte for byte, for whoever investigates.
        return _move_damaged(database, stamp)
    _same_owner_as(database.parent, safety)
    return safety


def _move_damaged(database: Path, stamp: str) -> Path:
    kept = database.with_name(f"semedori-damaged-{stamp}.sqlite3")
    for suffix in ("-wal", "-shm", ""):
        part = database.with_name(database.name + suffix)
        if part.exists():
            os.replace(part, kept.with_name(kept.name + suffix))
    return kept


def _same_owner_as(folder: Path, path: Path) -> None:
    """Run as root (sudo), hand the file to the kiosk's user, or the services could not write it."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        owner = folder.stat()
        os.chown(path, owner.st_uid, owner.st_gid)


def _config(folder: Path) -> configuration.Config:
    try:
        return configuration.load(folder)
    except ConfigError:
        return configuration.Config()


# --- nightly backups ---------------------------------------------------------------------------


def nightly_name(day: datetime) -> str:
    """The file name of a day's backup; names sort by date."""
    return f"semedori-{day:%Y-%m-%d}.sqlite3"


def backup_nightly(folder: Path, to: Path | None = None, keep: int = KEEP) -> tuple[Path, list[Path]]:
    """Write today's consistent copy, check it reads back, then rotate; returns (copy, removed)."""
    with Store.open(folder) as store:
        target = Path(to) if to else folder / BACKUPS_FOLDER
        path = target / nightly_name(datetime.now(store.config.zone))
        store.backup(path)
        config = store.config
    try:
        verify(path, config)
    except RestoreError:
        # A bad copy must not push a good old one out of the rotation.
        path.unlink(missing_ok=True)
        raise
    return path, backup_rotate(target, keep)


def backup_rotate(folder_of_backups: Path, keep: int = KEEP) -> list[Path]:
    """Delete all but the newest ``keep`` nightly backups; returns what was deleted."""
    if keep < 1:
        raise ValueError("keep at least one backup")
    nightly = sorted(p for p in Path(folder_of_backups).iterdir() if p.is_file() and NIGHTLY.match(p.name))
    doomed = nightly[:-keep]
    for path in doomed:
        path.unlink()
    return doomed


# --- commands -------------------------------------------------------------------------------------


def _fail(error: SemedoriError | OSError, folder: Path) -> NoReturn:
    language = _config(folder).language
    text = error.message(language) if isinstance(error, RestoreError) else str(error)
    click.echo(f"semedori: {text}", err=True)
    sys.exit(1)


@click.command(name="restore")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--folder", type=click.Path(file_okay=False, path_type=Path), help="Data folder (default $SEMEDORI_HOME)."
)
def restore_command(path: Path, folder: Path | None) -> None:
    """Check the backup at PATH, then put it in place of the club's database (stop the kiosk first)."""
    folder = folder or configuration.data_folder()
    try:
        restored = restore(path, folder)
    except (SemedoriError, OSError) as error:
        _fail(error, folder)
    summary = restored.summary
    click.echo(f"restored {path}: {summary.events} events, {summary.games} games, the last on {summary.last or '-'}")
    if restored.safety is not None:
        click.echo(f"the database it replaced is kept as {restored.safety}")


@click.command(name="backup-nightly")
@click.option(
    "--to", type=click.Path(file_okay=False, path_type=Path), help="Folder of backups (default DATA/backups)."
)
@click.option(
    "--keep", type=click.IntRange(min=1), default=KEEP, show_default=True, help="How many daily copies to keep."
)
def backup_nightly_command(to: Path | None, keep: int) -> None:
    """Write today's backup (semedori-YYYY-MM-DD.sqlite3), check it, and keep the newest copies."""
    folder = configuration.data_folder()
    try:
        path, removed = backup_nightly(folder, to, keep)
    except (SemedoriError, OSError) as error:
        _fail(error, folder)
    click.echo(f"backup written to {path}" + (f"; removed {len(removed)} old" if removed else ""))
