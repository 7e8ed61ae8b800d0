"""Tonight's suggested pairings: nearest strengths, no rematch, a bye, each pair's handicap (issue 13).

A pure function of tonight's players on one size and of who has already played whom.
It chooses the pairing with, in this order of importance,

1. the fewest rematches of tonight (none whenever that is possible),
2. the fewest byes for a player who already had one tonight,
3. the fewest pairs that played each other in the last week,
4. the smallest sum of strength differences (so the closest games, the fewest stones),

and gives each pair its handicap by the board's own rule (``kiosk.pairing``).

How: the players are sorted by strength, and a dynamic programme walks down the list,
pairing each player with one of the next ``WINDOW`` players still free (or giving the
bye). With fewer than ``WINDOW + 2`` players that is every possible pairing, so the
result is the best there is; with more, a partner is at most ``WINDOW`` places away in
strength order, which is where every sensible partner is (with no history the best
pairing is adjacent players). Sixty players take a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from kiosk.board import GameResult, Magnet
from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.events import nick_key
from kiosk.handicap import handicap_for
from kiosk.pairing import Pairing, Side, side_of
from kiosk.scale import as_number

# How far down the strength order a partner is looked for (see the module's docstring).
WINDOW = 8
# "Tonight" is the last 12 hours (an evening, even one that goes past midnight), "the last
# week" the last 7 days; the club's hours are issue 13's check-in, not this module's.
TONIGHT = timedelta(hours=12)
LAST_WEEK = timedelta(days=7)

# The order of importance above, as one integer cost: each level outweighs everything below.
_REMATCH = 10**9
_REPEATED_BYE = 10**7
_RECENT = 10**5  # more than any sum of differences: 30 pairs x 224 quarters < 10**5

Pair = frozenset[str]  # two nick keys


def pair_of(a: str, b: str) -> Pair:
    """The key of a pair of players, whatever the order and spelling of their nicknames."""
    return frozenset((nick_key(a), nick_key(b)))


@dataclass(frozen=True, slots=True)
class Suggestion:
    """Tonight's pairs on one size, strongest pair first, and who sits out (None when even)."""

    size: int
    pairs: tuple[Pairing, ...]
    bye: Side | None
    rematches: int  # pairs that already played tonight (0 unless it could not be avoided)
    recent: int  # pairs that played each other in the last week

    @property
    def total_difference(self) -> int:
        """The sum of the pairs' strength differences, in quarters."""
        return sum(p.difference for p in self.pairs)


def played_pairs(games: Iterable[GameResult], since: datetime) -> set[Pair]:
    """The pairs that played each other at or after ``since`` (on any size: a rematch is two people)."""
    return {pair_of(*g.players) for g in games if g.at >= since}


def sides_of(magnets: Sequence[Magnet], size: int, nicks: Sequence[str]) -> list[Side]:
    """Tonight's players as sides on a size; an unknown or twice-named nickname is refused."""
    seen: set[str] = set()
    sides = []
    for nick in nicks:
        side = side_of(magnets, nick.strip(), size)
        key = nick_key(side.nick)
        if key in seen:
            raise HistoryError("named-twice", nick=side.nick)
        seen.add(key)
        sides.append(side)
    return sides


def suggest(
    size: int,
    players: Sequence[Side],
    config: Config,
    tonight: Collection[Pair] = (),
    last_week: Collection[Pair] = (),
    had_bye: Collection[str] = (),
) -> Suggestion:
    """Tonight's pairs for ``players`` on ``size``.

    ``tonight`` and ``last_week`` are pairs that already played (``pair_of``), ``had_bye``
    the nicknames that already sat out tonight.

    >>> ala, ola, ula = Side("Ala", 80, False, False), Side("Ola", 88, False, False), Side("Ula", 8, False, False)
    >>> s = suggest(13, [ala, ola, ula], Config())  # strengths 20, 22 and 2 on 13x13
    >>> [(p.white.nick, p.handicap.moves, p.handicap.prisoners) for p in s.pairs], s.bye.nick
    ([('Ola', 1, 4)], 'Ula')
    """
    # Strongest first; the nickname breaks ties so that the answer never depends on input order.
    ordered = tuple(sorted(players, key=lambda s: (-s.strength, nick_key(s.nick))))
    keys = tuple(nick_key(s.nick) for s in ordered)
    here = set(keys)
    if len(here) != len(keys):
        raise HistoryError("named-twice", nick=next(s.nick for s in ordered if keys.count(nick_key(s.nick)) > 1))
    tonight_set = {p for p in tonight if p <= here}
    recent_set = {p for p in last_week if p <= here}
    byes = {nick_key(n) for n in had_bye}
    chosen, bye_index = _best(ordered, keys, tonight_set, recent_set, byes)
    rules = config.size_rules[size]
    pairs = tuple(
        Pairing(
            size,
            (ordered[i], ordered[j]),
            ordered[i].strength - ordered[j].strength,
            handicap_for(ordered[i].strength - ordered[j].strength, rules),
        )
        for i, j in chosen
    )
    return Suggestion(
        size=size,
        pairs=pairs,
        bye=None if bye_index is None else ordered[bye_index],
        rematches=sum(pair_of(a.nick, b.nick) in tonight_set for a, b in (p.sides for p in pairs)),
        recent=sum(pair_of(a.nick, b.nick) in recent_set for a, b in (p.sides for p in pairs)),
    )


def _best(
    ordered: tuple[Side, ...],
    keys: tuple[str, ...],
    tonight: set[Pair],
    recent: set[Pair],
    byes: set[str],
) -> tuple[list[tuple[int, int]], int | None]:
    """The cheapest pairing of the players in strength order: (index pairs, the bye's index)."""
    n = len(ordered)
    window = min(WINDOW, max(n - 1, 0))
    # cost[i][k]: pairing player i with player i + k (k = 1 .. window).
    cost = [
        [
            0,
            *(
                (frozenset((keys[i], keys[i + k])) in tonight) * _REMATCH
                + (frozenset((keys[i], keys[i + k])) in recent) * _RECENT
                + ordered[i].strength
                - ordered[i + k].strength
                for k in range(1, min(window, n - 1 - i) + 1)
            ),
        ]
        for i in range(n)
    ]
    bye_cost = [(key in byes) * _REPEATED_BYE for key in keys]
    # best[(i, used, bye_left)] = (total cost from player i on, the choice at i): k > 0 pairs
    # i with i + k, 0 gives i the bye, -1 means i is already paired. ``used`` has bit k set
    # when player i + k is already paired (bit 0 is player i itself).
    best: dict[tuple[int, int, bool], tuple[int, int]] = {}

    def solve(i: int, used: int, bye_left: bool) -> int:
        if i == n:
            return _UNREACHABLE if bye_left else 0
        state = (i, used, bye_left)
        found = best.get(state)
        if found is not None:
            return found[0]
        if used & 1:
            total, choice = solve(i + 1, used >> 1, bye_left), -1
        else:
            total, choice = _UNREACHABLE, 0
            row = cost[i]
            for k in range(1, len(row)):
                if not used >> k & 1:
                    candidate = row[k] + solve(i + 1, (used | 1 << k) >> 1, bye_left)
                    if candidate < total:
                        total, choice = candidate, k
            if bye_left:
                candidate = bye_cost[i] + solve(i + 1, used >> 1, False)
                if candidate < total:
                    total, choice = candidate, 0
        best[state] = (total, choice)
        return total

    bye_left = n % 2 == 1
    solve(0, 0, bye_left)
    pairs: list[tuple[int, int]] = []
    bye = None
    used = 0
    for i in range(n):
        choice = best[(i, used, bye_left)][1]
        if choice > 0:
            pairs.append((i, i + choice))
            used |= 1 << choice
        elif choice == 0:
            bye, bye_left = i, False
        used >>= 1
    return pairs, bye


_UNREACHABLE = 10**18


def greedy(players: Sequence[Side]) -> list[tuple[Side, Side]]:
    """The baseline: strongest first, each pair the next two players; the weakest sits out when odd."""
    ordered = sorted(players, key=lambda s: (-s.strength, nick_key(s.nick)))
    return [(ordered[i], ordered[i + 1]) for i in range(0, len(ordered) - 1, 2)]


def to_json(suggestion: Suggestion) -> dict[str, object]:
    """Tonight's pairs as JSON, for the terminal, the phone and the wall alike."""

    def side(s: Side) -> dict[str, object]:
        line: dict[str, object] = {"nick": s.nick, "strength": as_number(s.strength)}
        if s.guest:
            line["guest"] = True
        if s.occasional:
            line["occasional"] = True
        return line

    return {
        "size": suggestion.size,
        "pairs": [
            {
                "players": [side(s) for s in p.sides],
                "difference": as_number(p.difference),
                "white": p.white.nick if p.white else None,
                "handicap": p.handicap.to_json(),
                "training": p.handicap.training,
            }
            for p in suggestion.pairs
        ],
        "bye": side(suggestion.bye) if suggestion.bye else None,
        "rematches": suggestion.rematches,
        "played_last_week": suggestion.recent,
    }
