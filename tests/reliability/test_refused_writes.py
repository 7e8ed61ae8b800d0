"""Requests that are refused must not cost the phones anything.

On a 50,000-game club, scripts loop POST /api/games with a game dated 2016 (every one a
400). A phone's game post must still be answered in under a second: validation that
needs no write does not take the write lock. And one address may not write without
limit: new players and games are rate-limited per client (429 with Retry-After, in the
phone's language), while another phone is not affected.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from harness import CLUB, Server, game_body, imported_once

GAMES = 50_000
FLOODERS = 4
FLOOD_SECONDS = 4.0


def big_club(folder: Path) -> Path:
    """The four members and 50,000 games, five minutes apart, ending in mid-2026."""
    at = datetime(2026, 1, 2, 10, 0)
    lines = [json.dumps(line) for line in CLUB]
    for n in range(GAMES):
        at += timedelta(minutes=5)
        lines.append(json.dumps({"type": "game", "at": at.isoformat(timespec="minutes"), **game_body(n)}))
    return imported_once(folder, lines)


def post(connection: http.client.HTTPConnection, path: str, body: dict) -> tuple[int, float, http.client.HTTPResponse]:
    """Status, seconds and the response of one JSON post on a kept-alive connection."""
    started = time.monotonic()
    connection.request("POST", path, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    return response.status, time.monotonic() - started, response


def connect(server: Server, source: str) -> http.client.HTTPConnection:
    """A connection from one loopback address (each stands for one machine on the Wi-Fi)."""
    return http.client.HTTPConnection("127.0.0.1", server.port, timeout=60, source_address=(source, 0))


@pytest.fixture
def big_server(tmp_path: Path) -> Iterator[Server]:
    running = Server(big_club(tmp_path / "data"), threads=4, limits=True).start()
    try:
        yield running
    finally:
        running.stop()


def flood(server: Server, source: str, stop: threading.Event, statuses: list[int]) -> None:
    """Loop a game dated 2016 until told to stop."""
    connection = connect(server, source)
    try:
        while not stop.is_set():
            status, _, _ = post(connection, "/api/games", {**game_body(7), "at": "2016-05-01T10:00"})
            statuses.append(status)
    finally:
        connection.close()


def test_refused_posts_in_a_loop_do_not_stall_a_phone_on_a_50000_game_club(big_server: Server) -> None:
    stop, statuses = threading.Event(), []
    flooders = [
        threading.Thread(target=flood, args=(big_server, f"127.0.2.{n + 1}", stop, statuses)) for n in range(FLOODERS)
    ]
    for thread in flooders:
        thread.start()
    seconds = []
    try:
        time.sleep(0.5)
        phone = connect(big_server, "127.0.0.1")
        started = time.monotonic()
        n = 0
        while time.monotonic() - started < FLOOD_SECONDS:
            status, took, _ = post(phone, "/api/games", game_body(100 + n))
            assert status == 201
            seconds.append(took)
            n += 1
            time.sleep(0.2)
        phone.close()
    finally:
        stop.set()
        for thread in flooders:
            thread.join(timeout=120)
    print(
        f"\n{len(statuses)} refused posts from {FLOODERS} loops on a {GAMES:,}-game club: "
        f"{sorted(set(statuses))}; the phone's {len(seconds)} games took at most {max(seconds):.3f} s"
    )
    assert set(statuses) <= {400, 429}
    assert max(seconds) < 1.0
    assert big_server.errors_logged() == []


def test_one_address_cannot_add_players_without_limit_and_another_phone_still_can(server_with_limits: Server) -> None:
    script = connect(server_with_limits, "127.0.3.1")
    answers = []
    for n in range(40):
        status, _, response = post(script, "/api/players", {"nick": f"Bot{n}", "size": 13})
        answers.append((status, response.getheader("Retry-After")))
    script.close()
    added = sum(status == 201 for status, _ in answers)
    refused = [(status, after) for status, after in answers if status != 201]
    print(f"\n40 new players sent at once from one address: {added} added, then {len(refused)} refused (429)")
    assert added == 10
    assert {status for status, _ in refused} == {429}
    assert all(after and after.isdecimal() and int(after) >= 1 for _, after in refused)
    # Its message, in Polish for a Polish phone: nothing was saved, wait and try again.
    polish = connect(server_with_limits, "127.0.3.1")
    polish.request(
        "POST",
        "/api/players",
        body=json.dumps({"nick": "Bot99", "size": 13}).encode(),
        headers={"Content-Type": "application/json", "Accept-Language": "pl"},
    )
    response = polish.getresponse()
    text = response.read().decode()
    assert response.status == 429
    error = json.loads(text)["error"]  # {"error": text}, or {"error": {"code", "message"}}
    assert "nic nie zapisano" in (error["message"] if isinstance(error, dict) else error)
    polish.close()
    # Another phone on the Wi-Fi adds its guest and its game at once.
    other = connect(server_with_limits, "127.0.3.2")
    assert post(other, "/api/players", {"nick": "Zenek", "size": 13})[0] == 201
    assert post(other, "/api/games", game_body(3))[0] == 201
    other.close()


def test_one_address_cannot_post_games_without_limit(server_with_limits: Server) -> None:
    script = connect(server_with_limits, "127.0.4.1")
    statuses = [post(script, "/api/games", game_body(n))[0] for n in range(60)]
    script.close()
    print(f"\n60 games sent at once from one address: {statuses.count(201)} recorded, {statuses.count(429)} refused")
    assert statuses.count(201) <= 21  # a burst of 20 (and one refilled meanwhile)
    assert set(statuses) == {201, 429}


@pytest.fixture
def server_with_limits(club: Path) -> Iterator[Server]:
    running = Server(club, threads=4, limits=True).start()
    try:
        yield running
    finally:
        running.stop()
