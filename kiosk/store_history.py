"""The history and its replayed cache (tables event, outcome, change, even_pair, cache, checkpoint).

The history (table ``event``) is append-only and the single source of truth. Beside
it the store keeps the replayed board (``outcome``, ``change`` and the engine state in
``cache``) so pages and the wall read it cheaply. A game appended at the end updates
the cache incrementally; anything that changes the past replays in the same
transaction, so the cache can never disagree with the history.

Checkpoints (table ``checkpoint``) hold the replay state after every
``Store.checkpoint_every`` games. An event dated in the past (a result sent minutes
after the form was opened, a game entered the next morning), and a void or edit, replay
from the last checkpoint before the earliest point they touch and rewrite only the
cached games, changes, even pairs and checkpoints after it. Renames, merges, unmerges
and changed rules replay the whole history.

``History`` runs its SQL on the store's one connection and takes no lock of its own:
``kiosk.store.Store``, the unit of work, opens the write transaction around each write
and commits it together with the change counter.
"""

from __future__ import annotations

import json
import sqlite3
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableSet, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, date, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol

from kiosk.board import Board, Change, GameResult, Magnet, Move, sort_magnets
from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.events import (
    RATED,
    Edit,
    Event,
    GamePlayed,
    Merge,
    PlayerAdded,
    Rename,
    RuleChange,
    Shift,
    Unmerge,
    Void,
    dump_line,
    iter_history,
    kind_of,
    nick_key,
    parse_at,
    parse_line,
)
from kiosk.handicap import EVEN, Handicap
from kiosk.replay import Replay, iter_numbered
from kiosk.rulechanges import check_date, end_of, rules_json, same_rules

SCHEMA_VERSION = 3
IMPORT_PATTERN = "semedori-import-*.sqlite3*"  # the scratch databases of imports, beside the store

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

# Version 2: checkpoints, and the entry number beside each cached row so the cache can be
# cut at a checkpoint. The cached rows of version 1 lack it: the store replays once.
_SCHEMA_V2 = """
ALTER TABLE change ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
CREATE INDEX change_order ON change (at, seq);
ALTER TABLE even_pair ADD COLUMN at TEXT NOT NULL DEFAULT '';
ALTER TABLE even_pair ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
CREATE INDEX even_pair_order ON even_pair (at, seq);
CREATE INDEX event_order ON event (at, seq);
CREATE TABLE checkpoint (
    at TEXT NOT NULL,                 -- the last timeline event it includes: its time
    seq INTEGER NOT NULL,             -- and its entry number
    state BLOB NOT NULL,              -- Replay.snapshot() as JSON, zlib-compressed
    PRIMARY KEY (at, seq)
);
"""

# Version 3: the evenings' events are history lines; this index finds an event's lines and the
# games tapped on its boards among a long history's games (kiosk.store_tournaments).
_SCHEMA_V3 = """
CREATE INDEX IF NOT EXISTS event_tournament ON event (json_extract(line, '$.tournament'), seq)
    WHERE json_extract(line, '$.tournament') IS NOT NULL;
"""

MIGRATIONS: dict[int, str] = {1: _SCHEMA_V1, 2: _SCHEMA_V2, 3: _SCHEMA_V3}

# Events the second pass applies in time order; the rest rewrite the history as a whole.
_TIMELINE_TYPES = ("player", "correction", "shift", "retire", "restore", "primary", "note", "rules")
_AFTER = "(at, seq) > (?, ?)"  # after a cursor (time, entry number); a row value the indexes serve


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


class Tuning(Protocol):
    """How often the replay takes checkpoints, and when a partial replay gives way to the whole one (``Store``)."""

    checkpoint_every: int
    partial_limit: int
    dense_games: int


class Settings(Protocol):
    """Where the rules from the beginning come from (``kiosk.store_settings.Settings``)."""

    @property
    def file_config(self) -> Config: ...


class History:
    """The club's history and its replayed board, on the store's connection (the store holds the lock)."""

    def __init__(self, db: sqlite3.Connection, settings: Settings, tuning: Tuning) -> None:
        self.db = db
        self.settings = settings
        self.tuning = tuning

    @property
    def file_config(self) -> Config:
        """semedori.toml as read: its rules are those in force from the beginning of the history."""
        return self.settings.file_config

    @property
    def checkpoint_every(self) -> int:
        return self.tuning.checkpoint_every

    @property
    def partial_limit(self) -> int:
        return self.tuning.partial_limit

    @property
    def dense_games(self) -> int:
        return self.tuning.dense_games

    # --- the schema ----------------------------------------------------------------------

    def version(self) -> int:
        """The schema version of the file (``PRAGMA user_version``)."""
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    def migrate(self, version: int) -> None:
        """Bring the schema from ``version`` up to ``SCHEMA_VERSION`` (in the caller's write transaction)."""
        for target in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[target].split(";"):
                if statement.strip():
                    self.db.execute(statement)
            self.db.execute(f"PRAGMA user_version={target}")
        if 1 <= version < SCHEMA_VERSION and not self.is_empty():
            # The cached rows of an older version lack what checkpoints need.
            self.replay_all()

    def stored_fingerprint(self) -> str | None:
        """The rules fingerprint the cache was replayed under; None before the first write."""
        row = self.db.execute("SELECT value FROM cache WHERE name = 'rules'").fetchone()
        return row[0] if row is not None else None

    def rules_now(self) -> str:
        """The rules in force now as JSON, when rule changes made them differ from semedori.toml's; else ''."""
        row = self.db.execute("SELECT value FROM cache WHERE name = 'rules_now'").fetchone()
        return str(row[0]) if row else ""

    def has_rule_changes(self) -> bool:
        """True when the history holds a dated rule change."""
        return self.db.execute("SELECT 1 FROM event WHERE type = 'rules' LIMIT 1").fetchone() is not None

    # --- writing (inside the store's write transaction) -------------------------------------

    def record(self, event: Event, key: str | None = None, origin: str | None = None) -> Recorded:
        """Append one event; a repeated ``key`` records nothing and answers the first result."""
        first = self.recorded_with(key)
        if first is not None:
            return first
        if isinstance(event, GamePlayed):
            highest = self.db.execute("SELECT coalesce(max(game_id), 0) FROM event").fetchone()[0]
            event = event._replace(id=highest + 1)
        # Apply exactly what the history keeps (times to the second, clean nicknames),
        # so the cached board is the one a replay of the history gives.
        event = parse_line(dump_line(event))
        seq = self._insert(event, key, origin)
        row = self.db.execute("SELECT value FROM cache WHERE name = 'state'").fetchone()
        state = json.loads(row[0]) if row else None
        engine = Replay.from_state(self.file_config, state, _EvenPairs(self.db)) if state else None
        if engine is not None and engine.can_append(event, seq):
            result = engine.append(seq, event)
            self._save_increment(engine, result)
        else:
            if state is None or not self._replay_partly(event, seq, state):
                self.replay_all()
            result = self._outcome(event.id) if isinstance(event, GamePlayed) else None
        return Recorded(seq, result)

    # --- one game, one record ---------------------------------------------------

    def recorded_with(self, key: str | None) -> Recorded | None:
        """What the event first recorded with ``key`` did; None for a new key (or none)."""
        if key is None:
            return None
        row = self.db.execute("SELECT seq, game_id FROM event WHERE key = ?", (key,)).fetchone()
        return Recorded(row[0], self._outcome(row[1]) if row[1] else None, new=False) if row is not None else None

    def games_of_pair(self, size: int, a: str, b: str, since: datetime) -> list[tuple[GameResult, Entry]]:
        """The standing games of two players on a size entered at or after ``since`` (UTC), newest entry first.

        Read back from the newest entry, stopping at the first one entered before ``since`` (entries are
        numbered as they are entered) or imported (an import is the oldest part of the history): a
        club's last half hour is a few dozen lines, whatever the history's length, and this runs under
        the write lock of the game that asks.
        """
        pair = {nick_key(a), nick_key(b)}
        cutoff = since.astimezone(UTC).isoformat(timespec="seconds")
        found = []
        rows = self.db.execute("SELECT seq, game_id, line, origin, entered FROM event ORDER BY seq DESC")
        for seq, game_id, line, origin, entered in rows:
            if entered < cutoff or origin == "import":
                break
            if game_id is None:
                continue
            result = self._outcome(game_id)  # as it stands now (edited), or None when voided
            if result is not None and result.size == size and {nick_key(p) for p in result.players} == pair:
                found.append((result, _entry((seq, line, origin, entered))))
        return found

    def confirmed(self, games: Sequence[GameResult]) -> set[int]:
        """Which of these games a second phone confirmed ("yes, same game") with no edit entered since."""
        if not games:
            return set()
        wanted = {g.id for g in games}
        # A confirmation and an edit are dated when they are entered, never before the game was played.
        since = min(g.at for g in games).isoformat()
        last: dict[int, str] = {}
        rows = self.db.execute(
            "SELECT type, line FROM event WHERE at >= ? AND type IN ('confirm', 'edit') ORDER BY seq", (since,)
        )
        for kind, line in rows:
            game = json.loads(line)["game"]
            if game in wanted:
                last[game] = kind
        return {game for game, kind in last.items() if kind == "confirm"}

    # --- importing ---------------------------------------------------------------------------

    @staticmethod
    def remove_stale_imports(folder: Path) -> None:
        """Remove the scratch databases of imports killed midway, over an hour ago."""
        for leftover in folder.glob(IMPORT_PATTERN):
            with suppress(OSError):
                if time.time() - leftover.stat().st_mtime > 3600:
                    leftover.unlink()

    def take_staged(self) -> None:
        """Replace the history and its cache by those of the attached database ``staged`` (an import)."""
        for table in ("event", "outcome", "change", "even_pair", "checkpoint"):
            self.db.execute(f"DELETE FROM main.{table}")
            self.db.execute(f"INSERT INTO main.{table} SELECT * FROM staged.{table}")
        self.db.execute("INSERT OR REPLACE INTO main.cache SELECT * FROM staged.cache WHERE name != 'counter'")

    def insert_lines(self, lines: Iterable[str | bytes], now: datetime) -> int:
        """Insert a history file's events one line at a time; the number of events.

        ``now`` is the club's wall clock: a dated rule change obeys the owner page's limits in a
        file too (docs/rules.md §8), not before the latest shift or rule change above it, not later than now.
        """
        entered = datetime.now(UTC).isoformat(timespec="seconds")
        last: list[Any] = [None]
        latest: list[datetime | None] = [None]  # the latest shift or rule change so far, in file order

        def rows() -> Iterator[tuple[Any, ...]]:
            for number, event in iter_numbered(iter_history(lines)):
                if isinstance(event, RuleChange):
                    try:
                        check_date(event.at, latest[0], now)
                    except HistoryError as error:
                        raise error.at_line(number) from None
                if isinstance(event, RuleChange | Shift) and (latest[0] is None or event.at > latest[0]):
                    latest[0] = event.at
                line = dump_line(event)
                game_id = event.id if isinstance(event, GamePlayed) else None
                last[0] = (number, game_id)
                yield number, kind_of(event), event.at.isoformat(), line, game_id, None, "import", entered

        try:
            self.db.executemany("INSERT INTO event VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows())
        except sqlite3.IntegrityError:
            number, game_id = last[0]
            raise HistoryError("duplicate-id", game=game_id).at_line(number) from None
        return int(self.db.execute("SELECT count(*) FROM event").fetchone()[0])

    def _insert(self, event: Event, key: str | None, origin: str | None) -> int:
        line = dump_line(event)
        game_id = event.id if isinstance(event, GamePlayed) else None
        entered = datetime.now(UTC).isoformat(timespec="seconds")
        cursor = self.db.execute(
            "INSERT INTO event (type, at, line, game_id, key, origin, entered) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (json.loads(line)["type"], event.at.isoformat(), line, game_id, key, origin, entered),
        )
        seq = cursor.lastrowid
        assert seq is not None  # an INSERT always sets it
        return seq

    def engine(self) -> Replay | None:
        row = self.db.execute("SELECT value FROM cache WHERE name = 'state'").fetchone()
        return Replay.from_state(self.file_config, json.loads(row[0]), _EvenPairs(self.db)) if row else None

    def _save_increment(self, engine: Replay, result: GameResult | None) -> None:
        if result is not None:
            self._insert_outcomes([(result, engine.cursor[1])])
        self._insert_changes(engine)
        self._insert_even_pairs(engine)
        last = self.db.execute("SELECT at, seq FROM checkpoint ORDER BY at DESC, seq DESC LIMIT 1").fetchone()
        since = "SELECT count(*) FROM outcome" + (f" WHERE {_AFTER}" if last else "")
        if self.db.execute(since, tuple(last or ())).fetchone()[0] >= self.checkpoint_every:
            self._insert_checkpoints([engine.snapshot()])
        self._save_state(engine)

    def replay_all(self) -> None:
        """Replay the whole history and rewrite every cached table from it.

        Games and checkpoints are written as the replay makes them, a thousand at a
        time, so a long history's results are never all held in memory.
        """
        for table in ("outcome", "change", "even_pair", "checkpoint"):
            self.db.execute(f"DELETE FROM {table}")
        engine = Replay(self.file_config)
        engine.checkpoint_every = self.checkpoint_every
        # Dense checkpoints only for the latest games, where late results land.
        games = self.db.execute("SELECT count(*) FROM event WHERE type = 'game'").fetchone()[0]
        engine.sparse_games = games - self.dense_games
        # A game is appended while the engine's cursor is on it: its entry number is there.
        outcomes = _Sink(self._insert_outcomes, lambda result: (result, engine.cursor[1]))
        # Packed as they come: a snapshot in Python objects is a hundred times its packed size.
        checkpoints = _Sink(self._insert_packed, _packed_row)
        # The sinks stand in for the engine's lists (it only appends to them during the run).
        engine.games, engine.checkpoints = outcomes, checkpoints  # type: ignore[assignment]  # list-alikes: see above
        # Two streams from the table, entry order and time order (the event_order index):
        # the history is never held whole, whatever its length.
        settling = "SELECT seq, line FROM event WHERE type IN ('player', 'rename', 'merge', 'unmerge', 'void', 'edit')"
        marks = ",".join("?" * len(_TIMELINE_TYPES))
        in_time = f"SELECT seq, line FROM event WHERE type IN ('game', {marks}) ORDER BY at, seq"
        engine.run_streamed(
            ((seq, parse_line(line)) for seq, line in self.db.execute(settling + " ORDER BY seq")),
            ((seq, parse_line(line)) for seq, line in self.db.execute(in_time, _TIMELINE_TYPES)),
            self._entered_before,
            self._games_before,
        )
        outcomes.flush()
        checkpoints.flush()
        engine.games, engine.checkpoints = [], []
        self._save_replayed(engine, {})

    def _save_replayed(self, engine: Replay, positions: dict[int, int]) -> None:
        self._insert_outcomes([(result, positions[result.id]) for result in engine.games])
        self._insert_changes(engine)
        self._insert_even_pairs(engine)
        self._insert_checkpoints(engine.checkpoints)
        self._save_state(engine)

    def _entered_before(self, game_id: int, position: int) -> int | None:
        row = self.db.execute("SELECT seq FROM event WHERE game_id = ? AND seq < ?", (game_id, position)).fetchone()
        return row[0] if row else None

    def _games_before(self, position: int) -> Iterator[GamePlayed]:
        rows = self.db.execute("SELECT line FROM event WHERE type = 'game' AND seq < ? ORDER BY seq", (position,))
        for (line,) in rows:
            game = parse_line(line)
            assert isinstance(game, GamePlayed)  # the rows are games
            yield game

    def _replay_partly(self, event: Event, seq: int, state: dict[str, Any]) -> bool:
        """Replay from the last checkpoint before what ``event`` touches; False when it cannot be done so.

        A timeline event touches its own time; a void its game's, an edit the earlier of the
        game's old and new time. Names and merges are the same before and after all three,
        so the state of now holds them. Anything the history cannot take falls back to the
        whole replay, which names the line.
        """
        # Long: where the cut is, what to drop, the replay from the checkpoint and the rewrite after it share one
        # transaction's state; apart they would pass it all along.
        drop: int | None = None
        added: list[tuple[datetime, int, Event]] = []
        if isinstance(event, Void | Edit):
            row = self.db.execute("SELECT at, seq FROM outcome WHERE game_id = ?", (event.game,)).fetchone()
            if row is None:
                return False
            drop, start = event.game, (parse_at(row[0]), row[1])
            if isinstance(event, Edit):
                c = event.corrected
                added.append((c.at, row[1], c._replace(id=event.game)))
                start = min(start, (c.at, row[1]))
        elif isinstance(event, Merge | Unmerge | Rename):
            return False
        else:
            start = (event.at, seq)
            added.append((event.at, seq, event))
        at = start[0].isoformat()
        row = self.db.execute(
            "SELECT at, seq, state FROM checkpoint WHERE (at, seq) < (?, ?) ORDER BY at DESC, seq DESC LIMIT 1",
            (at, start[1]),
        ).fetchone()
        if row is None:
            return False
        cursor = (row[0], row[1])
        following = self.db.execute(f"SELECT count(*) FROM outcome WHERE {_AFTER}", cursor).fetchone()[0]
        if following > self.partial_limit:
            return False  # far in the past: the whole replay streams, this would hold every game after it
        timeline = added
        positions = {e.id: p for _, p, e in added if isinstance(e, GamePlayed) and e.id is not None}
        cached: dict[int, dict[str, Any]] = {}  # the cached results after the checkpoint, by game id
        for position, text in self.db.execute(f"SELECT seq, result FROM outcome WHERE {_AFTER}", cursor):
            raw = json.loads(text)
            played = _game_from(raw)
            cached[raw["id"]] = raw
            if played.id != drop:
                timeline.append((played.at, position, played))
                positions[raw["id"]] = position
        marks = ",".join("?" * len(_TIMELINE_TYPES))
        sql = f"SELECT seq, line FROM event WHERE type IN ({marks}) AND {_AFTER}"
        for position, line in self.db.execute(sql, (*_TIMELINE_TYPES, *cursor)):
            if position != seq:
                other = parse_line(line)
                timeline.append((other.at, position, other))
        timeline.sort(key=lambda item: (item[0], item[1]))
        for table in ("change", "even_pair", "checkpoint"):
            self.db.execute(f"DELETE FROM {table} WHERE {_AFTER}", cursor)
        engine = Replay.resume(self.file_config, state, _unpack(row[2]), _EvenPairs(self.db))
        engine.checkpoint_every = self.checkpoint_every
        try:
            if isinstance(event, PlayerAdded):
                engine.register(event.nick)
            engine.run_timeline(timeline)
        except HistoryError:
            return False
        # Most games after a late one come out as they were (other players): rewrite only those that changed.
        fresh = {r.id: _result_json(r) for r in engine.games}
        self.db.executemany("DELETE FROM outcome WHERE game_id = ?", [(n,) for n in cached if n not in fresh])
        changed = [(r, positions[r.id]) for r in engine.games if cached.get(r.id) != fresh[r.id]]
        self._insert_outcomes(changed, fresh)
        engine.games = []
        self._save_replayed(engine, positions)
        return True

    def _insert_outcomes(
        self, results: Sequence[tuple[GameResult, int]], made: dict[int, dict[str, Any]] | None = None
    ) -> None:
        made = made or {}
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
                    json.dumps(made.get(r.id) or _result_json(r), ensure_ascii=False),
                )
                for r, seq in results
            ],
        )

    def _insert_changes(self, engine: Replay) -> None:
        # The engine names magnets by identity here; the board maps them to today's nick.
        self.db.executemany(
            "INSERT INTO change (at, nick_key, size, before, after, why, seq) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (c.at.isoformat(), c.nick, c.size, c.before, c.after, c.why, seq)
                for c, seq in zip(engine.changes, engine.change_seqs, strict=True)
            ],
        )

    def _insert_even_pairs(self, engine: Replay) -> None:
        self.db.executemany(
            "INSERT OR IGNORE INTO even_pair (a, b, size, at, seq) VALUES (?, ?, ?, ?, ?)",
            [(*pair, at.isoformat(), seq) for pair, (at, seq) in engine.even_added],
        )

    def _insert_checkpoints(self, snapshots: Sequence[dict[str, Any]]) -> None:
        self._insert_packed([_packed_row(s) for s in snapshots])

    def _insert_packed(self, rows: Sequence[tuple[str, int, bytes]]) -> None:
        self.db.executemany("INSERT OR REPLACE INTO checkpoint VALUES (?, ?, ?)", rows)

    def _save_state(self, engine: Replay) -> None:
        magnets = [_magnet_json(m) for m in engine.board_magnets()]
        self.db.execute(
            "INSERT OR REPLACE INTO cache VALUES ('state', ?), ('magnets', ?), ('rules', ?), ('rules_now', ?)",
            (
                json.dumps(engine.state(), ensure_ascii=False),
                json.dumps(magnets, ensure_ascii=False),
                rules_fingerprint(self.file_config),
                # The rules in force now, when a rule change made them differ from semedori.toml's.
                "" if same_rules(engine.config, self.file_config) else json.dumps(rules_json(engine.config)),
            ),
        )

    # --- reading -------------------------------------------------------------------------

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
        args: tuple[str | int, ...]
        if nick is None:
            sql, args = "SELECT result FROM outcome ORDER BY at DESC, seq DESC LIMIT ?", (limit,)
        else:
            key = nick_key(nick)
            sql = "SELECT result FROM outcome WHERE a_key = ? OR b_key = ? ORDER BY at DESC, seq DESC LIMIT ?"
            args = (key, key, limit)
        return list(self._outcomes(sql, args))

    def games_page(
        self,
        limit: int = 50,
        before: int | None = None,
        nick: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[GameResult]:
        """A page of games, newest first: after game ``before`` in that order (a cursor that new
        games do not shift), one player's when named, played in [since, until) when given."""
        where: list[str] = []
        args: list[Any] = []
        if before is not None:
            row = self.db.execute("SELECT at, seq FROM outcome WHERE game_id = ?", (before,)).fetchone()
            if row is None:
                return []
            where.append("(at < ? OR (at = ? AND seq < ?))")
            args += [row[0], row[0], row[1]]
        if nick is not None:
            where.append("(a_key = ? OR b_key = ?)")
            args += [nick_key(nick), nick_key(nick)]
        if since is not None:
            where.append("at >= ?")
            args.append(since.isoformat())
        if until is not None:
            where.append("at < ?")
            args.append(until.isoformat())
        sql = "SELECT result FROM outcome" + (" WHERE " + " AND ".join(where) if where else "")
        return list(self._outcomes(sql + " ORDER BY at DESC, seq DESC LIMIT ?", (*args, limit)))

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
        identity = self.identity(nick)
        rows = self.db.execute(
            "SELECT at, size, before, after, why FROM change WHERE nick_key = ? ORDER BY at, seq, id", (identity,)
        )
        return [
            Change(datetime.fromisoformat(at), nick, size, before, after, why) for at, size, before, after, why in rows
        ]

    def merges(self) -> list[tuple[str, str]]:
        """The merges in force, oldest first: (the duplicate's own nickname, the kept player's nickname now)."""
        engine = self.engine()
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
        return bool(self.db.execute("SELECT count(*) FROM event").fetchone()[0] == 0)

    def refuse_before_joining(self, game: GamePlayed) -> None:
        """A game dated before one of its players joined is refused without the write lock.

        A replay would refuse it too ("unknown player"), but only after replaying from the game's
        date under the lock, which a script looping such posts would hold for the phones. Read
        only and cautious: where merges were ever made, the replay alone decides.
        """
        latest = self.db.execute(
            "SELECT max(coalesce((SELECT max(at) FROM outcome), ''), coalesce((SELECT max(at) FROM change), ''))"
        ).fetchone()[0]
        if not latest or parse_at(latest) <= game.at:
            return  # nothing after it: appending it checks it at no cost
        if self.db.execute("SELECT 1 FROM event WHERE type IN ('merge', 'unmerge') LIMIT 1").fetchone():
            return
        for nick in game.players:
            row = self.db.execute(
                "SELECT min(at) FROM change WHERE nick_key = ? AND why = 'joined'", (self.identity(nick),)
            ).fetchone()
            if row[0] is not None and parse_at(row[0]) > game.at:
                raise HistoryError("not-on-board-yet", nick=nick)

    def join_order(self, display: Mapping[str, str]) -> dict[str, int]:
        """Each player's first joining entry (its entry number), by the key of their nickname now (``display``)."""
        rows = self.db.execute("SELECT nick_key, min(seq) FROM change WHERE why = 'joined' GROUP BY nick_key")
        return {nick_key(display.get(identity, identity)): seq for identity, seq in rows}

    def identity(self, nick: str) -> str:
        row = self.db.execute("SELECT value FROM cache WHERE name = 'state'").fetchone()
        if not row:
            return nick_key(nick)
        engine = Replay.from_state(self.file_config, json.loads(row[0]))
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

    # --- rule changes and the board as of a date ---------------------------------

    def rule_changes(self) -> list[RuleChange]:
        """The history's rule changes, in entry order."""
        rows = self.db.execute("SELECT line FROM event WHERE type = 'rules' ORDER BY seq")
        return [event for (line,) in rows if isinstance(event := parse_line(line), RuleChange)]  # all are, by the query

    def last_shift_or_rule_change(self) -> datetime | None:
        """When the latest shift or rule change happened (a new rule change may not be dated before it)."""
        row = self.db.execute("SELECT max(at) FROM event WHERE type IN ('shift', 'rules')").fetchone()
        return datetime.fromisoformat(row[0]) if row[0] else None

    def board_at(self, day: date) -> tuple[tuple[Magnet, ...], Config]:
        """The magnets and the rules in force at the end of ``day`` (club time), written nowhere.

        Replays from the last checkpoint before the day's end, else from the beginning;
        names, voids and edits are those of the whole history, as every replay settles them.
        """
        engine = self._replay_read(end_of(day))
        return (engine.board_magnets(), engine.config) if engine is not None else ((), self.file_config)

    def preview_rule_change(self, change: RuleChange) -> tuple[Magnet, ...]:
        """The magnets as they would hang now had ``change`` been recorded; nothing is written.

        The same replay as recording it (from the checkpoint before its date), read only.
        HistoryError when the history cannot take it.
        """
        engine = self._replay_read(None, change)
        return engine.board_magnets() if engine is not None else ()

    def _replay_read(self, end: datetime | None, added: RuleChange | None = None) -> Replay | None:
        """A replay from the checkpoint before ``end`` (or before ``added``, entered after everything) up to ``end``."""
        self.db.execute("BEGIN")  # one snapshot of the file for every read below
        try:
            row = self.db.execute("SELECT value FROM cache WHERE name = 'state'").fetchone()
            if row is None:
                return None
            state = json.loads(row[0])
            position = self.db.execute("SELECT coalesce(max(seq), 0) + 1 FROM event").fetchone()[0]
            latest = "ORDER BY at DESC, seq DESC LIMIT 1"
            args: tuple[Any, ...]
            if added is not None:  # the checkpoint before it, as recording it would replay
                where, args = "(at, seq) < (?, ?)", (added.at.isoformat(), position)
            else:
                where, args = "at < ?", ((end or datetime.max).isoformat(),)
            found = self.db.execute(f"SELECT at, seq, state FROM checkpoint WHERE {where} {latest}", args).fetchone()
            if found is None:
                start: dict[str, Any] = {"players": {}, "cursor": [datetime.min.isoformat(), 0], "next_game_id": 1}
                cursor: tuple[str, int] = (datetime.min.isoformat(), 0)
            else:
                start, cursor = _unpack(found[2]), (found[0], found[1])
            engine = Replay.resume(self.file_config, state, start)
            items: list[tuple[datetime, int, Event]] = [] if added is None else [(added.at, position, added)]
            window = f"{_AFTER} AND at < ?"
            bounds = (*cursor, (end or datetime.max).isoformat())
            for seq, text in self.db.execute(f"SELECT seq, result FROM outcome WHERE {window}", bounds):
                played = _game_from(json.loads(text))
                items.append((played.at, seq, played))
            marks = ",".join("?" * len(_TIMELINE_TYPES))
            sql = f"SELECT seq, line FROM event WHERE type IN ({marks}) AND {window}"
            for seq, line in self.db.execute(sql, (*_TIMELINE_TYPES, *bounds)):
                event = parse_line(line)
                items.append((event.at, seq, event))
        finally:
            self.db.execute("COMMIT")
        items.sort(key=lambda item: (item[0], item[1]))
        engine.run_timeline(items)
        return engine

    # --- checks and copies -----------------------------------------------------------------

    # --- checks ---------------------------------------------------------------------------

    def check(self, in_force: Config) -> list[str]:
        """Problems found: integrity_check; the cached board, games, changes and checkpoints against a fresh replay.

        ``in_force``: the rules in force now as the store reads them from the cache (``Store.config``).
        """
        problems = [row[0] for row in self.db.execute("PRAGMA integrity_check") if row[0] != "ok"]
        fresh = Replay(self.file_config)
        stored_checkpoints = {
            (parse_at(at), seq): _unpack(state) for at, seq, state in self.db.execute("SELECT * FROM checkpoint")
        }
        fresh.snapshot_at = set(stored_checkpoints)
        board = fresh.run(self.history_entries())
        if [_magnet_json(m) for m in board.magnets] != [_magnet_json(m) for m in self.magnets()]:
            problems.append("the stored magnets differ from a fresh replay of the history")
        stored = [json.loads(r) for (r,) in self.db.execute("SELECT result FROM outcome ORDER BY at, seq")]
        if stored != [_result_json(g) for g in board.games]:
            problems.append("the stored games differ from a fresh replay of the history")
        row = self.db.execute("SELECT value FROM cache WHERE name = 'state'").fetchone()
        if row and json.loads(row[0]) != json.loads(json.dumps(fresh.state(), ensure_ascii=False)):
            problems.append("the stored replay state differs from a fresh replay of the history")
        if not same_rules(in_force, fresh.config):
            problems.append("the stored rules in force differ from a fresh replay of the history")
        pairs = {(*pair, at.isoformat(), seq) for pair, (at, seq) in fresh.even_added}
        if set(self.db.execute("SELECT a, b, size, at, seq FROM even_pair")) != pairs:
            problems.append("the stored even pairs differ from a fresh replay of the history")
        changes = [
            (c.at.isoformat(), c.nick, c.size, c.before, c.after, c.why, seq)
            for c, seq in zip(fresh.changes, fresh.change_seqs, strict=True)
        ]
        sql = "SELECT at, nick_key, size, before, after, why, seq FROM change ORDER BY at, seq, id"
        if list(self.db.execute(sql)) != changes:
            problems.append("the stored changes differ from a fresh replay of the history")
        for cursor, state in stored_checkpoints.items():
            if cursor not in fresh.snapshots or state != json.loads(json.dumps(fresh.snapshots[cursor])):
                at, seq = cursor
                problems.append(f"the checkpoint at {at.isoformat()} (entry {seq}) differs from a fresh replay")
                break
        return problems


# --- the cache's JSON ---------------------------------------------------------------------


# The layout of the cached replay state: a cache of another layout is replayed afresh on opening.
# (2: a magnet's state lost its unused "created".)
CACHE_LAYOUT = 2


def rules_fingerprint(config: Config) -> str:
    """The settings a replay depends on, and the cache's layout; the cached board is only good for these."""
    rules = {
        str(size): [str(r.points_per_strength), str(r.clear_margin), r.training_moves]
        for size, r in sorted(config.size_rules.items())
    }
    # "active": the cache of a store written before magnets kept their last activity (sleepers) is replayed once;
    # "layout": the cache's own layout (CACHE_LAYOUT), so an older release's cache is replayed afresh once too.
    fingerprint = {
        "sizes": rules,
        "guest_losses": config.guest_losses,
        "top": config.top,
        "active": 1,
        "layout": CACHE_LAYOUT,
    }
    return json.dumps(fingerprint, sort_keys=True)


class _Sink:
    """A list's ``append`` that writes its items away in batches."""

    def __init__(self, write: Callable[[list[Any]], None], shape: Callable[[Any], Any] = lambda item: item) -> None:
        self.write, self.shape = write, shape
        self.items: list[Any] = []

    def append(self, item: Any) -> None:
        self.items.append(self.shape(item))
        if len(self.items) >= 1000:
            self.flush()

    def flush(self) -> None:
        if self.items:
            self.write(self.items)
            self.items = []


def remove_database(path: Path) -> None:
    for leftover in (path, path.with_name(path.name + "-journal"), path.with_name(path.name + "-wal")):
        leftover.unlink(missing_ok=True)
    path.with_name(path.name + "-shm").unlink(missing_ok=True)


class _EvenPairs(MutableSet[tuple[str, str, int]]):
    """The replay's set of pairs that have played even, read and written in the table."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        # Pairs added since it was made: the store writes them from the engine's
        # ``even_added``, with when they first played even.
        self.added: set[tuple[str, str, int]] = set()

    def __contains__(self, pair: object) -> bool:
        if pair in self.added:
            return True
        if not isinstance(pair, tuple):
            return False
        row = self.db.execute("SELECT 1 FROM even_pair WHERE a = ? AND b = ? AND size = ?", pair).fetchone()
        return row is not None

    def add(self, pair: tuple[str, str, int]) -> None:
        self.added.add(pair)

    def discard(self, pair: tuple[str, str, int]) -> None:
        self.added.discard(pair)
        self.db.execute("DELETE FROM even_pair WHERE a = ? AND b = ? AND size = ?", pair)

    def __iter__(self) -> Iterator[tuple[str, str, int]]:
        return iter({*self.db.execute("SELECT a, b, size FROM even_pair"), *self.added})

    def __len__(self) -> int:
        return len(set(self))


def _pack(snapshot: dict[str, Any]) -> bytes:
    # A checkpoint every few dozen games: compressed, they take a fifth of the room.
    return zlib.compress(json.dumps(snapshot, ensure_ascii=False, separators=(",", ":")).encode(), 1)


def _packed_row(snapshot: dict[str, Any]) -> tuple[str, int, bytes]:
    return snapshot["cursor"][0], snapshot["cursor"][1], _pack(snapshot)


def _unpack(blob: bytes) -> dict[str, Any]:
    snapshot: dict[str, Any] = json.loads(zlib.decompress(blob))
    return snapshot


def _entry(row: tuple[int, str, str | None, str]) -> Entry:
    seq, line, origin, entered = row
    return Entry(seq, json.loads(line), origin, datetime.fromisoformat(entered))


def _magnet_json(m: Magnet) -> list[Any]:
    active = m.active.isoformat() if m.active else None
    return [m.nick, m.size, m.strength, m.status, m.retired, m.primary, m.guest_losses, m.free_loss_week, active]


def _magnet_from(raw: list[Any]) -> Magnet:
    nick, size, strength, status, retired, primary, losses, week, *later = raw
    active = datetime.fromisoformat(later[0]) if later and later[0] else None  # absent before sleepers
    return Magnet(nick, size, strength, status, retired, primary, losses, tuple(week) if week else None, active)


def _result_json(r: GameResult) -> dict[str, Any]:
    by = r.by if not isinstance(r.by, Fraction) else [r.by.numerator, r.by.denominator]
    made = {
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
    if r.kind != RATED:
        # Only when not rated: the cached results of a store made before game kinds stay as a fresh replay makes them.
        made["kind"] = r.kind
    return made


def _game_from(raw: dict[str, Any]) -> GamePlayed:
    """The game a cached result was replayed from (after its edits), as the timeline holds it."""
    by = raw["by"]
    margin = Fraction(*by) if isinstance(by, list) else by
    players = tuple(raw["players"])
    kind = raw.get("kind", RATED)
    return GamePlayed(parse_at(raw["at"]), raw["size"], players, raw["winner"], margin, raw["id"], kind=kind)


def _result_from(raw: dict[str, Any]) -> GameResult:
    by = raw["by"]
    even, moves, prisoners, training = raw["handicap"]
    return GameResult(
        id=raw["id"],
        at=parse_at(raw["at"]),
        size=raw["size"],
        players=tuple(raw["players"]),
        winner=raw["winner"],
        by=Fraction(*by) if isinstance(by, list) else by,
        white=raw["white"],
        handicap=EVEN if even else Handicap(False, moves, prisoners, training),
        moves={nick: Move(*m) for nick, m in raw["moves"].items()},
        milestones=tuple(tuple(m) for m in raw["milestones"]),
        kind=raw.get("kind", RATED),
    )
