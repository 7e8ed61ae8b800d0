"""The test clubs' clock: one club evening in December 2026 that every test's app runs on, and the days back
it lets a phone date a game.

The fixtures' histories are dated November 2026. On the machine's clock they would age: a phone may date a
game only ``days_back`` days back (kiosk/recording.py), at most ``MOST`` (kiosk/config.py), so from late 2036
a club could no longer reach its history's first day, and "tonight" would be whatever evening the suite ran
on. So a test hands its app a clock (``SEMEDORI_PI_CLOCK`` in the Flask config, read by web/clock.py): this
evening by default, another moment where the test is about that moment. The product never sets the key: on a
Pi the app reads the Pi's clock, and nothing a phone sends reaches the config.

``apps_on_a_clock_of_their_own`` is the guard the web, browser and reliability folders run every test in: a
request to an app that was given no clock fails its test.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from typing import Any

from flask import Flask, request_started

# Tuesday 1 December 2026, 19:30 in Warsaw: the club's evening (17:00 to 03:00) is on, tonight's check-in list is
# this evening's, and the fixtures' November is the month just gone (days_back_for reaches it).
CLUB_EVENING = datetime(2026, 12, 1, 18, 30, tzinfo=UTC)

# Tests date games up to a month before a history's first line, to see them refused for the right reason
# (before a player joined the board), never as too old.
MARGIN = timedelta(days=60)
MOST = 3660  # kiosk/config.py refuses more days back

CLOCK_KEY = "SEMEDORI_PI_CLOCK"


def club_evening() -> datetime:
    """The Pi's clock in the tests: always ``CLUB_EVENING`` (UTC), however long a test takes."""
    return CLUB_EVENING


def machines_clock() -> datetime:
    """The machine's clock (UTC), given by name to a test about what the store stamps with it (when a game was
    entered): the kiosk's time agrees with those stamps only when the app's clock is the machine's too."""
    return datetime.now(UTC)


def on_the_club_clock(config: Mapping[str, Any]) -> dict[str, Any]:
    """``config`` for ``create_app`` with the Pi's clock at ``CLUB_EVENING``, unless it gives a clock of its own."""
    return {CLOCK_KEY: club_evening, **config}


def days_back_for(lines: Iterable[Mapping[str, object]], now: datetime = CLUB_EVENING) -> int:
    """The days back that reach ``MARGIN`` before the first of ``lines`` from ``now`` (the app's clock)."""
    first = min(date.fromisoformat(str(line["at"])[:10]) for line in lines)
    days = (now.date() - first + MARGIN).days
    assert days <= MOST, f"this test's history starts {first}, more than {MOST} days before its clock's {now.date()}"
    return days


@contextmanager
def apps_on_a_clock_of_their_own() -> Iterator[None]:
    """Fail (on leaving) if an app was asked for a page without a clock given to it in ``SEMEDORI_PI_CLOCK``."""
    unclocked: list[str] = []

    def check(sender: Flask, **_extra: object) -> None:
        # Any thread's request (waitress serves the browser tests from its own); the test fails as it ends.
        if CLOCK_KEY not in sender.config:
            unclocked.append(f"{sender.config.get('SEMEDORI_HOME')}")

    with request_started.connected_to(check):
        yield
    assert not unclocked, (
        f"an app on the machine's clock served this test ({unclocked[0]}): give it one, "
        "create_app(on_the_club_clock({...})) from tests/club_days.py, or SEMEDORI_PI_CLOCK of its own"
    )
