"""Sleepers on the phone's pages: off the public board and the API's board, said on the player's page."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from kiosk.events import parse_line
from kiosk.store import Store
from web import create_app

# The small club (tests/web/conftest.py) joined on 1 November 2026; Bianka and Dawid played on
# 2 November at 18:00. Twelve weeks later, on 25 January 2027 at 13:00 in Warsaw, Czarek (never
# played, joined 1 November 10:01) and the 13x13 magnets rest; Bianka and Dawid still hang.
KIOSK_NOW = datetime(2027, 1, 25, 12, 0, tzinfo=UTC)
REMATCH = {"type": "game", "at": "2027-01-25T10:00", "size": 9, "players": ["Bianka", "Dawid"], "winner": "Dawid"}


@pytest.fixture
def app(home: Path, tmp_path: Path) -> Flask:
    with Store.open(home) as store:
        store.save_config(store.config.with_changes(sleeper_weeks=12))
        # The club plays on (kiosk/sleepers.py counts the weeks while it does): Bianka and Dawid, that morning.
        store.record(parse_line(json.dumps(REMATCH)))
    synchronized = tmp_path / "synchronized"
    synchronized.touch()  # the Pi's clock is trusted: the kiosk's time is KIOSK_NOW
    return create_app(
        {
            "SEMEDORI_HOME": str(home),
            "TESTING": True,
            "SEMEDORI_PI_CLOCK": lambda: KIOSK_NOW,
            "SEMEDORI_TIMESYNC_FLAG": str(synchronized),
        }
    )


def test_a_sleeper_leaves_the_public_board_and_the_api(client: FlaskClient) -> None:
    page = client.get("/?size=9").get_data(as_text=True)
    assert "Bianka" in page and "Dawid" in page
    assert "Czarek" not in page
    api = client.get("/api/board?size=9").get_json()
    assert sorted(m["nick"] for m in api["magnets"]) == ["Bianka", "Dawid"]
    assert "Resting off the board (unplayed for 12 weeks): 1. Each comes back with its next game." in page
    # With nobody on 13x13 left, the board opens on the size that still has magnets.
    assert "Bianka" in client.get("/").get_data(as_text=True)
    thirteen = client.get("/?size=13", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert "Odpoczywają poza tablicą (tygodnie bez partii: 12): 4." in thirteen
    assert "Ewa" not in thirteen


def test_the_player_page_says_a_magnet_is_resting_in_english_and_polish(client: FlaskClient) -> None:
    page = client.get("/players/Czarek").get_data(as_text=True)
    assert "Resting since 2027-01-24: unplayed for 12 weeks" in page
    assert "It comes back with the next game." in page
    polish = client.get("/players/Czarek", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert "Odpoczywa od 2027-01-24: po tygodniach bez partii (12)" in polish
    assert "Wróci z następną partią." in polish
    assert "Resting since" not in client.get("/players/Bianka").get_data(as_text=True)


def test_with_the_setting_off_everyone_hangs(client: FlaskClient, home: Path) -> None:
    with Store.open(home) as store:
        store.save_config(store.config.with_changes(sleeper_weeks=0))
    assert "Czarek" in client.get("/?size=9").get_data(as_text=True)
    assert "Resting since" not in client.get("/players/Czarek").get_data(as_text=True)


def test_the_owner_sets_the_sleeper_weeks_and_bad_input_is_refused(client: FlaskClient, home: Path, send) -> None:
    from web.pin import hash_pin

    with Store.open(home) as store:
        store.save_config(store.config.with_changes(owner_pin_hash=hash_pin("2468")))
    assert send("/owner/login", {"pin": "2468"}).status_code == 302
    form = {
        "club_name": "Semedori",
        "timezone": "Europe/Warsaw",
        "language": "en",
        "guest_losses": "2",
        "form_url": "http://semedori.local",
    }
    assert send("/owner/settings", {**form, "sleeper_weeks": "20"}).status_code == 302
    with Store.open(home) as store:
        assert store.config.sleeper_weeks == 20
    assert "Czarek" in client.get("/?size=9").get_data(as_text=True)  # 12 weeks unplayed, 20 allowed
    for bad in ("-1", "many", "521"):
        refused = send("/owner/settings", {**form, "sleeper_weeks": bad})
        assert refused.status_code == 400
        assert "a whole number of weeks from 0 (off) to 520" in refused.get_data(as_text=True)
    client.set_cookie("lang", "pl")
    polish = send("/owner/settings", {**form, "sleeper_weeks": "x"})
    assert polish.status_code == 400
    assert "całkowitą liczbą tygodni od 0 (wyłączone) do 520" in polish.get_data(as_text=True)
    with Store.open(home) as store:
        assert store.config.sleeper_weeks == 20


def test_the_owners_magnet_list_says_who_rests(client: FlaskClient, home: Path, send) -> None:
    from web.pin import hash_pin

    with Store.open(home) as store:
        store.save_config(store.config.with_changes(owner_pin_hash=hash_pin("2468")))
    assert send("/owner/login", {"pin": "2468"}).status_code == 302
    page = client.get("/owner/magnets").get_data(as_text=True)
    assert "resting since 2027-01-24" in page  # Czarek, and the 13x13 magnets joined a few minutes later
    assert page.count("resting since") == 5  # Bianka and Dawid still hang
    polish = client.get("/owner/magnets", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert "odpoczywa od 2027-01-24" in polish
