"""Benchmark of the public labels: what privacy costs a public page.

1. ``public_labels`` for a 250- and a 5,000-player club in initials mode, where many
   players share initials (Polish first and last names from a small pool).
2. The store's ``privacy()`` (the settings table and the player identities) on a real
   SQLite file holding a 20,000-game history of 120 players, 60 of them with their own
   setting.
3. GET / (the board) and GET /api/board in-process on that store, with and without the
   club in initials mode: the difference is what labels cost a phone.

CPU milliseconds, median and worst of the runs: a figure to compare, not a timed test.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.history import history_file
from kiosk.privacy import INITIALS, NICK, PlayerPrivacy, Privacy, public_labels
from kiosk.store import Store

RUNS = 30
FIRST = ["Łucja", "Łukasz", "Adam", "Anna", "Żaneta", "Zenon", "Ola", "Kasia", "Bartek", "Ignacy", "Julia", "Zofia"]
LAST = ["Kowalska", "Kot", "Nowak", "Zielińska", "Ćwik", "Wójcik", "Kamińska", "Lis", "Mazur", "Król", "Świątek"]


def figures(work: Callable[[], object], runs: int = RUNS) -> tuple[float, float]:
    """Median and worst CPU milliseconds of ``work``."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times), max(times)


def names(count: int) -> list[str]:
    """``count`` different Polish names; many share their initials."""
    rng = random.Random(count)
    found: set[str] = set()
    while len(found) < count:
        found.add(f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.randint(1, 999)}")
    return sorted(found)


def main() -> None:
    """Print the figures."""
    for count in (250, 5000):
        nicks = names(count)
        median, worst = figures(lambda nicks=nicks: public_labels(nicks, Privacy(INITIALS)), 10)
        print(f"public_labels, {count} players, initials: median {median:.1f} ms, worst {worst:.1f} ms")
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        path = history_file(20_000, home)
        with Store.open(home) as store:
            store.import_history(path.read_text(encoding="utf-8").splitlines())
            nicks = sorted({m.nick for m in store.magnets()})
            for nick in nicks[:60]:
                store.set_player_privacy(nick, PlayerPrivacy(INITIALS, hidden=nick.endswith("7")))
            median, worst = figures(store.privacy)
            print(f"store.privacy(), {len(nicks)} players, 60 set: median {median:.1f} ms, worst {worst:.1f} ms")
        from web import create_app

        app = create_app({"SEMEDORI_HOME": str(home), "TESTING": True})
        client = app.test_client()
        for mode in (NICK, INITIALS):
            with Store.open(home) as store:
                store.set_club_privacy(mode)
            for url in ("/?size=13", "/api/board?size=13"):
                median, worst = figures(lambda url=url: client.get(url).get_data())
                print(f"GET {url}, club shows {mode}: median {median:.1f} ms, worst {worst:.1f} ms")


if __name__ == "__main__":
    main()
