"""A process that records games through the store until it is killed (the crash tests' victim).

    python recorder.py

It imports the store once, then for each line ``FOLDER START`` on stdin forks a child
that opens the store in FOLDER and records game after game, keys ``crash-START``,
``crash-START+1``, ... After each record returns, the child writes ``ack N`` to stdout
with one write(2) (a pipe write this small is atomic, so a kill never leaves half a
line). For ``FOLDER new`` the child opens a new data folder for the first time and
imports the club (``ack 0``), then waits for its kill. The parent process writes
``pid P`` when the child starts and ``done STATUS`` when it has been reaped. Forking
saves the interpreter's start-up per kill, so many kills fit in a short test.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
import traceback
from datetime import datetime, timedelta
from itertools import count
from pathlib import Path

from harness import CLUB

from kiosk.events import parse_event
from kiosk.store import Store

PLAYERS = ["Ala", "Bartek", "Celina", "Darek"]
START = datetime(2026, 1, 5, 0, 0)


def game(index: int) -> object:
    """Game ``index``: one minute after the one before; every seventh is dated three hours back,
    which makes the store replay the whole history inside the transaction (a long write)."""
    rng = random.Random(index)
    a, b = rng.sample(PLAYERS, 2)
    at = START + timedelta(minutes=index - (180 if index % 7 == 3 else 0))
    line = {"type": "game", "at": at.isoformat(timespec="minutes"), "size": 13, "players": [a, b]}
    line |= {"winner": rng.choice([a, b]), "by": rng.choice(["resignation", None, rng.randrange(1, 40) + 0.5])}
    return parse_event(line)


def record_until_killed(folder: Path, start: int) -> None:
    """Record games from ``start`` on, acknowledging each one after the store returned."""
    with Store.open(folder) as store:
        for index in count(start):
            store.record(game(index), key=f"crash-{index}", origin="crash-test")  # type: ignore[arg-type]
            os.write(1, f"ack {index}\n".encode())


def first_start(folder: Path) -> None:
    """Open a new data folder (schema, WAL, settings file) and import the club, then wait to be killed."""
    with Store.open(folder) as store:
        store.import_history([json.dumps(line) for line in CLUB])
    os.write(1, b"ack 0\n")
    time.sleep(60)


def main() -> None:
    """Fork a recording child per line of stdin."""
    os.write(1, b"ready\n")
    for line in sys.stdin:
        folder, what = line.split()
        pid = os.fork()
        if pid == 0:
            try:
                first_start(Path(folder)) if what == "new" else record_until_killed(Path(folder), int(what))
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(1)  # only reached when the child failed: the parent sees no kill
        os.write(1, f"pid {pid}\n".encode())
        _, status = os.waitpid(pid, 0)
        os.write(1, f"done {status}\n".encode())


if __name__ == "__main__":
    main()
