"""The test clubs' clock and days back (tests/club_days.py): counted from the app's clock, never the machine's."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from club_days import apps_on_a_clock_of_their_own, club_evening, days_back_for, on_the_club_clock

from kiosk.config import Config
from kiosk.evening import club_evening as evening_of
from kiosk.rules import club_now
from web import create_app

NOVEMBER = [{"at": "2026-11-01T10:00"}, {"at": "2026-11-02T18:00"}]


def test_the_club_evening_is_a_tuesday_evening_with_the_club_open_after_the_fixtures_november() -> None:
    config = Config()
    local = club_now(config, club_evening())
    assert local.strftime("%A %Y-%m-%d %H:%M") == "Tuesday 2026-12-01 19:30"
    assert evening_of(config, local)[0] == local.date()  # tonight's check-in list is this evening's


def test_days_back_are_counted_from_the_app_clock_the_same_on_any_day() -> None:
    assert days_back_for(NOVEMBER) == 30 + 60  # 1 November to 1 December, and the margin
    assert days_back_for(NOVEMBER, datetime(2026, 11, 30, 11, 0, tzinfo=UTC)) == 29 + 60


def test_a_history_older_than_a_club_may_allow_says_so() -> None:
    with pytest.raises(AssertionError, match="more than 3660 days before its clock's 2037-01-01"):
        days_back_for(NOVEMBER, datetime(2037, 1, 1, tzinfo=UTC))


def test_a_clock_the_test_gives_wins_over_the_club_evening() -> None:
    def monday() -> datetime:
        return datetime(2026, 11, 30, 18, 0, tzinfo=UTC)

    assert on_the_club_clock({"SEMEDORI_HOME": "x", "SEMEDORI_PI_CLOCK": monday})["SEMEDORI_PI_CLOCK"] is monday
    assert on_the_club_clock({"SEMEDORI_HOME": "x"})["SEMEDORI_PI_CLOCK"] is club_evening


def test_an_app_asked_for_a_page_on_the_machines_clock_fails_its_test(tmp_path: Path) -> None:
    unclocked = create_app({"SEMEDORI_HOME": str(tmp_path / "a"), "TESTING": True}).test_client()
    clocked = create_app(on_the_club_clock({"SEMEDORI_HOME": str(tmp_path / "b"), "TESTING": True})).test_client()
    with apps_on_a_clock_of_their_own():
        assert 'value="2026-12-01T19:30"' in clocked.get("/new").get_data(as_text=True)  # the form's "Played at"
    with pytest.raises(AssertionError, match="an app on the machine's clock"), apps_on_a_clock_of_their_own():
        unclocked.get("/new")
