"""How many days back a test club lets a phone date a game: from its history's first day to the clock's today.

The fixtures' histories are dated November 2026. A phone may date a game only ``days_back`` days back
(kiosk/recording.py), so a club whose history is older than that refuses the tests' games as too old.
The days are counted from the history and the clock the test runs with, not set to the largest the
config allows: a test with a clock of its own (``SEMEDORI_PI_CLOCK``) gets the same days on any day it
runs; one on the real clock counts to today, and fails with what to do once its history is older than
a club may allow.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date, datetime, timedelta

# Tests date games up to a month before a history's first line, to see them refused for the right reason
# (before a player joined the board), never as too old.
MARGIN = timedelta(days=60)
MOST = 3660  # kiosk/config.py refuses more days back


def days_back_for(lines: Iterable[Mapping[str, object]], now: datetime | None = None) -> int:
    """The days back that reach ``MARGIN`` before the first of ``lines`` from ``now`` (the real clock: None)."""
    first = min(date.fromisoformat(str(line["at"])[:10]) for line in lines)
    today = (now or datetime.now().astimezone()).date()
    days = (today - first + MARGIN).days
    assert days <= MOST, (
        f"this test's history starts {first}, more than {MOST} days (the most a club may allow) before {today}: "
        "give the app a clock of its own (SEMEDORI_PI_CLOCK, as tests/web/test_web_drift.py does) and count from it"
    )
    return days
