"""Benchmark of the accelerated handicap event's pairing: figures to compare, not a timed test.

A 12-round accelerated event of 60 players on 13x13 (strengths spread over 0..50 as in a
children's club, so the cap of 5 starting moves binds at the ends), each round's results
drawn by a seeded model (the stronger by the levels' handicap wins 50 %, plus a little for the
truly stronger), and each round paired by ``kiosk.accelerated.pair_round`` as the tap that
completes a round pairs the next one. Measured: wall milliseconds per round's pairing (median,
worst), with the players sitting out (byes beyond the odd one) and the search steps.

Goal: under 200 ms a round here (a Pi is several times slower; the pairing runs inside the
tap that completes the round).

    .venv/bin/python bench/bench_accelerated.py [--players 60] [--rounds 12] [--seeds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk import accelerated
from kiosk.handicap import DEFAULT_SIZE_RULES
from kiosk.pairing import Side
from kiosk.scale import QUARTERS
from kiosk.tournament import A_WINS, B_WINS, Seat

GOAL_MS = 200


def one_event(players: int, rounds: int, seed: int) -> tuple[list[float], int]:
    """Pairing times (ms) of each round of one event, and how many players sat out beyond the odd bye."""
    rng = random.Random(seed)
    rules = DEFAULT_SIZE_RULES[13]
    cap = accelerated.default_cap(rules)
    sides = [Side(f"Gracz{n:02d}", rng.randint(0, 50) * QUARTERS, False, False) for n in range(players)]
    true = {s.nick: s.strength + rng.randint(-12, 12) for s in sides}  # how strong each one really plays
    seats: list[Seat] = []
    times, extra = [], 0
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        pairs = accelerated.pair_round(sides, seats, number, rounds, rules, cap)
        times.append((time.perf_counter() - start) * 1000)
        extra += max(0, sum(1 for p in pairs if p.b is None) - players % 2)
        levels = accelerated.levels_before(sides, seats, rounds, number)
        for board, pair in enumerate(pairs, start=1):
            if pair.b is None:
                seats.append(Seat(number, board, pair.a.nick, None))
                continue
            # The levels' handicap evens out the levels' difference; what is left is the true difference.
            edge = (true[pair.a.nick] - levels[pair.a.nick.casefold()]) - (
                true[pair.b.nick] - levels[pair.b.nick.casefold()]
            )
            a_wins = rng.random() < 1 / (1 + 10 ** (-edge / (8 * QUARTERS)))
            seats.append(Seat(number, board, pair.a.nick, pair.b.nick, A_WINS if a_wins else B_WINS))
    return times, extra


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    every, worst_event, sat = [], 0.0, 0
    for seed in range(args.seeds):
        times, extra = one_event(args.players, args.rounds, seed)
        every += times
        worst_event = max(worst_event, sum(times))
        sat += extra
        rounds = " ".join(f"{t:.1f}" for t in times)
        print(f"seed {seed}: per round ms {rounds}; sat out beyond the bye: {extra}")
    median, worst = statistics.median(every), max(every)
    print(
        f"{args.players} players, {args.rounds} rounds, {args.seeds} events: pairing a round median {median:.1f} ms,"
        f" worst {worst:.1f} ms; a whole event's pairings at most {worst_event:.0f} ms; sat out beyond the bye: {sat}"
    )
    print("goal met" if worst < GOAL_MS else f"GOAL MISSED: {worst:.1f} ms > {GOAL_MS} ms")


if __name__ == "__main__":
    main()
