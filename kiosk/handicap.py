"""The handicap before a game, and the printed handicap tables (docs/rules.md §3)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from kiosk.scale import QUARTERS, Quarters, written

# The one constant of the table: a move is worth 13 points; komi (6 prisoners plus
# White winning ties) is half of that, 6.5.
MOVE_POINTS = 13
KOMI = Fraction(13, 2)
KOMI_PRISONERS = 6
SIZES = (9, 13, 19)


def komi(language: str) -> str:
    """The komi as the club writes it in messages: ``6.5``, in Polish ``6,5`` (read from ``KOMI`` when asked)."""
    return written(KOMI, language)


def size_from(text: str | None) -> int | None:
    """A board size written as text (a form, a link, a cookie, an option): 9, 13 or 19; None when it is none of them."""
    return int(text) if text in _SIZE_TEXTS else None


_SIZE_TEXTS = tuple(str(size) for size in SIZES)


@dataclass(frozen=True, slots=True)
class SizeRules:
    """A board size's handicap parameters: the bridge from strength to points."""

    size: int
    points_per_strength: Fraction
    clear_margin: Fraction
    training_moves: int


DEFAULT_SIZE_RULES: dict[int, SizeRules] = {
    9: SizeRules(9, Fraction(2), Fraction(15), 4),
    13: SizeRules(13, Fraction(5), Fraction(30), 6),
    19: SizeRules(19, Fraction(13), Fraction(60), 8),
}


@dataclass(frozen=True, slots=True)
class Handicap:
    """What Black gets: an even game (nigiri, komi 6.5), or starting moves and prisoners."""

    even: bool
    moves: int = 1
    prisoners: int = 0
    training: bool = False

    def to_json(self) -> dict[str, object]:
        """The ``handicap`` object of the replay output (docs/rules.md §7)."""
        if self.even:
            return {"even": True}
        return {"even": False, "moves": self.moves, "prisoners": self.prisoners}


EVEN = Handicap(even=True)


def handicap_points(difference: Quarters, rules: SizeRules) -> int:
    """``t`` of docs/rules.md §3: the handicap in points, rounded half up (ties to Black)."""
    need = Fraction(difference, QUARTERS) * rules.points_per_strength - KOMI
    return math.floor(need + Fraction(1, 2))


@lru_cache(maxsize=4096)  # replay asks for the same few differences again and again
def handicap_for(difference: Quarters, rules: SizeRules) -> Handicap:
    """The handicap for a strength difference (stronger minus weaker, in quarters)."""
    t = handicap_points(abs(difference), rules)
    if t < 0:
        return EVEN
    moves = 1 + t // MOVE_POINTS
    return Handicap(
        even=False,
        moves=moves,
        prisoners=t % MOVE_POINTS,
        training=moves >= rules.training_moves,
    )


@dataclass(frozen=True, slots=True)
class TableCell:
    """One cell of a printed table: a handicap and the differences that land in it."""

    handicap: Handicap
    lowest: Quarters
    highest: Quarters


def table(rules: SizeRules, moves_up_to: int | None = None) -> tuple[TableCell, ...]:
    """The handicap table of a size, as cells with their ranges of differences.

    Differences are whole quarters, so a cell that no quarter difference reaches (on
    19x19 one quarter is already 3.25 points) is left out. The table has no last row;
    it stops after ``moves_up_to`` moves (the training-game row by default).
    """
    last_moves = moves_up_to or rules.training_moves
    cells: list[TableCell] = []
    difference = 0
    current: Handicap | None = None
    lowest = 0
    while True:
        h = handicap_for(difference, rules)
        if h != current:
            if current is not None:
                cells.append(TableCell(current, lowest, difference - 1))
            if not h.even and h.moves > last_moves:
                return tuple(cells)
            current, lowest = h, difference
        difference += 1
