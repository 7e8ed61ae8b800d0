"""A process of many phones posting games at once (the load test's client).

    python poster.py HOST:PORT NAME THREADS GAMES

Each thread connects, then all wait for the line ``go`` on stdin (so the threads of
every process start together); each posts GAMES games with keys ``NAME-THREAD-N``.
Prints one JSON list of [key, status, body] when all are done.
"""

from __future__ import annotations

import http.client
import json
import sys
import threading
import zlib

from harness import game_body


def post_games(host: str, name: str, thread: int, games: int, start: threading.Barrier, out: list) -> None:
    """Post ``games`` games on one kept-alive connection; note every answer."""
    connection = http.client.HTTPConnection(host, timeout=120)
    try:
        connection.connect()
        start.wait()
        for n in range(games):
            key = f"{name}-{thread}-{n}"
            # Each post is a game of its own (a scorer's tablet for many boards): "again" says so, or the
            # same pair a minute later would be asked "is this the same game?" (409 likely-duplicate).
            body = json.dumps({**game_body(zlib.crc32(key.encode()), key=key), "again": True}).encode()
            try:
                connection.request("POST", "/api/games", body=body, headers={"Content-Type": "application/json"})
                response = connection.getresponse()
                out.append([key, response.status, response.read().decode()])
            except (OSError, http.client.HTTPException) as error:
                out.append([key, 0, repr(error)])
                connection.close()
    finally:
        connection.close()


def main() -> None:
    """Run the threads, start them together on ``go``, print the answers."""
    host, name, threads, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    start = threading.Barrier(threads + 1, timeout=60)
    out: list = []
    workers = [threading.Thread(target=post_games, args=(host, name, t, games, start, out)) for t in range(threads)]
    for worker in workers:
        worker.start()
    print("ready", flush=True)
    assert sys.stdin.readline().strip() == "go"
    start.wait()
    for worker in workers:
        worker.join()
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
