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
    again = client.post("/api/games", json={**GAME, "key": "tablet-7"})
    assert again.status_code == 201 and again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(store.recent_games()) == 2
    # The key again with another game is no retry (the IETF idempotency-key draft): 422, nothing saved.
    other = client.post("/api/games", json={**GAME, "key": "tablet-7", "by": "resignation"})
    assert other.status_code == 422 and other.get_json()["error"]["code"] == "key-reused"
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
    assert message in response.get_json()["error"]["message"]
    assert len(store.recent_games()) == 1


def test_a_draw_in_an_even_game_is_400(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"size": 13, "players": ["Ewa", "Gosia"], "winner": None})
    assert response.get_json() == {
        "error": {"code": "draw-even", "message": "a draw is impossible in an even game (komi 6.5)"}
    }


def test_errors_come_in_the_users_language(client: FlaskClient) -> None:
    response = client.post(
        "/api/games", json={**GAME, "players": ["Zosia", "Czarek"]}, headers={"Accept-Language": "pl"}
    )
    assert response.get_json() == {"error": {"code": "unknown-player", "message": "nieznany gracz 'Zosia'"}}


def test_writes_accept_only_json(client: FlaskClient, store: Store) -> None:
    response = client.post("/api/games", data={"size": "9"})
    assert response.status_code == 415
    assert "application/json" in response.get_json()["error"]["message"]
    broken = client.post("/api/games", data="{not json", content_type="application/json")
    assert broken.status_code == 400 and "error" in broken.get_json()
    assert client.post("/api/games", json=[1, 2]).status_code == 400
    assert len(store.recent_games()) == 1


def test_add_a_guest(client: FlaskClient) -> None:
    response = client.post("/api/players", json={"nick": "Zosia", "size": 9, "kyu": 10})
    assert response.status_code == 201
    assert response.get_json() == {"nick": "Zosia", "size": 9, "strength": 37.5, "status": "guest"}
    taken = client.post("/api/players", json={"nick": "zosia", "size": 13})
    assert taken.status_code == 400 and taken.get_json() == {
        "error": {"code": "nick-taken", "message": "the nickname 'zosia' is taken"}
    }
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
    assert client.get("/api/handicap?size=9&a=Bianka&b=Zosia").get_json() == {
        "error": {"code": "unknown-player", "message": "unknown player 'Zosia'"}
    }
    assert client.get("/api/handicap?size=8&a=1&b=2").status_code == 400
    assert client.get("/api/handicap?size=9&a=Bianka").status_code == 400


def test_a_strength_that_is_no_field_of_the_scale_is_400(client: FlaskClient) -> None:
    response = client.get("/api/handicap?size=13&a=30&b=31.25")
    assert response.status_code == 400
    assert response.get_json() == {
        "error": {
            "code": "bad-strength",
            "message": "31.25 is not a field of the scale; the nearest fields are 31 and 31.5",
        }
    }
    mixed = client.get("/api/handicap?size=13&a=30&b=Bianka")
    assert mixed.status_code == 400 and mixed.get_json() == {
        "error": {"code": "strengths-or-nicks", "message": "give two strengths or two nicknames"}
    }


def test_bad_queries_are_400(client: FlaskClient) -> None:
    assert client.get("/api/board?size=12").status_code == 400
    assert client.get("/api/games?limit=-1").get_json() == {
        "error": {"code": "bad-limit", "message": "limit must be a whole number from 1 to 1000"}
    }
    assert client.get("/api/nothing").get_json() == {
        "error": {
            "code": "not-found",
            "message": "There is nothing here. Maybe the game was undone or the player renamed.",
        }
    }


def test_a_key_of_a_voided_game_says_so(client: FlaskClient, send) -> None:
    game = client.post("/api/games", json={**GAME, "key": "k1"})
    assert game.status_code == 201
    from web.pin import hash_pin

    with Store.open(Path(client.application.config["SEMEDORI_HOME"])) as store:
        store.save_config(store.config.with_changes(owner_pin_hash=hash_pin("2468")))
    send("/owner/login", {"pin": "2468"})
    send(f"/owner/games/{game.get_json()['id']}", {"action": "void-confirmed"})
    voided = client.post("/api/games", json={**GAME, "key": "k1"})
    assert voided.status_code == 400
    assert voided.get_json() == {
        "error": {"code": "key-voided", "message": "the game recorded with this key was voided"}
    }


# --- paging, single things, one error shape, and the OpenAPI description ------------------


def check(client: FlaskClient, response, path: str, method: str = "get") -> dict:
    """The answer must match what /api/openapi.json says this path and status give."""
    from jsonschema import Draft202012Validator

    spec = client.get("/api/openapi.json").get_json()
    operation = spec["paths"][path][method]
    schema = operation["responses"][str(response.status_code)]["content"]["application/json"]["schema"]
    resolver_doc = {**schema, "components": spec["components"]}
    Draft202012Validator(resolver_doc).validate(response.get_json())
    return response.get_json()


def many_games(client: FlaskClient, count: int) -> list[int]:
    ids = []
    for day in range(count):
        game = {**GAME, "at": f"2026-11-{3 + day // 4:02d}T{18 + day % 4}:00", "by": "resignation"}
        ids.append(client.post("/api/games", json=game).get_json()["id"])
    return ids


def test_games_come_in_pages_with_a_link_to_the_next(client: FlaskClient) -> None:
    ids = many_games(client, 7)
    page = check(client, client.get("/api/games?limit=3"), "/api/games")
    assert [g["id"] for g in page["games"]] == ids[::-1][:3]
    seen = [g["id"] for g in page["games"]]
    while page["next"]:
        client.post("/api/games", json={**GAME, "at": "2026-11-20T18:00"})  # a new game does not shift the pages
        page = check(client, client.get(page["next"]), "/api/games")
        seen += [g["id"] for g in page["games"]]
    assert seen == [*ids[::-1], 1]
    assert client.get("/api/games?limit=8").get_json()["next"] is not None


def test_games_are_filtered_by_player_and_date(client: FlaskClient) -> None:
    many_games(client, 5)
    body = check(client, client.get("/api/games?player=dawid"), "/api/games")
    assert [g["players"] for g in body["games"]] == [["Dawid", "Bianka"]]
    days = client.get("/api/games?since=2026-11-03&until=2026-11-03").get_json()["games"]
    assert len(days) == 4 and all(g["at"].startswith("2026-11-03") for g in days)
    bad = client.get("/api/games?since=yesterday")
    assert bad.status_code == 400 and check(client, bad, "/api/games")["error"]["code"] == "bad-date"
    assert client.get("/api/games?before=abc").get_json()["error"]["code"] == "bad-cursor"


def test_one_game_and_one_player(client: FlaskClient) -> None:
    created = client.post("/api/games", json=GAME)
    assert created.status_code == 201 and created.headers["Location"] == "/api/games/2"
    check(client, created, "/api/games", "post")
    one = client.get(created.headers["Location"])
    assert check(client, one, "/api/games/{id}") == created.get_json()
    missing = client.get("/api/games/99")
    assert missing.status_code == 404 and check(client, missing, "/api/games/{id}")["error"]["code"] == "unknown-game"
    player = check(client, client.get("/api/players/czarek"), "/api/players/{nick}")
    assert player["nick"] == "Czarek" and player["magnets"][0]["strength"] == 27
    assert [g["id"] for g in player["games"]] == [2] and player["next"] is None
    nobody = client.get("/api/players/Nobody")
    assert (
        nobody.status_code == 404 and check(client, nobody, "/api/players/{nick}")["error"]["code"] == "unknown-player"
    )
    guest = client.post("/api/players", json={"nick": "Łucja", "size": 9})
    assert guest.status_code == 201 and guest.headers["Location"] == "/api/players/%C5%81ucja"
    check(client, guest, "/api/players", "post")
    assert client.get(guest.headers["Location"]).get_json()["nick"] == "Łucja"


def test_players_come_in_pages(client: FlaskClient) -> None:
    page = check(client, client.get("/api/players?limit=3"), "/api/players")
    names = [p["nick"] for p in page["players"]]
    while page["next"]:
        page = check(client, client.get(page["next"]), "/api/players")
        names += [p["nick"] for p in page["players"]]
    assert names == ["Bianka", "Czarek", "Dawid", "Ewa", "Franek", "Gosia", "Hania"]


def test_every_api_path_answers_json_with_a_stable_code(client: FlaskClient) -> None:
    for path in ("/api/nothing", "/api/games/abc", "/api/games/1/moves"):
        response = client.get(path)
        assert response.status_code == 404 and response.is_json, path
        assert response.get_json()["error"]["code"] == "not-found"
    index = client.get("/api")
    assert index.is_json and index.get_json()["openapi"] == "/api/openapi.json"
    wrong = client.delete("/api/games")
    assert wrong.status_code == 405 and wrong.get_json()["error"]["code"] == "method-not-allowed"
    other = client.post("/api/games", data="x", content_type="text/plain")
    assert other.status_code == 415 and other.get_json()["error"]["code"] == "needs-json"
    check(client, client.get("/api/board?size=9"), "/api/board")
    check(client, client.get("/api/handicap?size=9&a=Bianka&b=Czarek"), "/api/handicap")
    check(client, client.get("/api/handicap?size=9&a=Bianka&b=Zosia"), "/api/handicap")


def test_the_openapi_description_is_valid_openapi_3_1(client: FlaskClient) -> None:
    from jsonschema import Draft202012Validator

    spec = client.get("/api/openapi.json").get_json()
    assert spec["openapi"] == "3.1.0"
    for name, schema in spec["components"]["schemas"].items():
        Draft202012Validator.check_schema(schema), name
    assert set(spec["paths"]) == {
        "/api/board",
        "/api/players",
        "/api/players/{nick}",
        "/api/games",
        "/api/games/{id}",
        "/api/handicap",
        "/api/events/tonight",
        "/api/events/{id}",
        "/api/events/{id}/results",
    }


def test_a_whole_number_margin_in_an_even_game_is_400(client: FlaskClient) -> None:
    even = {"size": 13, "players": ["Ewa", "Gosia"], "winner": "Ewa", "by": 7, "at": "2026-11-03T19:10"}
    refused = client.post("/api/games", json=even)
    assert refused.status_code == 400 and refused.get_json()["error"]["code"] == "even-margin"
    assert client.post("/api/games", json={**even, "by": 7.5}).status_code == 201
