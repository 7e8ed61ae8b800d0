"""A child's progress over the season, for the printable progress card. Pure: no I/O, no clock.

The season is the school year: it starts on 1 September. The card shows the player's label (as the
wall shows them: initials for a minor by default), their magnet's strength through the season, the
milestones (joining, becoming a member, playing even with someone for the first time, the season's
best field) and the month's awards they won.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from kiosk.awards import Award, MonthAwards
from kiosk.board import Board
from kiosk.events import nick_key
from kiosk.scale import Quarters

SEASON_MONTH = 9  # the season starts on 1 September, with the school year


def season_start(now: datetime) -> datetime:
    """The first day of the season ``now`` is in."""
    year = now.year if now.month >= SEASON_MONTH else now.year - 1
    return datetime(year, SEASON_MONTH, 1)


def season_name(start: datetime) -> str:
    """The season as a school year: ``2026/27``."""
    return f"{start.year}/{(start.year + 1) % 100:02d}"


@dataclass(frozen=True)
class Milestone:
    """Something worth telling on the card: ``kind`` one of joined, member, even, best."""

    at: datetime
    kind: str
    detail: str = ""  # the other player for "even", the field for "best" (as the board writes it)


@dataclass(frozen=True)
class Progress:
    """One magnet's season."""

    nick: str
    label: str
    size: int
    start: datetime
    now: datetime
    steps: tuple[tuple[datetime, Quarters], ...]  # where the magnet hung, from the season's start (or joining)
    games: int
    wins: int
    milestones: tuple[Milestone, ...]
    awards: tuple[Award, ...]

    @property
    def season(self) -> str:
        return season_name(self.start)

    @property
    def gained(self) -> Quarters:
        """How far the magnet climbed since the season's first point (negative when it fell)."""
        return self.steps[-1][1] - self.steps[0][1] if self.steps else 0


def progress(
    board: Board, nick: str, size: int, label: str, now: datetime, months: Iterable[MonthAwards] = ()
) -> Progress | None:
    """The season of ``nick``'s magnet on ``size`` up to ``now``; None when there is no such magnet."""
    from kiosk.scale import format_strength

    key = nick_key(nick)
    magnet = next((m for m in board.magnets if nick_key(m.nick) == key and m.size == size), None)
    if magnet is None:
        return None
    start = season_start(now)
    points: list[tuple[datetime, int, Quarters]] = []
    milestones: list[Milestone] = []
    for change in board.changes:
        if nick_key(change.nick) == key and change.size == size and change.at <= now:
            points.append((change.at, 0, change.after))
            if change.why == "joined" and change.at >= start:
                milestones.append(Milestone(change.at, "joined"))
    games = wins = 0
    for game in board.games:
        if game.at > now or game.size != size or key not in {nick_key(p) for p in game.players}:
            continue
        for name, move in game.moves.items():
            if nick_key(name) == key and game.rated:
                points.append((game.at, 1, move.after))
        if game.at < start:
            continue
        games += 1
        wins += game.winner is not None and nick_key(game.winner) == key
        for milestone in game.milestones:
            if milestone[0] == "member" and nick_key(milestone[1]) == key:
                milestones.append(Milestone(game.at, "member"))
            elif milestone[0] == "even" and key in {nick_key(n) for n in milestone[1:]}:
                other = next(n for n in milestone[1:] if nick_key(n) != key)
                milestones.append(Milestone(game.at, "even", other))
    points.sort(key=lambda p: (p[0], p[1]))
    before = [p for p in points if p[0] < start]
    season = [p for p in points if p[0] >= start]
    steps = ([(start, before[-1][2])] if before else []) + [(at, q) for at, _, q in season]
    if steps:
        best_at, best = max(((at, q) for at, q in steps), key=lambda s: (s[1], -s[0].timestamp()))
        if best > steps[0][1]:
            milestones.append(Milestone(best_at, "best", format_strength(best)))
    won = tuple(a for m in months for a in m.for_player(nick))
    milestones.sort(key=lambda m: m.at)
    return Progress(magnet.nick, label, size, start, now, tuple(steps), games, wins, tuple(milestones), won)
