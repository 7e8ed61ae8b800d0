"""What the wall reads from the store, and all it reads: one typed interface.

``kiosk.store.Store`` is one; so is the wall's stand-in for a damaged database
(``display.wall.DamagedDatabase``), which reads nothing. Every write to the store (a
game, a check-in, a refusal, a privacy setting, anything in the history) bumps the one
change counter, so the wall polls ``change_counter()`` alone to know when to read again.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Protocol

from kiosk.board import GameResult, Magnet
from kiosk.config import Config
from kiosk.privacy import Privacy


class BoardSource(Protocol):
    """The board, its games, tonight's list and the privacy settings, as the wall reads them."""

    @property
    def config(self) -> Config:
        """The club's settings with the rules in force now."""
        ...

    @property
    def folder(self) -> Path | None:
        """The data folder (the clock's file is beside the database); None when there is none to read."""
        ...

    def change_counter(self) -> int:
        """A number that grows with every write."""
        ...

    def magnets(self) -> tuple[Magnet, ...]:
        """Every magnet as it hangs now."""
        ...

    def recent_games(self, limit: int = 50, nick: str | None = None) -> list[GameResult]:
        """The latest games, newest first."""
        ...

    def games_since(self, at: datetime) -> list[GameResult]:
        """The games played at or after ``at``, in replay order."""
        ...

    def games_page(
        self,
        limit: int = 50,
        before: int | None = None,
        nick: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[GameResult]:
        """Games played in [since, until), one player's when named, newest first (the month's awards)."""
        ...

    def privacy(self) -> Privacy:
        """The club's label setting and every player's."""
        ...

    def checked_in(self, evening: date) -> list[str]:
        """The players on an evening's list, in the order they came."""
        ...

    def refusals(self, evening: date) -> set[frozenset[str]]:
        """The pairs (nick keys) refused that evening."""
        ...
