"""Children's privacy in the store: the club's label setting, and each player's.

Not history: no magnet moves, and the history file is shared and exported, so these
settings stay in the database (and so in every backup). Rows are kept by the player's
identity, which a rename keeps: a hidden child stays hidden under a new nickname.
``PrivacyTables`` runs its SQL on the store's connection inside the write transaction
``kiosk.store.Store`` opens.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from datetime import UTC, datetime

from kiosk.events import nick_key
from kiosk.privacy import INITIALS, MARKS, MINORS_MODES, MODES, NICK, PlayerPrivacy, Privacy

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
    consent INTEGER,                  -- a minor's consent: 1 given, 0 not, NULL not noted
    consent_on TEXT NOT NULL DEFAULT '',  -- the day the consent was noted (never who gave it)
    mark TEXT NOT NULL DEFAULT '',    -- the owner's symbol beside the label (kiosk.privacy.MARKS), '' none
    at TEXT NOT NULL                  -- when last set, UTC
);
CREATE TABLE IF NOT EXISTS privacy_log (
    seq INTEGER PRIMARY KEY,          -- every privacy change, for the owner's audit log
    at TEXT NOT NULL,                 -- when, UTC
    identity TEXT NOT NULL,           -- the player's identity, or '' for the club's settings
    what TEXT NOT NULL                -- JSON: the settings after the change
)
"""
# Columns added after the table was first made: a kiosk that made it earlier gets them on its next setting.
ADDED_COLUMNS = (
    ("consent", "INTEGER"),
    ("consent_on", "TEXT NOT NULL DEFAULT ''"),
    ("mark", "TEXT NOT NULL DEFAULT ''"),
)


class PrivacyTables:
    """The ``privacy_club`` and ``privacy_player`` tables, and ``privacy_log`` of every change."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def made(self) -> bool:
        """True once the tables exist (the first privacy setting makes them)."""
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'privacy_player'").fetchone() is not None

    def make(self) -> None:
        for statement in TABLES.split(";"):
            if statement.strip():
                self.db.execute(statement)
        have = self._columns()
        for name, kind in ADDED_COLUMNS:
            if name not in have:
                self.db.execute(f"ALTER TABLE privacy_player ADD COLUMN {name} {kind}")

    def _columns(self) -> set[str]:
        return {row[1] for row in self.db.execute("PRAGMA table_info(privacy_player)")}

    def read(self, display: Mapping[str, str]) -> Privacy:
        """Every setting, the players' by the key of their nickname now (``display``: identity -> nickname)."""
        if not self.made():
            return Privacy()
        settings = dict(self.db.execute("SELECT name, value FROM privacy_club").fetchall())
        club = settings.get("show") if settings.get("show") in MODES else NICK
        minors = settings.get("minors") if settings.get("minors") in MINORS_MODES else INITIALS
        players: dict[str, PlayerPrivacy] = {}
        # a table made before the consent columns has none (they come with the next setting)
        have = self._columns()
        consent = "consent, consent_on" if "consent" in have else "NULL, ''"
        mark = "mark" if "mark" in have else "''"
        rows = self.db.execute(
            f"SELECT identity, show, short_name, hidden, minor, {consent}, {mark} FROM privacy_player"
        )
        for identity, show, short_name, hidden, minor, given, given_on, symbol in rows:
            nick = display.get(identity, identity)
            own = PlayerPrivacy(
                show if show in MODES else None,
                short_name or "",
                bool(hidden),
                bool(minor),
                None if given is None else bool(given),
                given_on or "",
                symbol if symbol in MARKS else "",
            )
            players[nick_key(nick)] = own
        return Privacy(str(club), players, str(minors))

    def set_club(self, show: str) -> None:
        self.make()
        self.db.execute("INSERT OR REPLACE INTO privacy_club (name, value) VALUES ('show', ?)", (show,))
        self._log("", {"club": show})

    def set_minors(self, show: str) -> None:
        self.make()
        self.db.execute("INSERT OR REPLACE INTO privacy_club (name, value) VALUES ('minors', ?)", (show,))
        self._log("", {"minors": show})

    def _log(self, identity: str, what: dict[str, object]) -> None:
        """Keep the change for the owner's audit log (not the history: the history file is shared)."""
        at = datetime.now(UTC).isoformat(timespec="seconds")
        text = json.dumps(what, ensure_ascii=False, sort_keys=True)
        self.db.execute("INSERT INTO privacy_log (at, identity, what) VALUES (?, ?, ?)", (at, identity, text))

    def changes(self, limit: int) -> list[tuple[datetime, str, dict[str, object]]]:
        """The latest privacy changes, newest first: (when, the player's identity or '' for the club, what)."""
        found = self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'privacy_log'").fetchone()
        if found is None:
            return []
        rows = self.db.execute("SELECT at, identity, what FROM privacy_log ORDER BY seq DESC LIMIT ?", (limit,))
        return [(datetime.fromisoformat(at), identity, json.loads(what)) for at, identity, what in rows]

    def set_player(self, identity: str, settings: PlayerPrivacy) -> None:
        self.make()
        self.db.execute(
            "INSERT OR REPLACE INTO privacy_player"
            " (identity, show, short_name, hidden, minor, consent, consent_on, mark, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                identity,
                settings.show,
                settings.short_name,
                int(settings.hidden),
                int(settings.minor),
                None if settings.consent is None else int(settings.consent),
                settings.consent_on,
                settings.mark if settings.mark in MARKS else "",
                datetime.now(UTC).isoformat(timespec="seconds"),
            ),
        )
        what = {"show": settings.show, "short": settings.short_name, "hidden": settings.hidden}
        self._log(identity, {**what, "minor": settings.minor, "consent": settings.consent})
