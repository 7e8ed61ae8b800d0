"""The store's part for the evenings' events: their lines among the history's, and an older kiosk's tables.

An event has no table of its own: its lines are the history's (``kiosk.events``' tournament-*
types, and the games tapped on its boards), found through the index ``event_tournament``
(schema version 3, ``kiosk.store_history``). ``kiosk.tournament_store`` folds what this reads;
``kiosk.services.tournaments`` appends through ``Store.record_decided``. Runs its SQL on the
store's connection and takes no lock of its own (``Store`` does).
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Any

from kiosk.events import Event, TournamentLinked, dump_line, parse_line

OF = "json_extract(line, '$.tournament')"  # as the index event_tournament has it

# An older kiosk's event tables: kept in a database (or a backup of one) until this kiosk opens it and
# makes them history lines (kiosk.tournament_legacy); a backup holding them is still the kiosk's (kiosk.backup).
LEGACY_TABLES = """
CREATE TABLE IF NOT EXISTS tournament (
    id INTEGER PRIMARY KEY,
    evening TEXT NOT NULL,
    size INTEGER NOT NULL,
    format TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    counts INTEGER NOT NULL,
    name TEXT NOT NULL,
    started TEXT NOT NULL,
    closed TEXT
);
CREATE TABLE IF NOT EXISTS tournament_player (
    tournament INTEGER NOT NULL REFERENCES tournament (id),
    seed INTEGER NOT NULL,
    nick_key TEXT NOT NULL,
    nick TEXT NOT NULL,
    strength INTEGER NOT NULL,
    guest INTEGER NOT NULL,
    occasional INTEGER NOT NULL,
    PRIMARY KEY (tournament, nick_key)
);
CREATE TABLE IF NOT EXISTS tournament_game (
    tournament INTEGER NOT NULL REFERENCES tournament (id),
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    a TEXT NOT NULL,
    b TEXT,
    result TEXT,
    how TEXT,
    game_id INTEGER,
    at TEXT,
    PRIMARY KEY (tournament, round, board)
);
CREATE TABLE IF NOT EXISTS tournament_fix (
    tournament INTEGER NOT NULL REFERENCES tournament (id),
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    number INTEGER NOT NULL,
    result TEXT,
    how TEXT,
    game_id INTEGER,
    at TEXT NOT NULL,
    origin TEXT,
    PRIMARY KEY (tournament, round, board, number)
);
CREATE TABLE IF NOT EXISTS tournament_withdrawal (
    tournament INTEGER NOT NULL REFERENCES tournament (id),
    nick_key TEXT NOT NULL,
    round INTEGER NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (tournament, nick_key)
)
"""
_LEGACY_NAMES = ("tournament_withdrawal", "tournament_fix", "tournament_game", "tournament_player", "tournament")


@lru_cache(maxsize=4096)
def _parsed(line: str) -> Event:
    """A line as an event, once: an event's lines are read again after every tap, and a line never changes."""
    return parse_line(line)


class TournamentLines:
    """The evenings' events' lines in the history."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def starts(self, evening: date | None = None) -> list[tuple[int, Event]]:
        """Every event's start line (of ``evening`` only, when given), in entry order."""
        sql = f"SELECT seq, line FROM event WHERE {OF} IS NOT NULL AND type = 'tournament-start'"
        args: tuple[str, ...] = ()
        if evening is not None:
            sql += " AND line LIKE ?"  # a quick sieve; the fold reads the evening itself
            args = (f'%"evening": "{evening.isoformat()}"%',)
        return [(seq, _parsed(line)) for seq, line in self.db.execute(sql + " ORDER BY seq", args)]

    def entries(self, tournament: int) -> list[tuple[int, Event]]:
        """What one event folds from, in entry order: its own lines, the games tapped on its boards (and those an
        older kiosk's tables linked), and every void and edit entered since the first of them."""
        rows = self.db.execute(f"SELECT seq, line FROM event WHERE {OF} = ? ORDER BY seq", (tournament,))
        found = {seq: _parsed(line) for seq, line in rows}
        if not found:
            return []
        linked = [e.game for e in found.values() if isinstance(e, TournamentLinked) and e.game is not None]
        for start in range(0, len(linked), 500):
            part = linked[start : start + 500]
            marks = ",".join("?" * len(part))
            for seq, line in self.db.execute(f"SELECT seq, line FROM event WHERE game_id IN ({marks})", part):
                found[seq] = _parsed(line)
        rows = self.db.execute("SELECT seq, line FROM event WHERE seq > ? AND type IN ('void', 'edit')", (min(found),))
        for seq, line in rows:
            found[seq] = _parsed(line)
        return sorted(found.items())

    def mark(self) -> tuple[int, int]:
        """The change counter and the last entry number: equal marks, the same history (a fold may be reused)."""
        row = self.db.execute(
            "SELECT (SELECT value FROM cache WHERE name = 'counter'), (SELECT coalesce(max(seq), 0) FROM event)"
        ).fetchone()
        return int(row[0] or 0), int(row[1])

    def highest(self) -> int:
        """The highest event number in the history (0 before the first event)."""
        row = self.db.execute(f"SELECT max({OF}) FROM event WHERE {OF} IS NOT NULL").fetchone()
        return int(row[0] or 0)

    def append(self, event: Event, key: str | None, origin: str | None) -> int:
        """Append an event's own line (it moves no magnet: the replayed board stays as it is); its entry number."""
        line = dump_line(parse_line(dump_line(event)))  # exactly what the history keeps, as every line
        entered = datetime.now(UTC).isoformat(timespec="seconds")
        cursor = self.db.execute(
            "INSERT INTO event (type, at, line, game_id, key, origin, entered) VALUES (?, ?, ?, NULL, ?, ?, ?)",
            (json.loads(line)["type"], event.at.isoformat(), line, key, origin, entered),
        )
        seq = cursor.lastrowid
        assert seq is not None  # an INSERT always sets it
        return seq

    # --- an older kiosk's tables -----------------------------------------------------------------

    def has_legacy_tables(self) -> bool:
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'tournament'").fetchone() is not None

    def rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of one of the old tables, in key order, as column -> value ([] for a table not there)."""
        if (
            table not in _LEGACY_NAMES
            or not self.db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        ):
            return []
        cursor = self.db.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3")
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor]

    def drop_legacy_tables(self) -> None:
        """The old tables go once their rows are history lines: the history is the only truth."""
        for table in _LEGACY_NAMES:
            self.db.execute(f"DROP TABLE IF EXISTS {table}")
