"""What the wall shows, read once per refresh: magnets, recent games, the week's games, tonight's check-ins."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING

from display.address import form_address
from kiosk.awards import MonthAwards, month_awards, read_month, shown_month
from kiosk.board import Board, GameResult, Magnet
from kiosk.board_source import BoardSource
from kiosk.config import Config
from kiosk.handicap import SizeRules
from kiosk.neighbours import WALL_GAMES, arrows
from kiosk.privacy import Privacy, public_names
from kiosk.rules import club_now, shown_week
from kiosk.scale import Quarters
from kiosk.sleepers import hanging, resting, sizes_hanging

if TYPE_CHECKING:
    from display.standings import EventWall
    from display.tonight import Tonight

PAGES = ("board", "handicap", "week", "tonight", "event", "ruler")
RECENT_GAMES = WALL_GAMES  # the phone's board reads as many, for the same arrows (kiosk.neighbours)


# The club's defaults live in kiosk.config; a WallData made without a club (tests, demos) takes them.
_CLUB = Config()


@dataclass(frozen=True)
class WallData:
    """Everything one render needs, already read from the store."""

    club_name: str = _CLUB.club_name
    language: str = _CLUB.language
    form_url: str = _CLUB.form_url
    top: Quarters = _CLUB.top
    size_rules: Mapping[int, SizeRules] = field(default_factory=lambda: dict(_CLUB.size_rules))
    magnets: tuple[Magnet, ...] = ()
    recent: tuple[GameResult, ...] = ()  # newest first
    week: tuple[GameResult, ...] = ()  # this week's games, in replay order
    week_start: date = date(2026, 1, 5)
    updated: datetime | None = None  # when the data was read: every page says so, a frozen wall shows it
    # When the clock was last trusted (club time) and by whom: "ntp", "phones", or "" for never.
    clock_trusted: datetime | None = None
    clock_by: str = "ntp"
    # The quick check found the database damaged: the wall shows "restore a backup" and
    # names the newest good backup's file (None when there is none), never an empty board.
    damaged: bool = False
    backup: str | None = None
    # Tonight's check-ins, refusals and games (the tonight page, button C while the club is open); None: unread.
    tonight: Tonight | None = None
    # The month's awards (kiosk/awards.py) for the week page; None when they were not read.
    awards: MonthAwards | None = None
    # The club's sleeper weeks: a magnet unplayed that long (by ``updated``) rests off the wall (kiosk.sleepers).
    sleeper_weeks: int = 0
    # Tonight's open event (its round and standings, the event page); None when none is open.
    event: EventWall | None = None
    # The club's hours (kiosk.evening): the wall's arrows are for the moves of the last club evening.
    evening_starts: time = _CLUB.evening_starts
    evening_ends: time = _CLUB.evening_ends

    def sizes(self) -> tuple[int, ...]:
        """The board sizes that have magnets on the wall, smallest first."""
        return sizes_hanging(self.magnets, self.updated, self.sleeper_weeks, self.here())

    def on_size(self, size: int) -> tuple[Magnet, ...]:
        """The magnets hanging on one size (retired ones and sleepers have left; a sleeper here tonight hangs)."""
        return hanging(self.magnets, self.updated, self.sleeper_weeks, size, self.here())

    def resting_on(self, size: int) -> int:
        """How many magnets of a size rest off the wall (the board says so, never a silent gap)."""
        return len(resting(self.magnets, self.updated, self.sleeper_weeks, size, self.here()))

    def here(self) -> frozenset[str]:
        """Who checked in for tonight's evening: their magnets hang even while resting."""
        return frozenset(self.tonight.here) if self.tonight is not None else frozenset()

    def moved(self, size: int) -> dict[str, int]:
        """The magnets of a size that moved since the last club evening: +1 up, -1 down (the wall's ↑ and ↓).

        The evening is the club's (kiosk.evening: 17:00 to 03:00 by default, so a game at 00:30
        belongs to the evening before) of the last game on this size; a magnet's place before it
        is where its first move of that evening started.
        """
        # The rule is kiosk.neighbours.arrows: the phone's board shows the same arrows.
        return arrows((*self.recent, *self.week), self.on_size(size), size, self.evening_starts, self.evening_ends)

    def recent_on(self, size: int) -> tuple[GameResult, ...]:
        """The latest games on one size, newest first."""
        return tuple(g for g in self.recent if g.size == size)


@dataclass(frozen=True, slots=True)
class View:
    """Which page the wall shows, and for which board size."""

    page: str = "board"
    size: int = 13
    part: int = 0  # which page of the size's board (a club too large for one page has several)


def _data(
    config: Config,
    magnets: tuple[Magnet, ...],
    recent: list[GameResult],
    week: list[GameResult],
    now: datetime,
    awards: MonthAwards | None = None,
    privacy: Privacy | None = None,
    tonight: Tonight | None = None,
    event: EventWall | None = None,
) -> WallData:
    if privacy is not None:  # the wall never hides a player, but shows each by their public label
        # The owner's symbols stand beside the labels on every wall page ("★ M.²").
        names = public_names([m.nick for m in magnets], privacy).on_the_wall()
        magnets = tuple(names.magnet(m) for m in magnets)
        recent, week = [names.game(g) for g in recent], [names.game(g) for g in week]
        if awards is not None:  # the week page's awards name their winners by label too
            awards = replace(
                awards,
                awards=tuple(
                    replace(a, nick=names.label(a.nick), opponent=names.label(a.opponent) if a.opponent else None)
                    for a in awards.awards
                ),
            )
        if tonight is not None:
            tonight = tonight.labelled(names.label, names.game)
        if event is not None:
            event = event.labelled(names.label)
    return WallData(
        club_name=config.club_name,
        language=config.language,
        form_url=form_address(config.form_url),  # the QR code must hold a real address, not "{ip}"
        top=config.top,
        size_rules=config.size_rules,
        magnets=magnets,
        recent=tuple(recent),
        week=tuple(week),
        week_start=shown_week(now).date(),
        updated=now,
        awards=awards,
        sleeper_weeks=config.sleeper_weeks,
        tonight=tonight,
        event=event,
        evening_starts=config.evening_starts,
        evening_ends=config.evening_ends,
    )


@dataclass(frozen=True)
class DamagedDatabase:
    """The wall's source while the live database is damaged: nothing is read from it."""

    config: Config
    backup: str | None  # the newest good backup's file name, never a path
    folder: Path | None = None  # nothing is read beside it either

    def magnets(self) -> tuple[Magnet, ...]:
        return ()

    def recent_games(self, limit: int = 50, nick: str | None = None) -> list[GameResult]:
        return []

    def games_since(self, at: datetime) -> list[GameResult]:
        return []

    def games_page(
        self,
        limit: int = 50,
        before: int | None = None,
        nick: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[GameResult]:
        return []

    def privacy(self) -> Privacy:
        return Privacy()

    def checked_in(self, evening: date) -> list[str]:
        return []

    def refusals(self, evening: date) -> set[frozenset[str]]:
        return set()

    def change_counter(self) -> int:
        return 0


def from_source(source: BoardSource, now: datetime) -> WallData:
    """Read the wall's data from the store (``now`` in club time, naive)."""
    if isinstance(source, DamagedDatabase):
        return replace(_data(source.config, (), [], [], now), damaged=True, backup=source.backup)
    from display import standings, tonight

    data = _data(
        source.config,
        source.magnets(),
        source.recent_games(RECENT_GAMES),
        source.games_since(shown_week(now)),
        now,
        read_month(source, shown_month(now)),
        source.privacy(),
        tonight.read(source, source.config, now),
        standings.read(source, source.config, now),
    )
    folder = source.folder
    if folder is None:
        return data
    from kiosk import clockfile

    _told, clock = clockfile.current(folder, datetime.now(UTC))
    trusted = club_now(source.config, clock.trusted_at) if clock.trusted_at else None
    return replace(data, clock_trusted=trusted, clock_by=clock.trusted_by)


def from_board(board: Board, config: Config, now: datetime, privacy: Privacy | None = None) -> WallData:
    """The wall's data from a replayed board (tests, the demo club, previews)."""
    # Replay order is the store's (at, seq) order: reversed, it is newest first as recent_games gives.
    recent = list(islice(reversed(board.games), RECENT_GAMES))
    start = shown_week(now)
    week = [g for g in board.games if g.at >= start]
    awards = month_awards(shown_month(now), board.games, board.games)
    return _data(config, board.magnets, recent, week, now, awards, privacy)
