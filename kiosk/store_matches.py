"""Matches with other clubs in the store (kiosk/calibration.py): this club's id, and the files imported.

Not history: an imported match file moves no magnet and changes nothing of the history; only a
shift the owner saves does. The tables are made on first use, so a database of any schema
version takes them. ``MatchTables`` runs its SQL on the store's connection inside the write
transaction ``kiosk.store.Store`` opens.
"""

from __future__ import annotations

import secrets
import sqlite3
from datetime import UTC, datetime

TABLES = """
CREATE TABLE IF NOT EXISTS club_identity (
    id TEXT NOT NULL                  -- this club's id in match files, made once
);
CREATE TABLE IF NOT EXISTS club_match (
    checksum TEXT PRIMARY KEY,        -- the file's checksum: one match is imported once
    club_id TEXT NOT NULL,            -- the club that wrote the file
    club_name TEXT NOT NULL,
    ours_home INTEGER NOT NULL,       -- 1 when this club wrote it (exported), 0 when imported
    at TEXT NOT NULL,                 -- when it was kept, UTC
    file TEXT NOT NULL                -- the whole file as read, so the club rating can be recounted
)
"""


class MatchTables:
    """The ``club_identity`` and ``club_match`` tables."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def made(self) -> bool:
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'club_match'").fetchone() is not None

    def make(self) -> None:
        for statement in TABLES.split(";"):
            if statement.strip():
                self.db.execute(statement)

    def club_id(self) -> str | None:
        if not self.made():
            return None
        row = self.db.execute("SELECT id FROM club_identity LIMIT 1").fetchone()
        return row[0] if row else None

    def make_club_id(self) -> str:
        self.make()
        found = self.club_id()
        if found is None:
            found = secrets.token_hex(8)
            self.db.execute("INSERT INTO club_identity (id) VALUES (?)", (found,))
        return found

    def imported_at(self, checksum: str) -> str | None:
        if not self.made():
            return None
        row = self.db.execute("SELECT at FROM club_match WHERE checksum = ?", (checksum,)).fetchone()
        return row[0] if row else None

    def keep(self, checksum: str, club_id: str, club_name: str, ours_home: bool, text: str) -> None:
        self.make()
        self.db.execute(
            "INSERT INTO club_match (checksum, club_id, club_name, ours_home, at, file) VALUES (?, ?, ?, ?, ?, ?)",
            (checksum, club_id, club_name, int(ours_home), datetime.now(UTC).isoformat(timespec="seconds"), text),
        )

    def kept(self) -> list[tuple[str, bool]]:
        """Every match file kept, oldest first: (the file, our players are home)."""
        if not self.made():
            return []
        rows = self.db.execute("SELECT file, ours_home FROM club_match ORDER BY at, rowid")
        return [(text, bool(home)) for text, home in rows]
