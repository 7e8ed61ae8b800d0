"""The owner's rule changes and the board as of a day (web/rules_history.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from form_fields import hidden_fields
from test_web_owner import PIN, text
from werkzeug.test import TestResponse

from kiosk.events import RuleChange, parse_event
from kiosk.store import Store
from web import create_app
from web.pin import hash_pin

# The kiosk's clock in these tests: Tuesday 1 December 2026, 04:00 in Warsaw (when CI runs), synced.
KIOSK_NOW = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)


@pytest.fixture
def app(home: Path, tmp_path: Path) -> Flask:
    synced = tmp_path / "synchronized"
    synced.write_text("")
    return create_app(
        {
            "SEMEDORI_HOME": str(home),
            "TESTING": True,
            "SEMEDORI_PI_CLOCK": lambda: KIOSK_NOW,
            "SEMEDORI_TIMESYNC_FLAG": str(synced),
        }
    )


@pytest.fixture
def owner(client: FlaskClient, store: Store, send) -> FlaskClient:
    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN)))
    assert send("/owner/login", {"pin": PIN}).status_code == 302
    return client


def rules_form(**changes: str) -> dict[str, str]:
    """The rules form as the page fills it (the club's defaults), with some fields changed."""
    form = {"guest_losses": "2", "top": "56", "at": "", "note": ""}
    for size, (points, margin, moves) in {9: ("2", "15", "4"), 13: ("5", "30", "6"), 19: ("13", "60", "8")}.items():
        form.update({f"h{size}_points_per_strength": points, f"h{size}_clear_margin": margin})
        form[f"h{size}_training_moves"] = moves
    return {**form, **changes}


def confirm(owner: FlaskClient, preview: TestResponse, form: dict[str, str]) -> TestResponse:
    """Save what the preview showed: send the form again with the preview's hidden fields."""
    return owner.post("/owner/rules", data={**form, **hidden_fields(preview.get_data(as_text=True))})


def test_the_pages_need_the_pin(client: FlaskClient) -> None:
    for url in ("/owner/rules", "/owner/board?at=2026-11-02"):
        response = client.get(url)
        assert response.status_code == 302 and "/owner/login" in response.headers["Location"]


def test_a_rule_change_dated_in_the_past_is_recorded_listed_and_replays_the_games_after_it(
    owner: FlaskClient, send, store: Store
) -> None:
    page = owner.get("/owner/rules")
    assert page.status_code == 200 and "No rule changes yet" in text(page)
    assert 'value="15"' in page.get_data(as_text=True)  # filled with the rules in force now
    # Czarek's win by 21 on the 3rd of November was clear; from the 3rd on a clear win needs 25.
    owner.post(
        "/api/games",
        json={"size": 9, "players": ["Bianka", "Czarek"], "winner": "Czarek", "by": 21, "at": "2026-11-03T19:10"},
    )
    assert store.game(2).moves["Czarek"].why == "clear-win"
    form = rules_form(h9_clear_margin="25", at="2026-11-03T12:00", note="the club voted")
    before = list(store.export_lines())
    preview = send("/owner/rules", form)
    assert preview.status_code == 200 and "Preview" in text(preview)
    assert "Czarek (9×9) 27 26" in text(preview)  # what it would move, before anything is saved
    assert list(store.export_lines()) == before
    response = confirm(owner, preview, form)
    assert response.status_code == 302, text(response)
    (change,) = store.rule_changes()
    assert change == RuleChange(datetime(2026, 11, 3, 12), (store.config.size_rules[9],), None, None, "the club voted")
    assert store.config.size_rules[9].clear_margin == 25 and store.file_config.size_rules[9].clear_margin == 15
    assert store.game(2).moves["Czarek"].why == "win"  # the game after the change, under the new rule
    assert store.check() == []
    listed = text(owner.get("/owner/rules"))
    assert "Past rule changes 2026-11-03 12:00 9x9: 2 points per strength, clear win from 25 points" in listed
    assert "the club voted" in listed
    polish = text(owner.get("/owner/rules", headers={"Accept-Language": "pl"}))
    assert "Dotychczasowe zmiany zasad" in polish and "wyraźna wygrana od 25 pkt" in polish
    assert "Changed the rules from 2026-11-03 12:00" in text(owner.get("/owner/audit"))
    settings = text(owner.get("/owner/settings"))  # the settings page lists them too
    assert "Past rule changes 2026-11-03 12:00 9x9: 2 points per strength, clear win from 25 points" in settings


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"at": "2026-12-01T04:01", "guest_losses": "3"}, "is in the future"),
        ({"at": "yesterday", "guest_losses": "3"}, "is not a date and time"),
        ({"h9_clear_margin": "lots"}, "field 'handicap.9.clear_margin': a number greater than 0"),
        ({"h13_points_per_strength": "-5"}, "a number greater than 0"),
        ({"h19_training_moves": "1"}, "a whole number from 2"),
        ({"top": "30"}, "40 or more"),
        ({"top": "55.1"}, "is not a field of the scale"),
        ({"guest_losses": "7"}, "2 or 3"),
        ({}, "nothing to change"),
        ({"h9_points_per_strength": "nan"}, "a number greater than 0"),
        ({"h9_points_per_strength": "1e400"}, "a number greater than 0"),
        ({"h13_clear_margin": "1e300"}, "a number greater than 0"),
        ({"h13_clear_margin": "1_0"}, "field 'handicap.13.clear_margin': a number greater than 0"),  # not ten
        ({"h9_points_per_strength": "١"}, "a number greater than 0"),  # float() reads Arabic-Indic digits
        ({"top": "1e308"}, "is not a field of the scale"),
        ({"at": "x" * 5000, "guest_losses": "3"}, "is not a date and time"),
        ({"guest_losses": ""}, "2 or 3"),
    ],
)
def test_bad_rules_get_a_clear_message_and_change_nothing(
    owner: FlaskClient, send, store: Store, changes: dict[str, str], says: str
) -> None:
    before = list(store.export_lines())
    response = send("/owner/rules", rules_form(**changes))
    assert response.status_code == 400 and says in text(response)
    assert list(store.export_lines()) == before and store.rule_changes() == []


def test_a_rule_change_may_not_be_dated_before_the_last_shift(owner: FlaskClient, send, store: Store) -> None:
    store.record(parse_event({"type": "shift", "at": "2026-11-25T18:00", "amount": -1}))
    response = send("/owner/rules", rules_form(guest_losses="3", at="2026-11-25T17:59"))
    assert response.status_code == 400 and "from 2026-11-25T18:00 (the last shift or rule change)" in text(response)
    owner.set_cookie("lang", "pl")
    polish = send("/owner/rules", rules_form(guest_losses="3", at="2026-11-25T17:59"))
    assert polish.status_code == 400 and "od 2026-11-25T18:00 (ostatnie przesunięcie lub zmiana zasad)" in text(polish)
    owner.set_cookie("lang", "en")
    form = rules_form(guest_losses="3", at="2026-11-25T18:00")
    preview = send("/owner/rules", form)
    assert "No magnet would move." in text(preview)
    assert confirm(owner, preview, form).status_code == 302
    assert store.config.guest_losses == 3


def test_the_guest_losses_on_the_settings_page_are_a_rule_change_dated_now(
    owner: FlaskClient, send, store: Store
) -> None:
    form = {
        "club_name": "GoKids",
        "timezone": "Europe/Warsaw",
        "language": "en",
        "guest_losses": "3",
        "form_url": "http://go.local",
    }
    assert send("/owner/settings", form).status_code == 302
    (change,) = store.rule_changes()
    assert change.at == datetime(2026, 12, 1, 4, 0) and change.guest_losses == 3 and not change.handicap
    assert store.reload_config().guest_losses == 3 and store.config.club_name == "GoKids"
    assert store.file_config.guest_losses == 2
    assert send("/owner/settings", {**form, "club_name": "GoKids Kraków"}).status_code == 302
    assert len(store.rule_changes()) == 1  # unchanged rules record nothing
    assert store.check() == []


def test_the_board_as_of_a_day(owner: FlaskClient, store: Store) -> None:
    picker = owner.get("/owner/board")
    assert picker.status_code == 200 and 'type="date"' in picker.get_data(as_text=True)
    assert 'max="2026-12-01"' in picker.get_data(as_text=True)
    before = text(owner.get("/owner/board?at=2026-11-01&size=9"))
    assert "At the end of 2026-11-01" in before and "Dawid 20" in before
    after = text(owner.get("/owner/board?at=2026-11-02&size=9"))
    assert "Dawid 22" in after and "Bianka 34.5" in after  # he beat Bianka on the 2nd (her free loss)
    assert "a guest becomes a member after 2 losses; the top is 56" in after
    polish = text(owner.get("/owner/board?at=2026-11-02&size=9", headers={"Accept-Language": "pl"}))
    assert "Na koniec dnia 2026-11-02" in polish and "Dawid 22" in polish


@pytest.mark.parametrize(
    ("typed", "english", "polish"),
    [
        ("2026-12-02", "is in the future", "jest w przyszłości"),
        ("1 June", "is not a date like 2026-06-01", "to nie data w postaci 2026-06-01"),
        ("2026-02-30", "is not a date like 2026-06-01", "to nie data w postaci 2026-06-01"),
        ("x" * 5000, "is not a date like 2026-06-01", "to nie data w postaci 2026-06-01"),
    ],
)
def test_a_bad_day_gets_a_clear_message(owner: FlaskClient, typed: str, english: str, polish: str) -> None:
    response = owner.get("/owner/board", query_string={"at": typed})
    assert response.status_code == 400 and english in text(response)
    response = owner.get("/owner/board", query_string={"at": typed}, headers={"Accept-Language": "pl"})
    assert response.status_code == 400 and polish in text(response)
