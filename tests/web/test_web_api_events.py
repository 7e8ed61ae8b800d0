"""Tonight's event in the JSON API: read it, record a board's result; every answer as /api/openapi.json says.

The kiosk's clock is fixed at Monday 30 November 2026, 19:00 in the club (the suite runs at
about 04:00 Warsaw, outside the club's evening), with internet time, as a Pi has it.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from kiosk.pairing import side_of
from kiosk.services import tournaments as events
from kiosk.store import Store
from web import create_app

CLUB_19H = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
EVENING = date(2026, 11, 30)
PLAYERS = ["Ewa", "Franek", "Gosia", "Hania"]  # 30, 0 (guest), 30.5 and 28 (guest) on 13x13


@pytest.fixture
def app(home: Path, tmp_path: Path) -> Flask:
    synced = tmp_path / "synchronized"
    synced.touch()
    return create_app(
        {
            "SEMEDORI_HOME": str(home),
            "TESTING": True,
            "SEMEDORI_PI_CLOCK": lambda: CLUB_19H,
            "SEMEDORI_TIMESYNC_FLAG": str(synced),
        }
    )


def start(home: Path, counts: bool = True) -> int:
    with Store.open(home) as store:
        sides = [side_of(store.magnets(), nick, 13) for nick in PLAYERS]
        return events.start(store, EVENING, 13, sides, counts=counts, name="Listopad").id


def check(client: FlaskClient, response, path: str, method: str = "get") -> dict:
    """The answer must match what /api/openapi.json says this path and status give."""
    from jsonschema import Draft202012Validator

    spec = client.get("/api/openapi.json").get_json()
    operation = spec["paths"][path][method]
    schema = operation["responses"][str(response.status_code)]["content"]["application/json"]["schema"]
    Draft202012Validator({**schema, "components": spec["components"]}).validate(response.get_json())
    return response.get_json()


def test_no_event_tonight_is_a_404_with_a_stable_code(client: FlaskClient) -> None:
    missing = client.get("/api/events/tonight")
    assert missing.status_code == 404 and check(client, missing, "/api/events/tonight")["error"]["code"] == "no-event"
    gone = client.get("/api/events/7")
    assert gone.status_code == 404 and check(client, gone, "/api/events/{id}")["error"]["code"] == "unknown-event"
    assert client.get("/api").get_json()["event"] == "/api/events/tonight"


def test_tonights_event_with_its_round_handicaps_and_standings(client: FlaskClient, home: Path) -> None:
    event_id = start(home)
    body = check(client, client.get("/api/events/tonight"), "/api/events/tonight")
    assert body == check(client, client.get(f"/api/events/{event_id}"), "/api/events/{id}")
    assert (body["id"], body["name"], body["evening"], body["size"]) == (event_id, "Listopad", "2026-11-30", 13)
    assert (body["format"], body["rounds"], body["round"], body["counts"]) == ("double-round-robin", 6, 1, True)
    assert body["players"][0] == {"nick": "Gosia", "strength": 30.5}  # seeded by strength
    # Berger's first round, 1-4 and 2-3: 30.5 against 0 (a training game) and 30 against 28.
    first, second = body["boards"]
    assert first["players"] == ["Gosia", "Franek"] and first["white"] == "Gosia" and first["training"] is True
    assert second["players"] == ["Ewa", "Hania"] and second["white"] == "Ewa" and second["black"] == "Hania"
    assert second["handicap"]["even"] is False and second["result"] is None and second["winner"] is None
    assert [line["score"] for line in body["standings"]] == [0, 0, 0, 0]


def test_a_result_through_the_api_is_the_phones_tap(client: FlaskClient, home: Path) -> None:
    event_id = start(home)
    url = f"/api/events/{event_id}/results"
    saved = client.post(url, json={"round": 1, "board": 2, "winner": "hania", "by": "resignation"})
    assert saved.status_code == 201 and saved.headers["Location"] == f"/api/events/{event_id}"
    body = check(client, saved, "/api/events/{id}/results", "post")
    board = body["boards"][1]
    assert (board["result"], board["winner"], board["by"]) == ("b", "Hania", "resignation")
    assert (body["standings"][0]["nick"], body["standings"][0]["score"]) == ("Hania", 1)
    again = client.post(url, json={"round": 1, "board": 2, "winner": "Hania", "by": "resignation"})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    check(client, again, "/api/events/{id}/results", "post")
    other = client.post(url, json={"round": 1, "board": 2, "winner": "Ewa"})
    assert other.status_code == 409
    assert check(client, other, "/api/events/{id}/results", "post")["error"]["code"] == "result-taken"
    with Store.open(home) as store:
        [game] = store.games_since(datetime(2026, 11, 30))
        assert (game.winner, game.by, game.kind) == ("Hania", "resignation", "rated")
    # The last board of round 1 by points: round 2 comes up.
    done = check(
        client,
        client.post(url, json={"round": 1, "board": 1, "winner": "Gosia", "by": 12.5}),
        "/api/events/{id}/results",
        "post",
    )
    assert done["round"] == 2 and done["boards"][0]["round"] == 2
    assert client.get(f"/api/events/{event_id}").get_json()["round"] == 2


def test_a_draw_and_a_withdrawn_player_in_the_api(client: FlaskClient, home: Path) -> None:
    event_id = start(home, counts=False)
    url = f"/api/events/{event_id}/results"
    drawn = check(
        client, client.post(url, json={"round": 1, "board": 2, "winner": None}), "/api/events/{id}/results", "post"
    )
    assert drawn["boards"][1]["result"] == "draw" and drawn["boards"][1]["by"] is None
    with Store.open(home) as store:
        events.withdraw(store, event_id, "Franek")
    body = check(client, client.get(f"/api/events/{event_id}"), "/api/events/{id}")
    assert body["withdrawn"] == [{"nick": "Franek", "from_round": 1}]
    assert body["round"] == 2  # Franek's board became Gosia's bye, which finished round 1
    assert [line["withdrawn"] for line in body["standings"] if line["nick"] == "Franek"] == [True]
    assert all("Franek" not in b["players"] for b in body["boards"])


def test_a_tap_on_a_bye_or_on_the_board_of_one_who_went_home_says_so(client: FlaskClient, home: Path) -> None:
    with Store.open(home) as store:  # five players: a bye each round (Dawid on his primary magnet, from 9x9)
        sides = [side_of(store.magnets(), nick, 13) for nick in [*PLAYERS, "Dawid"]]
        event = events.start(store, EVENING, 13, sides, counts=True)
    bye = next(s for s in event.round_seats(1) if s.b is None)
    url = f"/api/events/{event.id}/results"
    answer = client.post(url, json={"round": 1, "board": bye.board, "winner": bye.a})
    assert answer.status_code == 409
    said = check(client, answer, "/api/events/{id}/results", "post")["error"]
    assert said == {
        "code": "bye",
        "message": "That board is a bye: nobody plays on it this round, so there is no result.",
    }
    played = next(s for s in event.round_seats(1) if s.b is not None)
    with Store.open(home) as store:
        events.withdraw(store, event.id, played.b or "")
    answer = client.post(
        url, json={"round": 1, "board": played.board, "winner": played.a}, headers={"Accept-Language": "pl"}
    )
    said = check(client, answer, "/api/events/{id}/results", "post")["error"]
    assert answer.status_code == 409 and said["code"] == "went-home"
    assert said["message"] == f"{played.b} – wycofanie z turnieju: {played.a} ma pauzę (1 punkt)."
    with Store.open(home) as store:
        assert store.games_since(datetime(2026, 11, 30)) == []


@pytest.mark.parametrize(
    ("sent", "status", "code"),
    [
        ({"round": 1, "board": 2}, 400, "missing-field"),
        ({"round": 1, "board": 2, "winner": "Ewa", "colour": "white"}, 400, "unknown-field"),
        ({"round": "1", "board": 2, "winner": "Ewa"}, 400, "bad-board"),
        ({"round": 1, "board": True, "winner": "Ewa"}, 400, "bad-board"),
        ({"round": 0, "board": 2, "winner": "Ewa"}, 400, "bad-board"),
        ({"round": 1, "board": 2, "winner": "Gosia"}, 400, "bad-winner"),
        ({"round": 1, "board": 2, "winner": 7}, 400, "bad-winner"),
        ({"round": 1, "board": 2, "winner": "Ewa", "by": [1]}, 400, "bad-margin"),
        ({"round": 1, "board": 2, "winner": "Ewa", "by": "lots"}, 400, "bad-margin"),
        ({"round": 1, "board": 2, "winner": "Ewa", "by": 1000}, 400, "bad-margin"),
        ({"round": 1, "board": 9, "winner": "Ewa"}, 409, "not-open"),
        ({"round": 3, "board": 1, "winner": "Ewa"}, 409, "not-open"),
    ],
)
def test_bad_results_are_refused_with_a_stable_code_and_change_nothing(
    client: FlaskClient, home: Path, sent: dict, status: int, code: str
) -> None:
    event_id = start(home)
    answer = client.post(f"/api/events/{event_id}/results", json=sent)
    assert answer.status_code == status, answer.get_json()
    assert check(client, answer, "/api/events/{id}/results", "post")["error"]["code"] == code
    with Store.open(home) as store:
        assert store.games_since(datetime(2026, 11, 30)) == []
        assert all(s.result is None for s in events.get(store, event_id).seats)  # type: ignore[union-attr]


def test_api_event_errors_in_polish_and_writes_only_as_json(client: FlaskClient, home: Path) -> None:
    event_id = start(home)
    polish = client.post(
        f"/api/events/{event_id}/results",
        json={"round": 1, "board": 2, "winner": "Gosia"},
        headers={"Accept-Language": "pl"},
    )
    said = polish.get_json()["error"]["message"]
    assert said == "zwycięzcą musi być jeden z dwóch graczy planszy albo null przy remisie"
    missing = client.get("/api/events/tonight", headers={"Accept-Language": "pl"})  # an event exists: 200
    assert missing.status_code == 200
    gone = client.post("/api/events/99/results", json={"round": 1, "board": 1, "winner": "Ewa"})
    assert gone.status_code == 404 and check(client, gone, "/api/events/{id}/results", "post")["error"]["code"] == (
        "unknown-event"
    )
    form = client.post(f"/api/events/{event_id}/results", data={"round": "1", "board": "2", "winner": "Ewa"})
    assert form.status_code == 415 and check(client, form, "/api/events/{id}/results", "post")


# accel: an accelerated event in the API
def test_an_accelerated_event_shows_its_levels_and_the_levels_handicap(client: FlaskClient, home: Path) -> None:
    from kiosk.events import parse_event

    with Store.open(home) as store:  # Franek (0) is too far from everyone: Iza (27) plays instead
        store.record(
            parse_event(
                {
                    "type": "player",
                    "at": "2026-11-01T10:00",
                    "nick": "Iza",
                    "size": 13,
                    "status": "member",
                    "strength": 27,
                }
            )
        )
        sides = [side_of(store.magnets(), nick, 13) for nick in ("Ewa", "Gosia", "Hania", "Iza")]
        event_id = events.start(store, EVENING, 13, sides, counts=True, name="FUS", accelerated=True).id
    answer = client.get(f"/api/events/{event_id}")
    shown = check(client, answer, "/api/events/{id}")
    assert shown["format"] == "accelerated" and shown["counts"] is False  # its games never move magnets
    assert [line["level"] for line in shown["levels"]] == [30.5, 30, 28, 27]  # the strengths at the start
    posted = client.post(
        f"/api/events/{event_id}/results", json={"round": 1, "board": 1, "winner": "Gosia", "by": "resignation"}
    )
    assert posted.status_code == 201, posted.get_json()
    after = check(client, client.get(f"/api/events/{event_id}"), "/api/events/{id}")
    gosia = next(line for line in after["levels"] if line["nick"] == "Gosia")
    assert (gosia["level"], gosia["rise"], gosia["wins"]) == (31, 0.5, 1)  # a win: one arrow up, 0.5 above 30
