"""Late arrivals and returns, leagues across club evenings: the rules, pure.

``kiosk.tournament.fold`` calls these while it folds an event's lines; the use cases are
``kiosk.services.league``. Nothing here reads the clock or the store, and nothing here knows
the ``Tournament`` (this module sits below ``kiosk.tournament``): rounds, nicknames and counts in,
answers out. The rules, in the club's words (docs/events.md, "Late arrivals, leagues across
evenings, lists in and out"):

* **A late starter** joins a Swiss (or a league) while no more than a third of its rounds
  have been paired without them (the Russian club text: "если прошло не более 1/3 всех
  запланированных туров"): 7 rounds, up to 2 missed; 9 rounds, up to 3. They play from the
  next round paired; each round they missed counts by the event's ``late`` setting: ½ (the
  Go text's "50% of the possible points", the default), 1 (as a bye) or nothing (the renju
  rules). A round-robin takes nobody late: its tables are fixed at the start.
* **A player who went home comes back** from the next round paired (a Swiss) or the round
  being played (a round-robin, whose games are all made): the rounds they were away stay
  theirs with nothing, as for any player who went home; their later games are played again.
  Coming back in the very round they left (a "went home" tapped by mistake) gives that
  round's game back.
* **A league** spans club evenings: each evening's first round is paired among the players
  of the league checked in that night; the next rounds of the evening follow by themselves,
  up to the league's rounds per evening, among those who played the round before (minus who
  went home, plus who joined or came back). A round a league player was not there for
  counts by the league's ``absent`` setting: nothing (the default), ½, or 1 (as a bye). A
  player who went home on one evening is back in the league on the next.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date
from fractions import Fraction

from kiosk.events import nick_key

HALF, BYE, ZERO = "half", "bye", "zero"
CREDITS = (HALF, BYE, ZERO)  # kiosk.events.CREDITS: how a missed round counts

# A missed round's credit is a seat without an opponent (as a bye) whose result says how it counts, so the score,
# the exports and the standings read it where they read byes. A real bye's result is None (1 point).
MISSED_HALF, MISSED_BYE = "missed-half", "missed-bye"
MISSED = {HALF: MISSED_HALF, BYE: MISSED_BYE}  # a missed round that counts nothing gets no seat at all
_POINTS = {None: Fraction(1), MISSED_BYE: Fraction(1), MISSED_HALF: Fraction(1, 2)}


def bye_points(result: str | None) -> Fraction:
    """What a seat without an opponent scores: a bye (result None) 1, a missed round's credit ½ or 1."""
    return _POINTS.get(result, Fraction(0))


def is_credit(result: str | None) -> bool:
    """True for a missed round's credit (not a bye a pairing gave)."""
    return result in (MISSED_HALF, MISSED_BYE)


def may_join(rounds: int, missed: int) -> bool:
    """A late starter may join while the rounds they miss are no more than a third of the event's rounds."""
    return 3 * missed <= rounds


def join_limit(rounds: int) -> int:
    """How many rounds a late starter may miss at most (a third of the rounds, rounded down)."""
    return rounds // 3


Span = tuple[int, int | None]  # rounds away: from the first missed up to (not with) the round back; None: still away


def spans_of(withdrawn: Iterable[tuple[str, int]], returned: Iterable[tuple[str, int, int]]) -> dict[str, list[Span]]:
    """Each player's rounds away (by nick key, from ``key``): the withdrawals still on, and those that ended."""
    spans: dict[str, list[Span]] = {}
    for nick, first in withdrawn:
        spans.setdefault(nick_key(nick), []).append((first, None))
    for nick, first, back in returned:
        spans.setdefault(nick_key(nick), []).append((first, back))
    return spans


def away(spans: Mapping[str, Sequence[Span]], key: str, number: int) -> bool:
    """True when the player (nick key) is away in round ``number`` (went home and not back yet)."""
    return any(first <= number and (back is None or number < back) for first, back in spans.get(key, ()))


def return_round(swiss: bool, left: int, made: int, current: int, left_round_open: bool) -> int:
    """The first round a returning player plays: a round-robin's round being played (its games are all made);
    a Swiss's next round to pair, or the round they left in while it is still the one on (a "went home" tapped
    by mistake: their game of it is on again)."""
    if not swiss:
        return max(left, current)
    if left == made == current and left_round_open:
        return left
    return made + 1


def credits(
    players: Sequence[str],
    first_round: Mapping[str, int],
    spans: Mapping[str, Sequence[Span]],
    seated: Mapping[int, set[str]],
    boards: Mapping[int, int],
    made: int,
    late: str,
    absent: str,
    league: bool,
) -> list[tuple[int, int, str, str]]:
    """The missed rounds' credits, as (round, board, nick, result) of seats without an opponent.

    ``players``: every player's nick, in the event's order; ``first_round``: a late starter's first round (by nick
    key); ``seated``: each paired round's players (nick keys); ``boards``: each round's highest board. A round a
    late starter missed counts by ``late``; in a league, a round a player was not there for by ``absent``; a round
    away after going home counts nothing, and so does a missed round of a setting "zero" (no seat).
    """
    found = []
    next_board = dict(boards)
    for number in range(1, made + 1):
        here = seated.get(number, set())
        for nick in players:
            key = nick_key(nick)
            if key in here or away(spans, key, number):
                continue
            how = late if number < first_round.get(key, 1) else (absent if league else ZERO)
            if how not in MISSED:
                continue
            next_board[number] = next_board.get(number, 0) + 1
            found.append((number, next_board[number], nick, MISSED[how]))
    return found


def evening_rounds(evenings: Sequence[tuple[date, int]], made: int) -> int:
    """How many rounds the latest evening of a league has paired (``evenings``: each evening's date and first round;
    an extra round the owner pairs on the same night counts among that night's, so no more follow by themselves)."""
    if not evenings:
        return made
    last = evenings[-1][0]
    first = min(number for day, number in evenings if day == last)
    return made - first + 1


def present_next(
    played: Iterable[str | None],
    joined_next: Iterable[str],
    gone: Callable[[str], bool],
) -> list[str]:
    """Who a league's next round of the same evening pairs: who played (or sat out) the round before and did not
    go home, and who joined or came back for the next round (nicknames, each once)."""
    seen: set[str] = set()
    found = []
    for nick in [*played, *joined_next]:
        if nick is None or nick_key(nick) in seen or gone(nick):
            continue
        seen.add(nick_key(nick))
        found.append(nick)
    return found
