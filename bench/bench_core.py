"""Benchmarks of the ranking core and the store (figures to compare, not timed tests).

- `semedori replay` of a 50,000-game history, and its ratio to merely parsing the
  same file with `json` (goal: at most 5), in-process and as whole processes (start-up
  and imports included);
- the same for a 50,000-game history with 1,000 quick corrections and 250 shifts (what a
  rename, a merge or a rule change replays in a club that has run for years; goal: at
  most 5 as whole processes);
- appending one game to a 50,000-game store (goal: median at most 5 ms).

CPU time still swings with the other processes on a shared machine, so with
``--instructions`` the replay ratio is also counted in machine instructions under
valgrind's callgrind (a 10,000-game history, to keep it to a few minutes): the same
count on every run, whatever else the machine is doing.
"""

from __future__ import annotations

import io
import json
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import redirect_stdout
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from click.testing import CliRunner

from bench.history import history_file
from kiosk.cli import main
from kiosk.events import GamePlayed
from kiosk.store import Store

GAMES = 50_000
CORRECTIONS, SHIFTS = 1_000, 250
CACHE = Path(tempfile.gettempdir()) / "semedori-bench"


def best_of(runs: int, work: Callable[[], None]) -> float:
    """The fastest of a few runs, in CPU seconds of this process.

    CPU time, not wall time: the machine is shared, and other processes' load would
    otherwise swing the ratio by a factor of two between runs.
    """
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def bench_replay(path: Path) -> None:
    """Time `semedori replay FILE` in-process against json.loads of every line."""
    data = path.read_bytes()

    def parse_only() -> None:
        for line in data.splitlines():
            json.loads(line)

    runner = CliRunner()

    def replay() -> None:
        with redirect_stdout(io.StringIO()):
            result = runner.invoke(main, ["replay", str(path)])
        assert result.exit_code == 0, result.output

    parse = best_of(5, parse_only)
    full = best_of(5, replay)
    print(
        f"replay of {GAMES} games: {full * 1000:.0f} ms CPU; json parsing alone: {parse * 1000:.0f} ms CPU; "
        f"ratio {full / parse:.2f} (goal <= 5)"
    )


def child_cpu(command: list[str], runs: int = 5) -> float:
    """The fastest of a few runs of a whole process, in CPU seconds (user + system, start-up included)."""
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(times)


def bench_whole_process(path: Path, what: str = f"{GAMES} games") -> None:
    """`semedori replay FILE` as a whole process against a whole `python -c` that parses the file with json."""
    parse = f"import json\nfor line in open({str(path)!r}, 'rb').read().splitlines(): json.loads(line)"
    parsing = child_cpu([sys.executable, "-c", parse])
    replaying = child_cpu([str(Path(sys.executable).with_name("semedori")), "replay", str(path)])
    print(
        f"`semedori replay` of {what} as a whole process: {replaying * 1000:.0f} ms CPU; `python -c` parsing "
        f"it with json: {parsing * 1000:.0f} ms CPU; ratio {replaying / parsing:.2f} (goal <= 5)"
    )


def bench_append(path: Path) -> None:
    """Median and p95 of recording one game at the end of a 50,000-game store."""
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(Path(folder))
        store.import_history(path.read_text(encoding="utf-8").splitlines())
        last = store.recent_games(1)[0]
        times = []
        for n in range(200):
            game = GamePlayed(last.at + timedelta(minutes=n + 1), last.size, last.players, last.players[n % 2], None)
            start = time.perf_counter()
            store.record(game)
            times.append(time.perf_counter() - start)
        times.sort()
        print(
            f"append one game to a {GAMES}-game store: median {statistics.median(times) * 1000:.2f} ms, "
            f"p95 {times[int(len(times) * 0.95)] * 1000:.2f} ms (goal: median <= 5 ms)"
        )
        assert store.check() == []
        store.close()


def _instructions(*command: str) -> int:
    """Instructions a command executes, counted by callgrind."""
    out = CACHE / "callgrind.out"
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(re.search(r"Collected : (\d+)", result.stderr)[1])  # type: ignore[index]


def bench_instructions(games: int = 10_000) -> None:
    """The replay/parse ratio in instructions: steady where CPU time is not."""
    path = history_file(games, CACHE)
    python = sys.executable
    parse = f"import json\nfor line in open({str(path)!r}, 'rb').read().splitlines(): json.loads(line)"
    started = _instructions(python, "-c", "import json")
    parsing = _instructions(python, "-c", parse) - started
    loaded = _instructions(python, "-c", "import kiosk.cli")
    replaying = _instructions(python, "-m", "kiosk.cli", "replay", str(path)) - loaded
    print(
        f"replay of {games} games in instructions: {replaying / 1e6:.0f} M; json parsing alone: "
        f"{parsing / 1e6:.0f} M; ratio {replaying / parsing:.2f} (goal <= 5; interpreter start and imports "
        "counted apart)"
    )


if __name__ == "__main__":
    history = history_file(GAMES, CACHE)
    bench_replay(history)
    bench_whole_process(history)
    fixed = history_file(GAMES, CACHE, corrections=CORRECTIONS, shifts=SHIFTS)
    bench_whole_process(fixed, f"{GAMES} games, {CORRECTIONS} quick corrections and {SHIFTS} shifts")
    bench_append(history)
    if "--instructions" in sys.argv and shutil.which("valgrind"):
        bench_instructions()
