"""Benchmark of tonight's pairings: 60 checked-in players, goal under 100 ms.

Three evenings of 60 players on 13x13, strengths spread over the whole scale: a first
round (nobody has played yet), a later round (each player has played three games
tonight and five in the last week), and the same with 61 players (a bye). Figures are
CPU milliseconds, median and worst of the runs: the machine is shared, so CPU time of
this process, not wall time. A figure to compare, not a timed test.

Then the phone's Tonight page (web/tonight.py) in-process on a real store: a 20,000-game
history of 120 players, 60 of them checked in, 30 games already played tonight; median
and worst wall time of GET /tonight?size=13 (goal: under 100 ms too).

Last, the wall's ruler of tonight (display/tonight_ruler.py): the render of its first page on the 7.3"
and the 13.3" for the ruler's evenings of 10, 18 and 25 players and 12 random evenings of 25
(tests/display/wall_clubs.py), median CPU ms, and on how many of those the 7.3" needs one page.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.config import Config
from kiosk.pairing import Side
from kiosk.scale import fields
from kiosk.tonight import Pair, pair_of, suggest

RUNS = 30
GOAL_MS = 100


def evening(count: int, games_tonight: int, games_last_week: int, seed: int) -> tuple[list[Side], set[Pair], set[Pair]]:
    """Players with believable strengths, and pairs among near neighbours who already played."""
    chance = random.Random(seed)
    players = [Side(f"gracz-{i}", chance.choice(fields()), i % 7 == 0, False) for i in range(count)]
    ordered = sorted(players, key=lambda s: s.strength)

    def near_pairs(per_player: int) -> set[Pair]:
        pairs = set()
        for i, p in enumerate(ordered):
            for _ in range(per_player):
                j = min(max(i + chance.randint(-4, 4), 0), count - 1)
                if j != i:
                    pairs.add(pair_of(p.nick, ordered[j].nick))
        return pairs

    return players, near_pairs(games_tonight), near_pairs(games_last_week)


def measure(name: str, players: list[Side], tonight: set[Pair], last_week: set[Pair]) -> float:
    config = Config()
    times = []
    for _ in range(RUNS):
        start = time.process_time()
        result = suggest(13, players, config, tonight, last_week)
        times.append((time.process_time() - start) * 1000)
    median = statistics.median(times)
    verdict = "ok" if median < GOAL_MS else "OVER THE GOAL"
    print(
        f"  {name:44} median {median:6.1f} ms, worst {max(times):6.1f} ms  ({verdict}); "
        f"{len(result.pairs)} pairs, {result.rematches} rematches, {result.recent} pairs of last week"
    )
    return median


def page() -> float:
    """Wall ms of the Tonight page with 60 players checked in on a 20,000-game club."""
    import tempfile
    from datetime import UTC, datetime, timedelta

    from bench.history import history_file
    from kiosk.evening import club_evening
    from kiosk.recording import new_game
    from kiosk.rules import club_now
    from kiosk.store import Store
    from web import create_app

    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        source = history_file(20_000, Path(tempfile.gettempdir()) / "semedori-bench")
        with Store.open(home) as store:
            store.import_history(source.read_text(encoding="utf-8").splitlines())
            now = club_now(store.config, datetime.now(UTC))
            evening = club_evening(store.config, now)[0]
            here = [f"Gracz{n:03d}" for n in range(0, 120, 2)]
            for nick in here:
                store.check_in(evening, nick)
            chance = random.Random(4)
            for minute in range(30):
                a, b = chance.sample(here, 2)
                size = next(m.size for m in store.magnets() if m.nick == a)
                at = now - timedelta(minutes=2 * minute)  # tonight's, unless the evening began minutes ago
                store.record(new_game(size, [a, b], a, "resignation", at, now))
        client = create_app({"SEMEDORI_HOME": str(home), "STORE_PER_THREAD": True}).test_client()
        for _ in range(3):
            client.get("/tonight?size=13")
        times = []
        for _ in range(RUNS):
            start = time.perf_counter()
            response = client.get("/tonight?size=13")
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200
        shown = response.get_data(as_text=True).count('<article class="pair">')
    median = statistics.median(times)
    verdict = "ok" if median < GOAL_MS else "OVER THE GOAL"
    print(
        f"  {'GET /tonight?size=13: 60 here, 20,000 games':44} median {median:6.1f} ms, worst {max(times):6.1f} ms"
        f"  ({verdict}); {shown} pairs shown"
    )
    return median


def ruler() -> float:
    """Median CPU ms of the ruler's first page on the 7.3" and 13.3"; how many evenings of 25 fit one page."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "display"))
    from wall_clubs import any_evening, ruler_evening

    from display.profiles import profile
    from display.render import render, ruler_pages
    from display.wall import View

    evenings = {f"{n} players (ruler_evening)": ruler_evening(n, "pl") for n in (10, 18, 25)}
    evenings |= {f"25 players, random evening {seed}": any_evening(seed, 25) for seed in range(12)}
    worst = 0.0
    for name in ("impression-7.3", "impression-13.3"):
        panel = profile(name)
        times = []
        for data in evenings.values():
            render(data, View("ruler", 13), panel)  # the faces opened once, as on the wall
            for _ in range(3):
                start = time.process_time()
                render(data, View("ruler", 13), panel)
                times.append((time.process_time() - start) * 1000)
        one = sum(ruler_pages(data, 13, panel) == 1 for data in evenings.values())
        median = statistics.median(times)
        worst = max(worst, median)
        print(
            f"  ruler on the {name:16} median {median:6.1f} ms, worst {max(times):6.1f} ms;"
            f" one page: {one}/{len(evenings)}"
        )
    return worst


def main() -> int:
    print(f"tonight's pairings on 13x13 (CPU ms over {RUNS} runs, goal < {GOAL_MS} ms):")
    medians = [
        measure("60 players, first round", *evening(60, 0, 0, seed=1)),
        measure("60 players, 3 games tonight, 5 last week each", *evening(60, 3, 5, seed=2)),
        measure("61 players (a bye), 3 tonight, 5 last week", *evening(61, 3, 5, seed=3)),
    ]
    print(f"the phone's Tonight page (wall ms over {RUNS} runs, in-process, goal < {GOAL_MS} ms):")
    medians.append(page())
    print("the wall's ruler of tonight (CPU ms of its first page, 3 runs of each of 15 evenings):")
    ruler()
    return 0 if max(medians) < GOAL_MS else 1


if __name__ == "__main__":
    sys.exit(main())
