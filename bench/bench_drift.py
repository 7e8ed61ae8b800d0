"""Benchmark of the drift report (kiosk/drift.py) on a 50,000-game history (figures to compare, not a timed test).

The owner's drift page replays the whole history once, then finds months, unmatched arrows, groups, the result
error between groups, returners and streaks, and previews each suggested shift on a copy of the replayed engine.
Printed: CPU seconds of the replay alone, of the whole report, and of the flags, best of three.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.history import history_file
from kiosk.config import Config
from kiosk.drift import report
from kiosk.events import parse_history
from kiosk.flags import flags
from kiosk.replay import Replay

GAMES = 50_000
CACHE = Path(tempfile.gettempdir()) / "semedori-bench"


def best_of(runs: int, work: Callable[[], object]) -> float:
    """The fastest of a few runs, in CPU seconds (the machine is shared)."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    path = history_file(GAMES, CACHE)
    with path.open("rb") as file:
        history = parse_history(file)
    config = Config()
    made = report(history, config, datetime(2030, 1, 1))
    last = max(g.at for g in made.board.games)
    now = last.replace(hour=23, minute=0)
    replay_only = best_of(3, lambda: Replay(config).run(history))
    whole = best_of(3, lambda: report(history, config, now))
    made = report(history, config, now)
    flagged = best_of(3, lambda: flags(made.board, now, 12))
    months = sum(len(m) for m in made.drift.months.values())
    groups = sum(len(g) for g in made.drift.groups.values())
    print(f"{GAMES} games, {months} month rows, {groups} groups, {len(made.drift.gaps)} gaps, now {now:%Y-%m-%d}")
    print(f"replay alone: {replay_only:.2f} s CPU")
    print(f"drift report (replay included): {whole:.2f} s CPU")
    print(f"returners and streaks: {flagged:.2f} s CPU")


if __name__ == "__main__":
    main()
