"""Load: 2 processes of 16 threads each post games to the real server at once. Every game is
answered 201 and recorded exactly once, no "database is locked" reaches anyone, readers are
served meanwhile, and the board equals a fresh replay."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from harness import HERE, Server, assert_nothing_lost, game_body, request

from kiosk.recording import new_game
from kiosk.rules import club_now
from kiosk.store import Store

PROCESSES = 2
THREADS = 16
GAMES = 10
OWNER_GAMES = 20


def read_while(host: str, stop: threading.Event, answers: list[tuple[int, str]]) -> None:
    """The wall and idle phones: read the board and the latest games until told to stop."""
    while not stop.is_set():
        for path in ("/api/board?size=13", "/api/games?limit=5", "/"):
            status, _, text = request(host, "GET", path)
            answers.append((status, text if status != 200 else ""))


def record_directly(home: Path, start: threading.Event, recorded: list[int]) -> None:
    """Another process's writer (as the owner's command line would be): straight through the store."""
    with Store.open(home) as store:
        start.wait(timeout=60)
        for n in range(OWNER_GAMES):
            body = game_body(10_000 + n)
            now = club_now(store.config, datetime.now(UTC))
            # Every other one was played yesterday: the store replays the whole history for it,
            # holding the write lock far longer than a phone's game does.
            played = now - timedelta(days=n % 2)
            game = new_game(13, body["players"], body["winner"], body["by"], played, now)
            store.record(game, key=f"owner-{n}", origin="owner")
            recorded.append(n)


def test_32_phones_posting_at_once_all_get_201_and_every_game_is_recorded_once(server: Server, club: Path) -> None:
    posters = [
        subprocess.Popen(
            [sys.executable, str(HERE / "poster.py"), server.host, f"load{p}", str(THREADS), str(GAMES)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p in range(PROCESSES)
    ]
    try:
        for poster in posters:
            assert poster.stdout is not None
            assert poster.stdout.readline().strip() == "ready"  # every thread connected
        stop, reads = threading.Event(), []
        reader = threading.Thread(target=read_while, args=(server.host, stop, reads))
        reader.start()
        go, owner_games = threading.Event(), []
        owner = threading.Thread(target=record_directly, args=(club, go, owner_games))
        owner.start()
        started = time.monotonic()
        go.set()
        for poster in posters:
            assert poster.stdin is not None
            poster.stdin.write("go\n")
            poster.stdin.flush()
        outputs = [poster.communicate(timeout=240) for poster in posters]
    finally:
        for poster in posters:  # only left running when the test failed early
            if poster.poll() is None:
                poster.kill()
                poster.communicate()
    seconds = time.monotonic() - started
    stop.set()
    reader.join(timeout=60)
    owner.join(timeout=60)
    assert owner_games == list(range(OWNER_GAMES))
    for poster, (_, errors) in zip(posters, outputs, strict=True):
        assert poster.returncode == 0, errors

    answers = [answer for out, _ in outputs for answer in json.loads(out)]
    assert len(answers) == PROCESSES * THREADS * GAMES
    assert [a for a in answers if a[1] != 201] == []
    assert not [a for a in answers if "locked" in a[2].lower() or "busy" in a[2].lower()]
    ids = [json.loads(body)["id"] for _, _, body in answers]
    assert len(set(ids)) == len(answers)  # a game number each
    assert [r for r in reads if r[0] != 200] == []
    assert server.errors_logged() == []
    owner_keys = [f"owner-{n}" for n in owner_games]
    counts = assert_nothing_lost(club, [f"api-game:127.0.0.1:{key}" for key, _, _ in answers] + owner_keys)
    assert len(counts) == len(answers) + len(owner_keys)
    print(
        f"\nload: {PROCESSES} processes x {THREADS} threads = {PROCESSES * THREADS} phones posting at once "
        f"(and {OWNER_GAMES} games, half of them replaying the whole history, written straight through the "
        f"store by a third process), "
        f"{len(answers)} games posted, all 201, each recorded once, 0 lost; {len(reads)} reads meanwhile, "
        f"all 200; {seconds:.1f} s ({len(answers) / seconds:.0f} games/s) on waitress --threads {server.threads}"
    )
