"""Benchmark of importing a big history file (figures to compare, not timed tests).

`semedori import --replace` of a 230,000-game history (about 30 MB) in its own process,
while a phone records a game every 100 ms into the same data folder. Prints the
import's time and its peak resident memory (goal: under 150 MB), and the phone's
longest wait (the write lock is taken only to copy the checked result in). The phone's
games are dated after the imported history's end, so they stay appends.

    .venv/bin/python bench/bench_import.py [--games 230000]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import suppress
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.history import history_file
from kiosk.errors import SemedoriError
from kiosk.events import GamePlayed, PlayerAdded, parse_line
from kiosk.store import Store

CACHE = Path(tempfile.gettempdir()) / "semedori-bench"
PHONE_PLAYERS = ("Gracz000", "Gracz003")  # on 9x9, in the small club and in the imported history


def phone(folder: Path, at: datetime, stop: threading.Event, waits: list[float], wrong: list[str]) -> None:
    """Record a game every 100 ms, after the end of the imported history; note each wait."""
    with Store.open(folder) as store:
        while not stop.is_set():
            at += timedelta(minutes=1)
            began = time.perf_counter()
            try:
                store.record(GamePlayed(at, 9, PHONE_PLAYERS, PHONE_PLAYERS[0], None))
            except SemedoriError as error:
                wrong.append(f"{type(error).__name__}: {error}")
            waits.append((time.perf_counter() - began) * 1000)
            time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=230_000)
    options = parser.parse_args()
    source = history_file(options.games, CACHE)
    size = source.stat().st_size / 1e6
    with tempfile.TemporaryDirectory(prefix="semedori-bench-import-") as name:
        folder = Path(name)
        with Store.open(folder) as store:
            for nick in PHONE_PLAYERS:
                store.record(PlayerAdded(datetime(2020, 1, 1, 17, 0), nick, 9, "member", 80))
        with source.open("rb") as handle:
            handle.seek(-2000, os.SEEK_END)
            end = parse_line(handle.read().splitlines()[-1]).at
        stop = threading.Event()
        waits: list[float] = []
        wrong: list[str] = []
        thread = threading.Thread(target=phone, args=(folder, end + timedelta(days=1), stop, waits, wrong))
        thread.start()
        began = time.perf_counter()
        command = [str(Path(sys.executable).with_name("semedori")), "import", "--replace", str(source)]
        home = {**os.environ, "SEMEDORI_HOME": str(folder)}
        process = subprocess.Popen(command, env=home, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        peak = 0.0
        while process.poll() is None:
            # VmHWM is the process's own peak (getrusage's children figure inherits other processes' peaks).
            with suppress(OSError, KeyError, ValueError):
                status = Path(f"/proc/{process.pid}/status").read_text()
                fields = dict(line.split(":", 1) for line in status.splitlines())
                peak = max(peak, int(fields["VmHWM"].split()[0]) / 1024)
            time.sleep(0.05)
        out, err = process.communicate()
        seconds = time.perf_counter() - began
        time.sleep(0.5)
        stop.set()
        thread.join()
        with Store.open(folder) as store:
            problems = store.check()
    print(f"import of {options.games} games ({size:.0f} MB): {seconds:.1f} s; {out.strip() or err}")
    print(f"  peak resident memory of the import process (VmHWM): {peak:.0f} MB (goal < 150 MB)")
    print(f"  a phone recording every 100 ms meanwhile: {len(waits)} writes, longest wait {max(waits):.0f} ms")
    print(f"  writes refused: {len(wrong)} {wrong[:2]}; check: {problems or 'ok'}")


if __name__ == "__main__":
    main()
