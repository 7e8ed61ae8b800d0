"""API bodies are small, deep nesting is a 400, and errors echo only a short excerpt.

On main, ~1,000 nested ``[`` were a 500 (RecursionError), a 30 MB body was parsed (955 MB
of memory) and the error echoed the whole value back in a 40 MB response. Against the
real `semedori serve`: a clear 4xx JSON answer of a few hundred bytes, nothing saved.
"""

from __future__ import annotations

import json

from harness import Server, request

from kiosk.store import Store

JSON = {"Content-Type": "application/json"}


def answer(server: Server, body: bytes) -> tuple[int, str]:
    status, _, text = request(server.host, "POST", "/api/games", body, JSON)
    return status, text


def message_of(text: str) -> str:
    error = json.loads(text)["error"]  # {"error": text}, or {"error": {"code", "message"}}
    return error["message"] if isinstance(error, dict) else error


def test_deep_nesting_large_bodies_and_long_values_get_short_clear_answers(server: Server) -> None:
    with Store.open(server.home) as store:
        before = store.db.execute("SELECT count(*) FROM event").fetchone()[0]
    cases = {
        "1,000 nested [": b"[" * 1000 + b"]" * 1000,
        "100,000 nested { in a field": b'{"size": ' + b'{"a": ' * 100_000 + b"1" + b"}" * 100_000 + b"}",
        "a 100 KB body": json.dumps(
            {"size": 13, "players": ["Ala", "Bartek"], "winner": "Ala", "by": "x" * 100_000}
        ).encode(),
        "a 30 MB body": b'{"size": "' + b"A" * (30 * 1024 * 1024) + b'"}',
        "a 60 KB size value": json.dumps(
            {"size": "A" * 60_000, "players": ["Ala", "Bartek"], "winner": "Ala"}
        ).encode(),
        "a 60 KB unknown field": json.dumps({"B" * 60_000: 1}).encode(),
        "a 60 KB player name": json.dumps({"size": 13, "players": ["C" * 60_000, "Ala"], "winner": "Ala"}).encode(),
    }
    seen = {}
    for name, body in cases.items():
        status, text = answer(server, body)
        seen[name] = (status, len(text), message_of(text) if text.startswith("{") else text[:80])
    for name, (status, size, text) in seen.items():
        print(f"\n{name}: {status}, {size} bytes: {text[:120]}")
    assert {name: status for name, (status, _, _) in seen.items()} == {
        "1,000 nested [": 400,
        "100,000 nested { in a field": 413,
        "a 100 KB body": 413,
        "a 30 MB body": 413,
        "a 60 KB size value": 400,
        "a 60 KB unknown field": 400,
        "a 60 KB player name": 400,
    }
    assert max(size for _, size, _ in seen.values()) < 600
    assert "64 KB" in seen["a 30 MB body"][2]
    assert server.errors_logged() == []
    with Store.open(server.home) as store:
        assert store.db.execute("SELECT count(*) FROM event").fetchone()[0] == before
    # A normal game still goes in.
    body = json.dumps({"size": 13, "players": ["Ala", "Bartek"], "winner": "Ala"}).encode()
    assert answer(server, body)[0] == 201


def test_a_body_nested_deeper_than_a_game_needs_is_a_400_even_when_small(server: Server) -> None:
    status, text = answer(server, b'{"size": 13, "players": ' + b"[" * 200 + b"]" * 200 + b', "winner": "Ala"}')
    print(f"\n200 nested [ in players: {status}: {message_of(text)}")
    assert status == 400
    assert "nested" in message_of(text)
