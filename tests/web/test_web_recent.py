"""Backdated fake games can no longer hide.

A phone or API client may date a game at most ``days_back`` days back (7 by default) and
not in the future; the owner may enter older ones. The owner sees the recently *entered*
games in entry order with their origin, late entries flagged, and voids a batch from one
origin with one tap.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from club_days import machines_clock
from flask import Flask
from flask.testing import FlaskClient

from kiosk.events import parse_line
from kiosk.rules import club_now
from kiosk.store import Store
from web import create_app
from web.pin import hash_pin

PIN = "2468"


def text(html: str) -> str:
    """The page as a person reads it."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").split())


@pytest.fixture
def app(home: Path) -> Flask:
    """The app on the machine's clock: the owner's list compares when a game was entered (the store stamps the Pi's
    own clock) with when it was played (the kiosk's clock), so a game of now is not a late entry only if they agree."""
    return create_app({"SEMEDORI_HOME": str(home), "TESTING": True, "SEMEDORI_PI_CLOCK": machines_clock})


@pytest.fixture
def old_club(store: Store) -> Store:
    """The test club plus two members who joined in 2020, so games months back are valid."""
    for nick, strength in (("Olek", 20), ("Pola", 22)):
        line = {
            "type": "player",
            "at": "2020-01-01T10:00",
            "nick": nick,
            "size": 9,
            "status": "member",
            "strength": strength,
        }
        store.record(parse_line(json.dumps(line)), origin="owner")
    return store


@pytest.fixture
def week(old_club: Store) -> Store:
    """The club with the default window of 7 days (the shared test club reaches back to its November, 90 days)."""
    old_club.save_config(old_club.config.with_changes(days_back=7))
    return old_club


def days_ago(store: Store, days: float) -> str:
    return (club_now(store.config, machines_clock()) - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M")


def api_game(client: FlaskClient, at: str, address: str = "10.0.0.66", winner: str = "Pola"):  # type: ignore[no-untyped-def]
    body = {"size": 9, "players": ["Olek", "Pola"], "winner": winner, "by": "resignation", "at": at}
    return client.post("/api/games", json=body, environ_base={"REMOTE_ADDR": address})


def test_an_api_game_dated_two_months_back_is_refused_and_a_week_back_is_fine(client: FlaskClient, week) -> None:
    before = week.db.execute("SELECT count(*) FROM event").fetchone()[0]
    old = api_game(client, days_ago(week, 60))
    assert old.status_code == 400
    assert "more than 7 days back; only the club owner can enter older games" in old.get_data(as_text=True)
    polish = client.post(
        "/api/games",
        json={"size": 9, "players": ["Olek", "Pola"], "winner": "Pola", "at": days_ago(week, 8)},
        headers={"Accept-Language": "pl"},
    )
    assert polish.status_code == 400
    assert "starsze gry może wpisać tylko właściciel klubu" in str(polish.get_json())
    future = api_game(client, days_ago(week, -2))
    assert future.status_code == 400
    assert "the kiosk's clock says" in future.get_data(as_text=True)
    assert week.db.execute("SELECT count(*) FROM event").fetchone()[0] == before
    assert api_game(client, days_ago(week, 6.5)).status_code == 201


def test_a_phone_may_not_backdate_but_the_owner_may(send, client: FlaskClient, week, game) -> None:
    form = {**game, "a": "Olek", "b": "Pola", "by": "resignation", "at": days_ago(week, 30)}
    refused = send("/new", form)
    assert refused.status_code == 400
    assert "Played at: The game was played more than 7 days ago" in text(refused.get_data(as_text=True))
    week.save_config(week.config.with_changes(owner_pin_hash=hash_pin(PIN)))
    assert send("/owner/login", {"pin": PIN}).status_code == 302
    assert send("/new", form).status_code == 302  # the owner's phone


def test_the_owner_sees_backdated_api_games_in_entry_order_and_voids_them_with_one_tap(
    send, client: FlaskClient, old_club: Store, hidden
) -> None:
    store = old_club
    # The shared club reaches back 90 days: games two months back, as main let through with any window.
    fakes = [api_game(client, days_ago(store, 60 - n), winner="Olek") for n in range(3)]
    assert [f.status_code for f in fakes] == [201, 201, 201]
    assert send("/new", {"size": "13", "a": "Ewa", "b": "Hania", "winner": "a", "by": "resignation"}).status_code == 302
    before = {m.nick: m.strength for m in store.magnets()}
    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN)))
    assert send("/owner/login", {"pin": PIN}).status_code == 302
    page = client.get("/owner/recent/")
    assert page.status_code == 200
    seen = text(page.get_data(as_text=True))
    print("\n" + seen[:900])
    # Entry order: the phone's game (entered last) first, then the three API games, newest entry first.
    assert seen.index("Ewa – Hania") < seen.index("Olek – Pola")
    assert seen.count("by API client 10.0.0.66") == 3
    assert seen.count("Late entry: ") == 3
    assert "Late entry: 60 days after it was played" in seen
    assert "by phone " in seen
    page_html = page.get_data(as_text=True)
    buttons = re.findall(r'name="origin" value="([^"]+)"', page_html)
    assert "api:10.0.0.66" in buttons
    # The first tap asks for the number; a wrong number voids nothing; the right one voids the three.
    form = hidden(page_html)
    asked = client.post("/owner/recent/void", data={**form, "origin": "api:10.0.0.66"})
    assert asked.status_code == 200
    assert "Void the 3 games from API client 10.0.0.66?" in text(asked.get_data(as_text=True))
    wrong = client.post(
        "/owner/recent/void", data={**hidden(asked.get_data(as_text=True)), "origin": "api:10.0.0.66", "count": "99"}
    )
    assert wrong.status_code == 400
    assert "Number of games: 99 is not the number. 3 games from API client 10.0.0.66 would be voided" in text(
        wrong.get_data(as_text=True)
    )
    assert store.check() == [] and len([g for g in store.recent_games(limit=100) if "Olek" in g.players]) == 3
    voided = client.post(
        "/owner/recent/void", data={**hidden(wrong.get_data(as_text=True)), "origin": "api:10.0.0.66", "count": "3"}
    )
    assert voided.status_code == 302
    after = text(client.get("/owner/recent/").get_data(as_text=True))
    assert "3 games from API client 10.0.0.66 were voided" in after
    assert after.count("voided") >= 3
    assert [g for g in store.recent_games(limit=100) if "Olek" in g.players] == []
    assert store.recent_games(limit=1)[0].players == ("Ewa", "Hania")
    assert store.check() == []
    strengths = {m.nick: m.strength for m in store.magnets()}
    assert strengths["Ewa"] == before["Ewa"]
    assert (strengths["Olek"], strengths["Pola"]) == (20 * 4, 22 * 4)  # as before the fakes (in quarters)


def test_the_recent_list_needs_the_pin(client: FlaskClient) -> None:
    assert client.get("/owner/recent/").status_code == 302
    assert client.post("/owner/recent/void", data={"origin": "api:1.2.3.4"}).status_code == 302
