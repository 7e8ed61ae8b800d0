"""Tie-breaks and places a prize-giving can use: the owner's chain, unique places, "why above me".

Pure: the standings are a function of the event's players and seats (``kiosk.tournament.Seat``).

* The score comes first (a win 1, a draw 1/2, a bye 1 once its round is reached), then the owner's
  **chain** of tie-breaks, each from ``CRITERIA``:

  - ``direct``: direct encounter, the points a player scored in the games among the players still
    equal at that step; it decides only when every two of them have met (otherwise it leaves them
    equal), as the FIDE and the Russian club rules (4.4) use it;
  - ``sos``: the sum of the opponents' scores;
  - ``sosos``: the sum of the opponents' SOS;
  - ``sodos``: the sum of the scores of the opponents one beat, half for a draw;
  - ``progress``: the progressive score, the sum of one's score after each round (an early win counts
    more), as OpenGotha's CUSS.

* **Byes** follow the EGF Tournament System Rules and OpenGotha's default ("count not played games as
  half a point" off): a round without an opponent adds 0 to SOS (and so to SOSOS and SODOS) in a Swiss; the
  bye's point is in the player's own score (and so in the opponents' SOS of those who met them).
* An event started before the owner could choose keeps the chain it was shown with (``TODAY``: SOS, SODOS);
  the start form offers OpenGotha's Swiss default (``OPENGOTHA``: SOS, SOSOS).
* Players equal on the score and the whole chain **share a place**, unless the owner asked for **unique
  places** (a ceremony): then the chain ends in the stated rule ``STRENGTH``: the stronger at the event's
  start is above (the Russian club rules, 4.5), and between equal strengths the nickname in alphabetical
  order (the event's seeding order; no lot: the standings must replay exactly).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from kiosk.errors import HistoryError
from kiosk.events import nick_key
from kiosk.league import bye_points

DIRECT, SOS, SOSOS, SODOS, PROGRESS = "direct", "sos", "sosos", "sodos", "progress"
CRITERIA = (DIRECT, SOS, SOSOS, SODOS, PROGRESS)
TODAY: tuple[str, ...] = (SOS, SODOS)  # the chain of an event started before the owner chose one
OPENGOTHA: tuple[str, ...] = (SOS, SOSOS)  # OpenGotha's Swiss default after the score (NBW, SOSW, SOSOSW)
LONGEST = len(CRITERIA)
# The stated end of a chain with unique places; SCORE names the score in an explanation.
SCORE, STRENGTH, SHARED = "score", "strength", "shared"


def chain_from(names: Iterable[str]) -> tuple[str, ...]:
    """An owner's chain, checked: known criteria, each once; ``HistoryError('bad-tiebreaks')`` otherwise."""
    chain = tuple(names)
    if len(set(chain)) != len(chain) or any(name not in CRITERIA for name in chain) or len(chain) > LONGEST:
        raise HistoryError("bad-tiebreaks", value=", ".join(chain))
    return chain


class SeatLike(Protocol):
    """A board of a round as ``kiosk.tournament.Seat`` has it (``b`` None: ``a``'s bye; ``result`` once known).

    A protocol, so that the standings (and kiosk.accelerated's) need no import of kiosk.tournament, which imports them.
    """

    @property
    def round(self) -> int: ...
    @property
    def a(self) -> str: ...
    @property
    def b(self) -> str | None: ...
    @property
    def result(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Numbers:
    """A player's numbers: score and every criterion (all computed, the chain picks), by nick key."""

    score: Fraction
    sos: Fraction
    sosos: Fraction
    sodos: Fraction
    progress: Fraction

    def of(self, name: str) -> Fraction:
        return {SCORE: self.score, SOS: self.sos, SOSOS: self.sosos, SODOS: self.sodos, PROGRESS: self.progress}[name]


_HALVES = {"a": 2, "b": 0, "draw": 1}  # the points of player a of a seat, in halves (b has 2 minus them)


def numbers(keys: Sequence[str], seats: Sequence[SeatLike], now: int) -> dict[str, Numbers]:
    """Every player's numbers from the seats with results (``now``: the round being played; a later bye waits).

    Counted in whole half-points (SODOS in quarters) and made exact fractions at the end: the phone asks for the
    standings after every tap, and a Fraction's every addition reduces by a gcd.
    """
    rounds = max((s.round for s in seats), default=0)
    gained: dict[str, dict[int, int]] = {key: {} for key in keys}  # halves won, by round
    opponents: dict[str, list[tuple[str, int]]] = {key: [] for key in keys}  # (opponent, my halves)
    for seat in seats:
        a = nick_key(seat.a)
        if seat.b is None:
            if seat.round <= now:  # a bye 1; a late starter's missed round its credit (kiosk.league)
                gained[a][seat.round] = gained[a].get(seat.round, 0) + int(2 * bye_points(seat.result))
            continue
        if seat.result is None:
            continue
        b = nick_key(seat.b)
        mine = _HALVES[seat.result]
        gained[a][seat.round] = gained[a].get(seat.round, 0) + mine
        gained[b][seat.round] = gained[b].get(seat.round, 0) + 2 - mine
        opponents[a].append((b, mine))
        opponents[b].append((a, 2 - mine))
    score = {key: sum(gained[key].values()) for key in keys}
    progress = {}
    for key in keys:
        running = total = 0
        won = gained[key]
        for number in range(1, rounds + 1):
            running += won.get(number, 0)
            total += running
        progress[key] = total
    sos = {key: sum(score[o] for o, _p in opponents[key]) for key in keys}
    return {
        key: Numbers(
            Fraction(score[key], 2),
            Fraction(sos[key], 2),
            Fraction(sum(sos[o] for o, _p in opponents[key]), 2),
            Fraction(sum(score[o] * p for o, p in opponents[key]), 4),
            Fraction(progress[key], 2),
        )
        for key in keys
    }


def _direct(group: Sequence[str], seats: Sequence[SeatLike]) -> dict[str, Fraction] | None:
    """Points each of ``group`` scored against the others of it; None when not every two of them have met."""
    inside = set(group)
    points = {key: Fraction(0) for key in group}
    met: set[frozenset[str]] = set()
    for seat in seats:
        if seat.b is None or seat.result is None:
            continue
        a, b = nick_key(seat.a), nick_key(seat.b)
        if a in inside and b in inside:
            mine = {"a": Fraction(1), "b": Fraction(0), "draw": Fraction(1, 2)}[seat.result]
            points[a] += mine
            points[b] += 1 - mine
            met.add(frozenset((a, b)))
    if len(met) < len(group) * (len(group) - 1) // 2:
        return None
    return points


@dataclass(frozen=True, slots=True)
class Ranked:
    """One player's line: place, the key the order used (score then the chain's values) and the numbers."""

    place: int
    key: str
    values: tuple[Fraction, ...]  # score, then each criterion of the chain, as ordered
    numbers: Numbers


def rank(
    players: Sequence[tuple[str, int]],
    seats: Sequence[SeatLike],
    now: int,
    chain: Sequence[str] = TODAY,
    unique: bool = False,
) -> tuple[Ranked, ...]:
    """The order of ``players`` (nick, strength at the start; seeding order) by the score, then the chain.

    Direct encounter is decided inside each group still equal when the chain reaches it, so it is
    computed step by step: the players are split into groups of equals, and each criterion splits the
    groups further. Equals at the end share a place, or (``unique``) go by strength, then nickname.
    """
    strength = {nick_key(n): s for n, s in players}
    keys = [nick_key(n) for n, _s in players]
    table = numbers(keys, seats, now)
    values: dict[str, list[Fraction]] = {key: [table[key].score] for key in keys}
    groups: list[list[str]] = [sorted(keys, key=lambda k: -table[k].score)]
    groups = _split(groups, lambda k: table[k].score)
    for name in chain:
        if name == DIRECT:
            found: dict[str, Fraction] = {}
            for group in groups:
                direct = _direct(group, seats) if len(group) > 1 else None
                for key in group:
                    found[key] = direct[key] if direct is not None else Fraction(0)
        else:
            found = {key: table[key].of(name) for key in keys}
        for key in keys:
            values[key].append(found[key])
        groups = _split(groups, found.__getitem__)
    lines = []
    index = 0
    for group in groups:
        ordered = sorted(group, key=lambda k: (-strength[k], k))
        for position, key in enumerate(ordered):
            place = index + 1 + (position if unique else 0)
            lines.append(Ranked(place, key, tuple(values[key]), table[key]))
        index += len(group)
    return tuple(lines)


def _split(groups: list[list[str]], value: Callable[[str], Fraction]) -> list[list[str]]:
    """Each group split by ``value`` (of a key), highest first; the groups' order kept."""
    out: list[list[str]] = []
    for group in groups:
        by: dict[Fraction, list[str]] = {}
        for key in group:
            by.setdefault(value(key), []).append(key)
        out += [by[v] for v in sorted(by, reverse=True)]
    return out


@dataclass(frozen=True, slots=True)
class Step:
    """One step of "why is she above me": a criterion and both players' numbers (upper first)."""

    name: str  # SCORE, a criterion, or STRENGTH / SHARED at the end
    upper: Fraction | int | None
    lower: Fraction | int | None


def why_above(
    upper: Ranked, lower: Ranked, chain: Sequence[str], strengths: Mapping[str, int]
) -> tuple[tuple[Step, ...], str]:
    """The numbers that put ``upper`` above ``lower``: each step up to the deciding one, and what decided it.

    The last step is the deciding one; equal steps before it show why the chain went on. When every value
    is equal the answer is STRENGTH (unique places: the stronger at the start, then the nickname) or
    SHARED (they share the place; listed stronger first, which decides nothing).
    """
    names = (SCORE, *chain)
    steps = []
    for name, up, low in zip(names, upper.values, lower.values, strict=True):
        steps.append(Step(name, up, low))
        if up != low:
            return tuple(steps), name
    if upper.place == lower.place:
        return tuple(steps), SHARED
    steps.append(Step(STRENGTH, strengths.get(upper.key), strengths.get(lower.key)))
    return tuple(steps), STRENGTH


@dataclass(frozen=True, slots=True)
class Choices:
    """The owner's choices for an event at its start; the defaults are the behaviour before."""

    tiebreaks: tuple[str, ...] | None = None  # None: TODAY (an event's line without the field)
    unique_places: bool = False
    handicap_cap: int | None = None  # kiosk.event_handicap
    handicap_less: int = 0
    even_top: int = 0
    avoid: tuple[tuple[str, str], ...] = ()  # kiosk.event_pairing
    first_round: str = "adjacent"
    prize_classes: tuple[int, ...] = ()  # kiosk.event_prizes: class bounds in quarters


NO_CHOICES = Choices()  # an event as before the board's full handicap, SOS then SODOS, shared places
