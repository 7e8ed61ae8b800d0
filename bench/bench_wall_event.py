"""Benchmark of the wall's event page: a Swiss of 40 players, round 4 of 11 on.

1. Render time of every page of the event on the 7.3" and the 13.3" panel (the demo's 40 players with
   Polish, Cyrillic, CJK and emoji labels): the first render in a fresh process (fonts and fallbacks
   opened, text measured) and the median of later ones, as the refresh loop renders each picture
   twice (the fingerprint, then the panel's). Wall-clock milliseconds, median and worst.
2. What the refresh loop pays on every turn (every 2 s) to notice an event result: since events are history lines, every
   change of an event is a history write, so it is the change counter the loop reads anyway (it had been
   ``standings.signature``, a read of the event a turn); and the event's read on a refresh, on a real
   SQLite store holding the 40-player event with three rounds played.

A figure to compare, not a timed test (a Pi is several times slower than this machine).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "display"))  # the wall's test clubs

RUNS = 10


def renders() -> None:
    from wall_clubs import event_data

    from display.profiles import profile
    from display.render import event_pages, render
    from display.wall import View

    start = time.perf_counter()
    data = event_data(count=40)
    took = 1000 * (time.perf_counter() - start)
    print(f"  the demo event's data (replay of the demo club, 40-player Swiss): {took:.0f} ms")
    for name in ("impression-7.3", "impression-13.3"):
        panel = profile(name)
        start = time.perf_counter()
        parts = event_pages(data, 13, panel)
        for part in range(parts):
            render(data, View("event", 13, part), panel)
        first = 1000 * (time.perf_counter() - start)
        times = []
        for _ in range(RUNS):
            start = time.perf_counter()
            event_pages(data, 13, panel)
            render(data, View("event", 13, 0), panel)
            times.append(1000 * (time.perf_counter() - start))
        print(
            f"  {name:16} {parts} page(s): first pass (all pages, cold) {first:6.0f} ms; "
            f"one page + page count: median {statistics.median(times):5.1f} ms, worst {max(times):5.1f} ms"
        )


def signature() -> None:
    from display.standings import read
    from kiosk.evening import club_evening
    from kiosk.events import parse_line
    from kiosk.pairing import side_of
    from kiosk.services import tournaments as events
    from kiosk.store import Store
    from kiosk.tournament import A_WINS

    now = datetime(2026, 11, 5, 19, 0)
    with tempfile.TemporaryDirectory() as folder, Store.open(Path(folder)) as store:
        nicks = [f"Gracz {n}" for n in range(40)]
        for n, nick in enumerate(nicks):
            store.record(
                parse_line(
                    f'{{"type": "player", "at": "2026-11-02T18:00", "nick": "{nick}", "size": 13, '
                    f'"status": "member", "strength": {n}}}'
                )
            )
        evening = club_evening(store.config, now)[0]
        event = events.start(store, evening, 13, [side_of(store.magnets(), n, 13) for n in nicks], counts=True)
        for number in range(1, 4):
            current = events.get(store, event.id)
            assert current is not None
            for seat in current.round_seats(number):
                if seat.b is not None:
                    events.record_result(store, event.id, number, seat.board, A_WINS, "resignation", now)
        times, reads = [], []
        for _ in range(50):
            start = time.perf_counter()
            store.change_counter()
            times.append(1000 * (time.perf_counter() - start))
        for _ in range(RUNS):
            start = time.perf_counter()
            read(store, store.config, now)
            reads.append(1000 * (time.perf_counter() - start))
        median, worst = statistics.median(times), max(times)
        print(f"  the change counter (every turn of the loop): median {median:.2f} ms, worst {worst:.2f} ms")
        print(f"  read (every refresh): median {statistics.median(reads):.1f} ms, worst {max(reads):.1f} ms")


if __name__ == "__main__":
    print("The wall's event page, 40 players:")
    renders()
    signature()
