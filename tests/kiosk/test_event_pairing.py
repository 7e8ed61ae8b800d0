"""Pairing constraints: pairs not to meet early, and a Swiss's round 1 adjacent or folded."""

from __future__ import annotations

import random
from datetime import date, datetime

import pytest

from kiosk.errors import HistoryError
from kiosk.event_pairing import early_rounds
from kiosk.events import nick_key
from kiosk.pairing import Side
from kiosk.tiebreak import Choices
from kiosk.tournament import (
    A_WINS,
    B_WINS,
    ROUND_ROBIN,
    SWISS,
    Seat,
    Tournament,
    first_rounds,
    fold,
    next_round,
    rounds_for,
    start_line,
)

FIELD = [Side(f"p{i:02}", 200 - 4 * i, False, False) for i in range(12)]  # p00 strongest


def _pairs(seats: list[Seat]) -> list[tuple[str, str | None]]:
    return [(s.a, s.b) for s in seats]


def test_round_one_adjacent_is_as_before_and_fold_is_strongest_against_weakest() -> None:
    adjacent = first_rounds(SWISS, FIELD)
    assert _pairs(adjacent)[:2] == [("p00", "p01"), ("p02", "p03")]
    folded = first_rounds(SWISS, FIELD, first_round="fold")
    assert _pairs(folded) == [
        ("p00", "p11"),
        ("p01", "p10"),
        ("p02", "p09"),
        ("p03", "p08"),
        ("p04", "p07"),
        ("p05", "p06"),
    ]
    odd = first_rounds(SWISS, FIELD[:11], first_round="fold")
    assert odd[-1] == Seat(1, 6, "p10", None)  # the weakest has the bye, the rest folded
    assert _pairs(odd)[0] == ("p00", "p09")


def _play(event: Tournament, chance: random.Random) -> Tournament:
    """Play the Swiss out with random results, each round paired as the store pairs it."""
    seats = list(event.seats)
    while True:
        seats = [s if s.b is None or s.result else s._replace(result=chance.choice([A_WINS, B_WINS])) for s in seats]
        event = Tournament(**{**{n: getattr(event, n) for n in Tournament.__slots__}, "seats": tuple(seats)})
        more = next_round(event)
        if not more:
            return event
        seats += more


@pytest.mark.parametrize("seed", range(8))
def test_marked_pairs_do_not_meet_in_the_first_half_of_a_swiss(seed: int) -> None:
    chance = random.Random(seed)
    # Siblings of neighbouring strength (adjacent round 1 would pair them) and a parent with a child.
    avoid = (("p00", "p01"), ("p04", "p05"), ("p02", "p11"))
    line = start_line(1, datetime(2026, 12, 1, 18), date(2026, 12, 1), 13, FIELD, True, "", None, Choices(avoid=avoid))
    event = _play(fold([(1, line)])[1].tournament, chance)
    early = early_rounds(event.rounds)
    marked = {frozenset(p) for p in avoid}
    for seat in event.seats:
        if seat.b is not None and seat.round <= early:
            assert frozenset((seat.a, seat.b)) not in marked, seat
    met = {frozenset((s.a, s.b)) for s in event.seats if s.b is not None}
    assert len(met) == sum(1 for s in event.seats if s.b is not None)  # never a rematch


def test_a_marked_pair_meets_when_nothing_else_is_possible() -> None:
    four = FIELD[:4]
    # Round 2 of four players after 1-2, 3-4: the only new pairings are 1-3 2-4 and 1-4 2-3; marking all four pairs
    # leaves none, so the round is still paired (an early meeting is avoided, never made impossible).
    earlier = [Seat(1, 1, "p00", "p01", A_WINS), Seat(1, 2, "p02", "p03", A_WINS)]
    avoid = (("p00", "p02"), ("p01", "p03"), ("p00", "p03"), ("p01", "p02"))
    event = Tournament(1, date(2026, 12, 1), 13, SWISS, 3, True, tuple(four), tuple(earlier), avoid=avoid)
    assert len([s for s in next_round(event) if s.b is not None]) == 2


def test_a_round_robin_plays_a_marked_pair_as_late_as_the_table_allows() -> None:
    eight = FIELD[:8]
    plain = first_rounds(ROUND_ROBIN, eight)
    pair = ("p00", "p01")
    when = next(s.round for s in plain if {s.a, s.b} == set(pair))
    moved = first_rounds(ROUND_ROBIN, eight, avoid=(pair,))
    assert next(s.round for s in moved if {s.a, s.b} == set(pair)) == rounds_for(ROUND_ROBIN, 8) != when
    # The same games, only in another order of rounds.
    assert sorted((s.a, s.b) for s in plain) == sorted((s.a, s.b) for s in moved)


@pytest.mark.parametrize(
    "choices",
    [Choices(avoid=(("p00", "nobody"),)), Choices(avoid=(("p00", "P00"),)), Choices(first_round="snake")],
)
def test_bad_constraints_are_refused(choices: Choices) -> None:
    with pytest.raises(HistoryError) as caught:
        start_line(1, datetime(2026, 12, 1, 18), date(2026, 12, 1), 13, FIELD, True, "", None, choices)
    assert caught.value.code in {"bad-avoid", "bad-first-round"}
    assert nick_key("P00") == nick_key("p00")
