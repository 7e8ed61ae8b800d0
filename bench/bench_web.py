"""Benchmark of the phone web app on a 20,000-game history (figures to compare, not timed tests).

Median and p95 wall time of recording a game (the phone's form, and the JSON API) and
of the board page, both in-process (the app's own time) and through waitress over
HTTP on 127.0.0.1 (what a phone waits for, less the Wi-Fi). Goal: p95 under 50 ms.

    .venv/bin/python bench/bench_web.py [--games 20000] [--runs 200]
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask.testing import FlaskClient
from waitress.server import create_server

from bench.history import history_file
from kiosk.store import Store
from web import create_app

CACHE = Path(tempfile.gettempdir()) / "semedori-bench"
GOAL_MS = 50.0
# Players of the benchmark history on 13x13 (every third one, from Gracz001).
PLAYERS = [f"Gracz{n:03d}" for n in range(1, 120, 3)]


def figures(name: str, work: Callable[[int], None], runs: int) -> tuple[float, float]:
    """Run ``work`` ``runs`` times (after a few warm-up runs); print and return median and p95 in ms."""
    for i in range(5):
        work(-1 - i)
    times = []
    for i in range(runs):
        start = time.perf_counter()
        work(i)
        times.append((time.perf_counter() - start) * 1000)
    median = statistics.median(times)
    p95 = statistics.quantiles(times, n=20)[-1]
    verdict = "ok" if p95 < GOAL_MS else "SLOW"
    print(f"{name:<44} median {median:6.1f} ms   p95 {p95:6.1f} ms   {verdict}")
    return median, p95


# Every pairing of them once: each series of the benchmark takes its own stretch (``SERIES``), so no game
# is of a pair another "phone" recorded minutes before: that would be asked about as the same game
# (409 likely-duplicate), not recorded. The check itself runs for every game.
PAIRS = list(itertools.combinations(PLAYERS, 2))
SERIES = {"form": 0, "api": 1, "http-form": 2, "http-api": 3}


def pair(i: int, series: str = "form") -> list[str]:
    """A different pairing each time, both on 13x13, none shared with another series."""
    stretch = len(PAIRS) // len(SERIES)
    a, b = PAIRS[SERIES[series] * stretch + i % stretch]
    return [a, b]


def form_data(i: int, csrf: str, series: str = "form") -> dict[str, str]:
    """The new-game form as a phone sends it (a fresh one-time token each time)."""
    a, b = pair(i, series)
    return {
        "csrf_token": csrf,
        "once": f"bench-{time.time_ns()}-{i}",
        "size": "13",
        "a": a,
        "b": b,
        "winner": "a",
        "by": "points",
        "points": "12.5",
        "action": "save",
    }


def in_process(folder: Path, runs: int) -> None:
    """The app's own time, through Flask's test client."""
    client = create_app({"SEMEDORI_HOME": str(folder), "STORE_PER_THREAD": True}).test_client()
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', client.get("/new").get_data(as_text=True))
    assert csrf is not None

    def record_form(i: int) -> None:
        response = client.post("/new", data=form_data(i, csrf.group(1)))
        assert response.status_code == 302, response.get_data(as_text=True)[:500]

    def record_api(i: int) -> None:
        a, b = pair(i, "api")
        response = client.post("/api/games", json={"size": 13, "players": [a, b], "winner": b, "by": "resignation"})
        assert response.status_code == 201, response.get_data(as_text=True)

    def board(_i: int) -> None:
        assert client.get("/?size=13").status_code == 200

    # A phone that said "That's me", checked in with a partner: the board reads the wall's arrows and tonight's pairs.
    mine = create_app({"SEMEDORI_HOME": str(folder), "STORE_PER_THREAD": True}).test_client()
    mine.set_cookie("me", f"n:{PLAYERS[0]}")
    for nick in PLAYERS[:2]:
        mine.post("/tonight/here", data={"nick": nick, "csrf_token": tonight_token(mine)})

    def board_of_mine(_i: int) -> None:
        page = mine.get("/?size=13").get_data(as_text=True)
        assert 'id="me"' in page and "my-pair" in page, page[:300]

    print("in-process (Flask test client):")
    figures("  record a game: the phone's form (POST /new)", record_form, runs)
    figures("  record a game: JSON API (POST /api/games)", record_api, runs)
    figures("  board page (GET /?size=13)", board, runs)
    figures("  board page, That's me: at my field, my pair (GET /?size=13)", board_of_mine, runs)
    figures("  confirmation page (GET /games/<id>)", lambda _i: client.get("/games/20001"), runs)


def tonight_token(client: FlaskClient) -> str:
    """The CSRF token of the tonight page's check-in form."""
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/tonight").get_data(as_text=True))
    assert found is not None
    return found.group(1)


def over_http(folder: Path, runs: int) -> None:
    """What a phone waits for: waitress on 127.0.0.1, one keep-alive connection."""
    server = create_server(
        create_app({"SEMEDORI_HOME": str(folder), "STORE_PER_THREAD": True}), host="127.0.0.1", port=0, threads=4
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    connection = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=30)
    cookies: dict[str, str] = {}

    def request(method: str, path: str, body: bytes | None = None, kind: str | None = None) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
        if kind:
            headers["Content-Type"] = kind
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            cookies[name] = rest.split(";")[0]
        return response.status, response.read().decode()

    try:
        status, page = request("GET", "/new")
        csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
        assert status == 200 and csrf is not None

        def record_form(i: int) -> None:
            body = urllib.parse.urlencode(form_data(i, csrf.group(1), "http-form")).encode()
            status, text = request("POST", "/new", body, "application/x-www-form-urlencoded")
            assert status == 302, text[:300]

        def record_api(i: int) -> None:
            a, b = pair(i, "http-api")
            body = json.dumps({"size": 13, "players": [a, b], "winner": a, "by": "resignation"}).encode()
            status, text = request("POST", "/api/games", body, "application/json")
            assert status == 201, text

        def board(_i: int) -> None:
            assert request("GET", "/?size=13")[0] == 200

        print("over HTTP (waitress on 127.0.0.1):")
        figures("  record a game: the phone's form (POST /new)", record_form, runs)
        figures("  record a game: JSON API (POST /api/games)", record_api, runs)
        figures("  board page (GET /?size=13)", board, runs)
    finally:
        connection.close()
        server.task_dispatcher.shutdown()  # let the worker threads finish before the sockets close
        server.close()
        thread.join(timeout=5)


def main() -> None:
    """Build the store once, then measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=200)
    options = parser.parse_args()
    source = history_file(options.games, CACHE)
    with tempfile.TemporaryDirectory(prefix="semedori-bench-web-") as folder:
        start = time.perf_counter()
        with Store.open(Path(folder)) as store:
            store.import_history(source.read_text(encoding="utf-8").splitlines())
        print(f"{options.games} games imported in {time.perf_counter() - start:.1f} s; {options.runs} runs each")
        in_process(Path(folder), options.runs)
        over_http(Path(folder), options.runs)


if __name__ == "__main__":
    main()
