"""One game, one record: a second phone recording the same game is asked, the API answers 409."""

from __future__ import annotations

import http.client
import json
import threading
from pathlib import Path
from urllib.parse import urlencode

from club_days import on_the_club_clock
from flask import Flask
from flask.testing import FlaskClient
from form_fields import hidden_fields
from served import served_app
from test_web_recording import text

from kiosk.store import Store
from web import create_app

GAME = {"size": 9, "players": ["Bianka", "Czarek"], "winner": "Czarek", "by": "resignation", "at": "2026-11-03T19:10"}
FORM = {"size": "9", "a": "Bianka", "b": "Czarek", "winner": "b", "by": "resignation", "at": "2026-11-03T19:10"}


def standing(store: Store) -> list:
    """The games the board counts, the club's first one aside."""
    return [g for g in store.recent_games(limit=100) if g.id != 1]


def save_on(phone: FlaskClient, data: dict[str, str]):
    """Open the game form on ``phone`` and send it."""
    page = phone.get("/new").get_data(as_text=True)
    return phone.post("/new", data={**hidden_fields(page), **data})


def answer(phone: FlaskClient, question, choice: str):
    """Tap one of the question page's buttons (the form rides along, hidden)."""
    return phone.post("/new", data={**hidden_fields(question.get_data(as_text=True)), "same": choice})


# --- the API -------------------------------------------------------------------------------


def test_the_api_answers_a_second_copy_409_with_the_game_already_recorded(app: Flask, store: Store) -> None:
    first = app.test_client().post("/api/games", json=GAME, environ_base={"REMOTE_ADDR": "10.0.0.5"})
    second = app.test_client().post("/api/games", json=GAME, environ_base={"REMOTE_ADDR": "10.0.0.6"})
    assert first.status_code == 201
    assert second.status_code == 409
    body = second.get_json()
    assert body["error"]["code"] == "likely-duplicate"
    assert body["game"]["id"] == first.get_json()["id"] and body["same_result"] is True
    assert len(standing(store)) == 1


def test_again_true_records_the_rematch(app: Flask, store: Store) -> None:
    app.test_client().post("/api/games", json=GAME, environ_base={"REMOTE_ADDR": "10.0.0.5"})
    again = app.test_client().post("/api/games", json={**GAME, "again": True}, environ_base={"REMOTE_ADDR": "10.0.0.6"})
    assert again.status_code == 201
    assert len(standing(store)) == 2
    assert store.entries(limit=1)[0].line["note"] == "played again, not game 2"


def test_another_result_of_the_same_pair_is_a_409_too_saying_so(app: Flask, store: Store) -> None:
    app.test_client().post("/api/games", json=GAME, environ_base={"REMOTE_ADDR": "10.0.0.5"})
    other = {**GAME, "winner": "Bianka"}
    second = app.test_client().post("/api/games", json=other, environ_base={"REMOTE_ADDR": "10.0.0.6"})
    assert second.status_code == 409 and second.get_json()["same_result"] is False
    assert len(standing(store)) == 1


def test_the_same_client_is_not_asked_and_again_must_be_a_boolean(client: FlaskClient, store: Store) -> None:
    assert client.post("/api/games", json=GAME).status_code == 201
    assert client.post("/api/games", json=GAME).status_code == 201  # one client's two games are its own
    bad = client.post("/api/games", json={**GAME, "again": "yes"})
    assert bad.status_code == 400 and bad.get_json()["error"]["code"] == "bad-again"
    assert len(standing(store)) == 2


def test_the_409_is_in_the_clients_language_and_in_the_description(app: Flask) -> None:
    app.test_client().post("/api/games", json=GAME, environ_base={"REMOTE_ADDR": "10.0.0.5"})
    polish = app.test_client().post(
        "/api/games", json=GAME, environ_base={"REMOTE_ADDR": "10.0.0.6"}, headers={"Accept-Language": "pl"}
    )
    assert "została właśnie zapisana" in polish.get_json()["error"]["message"]
    described = app.test_client().get("/api/openapi.json").get_json()
    assert "409" in described["paths"]["/api/games"]["post"]["responses"]
    assert "again" in described["components"]["schemas"]["NewGame"]["properties"]


def test_a_window_of_0_minutes_asks_nothing(home: Path) -> None:
    with Store.open(home) as store:
        store.save_config(store.config.with_changes(same_game_minutes=0))
    app = create_app(on_the_club_clock({"SEMEDORI_HOME": str(home), "TESTING": True}))
    app.test_client().post("/api/games", json=GAME, environ_base={"REMOTE_ADDR": "10.0.0.5"})
    assert app.test_client().post("/api/games", json=GAME, environ_base={"REMOTE_ADDR": "10.0.0.6"}).status_code == 201


# --- two phones ------------------------------------------------------------------------------


def test_a_second_phone_is_asked_and_yes_adds_nothing_but_confirms(app: Flask, store: Store) -> None:
    jedrek, hania = app.test_client(), app.test_client()
    assert save_on(jedrek, FORM).status_code == 302
    question = save_on(hania, FORM)
    assert question.status_code == 409
    page = text(question)
    assert (
        "Bianka – Czarek was just recorded (" in page and "Czarek won by resignation). Is this the same game?" in page
    )
    assert len(standing(store)) == 1
    yes = answer(hania, question, "confirm")
    assert yes.status_code == 302
    shown = text(hania.get(yes.headers["Location"]))
    assert "Confirmed by both players" in shown and "now both players have confirmed it" in shown
    assert len(standing(store)) == 1
    assert store.entries(limit=1)[0].line == {"type": "confirm", "at": store.entries(limit=1)[0].line["at"], "game": 2}
    assert "Confirmed by both players" in text(jedrek.get("/players/Czarek"))
    assert store.check() == []


def test_no_we_played_again_records_the_second_game(app: Flask, store: Store) -> None:
    save_on(app.test_client(), FORM)
    hania = app.test_client()
    question = save_on(hania, FORM)
    again = answer(hania, question, "again")
    assert again.status_code == 302
    assert len(standing(store)) == 2


def test_a_different_result_is_shown_side_by_side_and_nothing_is_saved(app: Flask, store: Store) -> None:
    save_on(app.test_client(), FORM)
    hania = app.test_client()
    question = save_on(hania, {**FORM, "winner": "a"})
    page = text(question)
    assert "Which result is right?" in page
    assert "Other phone Czarek won by resignation" in page and "This phone Bianka won by resignation" in page
    assert len(standing(store)) == 1
    mine = answer(hania, question, "mine")  # "mine is right": the earlier game is corrected, still one game
    assert mine.status_code == 302
    games = standing(store)
    assert len(games) == 1 and games[0].winner == "Bianka" and games[0].id == 2
    assert store.check() == []


def test_choosing_the_other_phones_result_confirms_it(app: Flask, store: Store) -> None:
    save_on(app.test_client(), FORM)
    hania = app.test_client()
    question = save_on(hania, {**FORM, "winner": "a"})
    theirs = answer(hania, question, "theirs")
    assert theirs.status_code == 302
    games = standing(store)
    assert len(games) == 1 and games[0].winner == "Czarek"
    assert store.confirmed(games) == {2}


def test_the_question_speaks_polish(app: Flask) -> None:
    save_on(app.test_client(), FORM)
    polish = app.test_client()
    page = polish.get("/new", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    question = polish.post("/new", data={**hidden_fields(page), **FORM}, headers={"Accept-Language": "pl"})
    assert "Czy to ta sama partia?" in text(question)
    assert "Tak, ta sama partia" in text(question) and "Nie, zagraliśmy jeszcze raz" in text(question)


def test_the_owners_recent_list_flags_an_imported_copy(home: Path) -> None:
    from web.pin import hash_pin

    copy = {"type": "game", "at": "2026-11-03T19:10", "size": 9, "players": ["Bianka", "Czarek"], "winner": "Czarek"}
    with Store.open(home) as store:  # the club's history imported again, with one game in it twice
        lines = [*store.export_lines(), json.dumps(copy), json.dumps({**copy, "at": "2026-11-03T19:12"})]
        store.import_history(lines, replace_history=True)
        store.save_config(store.config.with_changes(owner_pin_hash=hash_pin("2468")))
    owner = create_app(on_the_club_clock({"SEMEDORI_HOME": str(home), "TESTING": True})).test_client()
    login = owner.get("/owner/login").get_data(as_text=True)
    assert owner.post("/owner/login", data={**hidden_fields(login), "pin": "2468"}).status_code == 302
    page = owner.get("/owner/recent/")
    assert "Likely the same game as game 2, entered twice" in text(page)
    void = owner.post("/owner/games/3", data={**hidden_fields(page.get_data(as_text=True)), "action": "void"})
    assert "Yes, void the game" in text(void)  # one tap, then the owner's void asks first
    listed = owner.get("/games")  # the owner's games list flags it too; the public's does not
    assert "Likely the same game as game 2, entered twice" in text(listed) and "Void this copy" in text(listed)
    assert "Likely the same game" not in text(
        create_app(on_the_club_clock({"SEMEDORI_HOME": str(home)})).test_client().get("/games")
    )


# --- the same moment, through waitress ---------------------------------------------------------------


def _request(port: int, method: str, path: str, body: str = "", cookie: str = "") -> tuple[int, str, str]:
    """One request to the served app: status, page, the cookies it set (as a Cookie header)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie} if body else {"Cookie": cookie}
    connection.request(method, path, body or None, headers)
    response = connection.getresponse()
    cookies = [v.split(";")[0] for k, v in response.getheaders() if k.lower() == "set-cookie"]
    page = response.read().decode()
    connection.close()
    return response.status, page, "; ".join([c for c in [cookie, *cookies] if c])


def test_two_phones_at_the_same_moment_make_one_game_and_one_question(home: Path) -> None:
    app = create_app(on_the_club_clock({"SEMEDORI_HOME": str(home), "STORE_PER_THREAD": True}))
    with served_app(app) as server:
        port = server.effective_port
        pairs = (("9", "Bianka", "Czarek"), ("9", "Bianka", "Dawid"), ("9", "Czarek", "Dawid"), ("13", "Ewa", "Gosia"))
        for size, a, b in pairs:
            game = {**FORM, "size": size, "a": a, "b": b}
            forms = []
            for _phone in range(2):  # each phone opens its own form (its own session, CSRF token and one-time token)
                _status, page, cookie = _request(port, "GET", "/new")
                forms.append((urlencode({**hidden_fields(page), **game}), cookie))
            statuses: list[int] = []
            start = threading.Barrier(2)

            def save(body: str, cookie: str, start: threading.Barrier = start, statuses: list[int] = statuses) -> None:
                start.wait()
                statuses.append(_request(port, "POST", "/new", body, cookie)[0])

            phones = [threading.Thread(target=save, args=form) for form in forms]
            for phone in phones:
                phone.start()
            for phone in phones:
                phone.join()
            assert sorted(statuses) == [302, 409]  # one saved, one asked "Is this the same game?"
        with Store.open(home) as store:
            assert len(standing(store)) == 4  # one per round, never two
            assert store.check() == []


def test_a_third_phone_typing_the_pair_is_told_before_it_saves(app: Flask) -> None:
    jedrek = app.test_client()
    save_on(jedrek, FORM)
    typed = "/new/handicap?size=9&a=Bianka&b=Czarek"
    told = text(app.test_client().get(typed))
    assert "Bianka – Czarek was just recorded on another phone (" in told
    assert "Czarek won by resignation). If that was this game, it is on the board already." in told
    assert "was just recorded" not in text(jedrek.get(typed))  # its own game is no news to the phone that saved it
