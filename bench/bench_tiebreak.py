"""Benchmark of the owner's tie-breaks: the standings with the longest chain and "why above me".

A Swiss of 40 players over its 11 rounds and one of 60 over 12 (paired and played as bench_event does), then the
final standings with every criterion in the chain (direct encounter, SOS, SOSOS, SODOS, progressive score) and
unique places, and each line's "why is she above me" (kiosk.tiebreak.why_above). CPU milliseconds of this process
(the machine is shared), median and worst of the runs; the phone draws these after every tap, goal under 100 ms.
A figure to compare, not a timed test.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.events import nick_key
from kiosk.pairing import Side
from kiosk.scale import fields
from kiosk.tiebreak import CRITERIA, rank, why_above
from kiosk.tournament import A_WINS, B_WINS, DRAW, Seat, reached, standings, swiss_round

RUNS = 20
GOAL_MS = 100


def played(count: int, rounds: int, seed: int) -> tuple[list[Side], list[Seat]]:
    chance = random.Random(seed)
    players = [Side(f"gracz-{i}", chance.choice(fields()), False, False) for i in range(count)]
    seats: list[Seat] = []
    for number in range(1, rounds + 1):
        new = swiss_round(players, seats, number)
        seats += [s if s.b is None else s._replace(result=chance.choice((A_WINS, B_WINS, DRAW))) for s in new]
    return players, seats


def run(count: int, rounds: int, seed: int) -> float:
    players, seats = played(count, rounds, seed)
    start = time.process_time()
    table = standings(players, seats, CRITERIA, unique=True)
    ranked = {r.key: r for r in rank([(p.nick, p.strength) for p in players], seats, reached(seats), CRITERIA, True)}
    strengths = {nick_key(p.nick): p.strength for p in players}
    for upper, lower in pairwise(table):
        why_above(ranked[nick_key(upper.nick)], ranked[nick_key(lower.nick)], CRITERIA, strengths)
    return (time.process_time() - start) * 1000


def measure(name: str, count: int, rounds: int) -> float:
    times = [run(count, rounds, seed) for seed in range(RUNS)]
    median = statistics.median(times)
    verdict = "ok" if median < GOAL_MS else "OVER THE GOAL"
    print(f"  {name:40} median {median:6.1f} ms, worst {max(times):6.1f} ms  ({verdict})")
    return median


def main() -> int:
    print(f"the final standings with all five tie-breaks, unique places and every 'why' (CPU ms, {RUNS} runs):")
    medians = [measure("40 players, 11 rounds", 40, 11), measure("60 players, 12 rounds", 60, 12)]
    return 0 if max(medians) < GOAL_MS else 1


if __name__ == "__main__":
    sys.exit(main())
