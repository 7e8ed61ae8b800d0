"""Which magnets hang on the wall and the public board: not retired, and not resting (sleepers).

A magnet unplayed for the club's ``sleeper_weeks`` leaves the wall by itself: it keeps its
field and its history, and the next game it plays hangs it back (docs/rules.md §5). Resting
is read from the clock, never written into the history, so it changes no strength and no
replay. This module is the one place that decides who hangs: the wall, the board page, the
API's board and ``semedori board`` all ask ``hanging``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # kiosk.board asks this module who hangs
    from kiosk.board import Magnet


def resting_since(magnet: Magnet, now: datetime | None, weeks: int) -> datetime | None:
    """When the magnet left the wall for lack of games (``weeks`` after its last activity); None while it hangs.

    ``now`` is the kiosk's clock in club time; ``weeks`` 0 (or no clock) means no magnet ever rests.
    A retired magnet is not a sleeper: the owner took it down.
    """
    if weeks <= 0 or now is None or magnet.active is None or magnet.retired:
        return None
    since = magnet.active + timedelta(weeks=weeks)
    return since if since <= now else None


def hangs(magnet: Magnet, now: datetime | None, weeks: int) -> bool:
    """True when the magnet is on the wall: not retired and not resting."""
    return not magnet.retired and resting_since(magnet, now, weeks) is None


def hanging(
    magnets: Iterable[Magnet], now: datetime | None = None, weeks: int = 0, size: int | None = None
) -> tuple[Magnet, ...]:
    """The magnets on the wall (of one size when given), in the order given.

    Without a clock (``now`` None or ``weeks`` 0) no magnet rests: only retired magnets have left.
    """
    return tuple(m for m in magnets if (size is None or m.size == size) and hangs(m, now, weeks))


def sizes_hanging(magnets: Iterable[Magnet], now: datetime | None, weeks: int) -> tuple[int, ...]:
    """The board sizes with at least one magnet on the wall, smallest first."""
    return tuple(sorted({m.size for m in hanging(magnets, now, weeks)}))
