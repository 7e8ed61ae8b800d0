"""The accelerated handicap event (the club's FUS text): levels that climb with winning streaks.

Pure, like ``kiosk.tournament``: players come in as ``Side`` (nickname and strength at the
start), results as ``Seat`` rows; nothing here reads the clock or the store.

The rules (docs/events.md, "The accelerated handicap event"):

* Each player's **event level** starts at their strength on the event's size.
* A **win** lifts the level by as many arrows as the winning streak is long, this win
  included (1, 2, 3, ...), but never by more than the rounds still to play after this one
  plus one (the FUS text's limit: five wins in a five-round event give 1 + 2 + 3 + 2 + 1).
  A **loss** leaves the level and ends the streak; so does a **draw** (it is not a win).
  A **bye** leaves the level and the streak as they are: no game, nothing proved.
  An arrow is the board's own (1 below 30, 0.5 up to 40, 0.25 above); a level may climb
  past the board's top in arrows of 0.25 (it is no magnet).
* Each game's handicap is the board's table for the difference of the two levels before
  the round (``kiosk.handicap``); the higher level takes White.
* Pairing: the players stand by level (then strength at the start, then nickname); from the
  top down each takes the nearest player below it they have not met, whose difference
  gives at most ``cap`` starting moves; a depth-first search backs up only where a dead end
  forces it. An odd count: the bye to a player who has not had one, lowest level first. A
  player whom the cap and the rematches leave with nobody sits out the round (a bye).
* Standings: the final level, then the FUS coefficient (per game: the final difference of
  the two levels, opponent's minus one's own, minus the same difference when the game was
  played), then the wins; players equal on all three share a place.

Levels and the coefficient are ``int`` quarters, as strengths everywhere in the core.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from kiosk.errors import HistoryError
from kiosk.events import nick_key
from kiosk.handicap import Handicap, SizeRules, handicap_for
from kiosk.pairing import Side
from kiosk.scale import Quarters, step_up
from kiosk.tiebreak import SeatLike

ACCELERATED = "accelerated"

# The search for a round's pairing gives up after this many steps (all bye candidates together).
_SEARCH_STEPS = 200_000

# Outcomes, as kiosk.tournament's Seat.result has them (kept here as strings so this module needs no import of it).
_A_WINS, _B_WINS, _DRAW = "a", "b", "draw"


def default_cap(rules: SizeRules) -> int:
    """The club's handicap cap for an accelerated event: the last row before a training game (docs/events.md).

    A training game is the club's word for a game too uneven to be a contest; an event's game should be one.
    """
    return max(1, rules.training_moves - 1)


def largest_difference(rules: SizeRules, cap: int) -> Quarters:
    """The largest level difference (quarters) whose handicap is at most ``cap`` starting moves."""
    difference = 0
    while within_cap(handicap_for(difference + 1, rules), cap):
        difference += 1
    return difference


def within_cap(handicap: Handicap, cap: int) -> bool:
    """True when the handicap gives at most ``cap`` starting moves (an even game always is)."""
    return handicap.even or handicap.moves <= cap


def gain(streak: int, round_number: int, rounds: int) -> int:
    """The arrows a win lifts the level by: the streak with this win, at most the rounds left after it plus one."""
    return max(0, min(streak, rounds - round_number + 1))


def lifted(level: Quarters, arrows: int) -> Quarters:
    """``level`` lifted by ``arrows`` of the board's arrows, past the top too (an event level is no magnet)."""
    for _ in range(arrows):
        level += step_up(level)
    return level


@dataclass(frozen=True, slots=True)
class Climb:
    """Where the levels stand: each player's level and streak now (by nick key), and every round's levels before it.

    ``before[r]``: the levels at the start of round r (what round r's handicaps and pairing use).
    """

    level: Mapping[str, Quarters]
    streak: Mapping[str, int]
    before: Mapping[int, Mapping[str, Quarters]]


def climb(players: Sequence[Side], seats: Iterable[SeatLike], rounds: int) -> Climb:
    """The levels after the results in ``seats`` (round by round; a game still on changes nothing)."""
    level = {nick_key(p.nick): p.strength for p in players}
    streak = dict.fromkeys(level, 0)
    by_round: dict[int, list[SeatLike]] = {}
    for seat in seats:
        by_round.setdefault(seat.round, []).append(seat)
    before: dict[int, dict[str, Quarters]] = {}
    for number in sorted(by_round):
        before[number] = dict(level)
        for seat in by_round[number]:
            b, result = seat.b, seat.result
            if b is None or result is None:
                continue  # a bye, or a game still on: the level and the streak stay
            a, b = nick_key(seat.a), nick_key(b)
            if result == _DRAW:
                streak[a] = streak[b] = 0
                continue
            winner, loser = (a, b) if result == _A_WINS else (b, a)
            streak[loser] = 0
            streak[winner] += 1
            level[winner] = lifted(level[winner], gain(streak[winner], number, rounds))
    return Climb(level, streak, before)


def levels_before(players: Sequence[Side], seats: Iterable[SeatLike], rounds: int, number: int) -> dict[str, Quarters]:
    """The levels (by nick key) at the start of round ``number``: the results of the rounds before it."""
    earlier = [s for s in seats if s.round < number]
    return dict(climb(players, earlier, rounds).level)


def board_sides(
    players: Sequence[Side], seats: Iterable[SeatLike], rounds: int, number: int, nicks: Iterable[str]
) -> dict[str, Side]:
    """The sides of round ``number``'s players at their levels then (by nick key), for the board's handicap."""
    levels = levels_before(players, seats, rounds, number)
    start = {nick_key(p.nick): p for p in players}
    wanted = [nick_key(n) for n in nicks]
    return {key: replace(start[key], strength=levels[key]) for key in wanted if key in start}


# --- pairing -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pair:
    """One board of a round as the pairing makes it: ``a`` the higher level (``b`` None: ``a``'s bye)."""

    a: Side
    b: Side | None


def pair_round(
    players: Sequence[Side],
    earlier: Sequence[SeatLike],
    number: int,
    rounds: int,
    rules: SizeRules,
    cap: int,
    sit_outs: bool = True,
) -> list[Pair]:
    """Round ``number``'s boards after the ``earlier`` rounds' seats: smallest handicaps from the top down.

    ``players``: those still in the event. Never a rematch, never above ``cap`` starting moves. With an
    odd count one player sits out (a bye). When the cap and the rematches leave no pairing of everyone,
    as few more as must sit out too (``sit_outs``; each a bye, the level stays): the top of the list plays
    whenever it can. ``HistoryError("event-no-pairing")`` when nobody can be paired (the event ends there),
    or when ``sit_outs`` is False and not everyone can be (a first round is refused so at the start).
    """
    levels = levels_before(players, earlier, rounds, number)
    order = sorted(players, key=lambda s: (-levels[nick_key(s.nick)], -s.strength, nick_key(s.nick)))
    met = {frozenset((nick_key(s.a), nick_key(s.b))) for s in earlier if s.b is not None}
    had_bye = {nick_key(s.a) for s in earlier if s.b is None}
    widest = largest_difference(rules, cap)
    budget = [_SEARCH_STEPS]
    candidates: list[Side | None] = [None]
    if len(order) % 2:
        # The bye: a player without one, lowest level first, then the weakest at the start.
        candidates = [
            *sorted(
                order,
                key=lambda s: (nick_key(s.nick) in had_bye, levels[nick_key(s.nick)], s.strength, nick_key(s.nick)),
            )
        ]
    for bye in candidates:
        rest = [s for s in order if s is not bye]
        found = _match(rest, [levels[nick_key(s.nick)] for s in rest], met, widest, budget, 0)
        if found is not None:
            return [Pair(a, b) for a, b in found[0]] + ([Pair(bye, None)] if bye is not None else [])
        if budget[0] <= 0:
            break
    if sit_outs:
        all_levels = [levels[nick_key(s.nick)] for s in order]
        for out in range(len(order) % 2 + 2, len(order) - 1, 2):
            budget[0] = _SEARCH_STEPS
            found = _match(order, all_levels, met, widest, budget, out)
            if found is not None:
                games, sat = found
                return [Pair(a, b) for a, b in games] + [Pair(s, None) for s in sat]
    raise HistoryError("event-no-pairing", value=number)


def _match(
    order: Sequence[Side],
    levels: Sequence[Quarters],
    played: set[frozenset[str]],
    widest: Quarters,
    budget: list[int],
    out: int,
) -> tuple[list[tuple[Side, Side]], list[Side]] | None:
    """Pair ``order`` (highest level first) top down, each with the nearest level below it allowed, ``out`` players
    sitting out (each only when no partner is left for them); None if impossible.

    The order is by level, so the nearest allowed partner is the first free one further down. A depth-first
    search: the first pairing found is the greedy one whenever that works; it backs up only as far as a dead
    end (a free player with no free allowed partner, more of them than may still sit out) forces it.
    """
    # Long: one depth-first search: its walk is a closure over the search state (free, chosen, sat, the budget), beside
    # the table of allowed partners it walks.
    keys = [nick_key(s.nick) for s in order]
    count = len(order)
    allowed = [
        [
            j
            for j in range(count)
            if j != i and abs(levels[i] - levels[j]) <= widest and frozenset((keys[i], keys[j])) not in played
        ]
        for i in range(count)
    ]
    if sum(1 for partners in allowed if not partners) > out:
        return None  # more players nobody may meet than may sit out: no search can pair them
    free = [True] * count
    chosen: list[tuple[int, int]] = []
    sat: list[int] = []

    def stranded() -> int:
        return sum(1 for i in range(count) if free[i] and not any(free[j] for j in allowed[i]))

    def walk(left: int) -> bool:
        budget[0] -= 1
        if budget[0] <= 0:
            return False
        first = next((i for i, f in enumerate(free) if f), None)
        if first is None:
            return left == 0
        free[first] = False
        for other in allowed[first]:
            if other < first or not free[other]:
                continue
            free[other] = False
            if stranded() <= left:
                chosen.append((first, other))
                if walk(left):
                    return True
                chosen.pop()
            free[other] = True
        if left > 0 and stranded() <= left - 1:
            sat.append(first)
            if walk(left - 1):
                return True
            sat.pop()
        free[first] = True
        return False

    if not walk(out):
        return None
    return [(order[i], order[j]) for i, j in chosen], [order[i] for i in sat]


# --- standings ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LevelStanding:
    """One line of an accelerated event's standings (quarters): the level now, the FUS coefficient, the tally."""

    place: int
    nick: str
    strength: Quarters  # at the start: the first level
    level: Quarters
    coefficient: Quarters
    streak: int
    wins: int
    draws: int
    losses: int
    byes: int
    withdrawn: bool = False

    @property
    def climbed(self) -> Quarters:
        """How far the level rose in the event."""
        return self.level - self.strength


def level_standings(
    players: Sequence[Side], seats: Sequence[SeatLike], rounds: int, withdrawn: Iterable[str] = ()
) -> tuple[LevelStanding, ...]:
    """The standings: level, then the FUS coefficient, then wins, highest first; equals share a place.

    The coefficient of A from a game with B: (B's level now - A's level now) - (B's level - A's level
    when they played). Positive: A gave B too much handicap (or took too little), as it turned out.
    """
    now = climb(players, seats, rounds)
    coefficient, tally = _coefficients(now, seats)
    gone = {nick_key(n) for n in withdrawn}

    def rank(s: Side) -> tuple[int, int, int]:
        key = nick_key(s.nick)
        return now.level[key], coefficient[key], tally[key][0]

    order = sorted(players, key=lambda s: (*(-x for x in rank(s)), -s.strength, nick_key(s.nick)))
    lines: list[LevelStanding] = []
    for index, side in enumerate(order):
        key = nick_key(side.nick)
        place = lines[-1].place if lines and rank(order[index - 1]) == rank(side) else index + 1
        wins, draws, losses, byes = tally[key]
        lines.append(
            LevelStanding(
                place,
                side.nick,
                side.strength,
                now.level[key],
                coefficient[key],
                now.streak[key],
                wins,
                draws,
                losses,
                byes,
                key in gone,
            )
        )
    return tuple(lines)


def _coefficients(now: Climb, seats: Sequence[SeatLike]) -> tuple[dict[str, int], dict[str, list[int]]]:
    """Each player's FUS coefficient, and their wins, draws, losses and byes, from the decided seats."""
    coefficient = dict.fromkeys(now.level, 0)
    tally = {key: [0, 0, 0, 0] for key in now.level}  # wins, draws, losses, byes
    for seat in seats:
        a = nick_key(seat.a)
        if seat.b is None:
            tally[a][3] += 1
            continue
        result = seat.result
        if result is None:
            continue
        b = nick_key(seat.b)
        then = now.before[seat.round]
        coefficient[a] += (now.level[b] - now.level[a]) - (then[b] - then[a])
        coefficient[b] += (now.level[a] - now.level[b]) - (then[a] - then[b])
        if result == _DRAW:
            tally[a][1] += 1
            tally[b][1] += 1
        else:
            winner, loser = (a, b) if result == _A_WINS else (b, a)
            tally[winner][0] += 1
            tally[loser][2] += 1
    return coefficient, tally
