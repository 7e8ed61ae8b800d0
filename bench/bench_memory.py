"""Benchmark of the web process's memory on a 50,000-game store (figures to compare, not timed tests).

`semedori serve --threads 8` in its own process on a history that ends just before now;
500 mixed requests from 4 phones at once: the board of each size, the recent games, a
player's page, the JSON board and games, the handicap preview, and games posted at the
end and 0-30 minutes ago. Prints the process's resident memory (VmRSS) after them and
its peak (VmHWM). Goal: under 80 MB after the requests.

    .venv/bin/python bench/bench_memory.py [--games 50000] [--requests 500]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import shutil
import sys
import tempfile
import threading
import time
import urllib.parse
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_load import serve
from bench.history import recent_history_file
from kiosk.config import Config
from kiosk.rules import club_now
from kiosk.store import Store

CACHE = Path(tempfile.gettempdir()) / "semedori-bench"
PLAYERS = [f"Gracz{n:03d}" for n in range(1, 120, 3)]
GOAL_MB = 80


def memory(pid: int) -> tuple[float, float]:
    """Resident memory now and its peak, in MB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def requests(number: int, count: int) -> list[tuple[str, str, dict[str, object] | None]]:
    """A phone's mix: mostly reading, one write in five (half of them late)."""
    rng = random.Random(number)
    mix: list[tuple[str, str, dict[str, object] | None]] = []
    for n in range(count):
        a, b = rng.sample(PLAYERS, 2)
        roll = rng.random()
        if roll < 0.1:
            mix.append(("POST", "/api/games", {"size": 13, "players": [a, b], "winner": a}))
        elif roll < 0.2:
            when = club_now(Config(), datetime.now(UTC)) - timedelta(minutes=rng.randint(0, 30))
            body = {"size": 13, "players": [a, b], "winner": b, "at": when.strftime("%Y-%m-%dT%H:%M")}
            mix.append(("POST", "/api/games", body))
        else:
            path = rng.choice(
                [
                    f"/?size={rng.choice([9, 13, 19])}",
                    "/games",
                    f"/players/{urllib.parse.quote(a)}",
                    "/api/board?size=13",
                    "/api/games?limit=50",
                    f"/new/handicap?size=13&a={a}&b={b}",
                    "/new",
                ]
            )
            mix.append(("GET", path, None))
        del n
    return mix


def phone(host: str, work: list[tuple[str, str, dict[str, object] | None]], wrong: list[str]) -> None:
    connection = http.client.HTTPConnection(host, timeout=120)
    try:
        for method, path, body in work:
            data = json.dumps(body).encode() if body is not None else None
            connection.request(method, path, data, {"Content-Type": "application/json"} if data else {})
            response = connection.getresponse()
            response.read()
            if response.status >= 400:
                wrong.append(f"{method} {path}: {response.status}")
    finally:
        connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--requests", type=int, default=500)
    options = parser.parse_args()
    source = recent_history_file(options.games, CACHE, club_now(Config(), datetime.now(UTC)))
    with tempfile.TemporaryDirectory(prefix="semedori-bench-memory-") as name:
        folder = Path(name) / "data"
        with Store.open(folder) as store:
            store.import_history(source.read_text(encoding="utf-8").splitlines())
        process, host = serve(folder, 8)
        try:
            time.sleep(1)
            started, _ = memory(process.pid)
            wrong: list[str] = []
            each = options.requests // 4
            phones = [threading.Thread(target=phone, args=(host, requests(n, each), wrong)) for n in range(4)]
            began = time.perf_counter()
            for thread in phones:
                thread.start()
            for thread in phones:
                thread.join()
            seconds = time.perf_counter() - began
            rss, peak = memory(process.pid)
        finally:
            process.terminate()
            process.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)
    verdict = "ok" if rss < GOAL_MB else "OVER"
    print(f"{options.games} games; {each * 4} mixed requests from 4 phones in {seconds:.1f} s; errors: {len(wrong)}")
    print(f"  web process memory: {started:.0f} MB after start, {rss:.0f} MB after the requests", end="")
    print(f" ({verdict}, goal < {GOAL_MB} MB), peak {peak:.0f} MB")
    for text in wrong[:3]:
        print(f"    {text}")


if __name__ == "__main__":
    main()
