"""Late starters, returns, leagues, the archive, a deleted event and a roster on the phone.

The kiosk's clock is fixed at Monday 30 November 2026, 19:00 in the club, as in test_web_event.py.
"""

from __future__ import annotations

import html
import io
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from form_fields import hidden_fields
from test_web_event import EVENING, PIN, owner, settings

from kiosk.events import parse_event
from kiosk.services import tournaments as events
from kiosk.store import Store
from web import create_app
from web.pin import hash_pin

TWELVE = [f"Gracz{i:02d}" for i in range(12)]


@pytest.fixture
def app(home: Path, tmp_path: Path) -> Flask:
    with Store.open(home) as store:
        store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN)))
        for i, nick in enumerate(TWELVE):
            line = {"type": "player", "at": "2026-11-01T18:00", "nick": nick, "size": 13, "status": "member"}
            store.record(parse_event({**line, "strength": 30 - i}))
        for nick in TWELVE[:11]:
            store.check_in(EVENING, nick)
    return create_app({**settings(home, tmp_path), "TESTING": True})


def start(client: FlaskClient, **extra: str) -> int:
    page = client.get("/event?size=13").get_data(as_text=True)
    data: dict[str, object] = {**hidden_fields(page), "size": "13", "player": TWELVE[:11], "name": "Jesień", **extra}
    response = client.post("/event/start", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def post(client: FlaskClient, url: str, page: str, lang: str = "en", **data: str) -> tuple[int, str]:
    token = hidden_fields(client.get(page).get_data(as_text=True))["csrf_token"]
    response = client.post(url, data={"csrf_token": token, **data}, headers={"Accept-Language": lang})
    if response.status_code == 302:
        followed = client.get(response.headers["Location"], headers={"Accept-Language": lang})
        return 302, html.unescape(followed.get_data(as_text=True))
    return response.status_code, html.unescape(response.get_data(as_text=True))


def test_a_phone_asks_to_join_and_the_owner_says_yes(app: Flask, home: Path) -> None:
    boss = owner(app.test_client())
    event_id = start(boss)
    phone = app.test_client()
    page = phone.get(f"/event/{event_id}").get_data(as_text=True)
    assert "Arrived late, or back again?" in page and "½ point for each round missed" in page
    status, said = post(phone, f"/event/{event_id}/ask", f"/event/{event_id}", player="Gracz11")
    assert status == 302 and "Asked: the owner will confirm, Gracz11." in said
    status, said = post(phone, f"/event/{event_id}/ask", f"/event/{event_id}", lang="pl", player="Gracz11")
    assert status == 400 and "Prośba jest już wysłana" in said
    status, said = post(phone, f"/event/{event_id}/ask", f"/event/{event_id}", lang="pl", player="Nikt")
    assert status == 400 and "Nikt" in said
    page = boss.get(f"/event/{event_id}").get_data(as_text=True)
    assert "Asking to play" in page and "Yes, Gracz11 plays" in page
    status, said = post(boss, f"/event/{event_id}/answer", f"/event/{event_id}", player="Gracz11", answer="yes")
    assert status == 302 and "Gracz11 is in: they play from round 2." in said
    assert "(from round 2)" in said
    with Store.open(home) as store:
        found = events.get(store, event_id)
        assert found is not None and found.joined_from("Gracz11") == 2


def test_bad_joins_and_returns_are_refused_in_both_languages_and_change_nothing(app: Flask, home: Path) -> None:
    boss = owner(app.test_client())
    event_id = start(boss)
    with Store.open(home) as store:
        before = store.history_mark()
    page = f"/event/{event_id}"
    status, said = post(boss, f"/event/{event_id}/return", page, player="Gracz03")
    assert status == 400 and "Gracz03 never went home: nothing to come back from." in said
    status, said = post(boss, f"/event/{event_id}/return", page, lang="pl", player="Gracz03")
    assert status == 400 and "Gracz03 — bez wycofania z turnieju" in said
    status, said = post(boss, f"/event/{event_id}/join", page, lang="pl", player="Gracz01")
    assert status == 400 and "Gracz01 już gra w tym turnieju." in said
    with Store.open(home) as store:
        assert store.history_mark() == before


def test_the_owner_withdraws_and_brings_back_a_player(app: Flask) -> None:
    boss = owner(app.test_client())
    event_id = start(boss)
    page = f"/event/{event_id}"
    assert post(boss, f"/event/{event_id}/withdraw", page, player="Gracz04")[0] == 302
    status, said = post(boss, f"/event/{event_id}/return", page, player="Gracz04")
    assert status == 302 and "Gracz04 is back: they play again from round 1." in said


def test_the_owner_deletes_an_event_after_a_confirm_and_it_leaves_the_archive(app: Flask) -> None:
    boss = owner(app.test_client())
    event_id = start(boss)
    assert "Jesień" in boss.get("/events").get_data(as_text=True)
    status, said = post(boss, f"/event/{event_id}/delete", f"/event/{event_id}")
    assert status == 200 and "Delete Jesień?" in said and "No, keep it" in said
    assert boss.get(f"/event/{event_id}").status_code == 200  # still there
    status, said = post(boss, f"/event/{event_id}/delete", f"/event/{event_id}", sure="yes")
    assert status == 302 and "The event was deleted." in said and "Jesień" not in said


def test_a_player_page_lists_their_events(app: Flask) -> None:
    boss = owner(app.test_client())
    start(boss)
    page = app.test_client().get("/players/Gracz00").get_data(as_text=True)
    assert "Events" in page and "Jesień" in page and "place 2 of 11" in page  # the bye of round 1 is a point already


def test_a_roster_comes_onto_tonights_list_and_a_damaged_one_changes_nothing(app: Flask, home: Path) -> None:
    boss = owner(app.test_client())
    token = hidden_fields(boss.get("/event?size=13").get_data(as_text=True))["csrf_token"]

    def send(text: bytes, lang: str = "en") -> tuple[int, str]:
        data = {"csrf_token": token, "size": "13", "roster": (io.BytesIO(text), "list.csv")}
        response = boss.post("/event/roster", data=data, headers={"Accept-Language": lang})
        if response.status_code == 302:
            return 302, html.unescape(boss.get(response.headers["Location"]).get_data(as_text=True))
        return response.status_code, html.unescape(response.get_data(as_text=True))

    status, said = send(b"Nowa,13,12k\nZla,13,99k\n", lang="pl")
    assert status == 400 and "Nic nie zostało zaimportowane" in said and "wiersz 2" in said
    with Store.open(home) as store:
        assert "Nowa" not in {m.nick for m in store.magnets()}
    status, said = send(b"nick,size,grade\nNowa,13,12k\nGracz11,13,17\n")
    assert status == 302 and "13 players are on tonight's list (1 new on the board)" in said
    assert 'value="Nowa"' in said


def test_a_league_starts_and_its_next_evening_pairs_those_checked_in(app: Flask, home: Path) -> None:
    boss = owner(app.test_client())
    event_id = start(boss, league="yes", per_evening="1", evenings="4", absent="half")
    with Store.open(home) as store:
        event = events.get(store, event_id)
        assert event is not None and event.is_league and event.rounds == 4
    page = boss.get(f"/event/{event_id}").get_data(as_text=True)
    assert "A league player who is not there on an evening gets ½ point" in page
    status, said = post(boss, f"/event/{event_id}/evening", f"/event/{event_id}")
    assert status == 400 and "Round 1 is still being played: finish it first." in said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Too late to join: Gracz11 could miss at most 2 of the 7 rounds, and 3 are paired."),
        ("pl", "Za późno, żeby dołączyć (Gracz11): można opuścić najwyżej 2 z 7 rund, a rozlosowanych jest już 3."),
    ],
)
def test_a_join_after_a_third_of_the_rounds_is_refused_and_changes_nothing(
    app: Flask, home: Path, lang: str, said: str
) -> None:
    from datetime import datetime

    from kiosk.tournament import A_WINS

    boss = owner(app.test_client())
    event_id = start(boss)
    with Store.open(home) as store:
        for _ in range(2):
            event = events.get(store, event_id)
            assert event is not None
            for seat in event.round_seats(event.current):
                if seat.b is not None:
                    at = datetime(2026, 11, 30, 19, 0)
                    events.record_result(store, event_id, seat.round, seat.board, A_WINS, "resignation", at)
        before = store.history_mark()
    status, page = post(boss, f"/event/{event_id}/join", f"/event/{event_id}", lang=lang, player="Gracz11")
    assert status == 400 and said in page
    with Store.open(home) as store:
        assert store.history_mark() == before
