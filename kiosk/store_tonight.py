"""Tonight's lists in the store: who checked in, and the pairs they refused.

Not history: a check-in is gone when the evening is, and moves no magnet. The tables
are made on the first check-in, so a database of any schema version takes them.
``TonightTables`` runs its SQL on the store's connection inside the write transaction
``kiosk.store.Store`` opens.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime

from kiosk.events import nick_key

TABLES = """
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


class TonightTables:
    """The ``checkin`` and ``refusal`` tables."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def made(self) -> bool:
        """True once the tables exist (the first check-in or refusal makes them)."""
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'refusal'").fetchone() is not None

    def make(self) -> None:
        for statement in TABLES.split(";"):
            if statement.strip():
                self.db.execute(statement)

    def check_in(self, evening: date, nick: str, origin: str | None) -> bool:
        self.make()
        cursor = self.db.execute(
            "INSERT OR IGNORE INTO checkin (evening, nick_key, nick, at, origin) VALUES (?, ?, ?, ?, ?)",
            (evening.isoformat(), nick_key(nick), nick, datetime.now(UTC).isoformat(timespec="seconds"), origin),
        )
        return cursor.rowcount == 1

    def check_out(self, evening: date, nick: str) -> bool:
        cursor = self.db.execute(
            "DELETE FROM checkin WHERE evening = ? AND nick_key = ?", (evening.isoformat(), nick_key(nick))
        )
        return cursor.rowcount == 1

    def checked_in(self, evening: date) -> list[str]:
        if not self.made():
            return []
        rows = self.db.execute("SELECT nick FROM checkin WHERE evening = ? ORDER BY at, rowid", (evening.isoformat(),))
        return [nick for (nick,) in rows]

    def origins(self, evening: date) -> dict[str, str | None]:
        if not self.made():
            return {}
        rows = self.db.execute("SELECT nick_key, origin FROM checkin WHERE evening = ?", (evening.isoformat(),))
        return dict(rows.fetchall())

    def refuse(self, evening: date, a: str, b: str) -> bool:
        first, second = sorted((nick_key(a), nick_key(b)))
        self.make()
        cursor = self.db.execute(
            "INSERT OR IGNORE INTO refusal (evening, a, b, at) VALUES (?, ?, ?, ?)",
            (evening.isoformat(), first, second, datetime.now(UTC).isoformat(timespec="seconds")),
        )
        return cursor.rowcount == 1

    def unrefuse(self, evening: date, a: str, b: str) -> bool:
        first, second = sorted((nick_key(a), nick_key(b)))
        cursor = self.db.execute(
            "DELETE FROM refusal WHERE evening = ? AND a = ? AND b = ?", (evening.isoformat(), first, second)
        )
        return cursor.rowcount == 1

    def refusals(self, evening: date) -> set[frozenset[str]]:
        if not self.made():
            return set()
        rows = self.db.execute("SELECT a, b FROM refusal WHERE evening = ?", (evening.isoformat(),))
        return {frozenset(row) for row in rows}
