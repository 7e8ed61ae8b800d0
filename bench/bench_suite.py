"""The test suite's slowest tests, measured folder by folder (not part of `make test`).

    python bench/bench_suite.py [--write] [--top 25] [--jobs N] [FOLDER ...]

Runs ``pytest -q -p no:cacheprovider -n 0 --durations=…`` on each folder in turn (all of
tests/ when none is named: its sub-folders, then its own files), reads pytest's
"slowest durations" lines (``--jobs 2 tests``: the whole suite in one run on both cores, as `make test`
runs it), and prints the slowest phases (a test's setup or call) of
them all. ``--write`` puts that table into docs/reliability.md between its markers, with
the date, the commit, the folders run, the machine's cores and its load average before
and after: a busy machine (other work on the same cores) stretches every figure, so
compare a test with the others of the same run rather than with last week's seconds.
The table is never written by hand.

    python bench/bench_suite.py --make-test

clones the repository into a scratch folder and times `make test` there, as a newcomer
would run it (about ten minutes on a 2-core machine); it prints the minutes.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "reliability.md"
START, END = "<!-- slowest-tests: bench/bench_suite.py --write -->", "<!-- slowest-tests end -->"
# "12.34s call     tests/x/test_y.py::test_z[param]"
DURATION = re.compile(r"^(\d+\.\d+)s (setup|call|teardown)\s+(\S.*)$")


def folders() -> list[str]:
    """Every test folder of tests/, then tests/'s own test files as one more run."""
    tests = ROOT / "tests"
    runs = [f"tests/{path.name}" for path in sorted(tests.iterdir()) if path.is_dir() and any(path.glob("test_*.py"))]
    return [*runs, " ".join(f"tests/{path.name}" for path in sorted(tests.glob("test_*.py")))]


def slowest(run: str, top: int, jobs: int = 0) -> tuple[list[tuple[float, str, str]], float]:
    """The ``top`` slowest phases of one pytest run (seconds, phase, test id) and the run's seconds."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", str(jobs), f"--durations={top}"]
    started = time.monotonic()
    finished = subprocess.run([*command, *run.split()], cwd=ROOT, capture_output=True, text=True, check=False)
    seconds = time.monotonic() - started
    if finished.returncode != 0:
        print(finished.stdout[-3000:], file=sys.stderr)
        raise SystemExit(f"pytest failed on {run}: a failing suite has no figures worth writing")
    found = []
    for line in finished.stdout.splitlines():
        match = DURATION.match(line.strip())
        if match:
            found.append((float(match[1]), match[2], match[3]))
    return found, seconds


def table(
    rows: list[tuple[float, str, str]], runs: list[tuple[str, float]], loads: tuple[str, str], jobs: int = 0
) -> str:
    """The Markdown block written between the markers."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    ran = ", ".join(f"`{run}` {seconds:.0f} s" for run, seconds in runs)
    lines = [
        f"Measured {when} on commit {commit.strip()}, {os.cpu_count()} cores, "
        + ("one test at a time (`-n 0`), " if not jobs else f"{jobs} tests at a time (`-n {jobs}`), ")
        + f"load average {loads[0]} before and {loads[1]} after (other work on the same cores stretches the "
        f"seconds; the order holds better). Runs: {ran}.",
        "",
        "| # | seconds | phase | test |",
        "|---|---|---|---|",
    ]
    lines += [f"| {n} | {seconds:.1f} | {phase} | `{test}` |" for n, (seconds, phase, test) in enumerate(rows, 1)]
    return "\n".join(lines)


def write(block: str) -> None:
    """Replace what is between the markers of docs/reliability.md."""
    text = DOCS.read_text()
    before, rest = text.split(START, 1)
    _, after = rest.split(END, 1)
    DOCS.write_text(f"{before}{START}\n{block}\n{END}{after}")


def load_average() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def make_test() -> None:
    """Time `make test` in a fresh clone of this repository's HEAD."""
    with tempfile.TemporaryDirectory(prefix="semedori-clone-") as scratch:
        clone = Path(scratch) / "clone"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        load = load_average()
        started = time.monotonic()
        finished = subprocess.run(["make", "test"], cwd=clone, check=False)
        minutes = (time.monotonic() - started) / 60
    print(f"make test on a fresh clone: {minutes:.1f} min, exit {finished.returncode}, load {load} at the start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", help="test folders or files, one pytest run each (default: all)")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--jobs", type=int, default=0, help="pytest-xdist workers per run (0: one test at a time)")
    parser.add_argument("--write", action="store_true", help="write the table into docs/reliability.md")
    parser.add_argument("--make-test", action="store_true", help="time `make test` in a fresh clone instead")
    arguments = parser.parse_args()
    if arguments.make_test:
        make_test()
        return
    before = load_average()
    rows: list[tuple[float, str, str]] = []
    runs = []
    for run in arguments.folders or folders():
        found, seconds = slowest(run, arguments.top, arguments.jobs)
        lines = [f"  {took:.2f}s {phase} {test}" for took, phase, test in found]
        print(f"{run}: {seconds:.0f} s", *lines, sep="\n", file=sys.stderr)  # kept if a later folder fails
        rows += found
        runs.append((run, seconds))
    rows = sorted(rows, reverse=True)[: arguments.top]
    block = table(rows, runs, (before, load_average()), arguments.jobs)
    print(block)
    if arguments.write:
        write(block)


if __name__ == "__main__":
    main()
