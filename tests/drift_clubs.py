"""Synthetic clubs whose drift is known by construction: the drift tests of kiosk, the CLI and the web."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

START = datetime(2026, 1, 5, 18, 0)  # a Monday
INFLATED = ("Ala", "Bolek", "Cyryl", "Dorota")


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def inflating_club(weeks: int = 10) -> list[dict[str, Any]]:
    """Four members at 10 on 13x13. Every Monday two pairs play twice, each player losing once: every loss is
    the week's free one, so every magnet gains one unmatched arrow (1 strength below 30) a week."""
    lines: list[dict[str, Any]] = [
        {"type": "player", "at": stamp(START), "nick": n, "size": 13, "status": "member", "strength": 10}
        for n in INFLATED
    ]
    for week in range(weeks):
        day = START + timedelta(weeks=week, hours=1)
        for a, b in (("Ala", "Bolek"), ("Cyryl", "Dorota")):
            lines.append({"type": "game", "at": stamp(day), "size": 13, "players": [a, b], "winner": a, "by": 3})
            day += timedelta(minutes=30)
            lines.append({"type": "game", "at": stamp(day), "size": 13, "players": [a, b], "winner": b, "by": 3})
            day += timedelta(minutes=30)
    return lines


GROUP_A = ("Ania", "Asia", "Ada", "Agata")
GROUP_B = ("Bartek", "Bożena", "Борис")
GROUPS_START = datetime(2026, 9, 7, 18, 0)  # a Monday
OFFSET = 5  # group B plays 5 strengths above its numbers


def two_groups() -> list[dict[str, Any]]:
    """Two groups of 13x13 players at 20 who play among themselves (each pair three times), and three games
    between them in which the B player wins by 5 strengths' worth of points more than the handicap (an even
    game) expected: 25 points."""
    lines: list[dict[str, Any]] = [
        {"type": "player", "at": stamp(GROUPS_START), "nick": n, "size": 13, "status": "member", "strength": 20}
        for n in GROUP_A + GROUP_B
    ]
    day = GROUPS_START + timedelta(hours=1)
    for a, b in zip(GROUP_A, GROUP_B, strict=False):
        lines.append({"type": "game", "at": stamp(day), "size": 13, "players": [a, b], "winner": b, "by": 25})
        day += timedelta(minutes=10)
    day = GROUPS_START + timedelta(weeks=1)
    for group in (GROUP_A, GROUP_B):
        for a, b in combinations(group, 2):
            for winner in (a, b, a):
                lines.append(
                    {"type": "game", "at": stamp(day), "size": 13, "players": [a, b], "winner": winner, "by": 2}
                )
                day += timedelta(days=1)
    return lines
