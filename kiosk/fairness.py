"""Does the handicap table fit this club? The fairness audit of the club's own games (docs/fairness.md).

Pure: it reads a replayed board's games and the rules in force, never the clock or the store.

The table rests on one constant per size, the points a difference of 1 is worth (2 / 5 / 13 on
9x9 / 13x13 / 19x19, a move being worth 13 points). The audit asks two things of the club's
games on each size, both from the weaker player's side (Black in every handicap game):

- **By handicap row** (a row is the starting moves; 0 is the even row): how often the weaker
  player won (a draw is half a win) against the 50 % the table aims for, with a Wilson
  interval, and the weaker player's mean margin with its interval. Fewer than
  ``ROW_GAMES`` games in a row: "not enough games".
- **The points per strength that would have made the games fairest**: the ``k`` of the model
  "the weaker player's margin is ``V − k·d`` plus noise", ``V`` the points the handicap gave
  (komi's worth for the first move, 13 for every further move, one per prisoner; 0 in an even
  game, where komi pays for the first move) and ``d`` the two players' difference in strength:
  the fields as a person last set them (a placement, a quick correction, a shift) for games
  within ``SET_FIELD_GAMES`` of that, as the magnets' own moves adapt to the table (docs/fairness.md,
  "Why the fields as set"); the board's own fields when too few games are. The noise is normal
  with a spread the games decide; a margin below the size's clear margin counts as it is, a
  clear result (the clear margin or more, or a resignation) says only "at least the clear
  margin", a win nobody measured only who won.
  ``k`` is where that likelihood peaks; its interval is every ``k`` whose profile likelihood
  is within ``CHI2_95 / 2`` of the peak (the likelihood-ratio interval, about 95 %).
  Fewer than ``SIZE_GAMES`` games on a size: "not enough games".

When the interval leaves out the table's constant and the nearest half point to the peak
differs from it, the audit suggests a dated rule change of that size's constant (the owner
previews it through the rule change preview and saves it; nothing here writes).

Games that say nothing of the table are left out: games of another kind than rated, an
occasional game (only one magnet on the size), a game with a guest (a guest's field says
nothing yet, docs/rules.md §2).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple

from kiosk.board import GameResult
from kiosk.config import Config
from kiosk.events import RESIGNATION, RuleChange, nick_key
from kiosk.handicap import KOMI, MOVE_POINTS, SIZES, Handicap, SizeRules, handicap_for
from kiosk.rulechanges import timeline
from kiosk.scale import QUARTERS

ROW_GAMES = 20  # fewer games in a handicap row prove nothing about it
# A field a person set (a member's placement, a quick correction, a shift) says the player's strength for this many
# of the magnet's games after it; by then the magnet's own moves have taken over, and they adapt to the table.
SET_FIELD_GAMES = 30
SIZE_GAMES = 100  # fewer games on a size prove nothing about its constant
Z_95 = 1.959963984540054  # the normal quantile of a two-sided 95 % interval
CHI2_95 = 3.841458820694124  # chi-square, one degree of freedom, 95 %
STEP = Fraction(1, 2)  # a suggested constant is a whole or a half number of points


class Audited(NamedTuple):
    """One game as the audit reads it, from the weaker player's side (the first player's when both are equal)."""

    size: int
    row: int  # starting moves of the handicap; 0 for an even game
    # Floats, not Fractions: quarters and half points are exact in binary, and 50,000 games read faster.
    difference: float  # the two magnets' difference at the game, in strength (>= 0)
    given: float  # the points the handicap gave the weaker player (V)
    score: float  # 1 a win of the weaker player, 1/2 a draw, 0 a loss
    margin: float | None  # the weaker player's margin (negative: lost); None when nobody measured it
    clear: bool  # a clear result (a resignation, or at least the clear margin)
    # The difference of the two fields as a person last set them (stronger by the board minus weaker, so it may be
    # negative), when both were set within SET_FIELD_GAMES of the magnet's games; None otherwise (``set_fields``).
    set_difference: float | None = None


@lru_cache(maxsize=1024)  # a club's games have few handicaps
def points_given(handicap: Handicap) -> float:
    """``V``: what the handicap gives Black in points; 0 in an even game (komi pays for the first move)."""
    if handicap.even:
        return 0.0
    return float(KOMI + MOVE_POINTS * (handicap.moves - 1) + handicap.prisoners)


def audited(game: GameResult, rules: SizeRules) -> Audited | None:
    """A game as the audit reads it; None for a game that says nothing of the table (see the module's text)."""
    if not game.rated or len(game.moves) != 2:
        return None
    moves = [game.moves[nick] for nick in game.players]
    if any(m.why == "vs-guest" for m in moves):
        return None
    a, b = game.players
    first_weaker = moves[0].before <= moves[1].before
    weaker = a if first_weaker else b
    difference = abs(moves[0].before - moves[1].before) / QUARTERS
    margin: float | None
    if game.winner is None:
        score, margin, clear = 0.5, 0.0, False
    else:
        won = game.winner == weaker or nick_key(game.winner) == nick_key(weaker)
        score = 1.0 if won else 0.0
        if game.by == RESIGNATION:
            margin, clear = float(rules.clear_margin), True
        elif isinstance(game.by, Fraction):
            margin, clear = float(game.by), game.by >= rules.clear_margin
        else:
            margin, clear = None, False
        if margin is not None and not won:
            margin = -margin
    row = 0 if game.handicap.even else game.handicap.moves
    return Audited(game.size, row, difference, points_given(game.handicap), score, margin, clear)


def audited_games(games: Iterable[GameResult], rules_at: Any) -> list[Audited]:
    """Every game the audit reads, in replay order; ``rules_at(game)`` gives the size's rules in force at the game.

    Each carries the difference of the fields as a person last set them (``set_difference``): the board's
    moves adapt to the table (docs/fairness.md, "Why the fields as set"), so the constant is fitted on those.
    """
    found = []
    fields = _SetFields()
    for game in games:
        item = audited(game, rules_at(game))
        set_difference = fields.difference(game)
        if item is not None:
            found.append(item._replace(set_difference=set_difference) if set_difference is not None else item)
        fields.played(game)
    return found


class _SetFields:
    """Where a person last hung each magnet, and how many games it has played since (``audited_games``).

    A magnet's field is a person's when it is first seen (a member's placement), or when it hangs elsewhere than
    its last game left it (a quick correction, a shift: an owner's act). A guest's field is nobody's judgement
    yet, so a guest who becomes a member has no set field until the owner sets one.
    """

    def __init__(self) -> None:
        self.last: dict[tuple[str, int], int] = {}  # the field after the magnet's last game
        self.set: dict[tuple[str, int], tuple[int, int]] = {}  # the field as set, and the games played since
        self.guests: set[tuple[str, int]] = set()

    def _field(self, game: GameResult, nick: str) -> int | None:
        key = (nick_key(nick), game.size)
        move = game.moves.get(nick)
        if move is None:
            return None
        if self.last.get(key) != move.before:  # placed, corrected or shifted since its last game: a person's act
            self.guests.discard(key)
            self.set[key] = (move.before, 0)
        if key in self.guests or key not in self.set:
            return None
        field, since = self.set[key]
        return field if since < SET_FIELD_GAMES else None

    def difference(self, game: GameResult) -> float | None:
        """The game's difference on the fields as set: the board's stronger one's minus the weaker one's."""
        if len(game.moves) != 2:
            return None
        a, b = game.players
        fields = [self._field(game, nick) for nick in (a, b)]
        first, second = fields
        if first is None or second is None:
            return None
        weaker_first = game.moves[a].before <= game.moves[b].before
        weaker, stronger = (first, second) if weaker_first else (second, first)
        return (stronger - weaker) / QUARTERS

    def played(self, game: GameResult) -> None:
        """After the game: the fields it left, a rated game more since each was set; a guest has no set field."""
        for nick, move in game.moves.items():
            key = (nick_key(nick), game.size)
            self.last[key] = move.after
            if key in self.set and game.rated:
                field, since = self.set[key]
                self.set[key] = (field, since + 1)
        guests = [
            other
            for nick, move in game.moves.items()
            if move.why == "vs-guest"
            for other in game.players
            if other != nick
        ]
        guests += [milestone[1] for milestone in game.milestones if milestone[0] == "member"]
        for nick in guests:  # a guest's field, and a new member's, come from games as a guest: no person set them
            key = (nick_key(nick), game.size)
            self.guests.add(key)
            self.set.pop(key, None)


@dataclass(frozen=True)
class Interval:
    """A figure with its 95 % interval."""

    value: float
    low: float
    high: float

    def holds(self, x: float) -> bool:
        return self.low <= x <= self.high


def wilson(wins: float, games: int) -> Interval:
    """A win rate with its Wilson score interval (95 %): honest near 0 % and 100 % and for few games."""
    p = wins / games
    z2 = Z_95 * Z_95
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = Z_95 * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float]) -> Interval | None:
    """A mean with its normal 95 % interval; None for fewer than two values."""
    if len(values) < 2:
        return None
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    half = Z_95 * spread / math.sqrt(len(values))
    return Interval(mean, mean - half, mean + half)


@dataclass(frozen=True)
class Row:
    """One handicap row of a size: the weaker player's wins and margins against the table's aim."""

    size: int
    moves: int  # 0: the even row
    games: int
    wins: float  # the weaker player's, a draw counting half
    rate: Interval | None  # None when there are not enough games
    measured: int  # games with a margin
    margin: Interval | None  # the weaker player's mean margin in points; None when not enough games

    @property
    def enough(self) -> bool:
        return self.rate is not None

    @property
    def fair(self) -> bool | None:
        """True when 50 % is inside the interval; None without enough games."""
        return None if self.rate is None else self.rate.holds(0.5)


def rows(games: Sequence[Audited], size: int) -> tuple[Row, ...]:
    """The handicap rows of one size that have games, the even row first."""
    by_row: dict[int, list[Audited]] = {}
    for g in games:
        if g.size == size and not (g.row == 0 and g.difference == 0):  # an even game of equals has no weaker side
            by_row.setdefault(g.row, []).append(g)
    result = []
    for moves in sorted(by_row):
        items = by_row[moves]
        wins = sum(g.score for g in items)
        margins = [g.margin for g in items if g.margin is not None]
        enough = len(items) >= ROW_GAMES
        rate = wilson(wins, len(items)) if enough else None
        margin = mean_interval(margins) if enough and len(margins) >= ROW_GAMES else None
        result.append(Row(size, moves, len(items), wins, rate, len(margins), margin))
    return tuple(result)


# --- the points per strength that fit the games best ------------------------------------------


class _Likelihood:
    """The log-likelihood of ``k`` and the spread, from a size's games summed up once (fast on 50,000 games).

    Margins below the clear margin enter through four sums (the normal part is a quadratic in
    ``k``); clear results and unmeasured wins are counted by (``V``, ``d``, what is known), so
    each evaluation costs the number of distinct such cells, not of games.
    """

    def __init__(self, games: Sequence[Audited], clear_margin: float) -> None:
        self.n = 0
        self.uu = self.ud = self.dd = 0.0
        cells: Counter[tuple[float, float, float, int]] = Counter()
        for g in games:
            v, d = g.given, g.difference
            if g.margin is not None and not g.clear:
                u = g.margin - v  # the residual is u + k·d
                self.n += 1
                self.uu += u * u
                self.ud += u * d
                self.dd += d * d
            elif g.margin is not None:  # at least the clear margin, on the side of the sign
                sign = 1 if g.margin > 0 else -1
                cells[(v, d, clear_margin, sign)] += 1
            else:  # only who won (a draw always has its margin, 0)
                cells[(v, d, 0.0, 1 if g.score else -1)] += 1
        self.cells = list(cells.items())

    def __call__(self, k: float, spread: float) -> float:
        squares = self.uu + 2 * k * self.ud + k * k * self.dd
        total = -self.n * math.log(spread) - squares / (2 * spread * spread)
        for (v, d, threshold, sign), count in self.cells:
            mean = v - k * d
            # P(margin >= threshold) for a win, P(margin <= -threshold) for a loss
            total += count * _log_normal_tail(sign * (mean - sign * threshold) / spread)
        return total

    def widest(self, k: float) -> float:
        """The spread that suits ``k`` best, searched wide (0.2 to 400 points): where the narrow searches centre."""
        return math.exp(_maximum(lambda s: self(k, math.exp(s)), math.log(0.2), math.log(400.0), 40)[0])

    def profile(self, k: float, centre: float) -> float:
        """The likelihood of ``k`` at the spread that suits it best, searched within a factor 3 of ``centre``."""
        return _maximum(lambda s: self(k, math.exp(s)), math.log(centre / 3), math.log(centre * 3), 22)[1]


def _log_normal_tail(x: float) -> float:
    """log Φ(x), the log of the normal distribution function, safe far into the left tail."""
    if x > -30:
        return math.log(max(0.5 * math.erfc(-x / math.sqrt(2)), 1e-300))
    return -0.5 * x * x - math.log(-x) - 0.5 * math.log(2 * math.pi)  # the tail's asymptote


def _maximum(f: Any, low: float, high: float, steps: int) -> tuple[float, float]:
    """Golden-section search for the peak of a unimodal ``f`` on [low, high]: (where, value)."""
    ratio = (math.sqrt(5) - 1) / 2
    a, b = low, high
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = f(d)
    return (c, fc) if fc >= fd else (d, fd)


def _crossing(f: Any, inside: float, outside: float, level: float, steps: int = 26) -> float:
    """Where ``f`` falls to ``level`` between ``inside`` (above it) and ``outside`` (below it), by bisection."""
    for _ in range(steps):
        middle = (inside + outside) / 2
        if f(middle) >= level:
            inside = middle
        else:
            outside = middle
    return (inside + outside) / 2


@dataclass(frozen=True)
class Constant:
    """The points per strength that would have made a size's games fairest, with its interval."""

    size: int
    games: int
    table: Fraction  # the constant in force now
    found: Interval | None  # None when there are not enough games
    spread: float | None  # the noise of one game's margin, in points
    open_ended: bool = False  # the interval reached the end of the search (the games hardly tell)
    # Fitted on the fields as a person set them (``set_games`` games); False: on the board's own fields, too few
    # games having set fields (a club whose owner never placed or corrected magnets lately): near, not at, the truth.
    on_set_fields: bool = False
    set_games: int = 0

    @property
    def enough(self) -> bool:
        return self.found is not None

    @property
    def clear(self) -> bool:
        """True when the evidence leaves the table's constant out."""
        return self.found is not None and not self.open_ended and not self.found.holds(float(self.table))


def constant(games: Sequence[Audited], rules: SizeRules) -> Constant:
    """The fitted points per strength of one size's games (``games`` of that size only)."""
    table = rules.points_per_strength
    on_set = [g._replace(difference=g.set_difference) for g in games if g.set_difference is not None]
    fitted = on_set if len(on_set) >= SIZE_GAMES else list(games)
    if len(games) < SIZE_GAMES or not any(g.difference for g in fitted):
        return Constant(rules.size, len(games), table, None, None, set_games=len(on_set))
    like = _Likelihood(fitted, float(rules.clear_margin))
    centre = like.widest(float(table))  # a constant far off the table's changes the spread by far less than 3 times

    def profile(k: float) -> float:
        return like.profile(k, centre)

    top = 4.0 * float(table) + 10.0
    best, peak = _maximum(profile, 0.0, top, 32)
    level = peak - CHI2_95 / 2
    low = 0.0 if profile(0.0) >= level else _crossing(profile, best, 0.0, level)
    high = top if profile(top) >= level else _crossing(profile, best, top, level)
    open_ended = high >= top or (low <= 0.0 and best > 0.0 and profile(0.0) >= level)
    found = Interval(best, low, high)
    on_fields = fitted is on_set
    return Constant(rules.size, len(games), table, found, like.widest(best), open_ended, on_fields, len(on_set))


def suggested_constant(found: Constant) -> Fraction | None:
    """The constant to suggest: the nearest half point to the peak, when the evidence is clear and it differs.

    A whole or half number, as the club's tables are printed; with many games the interval is narrower than
    that step, so the suggestion need not lie inside it, only nearer the peak than the table's constant is.
    """
    if not found.clear or found.found is None:
        return None
    value = Fraction(round(found.found.value / float(STEP))) * STEP
    if value <= 0 or value == found.table:
        return None
    return value


# --- the whole audit --------------------------------------------------------------------------


@dataclass(frozen=True)
class SizeAudit:
    """Everything the audit says of one size."""

    size: int
    rows: tuple[Row, ...]
    constant: Constant
    suggestion: RuleChange | None  # the dated rule change the owner may preview and save
    changed_games: int  # of the audited games, how many would have had another handicap under the suggestion


@dataclass(frozen=True)
class Audit:
    """The fairness audit of every size with games, as of ``now``."""

    now: datetime
    sizes: tuple[SizeAudit, ...]

    def of(self, size: int) -> SizeAudit | None:
        return next((s for s in self.sizes if s.size == size), None)


def suggestion_for(rules: SizeRules, value: Fraction, now: datetime) -> RuleChange:
    """The rule change of a size's constant, dated ``now`` (to the minute): games from then on use it."""
    at = now.replace(second=0, microsecond=0)
    return RuleChange(at, (SizeRules(rules.size, value, rules.clear_margin, rules.training_moves),), None, None, None)


def changed_handicaps(games: Sequence[Audited], rules: SizeRules, value: Fraction) -> int:
    """How many of the games would have had another handicap with the constant ``value``."""
    other = SizeRules(rules.size, value, rules.clear_margin, rules.training_moves)
    quarters = Counter(int(g.difference * QUARTERS) for g in games)
    return sum(n for q, n in quarters.items() if handicap_for(q, rules) != handicap_for(q, other))


def audit(games: Iterable[GameResult], config: Config, now: datetime, rules_at: Any = None) -> Audit:
    """The audit of ``games`` played up to ``now``; ``config`` holds the rules in force now.

    ``rules_at(game)`` gives a game's size rules in force when it was played (the clear margin
    decides what counts as a clear result); without it, the rules of ``config``.
    """
    read = rules_at or (lambda game: config.size_rules[game.size])
    found = audited_games((g for g in games if g.at <= now), read)
    result = []
    for size in SIZES:
        mine = [g for g in found if g.size == size]
        if not mine:
            continue
        rules = config.size_rules[size]
        fitted = constant(mine, rules)
        value = suggested_constant(fitted)
        change = suggestion_for(rules, value, now) if value is not None else None
        changed = changed_handicaps(mine, rules, value) if value is not None else 0
        result.append(SizeAudit(size, rows(mine, size), fitted, change, changed))
    return Audit(now, tuple(result))


def report(games: Iterable[GameResult], base: Config, changes: Sequence[RuleChange], now: datetime) -> Audit:
    """The audit of a history's games: ``base`` the rules of semedori.toml, ``changes`` the history's rule changes.

    Each game is read with the rules in force when it was played; the suggestion starts from those in force now.
    """
    dated = [d for d in timeline(base, changes) if d.at <= now]
    times = [d.at for d in dated]
    in_force = dated[-1].after if dated else base

    def rules_at(game: GameResult) -> SizeRules:
        index = bisect_right(times, game.at)
        return (dated[index - 1].after if index else base).size_rules[game.size]

    return audit(games, in_force, now, rules_at)


def interval_json(found: Interval | None, digits: int) -> dict[str, float] | None:
    if found is None:
        return None
    return {"value": round(found.value, digits), "low": round(found.low, digits), "high": round(found.high, digits)}


def to_json(made: Audit) -> dict[str, Any]:
    """The audit as ``semedori fairness --json`` prints it (rates 0..1, margins and constants in points)."""
    sizes = []
    for s in made.sizes:
        c = s.constant
        sizes.append(
            {
                "size": s.size,
                "games": c.games,
                "enough": c.enough,
                "table": float(c.table),
                "found": interval_json(c.found, 3),
                "open_ended": c.open_ended,
                "spread": round(c.spread, 2) if c.spread is not None else None,
                "clear": c.clear,
                "on_set_fields": c.on_set_fields,
                "set_games": c.set_games,
                "rows": [
                    {
                        "moves": r.moves,
                        "games": r.games,
                        "wins": float(r.wins),
                        "enough": r.enough,
                        "rate": interval_json(r.rate, 4),
                        "fair": r.fair,
                        "measured": r.measured,
                        "margin": interval_json(r.margin, 2),
                    }
                    for r in s.rows
                ],
                "suggestion": (
                    {
                        "at": s.suggestion.at.isoformat(timespec="minutes"),
                        "points_per_strength": float(s.suggestion.handicap[0].points_per_strength),
                        "changed_games": s.changed_games,
                    }
                    if s.suggestion is not None
                    else None
                ),
            }
        )
    return {"now": made.now.isoformat(timespec="minutes"), "sizes": sizes}
