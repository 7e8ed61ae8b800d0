"""Drift: how the club's numbers moved, and the shifts that would set them back (docs/rules.md §5, "Drift").

Pure: it reads a replayed board (games and changes) and the kiosk's time, never the clock or the
store. Everything is exact (quarters and ``Fraction``); the owner's page, ``semedori drift`` and
``--json`` only format what is here.

- **By month**: the mean and median strength of each size's magnets at the end of each month
  (every magnet that had joined by then, retired ones too, as a shift moves them too).
- **Gains since the last shift**: a game between two magnets that both move by the usual arrows
  adds nothing to the club's total; the arrows that are not matched by the other side are the
  inflation, counted by why they were not matched (a free loss, a training game, a member against
  a guest, an occasional player, a loss at 0 or a win at the top). The strength those games added
  (which also counts arrows of different worth on both sides of 30 and 40) divided by the magnets
  that played since the shift is the mean rise; the suggested shift takes it back, in whole
  strengths (a shift of less than 1 lands most low magnets back on their own field, §5).
- **Groups**: players who played (almost) only among themselves over the last ``WINDOW_WEEKS``
  weeks: the connected parts of the graph whose edges are pairs with at least ``PAIR_GAMES`` games.
  A group also plays at least three games in four among itself (``ALMOST_ONLY``).
  Between two groups, the **result error** of a game is the margin a player of the first group
  got minus the margin the handicap expected, in points, divided by the size's points per 1
  strength: how much stronger than its numbers the first group played. Expected: 0 after a
  handicap up to the half point of rounding (exactly ``need − t`` for White, §3), and ``d ×
  points per strength`` for the stronger player of an even game (komi pays for the first move).
  A resignation counts as the size's clear margin; a win nobody measured has no margin and is
  left out of the mean (it is counted). The suggested group shift moves the smaller group by
  the mean error, in whole strengths.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction

from kiosk.board import Board, GameResult, Magnet
from kiosk.config import Config
from kiosk.events import RESIGNATION, Event, Shift, nick_key
from kiosk.handicap import KOMI, MOVE_POINTS, SIZES
from kiosk.previews import shift_preview_after
from kiosk.replay import Replay
from kiosk.scale import QUARTERS, Quarters, arrows_between

WINDOW_WEEKS = 26  # groups are found in the games of the last half year
PAIR_GAMES = 2  # a pair that met once is a visit; twice or more ties the two into one group
SMALLEST_GROUP = 3  # fewer players are not a group worth shifting
ALMOST_ONLY = Fraction(3, 4)  # "(almost) only among themselves": at least three games in four inside the group
# Why an arrow was not matched by the other side's (docs/rules.md §4).
SOURCES = ("free-loss", "training", "vs-guest", "occasional", "edge")


@dataclass(frozen=True, slots=True)
class Month:
    """The magnets of one size at the end of a month."""

    month: str  # "2026-11"
    count: int
    mean: Fraction  # strength (not quarters)
    median: Fraction


@dataclass(frozen=True)
class Gains:
    """What games added to one size's numbers since its last shift."""

    size: int
    since: datetime | None  # the last shift of the whole size (or of every size); None: never
    games: int
    players: int  # magnets that played since then
    arrows: dict[str, int]  # unmatched arrows by source (SOURCES); negative where they went down
    strength: Fraction  # what every game since the shift added to the size's total, in strength
    amount: Quarters  # the suggested shift, whole strengths; 0: none

    @property
    def mean_rise(self) -> Fraction:
        """The rise of the players' mean since the shift that games alone explain."""
        return self.strength / self.players if self.players else Fraction(0)


@dataclass(frozen=True)
class Group:
    """Players of one size who played (almost) only among themselves."""

    size: int
    number: int  # 1, 2, ... largest first
    nicks: tuple[str, ...]
    inside: int  # games among themselves in the window
    outside: int  # games with anyone else


@dataclass(frozen=True)
class Gap:
    """The result error of the games between two groups, and the shift that would close it."""

    size: int
    first: Group
    second: Group
    games: int
    measured: int  # games with a margin (a resignation counts as the clear margin)
    error: Fraction | None  # how much stronger than its numbers ``first`` played, in strength; None: no margin
    shifted: Group | None  # the group the suggestion moves (the smaller one)
    amount: Quarters  # its shift in quarters, whole strengths; 0: none


@dataclass(frozen=True)
class Drift:
    """Everything the owner's drift page and ``semedori drift`` show."""

    now: datetime
    months: dict[int, tuple[Month, ...]]
    gains: dict[int, Gains]
    groups: dict[int, tuple[Group, ...]]
    gaps: tuple[Gap, ...] = field(default=())


def whole_strengths(value: Fraction) -> Quarters:
    """A shift in whole strengths, in quarters: the nearest whole number, a half toward no shift."""
    whole = abs(value)
    rounded = int(whole) + (1 if whole - int(whole) > Fraction(1, 2) else 0)
    return (rounded if value > 0 else -rounded) * QUARTERS


def by_month(board: Board, size: int, now: datetime) -> tuple[Month, ...]:
    """The mean and median strength of a size's magnets at the end of every month up to ``now``'s."""
    points: list[tuple[datetime, int, str, Quarters]] = [
        (c.at, 0, nick_key(c.nick), c.after) for c in board.changes if c.size == size
    ]
    for game in board.games:
        if game.size == size:
            points.extend((game.at, 1, nick_key(nick), move.after) for nick, move in game.moves.items())
    points = [p for p in points if p[0] <= now]
    if not points:
        return ()
    points.sort(key=lambda p: (p[0], p[1]))
    months: list[Month] = []
    strengths: dict[str, Quarters] = {}
    index = 0
    month = (points[0][0].year, points[0][0].month)
    while month <= (now.year, now.month):
        end = datetime(month[0] + month[1] // 12, month[1] % 12 + 1, 1)
        while index < len(points) and points[index][0] < end:
            strengths[points[index][2]] = points[index][3]
            index += 1
        values = sorted(strengths.values())
        if values:
            mean = Fraction(sum(values), len(values) * QUARTERS)
            median = Fraction(statistics.median_low(values) + statistics.median_high(values), 2 * QUARTERS)
            months.append(Month(f"{month[0]:04d}-{month[1]:02d}", len(values), mean, median))
        month = (month[0] + month[1] // 12, month[1] % 12 + 1)
    return tuple(months)


def unmatched(game: GameResult) -> tuple[str | None, int]:
    """The source (SOURCES) of a game's unmatched arrows and how many (up positive); (None, 0) when matched."""
    moves = list(game.moves.values())
    arrows = [arrows_between(m.before, m.after) for m in moves]
    if len(moves) == 1:
        return ("occasional", arrows[0]) if arrows[0] else (None, 0)
    whys = [m.why for m in moves]
    net = sum(arrows)
    for source in ("training", "vs-guest", "free-loss"):
        if source in whys:
            return (source, net) if net else (None, 0)
    return ("edge", net) if net else (None, 0)


def last_shift(shifts: Iterable[Shift], size: int, now: datetime) -> datetime | None:
    """When the whole size was last shifted (a shift of one size or of every size; a group's does not count)."""
    times = [s.at for s in shifts if s.nicks is None and s.size in (None, size) and s.at <= now]
    return max(times, default=None)


def gains(board: Board, size: int, shifts: Iterable[Shift], now: datetime) -> Gains:
    """The unmatched arrows and the strength games added on a size since its last shift, and the shift back."""
    since = last_shift(shifts, size, now)
    arrows = dict.fromkeys(SOURCES, 0)
    total = 0
    games = 0
    players: set[str] = set()
    for game in board.games:
        if game.size != size or game.at > now or (since is not None and game.at < since):
            continue
        games += 1
        players.update(nick_key(n) for n in game.moves)
        source, count = unmatched(game)
        if source is not None:
            arrows[source] += count
        total += sum(m.after - m.before for m in game.moves.values())
    strength = Fraction(total, QUARTERS)
    rise = strength / len(players) if players else Fraction(0)
    return Gains(size, since, games, len(players), arrows, strength, -whole_strengths(rise))


def groups(board: Board, size: int, now: datetime) -> tuple[Group, ...]:
    """The groups of a size in the last ``WINDOW_WEEKS`` weeks: connected by pairs that met ``PAIR_GAMES`` times."""
    start = now - timedelta(weeks=WINDOW_WEEKS)
    pairs: dict[tuple[str, str], int] = defaultdict(int)
    names: dict[str, str] = {}
    for game in _window(board, size, start, now):
        a, b = (nick_key(n) for n in game.players)
        names[a], names[b] = game.players
        pairs[(a, b) if a < b else (b, a)] += 1
    parent = {key: key for key in names}

    def root(key: str) -> str:
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for (a, b), count in pairs.items():
        if count >= PAIR_GAMES:
            parent[root(a)] = root(b)
    parts: dict[str, list[str]] = defaultdict(list)
    for key in names:
        parts[root(key)].append(key)
    found = sorted(
        (sorted(keys) for keys in parts.values() if len(keys) >= SMALLEST_GROUP), key=lambda keys: (-len(keys), keys)
    )
    result: list[Group] = []
    for keys in found:
        members = set(keys)
        inside = sum(n for (a, b), n in pairs.items() if a in members and b in members)
        outside = sum(n for (a, b), n in pairs.items() if (a in members) != (b in members))
        if inside < ALMOST_ONLY * (inside + outside):
            continue  # tied together, but not apart from the rest of the club
        nicks = tuple(sorted((names[k] for k in keys), key=nick_key))
        result.append(Group(size, len(result) + 1, nicks, inside, outside))
    return tuple(result)


def _window(board: Board, size: int, start: datetime, now: datetime) -> Iterable[GameResult]:
    """The games of a size in [start, now] where both players have a magnet on the size."""
    return (g for g in board.games if g.size == size and start <= g.at <= now and len(g.moves) == 2)


def result_error(game: GameResult, nick: str, config: Config) -> Fraction | None:
    """How much better than the handicap expected ``nick`` did in a game, in strength; None without a margin."""
    rules = config.size_rules[game.size]
    other = game.players[1] if game.players[0] == nick else game.players[0]
    mine, theirs = game.moves[nick].before, game.moves[other].before
    points = Fraction(abs(mine - theirs), QUARTERS) * rules.points_per_strength
    if game.handicap.even:
        expected_for_stronger = points  # komi pays for the first move
    else:
        given = KOMI + MOVE_POINTS * (game.handicap.moves - 1) + game.handicap.prisoners
        expected_for_stronger = points - given  # White's expected margin: need − t, within half a point
    expected = expected_for_stronger if mine >= theirs else -expected_for_stronger
    if game.winner is None:
        actual = Fraction(0)
    elif game.by == RESIGNATION:
        actual = rules.clear_margin
    elif isinstance(game.by, Fraction):
        actual = game.by
    else:
        return None  # a win nobody measured
    if game.winner is not None and nick_key(game.winner) != nick_key(nick):
        actual = -actual
    return (actual - expected) / rules.points_per_strength


def gaps(board: Board, found: Sequence[Group], config: Config, now: datetime) -> tuple[Gap, ...]:
    """The result error between every two groups of one size that played each other in the window."""
    if len(found) < 2:
        return ()
    size = found[0].size
    group_of = {nick_key(n): g for g in found for n in g.nicks}
    games: dict[tuple[int, int], list[Fraction | None]] = defaultdict(list)
    for game in _window(board, size, now - timedelta(weeks=WINDOW_WEEKS), now):
        a, b = (group_of.get(nick_key(n)) for n in game.players)
        if a is None or b is None or a is b:
            continue
        first_nick = game.players[0] if a.number < b.number else game.players[1]
        games[(min(a.number, b.number), max(a.number, b.number))].append(result_error(game, first_nick, config))
    result = []
    for (x, y), errors in sorted(games.items()):
        first, second = found[x - 1], found[y - 1]
        measured = [e for e in errors if e is not None]
        error = Fraction(sum(measured), len(measured)) if measured else None
        shifted, amount = None, 0
        if error is not None and whole_strengths(error):
            # The smaller group moves (the larger one is the club's scale); on a tie, the one that goes down.
            if len(second.nicks) < len(first.nicks) or (len(second.nicks) == len(first.nicks) and error > 0):
                shifted, amount = second, -whole_strengths(error)
            else:
                shifted, amount = first, whole_strengths(error)
        result.append(Gap(size, first, second, len(errors), len(measured), error, shifted, amount))
    return tuple(result)


def drift(board: Board, shifts: Iterable[Shift], config: Config, now: datetime, sizes: Iterable[int]) -> Drift:
    """The whole drift report of the given sizes, as of ``now`` (the kiosk's clock, club time)."""
    shifts = list(shifts)
    months: dict[int, tuple[Month, ...]] = {}
    gained: dict[int, Gains] = {}
    found: dict[int, tuple[Group, ...]] = {}
    between: list[Gap] = []
    for size in sizes:
        months[size] = by_month(board, size, now)
        if not months[size]:
            continue
        gained[size] = gains(board, size, shifts, now)
        found[size] = groups(board, size, now)
        between.extend(gaps(board, found[size], config, now))
    return Drift(now, {s: m for s, m in months.items() if m}, gained, found, tuple(between))


@dataclass(frozen=True)
class Report:
    """The drift of a history with a preview of every suggested shift (magnet, where it would land)."""

    drift: Drift
    board: Board
    size_previews: dict[int, list[tuple[Magnet, Quarters]]]
    gap_previews: tuple[list[tuple[Magnet, Quarters]], ...]


def suggested_shift(size: int, amount: Quarters, now: datetime, nicks: Sequence[str] | None = None) -> Shift:
    """The shift event a suggestion stands for (what the owner's shift page would save)."""
    return Shift(now, amount, size, tuple(nicks) if nicks is not None else None)


def report(history: Sequence[tuple[int, Event]], config: Config, now: datetime) -> Report:
    """Replay the history once and make the drift report, previewing each suggested shift with the shift preview."""
    engine = Replay(config)
    board = engine.run(history)
    shifts = [event for _, event in history if isinstance(event, Shift)]
    found = drift(board, shifts, config, now, SIZES)
    position = (history[-1][0] + 1) if history else 1
    size_previews = {
        size: shift_preview_after(engine, position, suggested_shift(size, g.amount, now))
        for size, g in found.gains.items()
        if g.amount
    }
    gap_previews = tuple(
        shift_preview_after(engine, position, suggested_shift(gap.size, gap.amount, now, gap.shifted.nicks))
        if gap.shifted is not None and gap.amount
        else []
        for gap in found.gaps
    )
    return Report(found, board, size_previews, gap_previews)
