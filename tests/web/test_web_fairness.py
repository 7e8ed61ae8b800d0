"""The owner's fairness page in English and Polish: the chart, the rows, the suggested rule change (web/fairness.py)."""

from __future__ import annotations

import html
import json
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

import pytest
from club_days import days_back_for
from fairness_clubs import planted_club
from flask import Flask
from flask.testing import FlaskClient
from form_fields import hidden_fields

from kiosk.store import Store
from web import create_app
from web.pin import hash_pin

PIN = "8642"
KIOSK_NOW = datetime(2026, 11, 30, 11, 0, tzinfo=UTC)  # 12:00 in Warsaw


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A club whose 13x13 games follow 4 points per strength, where the table says 5."""
    folder = tmp_path / "fair-club"
    with Store.open(folder) as store:
        lines = planted_club(4.0, size=13, games=1200, seed=5)
        store.import_history(json.dumps(line) for line in lines)
        days_back = days_back_for(lines, KIOSK_NOW)
        store.save_config(store.config.with_changes(days_back=days_back, owner_pin_hash=hash_pin(PIN), sleeper_weeks=0))
    return folder


@pytest.fixture
def app(home: Path, tmp_path: Path) -> Flask:
    synchronized = tmp_path / "synchronized"
    synchronized.touch()
    return create_app(
        {
            "SEMEDORI_HOME": str(home),
            "TESTING": True,
            "SEMEDORI_PI_CLOCK": lambda: KIOSK_NOW,
            "SEMEDORI_TIMESYNC_FLAG": str(synchronized),
        }
    )


@pytest.fixture
def owner(client: FlaskClient) -> FlaskClient:
    form = hidden_fields(client.get("/owner/login").get_data(as_text=True))
    assert client.post("/owner/login", data={**form, "pin": PIN}).status_code == 302
    return client


def test_the_page_is_for_the_owner_only(client: FlaskClient) -> None:
    answer = client.get("/owner/fairness")
    assert answer.status_code in (302, 303) and "/owner/login" in answer.headers["Location"]


def test_the_audit_page_shows_the_rows_the_chart_and_the_suggestion(owner: FlaskClient) -> None:
    page = owner.get("/owner/fairness").get_data(as_text=True)
    assert "Does the handicap table fit this club?" in page
    assert "<svg" in page and 'class="unfair"' in page  # the chart marks the rows where 50 % is out
    assert "Points per strength: the table 5; the games 4" in page
    assert "Suggested rule change: 4 points per strength from 2026-11-30 12:00" in page
    assert "not enough games" in page  # the last rows have few games
    assert 'name="points" inputmode="decimal" value="4"' in page


def test_preview_then_save_the_suggested_rule_change(owner: FlaskClient, home: Path) -> None:
    page = owner.get("/owner/fairness?size=13").get_data(as_text=True)
    form = hidden_fields(page)
    preview = owner.post("/owner/fairness", data={**form, "size": "13", "points": "4"})
    text = preview.get_data(as_text=True)
    assert preview.status_code == 200 and "Preview of the rule change" in text
    assert "13x13: 4 points per strength, clear win from 30 points, training game from 6 starting moves" in text
    assert "No magnet moves now: the change is for the games to come." in text
    with Store.open(home) as store:
        assert store.config.size_rules[13].points_per_strength == 5  # a preview saves nothing
    saved = owner.post("/owner/fairness", data=hidden_fields(text.split('id="preview"')[1]))
    assert saved.status_code == 302
    with Store.open(home) as store:
        assert store.config.size_rules[13].points_per_strength == Fraction(4)
        (change,) = store.rule_changes()
        assert change.note == "fairness audit"
    after = owner.get("/owner/fairness?size=13").get_data(as_text=True)
    assert "Points per strength: the table 4;" in after and "Suggested rule change" not in after


@pytest.mark.parametrize("typed", ["abc", "-3", "0", "1e3", ""])
def test_a_bad_number_is_refused_kindly_and_changes_nothing(owner: FlaskClient, home: Path, typed: str) -> None:
    form = hidden_fields(owner.get("/owner/fairness").get_data(as_text=True))
    answer = owner.post("/owner/fairness", data={**form, "size": "13", "points": typed})
    assert answer.status_code == 400
    body = html.unescape(answer.get_data(as_text=True))
    assert "field 'handicap.13.points_per_strength': a number greater than 0" in body
    assert f'name="points" inputmode="decimal" value="{typed}"' in body  # as typed, to mend, not the suggestion
    with Store.open(home) as store:
        assert store.rule_changes() == []


def test_a_stale_form_comes_back_with_the_points_typed_and_saves_nothing(owner: FlaskClient, home: Path) -> None:
    typed = {"size": "13", "points": "4,5", "csrf_token": "from-a-tab-left-open"}
    answer = owner.post("/owner/fairness", data=typed)
    body = html.unescape(answer.get_data(as_text=True))
    assert answer.status_code == 400 and "This form is too old" in body
    assert 'name="points" inputmode="decimal" value="4,5"' in body
    with Store.open(home) as store:
        assert store.rule_changes() == []


def test_a_bad_size_is_refused_kindly(owner: FlaskClient) -> None:
    answer = owner.get("/owner/fairness?size=12")
    assert answer.status_code == 400 and "There is no board size 12" in answer.get_data(as_text=True)


def test_the_page_in_polish(owner: FlaskClient) -> None:
    owner.set_cookie("lang", "pl")
    page = owner.get("/owner/fairness?lang=pl").get_data(as_text=True)
    assert "Czy tabela wyrównania pasuje do tego klubu?" in page
    assert "Proponowana zmiana zasad: 4 pkt na jedną siłę od 2026-11-30 12:00" in page
    assert "za mało gier" in page and "Wiersz" in page
