"""The handicap before a game (docs/rules.md §3)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.handicap import DEFAULT_SIZE_RULES, EVEN, Handicap, handicap_for, komi, size_from, table
from kiosk.scale import quarters


def handicap(size: int, difference: float) -> Handicap:
    return handicap_for(quarters(difference), DEFAULT_SIZE_RULES[size])


# docs/rules.md §3, "Worked values (they are tests)": size, d, result.
WORKED_VALUES = [
    (9, 2.5, None),
    (9, 3, (1, 0, False)),
    (9, 9.5, (2, 0, False)),
    (9, 22.5, (4, 0, True)),
    (13, 1, None),
    (13, 1.25, (1, 0, False)),
    (13, 14.25, (6, 0, True)),
    (19, 0.25, None),
    (19, 0.5, (1, 0, False)),
    (19, 1, (1, 7, False)),
    (19, 7.5, (8, 0, True)),
]


@pytest.mark.parametrize(("size", "difference", "expected"), WORKED_VALUES)
def test_worked_values_of_rules_3(size: int, difference: float, expected: tuple[int, int, bool] | None) -> None:
    h = handicap(size, difference)
    if expected is None:
        assert h.even
        assert h == EVEN
        assert not h.training
    else:
        moves, prisoners, training = expected
        assert not h.even
        assert (h.moves, h.prisoners, h.training) == (moves, prisoners, training)


def test_equal_players_play_even() -> None:
    for size in (9, 13, 19):
        assert handicap(size, 0).even


def test_the_smallest_entry_of_the_9x9_table_is_a_difference_of_3() -> None:
    assert handicap(9, 2.75).even
    assert handicap(9, 3) == Handicap(even=False, moves=1, prisoners=0)


def test_one_more_move_every_6_5_on_9x9_and_every_1_on_19x19() -> None:
    assert handicap(9, 3 + 6.5).moves == 2
    assert handicap(9, 3 + 2 * 6.5).moves == 3
    assert handicap(9, 3 + 6.5 - 0.5).moves == 1
    assert [handicap(19, 0.5 + k).moves for k in range(10)] == list(range(1, 11))


def test_the_table_has_no_last_row() -> None:
    # 40 x 13 - 6.5 = 513.5, rounded 514 = 39 moves of 13 points and 7 more.
    assert handicap(19, 40) == Handicap(even=False, moves=40, prisoners=7, training=True)


def test_ties_go_blacks_way() -> None:
    # 9x9, d = 3: need = 6 - 6.5 = -0.5, rounded half up to 0: a handicap game, not even.
    assert not handicap(9, 3).even
    # 19x19, d = 1: need = 13 - 6.5 = 6.5, rounded half up to 7 prisoners.
    assert handicap(19, 1).prisoners == 7


def test_black_never_gets_13_prisoners_they_become_a_move() -> None:
    assert handicap(9, 9) == Handicap(even=False, moves=1, prisoners=12)
    assert handicap(9, 9.5) == Handicap(even=False, moves=2, prisoners=0)


def test_a_training_game_starts_at_the_sizes_training_moves() -> None:
    assert not handicap(9, 22).training and handicap(9, 22).moves == 3
    assert handicap(13, 14) == Handicap(even=False, moves=5, prisoners=12)
    assert not handicap(19, 7).training


def test_the_9x9_table_has_13_one_point_rungs_before_the_first_free_move() -> None:
    cells = table(DEFAULT_SIZE_RULES[9])
    assert cells[0].handicap.even
    one_move = [c for c in cells if not c.handicap.even and c.handicap.moves == 1]
    assert [c.handicap.prisoners for c in one_move] == list(range(13))
    # Each rung is one point, half a strength on 9x9: two quarter differences.
    assert all(c.highest - c.lowest == 1 for c in one_move)


def test_a_printed_table_shows_the_range_of_differences_of_each_cell() -> None:
    cells = table(DEFAULT_SIZE_RULES[9])
    assert (cells[0].lowest, cells[0].highest) == (0, quarters(2.75))
    assert cells[1].lowest == quarters(3)
    # The cells follow each other without gaps, up to the training-game row.
    assert all(a.highest + 1 == b.lowest for a, b in itertools.pairwise(cells))
    assert cells[-1].handicap.moves == DEFAULT_SIZE_RULES[9].training_moves
    for cell in cells:
        assert handicap_for(cell.lowest, DEFAULT_SIZE_RULES[9]) == cell.handicap
        assert handicap_for(cell.highest, DEFAULT_SIZE_RULES[9]) == cell.handicap


def test_handicap_object_in_the_replay_output() -> None:
    assert handicap(9, 1).to_json() == {"even": True}
    assert handicap(9, 9.5).to_json() == {"even": False, "moves": 2, "prisoners": 0}


@given(st.sampled_from([9, 13, 19]), st.integers(0, 60 * 4))
def test_moves_and_prisoners_are_the_rounded_points_of_rules_3(size: int, difference: int) -> None:
    rules = DEFAULT_SIZE_RULES[size]
    need = Fraction(difference, 4) * rules.points_per_strength - Fraction(13, 2)
    t = math.floor(need + Fraction(1, 2))
    h = handicap_for(difference, rules)
    if t < 0:
        assert h.even
    else:
        assert (h.moves - 1) * 13 + h.prisoners == t
        assert 0 <= h.prisoners < 13
        assert h.training == (h.moves >= rules.training_moves)


@given(st.sampled_from([9, 13, 19]), st.integers(0, 60 * 4))
def test_a_bigger_difference_never_gets_a_smaller_handicap(size: int, difference: int) -> None:
    rules = DEFAULT_SIZE_RULES[size]

    def points(h: Handicap) -> int:
        return -1 if h.even else h.moves * 13 + h.prisoners

    assert points(handicap_for(difference + 1, rules)) >= points(handicap_for(difference, rules))


@pytest.mark.parametrize(
    ("text", "size"),
    [("9", 9), ("13", 13), ("19", 19), ("12", None), ("013", None), (" 13", None), ("", None), (None, None)],
)
def test_a_size_written_as_text_is_one_of_the_three_boards_or_none(text: str | None, size: int | None) -> None:
    assert size_from(text) == size


def test_komi_is_written_as_the_club_writes_it() -> None:
    assert komi("en") == "6.5" and komi("pl") == "6,5"
