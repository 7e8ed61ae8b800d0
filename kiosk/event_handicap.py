"""The handicap policy of an event: capped, reduced, or the top group even.

Pure. Every event game is a handicap game by the board's table (docs/rules.md §3) unless the owner
chose a policy at the start; the Russian club texts give all three:

* **less N**: N starting moves less ("уменьшение форы ... на какое-то число камней"): the table's
  handicap in points (``t`` of §3: 13 a move, then prisoners) less 13·N; below 0 the game is even;
* **at most N**: no more than N starting moves ("фора более 9-ти ступенек не дается"): a larger
  handicap becomes N starting moves and no prisoners;
* **top group even**: the event's strongest K players at the start (its seeding) play each other even
  ("вверху играют на равных"); everyone else as above.

"Главное – зачет всегда в строгом соответствии с даваемой форой": what counts is the handicap
*played*. So the board moves as after any game with that handicap (docs/rules.md §4): the result
moves the magnets as always; a game played with fewer starting moves than the size's training
number is no training game (both players move), one played even cannot be a draw. The game's
history line keeps the handicap played (``handicap``, only when it differs from the table).
"""

from __future__ import annotations

from kiosk.errors import HistoryError
from kiosk.events import HANDICAP_POLICY_LIMIT
from kiosk.handicap import EVEN, MOVE_POINTS, Handicap, SizeRules

LIMIT = HANDICAP_POLICY_LIMIT


def check_policy(cap: int | None, less: int, top: int) -> None:
    """The owner's policy, checked: ``HistoryError('bad-handicap-policy')`` and nothing saved otherwise."""
    if (cap is not None and not 1 <= cap <= LIMIT) or not 0 <= less <= LIMIT or (top != 0 and top < 2):
        raise HistoryError("bad-handicap-policy", limit=LIMIT)


def is_default(cap: int | None, less: int, top: int) -> bool:
    """True when the policy is the board's full handicap (every event before the policy existed)."""
    return cap is None and less == 0 and top == 0


def played(table: Handicap, rules: SizeRules, cap: int | None, less: int, both_top: bool) -> Handicap:
    """The handicap played instead of the table's ``table`` (``both_top``: both players in the top group)."""
    if table.even or (both_top):
        return EVEN
    points = MOVE_POINTS * (table.moves - 1) + table.prisoners - MOVE_POINTS * less
    if points < 0:
        return EVEN
    moves, prisoners = 1 + points // MOVE_POINTS, points % MOVE_POINTS
    if cap is not None and moves > cap:
        moves, prisoners = cap, 0
    return Handicap(even=False, moves=moves, prisoners=prisoners, training=moves >= rules.training_moves)


def played_handicap(line: tuple[int, int], rules: SizeRules) -> Handicap:
    """The handicap a game's history line says was played ((0, 0): even), as the replay applies it (§4)."""
    moves, prisoners = line
    if moves == 0:
        return EVEN
    return Handicap(even=False, moves=moves, prisoners=prisoners, training=moves >= rules.training_moves)


def as_line(handicap: Handicap) -> tuple[int, int]:
    """A handicap as a game's history line keeps it (``GamePlayed.handicap``)."""
    return (0, 0) if handicap.even else (handicap.moves, handicap.prisoners)
