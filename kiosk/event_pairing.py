"""Pairing constraints a club needs: pairs not to meet early, and a Swiss's round-1 style.

Pure, used by ``kiosk.tournament``'s pairing:

* **Pairs not to meet early** (siblings, a parent and child; the owner marks them at the start): in a
  Swiss they are not paired in the first half of the rounds (rounded up) while a pairing without
  them exists (a rematch is never made for it: a rematch is refused, an early meeting only avoided);
  in a round-robin, where everyone meets everyone, the rounds of a cycle are played in an order that
  puts their games as late as the Berger table allows (the table itself is unchanged: every round
  keeps its games and byes, only the round numbers move).
* **Round 1 of a Swiss**: ``adjacent`` (1-2, 3-4, ... by club strength: the closest handicaps, as
  before) or ``fold`` (1 against N, 2 against N-1: the strongest against the weakest, the Russian
  club rules' "snake", 4.2). With an odd count the weakest has the bye either way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from kiosk.events import FIRST_ROUNDS, nick_key

if TYPE_CHECKING:
    from kiosk.tournament import Seat

ADJACENT, FOLD = FIRST_ROUNDS


def early_rounds(rounds: int) -> int:
    """The rounds in which marked pairs are kept apart in a Swiss: the first half, rounded up."""
    return (rounds + 1) // 2


def kept_apart(avoid: Iterable[tuple[str, str]], number: int, rounds: int) -> frozenset[frozenset[str]]:
    """The marked pairs (nick keys) to keep apart in round ``number`` of a Swiss of ``rounds``."""
    if number > early_rounds(rounds):
        return frozenset()
    return frozenset(frozenset((nick_key(a), nick_key(b))) for a, b in avoid)


def folded_order(order: Sequence[str]) -> list[tuple[int, int]]:
    """Round 1 folded: indexes of ``order`` (strongest first, even count) paired 1-N, 2-(N-1), ..."""
    n = len(order)
    return [(i, n - 1 - i) for i in range(n // 2)]


def later_rounds_first_apart(seats: Sequence[Seat], avoid: Iterable[tuple[str, str]], cycle: int) -> list[Seat]:
    """A round-robin's seats with each cycle's rounds reordered so that marked pairs meet as late as possible.

    ``cycle``: rounds per cycle. The rounds without a marked pair keep their order and come first; those with
    one follow, fewer marked pairs first. Nothing changes without marked pairs.
    """
    marked = {frozenset((nick_key(a), nick_key(b))) for a, b in avoid}
    if not marked:
        return list(seats)

    def count(number: int) -> int:
        return sum(
            1
            for s in seats
            if s.round == number and s.b is not None and frozenset((nick_key(s.a), nick_key(s.b))) in marked
        )

    numbers = sorted({s.round for s in seats})
    renumber: dict[int, int] = {}
    for start in range(0, len(numbers), cycle):
        block = numbers[start : start + cycle]
        for position, number in enumerate(sorted(block, key=lambda n: (count(n) > 0, count(n), n))):
            renumber[number] = block[position]
    moved = [s._replace(round=renumber[s.round]) for s in seats]
    return sorted(moved, key=lambda s: (s.round, s.board))
