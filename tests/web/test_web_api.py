"""The JSON API: the same core as the pages, 400 with {"error": ...} for bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient

from kiosk.store import Store

GAME = {"size": 9, "players": ["Bianka", "Czarek"], "winner": "Czarek", "by": 21, "at": "2026-11-03T19:10"}


def test_board_of_a_size(client: FlaskClient) -> None:
    body = client.get("/api/board?size=9").get_json()
    assert body == {
        "size": 9,
        "magnets": [
            {"nick": "Bianka", "size": 9, "strength": 34.5, "status": "member"},
            {"nick": "Czarek", "size": 9, "strength": 25, "status": "member"},
            {"nick": "Dawid", "size": 9, "strength": 22, "status": "member"},
        ],
    }


def test_players_with_their_magnets(client: FlaskClient) -> None:
    players = client.get("/api/players").get_json()["players"]
    assert {
        "nick": "Hania",
        "magnets": [{"nick": "Hania", "size": 13, "strength": 28, "status": "guest", "primary": True}],
    } in players
    assert len(players) == 7


def test_a_game_answers_201_as_in_the_replay_output(client: FlaskClient) -> None:
    response = client.post("/api/games", json=GAME)
    assert response.status_code == 201
    assert response.get_json() == {
        "id": 2,
        "at": "2026-11-03T19:10",
        "size": 9,
        "players": ["Bianka", "Czarek"],
        "white": "Bianka",
        "handicap": {"even": False, "moves": 2, "prisoners": 0},
        "training": False,
        "moves": {
            "Bianka": {"from": 34.5, "to": 33.5, "why": "clear-loss"},
            "Czarek": {"from": 25, "to": 27, "why": "clear-win"},
        },
        "winner": "Czarek",
        "by": 21,
    }
    assert client.get("/api/games?limit=1").get_json()["games"][0]["id"] == 2


def test_the_same_key_records_nothing_and_answers_the_first_result(client: FlaskClient, store: Store) -> None:
    first = client.post("/api/games", json={**GAME, "key": "tablet-7"})
    again = client.post("/api/games", json={**GAME, "key": "tablet-7", "by": "resignation"})
    assert again.status_code == 201 and again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(store.recent_games()) == 2


def test_a_game_without_a_time_is_played_now(client: FlaskClient) -> None:
    body = client.post("/api/games", json={k: v for k, v in GAME.items() if k != "at"}).get_json()
    assert body["at"] > "2026-11-03T19:10"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": ["Zosia", "Czarek"]}, "unknown player 'Zosia'"),
        ({"players": ["Bianka", "BIANKA"], "winner": "Bianka"}, "Bianka cannot play against herself"),
        ({"by": -3}, "the margin must be resignation"),
        ({"by": 1000}, "the margin must be resignation"),
        ({"at": "2099-01-01T10:00"}, "the date 2099-01-01 10:00 is in the future"),
        ({"size": 10}, "the board size must be 9, 13 or 19"),
        ({"winner": "Ewa"}, "the winner 'Ewa' did not play this game"),
        ({"players": "Bianka"}, "a game needs exactly two players"),
        ({"colour": "white"}, "unknown field colour"),
        ({"key": 7}, "key must be a text"),
    ],
)
def test_bad_games_are_400_with_a_message_and_change_nothing(
    client: FlaskClient, store: Store, change: dict[str, object], message: str
) -> None:
    response = client.post("/api/games", json={**GAME, **change})
    assert response.status_code == 400
    assert message in response.get_json()["error"]
    assert len(store.recent_games()) == 1


def test_a_draw_in_an_even_game_is_400(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"size": 13, "players": ["Ewa", "Gosia"], "winner": None})
    assert response.get_json() == {"error": "a draw is impossible in an even game (komi 6.5)"}


def test_errors_come_in_the_users_language(client: FlaskClient) -> None:
    response = client.post(
        "/api/games", json={**GAME, "players": ["Zosia", "Czarek"]}, headers={"Accept-Language": "pl"}
    )
    assert response.get_json() == {"error": "nieznany gracz 'Zosia'"}


def test_writes_accept_only_json(client: FlaskClient, store: Store) -> None:
    response = client.post("/api/games", data={"size": "9"})
    assert response.status_code == 415
    assert "application/json" in response.get_json()["error"]
    broken = client.post("/api/games", data="{not json", content_type="application/json")
    assert broken.status_code == 400 and "error" in broken.get_json()
    assert client.post("/api/games", json=[1, 2]).status_code == 400
    assert len(store.recent_games()) == 1


def test_add_a_guest(client: FlaskClient) -> None:
    response = client.post("/api/players", json={"nick": "Zosia", "size": 9, "kyu": 10})
    assert response.status_code == 201
    assert response.get_json() == {"nick": "Zosia", "size": 9, "strength": 37.5, "status": "guest"}
    taken = client.post("/api/players", json={"nick": "zosia", "size": 13})
    assert taken.status_code == 400 and taken.get_json() == {"error": "the nickname 'zosia' is taken"}
    assert client.post("/api/players", json={"nick": "<i>" * 50}).status_code == 400
    assert client.post("/api/players", json={"nick": "Ala", "status": "member"}).status_code == 400


def test_handicap_for_two_players_or_strengths(client: FlaskClient) -> None:
    assert client.get("/api/handicap?size=9&a=Bianka&b=Czarek").get_json() == {
        "size": 9,
        "players": ["Bianka", "Czarek"],
        "difference": 9.5,
        "white": "Bianka",
        "black": "Czarek",
        "handicap": {"even": False, "moves": 2, "prisoners": 0},
        "training": False,
    }
    assert client.get("/api/handicap?size=19&a=40&b=40.25").get_json()["handicap"] == {"even": True}
    assert client.get("/api/handicap?size=9&a=Bianka&b=Zosia").get_json() == {"error": "unknown player 'Zosia'"}
    assert client.get("/api/handicap?size=8&a=1&b=2").status_code == 400
    assert client.get("/api/handicap?size=9&a=Bianka").status_code == 400


def test_a_strength_that_is_no_field_of_the_scale_is_400(client: FlaskClient) -> None:
    response = client.get("/api/handicap?size=13&a=30&b=31.25")
    assert response.status_code == 400
    assert response.get_json() == {"error": "31.25 is not a field of the scale"}
    mixed = client.get("/api/handicap?size=13&a=30&b=Bianka")
    assert mixed.status_code == 400 and mixed.get_json() == {"error": "give two strengths or two nicknames"}


def test_bad_queries_are_400(client: FlaskClient) -> None:
    assert client.get("/api/board?size=12").status_code == 400
    assert client.get("/api/games?limit=-1").get_json() == {"error": "limit must be a whole number from 1 to 1000"}
    assert client.get("/api/nothing").get_json() == {
        "error": "There is nothing here. Maybe the game was undone or the player renamed."
    }


def test_a_key_of_a_voided_game_says_so(client: FlaskClient, send) -> None:
    game = client.post("/api/games", json={**GAME, "key": "k1"})
    assert game.status_code == 201
    from web.pin import hash_pin

    with Store.open(Path(client.application.config["SEMEDORI_HOME"])) as store:
        store.save_config(store.config.with_changes(owner_pin_hash=hash_pin("2468")))
    send("/owner/login", {"pin": "2468"})
    send(f"/owner/games/{game.get_json()['id']}", {"action": "void"})
    voided = client.post("/api/games", json={**GAME, "key": "k1"})
    assert voided.status_code == 400
    assert voided.get_json() == {"error": "the game recorded with this key was voided"}
