"""Backups the club can trust: nightly copies with rotation, and a restore that checks first.

A backup is only as good as the restore. ``restore`` reads the copy (read-only),
checks it thoroughly, keeps a safety copy of the database it replaces, and swaps the
file in with one rename, so the kiosk never sees half a database. The nightly timer
calls ``backup-nightly``: one consistent copy a day, the newest 14 kept.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from kiosk import backupstatus, terminal
from kiosk import config as configuration
from kiosk.catalogue import N_, translate
from kiosk.copies import (
    CopyError,
    copy_database,
    copy_leaving_no_wal,
    copy_size,
    free_space,
    is_database_family,
    sync_folder,
)
from kiosk.errors import ConfigError, HistoryError, SemedoriError
from kiosk.events import format_at, parse_line
from kiosk.replay import Replay
from kiosk.store import FIRST_USE_TABLES, LEGACY_TOURNAMENT_TABLES, MIGRATIONS, SCHEMA_VERSION, Store
from kiosk.terminal import fail

BACKUPS_FOLDER = "backups"
KEEP = 14
# Only files of exactly this form are rotated: a copy made by hand is never deleted.
NIGHTLY = re.compile(r"^semedori-(\d{4}-\d{2}-\d{2})\.sqlite3$")

MESSAGES: dict[str, str] = {
    "missing": N_("there is no backup file {path}"),
    "not-a-database": N_("{path} is not a Semedori backup (not an SQLite database)"),
    "not-semedori": N_("{path} is an SQLite database, but not a Semedori one"),
    "newer": N_("{path} comes from a newer Semedori (schema {version}); update the kiosk first"),
    "damaged": N_("{path} is damaged ({detail}); nothing was changed, try an older backup"),
    "schema": N_("{path} does not have exactly the kiosk's own tables ({detail}); nothing was changed"),
    "same-file": N_("{path} is the kiosk's own database (or its -wal/-shm file); pick a backup"),
    "in-use": N_("the kiosk is still running; stop it first: sudo systemctl stop semedori-web semedori-display"),
}


class RestoreError(SemedoriError, ValueError):
    """A backup that cannot be restored; nothing was changed."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(self.message("en"))

    def message(self, language: str = "en") -> str:
        """The message in ``language`` ('en' or 'pl')."""
        return translate(language, MESSAGES[self.code], **self.params)


@dataclass(frozen=True)
class CopyFacts:
    """What a database file holds, read without writing to it: what a restore checks."""

    problems: tuple[str, ...]  # PRAGMA integrity_check's findings
    version: int  # PRAGMA user_version
    has_history: bool  # the event table is there
    # Read only from a sound history of a known schema version:
    events: int = 0
    latest: str | None = None  # when the last event happened
    games: int | None = None  # game events, counted only when the lines were not asked for
    lines: tuple[tuple[int, str], ...] | None = None  # (entry number, line), when asked for


def inspect_copy(path: Path, lines: bool = False) -> CopyFacts:
    """Read a copy's integrity, schema and history without a write (sqlite3.DatabaseError when unreadable)."""
    # mode=ro: a check must never write, not even a journal, into the copy.
    db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
    try:
        problems = tuple(row[0] for row in db.execute("PRAGMA integrity_check") if row[0] != "ok")
        if problems:
            return CopyFacts(problems, 0, False)
        version = db.execute("PRAGMA user_version").fetchone()[0]
        has_history = bool(db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'event'").fetchone())
        if not has_history or not 1 <= version <= SCHEMA_VERSION:
            return CopyFacts(problems, version, has_history)
        events, latest = db.execute("SELECT count(*), max(at) FROM event").fetchone()
        if lines:
            rows = tuple(db.execute("SELECT seq, line FROM event ORDER BY seq"))
            return CopyFacts(problems, version, has_history, events, latest, lines=rows)
        games = db.execute("SELECT count(*) FROM event WHERE type = 'game'").fetchone()[0]
        return CopyFacts(problems, version, has_history, events, latest, games=games)
    finally:
        db.close()


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
    differences = schema_differences(path, facts.version)
    if differences:  # a trigger that drops phone inserts, a missing constraint: not a backup the kiosk made
        raise RestoreError("schema", path=path, detail="; ".join(differences[:3]))
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


# --- the exact schema ------------------------------------------------------------------------


def schema_shape(db: sqlite3.Connection) -> dict[str, Any]:
    """Every table, column, constraint, index, trigger and view of a database, in a comparable form."""
    shape: dict[str, Any] = {}
    rows = db.execute("SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
    for kind, name, table in rows:
        if kind == "table":
            quoted = name.replace('"', '""')
            columns = [tuple(row[1:]) for row in db.execute(f'PRAGMA table_xinfo("{quoted}")')]
            keys = [tuple(row[2:]) for row in db.execute(f'PRAGMA foreign_key_list("{quoted}")')]
            indexes = sorted(
                (row[1] if not row[1].startswith("sqlite_") else row[3], row[2], row[3], row[4])
                for row in db.execute(f'PRAGMA index_list("{quoted}")')
            )
            shape[f"table {name}"] = (columns, keys, indexes)
        elif kind == "index":
            quoted = name.replace('"', '""')
            shape[f"index {name}"] = (table, [tuple(row) for row in db.execute(f'PRAGMA index_xinfo("{quoted}")')])
        else:  # a trigger or a view: the kiosk creates none
            shape[f"{kind} {name}"] = table
    return shape


def expected_shape(version: int) -> dict[str, Any]:
    """The schema the kiosk itself creates at ``version``."""
    db = sqlite3.connect(":memory:")
    try:
        for target in range(1, version + 1):
            db.executescript(MIGRATIONS[target])
        return schema_shape(db)
    finally:
        db.close()


def _first_use_shape() -> dict[str, Any]:
    """The tables the kiosk creates on first use, outside the schema versions (check-ins, privacy, events)."""
    db = sqlite3.connect(":memory:")
    try:
        # An older kiosk's event tables: a copy it made has them (opening it makes them history lines).
        db.executescript(FIRST_USE_TABLES + ";" + LEGACY_TOURNAMENT_TABLES)
        return schema_shape(db)
    finally:
        db.close()


def schema_differences(path: Path, version: int) -> list[str]:
    """What a copy has that the kiosk's schema does not (or lacks), e.g. "trigger drop_games is not the kiosk's"."""
    db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
    try:
        found = schema_shape(db)
    finally:
        db.close()
    expected = expected_shape(version)
    # Tables the kiosk makes on first use (check-ins, privacy settings) may be there or not.
    optional = {k: v for k, v in _first_use_shape().items() if k not in expected}
    problems = [f"{name} is not the kiosk's" for name in sorted(set(found) - set(expected) - set(optional))]
    problems += [f"{name} differs" for name in sorted(set(found) & set(optional)) if found[name] != optional[name]]
    problems += [f"{name} is missing" for name in sorted(set(expected) - set(found))]
    problems += [f"{name} differs" for name in sorted(set(found) & set(expected)) if found[name] != expected[name]]
    return problems


# --- a damaged database at start -----------------------------------------------------------


@dataclass(frozen=True)
class Damage:
    """What is wrong with the live database, and the newest backup that reads back whole."""

    detail: str
    backup: Path | None


def quick_check(folder: Path) -> Damage | None:
    """A quick look at the live database before serving it: None when it is sound or new.

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
    staging = folder / ".restoring"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        staged = _staged_and_checked(backup_path, folder, staging)
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        if database.exists():
            safety: Path | None = _set_aside(database, stamp)
        else:
            safety = None
            _move_damaged(database, stamp)  # an orphaned -wal would be replayed onto the restored file
        os.replace(staged, database)  # the one step that changes the kiosk: all or nothing
        sync_folder(folder)
        _same_owner_as(folder, database)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return Restored(summary, safety)


def _staged_and_checked(backup_path: Path, folder: Path, staging: Path) -> Path:
    """The backup copied beside the database, opened by the real store, replayed and checked: ready to swap in.

    Everything that could fail after the swap (a migration, a replay under today's
    semedori.toml, a game without its id, a check that disagrees) fails here instead,
    while the kiosk's own database is still untouched.
    """
    staged = staging / configuration.DATABASE_NAME
    copy_database(backup_path, staged)
    verify(staged, replay=False)  # what landed on this card reads back whole
    looked = sqlite3.connect(f"file:{staged}?mode=ro", uri=True)
    try:  # every game is named by its id (void, edit and the phones' links use it): none may lack one
        nameless = looked.execute("SELECT count(*) FROM event WHERE type = 'game' AND game_id IS NULL").fetchone()[0]
    finally:
        looked.close()
    if nameless:
        raise RestoreError("damaged", path=backup_path, detail=f"{nameless} game(s) without their id")
    settings = folder / configuration.CONFIG_NAME
    if settings.exists():
        shutil.copy2(settings, staging / configuration.CONFIG_NAME)  # replay under the club's own rules
    try:
        with Store.open(staging) as store:
            # A copy from an older version migrates on opening; one replay puts the board
            # of today's semedori.toml in its cache; check() compares it with a fresh replay.
            store.rebuild()
            problems = store.check()
    except Exception as error:  # whatever the real store cannot do with this copy, it is refused
        raise RestoreError("damaged", path=backup_path, detail=f"{type(error).__name__}: {error}") from None
    if problems:
        raise RestoreError("damaged", path=backup_path, detail="; ".join(problems[:3]))
    folded = sqlite3.connect(staged, isolation_level=None)
    try:
        folded.execute("PRAGMA journal_mode=DELETE").fetchone()  # one self-contained file, no -wal beside it
    finally:
        folded.close()
    with open(staged, "rb+") as handle:
        os.fsync(handle.fileno())
    return staged


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
    """Make room, write today's consistent copy, check it reads back, then rotate; returns (copy, removed).

    The rotation counts first what the copy needs: on a card short of it, the old copies the
    rotation would delete anyway go before the copy is written; if that is not enough, CopyError says so,
    with the backups that could go, and nothing is written.
    """
    with Store.open(folder) as store:
        target = Path(to) if to else folder / BACKUPS_FOLDER
        path = target / nightly_name(datetime.now(store.config.zone))
        target.mkdir(parents=True, exist_ok=True)
        removed = _make_room(target, path, copy_size(store.db), keep, folder)
        store.backup(path)
        config = store.file_config  # the rules from the beginning: the history holds their changes
    try:
        verify(path, config)
    except RestoreError:
        # A bad copy must not push a good old one out of the rotation.
        path.unlink(missing_ok=True)
        raise
    return path, removed + backup_rotate(target, keep)


def _nightly(folder_of_backups: Path) -> list[Path]:
    """The nightly copies in a folder, oldest first (their names sort by date)."""
    return sorted(p for p in Path(folder_of_backups).iterdir() if p.is_file() and NIGHTLY.match(p.name))


def _make_room(target: Path, path: Path, needed: int, keep: int, folder: Path) -> list[Path]:
    """Delete, oldest first, the nightly copies the rotation would delete after today's, until the copy fits."""
    free = free_space(target)
    if free >= needed:
        return []
    older = [p for p in _nightly(target) if p.name != path.name]
    doomed = older[: max(0, len(older) - (keep - 1))]
    removed = []
    for old in doomed:
        if free >= needed:
            break
        size = old.stat().st_size
        old.unlink()
        removed.append(old)
        free += size
    if free < needed:
        free = free_space(target)  # what the card really says now
    if free < needed:
        spare = ", ".join(p.name for p, _ in spare_copies(folder, target)) or "-"
        raise CopyError("backup-no-space", path=path, free=free, needed=needed, spare=spare)
    return removed


def spare_copies(folder: Path, backups: Path | None = None) -> list[tuple[Path, int]]:
    """Copies the owner may delete to free the card, oldest first, with their sizes: every backup but the
    newest nightly one, and the safety copies a restore set aside."""
    backups = backups or folder / BACKUPS_FOLDER
    found: list[Path] = []
    if backups.is_dir():
        nightly = _nightly(backups)
        found += nightly[:-1]
        found += [p for p in backups.iterdir() if p.is_file() and p.suffix == ".sqlite3" and p not in nightly]
    if folder.is_dir():
        found += [p for p in folder.glob("semedori-before-restore-*.sqlite3") if p.is_file()]
        found += [p for p in folder.glob("semedori-damaged-*.sqlite3") if p.is_file()]
    sized = []
    for path in found:
        try:
            stat = path.stat()
        except OSError:
            continue
        sized.append((stat.st_mtime, path, stat.st_size))
    return [(path, size) for _, path, size in sorted(sized)]


def backup_rotate(folder_of_backups: Path, keep: int = KEEP) -> list[Path]:
    """Delete all but the newest ``keep`` nightly backups; returns what was deleted."""
    if keep < 1:
        raise ValueError("keep at least one backup")
    doomed = _nightly(folder_of_backups)[:-keep]
    for path in doomed:
        path.unlink()
    return doomed


# --- commands -------------------------------------------------------------------------------------


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
        fail(error, terminal.language(folder))
    summary, language = restored.summary, terminal.language(folder)
    said = N_("restored {path}: {events} events, {games} games, the last on {last}")
    last = summary.last or "-"
    click.echo(translate(language, said, path=path, events=summary.events, games=summary.games, last=last))
    if restored.safety is not None:
        click.echo(translate(language, "the database it replaced is kept as {path}", path=restored.safety))


def _reason(error: Exception, language: str) -> str:
    """Why a backup failed, in ``language``."""
    said = getattr(error, "message", None)
    return str(said(language)) if callable(said) else str(error)


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
        with contextlib.suppress(OSError):  # the owner's home says so; a full card may not even take this
            backupstatus.failed(folder, datetime.now(UTC), {lang: _reason(error, lang) for lang in ("en", "pl")})
        fail(error, terminal.language(folder))
    with contextlib.suppress(OSError):
        backupstatus.succeeded(folder)
    language = terminal.language(folder)
    written = translate(language, "backup written to {path}", path=path)
    click.echo(written + (translate(language, "; removed {n} old", n=len(removed)) if removed else ""))
