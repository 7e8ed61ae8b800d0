"""The test clubs' days back are counted from their history and the test's clock (tests/club_days.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from club_days import MOST, days_back_for

NOVEMBER = [{"at": "2026-11-01T10:00"}, {"at": "2026-11-02T18:00"}]


def test_a_clock_of_its_own_gives_the_same_days_on_any_day() -> None:
    assert days_back_for(NOVEMBER, datetime(2026, 11, 30, 11, 0, tzinfo=UTC)) == 29 + 60


def test_the_real_clock_counts_to_today() -> None:
    today = datetime.now().astimezone().date()
    assert days_back_for(NOVEMBER) == (today - date(2026, 11, 1)).days + 60 <= MOST


def test_a_history_older_than_a_club_may_allow_says_what_to_do() -> None:
    with pytest.raises(AssertionError, match="SEMEDORI_PI_CLOCK"):
        days_back_for(NOVEMBER, datetime(2037, 1, 1, tzinfo=UTC))
