"""Benchmark of dated rule changes and the board as of a day on a 50,000-game store (figures, not tests).

- a rule change dated now (appended) and one dated a week back (replayed from the
  checkpoint before it), against a whole replay of the history;
- late games (bench_late's store part) on a store whose history holds that rule change:
  a late result must cost what it cost before;
- the board as of a day a week, a month and a year back: from the checkpoint before the
  day, against a pure replay of the history up to it.

    .venv/bin/python bench/bench_rules.py [--games 50000] [--runs 100]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_late import CACHE, line, through_the_store
from bench.history import recent_history_file
from kiosk.config import Config
from kiosk.events import RuleChange
from kiosk.handicap import SizeRules
from kiosk.replay import Replay, iter_numbered
from kiosk.rulechanges import end_of
from kiosk.rules import club_now
from kiosk.store import Store


def seconds(work: object) -> float:
    start = time.perf_counter()
    work()  # type: ignore[operator]
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=100)
    options = parser.parse_args()
    source = recent_history_file(options.games, CACHE, club_now(Config(), datetime.now(UTC)))
    with tempfile.TemporaryDirectory(prefix="semedori-bench-rules-") as name:
        built = Path(name) / "built"
        with Store.open(built) as store:
            store.import_history(source.read_text(encoding="utf-8").splitlines())
        print(f"{options.games} games; a checkpoint every {Store.checkpoint_every} games")
        folder = Path(name) / "rules"
        shutil.copytree(built, folder)
        with Store.open(folder) as store:
            last = store.recent_games(1)[0].at
            margin = SizeRules(
                13, store.config.size_rules[13].points_per_strength, store.config.size_rules[13].clear_margin + 5, 6
            )
            week_back = RuleChange(last - timedelta(days=7), (margin,), 3, None, "bench: a week back")
            ms = seconds(lambda: store.record(week_back))
            print(f"  a rule change dated a week back (13x13 clear margin, guest losses): {ms:7.1f} ms")
            now_change = RuleChange(last + timedelta(minutes=1), (), 2, None, "bench: now")
            ms = seconds(lambda: store.record(now_change))
            print(f"  a rule change dated now (appended): {ms:7.1f} ms")
            print(f"  the whole replay a past change would cost without checkpoints: {seconds(store.rebuild):7.1f} ms")
            entries = list(iter_numbered(store.history_entries()))
            for label, days in (("a week", 7), ("a month", 30), ("a year", 365)):
                day = (last - timedelta(days=days)).date()
                times = [seconds(lambda: store.board_at(day)) for _ in range(5)]  # noqa: B023
                line(f"board as of {label} back, from a checkpoint", times)
                board: list = []
                pure = seconds(lambda: board.append(Replay(store.file_config).run(entries, until=end_of(day))))  # noqa: B023
                same = "the same magnets" if board[0].magnets == store.board_at(day)[0] else "DIFFERENT MAGNETS"
                print(f"  {'  the pure replay up to that day':<52} {pure:7.1f} ms ({same})")
            problems = store.check()
            print(f"  semedori check: {problems or 'ok'}")
        print("late games on the store whose history holds those rule changes:")
        through_the_store(folder, options.runs)


if __name__ == "__main__":
    main()
