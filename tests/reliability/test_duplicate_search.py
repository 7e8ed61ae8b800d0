"""The owner's duplicate search is not quadratic.

On main, /owner/merge compared every pair of nicknames (3,000 similar guest names took
over 120 s). Speed is a benchmark's job (bench/bench_names.py), so this test counts what
a user's wait is made of: how many pairs are compared, and that the answer is the same.
"""

from __future__ import annotations

import random

import pytest

from kiosk import names
from kiosk.names import are_similar, duplicate_pairs, nick_key

SYLLABLES = ["ka", "ro", "mi", "ta", "ze", "no", "la", "wi", "do", "be", "szy", "ło", "ść", "pa", "ju", "ny"]


def varied(count: int) -> list[str]:
    rng = random.Random(5)
    found: dict[str, None] = {}
    while len(found) < count:
        stem = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize()
        found[stem + rng.choice(["", str(rng.randint(1, 99)), " Кот", " 王", " Nowak"])] = None
    return list(found)


def every_pair(nicks: list[str]) -> list[tuple[str, str]]:
    """The plain quadratic search: the answer to match."""
    unique = sorted(set(nicks), key=nick_key)
    return [(a, b) for i, a in enumerate(unique) for b in unique[i + 1 :] if are_similar(a, b)]


def test_5000_names_compare_only_a_few_thousand_pairs_not_twelve_million(monkeypatch: pytest.MonkeyPatch) -> None:
    compared = 0
    real = names.distance

    def counted(a: str, b: str, limit: int = 3) -> int:
        nonlocal compared
        compared += 1
        return real(a, b, limit)

    monkeypatch.setattr(names, "distance", counted)
    nicks = varied(5000)
    pairs = duplicate_pairs(nicks)
    print(f"\n5,000 names: {compared:,} pairs compared of {5000 * 4999 // 2:,}; {len(pairs):,} similar pairs")
    assert compared < 50_000  # main compared all 12,497,500
    assert len(pairs) > 100  # and the test names do have look-alikes


def test_the_answer_is_the_same_as_comparing_every_pair() -> None:
    twins = ["Łukasz", "Lukasz", "Łukas", "Kasia", "Kaśka", "Zoë", "Zoe", "王小明", "王小朋", "Иван", "Иванн"]
    # 300 names hold 43 similar pairs: a search that deletes one letter too few, or never the last letter,
    # misses 36 or 4 of them (600 names cost four times the pairs and catch nothing more of that kind).
    nicks = [*varied(300), *twins]
    assert duplicate_pairs(nicks) == every_pair(nicks)
    assert duplicate_pairs(nicks, limit=7) == every_pair(nicks)[:7]


def test_3000_similar_guests_give_the_first_100_suggestions_after_few_comparisons(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compared = 0
    real = names.distance

    def counted(a: str, b: str, limit: int = 3) -> int:
        nonlocal compared
        compared += 1
        return real(a, b, limit)

    monkeypatch.setattr(names, "distance", counted)
    pairs = duplicate_pairs([f"Gość {n}" for n in range(1, 3001)], limit=100)
    print(f"\n3,000 guests 'Gość N', first 100 suggestions: {compared:,} pairs compared")
    assert len(pairs) == 100
    assert compared < 2_000
