"""Benchmark of the web process's memory against oversized API bodies.

`semedori serve` in its own process on loopback; a 30 MB JSON body posted to /api/games once,
then 4 at once, each against a fresh server. Prints the process's resident memory before, its
peak (VmHWM) after, and what each client got back. On main the 30 MB body was parsed: 955 MB,
4 at once 1.27 GB. Goal: the peak stays near the idle process (API bodies are at most 64 KB).

    .venv/bin/python bench/bench_api_body.py [--megabytes 30] [--at-once 4]
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_load import serve
from bench.bench_memory import memory
from kiosk.events import parse_line
from kiosk.store import Store

PLAYERS = [
    {"type": "player", "at": "2026-01-01T10:00", "nick": nick, "size": 13, "status": "member", "strength": 20}
    for nick in ("Ola", "Kuba")
]


def post_body(host: str, megabytes: int, answers: list[str]) -> None:
    """Send one huge body as a phone would (all of it, unless the server closes first); note the answer."""
    address, port = host.split(":")
    body = b'{"size": "' + b"A" * (megabytes * 1024 * 1024) + b'"}'
    head = (
        f"POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    with socket.create_connection((address, int(port)), timeout=120) as connection:
        sent = 0
        try:
            connection.sendall(head)
            for start in range(0, len(body), 1 << 20):
                connection.sendall(body[start : start + (1 << 20)])
                sent = start + (1 << 20)
        except OSError:
            pass  # the server answered and closed before the whole body arrived
        answer = b""
        try:
            while chunk := connection.recv(65536):
                answer += chunk
        except OSError:
            pass
    status = answer.split(b"\r\n", 1)[0].decode(errors="replace") or "(closed without an answer)"
    answers.append(f"{status}, {len(answer):,} bytes back, {min(sent, len(body)) / 1048576:.0f} MB sent")


def run(at_once: int, megabytes: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        with Store.open(Path(folder)) as store:
            for line in PLAYERS:
                store.record(parse_line(json.dumps(line)))
        process, host = serve(Path(folder), threads=8)
        try:
            time.sleep(0.5)
            idle, _ = memory(process.pid)
            answers: list[str] = []
            clients = [threading.Thread(target=post_body, args=(host, megabytes, answers)) for _ in range(at_once)]
            for client in clients:
                client.start()
            for client in clients:
                client.join()
            now, peak = memory(process.pid)
        finally:
            process.terminate()
            process.wait(timeout=30)
    print(f"{at_once} × {megabytes} MB body at once: idle {idle:.0f} MB, peak {peak:.0f} MB, after {now:.0f} MB")
    for answer in sorted(set(answers)):
        print(f"    {answers.count(answer)} × {answer}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=30)
    parser.add_argument("--at-once", type=int, default=4)
    options = parser.parse_args()
    run(1, options.megabytes)
    run(options.at_once, options.megabytes)


if __name__ == "__main__":
    main()
