"""Idempotency keys belong to the client that sent them, and to its body, on `semedori serve`.

On main a kid who posted key ``tournament-board-7`` first made the scorer's real game with
that key a 201 ``Idempotent-Replayed`` carrying the kid's game, and the real one was never
saved. Now a key is the client's own (API: its address), and a key sent again with another
game is a 422, as the IETF idempotency-key draft says; the same body again is still one game.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import sqlite3
from pathlib import Path
from typing import Any

from form_fields import hidden_fields
from harness import Phone, Server

from kiosk.config import DATABASE_NAME

KID, SCORER = "127.0.0.7", "127.0.0.9"


def post_from(server: Server, source: str, body: dict[str, Any]) -> tuple[int, dict[str, str], dict[str, Any]]:
    """POST /api/games from one loopback address."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30, source_address=(source, 0))
    try:
        connection.request("POST", "/api/games", json.dumps(body).encode(), {"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, dict(answer.headers), json.loads(answer.read() or b"{}")
    finally:
        connection.close()


def games(home: Path) -> list[tuple[str, str]]:
    """Every game in the history: (its players, who sent it)."""
    with contextlib.closing(sqlite3.connect(home / DATABASE_NAME)) as db:
        rows = db.execute("SELECT line, origin FROM event WHERE type = 'game' ORDER BY seq").fetchall()
    return [(" v ".join(json.loads(line)["players"]), origin) for line, origin in rows]


def test_a_key_taken_first_by_another_client_does_not_swallow_the_real_game(server: Server, club: Path) -> None:
    key = "tournament-board-7"
    kid = {"size": 13, "players": ["Ala", "Bartek"], "winner": "Ala", "key": key}
    real = {"size": 13, "players": ["Celina", "Darek"], "winner": "Darek", "by": 3.5, "key": key}
    status, _, _ = post_from(server, KID, kid)
    assert status == 201
    status, headers, answer = post_from(server, SCORER, real)
    assert status == 201  # main: 201 too, but Idempotent-Replayed with the kid's game
    assert "Idempotent-Replayed" not in headers
    assert answer["players"] == ["Celina", "Darek"]
    assert games(club) == [("Ala v Bartek", f"api:{KID}"), ("Celina v Darek", f"api:{SCORER}")]

    # The scorer's retry of the same game is still one game, answered as before.
    status, headers, again = post_from(server, SCORER, real)
    assert status == 201 and headers.get("Idempotent-Replayed") == "true" and again == answer
    # The same key from the same client with another game: 422, nothing saved.
    status, _, refused = post_from(server, SCORER, {**real, "winner": "Celina"})
    assert status == 422  # main: 201 Idempotent-Replayed, the first game
    assert refused["error"]["code"] == "key-reused"
    assert len(games(club)) == 2
    assert server.errors_logged() == []


def test_a_game_form_sent_again_with_another_result_is_refused_not_answered_with_the_first(
    server: Server, club: Path
) -> None:
    phone = Phone(server.host)
    _, _, page = phone.send("GET", "/new")
    form = {**hidden_fields(page), "size": "13", "a": "Ala", "b": "Bartek", "winner": "a", "by": "resignation"}
    form["action"] = "save"
    status, _, _ = phone.send("POST", "/new", form)
    assert status == 302
    status, _, _ = phone.send("POST", "/new", form)  # a double tap: the first game, once
    assert status == 302
    status, _, text = phone.send("POST", "/new", {**form, "winner": "b"})  # back, changed, sent again
    assert status == 422  # main: 302 to the first game, the change silently dropped
    assert "already saved" in text
    assert games(club) == [("Ala v Bartek", games(club)[0][1])]


def test_a_form_token_another_phone_sent_first_does_not_swallow_this_phones_game(server: Server, club: Path) -> None:
    """A form's key is the phone's own (its cookie): a copied token saves the copier's game, and this one's too."""
    scorer, kid = Phone(server.host), Phone(server.host)
    _, _, page = scorer.send("GET", "/new")
    token = hidden_fields(page)["once"]
    _, _, other = kid.send("GET", "/new")
    kid_form = {**hidden_fields(other), "once": token, "size": "13", "a": "Ala", "b": "Bartek", "winner": "a"}
    assert kid.send("POST", "/new", {**kid_form, "by": "resignation", "action": "save"})[0] == 302
    real = {**hidden_fields(page), "size": "13", "a": "Celina", "b": "Darek", "winner": "b", "by": "resignation"}
    status, location, _ = scorer.send("POST", "/new", {**real, "action": "save"})
    assert status == 302  # main: 302 to the kid's game, the real one never saved
    assert [players for players, _ in games(club)] == ["Ala v Bartek", "Celina v Darek"]
    assert scorer.send("GET", location)[2].count("Darek") >= 1
    assert kid.cookies["phone"] != scorer.cookies["phone"]  # each phone got its cookie with the form
