"""The form carries the phone's clock; a Pi without internet time takes the time from the phones."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from form_fields import hidden_fields

from kiosk import clockfile
from kiosk.store import Store
from web import create_app
from web.pin import hash_pin

# Warsaw is UTC+1 in winter. The phones' true time: Monday 30 November 2026, 19:00 in the club.
REAL = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
# The Pi came up at its last shutdown time (fake-hwclock), nine days earlier: another week.
BEHIND = timedelta(days=9)


class PiClock:
    """The Pi's own clock, running with the real one but nine days behind."""

    def __init__(self) -> None:
        self.now = REAL - BEHIND

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def pi_clock() -> PiClock:
    return PiClock()


@pytest.fixture
def app(home: Path, pi_clock: PiClock, tmp_path: Path) -> Flask:
    return create_app(
        {
            "SEMEDORI_HOME": str(home),
            "TESTING": True,
            "SEMEDORI_PI_CLOCK": pi_clock,
            "SEMEDORI_TIMESYNC_FLAG": str(tmp_path / "synchronized"),  # not there: no NTP
        }
    )


def millis(moment: datetime) -> str:
    return str(int(moment.timestamp() * 1000))


@pytest.fixture(autouse=True)
def two_other_phones(home: Path, pi_clock: PiClock, tmp_path: Path) -> None:
    """Two phones of the evening, at other addresses, already sent their (right) clocks with their forms.

    The kiosk follows phones only when three addresses agree: the test client's game is the third.
    """
    for address in ("10.0.0.2", "10.0.0.3"):
        clockfile.heard(home, millis(REAL), pi_clock(), tmp_path / "synchronized", address)


def play(client: FlaskClient, game: dict[str, str], phone_clock: str, **changes: str) -> str:
    """Open the form, keep its time as shown unless changed, and send it with the phone's clock."""
    form = hidden_fields(client.get("/new").get_data(as_text=True))
    shown = form["shown_at"]
    data = {**form, **game, "at": shown, "phone_clock": phone_clock, **changes}
    response = client.post("/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return shown


def last_game_at(home: Path) -> datetime:
    with Store.open(home) as store:
        return store.recent_games(1)[0].at


def test_the_game_that_makes_three_phones_agree_gets_the_phones_day(
    client: FlaskClient, game: dict[str, str], home: Path
) -> None:
    shown = play(client, game, millis(REAL))
    assert shown.startswith("2026-11-21")  # what the Pi believed when it showed the form
    assert last_game_at(home) == datetime(2026, 11, 30, 19, 0)


def test_after_that_the_form_shows_the_phones_time(
    client: FlaskClient, game: dict[str, str], pi_clock: PiClock
) -> None:
    play(client, game, millis(REAL))
    pi_clock.now += timedelta(minutes=30)
    assert hidden_fields(client.get("/new").get_data(as_text=True))["shown_at"] == "2026-11-30T19:30"


def test_a_time_the_player_typed_is_kept(client: FlaskClient, game: dict[str, str], home: Path) -> None:
    play(client, game, millis(REAL), at="2026-11-29T17:45")
    assert last_game_at(home) == datetime(2026, 11, 29, 17, 45)


def test_one_phone_alone_does_not_move_the_kiosk(game: dict[str, str], home: Path, app: Flask, tmp_path: Path) -> None:
    (home / "clock.json").unlink()  # no other phone this evening
    lone = app.test_client()
    play(lone, game, millis(REAL + timedelta(days=6)))  # One phone six days ahead had moved the kiosk
    assert last_game_at(home).date().isoformat() == "2026-11-21"  # the Pi's own clock


def test_without_javascript_the_pi_keeps_its_own_clock(client: FlaskClient, game: dict[str, str], home: Path) -> None:
    play(client, game, "")
    assert last_game_at(home).date().isoformat() == "2026-11-21"


def test_with_ntp_the_pis_clock_wins_over_a_phone(
    client: FlaskClient, game: dict[str, str], home: Path, pi_clock: PiClock, tmp_path: Path
) -> None:
    (tmp_path / "synchronized").touch()
    pi_clock.now = REAL
    play(client, game, millis(REAL + timedelta(days=2)))  # a phone set wrong by hand
    assert last_game_at(home) == datetime(2026, 11, 30, 19, 0)


def test_the_owner_page_says_when_the_clock_was_last_trusted(
    client: FlaskClient, game: dict[str, str], home: Path, tmp_path: Path, pi_clock: PiClock
) -> None:
    with Store.open(home) as store:
        store.save_config(store.config.with_changes(owner_pin_hash=hash_pin("2468")))
    form = hidden_fields(client.get("/owner/login").get_data(as_text=True))
    assert client.post("/owner/login", data={**form, "pin": "2468"}).status_code == 302
    assert "has not been checked yet" in client.get("/owner/").get_data(as_text=True)  # two phones: not yet

    play(client, game, millis(REAL))
    page = client.get("/owner/").get_data(as_text=True)
    assert "set from the players&#39; phones at 2026-11-30 19:00" in page
    assert "9 days off" in page

    (tmp_path / "synchronized").touch()
    pi_clock.now = REAL + timedelta(hours=1)
    page = client.get("/owner/", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert "sprawdzony z czasem z internetu: 2026-11-30 20:00" in page


def test_the_owners_corrections_and_the_players_week_follow_the_same_clock(
    app: Flask, client: FlaskClient, game: dict[str, str]
) -> None:
    # Stamped by the Pi's own clock, a correction would land nine days before the game it corrects.
    from web import clock

    play(client, game, millis(REAL))
    with app.test_request_context("/"):
        assert clock.now().date().isoformat() == "2026-11-30"
    # Bianka's loss on 30 November used her free loss of that week, the week the phones live in.
    page = client.get("/players/Bianka").get_data(as_text=True)
    assert "this week's free loss is used" in page


@pytest.mark.parametrize("junk", ["999999999999999", "-1", "soon", "1" * 5000, "١٢٣", "12.5"])
def test_a_tampered_phone_clock_is_ignored_and_the_game_still_saves(
    client: FlaskClient, game: dict[str, str], home: Path, junk: str
) -> None:
    play(client, game, junk, shown_offset="x" * 50)
    assert last_game_at(home).date().isoformat() == "2026-11-21"  # the Pi's own clock, nothing learned


@pytest.fixture
def owner(client: FlaskClient, home: Path) -> FlaskClient:
    with Store.open(home) as store:
        store.save_config(store.config.with_changes(owner_pin_hash=hash_pin("2468")))
    form = hidden_fields(client.get("/owner/login").get_data(as_text=True))
    assert client.post("/owner/login", data={**form, "pin": "2468"}).status_code == 302
    return client


def test_the_owner_clock_page_shows_what_the_clock_heard_and_from_whom(owner: FlaskClient, app: Flask) -> None:
    assert app.test_client().get("/owner/clock").status_code == 302  # owner only
    page = owner.get("/owner/clock").get_data(as_text=True)
    assert "10.0.0.2" in page and "10.0.0.3" in page and "<span>2026-11-30</span> <span>19:00</span>" in page
    assert "9 days ahead" in page
    assert "2026-11-21 19:00" in page  # the Pi's own clock
    polish = owner.get("/owner/clock", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert "Co podały zegary telefonów" in polish and "9 dni do przodu" in polish


def test_the_owner_sets_the_time_by_hand_after_a_confirmation(
    owner: FlaskClient, app: Flask, home: Path, pi_clock: PiClock
) -> None:
    from web import clock

    def kiosk_day() -> str:
        with app.test_request_context("/"):
            return clock.now().strftime("%Y-%m-%d %H:%M")

    assert kiosk_day() == "2026-11-21 19:00"  # two phones: not enough to follow
    assert owner.post("/owner/clock", data={"at": "2026-11-30T19:00"}).status_code == 400  # no CSRF token
    form = hidden_fields(owner.get("/owner/clock").get_data(as_text=True))
    asked = owner.post("/owner/clock", data={**form, "at": "2026-11-30T19:00"})
    assert asked.status_code == 200 and "will go from 2026-11-21 19:00 to 2026-11-30 19:00" in asked.get_data(
        as_text=True
    )
    assert kiosk_day() == "2026-11-21 19:00"  # the first tap only asks
    for bad in ("", "tomorrow", "2026-13-01T10:00", "2150-01-01T10:00"):
        refused = owner.post("/owner/clock", data={**hidden_fields(asked.get_data(as_text=True)), "at": bad})
        assert (
            refused.status_code == 400
            and "Date and time (club time): type the date and the time" in refused.get_data(as_text=True)
        ), bad
    form = hidden_fields(asked.get_data(as_text=True))
    done = owner.post("/owner/clock", data={**form, "at": "2026-11-30T19:00"})
    assert done.status_code == 302
    assert kiosk_day() == "2026-11-30 19:00"
    pi_clock.now += timedelta(minutes=10)
    assert kiosk_day() == "2026-11-30 19:10"
    page = owner.get("/owner/").get_data(as_text=True)
    assert "the owner set the clock by hand at 2026-11-30 19:00" in page
    with Store.open(home) as store:
        assert store.entries(limit=1)[0].line["note"].startswith("the kiosk's clock set by hand from 2026-11-21 19:00")
    assert "zegar kiosku ustawiono ręcznie" in owner.get("/owner/audit", headers={"Accept-Language": "pl"}).get_data(
        as_text=True
    )


def test_with_internet_time_the_clock_is_not_set_by_hand(owner: FlaskClient, tmp_path: Path) -> None:
    (tmp_path / "synchronized").touch()
    page = owner.get("/owner/clock").get_data(as_text=True)
    assert "needs no setting" in page and 'name="at"' not in page
    form = hidden_fields(owner.get("/owner/login").get_data(as_text=True))
    assert (
        owner.post("/owner/clock", data={**form, "at": "2026-11-30T19:00", "confirmed": "2026-11-30T19:00"}).status_code
        == 400
    )
