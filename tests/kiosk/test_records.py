"""A player's record per size and against each opponent."""

from __future__ import annotations

from datetime import datetime

from kiosk.board import GameResult
from kiosk.handicap import EVEN
from kiosk.records import by_size, head_to_head


def game(day: int, size: int, a: str, b: str, winner: str | None) -> GameResult:
    return GameResult(day, datetime(2026, 11, day, 18), size, (a, b), winner, "resignation", None, EVEN, {})


GAMES = [
    game(2, 9, "Ala", "Ola", "Ala"),
    game(3, 9, "Ola", "ala", "Ola"),
    game(4, 13, "Ala", "Ewa", None),
    game(5, 9, "Ala", "Ewa", "Ala"),
    game(6, 9, "Ola", "Ewa", "Ewa"),
]


def test_wins_losses_and_draws_per_size() -> None:
    tallies = by_size("ALA", GAMES)
    assert list(tallies) == [9, 13]
    assert (tallies[9].wins, tallies[9].losses, tallies[9].draws) == (2, 1, 0)
    assert (tallies[13].wins, tallies[13].losses, tallies[13].draws) == (0, 0, 1)


def test_head_to_head_latest_opponent_first() -> None:
    found = head_to_head("Ala", GAMES)
    assert [name for name, _ in found] == ["Ewa", "Ola"]
    ewa, ola = found[0][1], found[1][1]
    assert (ewa.wins, ewa.losses, ewa.draws, ewa.games) == (1, 0, 1, 2)
    assert (ola.wins, ola.losses) == (1, 1) and ola.usual_size == 9
