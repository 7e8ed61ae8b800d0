"""Tonight's suggested pairings: nearest strengths, no rematch, a bye, each pair's handicap.

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
from typing import TYPE_CHECKING

from kiosk.board import GameResult, Magnet
from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.events import nick_key
from kiosk.handicap import handicap_for
from kiosk.pairing import Pairing, Side, side_of
from kiosk.scale import as_number

if TYPE_CHECKING:  # the event is read by the web and the wall; `semedori pair` need not load the tournaments
    from kiosk.tournament import Tournament

# How far down the strength order a partner is looked for (see the module's docstring).
WINDOW = 8
# "The last week" is the last 7 days; "tonight" is the club's evening (kiosk.evening).
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
    """The pairs that played each other at or after ``since`` (on any size: a rematch is two people).

    Games of every kind count: a teaching game or a simultaneous was still a game the two
    played tonight (docs/rules.md §4).
    """
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
    # Long: one dynamic programme (costs, the table, the walk back); hot for sixty players, kept whole so its indices
    # read together.
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
    # Walk down the list once (no recursion, so a whole 250-magnet club is no problem).
    # A state between two players is (used, bye_left): ``used`` has bit k set when the
    # player k places further down is already paired (bit 0 is the next player itself).
    # ``back[i]`` maps each state after player i to the state before it and the choice
    # made for player i: k > 0 pairs it with the player k places down, 0 gives it the
    # bye, -1 means it was already paired.
    layer: dict[State, int] = {(0, n % 2 == 1): 0}
    back: list[dict[State, tuple[State, int]]] = []
    for i in range(n):
        following: dict[State, int] = {}
        steps: dict[State, tuple[State, int]] = {}
        row = cost[i]
        for state, total in layer.items():
            used, bye_left = state
            if used & 1:
                _reach(following, steps, (used >> 1, bye_left), total, state, -1)
                continue
            for k in range(1, len(row)):
                if not used >> k & 1:
                    _reach(following, steps, ((used | 1 << k) >> 1, bye_left), total + row[k], state, k)
            if bye_left:
                _reach(following, steps, (used >> 1, False), total + bye_cost[i], state, 0)
        layer = following
        back.append(steps)
    pairs: list[tuple[int, int]] = []
    bye = None
    state = (0, False)
    for i in range(n - 1, -1, -1):
        state, choice = back[i][state]
        if choice > 0:
            pairs.append((i, i + choice))
        elif choice == 0:
            bye = i
    pairs.reverse()
    return pairs, bye


_UNREACHABLE = 10**18
State = tuple[int, bool]


def _reach(
    following: dict[State, int],
    steps: dict[State, tuple[State, int]],
    state: State,
    total: int,
    came_from: State,
    choice: int,
) -> None:
    """Keep the cheaper way to ``state``."""
    if total < following.get(state, _UNREACHABLE):
        following[state] = total
        steps[state] = (came_from, choice)


@dataclass(frozen=True, slots=True)
class Evening:
    """Tonight's pairs on one size for the players checked in, as the phone and the wall show them."""

    suggestion: Suggestion
    waiting: tuple[Side, ...]  # their only partners left are pairs they refused: nobody to play yet
    off_board: tuple[str, ...]  # checked in, but no magnet by that name any more (renamed or merged)
    in_event: tuple[str, ...] = ()  # checked in and seated in tonight's open event: not paired here


def seated(event: Tournament | None) -> tuple[str, ...]:
    """Who plays in tonight's event, so is not free to be paired tonight: its players still in it (not withdrawn)
    while it is open and has games to play. A closed or finished event seats nobody: all are paired again.

    A withdrawn player went home as far as the event knows; the check-in list says whether they are still here
    (then they are paired like anyone else) or not (then "Leaves" took them off, as for anyone who goes home).
    """
    if event is None or event.closed or event.finished:
        return ()
    return tuple(side.nick for side in event.active)


def for_evening(
    size: int,
    magnets: Sequence[Magnet],
    here: Sequence[str],
    config: Config,
    games: Iterable[GameResult],
    tonight_since: datetime,
    now: datetime,
    refused: Collection[Pair] = (),
    in_event: Collection[str] = (),
) -> Evening:
    """Tonight's pairs of the checked-in players on ``size``, but for those in ``in_event`` (``seated``).

    A pair that played since ``tonight_since`` (when the evening's list began, see
    ``kiosk.evening.list_opens``), or that refused each other tonight, is
    avoided whenever possible; a refused pair that cannot be avoided is not suggested at all
    (its two players wait for someone else to arrive). ``games`` need reach back a week.
    The players seated in tonight's event play there: they are named in ``Evening.in_event``, never paired.
    """
    playing = {nick_key(n) for n in in_event}
    seated_here = tuple(nick for nick in here if nick_key(nick) in playing)
    here = [nick for nick in here if nick_key(nick) not in playing]
    known = {nick_key(m.nick) for m in magnets}
    sides = [side_of(magnets, nick, size) for nick in here if nick_key(nick) in known]
    off_board = tuple(nick for nick in here if nick_key(nick) not in known)
    games = list(games)
    played_tonight = played_pairs(games, tonight_since)
    played_last_week = played_pairs(games, now - LAST_WEEK)
    refused_set = {p for p in refused if len(p) == 2}
    suggestion = suggest(size, sides, config, tonight=played_tonight | refused_set, last_week=played_last_week)
    keys = [pair_of(p.sides[0].nick, p.sides[1].nick) for p in suggestion.pairs]
    if any(key in refused_set for key in keys):
        both = list(zip(suggestion.pairs, keys, strict=True))
        kept = [(p, key) for p, key in both if key not in refused_set]
        waiting = tuple(side for p, key in both if key in refused_set for side in p.sides)
        suggestion = Suggestion(
            size,
            tuple(p for p, _ in kept),
            suggestion.bye,
            rematches=sum(key in played_tonight for _, key in kept),
            recent=sum(key in played_last_week for _, key in kept),
        )
        return Evening(suggestion, waiting, off_board, seated_here)
    return Evening(suggestion, (), off_board, seated_here)


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


def leaves_at_once(nick: str, checked_in_from: str | None, phone: str, me: str, owner: bool) -> bool:
    """Whether one tap takes ``nick`` off tonight's list: for the owner, the phone that checked them in, or
    the phone of that very player ("That's me"). Anyone else is asked first ("not here?"), so a stranger's
    tap cannot send a child home and make the pairs again."""
    return owner or (checked_in_from is not None and checked_in_from == phone) or nick_key(me) == nick_key(nick)
