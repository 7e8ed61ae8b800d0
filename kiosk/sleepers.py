"""Which magnets hang on the wall and the public board: not retired, and not resting (sleepers).

A magnet unplayed for the club's ``sleeper_weeks`` leaves the wall by itself: it keeps its
field and its history, and the next game it plays hangs it back (docs/rules.md §5). Resting
is read from the clock, never written into the history, so it changes no strength and no
replay. The weeks count while the club plays: weeks in which nobody was active on any
size (a summer break, a paper board imported with no game since) put no magnet to rest,
so the wall is never emptied by the club's own pause. A player checked in for tonight
hangs again at once, before their first game. This module is the one place that decides who
hangs: the wall, the board page, the API's board and ``semedori board`` all ask ``hanging``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # kiosk.board asks this module who hangs
    from kiosk.board import Magnet


def resting_since(magnet: Magnet, now: datetime | None, weeks: int, latest: datetime | None = None) -> datetime | None:
    """When the magnet left the wall for lack of games (``weeks`` after its last activity); None while it hangs.

    ``now`` is the kiosk's clock in club time; ``weeks`` 0 (or no clock) means no magnet ever rests.
    ``latest`` is the club's last activity (``latest_activity``): the weeks count only up to it, so
    a club's break puts nobody to rest. A retired magnet is not a sleeper:
    the owner took it down.
    """
    if weeks <= 0 or now is None or magnet.active is None or magnet.retired:
        return None
    since = magnet.active + timedelta(weeks=weeks)
    until = now if latest is None else min(now, latest)
    return since if since <= until else None


def latest_activity(magnets: Iterable[Magnet]) -> datetime | None:
    """The club's last activity: the latest game, joining, correction or restore of any magnet (None: none)."""
    return max((m.active for m in magnets if m.active is not None), default=None)


def hangs(
    magnet: Magnet, now: datetime | None, weeks: int, latest: datetime | None = None, here: Collection[str] = ()
) -> bool:
    """True when the magnet is on the wall: not retired, and not resting unless its player is here tonight."""
    if magnet.retired:
        return False
    return magnet.nick in here or resting_since(magnet, now, weeks, latest) is None


def hanging(
    magnets: Iterable[Magnet],
    now: datetime | None = None,
    weeks: int = 0,
    size: int | None = None,
    here: Collection[str] = (),
) -> tuple[Magnet, ...]:
    """The magnets on the wall (of one size when given), in the order given.

    Without a clock (``now`` None or ``weeks`` 0) no magnet rests: only retired magnets have left.
    ``here``: the nicknames checked in for tonight, whose magnets hang even while resting.
    """
    magnets = tuple(magnets)
    latest = latest_activity(magnets)
    return tuple(m for m in magnets if (size is None or m.size == size) and hangs(m, now, weeks, latest, here))


def resting(
    magnets: Iterable[Magnet], now: datetime | None, weeks: int, size: int, here: Collection[str] = ()
) -> tuple[Magnet, ...]:
    """The magnets of a size resting off the wall (not retired, not hanging): the board names how many."""
    magnets = tuple(magnets)
    shown = set(hanging(magnets, now, weeks, size, here))
    return tuple(m for m in magnets if m.size == size and not m.retired and m not in shown)


def sizes_hanging(
    magnets: Iterable[Magnet], now: datetime | None, weeks: int, here: Collection[str] = ()
) -> tuple[int, ...]:
    """The board sizes with at least one magnet on the wall, smallest first."""
    return tuple(sorted({m.size for m in hanging(magnets, now, weeks, here=here)}))
