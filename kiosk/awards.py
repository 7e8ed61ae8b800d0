"""The month's awards (docs/rules.md §8): most improved, most games, most opponents, first even game up.

A month is a calendar month of the club's time zone: games carry club time, so a game at
23:59 on the 30th of November in Warsaw is November's, whatever UTC says. Ties share an
award; an award needs a minimum (one game is not "the most games"). Pure: the games are
passed in, and ``read_month`` reads them through any source with the store's ``games_page``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from kiosk.board import GameResult
from kiosk.catalogue import N_, translate
from kiosk.events import nick_key
from kiosk.scale import arrows_between

Month = tuple[int, int]  # (year, month) in club time

MOST_IMPROVED = "improved"
MOST_GAMES = "games"
MOST_OPPONENTS = "opponents"
FIRST_EVEN = "even"
KINDS = (MOST_IMPROVED, MOST_GAMES, MOST_OPPONENTS, FIRST_EVEN)

# The least that wins an award: a net arrow up; two games; two different opponents.
MIN_ARROWS = 1
MIN_GAMES = 2
MIN_OPPONENTS = 2
# For the first week of a month the wall still shows the month just gone: its awards are final then.
SHOWN_DAYS_AFTER = 7
# Every game of a month (a busy club plays a few hundred).
ALL_GAMES = 1_000_000
# The earlier games of a candidate for the first even game with a stronger player, read a page at a time
# (each page twice the one before).
EARLIER_PAGE = 16


@dataclass(frozen=True, slots=True)
class Award:
    """One player's award for a month: ``count`` is the arrows, games or opponents (1 for a first even game)."""

    kind: str
    month: Month
    nick: str
    count: int
    # The first even game with a stronger player: who that was, and when.
    opponent: str | None = None
    at: datetime | None = None


@dataclass(frozen=True, slots=True)
class MonthAwards:
    """Every award of a month, by kind in ``KINDS`` order, tied winners by nickname."""

    month: Month
    awards: tuple[Award, ...] = ()

    def of(self, kind: str) -> tuple[Award, ...]:
        """The winners of one award (several when tied; none when nobody reached the minimum)."""
        return tuple(a for a in self.awards if a.kind == kind)

    def for_player(self, nick: str) -> tuple[Award, ...]:
        """The awards a player won this month."""
        key = nick_key(nick)
        return tuple(a for a in self.awards if nick_key(a.nick) == key)

    def find(self, kind: str, nick: str) -> Award | None:
        """A player's award of one kind, if they won it."""
        return next((a for a in self.for_player(nick) if a.kind == kind), None)


class GameSource(Protocol):
    """Where games are read from (``kiosk.store.Store`` is one)."""

    def games_page(
        self,
        limit: int = 50,
        before: int | None = None,
        nick: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[GameResult]:
        """Games played in [since, until), one player's when named, newest first."""
        ...


# The months as the club says them; their English is their id in the catalogue (kiosk/catalogue.py).
MONTH_NAMES = (
    N_("January"),
    N_("February"),
    N_("March"),
    N_("April"),
    N_("May"),
    N_("June"),
    N_("July"),
    N_("August"),
    N_("September"),
    N_("October"),
    N_("November"),
    N_("December"),
)


def month_name(month: Month, language: str) -> str:
    """A month as the club says it: ``November 2026``, ``listopad 2026``."""
    return f"{translate(language, MONTH_NAMES[month[1] - 1])} {month[0]}"


def month_of(at: datetime) -> Month:
    """The month of a club-time moment."""
    return (at.year, at.month)


def month_start(month: Month) -> datetime:
    """Midnight (club time) of the month's first day."""
    return datetime(month[0], month[1], 1)


def next_month(month: Month) -> Month:
    """The month after."""
    year, number = month
    return (year + 1, 1) if number == 12 else (year, number + 1)


def previous_month(month: Month) -> Month:
    """The month before."""
    year, number = month
    return (year - 1, 12) if number == 1 else (year, number - 1)


def shown_month(now: datetime) -> Month:
    """The month whose awards the wall shows: this one, but in a month's first week the month just gone."""
    month = month_of(now)
    return previous_month(month) if now.day <= SHOWN_DAYS_AFTER else month


def parse_month(text: str) -> Month | None:
    """``2026-11`` as a month; None for anything else (a page's address is typed by people)."""
    year, _, number = text.partition("-")
    if not (text.isascii() and len(year) == 4 and year.isdecimal() and len(number) == 2 and number.isdecimal()):
        return None
    if not (2000 <= int(year) <= 9998 and 1 <= int(number) <= 12):
        return None
    return (int(year), int(number))


def in_month(game: GameResult, month: Month) -> bool:
    """True for a game played in the month (club time)."""
    return month_start(month) <= game.at < month_start(next_month(month))


def stronger_opponent(game: GameResult, nick: str) -> str | None:
    """The opponent when the game was even and the opponent hung higher than the player before it, else None.

    Both need a magnet on the game's size (their strengths there decide "stronger"); only a rated game counts.
    """
    if not game.rated or not game.handicap.even or nick not in game.moves:
        return None  # a teaching or event-only game is not the step of playing even (docs/rules.md §8)
    other = game.players[1] if game.players[0] == nick else game.players[0]
    move = game.moves.get(other)
    if move is None or nick_key(other) == nick_key(nick):
        return None
    return other if move.before > game.moves[nick].before else None


def even_candidates(games: Iterable[GameResult], month: Month) -> set[str]:
    """Players who played an even game with a stronger player in the month: their earlier games decide."""
    found: set[str] = set()
    for game in games:
        if in_month(game, month):
            found.update(nick for nick in game.players if stronger_opponent(game, nick) is not None)
    return found


def _winners(kind: str, month: Month, counts: dict[str, int], names: dict[str, str], least: int) -> list[Award]:
    """Everyone with the highest count, if it reaches ``least``: a tie shares the award."""
    best = max(counts.values(), default=0)
    if best < least:
        return []
    keys = sorted(key for key, count in counts.items() if count == best)
    return [Award(kind, month, names[key], best) for key in keys]


def month_awards(month: Month, games: Iterable[GameResult], earlier: Iterable[GameResult] = ()) -> MonthAwards:
    """The month's awards from its games (others are skipped) and, for first even games, earlier games.

    ``earlier`` need only hold the earlier games of the month's ``even_candidates``; games
    in it from the month or later are ignored. Only a game's own moves count as arrows: a
    quick correction or a shift is not improvement.
    """
    arrows: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    opponents: dict[str, set[str]] = defaultdict(set)
    names: dict[str, str] = {}
    firsts: dict[str, Award] = {}
    start = month_start(month)
    before = {
        nick_key(nick)
        for game in earlier
        if game.at < start
        for nick in game.players
        if stronger_opponent(game, nick) is not None
    }
    for game in sorted((g for g in games if in_month(g, month)), key=lambda g: (g.at, g.id)):
        keys = [nick_key(nick) for nick in game.players]
        for nick, key, other in zip(game.players, keys, reversed(keys), strict=True):
            names[key] = nick
            played[key] += 1
            if other != key:
                opponents[key].add(other)
            move = game.moves.get(nick)
            if move is not None:
                arrows[key] += arrows_between(move.before, move.after)
            stronger = stronger_opponent(game, nick)
            if stronger is not None and key not in before and key not in firsts:
                firsts[key] = Award(FIRST_EVEN, month, nick, 1, opponent=stronger, at=game.at)
    found = [
        *_winners(MOST_IMPROVED, month, arrows, names, MIN_ARROWS),
        *_winners(MOST_GAMES, month, played, names, MIN_GAMES),
        *_winners(MOST_OPPONENTS, month, {k: len(v) for k, v in opponents.items()}, names, MIN_OPPONENTS),
        *(firsts[key] for key in sorted(firsts)),
    ]
    return MonthAwards(month, tuple(found))


def read_month(source: GameSource, month: Month) -> MonthAwards:
    """A month's awards read through the store: the month's games, then the candidates' earlier ones."""
    start, end = month_start(month), month_start(next_month(month))
    games = source.games_page(limit=ALL_GAMES, since=start, until=end)
    earlier: list[GameResult] = []
    for nick in sorted(even_candidates(games, month)):
        earlier += _earlier_even_game(source, nick, start)
    return month_awards(month, games, earlier)


def _earlier_even_game(source: GameSource, nick: str, start: datetime) -> list[GameResult]:
    """The player's latest even game with a stronger player before ``start`` (none: an empty list).

    Read newest first a page at a time, stopping at the first found: a regular player has thousands
    of games, and one who plays even with stronger players does so often.
    """
    before, limit = None, EARLIER_PAGE
    while True:
        page = source.games_page(limit=limit, before=before, nick=nick, until=start)
        found = [
            game
            for game in page
            if any(nick_key(p) == nick_key(nick) and stronger_opponent(game, p) for p in game.players)
        ]
        if found or len(page) < limit:
            return found[:1]
        before, limit = page[-1].id, limit * 2  # a short first page, then longer ones
