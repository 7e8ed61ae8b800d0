"""A player's record: wins, losses and draws per size, and against each opponent (for the player page)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from kiosk.board import GameResult
from kiosk.events import nick_key


@dataclass
class Tally:
    """Wins, losses and draws, and the last game's size and time."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    sizes: dict[int, int] = field(default_factory=dict)  # games per size
    last: datetime | None = None

    @property
    def games(self) -> int:
        """How many games were played."""
        return self.wins + self.losses + self.draws

    @property
    def usual_size(self) -> int:
        """The size these games were played on most (the latest of equals)."""
        return max(self.sizes, key=lambda size: self.sizes[size])

    def add(self, game: GameResult, key: str) -> None:
        """Count one game, seen from the player whose nick key is ``key``."""
        if game.winner is None:
            self.draws += 1
        elif nick_key(game.winner) == key:
            self.wins += 1
        else:
            self.losses += 1
        self.sizes[game.size] = self.sizes.get(game.size, 0) + 1
        self.last = game.at if self.last is None else max(self.last, game.at)


def by_size(nick: str, games: Iterable[GameResult]) -> dict[int, Tally]:
    """The player's wins, losses and draws of rated games on each size, smallest board first.

    A teaching game, a simultaneous, ... says little about strength (docs/rules.md §4), so the
    record per size leaves it out; the head-to-head record counts every game the two played.
    """
    key = nick_key(nick)
    found: dict[int, Tally] = {}
    for game in games:
        if game.rated and key in (nick_key(p) for p in game.players):
            found.setdefault(game.size, Tally()).add(game, key)
    return dict(sorted(found.items()))


def head_to_head(nick: str, games: Iterable[GameResult]) -> list[tuple[str, Tally]]:
    """Each opponent and the player's record against them, the most recent opponent first."""
    key = nick_key(nick)
    found: dict[str, tuple[str, Tally]] = {}
    for game in games:
        keys = [nick_key(p) for p in game.players]
        if key not in keys or keys[0] == keys[1]:
            continue
        other = game.players[1] if keys[0] == key else game.players[0]
        found.setdefault(nick_key(other), (other, Tally()))[1].add(game, key)
    return sorted(found.values(), key=lambda item: item[1].last or datetime.min, reverse=True)
