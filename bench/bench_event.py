"""Benchmark of a small event's Swiss: 40 players, 7 rounds, goal under 100 ms.

Each run pairs all seven rounds of a Swiss of 40 players with believable strengths (every
round after the results of the one before, random results with the stronger player
winning a little more often) and computes the standings after every round, as the phone
does after each tap. CPU milliseconds of this process (the machine is shared), median and
worst of the runs. A figure to compare, not a timed test. Then the same for 60 players
over their full 12 rounds, the largest evening the club expects.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.pairing import Side
from kiosk.scale import fields
from kiosk.tournament import A_WINS, B_WINS, DRAW, Seat, met, standings, swiss_round, swiss_rounds

RUNS = 20
GOAL_MS = 100


def run(count: int, rounds: int, seed: int) -> tuple[float, int]:
    """CPU ms of pairing ``rounds`` rounds and the standings after each; the pairs that repeated (must be 0)."""
    chance = random.Random(seed)
    players = [Side(f"gracz-{i}", chance.choice(fields()), i % 7 == 0, False) for i in range(count)]
    results = [chance.choice((A_WINS, A_WINS, B_WINS, DRAW)) for _ in range(rounds * count)]
    seats: list[Seat] = []
    start = time.process_time()
    for number in range(1, rounds + 1):
        new = swiss_round(players, seats, number)
        seats += [s if s.b is None else s._replace(result=results.pop()) for s in new]
        standings(players, seats)
    elapsed = (time.process_time() - start) * 1000
    games = [s for s in seats if s.b is not None]
    return elapsed, len(games) - len(met(seats))


def measure(name: str, count: int, rounds: int) -> float:
    times, repeats = [], 0
    for seed in range(RUNS):
        elapsed, repeated = run(count, rounds, seed)
        times.append(elapsed)
        repeats += repeated
    median = statistics.median(times)
    verdict = "ok" if median < GOAL_MS else "OVER THE GOAL"
    print(f"  {name:44} median {median:6.1f} ms, worst {max(times):6.1f} ms  ({verdict}); {repeats} repeated pairs")
    return median


def main() -> int:
    print(f"a Swiss event: every round paired, standings after each (CPU ms over {RUNS} runs, goal < {GOAL_MS} ms):")
    medians = [
        measure("40 players, 7 rounds", 40, 7),
        measure(f"40 players, {swiss_rounds(40)} rounds (the format's count)", 40, swiss_rounds(40)),
        measure(f"60 players, {swiss_rounds(60)} rounds", 60, swiss_rounds(60)),
    ]
    return 0 if medians[0] < GOAL_MS else 1


if __name__ == "__main__":
    sys.exit(main())
