"""Double submit: the same form or API key sent twice, one after the other or at the same
moment from two connections, records one game, and both answers point at that game."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from form_fields import hidden_fields
from harness import Phone, Server, game_body, key_counts, post_game

ROUNDS = 30
FORM = {"size": "13", "a": "Ala", "b": "Bartek", "winner": "b", "by": "points", "points": "7.5", "action": "save"}


def games_recorded(home: Path) -> int:
    """How many games the history holds (the club starts with none)."""
    return len(key_counts(home))


def at_once(send: Callable[[], Any]) -> list[Any]:
    """Two threads run ``send`` at the same moment (a barrier); their answers."""
    barrier = threading.Barrier(2, timeout=30)
    answers: list[Any] = [None, None]

    def one(i: int) -> None:
        barrier.wait()
        answers[i] = send()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def test_an_api_game_sent_twice_with_its_key_is_recorded_once(server: Server, club: Path) -> None:
    first = post_game(server.host, game_body(1, key="tablet-7"))
    again = post_game(server.host, game_body(1, key="tablet-7"))
    assert first[0] == again[0] == 201
    assert json.loads(again[2]) == json.loads(first[2])
    assert first[1].get("Idempotent-Replayed") is None and again[1].get("Idempotent-Replayed") == "true"
    assert key_counts(club) == {"api-game:127.0.0.1:tablet-7": 1}


def test_an_api_retry_at_the_same_moment_records_one_game(server: Server, club: Path) -> None:
    for n in range(ROUNDS):
        answers = at_once(lambda n=n: post_game(server.host, game_body(n, key=f"retry-{n}")))
        assert [status for status, _, _ in answers] == [201, 201]
        assert json.loads(answers[0][2])["id"] == json.loads(answers[1][2])["id"]
        assert sorted(headers.get("Idempotent-Replayed", "") for _, headers, _ in answers) == ["", "true"]
    assert games_recorded(club) == ROUNDS
    assert set(key_counts(club).values()) == {1}
    assert server.errors_logged() == []


def new_game_form(phone: Phone) -> dict[str, str]:
    """Open the new-game page as a phone does; the form's fields with the result filled in."""
    status, _, page = phone.send("GET", "/new?size=13&a=Ala&b=Bartek")
    assert status == 200
    fields = hidden_fields(page)
    assert fields.get("csrf_token") and fields.get("once")
    return fields | FORM


def test_the_phone_form_sent_twice_records_one_game(server: Server, club: Path) -> None:
    phone = Phone(server.host)
    form = new_game_form(phone)
    first = phone.send("POST", "/new", form)
    again = phone.send("POST", "/new", form)  # the back button and Save again, or a reload
    assert first[0] == again[0] == 302
    assert re.fullmatch(r"/games/\d+\?saved=1", first[1]) and again[1] == first[1]
    status, _, page = phone.send("GET", first[1])
    assert status == 200 and "Bartek" in page
    assert games_recorded(club) == 1


def test_a_double_tap_on_save_at_the_same_moment_records_one_game(server: Server, club: Path) -> None:
    phone = Phone(server.host)
    for _ in range(ROUNDS):
        form = new_game_form(phone)
        answers = at_once(lambda form=form: phone.send("POST", "/new", form))
        assert [status for status, _, _ in answers] == [302, 302]
        assert answers[0][1] == answers[1][1] and answers[0][1].startswith("/games/")
    assert games_recorded(club) == ROUNDS
    assert set(key_counts(club).values()) == {1}
    assert server.errors_logged() == []
