"""Children's privacy in the store (issue 14): the club's label setting, and each player's.

Not history: no magnet moves, and the history file is shared and exported, so these
settings stay in the database (and so in every backup). Rows are kept by the player's
identity, which a rename keeps: a hidden child stays hidden under a new nickname.
``PrivacyTables`` runs its SQL on the store's connection inside the write transaction
``kiosk.store.Store`` opens.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from datetime import UTC, datetime

from kiosk.events import nick_key
from kiosk.privacy import MODES, NICK, PlayerPrivacy, Privacy

TABLES = """
CREATE TABLE IF NOT EXISTS privacy_club (
    name TEXT PRIMARY KEY,            -- 'show': nick, initials or short
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS privacy_player (
    identity TEXT PRIMARY KEY,        -- the player's identity (kept by renames), see kiosk.replay
    show TEXT,                        -- nick, initials, short (NULL: as the club)
    short_name TEXT NOT NULL DEFAULT '',
    hidden INTEGER NOT NULL DEFAULT 0,
    minor INTEGER NOT NULL DEFAULT 0,
    at TEXT NOT NULL                  -- when last set, UTC
)
"""


class PrivacyTables:
    """The ``privacy_club`` and ``privacy_player`` tables."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def made(self) -> bool:
        """True once the tables exist (the first privacy setting makes them)."""
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'privacy_player'").fetchone() is not None

    def make(self) -> None:
        for statement in TABLES.split(";"):
            if statement.strip():
                self.db.execute(statement)

    def read(self, display: Mapping[str, str]) -> Privacy:
        """Every setting, the players' by the key of their nickname now (``display``: identity -> nickname)."""
        if not self.made():
            return Privacy()
        row = self.db.execute("SELECT value FROM privacy_club WHERE name = 'show'").fetchone()
        club = row[0] if row and row[0] in MODES else NICK
        players: dict[str, PlayerPrivacy] = {}
        rows = self.db.execute("SELECT identity, show, short_name, hidden, minor FROM privacy_player")
        for identity, show, short_name, hidden, minor in rows:
            nick = display.get(identity, identity)
            own = PlayerPrivacy(show if show in MODES else None, short_name or "", bool(hidden), bool(minor))
            players[nick_key(nick)] = own
        return Privacy(club, players)

    def set_club(self, show: str) -> None:
        self.make()
        self.db.execute("INSERT OR REPLACE INTO privacy_club (name, value) VALUES ('show', ?)", (show,))

    def set_player(self, identity: str, settings: PlayerPrivacy) -> None:
        self.make()
        self.db.execute(
            "INSERT OR REPLACE INTO privacy_player (identity, show, short_name, hidden, minor, at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                identity,
                settings.show,
                settings.short_name,
                int(settings.hidden),
                int(settings.minor),
                datetime.now(UTC).isoformat(timespec="seconds"),
            ),
        )
