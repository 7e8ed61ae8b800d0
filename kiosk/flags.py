"""Magnets the owner may want to rehang with a quick correction (docs/rules.md §5): returners and streaks.

- A **returner** played a game after ``weeks`` or more without one (the club's sleeper weeks, or
  ``DEFAULT_AWAY_WEEKS`` when sleepers are off): their field is from before the break. The flag
  stays for ``RECENT_WEEKS`` after the return, until a quick correction of that magnet.
- A **streak** is ``STREAK`` or more results the same way in a row on a magnet, up to its latest
  game: wins, or losses (a free loss is a loss). A draw ends a streak; a game that does not move the
  magnet by §4's exceptions (White of a training game, a member against a guest) says nothing
  about it and is skipped. Only games after the magnet's last quick correction count.

Pure: it reads a replayed board (games and changes) and the kiosk's time.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from kiosk.board import Board, Magnet
from kiosk.events import nick_key

STREAK = 4
DEFAULT_AWAY_WEEKS = 12
RECENT_WEEKS = 4
WON, LOST = ("win", "clear-win"), ("loss", "clear-loss", "free-loss")


@dataclass(frozen=True, slots=True)
class Flag:
    """One magnet to look at: ``kind`` "returner" or "streak"."""

    kind: str
    magnet: Magnet
    since: datetime  # the return game, or the streak's first game
    count: int  # weeks away, or games in the streak
    direction: str = ""  # a streak's "won" or "lost"


def away_weeks(sleeper_weeks: int) -> int:
    """How long a break makes a returner: the sleeper weeks, or the default when sleepers are off."""
    return sleeper_weeks if sleeper_weeks > 0 else DEFAULT_AWAY_WEEKS


def flags(board: Board, now: datetime, weeks: int) -> list[Flag]:
    """Returners of the last ``RECENT_WEEKS`` and current streaks, returners first, then longest streaks."""
    games: dict[tuple[str, int], list[tuple[datetime, str]]] = defaultdict(list)
    for game in board.games:
        if game.at <= now:
            for nick, move in game.moves.items():
                games[(nick_key(nick), game.size)].append((game.at, move.why))
    joined: dict[tuple[str, int], datetime] = {}
    corrected: dict[tuple[str, int], datetime] = {}
    for change in board.changes:
        key = (nick_key(change.nick), change.size)
        if change.why == "joined":
            joined.setdefault(key, change.at)
        elif change.why == "correction" and change.at <= now:
            corrected[key] = max(corrected.get(key, change.at), change.at)
    found: list[Flag] = []
    for magnet in board.magnets:
        if magnet.retired:
            continue
        key = (nick_key(magnet.nick), magnet.size)
        played = sorted(games.get(key, []), key=lambda item: item[0])
        correction = corrected.get(key)
        returner = _returner(magnet, played, joined.get(key), correction, now, weeks)
        if returner is not None:
            found.append(returner)
        streak = _streak(magnet, [p for p in played if correction is None or p[0] > correction])
        if streak is not None:
            found.append(streak)
    return sorted(found, key=lambda f: (f.kind != "returner", -f.count, nick_key(f.magnet.nick), f.magnet.size))


def _returner(
    magnet: Magnet,
    played: list[tuple[datetime, str]],
    joined: datetime | None,
    correction: datetime | None,
    now: datetime,
    weeks: int,
) -> Flag | None:
    """The latest return after a break of ``weeks`` or more, if recent and not corrected since."""
    previous = joined
    back: tuple[datetime, int] | None = None
    for at, _why in played:
        if previous is not None and at - previous >= timedelta(weeks=weeks):
            back = (at, (at - previous).days // 7)
        previous = at
    if back is None or back[0] < now - timedelta(weeks=RECENT_WEEKS):
        return None
    if correction is not None and correction >= back[0]:
        return None
    return Flag("returner", magnet, back[0], back[1])


def _streak(magnet: Magnet, played: list[tuple[datetime, str]]) -> Flag | None:
    """The run of results the same way that ends with the magnet's latest game, if ``STREAK`` or longer."""
    count, direction, since = 0, "", None
    for at, why in reversed(played):
        if why in ("training", "vs-guest"):
            continue  # the magnet stayed: the game says nothing about it
        way = "won" if why in WON else ("lost" if why in LOST else "")
        if not way or (direction and way != direction):
            break
        direction, count, since = way, count + 1, at
    if count < STREAK or since is None:
        return None
    return Flag("streak", magnet, since, count, direction)
