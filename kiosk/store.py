"""The store: the club's history in one SQLite file, the only module that touches SQLite.

The history (table ``event``) is append-only and the single source of truth. Beside
it the store keeps the replayed board (``outcome``, ``change`` and the engine state in
``cache``) so pages and the wall read it cheaply. A game appended at the end updates
the cache incrementally; anything that changes the past replays the whole history in
the same transaction, so the cache can never disagree with the history.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, MutableSet, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, date, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

from kiosk import config as configuration
from kiosk.board import Board, Change, GameResult, Magnet, Move, sort_magnets
from kiosk.config import Config
from kiosk.errors import ConfigError, HistoryError, StoreError
from kiosk.events import Event, GamePlayed, dump_line, nick_key, parse_at, parse_history, parse_line
from kiosk.handicap import EVEN, Handicap
from kiosk.replay import Replay, number_games

SCHEMA_VERSION = 1

_SCHEMA_V1 = """
CREATE TABLE event (
    seq INTEGER PRIMARY KEY,          -- entry order
    type TEXT NOT NULL,
    at TEXT NOT NULL,                 -- when it happened, local club time
    line TEXT NOT NULL,               -- the history file's line, exactly as exported
    game_id INTEGER UNIQUE,           -- games only
    key TEXT UNIQUE,                  -- idempotency key: the same key records nothing new
    origin TEXT,                      -- who entered it: a phone's token, 'owner', 'cli', 'import'
    entered TEXT NOT NULL             -- when it was entered, UTC
);
CREATE TABLE outcome (
    game_id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    seq INTEGER NOT NULL,
    size INTEGER NOT NULL,
    a_key TEXT NOT NULL,
    b_key TEXT NOT NULL,
    result TEXT NOT NULL
);
CREATE INDEX outcome_order ON outcome (at, seq);
CREATE INDEX outcome_a ON outcome (a_key);
CREATE INDEX outcome_b ON outcome (b_key);
CREATE TABLE change (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    nick_key TEXT NOT NULL,
    size INTEGER NOT NULL,
    before INTEGER,
    after INTEGER NOT NULL,
    why TEXT NOT NULL
);
CREATE INDEX change_nick ON change (nick_key);
CREATE TABLE even_pair (a TEXT NOT NULL, b TEXT NOT NULL, size INTEGER NOT NULL, PRIMARY KEY (a, b, size));
CREATE TABLE cache (name TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO cache VALUES ('counter', '0');
"""

MIGRATIONS: dict[int, str] = {1: _SCHEMA_V1}


@dataclass(frozen=True)
class Recorded:
    """What a write did: the event's entry number, the game's result, and whether it was new."""

    seq: int
    game: GameResult | None
    new: bool = True


@dataclass(frozen=True)
class Entry:
    """One history entry as the owner's audit log shows it."""

    seq: int
    line: dict[str, Any]
    origin: str | None
    entered: datetime


class Store:
    """The club's history and its replayed board in one SQLite file."""

    def __init__(self, folder: Path, connection: sqlite3.Connection, config: Config) -> None:
        self.folder = folder
        self.db = connection
        self.config = config

    # --- opening --------------------------------------------------------------------

    @classmethod
    def open(cls, folder: Path | None = None) -> Store:
        """Open (and create or migrate) the store in the data folder."""
        folder = folder or configuration.data_folder()
        folder.mkdir(parents=True, exist_ok=True)
        config = configuration.load(folder)
        if not (folder / configuration.CONFIG_NAME).exists():
            # An organiser looks for the settings next to the data: write the defaults.
            with suppress(OSError):
                configuration.save(folder, config)
        try:
            db = sqlite3.connect(folder / configuration.DATABASE_NAME, timeout=30, isolation_level=None)
            _use_wal(db)
            # An SD card losing power is the common fault: sync every commit.
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            store = cls(folder, db, config)
            store._migrate()
            store._follow_rules()
        except sqlite3.OperationalError as error:
            raise StoreError(detail=str(error)) from None
        except HistoryError as error:
            # Hand-edited settings the history cannot take (a top below a magnet, a draw
            # that would now be an even game): name the file, not a line of the history.
            db.close()
            reason = f"the history cannot be replayed with it: {error}"
            raise ConfigError(configuration.CONFIG_NAME, reason) from None
        return store

    def close(self) -> None:
        """Close the database connection."""
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _migrate(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version < SCHEMA_VERSION:
            with self._write():
                # Read again under the write lock: the web and the wall start together,
                # and the other one may have created the schema in the meantime.
                version = self.db.execute("PRAGMA user_version").fetchone()[0]
                for target in range(version + 1, SCHEMA_VERSION + 1):
                    for statement in MIGRATIONS[target].split(";"):
                        if statement.strip():
                            self.db.execute(statement)
                    self.db.execute(f"PRAGMA user_version={target}")
        if version > SCHEMA_VERSION:
            raise StoreError("store-newer", detail=f"user_version {version}")

    def _follow_rules(self) -> None:
        """Replay everything when the club changed a rule in semedori.toml since the last write."""
        row = self.db.execute("SELECT value FROM cache WHERE name = 'rules'").fetchone()
        if row is not None and row[0] != _rules_fingerprint(self.config):
            self.rebuild()

    def reload_config(self) -> Config:
        """Read semedori.toml again (after the owner changed a setting)."""
        self.config = configuration.load(self.folder)
        self._follow_rules()
        return self.config

    def save_config(self, config: Config) -> None:
        """Write semedori.toml and use it from now on; refused when the history cannot take it."""
        previous, self.config = self.config, config
        try:
            # Replay under the new rules first: a lower top or other handicap points can
            # make the history invalid (a magnet above the top, a draw now in an even
            # game), and a file saved with them would stop the store from opening.
            self._follow_rules()
        except HistoryError:
            self.config = previous
            raise
        configuration.save(self.folder, config)

    # --- transactions ----------------------------------------------------------------

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction, taken at once (BEGIN IMMEDIATE) so writers queue, not fail."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            raise StoreError(detail=str(error)) from None
        try:
            yield
            self.db.execute("COMMIT")
        except sqlite3.OperationalError as error:
            self._rollback()
            raise StoreError(detail=str(error)) from None
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")

    # --- writing ------------------------------------------------------------------------

    def record(self, event: Event, key: str | None = None, origin: str | None = None) -> Recorded:
        """Append one event; a repeated ``key`` records nothing and answers the first result."""
        with self._write():
            if key is not None:
                row = self.db.execute("SELECT seq, game_id FROM event WHERE key = ?", (key,)).fetchone()
                if row is not None:
                    return Recorded(row[0], self._outcome(row[1]) if row[1] else None, new=False)
            if isinstance(event, GamePlayed):
                highest = self.db.execute("SELECT coalesce(max(game_id), 0) FROM event").fetchone()[0]
                event = event._replace(id=highest + 1)
            # Apply exactly what the history keeps (times to the second, clean nicknames),
            # so the cached board is the one a replay of the history gives.
            event = parse_line(dump_line(event))
            seq = self._insert(event, key, origin)
            engine = self._engine()
            if engine is not None and engine.can_append(event, seq):
                result = engine.append(seq, event)
                self._save_increment(engine, result)
            else:
                self._replay_all()
                result = self._outcome(event.id) if isinstance(event, GamePlayed) else None
            self._bump()
            return Recorded(seq, result)

    def import_history(self, lines: Iterable[str | bytes], replace_history: bool = False) -> int:
        """Import a history file, all or nothing; returns the number of events."""
        events = parse_history(lines)
        Replay(self.config).run(events)  # every error, with its line, before anything is written
        with self._write():
            if self.db.execute("SELECT count(*) FROM event").fetchone()[0] and not replace_history:
                raise HistoryError("store-not-empty")
            self.db.execute("DELETE FROM event")
            for _, event in number_games(events):
                self._insert(event, None, "import")
            self._replay_all()
            self._bump()
        return len(events)

    def _insert(self, event: Event, key: str | None, origin: str | None) -> int:
        line = dump_line(event)
        game_id = event.id if isinstance(event, GamePlayed) else None
        entered = datetime.now(UTC).isoformat(timespec="seconds")
        cursor = self.db.execute(
            "INSERT INTO event (type, at, line, game_id, key, origin, entered) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (json.loads(line)["type"], event.at.isoformat(), line, game_id, key, origin, entered),
        )
        return cursor.lastrowid  # type: ignore[return-value]

    def _engine(self) -> Replay | None:
        row = self.db.execute("SELECT value FROM cache WHERE name = 'state'").fetchone()
        return Replay.from_state(self.config, json.loads(row[0]), _EvenPairs(self.db)) if row else None

    def _save_increment(self, engine: Replay, result: GameResult | None) -> None:
        if result is not None:
            self._insert_outcomes([(result, engine.cursor[1])])
        self._insert_changes(engine.changes)
        self._save_state(engine)

    def _replay_all(self) -> None:
        """Replay the whole history and rewrite every cached table from it."""
        engine = Replay(self.config)
        engine.run(self.history_entries())
        self.db.execute("DELETE FROM outcome")
        self.db.execute("DELETE FROM change")
        self.db.execute("DELETE FROM even_pair")
        self.db.executemany("INSERT INTO even_pair VALUES (?, ?, ?)", sorted(engine.even_pairs))
        positions = dict(self.db.execute("SELECT game_id, seq FROM event WHERE game_id IS NOT NULL"))
        self._insert_outcomes([(result, positions[result.id]) for result in engine.games])
        self._insert_changes(engine.changes)
        self._save_state(engine)

    def _insert_outcomes(self, results: Sequence[tuple[GameResult, int]]) -> None:
        self.db.executemany(
            "INSERT OR REPLACE INTO outcome VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    r.id,
                    r.at.isoformat(),
                    seq,
                    r.size,
                    nick_key(r.players[0]),
                    nick_key(r.players[1]),
                    json.dumps(_result_json(r), ensure_ascii=False),
                )
                for r, seq in results
            ],
        )

    def _insert_changes(self, changes: Sequence[Change]) -> None:
        # The engine names magnets by identity here; the board maps them to today's nick.
        self.db.executemany(
            "INSERT INTO change (at, nick_key, size, before, after, why) VALUES (?, ?, ?, ?, ?, ?)",
            [(c.at.isoformat(), c.nick, c.size, c.before, c.after, c.why) for c in changes],
        )

    def _save_state(self, engine: Replay) -> None:
        magnets = [_magnet_json(m) for m in engine.board_magnets()]
        self.db.execute(
            "INSERT OR REPLACE INTO cache VALUES ('state', ?), ('magnets', ?), ('rules', ?)",
            (
                json.dumps(engine.state(), ensure_ascii=False),
                json.dumps(magnets, ensure_ascii=False),
                _rules_fingerprint(self.config),
            ),
        )

    def _bump(self) -> None:
        self.db.execute("UPDATE cache SET value = CAST(value AS INTEGER) + 1 WHERE name = 'counter'")

    # --- reading -------------------------------------------------------------------------

    def change_counter(self) -> int:
        """A number that grows with every write: the wall polls it to notice a new result."""
        return int(self.db.execute("SELECT value FROM cache WHERE name = 'counter'").fetchone()[0])

    def magnets(self) -> tuple[Magnet, ...]:
        """Every magnet as it hangs now (retired ones too, flagged), in board order."""
        row = self.db.execute("SELECT value FROM cache WHERE name = 'magnets'").fetchone()
        return sort_magnets([_magnet_from(m) for m in json.loads(row[0])]) if row else ()

    def board(self, with_games: bool = False) -> Board:
        """The board now; with every game in replay order when asked."""
        games = tuple(self._outcomes("SELECT result FROM outcome ORDER BY at, seq")) if with_games else ()
        return Board(self.magnets(), games)

    def recent_games(self, limit: int = 50, nick: str | None = None) -> list[GameResult]:
        """The latest games (by when they were played), newest first; one player's when named."""
        if nick is None:
            sql, args = "SELECT result FROM outcome ORDER BY at DESC, seq DESC LIMIT ?", (limit,)
        else:
            key = nick_key(nick)
            sql = "SELECT result FROM outcome WHERE a_key = ? OR b_key = ? ORDER BY at DESC, seq DESC LIMIT ?"
            args = (key, key, limit)  # type: ignore[assignment]
        return list(self._outcomes(sql, args))

    def games_since(self, at: datetime) -> list[GameResult]:
        """The games played at or after ``at``, in replay order."""
        return list(self._outcomes("SELECT result FROM outcome WHERE at >= ? ORDER BY at, seq", (at.isoformat(),)))

    def game(self, game_id: int) -> GameResult | None:
        """One game's result as replayed; None when there is none (or it was voided)."""
        return self._outcome(game_id)

    def game_entry(self, game_id: int) -> Entry | None:
        """Who entered a game and when (the undo button and the audit log need it)."""
        row = self.db.execute("SELECT seq, line, origin, entered FROM event WHERE game_id = ?", (game_id,)).fetchone()
        return _entry(row) if row else None

    def changes_of(self, nick: str) -> list[Change]:
        """Joins, corrections and shifts of a player's magnets, in time order."""
        identity = self._identity(nick)
        rows = self.db.execute(
            "SELECT at, size, before, after, why FROM change WHERE nick_key = ? ORDER BY at, id", (identity,)
        )
        return [
            Change(datetime.fromisoformat(at), nick, size, before, after, why) for at, size, before, after, why in rows
        ]

    def merges(self) -> list[tuple[str, str]]:
        """The merges in force, oldest first: (the duplicate's own nickname, the kept player's nickname now)."""
        engine = self._engine()
        return engine.merges() if engine is not None else []

    def entries(self, limit: int = 100, types: Sequence[str] | None = None) -> list[Entry]:
        """The latest history entries, newest first (the owner's audit log)."""
        if types:
            marks = ",".join("?" * len(types))
            sql = f"SELECT seq, line, origin, entered FROM event WHERE type IN ({marks}) ORDER BY seq DESC LIMIT ?"
            rows = self.db.execute(sql, (*types, limit))
        else:
            rows = self.db.execute("SELECT seq, line, origin, entered FROM event ORDER BY seq DESC LIMIT ?", (limit,))
        return [_entry(row) for row in rows]

    def history_entries(self) -> list[tuple[int, Event]]:
        """The whole history in entry order, as (entry number, event)."""
        rows = self.db.execute("SELECT seq, line FROM event ORDER BY seq")
        return [(seq, parse_line(line)) for seq, line in rows]

    def export_lines(self) -> Iterator[str]:
        """The history file, one line per event, in entry order."""
        for (line,) in self.db.execute("SELECT line FROM event ORDER BY seq"):
            yield line

    def is_empty(self) -> bool:
        """True when nothing was ever recorded."""
        return self.db.execute("SELECT count(*) FROM event").fetchone()[0] == 0

    def _identity(self, nick: str) -> str:
        row = self.db.execute("SELECT value FROM cache WHERE name = 'state'").fetchone()
        if not row:
            return nick_key(nick)
        engine = Replay.from_state(self.config, json.loads(row[0]))
        try:
            return engine.resolve(nick)
        except HistoryError:
            return nick_key(nick)

    def _outcome(self, game_id: int | None) -> GameResult | None:
        row = self.db.execute("SELECT result FROM outcome WHERE game_id = ?", (game_id,)).fetchone()
        return _result_from(json.loads(row[0])) if row else None

    def _outcomes(self, sql: str, args: Sequence[Any] = ()) -> Iterator[GameResult]:
        for (text,) in self.db.execute(sql, args):
            yield _result_from(json.loads(text))

    # --- checks and copies -----------------------------------------------------------------

    def check(self) -> list[str]:
        """Problems found: integrity_check, and the cached board against a fresh replay."""
        problems = [row[0] for row in self.db.execute("PRAGMA integrity_check") if row[0] != "ok"]
        fresh = Replay(self.config)
        board = fresh.run(self.history_entries())
        if [_magnet_json(m) for m in board.magnets] != [_magnet_json(m) for m in self.magnets()]:
            problems.append("the stored magnets differ from a fresh replay of the history")
        stored = [json.loads(r) for (r,) in self.db.execute("SELECT result FROM outcome ORDER BY at, seq")]
        if stored != [_result_json(g) for g in board.games]:
            problems.append("the stored games differ from a fresh replay of the history")
        row = self.db.execute("SELECT value FROM cache WHERE name = 'state'").fetchone()
        if row and json.loads(row[0]) != json.loads(json.dumps(fresh.state(), ensure_ascii=False)):
            problems.append("the stored replay state differs from a fresh replay of the history")
        if set(self.db.execute("SELECT a, b, size FROM even_pair")) != fresh.even_pairs:
            problems.append("the stored even pairs differ from a fresh replay of the history")
        return problems

    def rebuild(self) -> None:
        """Replay the whole history into the cache (after a change of rules in the configuration)."""
        with self._write():
            self._replay_all()
            self._bump()

    def backup(self, path: Path) -> None:
        """An online, consistent copy of the database, synced and written atomically (its folder made if missing)."""
        _copy(self.db, Path(path))

    # --- tonight: who is here, and the pairs they refused (issue 13) ---------------------------
    # Not history: a check-in is gone when the evening is, and moves no magnet. The tables
    # are made on the first check-in, so a database of any schema version takes them.

    def check_in(self, evening: date, nick: str, origin: str | None = None) -> bool:
        """Put a player (the board's spelling) on an evening's list; False when already there."""
        with self._write():
            self._tonight_tables()
            cursor = self.db.execute(
                "INSERT OR IGNORE INTO checkin (evening, nick_key, nick, at, origin) VALUES (?, ?, ?, ?, ?)",
                (evening.isoformat(), nick_key(nick), nick, datetime.now(UTC).isoformat(timespec="seconds"), origin),
            )
            return cursor.rowcount == 1

    def check_out(self, evening: date, nick: str) -> bool:
        """Take a player off an evening's list; False when not on it."""
        if not self._has_tonight_tables():
            return False
        with self._write():
            cursor = self.db.execute(
                "DELETE FROM checkin WHERE evening = ? AND nick_key = ?", (evening.isoformat(), nick_key(nick))
            )
            return cursor.rowcount == 1

    def checked_in(self, evening: date) -> list[str]:
        """The players on an evening's list, in the order they came."""
        if not self._has_tonight_tables():
            return []
        rows = self.db.execute("SELECT nick FROM checkin WHERE evening = ? ORDER BY at, rowid", (evening.isoformat(),))
        return [nick for (nick,) in rows]

    def refuse(self, evening: date, a: str, b: str) -> None:
        """Remember that two players refused to play each other this evening."""
        first, second = sorted((nick_key(a), nick_key(b)))
        with self._write():
            self._tonight_tables()
            self.db.execute(
                "INSERT OR IGNORE INTO refusal (evening, a, b, at) VALUES (?, ?, ?, ?)",
                (evening.isoformat(), first, second, datetime.now(UTC).isoformat(timespec="seconds")),
            )

    def unrefuse(self, evening: date, a: str, b: str) -> bool:
        """Take a refusal back (a mistaken tap); False when there was none."""
        if not self._has_tonight_tables():
            return False
        first, second = sorted((nick_key(a), nick_key(b)))
        with self._write():
            cursor = self.db.execute(
                "DELETE FROM refusal WHERE evening = ? AND a = ? AND b = ?", (evening.isoformat(), first, second)
            )
            return cursor.rowcount == 1

    def refusals(self, evening: date) -> set[frozenset[str]]:
        """The pairs (nick keys) refused this evening."""
        if not self._has_tonight_tables():
            return set()
        rows = self.db.execute("SELECT a, b FROM refusal WHERE evening = ?", (evening.isoformat(),))
        return {frozenset(row) for row in rows}

    def _has_tonight_tables(self) -> bool:
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'refusal'").fetchone() is not None

    def _tonight_tables(self) -> None:
        for statement in _TONIGHT_TABLES.split(";"):
            if statement.strip():
                self.db.execute(statement)


_TONIGHT_TABLES = """
CREATE TABLE IF NOT EXISTS checkin (
    evening TEXT NOT NULL,            -- the evening's date, club time (kiosk.evening)
    nick_key TEXT NOT NULL,
    nick TEXT NOT NULL,               -- as the board spelled it then
    at TEXT NOT NULL,                 -- when, UTC
    origin TEXT,
    PRIMARY KEY (evening, nick_key)
);
CREATE TABLE IF NOT EXISTS refusal (
    evening TEXT NOT NULL,
    a TEXT NOT NULL,                  -- nick keys, a < b
    b TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (evening, a, b)
)
"""


def _use_wal(db: sqlite3.Connection) -> None:
    """Put the file in WAL mode (it stays so), waiting while another process holds the lock."""
    for _ in range(200):
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            # The web and the wall start together: on a new file both switch it to WAL at
            # once, and SQLite answers "locked" at once instead of waiting for the other.
            if error.sqlite_errorname != "SQLITE_BUSY":
                raise
            time.sleep(0.05)
    db.execute("PRAGMA journal_mode=WAL")


# --- copies and checks of database files (backups, restores) ------------------------------


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


def copy_database(source: Path, path: Path) -> None:
    """A consistent copy of the database file ``source``, opened read-only, synced and written atomically."""
    db = sqlite3.connect(f"{Path(source).resolve().as_uri()}?mode=ro", uri=True)
    try:
        _copy(db, Path(path))
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
        _copy(db, Path(path))
    finally:
        db.close()


def _copy(db: sqlite3.Connection, path: Path) -> None:
    """A copy through SQLite's backup API, self-contained (no WAL), synced, written atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)  # the first backup before an upgrade
    temporary = path.with_name(path.name + ".tmp")
    temporary.unlink(missing_ok=True)
    target = sqlite3.connect(temporary)
    try:
        db.backup(target)
        target.execute("PRAGMA journal_mode=DELETE")
    finally:
        target.close()
    # An SD card losing power is the common fault: a backup counts once it is on the card.
    with open(temporary, "rb+") as handle:
        os.fsync(handle.fileno())
    os.replace(temporary, path)
    sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """Make the renames in ``folder`` durable: a rename is only on the card once its folder is."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


# --- the cache's JSON ---------------------------------------------------------------------


def _rules_fingerprint(config: Config) -> str:
    """The settings a replay depends on; the cached board is only good for these."""
    rules = {
        str(size): [str(r.points_per_strength), str(r.clear_margin), r.training_moves]
        for size, r in sorted(config.size_rules.items())
    }
    return json.dumps({"sizes": rules, "guest_losses": config.guest_losses, "top": config.top}, sort_keys=True)


class _EvenPairs(MutableSet[tuple[str, str, int]]):
    """The replay's set of pairs that have played even, read and written in the table."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __contains__(self, pair: object) -> bool:
        row = self.db.execute("SELECT 1 FROM even_pair WHERE a = ? AND b = ? AND size = ?", pair).fetchone()  # type: ignore[arg-type]
        return row is not None

    def add(self, pair: tuple[str, str, int]) -> None:
        self.db.execute("INSERT OR IGNORE INTO even_pair VALUES (?, ?, ?)", pair)

    def discard(self, pair: tuple[str, str, int]) -> None:
        self.db.execute("DELETE FROM even_pair WHERE a = ? AND b = ? AND size = ?", pair)

    def __iter__(self) -> Iterator[tuple[str, str, int]]:
        return iter(list(self.db.execute("SELECT a, b, size FROM even_pair")))

    def __len__(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM even_pair").fetchone()[0])


def _entry(row: tuple[int, str, str | None, str]) -> Entry:
    seq, line, origin, entered = row
    return Entry(seq, json.loads(line), origin, datetime.fromisoformat(entered))


def _magnet_json(m: Magnet) -> list[Any]:
    return [m.nick, m.size, m.strength, m.status, m.retired, m.primary, m.guest_losses, m.free_loss_week]


def _magnet_from(raw: list[Any]) -> Magnet:
    nick, size, strength, status, retired, primary, losses, week = raw
    return Magnet(nick, size, strength, status, retired, primary, losses, tuple(week) if week else None)


def _result_json(r: GameResult) -> dict[str, Any]:
    by = r.by if not isinstance(r.by, Fraction) else [r.by.numerator, r.by.denominator]
    return {
        "id": r.id,
        "at": r.at.isoformat(),
        "size": r.size,
        "players": list(r.players),
        "winner": r.winner,
        "by": by,
        "white": r.white,
        "handicap": [r.handicap.even, r.handicap.moves, r.handicap.prisoners, r.handicap.training],
        "moves": {nick: [m.before, m.after, m.why] for nick, m in r.moves.items()},
        "milestones": [list(m) for m in r.milestones],
    }


def _result_from(raw: dict[str, Any]) -> GameResult:
    by = raw["by"]
    even, moves, prisoners, training = raw["handicap"]
    return GameResult(
        id=raw["id"],
        at=parse_at(raw["at"]),
        size=raw["size"],
        players=tuple(raw["players"]),  # type: ignore[arg-type]
        winner=raw["winner"],
        by=Fraction(*by) if isinstance(by, list) else by,
        white=raw["white"],
        handicap=EVEN if even else Handicap(False, moves, prisoners, training),
        moves={nick: Move(*m) for nick, m in raw["moves"].items()},
        milestones=tuple(tuple(m) for m in raw["milestones"]),
    )
