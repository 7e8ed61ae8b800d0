"""How long `make run` takes to show the demo club, once .venv is installed (a figure for the README).

Starts systemd/run-local.sh (what `make run` starts) on an empty data folder, as a newcomer's first
`make run` after the install: the demo club is made, then the web app and the wall start. Measures,
in seconds of wall time, when the board page first answers and when the wall's PNG is first drawn,
then stops both as Ctrl-C would. The install itself (`make .venv/.installed`) is pip's time, about a
minute with its cache warm, and is not measured here.

    .venv/bin/python bench/bench_make_run.py [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LONGEST = 120.0  # seconds: far beyond any start; a start this slow is a failure to report, not a figure


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def one_start() -> tuple[float, float]:
    """Seconds until the board page answers, and until the wall's PNG exists."""
    with tempfile.TemporaryDirectory() as home:
        port = free_port()
        environment = {**os.environ, "SEMEDORI_HOME": home, "PORT": str(port)}
        began = time.monotonic()
        run = subprocess.Popen(
            [str(ROOT / "systemd" / "run-local.sh")],
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: stopped whole below
        )
        web = wall = None
        try:
            while (web is None or wall is None) and time.monotonic() - began < LONGEST:
                if web is None and answers(port):
                    web = time.monotonic() - began
                if wall is None and (Path(home) / "wall.png").exists():
                    wall = time.monotonic() - began
                time.sleep(0.05)
        finally:
            os.killpg(run.pid, signal.SIGTERM)  # what run-local.sh's trap does on Ctrl-C
            run.wait(timeout=30)
        if web is None or wall is None:
            raise SystemExit(f"make run did not start within {LONGEST:.0f} s")
        return web, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    starts = [one_start() for _ in range(runs)]
    web = [w for w, _ in starts]
    wall = [p for _, p in starts]
    print(f"make run on an empty data folder, {runs} runs (the demo club made, then both programs started):")
    print(f"  the board page answers after median {statistics.median(web):.1f} s (slowest {max(web):.1f} s)")
    print(f"  the wall's PNG is drawn after median {statistics.median(wall):.1f} s (slowest {max(wall):.1f} s)")


if __name__ == "__main__":
    main()
