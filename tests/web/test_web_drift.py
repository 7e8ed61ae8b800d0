"""The owner's drift page in English and Polish: numbers, suggested shifts, one-tap corrections (web/drift.py)."""

from __future__ import annotations

import html
import json
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from club_days import days_back_for, on_the_club_clock
from drift_clubs import GROUP_B, inflating_club, two_groups
from flask import Flask
from flask.testing import FlaskClient
from form_fields import hidden_fields

from kiosk.store import Store
from web import create_app
from web.pin import hash_pin

PIN = "8642"
KIOSK_NOW = datetime(2026, 11, 30, 11, 0, tzinfo=UTC)  # 12:00 in Warsaw
RETURN = {"type": "game", "at": "2026-11-25T19:00", "size": 13, "players": ["Ala", "Dorota"], "winner": "Ala", "by": 4}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "drift-club"
    with Store.open(folder) as store:
        lines = [*inflating_club(10), *two_groups(), RETURN]
        store.import_history([json.dumps(line, ensure_ascii=False) for line in lines])
        store.save_config(
            store.config.with_changes(days_back=days_back_for(lines, KIOSK_NOW), owner_pin_hash=hash_pin(PIN))
        )
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


def links(page: str, label: str) -> list[str]:
    """The addresses of the links with this label."""
    import re

    return [
        html.unescape(href)
        for href, text in re.findall(r'<a[^>]*href="([^"]+)"[^>]*>([^<]*)</a>', page)
        if text == label
    ]


def test_the_drift_page_needs_the_pin(client: FlaskClient) -> None:
    response = client.get("/owner/drift")
    assert response.status_code == 302 and "/owner/login" in response.headers["Location"]


def test_the_drift_page_in_english(owner: FlaskClient) -> None:
    response = owner.get("/owner/drift")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Drift of the club&#39;s numbers" in page or "Drift of the club's numbers" in page
    assert '<svg class="chart"' in page and "<script" not in page.split("<main")[1]
    assert "<td>2026-01</td><td>4</td><td>14</td><td>14</td>" in page
    assert "Groups 1 and 2: 3 games (3 with a margin). Mean result error of group 1: −5." in page
    assert "Suggested: shift group 2 by +5." in page
    (group_shift,) = links(page, "Open the shift with this group")
    query = parse_qs(urlsplit(group_shift).query)
    assert query["amount"] == ["5"] and query["scope"] == ["group"] and query["size"] == ["13"]
    assert sorted(query["nicks"][0].split(", ")) == sorted(GROUP_B)
    # One tap opens the shift form filled in; its preview is the shift's own.
    shift_form = owner.get(group_shift).get_data(as_text=True)
    assert 'name="amount" value="5"' in shift_form and 'value="group" checked' in shift_form
    (size_shift,) = links(page, "Open the shift with this amount")
    assert parse_qs(urlsplit(size_shift).query)["scope"] == ["size"]
    assert "Suggested shift: −" in page
    # Ala came back on 25 November after 37 weeks: one tap to a quick correction, filled in.
    assert "Back on 2026-11-25 after 37 weeks away." in page
    corrections = links(page, "Quick correction")
    ala = next(link for link in corrections if "nick=Ala" in link)
    form = owner.get(ala).get_data(as_text=True)
    assert 'name="nick" value="Ala"' in form and 'value="back after 37 weeks away"' in form


def test_the_drift_page_in_polish(owner: FlaskClient) -> None:
    page = owner.get("/owner/drift", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert "Dryf liczb klubu" in page
    assert "Średni błąd wyniku grupy 1: −5." in page
    assert "Propozycja: przesunąć grupę 2 o +5." in page
    assert "Powrót 2026-11-25 po przerwie (tygodnie: 37)." in page
    (ala,) = [link for link in links(page, "Szybka korekta") if "nick=Ala" in link]
    assert parse_qs(urlsplit(ala).query)["note"] == ["powrót po przerwie (tygodnie: 37)"]


def test_a_size_filter_and_bad_input(owner: FlaskClient) -> None:
    nine = owner.get("/owner/drift?size=9")
    assert nine.status_code == 200 and 'id="size-13"' not in nine.get_data(as_text=True)
    thirteen = owner.get("/owner/drift?size=13").get_data(as_text=True)
    assert 'id="size-13"' in thirteen
    for bad in ("7", "abc", "13x13", "9" * 40):
        response = owner.get(f"/owner/drift?size={bad}")
        assert response.status_code == 400
        assert "choose 9, 13 or 19" in response.get_data(as_text=True)
    polish = owner.get("/owner/drift?size=7", headers={"Accept-Language": "pl"})
    assert polish.status_code == 400 and "Nie ma planszy 7: wybierz 9, 13 lub 19." in polish.get_data(as_text=True)


def test_the_drift_of_an_empty_club(tmp_path: Path) -> None:
    folder = tmp_path / "empty"
    with Store.open(folder) as store:
        store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN)))
    client = create_app(on_the_club_clock({"SEMEDORI_HOME": str(folder), "TESTING": True})).test_client()
    form = hidden_fields(client.get("/owner/login").get_data(as_text=True))
    assert client.post("/owner/login", data={**form, "pin": PIN}).status_code == 302
    page = client.get("/owner/drift")
    assert page.status_code == 200 and "No magnets yet." in page.get_data(as_text=True)
