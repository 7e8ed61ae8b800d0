"""Benchmark of many phones saving at once (figures to compare, not timed tests).

`semedori serve --threads 8` on a 20,000-game history, in its own process; 32 phones
(threads here, one keep-alive connection each) post games to the JSON API at the same
moment. Prints each request's wait (median, p95, slowest), the games per second, and
what a check of the store finds afterwards (every game once; the board a fresh replay).
tests/reliability/test_load_server.py proves the same without the figures.

    .venv/bin/python bench/bench_load.py [--games 20000] [--phones 32] [--each 10]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.history import history_file
from kiosk.store import Store

CACHE = Path(tempfile.gettempdir()) / "semedori-bench"
# Players of the benchmark history on 13x13 (every third one, from Gracz001).
PLAYERS = [f"Gracz{n:03d}" for n in range(1, 120, 3)]


def serve(folder: Path, threads: int) -> tuple[subprocess.Popen[bytes], str]:
    """Start `semedori serve` on a free port; the process and host:port once it answers."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [str(Path(sys.executable).with_name("semedori")), "serve", "--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--threads", str(threads)],
        env={**os.environ, "SEMEDORI_HOME": str(folder)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(1500):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process, f"127.0.0.1:{port}"
        except OSError:
            time.sleep(0.02)
    process.kill()
    raise SystemExit("semedori serve did not start")


def phone(host: str, number: int, games: int, start: threading.Barrier, waits: list[float], wrong: list[str]) -> None:
    """One phone: connect, wait for the others, post ``games`` games, note each wait."""
    connection = http.client.HTTPConnection(host, timeout=120)
    try:
        connection.connect()
        start.wait()
        for n in range(games):
            a, b = PLAYERS[(number * 7 + n) % len(PLAYERS)], PLAYERS[(number * 7 + n + 1) % len(PLAYERS)]
            body = {"size": 13, "players": [a, b], "winner": a, "by": "resignation", "key": f"load-{number}-{n}"}
            began = time.perf_counter()
            connection.request("POST", "/api/games", json.dumps(body).encode(), {"Content-Type": "application/json"})
            response = connection.getresponse()
            text = response.read().decode()
            waits.append((time.perf_counter() - began) * 1000)
            if response.status != 201:
                wrong.append(f"{response.status} {text[:200]}")
    finally:
        connection.close()


def main() -> None:
    """Build the store once, then measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--phones", type=int, default=32)
    parser.add_argument("--each", type=int, default=10)
    parser.add_argument("--threads", type=int, default=8)
    options = parser.parse_args()
    source = history_file(options.games, CACHE)
    with tempfile.TemporaryDirectory(prefix="semedori-bench-load-") as name:
        folder = Path(name)
        with Store.open(folder) as store:
            store.import_history(source.read_text(encoding="utf-8").splitlines())
        process, host = serve(folder, options.threads)
        waits: list[float] = []
        wrong: list[str] = []
        start = threading.Barrier(options.phones + 1)
        phones = [
            threading.Thread(target=phone, args=(host, n, options.each, start, waits, wrong))
            for n in range(options.phones)
        ]
        try:
            for thread in phones:
                thread.start()
            start.wait()
            began = time.perf_counter()
            for thread in phones:
                thread.join()
            seconds = time.perf_counter() - began
        finally:
            process.terminate()
            process.wait(timeout=30)
        with Store.open(folder) as store:
            problems = store.check()
            keyed = store.db.execute("SELECT count(*) FROM event WHERE key LIKE 'api-game:load-%'").fetchone()[0]
    total = options.phones * options.each
    p95 = statistics.quantiles(waits, n=20)[-1]
    print(f"{options.games} games in the history; {options.phones} phones x {options.each} games at once")
    print(f"  waitress --threads {options.threads}: {total} games in {seconds:.1f} s ({total / seconds:.0f} games/s)")
    print(f"  wait per game: median {statistics.median(waits):.0f} ms, p95 {p95:.0f} ms, slowest {max(waits):.0f} ms")
    print(f"  answers other than 201: {len(wrong)}; games recorded: {keyed} of {total}; check: {problems or 'ok'}")


if __name__ == "__main__":
    main()
