"""Benchmark of the owner's duplicate search (figures to compare, not timed tests).

5,000 varied nicknames (Polish, Cyrillic, CJK, digits), and 3,000 and 5,000 guests named
"Gość 1", "Gość 2"... (every one a typo away from dozens of others): the first 100
suggestions, as /owner/merge shows them, and every pair. Goal: under 1 s for 5,000 names.

    .venv/bin/python bench/bench_names.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.names import duplicate_pairs

SYLLABLES = ["ka", "ro", "mi", "ta", "ze", "no", "la", "wi", "do", "be", "szy", "ło", "ść", "pa", "ju", "ny"]
SURNAMES = ["", " Kowalski", " Nowak", " Wiśniewska", " Lee", " Иван", " 王", " 🐉"]


def varied(count: int, seed: int = 1) -> list[str]:
    """``count`` different nicknames built from syllables, some with a number or a surname."""
    rng = random.Random(seed)
    found: dict[str, None] = {}
    while len(found) < count:
        stem = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize()
        found[stem + rng.choice(["", str(rng.randint(1, 99)), rng.choice(SURNAMES)])] = None
    return list(found)


def main() -> None:
    """Print the figures."""
    for label, names in (
        ("5,000 varied nicknames", varied(5000)),
        ("3,000 guests 'Gość N'", [f"Gość {n}" for n in range(1, 3001)]),
        ("5,000 guests 'Gość N'", [f"Gość {n}" for n in range(1, 5001)]),
    ):
        for limit in (100, None):
            started = time.perf_counter()
            pairs = duplicate_pairs(names, limit=limit)
            seconds = time.perf_counter() - started
            what = "first 100 suggestions" if limit else "every pair"
            print(f"duplicate search, {label}, {what}: {len(pairs):,} pairs in {seconds:.2f} s (goal < 1 s)")


if __name__ == "__main__":
    main()
