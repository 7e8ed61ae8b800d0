"""The board a history produces: magnets, and every game with its moves (RULES.md §7)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kiosk.events import GUEST, Margin, format_at, margin_json, nick_key
from kiosk.handicap import Handicap
from kiosk.scale import Quarters, as_number

# Why a magnet moved (or did not), as in the replay output.
WHY = ("win", "clear-win", "draw", "loss", "clear-loss", "free-loss", "training", "vs-guest")


@dataclass(frozen=True, slots=True)
class Magnet:
    """A player's magnet on one board size, where it hangs now."""

    nick: str
    size: int
    strength: Quarters
    status: str
    retired: bool = False
    primary: bool = False
    guest_losses: int = 0
    free_loss_week: tuple[int, int] | None = None

    @property
    def guest(self) -> bool:
        """True for a guest's magnet."""
        return self.status == GUEST

    def free_loss_unused(self, week: tuple[int, int]) -> bool:
        """True when this week's free first loss is still unused."""
        return self.free_loss_week != week

    def to_json(self) -> dict[str, Any]:
        """The magnet as in the replay output."""
        line: dict[str, Any] = {
            "nick": self.nick,
            "size": self.size,
            "strength": as_number(self.strength),
            "status": self.status,
        }
        if self.retired:
            line["retired"] = True
        return line


@dataclass(frozen=True, slots=True)
class Move:
    """How one magnet moved after a game, and why."""

    before: Quarters
    after: Quarters
    why: str

    def to_json(self) -> dict[str, Any]:
        """The ``moves`` entry of the replay output."""
        return {"from": as_number(self.before), "to": as_number(self.after), "why": self.why}


@dataclass(frozen=True, slots=True)
class GameResult:
    """A replayed game: its handicap, its result and how both magnets moved."""

    id: int
    at: datetime
    size: int
    players: tuple[str, str]
    winner: str | None
    by: Margin
    white: str | None
    handicap: Handicap
    moves: dict[str, Move]
    # Things worth announcing: ("member", nick) for a guest who became a member,
    # ("even", a, b) for two players who will now play even for the first time.
    milestones: tuple[tuple[str, ...], ...] = ()

    def to_json(self, with_id: bool = False) -> dict[str, Any]:
        """The game as in the replay output of RULES.md §7."""
        line: dict[str, Any] = {"id": self.id} if with_id else {}
        line.update(
            at=format_at(self.at),
            size=self.size,
            players=list(self.players),
            white=self.white,
            handicap=self.handicap.to_json(),
            training=self.handicap.training,
            moves={nick: move.to_json() for nick, move in self.moves.items()},
        )
        if with_id:
            line.update(winner=self.winner, by=margin_json(self.by))
        return line


@dataclass(frozen=True, slots=True)
class Change:
    """A magnet moved by anything but a game: joining, a quick correction, a shift."""

    at: datetime
    nick: str
    size: int
    before: Quarters | None
    after: Quarters
    why: str  # "joined", "correction", "shift"


@dataclass(frozen=True)
class Board:
    """Everything the history says: magnets now, games in replay order, other changes."""

    magnets: tuple[Magnet, ...]
    games: tuple[GameResult, ...] = ()
    changes: tuple[Change, ...] = ()

    def on_size(self, size: int, include_retired: bool = False) -> tuple[Magnet, ...]:
        """The magnets of one size, strongest first."""
        return tuple(m for m in self.magnets if m.size == size and (include_retired or not m.retired))

    def magnets_of(self, nick: str) -> tuple[Magnet, ...]:
        """A player's magnets, primary first."""
        key = nick_key(nick)
        found = [m for m in self.magnets if nick_key(m.nick) == key]
        return tuple(sorted(found, key=lambda m: (not m.primary, m.size)))

    def magnet(self, nick: str, size: int) -> Magnet | None:
        """The player's magnet on a size, if any."""
        return next((m for m in self.magnets_of(nick) if m.size == size), None)

    def to_json(self) -> dict[str, Any]:
        """The replay output of RULES.md §7."""
        return {"magnets": [m.to_json() for m in self.magnets], "games": [g.to_json() for g in self.games]}


def sort_magnets(magnets: list[Magnet]) -> tuple[Magnet, ...]:
    """The board's order: by size, strongest first, then by nickname."""
    return tuple(sorted(magnets, key=lambda m: (m.size, -m.strength, nick_key(m.nick))))
