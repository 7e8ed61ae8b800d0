"""Benchmark of the owner's event corrections on a 50,000-game store (figures to compare, not timed tests).

A Swiss of 16 players on 13x13 that counts on the board, started on a history that ends
just before now (bench.history.recent_history_file). Measured through the store, wall
milliseconds, median and worst:

- a board's result tapped (the history's game, and the event's table);
- the owner's correction of a tapped result (the history's edit: a partial replay);
- a clear (the history's void) and the re-tap of the cleared board;
- the withdrawal of a player (one write; with the next Swiss round when it finishes the round);
- reading the event (tournament_store.get) and its standings, as every phone page does.

Goal: every write under 100 ms here (a Pi is several times slower; a tap must feel instant).

    .venv/bin/python bench/bench_event_fix.py [--games 50000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.history import recent_history_file
from kiosk.config import Config
from kiosk.pairing import side_of
from kiosk.rules import club_now
from kiosk.services import tournaments as events
from kiosk.store import Store
from kiosk.tournament import A_WINS, B_WINS, event_standings

CACHE = Path(tempfile.gettempdir()) / "semedori-bench"
PLAYERS = [f"Gracz{n:03d}" for n in range(1, 48, 3)]  # 16 players of the benchmark history on 13x13
GOAL_MS = 100


ANSWERS: list[object] = []  # what each write answered: a benchmark of refusals would measure nothing


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    answer = work()
    took = (time.perf_counter() - start) * 1000
    if isinstance(answer, tuple) and isinstance(answer[0], str):
        ANSWERS.append(answer[0])
    return took


def line(name: str, times: list[float], goal: bool = True) -> None:
    median, worst = statistics.median(times), max(times)
    verdict = ("ok" if worst < GOAL_MS else "OVER THE GOAL") if goal else ""
    print(f"  {name:58} median {median:6.1f} ms, worst {worst:6.1f} ms  {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50_000)
    options = parser.parse_args()
    now = club_now(Config(), datetime.now(UTC))
    source = recent_history_file(options.games, CACHE, now)
    with tempfile.TemporaryDirectory(prefix="semedori-bench-event-") as name, Store.open(Path(name)) as store:
        start = time.perf_counter()
        store.import_history(source.read_text(encoding="utf-8").splitlines())
        print(f"{options.games} games imported in {time.perf_counter() - start:.1f} s")
        clock = store.recent_games(1)[0].at + timedelta(minutes=5)
        sides = [side_of(store.magnets(), nick, 13) for nick in PLAYERS]
        event = events.start(store, clock.date(), 13, sides, counts=True)
        taps, fixes, clears, retaps, reads = [], [], [], [], []
        for number in (1, 2, 3):
            boards = [s for s in events.get(store, event.id).round_seats(number) if s.b is not None]  # type: ignore[union-attr]
            for seat in boards:
                clock += timedelta(minutes=1)
                tap = lambda: events.record_result(store, event.id, number, seat.board, A_WINS, "other", clock)  # noqa: B023,E731
                taps.append(timed(tap))
            for seat in boards[:4]:
                fixes.append(timed(lambda: events.correct(store, event.id, number, seat.board, B_WINS, 7.5, clock)))  # noqa: B023
            reads.append(timed(lambda: event_standings(events.get(store, event.id))))  # type: ignore[arg-type]
        for seat in [s for s in events.get(store, event.id).round_seats(3) if s.b is not None][:4]:  # type: ignore[union-attr]
            clears.append(timed(lambda: events.correct(store, event.id, 3, seat.board, None, None, clock)))  # noqa: B023
            retap = lambda: events.record_result(store, event.id, 3, seat.board, B_WINS, "resignation", clock)  # noqa: B023,E731
            retaps.append(timed(retap))
        withdrawals = [timed(lambda: events.withdraw(store, event.id, nick)) for nick in PLAYERS[:3]]  # noqa: B023
        saved = ANSWERS.count(events.SAVED)
        print(f"{saved} of {len(ANSWERS)} writes saved something ({sorted(set(map(str, ANSWERS)))})")
        print(f"a Swiss of {len(PLAYERS)} that counts, on a {options.games}-game history (wall ms, this machine):")
        line("a board's result tapped", taps)
        line("the owner's correction of a result (history edit)", fixes)
        line("the owner's clear of a result (history void)", clears)
        line("the re-tap of a cleared board", retaps)
        line("a player withdrawn", withdrawals)
        line("the event and its standings read (every page)", reads, goal=False)
        start = time.perf_counter()
        problems = store.check()
        print(f"  semedori check after it all: {problems or 'ok'} ({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
