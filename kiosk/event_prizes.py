"""Prizes of an event: the places, class prizes, the most wins; pure, from the standings.

The Russian club text asks for prizes spread over the levels of play ("несколько призов,
распределенных по уровням игры ... за место ..., за число побед"). So an event's prizes are:

* **places**: the first three places of the standings (a shared place is a prize for each who
  shares it; with unique places, kiosk.tiebreak, exactly one each);
* **class prizes**: the owner splits the players into classes at the start by field (the start
  line's ``classes``: the lowest field of each class above the first, e.g. 20 and 30 make the classes
  up to 19¾, 20 to 29¾, and 30 up; the wall writes the grades beside them). Each class's prize goes
  to its best-placed player who has no place prize (one prize a player: the bigger), players sharing
  that place share it;
* **the most wins**: the most games won (a bye is no game), at least two; tied players share it.

Players are in a class by their strength at the event's start (what the seeding used), so a prize
does not change because a magnet moved during the evening. A player who went home keeps what they
scored and can win a prize with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Protocol

from kiosk.errors import HistoryError
from kiosk.events import nick_key
from kiosk.scale import Quarters, to_grade

PLACE, CLASS, WINS = "place", "class", "wins"
KINDS = (PLACE, CLASS, WINS)
PLACES = 3  # the podium
LEAST_WINS = 2
MOST_CLASSES = 6


class _Line(Protocol):
    """What a standings line offers (``kiosk.tournament.Standing``)."""

    @property
    def place(self) -> int: ...
    @property
    def nick(self) -> str: ...
    @property
    def strength(self) -> int: ...
    @property
    def wins(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Prize:
    """One player's prize: kind, the place (PLACE), the class's bounds in quarters (CLASS) or the wins (WINS)."""

    kind: str
    nick: str
    place: int
    low: Quarters | None = None  # CLASS: the class's lowest strength (None: from the bottom)
    high: Quarters | None = None  # CLASS: the next class's lowest (None: to the top)
    wins: int = 0


def check_classes(bounds: Sequence[Quarters]) -> tuple[Quarters, ...]:
    """The owner's class bounds: fields in rising order, each once, at most ``MOST_CLASSES - 1`` of them."""
    found = tuple(bounds)
    if len(found) >= MOST_CLASSES or list(found) != sorted(set(found)) or any(b <= 0 for b in found):
        raise HistoryError("bad-classes", limit=MOST_CLASSES)
    return found


def classes(bounds: Sequence[Quarters]) -> list[tuple[Quarters | None, Quarters | None]]:
    """The classes the bounds make, weakest first: (lowest, next class's lowest), None at the ends."""
    edges: list[Quarters | None] = [None, *bounds, None]
    return list(pairwise(edges))


def class_grades(low: Quarters | None, high: Quarters | None) -> tuple[str | None, str | None]:
    """A class's grades (the board's conversion, docs/rules.md §1): its weakest and strongest grade."""
    return (
        None if low is None else to_grade(low),
        None if high is None else to_grade(high - 1),
    )


def prizes(lines: Sequence[_Line], bounds: Sequence[Quarters] = ()) -> tuple[Prize, ...]:
    """Every prize of an event from its standings (in order) and the class bounds, places first."""
    won: list[Prize] = [Prize(PLACE, line.nick, line.place) for line in lines if line.place <= PLACES]
    podium = {nick_key(p.nick) for p in won}
    if bounds:
        for low, high in classes(bounds):
            members = [
                line
                for line in lines
                if (low is None or line.strength >= low)
                and (high is None or line.strength < high)
                and nick_key(line.nick) not in podium
            ]
            if members:
                best = members[0].place
                won += [Prize(CLASS, m.nick, m.place, low, high) for m in members if m.place == best]
    most = max((line.wins for line in lines), default=0)
    if most >= LEAST_WINS:
        won += [Prize(WINS, line.nick, line.place, wins=line.wins) for line in lines if line.wins == most]
    return tuple(won)
