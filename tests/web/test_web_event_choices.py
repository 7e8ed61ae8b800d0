"""The owner's choices for an event on the phone: tie-breaks, "why above me", the handicap
played, pairs kept apart, prizes and their certificates; bad input said in English and Polish, nothing started."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from form_fields import hidden_fields
from PIL import Image
from test_web_api_events import check
from test_web_event import EVENING, PLAYERS, app, owner, tap  # noqa: F401 - the event pages' club and steps

from kiosk.store import Store


def start(client: FlaskClient, **choices: str | list[str]) -> tuple[int, str]:
    page = client.get("/event?size=13").get_data(as_text=True)
    data: dict[str, object] = {**hidden_fields(page), "size": "13", "player": PLAYERS, "counts": "y", **choices}
    response = client.post("/event/start", data=data)
    if response.status_code != 302:
        return 0, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1]), ""


def _start_line(home: Path) -> dict[str, object]:
    with Store.open(home) as store:
        lines = [json.loads(line) for line in store.export_lines()]
    return next(line for line in lines if line["type"] == "tournament-start")


def test_the_start_form_offers_opengothas_default_and_the_line_keeps_the_owners_choices(
    client: FlaskClient, home: Path
) -> None:
    owner(client)
    page = client.get("/event?size=13").get_data(as_text=True)
    assert "Tie-breaks, handicap, pairing and prizes" in page
    assert '<option value="sos" selected>' in page and '<option value="sosos" selected>' in page
    event_id, problem = start(
        client,
        **{
            "tiebreak-1": "direct",
            "tiebreak-2": "sos",
            "tiebreak-3": "",
            "tiebreak-4": "",
            "unique": "yes",
            "handicap-cap": "1",
            "avoid-1-a": "Ewa",
            "avoid-1-b": "Hania",
            "classes": "20",
        },
    )
    assert problem == ""
    line = _start_line(home)
    assert line["tiebreaks"] == ["direct", "sos"] and line["places"] == "unique"
    assert line["handicap"] == {"at_most": 1} and line["avoid"] == [["Ewa", "Hania"]] and line["classes"] == [20]
    page = client.get(f"/event/{event_id}").get_data(as_text=True)
    assert "Handicap: at most 1 starting move." in page
    # Ewa and Hania, marked, meet in the last round of a cycle, not in round 1 (Berger's first: 1-4 and 2-3).
    assert "Ewa – Hania" not in page and "Board 1: Gosia – Ewa" in page
    # Hania (28) against Franek (0) would be a training game by the table; capped, it is one move, no training.
    assert "Board 2: Hania – Franek" in page and "Black plays first, no komi, 0 prisoners" in page
    assert "Training game" not in page


def test_why_above_me_and_the_prizes_after_the_results(client: FlaskClient, home: Path) -> None:
    owner(client)
    event_id, _problem = start(client, **{"tiebreak-1": "sos", "tiebreak-2": "sosos", "classes": "20"})
    tap(client, event_id, 1, "b:resignation")  # Franek beats Gosia
    page = tap(client, event_id, 2, "a:resignation").get_data(as_text=True)  # Ewa beats Hania
    assert "Why is" in page and 'class="why-numbers"' in page
    assert '<th scope="col"><abbr' in page and ">SOSOS</abbr>" in page
    assert "Prizes" in page and "Place 1" in page and "certificate" in page
    picture = client.get(f"/event/{event_id}/certificate/place/Ewa.png?lang=pl&paper=A5")
    assert picture.status_code == 200 and picture.mimetype == "image/png"
    assert Image.open(io.BytesIO(picture.data)).size[0] > 2000  # A5 landscape at 300 dpi
    assert client.get(f"/event/{event_id}/certificate/wins/Ewa.png").status_code == 404  # one win is no "most wins"
    assert client.get(f"/event/{event_id}/certificate/place/Ewa.png?paper=A3").status_code == 400


@pytest.mark.parametrize(
    ("choices", "english", "polish"),
    [
        (
            {"tiebreak-1": "sos", "tiebreak-2": "sos"},
            "Choose each tie-break at most once.",
            "Każde kryterium wybierz najwyżej raz.",
        ),
        ({"handicap-cap": "12"}, "at most 1 to 9 starting moves", "najwyżej"),
        ({"handicap-less": "x"}, "at most 1 to 9 starting moves", "najwyżej"),
        ({"avoid-1-a": "Ewa", "avoid-1-b": "Ewa"}, "two different players", "dwoje"),
        ({"classes": "30 20"}, "smallest first", "od najmniejszego"),
    ],
)
def test_bad_choices_are_said_in_english_and_polish_and_nothing_starts(
    client: FlaskClient, home: Path, choices: dict[str, str], english: str, polish: str
) -> None:
    owner(client)
    event_id, problem = start(client, **choices)
    assert event_id == 0 and english in problem
    with Store.open(home) as store:
        assert not any('"tournament-start"' in line for line in store.export_lines())
    client.get("/language/pl")  # the phone's language switch
    _event, said = start(client, **choices)
    assert polish in said


def test_the_api_shows_the_handicap_played_the_chain_and_the_prizes(client: FlaskClient) -> None:
    owner(client)
    event_id, _problem = start(client, **{"tiebreak-1": "sos", "tiebreak-2": "progress", "handicap-cap": "1"})
    tap(client, event_id, 1, "a:resignation")
    answer = check(client, client.get(f"/api/events/{event_id}"), "/api/events/{id}")
    assert answer["tiebreaks"] == ["sos", "progress"] and answer["handicap_policy"]["at_most"] == 1
    handicaps = [b["handicap"] for b in answer["boards"] if not b["bye"]]
    assert all(h["even"] or h["moves"] == 1 for h in handicaps)  # nothing above the cap, as played
    assert [len(line["values"]) for line in answer["standings"]] == [3] * len(PLAYERS)  # score, SOS, progress
    assert answer["prizes"][0]["kind"] == "place"


def test_the_owners_games_page_keeps_an_event_games_handicap_played(client: FlaskClient, home: Path, send) -> None:
    owner(client)
    event_id, _problem = start(client, **{"handicap-cap": "1"})
    tap(client, event_id, 1, "a:resignation")  # Gosia (30.5) against Franek (0): one move by the cap, not training
    with Store.open(home) as store:
        game = next(
            json.loads(line) for line in store.export_lines() if '"type": "game"' in line and "tournament" in line
        )
    assert game["handicap"] == {"even": False, "moves": 1, "prisoners": 0}
    form = {
        "action": "edit",
        "size": "13",
        "a": game["players"][0],
        "b": game["players"][1],
        "winner": "b",
        "by": "other",
        "played": game["at"],
    }
    assert send(f"/owner/games/{game['id']}", form).status_code == 302
    with Store.open(home) as store:
        edit = json.loads(list(store.export_lines())[-1])
    assert edit["type"] == "edit" and edit["handicap"] == game["handicap"]  # corrected, still the game played
