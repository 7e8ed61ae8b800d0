"""Weeks and clocks at their edges: daylight-saving Sundays, ISO week 53, a clock that runs backwards.

The free first loss counts per ISO week (Monday to Sunday) in club time, Europe/Warsaw
by default. Games carry local club time without a zone, so a game at 02:30 on the
night the clocks jump is a game like any other; what a user notices is which loss of
the week was free.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from flask.testing import FlaskClient

import web.recording
from kiosk.events import parse_line
from kiosk.store import Store
from web import create_app

PLAYERS = ["Xawery", "Ala", "Bolek", "Celina", "Darek"]


def add_players(store: Store) -> None:
    """Five members at 20 on 9x9 (even games between all of them), added in October 2025."""
    for nick in PLAYERS:
        line = {"type": "player", "at": "2025-10-01T10:00", "nick": nick, "size": 9, "status": "member", "strength": 20}
        store.record(parse_line(json.dumps(line)))


def loss(store: Store, at: str, opponent: str = "Ala", loser: str = "Xawery") -> int:
    """``loser`` loses by resignation (a clear loss: two arrows down unless free); the game's id."""
    line = {"type": "game", "at": at, "size": 9, "players": [loser, opponent], "winner": opponent, "by": "resignation"}
    recorded = store.record(parse_line(json.dumps(line)))
    assert recorded.game is not None
    return recorded.game.id


def why(store: Store, game_id: int, nick: str = "Xawery") -> str:
    """Why the player's magnet moved as it did in that game, as replayed now."""
    result = store.game(game_id)
    assert result is not None
    return result.moves[nick].why


def strength(store: Store, nick: str = "Xawery") -> float:
    """The player's strength on 9x9 now."""
    return next(m.strength / 4 for m in store.magnets() if m.nick == nick and m.size == 9)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path) as opened:
        add_players(opened)
        yield opened


# --- daylight saving ---------------------------------------------------------------------------

# Each case: losses of Xawery in entry order, and which of them was free. In 2026 Warsaw's
# clocks jump forward on Sunday 29 March (02:00 → 03:00: 02:30 never happens) and back on
# Sunday 25 October (03:00 → 02:00: 02:30 happens twice).
DST_CASES = {
    "spring: the Sunday of the change still belongs to the week that began Monday 23 March": [
        ("2026-03-28T23:30", "free-loss"),
        ("2026-03-29T02:30", "clear-loss"),  # a time the wall clock skipped: still Sunday
        ("2026-03-29T03:30", "clear-loss"),
        ("2026-03-30T00:00", "free-loss"),  # Monday: a new week
    ],
    "spring: a loss at the skipped 02:30 is the first of its week when nothing came before": [
        ("2026-03-29T02:30", "free-loss"),
        ("2026-03-29T23:59", "clear-loss"),
        ("2026-03-30T00:01", "free-loss"),
    ],
    "autumn: 02:30 twice in one night, entry order decides which loss was free": [
        ("2026-10-25T02:30", "free-loss"),
        ("2026-10-25T02:30", "clear-loss"),
        ("2026-10-25T23:30", "clear-loss"),
        ("2026-10-26T00:30", "free-loss"),
    ],
    "autumn: the week before the change is its own week": [
        ("2026-10-18T23:59", "free-loss"),
        ("2026-10-19T00:00", "free-loss"),
        ("2026-10-25T02:59", "clear-loss"),
    ],
}


@pytest.mark.parametrize("losses", DST_CASES.values(), ids=list(DST_CASES))
def test_weeks_across_daylight_saving_changes_follow_the_club_calendar(
    store: Store, losses: list[tuple[str, str]]
) -> None:
    games = [loss(store, at, opponent=PLAYERS[1 + i % 4]) for i, (at, _) in enumerate(losses)]
    assert [why(store, game) for game in games] == [expected for _, expected in losses]
    moved = sum(2 for _, expected in losses if expected == "clear-loss")
    assert strength(store) == 20 - moved
    assert store.check() == []


# --- ISO week 53 --------------------------------------------------------------------------------


def test_iso_week_53_of_2026_runs_from_monday_28_december_to_sunday_3_january(store: Store) -> None:
    assert datetime(2026, 12, 31).isocalendar()[:2] == (2026, 53)  # the calendar fact the club relies on
    sunday_52 = loss(store, "2026-12-27T18:00")
    monday_53 = loss(store, "2026-12-28T18:00", opponent="Bolek")
    thursday_53 = loss(store, "2026-12-31T23:59", opponent="Celina")  # New Year's Eve
    sunday_53 = loss(store, "2027-01-03T18:00", opponent="Darek")  # a new year, the same week
    monday_1 = loss(store, "2027-01-04T00:00")
    assert [why(store, g) for g in (sunday_52, monday_53, thursday_53, sunday_53, monday_1)] == [
        "free-loss",
        "free-loss",
        "clear-loss",
        "clear-loss",
        "free-loss",
    ]
    assert strength(store) == 20 - 4
    assert store.check() == []


def test_a_loss_on_new_years_eve_and_one_on_3_january_share_one_free_loss(store: Store) -> None:
    thursday = loss(store, "2026-12-31T19:00")
    sunday = loss(store, "2027-01-03T19:00", opponent="Bolek")
    assert (why(store, thursday), why(store, sunday)) == ("free-loss", "clear-loss")


# --- a clock that runs backwards ---------------------------------------------------------------------


def test_games_at_the_same_minute_apply_in_the_order_they_were_entered(store: Store) -> None:
    first = loss(store, "2026-11-24T19:00", opponent="Ala")
    second = loss(store, "2026-11-24T19:00", opponent="Bolek")
    assert (why(store, first), why(store, second)) == ("free-loss", "clear-loss")
    store.rebuild()  # a full replay from the history keeps that order
    assert (why(store, first), why(store, second)) == ("free-loss", "clear-loss")
    assert store.check() == []


def test_a_game_entered_later_with_an_earlier_time_takes_its_place_in_the_week(store: Store) -> None:
    evening = loss(store, "2026-11-24T19:00", opponent="Ala")
    assert why(store, evening) == "free-loss"
    afternoon = loss(store, "2026-11-24T18:00", opponent="Bolek")  # the phone's clock was behind
    assert (why(store, afternoon), why(store, evening)) == ("free-loss", "clear-loss")
    assert strength(store) == 18
    assert store.check() == []


def test_a_late_entry_for_last_week_uses_last_weeks_free_loss(store: Store) -> None:
    this_week = loss(store, "2026-11-30T19:00", opponent="Ala")  # Monday
    late = loss(store, "2026-11-26T19:00", opponent="Bolek")  # last Thursday, entered on Monday
    assert (why(store, late), why(store, this_week)) == ("free-loss", "free-loss")
    assert strength(store) == 20
    assert store.check() == []


def test_a_late_entry_for_a_week_whose_free_loss_was_used_moves_the_magnet(store: Store) -> None:
    tuesday = loss(store, "2026-11-24T19:00", opponent="Ala")
    this_week = loss(store, "2026-11-30T19:00", opponent="Bolek")
    late = loss(store, "2026-11-26T19:00", opponent="Celina")
    assert [why(store, g) for g in (tuesday, late, this_week)] == ["free-loss", "clear-loss", "free-loss"]
    assert strength(store) == 18
    assert store.check() == []


def test_a_late_entry_a_week_back_does_not_touch_this_weeks_free_loss_after_a_replay(store: Store) -> None:
    loss(store, "2026-11-30T19:00", opponent="Ala")
    monday_again = loss(store, "2026-12-01T19:00", opponent="Bolek")
    loss(store, "2026-11-23T19:00", opponent="Celina")  # a week back, entered last
    store.rebuild()
    assert why(store, monday_again) == "clear-loss"
    assert strength(store) == 18
    assert store.check() == []


# --- "now" through the web: the form's default "played at" is club time --------------------------------


class Clock:
    """The web's wall clock, set by the test to an instant (UTC)."""

    instant = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)


class FrozenDatetime(datetime):
    """``datetime`` whose ``now`` answers the test's instant (the web reads only ``now(UTC)``)."""

    @classmethod
    def now(cls, tz=None):  # type: ignore[no-untyped-def, override]
        return Clock.instant.astimezone(tz) if tz else Clock.instant.replace(tzinfo=None)


@pytest.fixture
def phone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FlaskClient:
    """A phone on a club whose web app reads the test's clock."""
    with Store.open(tmp_path) as opened:
        add_players(opened)
    monkeypatch.setattr(web.recording, "datetime", FrozenDatetime)
    # The kiosk's clock (the Pi's, here).
    return create_app(
        {"SEMEDORI_HOME": str(tmp_path), "TESTING": True, "SEMEDORI_PI_CLOCK": lambda: Clock.instant}
    ).test_client()


def api_loss(phone: FlaskClient, at_utc: datetime, opponent: str = "Ala") -> dict:
    """Xawery's loss sent without a time, as a phone does at the table; the recorded game."""
    Clock.instant = at_utc
    body = {"size": 9, "players": ["Xawery", opponent], "winner": opponent, "by": "resignation"}
    response = phone.post("/api/games", json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def test_the_new_game_form_offers_the_club_time_not_utc(phone: FlaskClient) -> None:
    Clock.instant = datetime(2026, 3, 29, 22, 30, tzinfo=UTC)  # Sunday in UTC, Monday 00:30 in Warsaw (CEST)
    assert 'value="2026-03-30T00:30"' in phone.get("/new").get_data(as_text=True)
    Clock.instant = datetime(2026, 3, 29, 1, 30, tzinfo=UTC)  # the very hour the clocks jump
    assert 'value="2026-03-29T03:30"' in phone.get("/new").get_data(as_text=True)


def test_a_game_sent_just_after_local_midnight_on_sunday_in_utc_counts_in_the_new_club_week(
    phone: FlaskClient,
) -> None:
    sunday = api_loss(phone, datetime(2026, 3, 29, 17, 0, tzinfo=UTC))
    monday = api_loss(phone, datetime(2026, 3, 29, 22, 30, tzinfo=UTC), opponent="Bolek")
    assert (sunday["at"], monday["at"]) == ("2026-03-29T19:00", "2026-03-30T00:30")
    assert (sunday["moves"]["Xawery"]["why"], monday["moves"]["Xawery"]["why"]) == ("free-loss", "free-loss")


def test_two_games_at_the_repeated_0230_of_the_autumn_change_keep_their_entry_order(phone: FlaskClient) -> None:
    first = api_loss(phone, datetime(2026, 10, 25, 0, 30, tzinfo=UTC))  # 02:30 CEST
    second = api_loss(phone, datetime(2026, 10, 25, 1, 30, tzinfo=UTC), opponent="Bolek")  # 02:30 CET
    assert first["at"] == second["at"] == "2026-10-25T02:30"
    assert (first["moves"]["Xawery"]["why"], second["moves"]["Xawery"]["why"]) == ("free-loss", "clear-loss")
    board = phone.get("/api/board?size=9").get_json()
    assert next(m for m in board["magnets"] if m["nick"] == "Xawery")["strength"] == 18


def test_week_53_through_the_web_ends_at_club_midnight_not_utc_midnight(phone: FlaskClient) -> None:
    thursday = api_loss(phone, datetime(2026, 12, 31, 18, 0, tzinfo=UTC))
    sunday = api_loss(phone, datetime(2027, 1, 3, 22, 30, tzinfo=UTC), opponent="Bolek")  # 23:30 CET, Sunday
    monday = api_loss(phone, datetime(2027, 1, 3, 23, 30, tzinfo=UTC), opponent="Celina")  # 00:30 CET, Monday
    assert [g["at"] for g in (thursday, sunday, monday)] == ["2026-12-31T19:00", "2027-01-03T23:30", "2027-01-04T00:30"]
    assert [g["moves"]["Xawery"]["why"] for g in (thursday, sunday, monday)] == ["free-loss", "clear-loss", "free-loss"]
