"""The club's evening: which evening a check-in belongs to, and when the list is empty again."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.config import CONFIG_NAME, Config, load, save
from kiosk.errors import ConfigError
from kiosk.evening import club_evening, evening_of, is_open, list_opens, window

FIVE_PM, THREE_AM = time(17, 0), time(3, 0)


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


@pytest.mark.parametrize(
    ("now", "evening", "open_"),
    [
        ("2026-11-30T16:30", "2026-11-30", False),  # early: already on tonight's list
        ("2026-11-30T17:00", "2026-11-30", True),
        ("2026-11-30T23:59", "2026-11-30", True),
        ("2026-12-01T00:30", "2026-11-30", True),  # past midnight, still Monday's evening
        ("2026-12-01T02:59", "2026-11-30", True),
        ("2026-12-01T03:00", "2026-12-01", False),  # the evening ended: a new, empty list
        ("2026-12-01T11:00", "2026-12-01", False),
    ],
)
def test_an_evening_that_goes_past_midnight(now: str, evening: str, open_: bool) -> None:
    assert evening_of(at(now), FIVE_PM, THREE_AM) == date.fromisoformat(evening)
    assert is_open(at(now), FIVE_PM, THREE_AM) is open_


@pytest.mark.parametrize(
    ("now", "evening", "open_"),
    [
        ("2026-11-28T09:00", "2026-11-28", False),
        ("2026-11-28T10:00", "2026-11-28", True),
        ("2026-11-28T21:59", "2026-11-28", True),
        ("2026-11-28T22:00", "2026-11-29", False),  # a Saturday club ends at 22:00: the list is empty
    ],
)
def test_an_evening_that_ends_the_same_day(now: str, evening: str, open_: bool) -> None:
    starts, ends = time(10, 0), time(22, 0)
    assert evening_of(at(now), starts, ends) == date.fromisoformat(evening)
    assert is_open(at(now), starts, ends) is open_


def test_the_window_of_an_evening() -> None:
    assert window(date(2026, 11, 30), FIVE_PM, THREE_AM) == (at("2026-11-30T17:00"), at("2026-12-01T03:00"))
    # Start equal to the end: a club open round the clock; the list turns over at that time.
    assert window(date(2026, 11, 30), FIVE_PM, FIVE_PM) == (at("2026-11-30T17:00"), at("2026-12-01T17:00"))


def test_an_evenings_list_opens_when_the_evening_before_ended() -> None:
    assert list_opens(date(2026, 11, 30), FIVE_PM, THREE_AM) == at("2026-11-30T03:00")
    assert list_opens(date(2026, 11, 28), time(10, 0), time(22, 0)) == at("2026-11-27T22:00")


def test_the_clubs_evening_follows_its_settings() -> None:
    config = Config().with_changes(evening_starts=time(18, 30), evening_ends=time(23, 0))
    assert club_evening(config, at("2026-11-30T23:30")) == (
        date(2026, 12, 1),
        at("2026-12-01T18:30"),
        at("2026-12-01T23:00"),
    )


times = st.times().map(lambda t: t.replace(second=0, microsecond=0))
moments = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2035, 1, 1))


@given(now=moments, starts=times, ends=times)
def test_every_moment_belongs_to_the_first_evening_that_has_not_ended(now: datetime, starts: time, ends: time) -> None:
    evening = evening_of(now, starts, ends)
    start, end = window(evening, starts, ends)
    assert now < end  # not an evening that is over
    previous_end = window(evening - timedelta(days=1), starts, ends)[1]
    assert previous_end <= now  # and the one before it is over
    assert is_open(now, starts, ends) == (start <= now)


# --- the setting in semedori.toml ------------------------------------------------------------


def test_the_clubs_hours_are_read_from_the_file_and_round_trip(tmp_path: Path) -> None:
    (tmp_path / CONFIG_NAME).write_text('[club]\nevening_starts = "18:30"\nevening_ends = 23:00:00\n', "utf-8")
    config = load(tmp_path)
    assert (config.evening_starts, config.evening_ends) == (time(18, 30), time(23, 0))
    save(tmp_path, config)
    assert 'evening_starts = "18:30"' in (tmp_path / CONFIG_NAME).read_text("utf-8")
    assert load(tmp_path) == config


def test_the_default_evening_is_five_pm_to_three_am(tmp_path: Path) -> None:
    assert (load(tmp_path).evening_starts, load(tmp_path).evening_ends) == (FIVE_PM, THREE_AM)


@pytest.mark.parametrize("value", ['"25:00"', '"7pm"', '"17"', "17", '"17:60"', '""'])
def test_a_bad_hour_names_the_setting(tmp_path: Path, value: str) -> None:
    (tmp_path / CONFIG_NAME).write_text(f"[club]\nevening_starts = {value}\n", "utf-8")
    with pytest.raises(ConfigError, match="evening_starts"):
        load(tmp_path)


def test_an_hour_without_a_leading_zero_is_fine(tmp_path: Path) -> None:
    (tmp_path / CONFIG_NAME).write_text('[club]\nevening_ends = "1:30"\n', "utf-8")
    assert load(tmp_path).evening_ends == time(1, 30)


def test_tonights_games_run_from_the_end_of_the_evening_before_to_the_end_of_tonights() -> None:
    from kiosk.config import Config
    from kiosk.evening import tonights_games

    club = Config()  # 17:00 to 03:00
    # Half past midnight is still Wednesday's evening: its 23:40 game is tonight's, not yesterday's.
    assert tonights_games(club, datetime(2026, 11, 5, 0, 30)) == (datetime(2026, 11, 4, 3, 0), datetime(2026, 11, 5, 3))
    # An early game at 16:30 on Thursday is Thursday's.
    assert tonights_games(club, datetime(2026, 11, 5, 16, 30)) == (datetime(2026, 11, 5, 3), datetime(2026, 11, 6, 3))
