"""The board a history produces: magnets, and every game with its moves (docs/rules.md §7)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from kiosk.events import GUEST, RATED, Margin, format_at, margin_json, nick_key
from kiosk.handicap import Handicap
from kiosk.scale import Quarters, arrows_between, as_number, format_strength
from kiosk.sleepers import hanging


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
    # When the magnet last played a game on its size (or joined, was corrected or restored):
    # a magnet unplayed for the club's sleeper weeks rests off the wall (kiosk/sleepers.py).
    active: datetime | None = None

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


class Move(NamedTuple):
    """How one magnet moved after a game, and why."""

    # NamedTuple rather than a frozen dataclass: just as immutable, and replay makes
    # two of these per game, where a frozen dataclass's __init__ costs five times more.

    before: Quarters
    after: Quarters
    why: str

    def to_json(self) -> dict[str, Any]:
        """The ``moves`` entry of the replay output."""
        return {"from": as_number(self.before), "to": as_number(self.after), "why": self.why}


class GameResult(NamedTuple):
    """A replayed game: its handicap, its result and how both magnets moved (immutable, cheap)."""

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
    kind: str = RATED  # a game of another kind moved no magnet (docs/rules.md §4)

    @property
    def rated(self) -> bool:
        """True for a game that moved magnets by the rules (not a teaching game, a simultaneous, ...)."""
        return self.kind == RATED

    @property
    def loser(self) -> str | None:
        """The player who lost; None after a draw."""
        if self.winner is None:
            return None
        a, b = self.players
        return b if self.winner == a else a

    def to_json(self, with_id: bool = False) -> dict[str, Any]:
        """The game as in the replay output of docs/rules.md §7."""
        line: dict[str, Any] = {"id": self.id} if with_id else {}
        line.update(
            at=format_at(self.at),
            size=self.size,
            players=list(self.players),
            white=self.white,
            handicap=self.handicap.to_json(),
            training=self.handicap.training,
        )
        if self.kind != RATED:  # as in the history file: only a game that is not rated names its kind
            line["kind"] = self.kind
        line["moves"] = {nick: move.to_json() for nick, move in self.moves.items()}
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

    def on_size(
        self, size: int, include_retired: bool = False, now: datetime | None = None, weeks: int = 0
    ) -> tuple[Magnet, ...]:
        """The magnets of one size, strongest first: those on the wall (kiosk.sleepers), or every one.

        ``now`` and ``weeks`` (the kiosk's clock and the club's sleeper weeks) also leave out the sleepers.
        """
        if include_retired:
            return tuple(m for m in self.magnets if m.size == size)
        return hanging(self.magnets, now, weeks, size)

    def magnets_of(self, nick: str) -> tuple[Magnet, ...]:
        """A player's magnets, primary first."""
        key = nick_key(nick)
        found = [m for m in self.magnets if nick_key(m.nick) == key]
        return tuple(sorted(found, key=lambda m: (not m.primary, m.size)))

    def magnet(self, nick: str, size: int) -> Magnet | None:
        """The player's magnet on a size, if any."""
        return next((m for m in self.magnets_of(nick) if m.size == size), None)

    def to_json(self) -> dict[str, Any]:
        """The replay output of docs/rules.md §7."""
        return {"magnets": [m.to_json() for m in self.magnets], "games": [g.to_json() for g in self.games]}


def climbers(games: Iterable[GameResult]) -> list[tuple[str, int, int]]:
    """Who climbed in these games: (nick, size, arrows), most arrows first.

    Only the games' own moves count: a quick correction or a shift between two games is
    not climbing.
    """
    arrows: dict[tuple[str, int], int] = defaultdict(int)
    for game in games:
        for nick, move in game.moves.items():
            arrows[(nick, game.size)] += arrows_between(move.before, move.after)
    found = [(nick, size, count) for (nick, size), count in arrows.items() if count > 0]
    return sorted(found, key=lambda c: (-c[2], nick_key(c[0]), c[1]))


def sort_magnets(magnets: list[Magnet]) -> tuple[Magnet, ...]:
    """The board's order: by size, strongest first, then by nickname."""
    return tuple(sorted(magnets, key=lambda m: (m.size, -m.strength, nick_key(m.nick))))


_NAMES: dict[str | None, str] = {}


def _name(nick: str | None) -> str:
    text = _NAMES.get(nick)
    if text is None:
        text = _NAMES[nick] = json.dumps(nick, ensure_ascii=False)
    return text


_STRENGTHS: dict[int, str] = {}


def _strength(q: Quarters) -> str:
    text = _STRENGTHS.get(q)
    if text is None:
        text = _STRENGTHS[q] = format_strength(q)
    return text


_HANDICAP_TEXTS: dict[tuple[bool, int, int], str] = {}


def _handicap_text(h: Handicap) -> str:
    # Keyed by plain values: a handicap's own hash is Python code, and this runs once a game.
    key = (h.even, h.moves, h.prisoners)
    text = _HANDICAP_TEXTS.get(key)
    if text is None:
        text = _HANDICAP_TEXTS[key] = (
            '{"even": true}' if h.even else f'{{"even": false, "moves": {h.moves}, "prisoners": {h.prisoners}}}'
        )
    return text


def game_json_text(g: GameResult) -> str:
    """``json.dumps(g.to_json())``, written directly: replay prints tens of thousands of these."""
    moves = ", ".join(
        f'{_name(nick)}: {{"from": {_strength(m.before)}, "to": {_strength(m.after)}, "why": "{m.why}"}}'
        for nick, m in g.moves.items()
    )
    kind = "" if g.kind == RATED else f'"kind": "{g.kind}", '
    return (
        f'{{"at": "{format_at(g.at)}", "size": {g.size}, "players": [{_name(g.players[0])}, {_name(g.players[1])}], '
        f'"white": {_name(g.white) if g.white is not None else "null"}, "handicap": {_handicap_text(g.handicap)}, '
        f'"training": {"true" if g.handicap.training else "false"}, {kind}"moves": {{{moves}}}}}'
    )


def board_json_text(board: Board) -> str:
    """The replay output of docs/rules.md §7 as JSON text (the same as ``json.dumps(board.to_json())``)."""
    magnets = json.dumps([m.to_json() for m in board.magnets], ensure_ascii=False)
    return f'{{"magnets": {magnets}, "games": [{", ".join(game_json_text(g) for g in board.games)}]}}'
