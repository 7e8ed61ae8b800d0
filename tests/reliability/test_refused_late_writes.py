"""A backdated post inside the days_back window that turns out invalid.

Such a post (a player who had not yet joined at the game's date) can only be found invalid by
replaying from the game's date, which the store does under the write lock. Since late
results replay from the nearest checkpoint, that costs a few thousand games, not the history:
4 connections looping such posts on a 50,000-game club whose history runs until now must
leave a phone's game post answered, every refused post a 400 that saved nothing, and no
phone game lost. The phone's longest wait is printed (measured, not asserted: machines differ).
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from harness import CLUB, Server, game_body

from kiosk.config import Config
from kiosk.rules import club_now
from kiosk.store import Store

GAMES = 50_000
FLOODERS = 4
FLOOD_SECONDS = 6.0


def recent_club(folder: Path) -> tuple[Path, datetime]:
    """The four members and 50,000 games five minutes apart, the last an hour ago; then Nowy joins now."""
    now = club_now(Config(), datetime.now(UTC)).replace(second=0, microsecond=0)
    at = now - timedelta(hours=1) - timedelta(minutes=5 * GAMES)
    lines = [json.dumps(line) for line in CLUB]
    for n in range(GAMES):
        at += timedelta(minutes=5)
        lines.append(json.dumps({"type": "game", "at": at.isoformat(timespec="minutes"), **game_body(n)}))
    joined = now - timedelta(minutes=2)
    lines.append(
        json.dumps(
            {
                "type": "player",
                "at": joined.isoformat(timespec="minutes"),
                "nick": "Nowy",
                "size": 13,
                "status": "guest",
                "strength": 20,
            }
        )
    )
    with Store.open(folder) as store:
        store.import_history(lines)
    return folder, now


def post(connection: http.client.HTTPConnection, body: dict) -> tuple[int, float, str]:
    started = time.monotonic()
    connection.request(
        "POST", "/api/games", body=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    response = connection.getresponse()
    text = response.read().decode()
    return response.status, time.monotonic() - started, text


@pytest.fixture
def late_server(tmp_path: Path) -> Iterator[tuple[Server, datetime]]:
    folder, now = recent_club(tmp_path / "data")
    running = Server(folder, threads=4).start()  # no per-client write limit: the worst case
    try:
        yield running, now
    finally:
        running.stop()


def flood(server: Server, source: str, at: str, stop: threading.Event, seen: list[tuple[int, float, str]]) -> None:
    """Loop a game dated 5 days back with a player who joined only today."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60, source_address=(source, 0))
    try:
        while not stop.is_set():
            body = {"size": 13, "players": ["Nowy", CLUB[0]["nick"]], "winner": "Nowy", "at": at}
            seen.append(post(connection, body))
    finally:
        connection.close()


def test_invalid_late_posts_in_the_window_leave_a_phone_answered_and_lose_nothing(late_server) -> None:
    server, now = late_server
    at = (now - timedelta(days=5)).isoformat(timespec="minutes")
    stop, refused = threading.Event(), []
    flooders = [
        threading.Thread(target=flood, args=(server, f"127.0.4.{n + 1}", at, stop, refused)) for n in range(FLOODERS)
    ]
    for thread in flooders:
        thread.start()
    waits, phone = [], http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        time.sleep(0.5)
        started, n = time.monotonic(), 0
        while time.monotonic() - started < FLOOD_SECONDS:
            status, took, text = post(phone, {**game_body(100 + n), "key": f"phone-{n}"})
            assert status == 201, text
            waits.append(took)
            n += 1
            time.sleep(0.2)
    finally:
        stop.set()
        for thread in flooders:
            thread.join(timeout=120)
        phone.close()
    statuses = sorted({status for status, _, _ in refused})
    slowest = max(took for _, took, _ in refused)
    print(
        f"\n{len(refused)} invalid posts dated 5 days back from {FLOODERS} loops on a {GAMES:,}-game club "
        f"running until now: {statuses}, each refused in at most {slowest:.3f} s; "
        f"the phone's {len(waits)} games took at most {max(waits):.3f} s "
        f"(median {sorted(waits)[len(waits) // 2]:.3f} s)"
    )
    assert {json.loads(text)["error"]["code"] for _, _, text in refused} == {"not-on-board-yet"}
    assert statuses == [400]
    with Store.open(server.home) as store:
        games = store.db.execute("SELECT count(*) FROM event WHERE game_id IS NOT NULL").fetchone()[0]
        phones = store.db.execute("SELECT count(*) FROM event WHERE key LIKE '%phone-%'").fetchone()[0]
        assert store.check() == []  # the board equals a fresh replay
    assert games == GAMES + len(waits)  # every phone game once, no refused one
    assert phones == len(waits)
    assert server.errors_logged() == []
