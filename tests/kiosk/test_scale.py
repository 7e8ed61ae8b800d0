"""The scale of fields and arrows, and grade conversion (docs/rules.md §1, §2)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.scale import (
    DEFAULT_TOP,
    arrows_between,
    as_number,
    columns,
    decimal_point,
    fields,
    format_strength,
    from_grade,
    is_field,
    move_arrows,
    nearest_field,
    quarters,
    to_grade,
    typed_number,
    written,
)

FIELDS = fields()
any_field = st.sampled_from(FIELDS)


def q(strength: float) -> int:
    return quarters(strength)


def test_the_scale_has_115_fields_from_0_to_56() -> None:
    assert len(FIELDS) == 115
    assert FIELDS[0] == 0
    assert FIELDS[-1] == q(56)
    assert list(FIELDS) == sorted(set(FIELDS))


def test_fields_are_whole_to_30_halves_to_40_quarters_to_the_top() -> None:
    numbers = [as_number(f) for f in FIELDS]
    assert numbers[:32] == [*range(31), 30.5]
    assert 29.5 not in numbers and 30.25 not in numbers
    assert [n for n in numbers if 39 <= n <= 40.5] == [39, 39.5, 40, 40.25, 40.5]
    assert numbers[-3:] == [55.5, 55.75, 56]
    assert sum(1 for n in numbers if n <= 30) == 31
    assert sum(1 for n in numbers if 30 < n <= 40) == 20
    assert sum(1 for n in numbers if n > 40) == 64


def test_the_printed_board_has_57_rows_one_per_whole_strength() -> None:
    rows: dict[int, list[int]] = {}
    for field in FIELDS:
        rows.setdefault(field // 4, []).append(field)
    assert len(rows) == 57
    # Split into halves from 30 to 40 and quarters from 40 up.
    assert [len(rows[n]) for n in (29, 30, 39, 40, 55, 56)] == [1, 2, 2, 4, 4, 1]


@pytest.mark.parametrize("strength", [-1, -0.25, 0.5, 29.5, 30.25, 39.75, 56.25, 57])
def test_numbers_between_or_outside_fields_are_not_fields(strength: float) -> None:
    assert not is_field(q(strength))


@pytest.mark.parametrize(
    ("start", "up", "down"),
    [
        (0, 1, 0),  # zero has no arrow down
        (10, 11, 9),
        (29, 30, 28),
        (30, 30.5, 29),  # the arrow down from 30 is still a whole one
        (30.5, 31, 30),
        (39.5, 40, 39),
        (40, 40.25, 39.5),
        (40.25, 40.5, 40),
        (55.75, 56, 55.5),
        (56, 56, 55.75),  # the top has no arrow up
    ],
)
def test_one_arrow_up_and_down(start: float, up: float, down: float) -> None:
    assert as_number(move_arrows(q(start), 1)) == up
    assert as_number(move_arrows(q(start), -1)) == down


def test_arrows_are_worth_1_low_half_in_the_middle_and_a_quarter_at_the_top() -> None:
    assert move_arrows(q(12), 1) - q(12) == q(1)
    assert move_arrows(q(33), 1) - q(33) == q(0.5)
    assert move_arrows(q(45), 1) - q(45) == q(0.25)


def test_two_arrows_cross_a_tier_boundary_field_by_field() -> None:
    assert as_number(move_arrows(q(29), 2)) == 30.5
    assert as_number(move_arrows(q(30.5), -2)) == 29
    assert as_number(move_arrows(q(39.5), 2)) == 40.25
    assert as_number(move_arrows(q(40.25), -2)) == 39.5


def test_arrows_stop_at_0_and_at_the_top() -> None:
    assert move_arrows(q(1), -2) == 0
    assert move_arrows(0, -2) == 0
    assert move_arrows(q(55.75), 2) == q(56)
    assert move_arrows(q(56), 2) == q(56)


def test_a_lower_top_stops_arrows_there() -> None:
    assert move_arrows(q(49.75), 2, top=q(50)) == q(50)
    assert not is_field(q(50.25), top=q(50))
    assert len(fields(q(50))) == 115 - 24


@given(any_field, st.integers(-3, 3))
def test_arrows_always_land_on_a_field(start: int, arrows: int) -> None:
    assert is_field(move_arrows(start, arrows))


@given(any_field)
def test_an_arrow_goes_to_the_neighbouring_field(start: int) -> None:
    index = FIELDS.index(start)
    assert move_arrows(start, 1) == FIELDS[min(index + 1, len(FIELDS) - 1)]
    assert move_arrows(start, -1) == FIELDS[max(index - 1, 0)]


@given(any_field.filter(lambda f: 0 < f < DEFAULT_TOP))
def test_an_arrow_up_then_down_comes_back(start: int) -> None:
    assert move_arrows(move_arrows(start, 1), -1) == start
    assert move_arrows(move_arrows(start, -1), 1) == start


@pytest.mark.parametrize(
    ("value", "nearest"),
    [
        (-3, 0),
        (0, 0),
        (29.25, 29),
        (29.5, 30),  # a tie goes to the higher field
        (29.75, 30),
        (30.25, 30.5),  # a tie again
        (33, 33),
        (39.75, 40),
        (60, 56),
    ],
)
def test_nearest_field(value: float, nearest: float) -> None:
    assert as_number(nearest_field(q(value))) == nearest


@given(st.integers(-400, 400))
def test_nearest_field_is_a_field_no_other_field_is_nearer(value: int) -> None:
    found = nearest_field(value)
    assert is_field(found)
    clamped = min(max(value, 0), DEFAULT_TOP)
    distance = abs(found - clamped)
    assert all(abs(f - clamped) >= distance for f in FIELDS)
    # A tie goes up: a field at the same distance below is never chosen.
    assert not any(abs(f - clamped) == distance and f > found for f in FIELDS)


@pytest.mark.parametrize(
    ("grade", "start"),
    [({"kyu": 10}, 37.5), ({"kyu": 25}, 20), ({"dan": 1}, 48.75)],
)
def test_grade_examples_of_rules_2(grade: dict[str, int], start: float) -> None:
    assert as_number(from_grade(**grade)) == start


def test_a_declared_grade_starts_5_arrows_below_its_conversion() -> None:
    assert from_grade(kyu=50) == 0  # 0 has no arrows down
    assert as_number(from_grade(kyu=1)) == 47.75  # 49 minus five quarters
    assert as_number(from_grade(dan=9)) == 54.75  # 58 is above the top: 56 minus five quarters


def test_grade_needs_either_kyu_or_dan() -> None:
    with pytest.raises(ValueError):
        from_grade()
    with pytest.raises(ValueError):
        from_grade(kyu=1, dan=1)


@pytest.mark.parametrize(
    ("strength", "grade"),
    [(0, "50 kyu"), (40, "10 kyu"), (49, "1 kyu"), (49.75, "1 kyu"), (50, "1 dan"), (51, "2 dan"), (56, "7 dan")],
)
def test_conversion_to_official_grades(strength: float, grade: str) -> None:
    assert to_grade(q(strength)) == grade


def test_strength_is_exact_quarters() -> None:
    assert quarters(33.5) == 134
    assert quarters(Fraction(81, 4)) == 81
    assert quarters("40.25") == 161
    for bad in (0.1, 1 / 3, True):
        with pytest.raises(ValueError):
            quarters(bad)


def test_strengths_print_as_people_write_them() -> None:
    assert as_number(q(27)) == 27 and isinstance(as_number(q(27)), int)
    assert as_number(q(33.5)) == 33.5
    assert [format_strength(q(s)) for s in (27, 33.5, 40.25)] == ["27", "33.5", "40.25"]


@settings(max_examples=100)
@given(any_field)
def test_quarters_and_numbers_round_trip(field: int) -> None:
    assert quarters(as_number(field)) == field


def test_arrows_between_counts_arrows_not_quarters() -> None:
    assert arrows_between(q(20), q(21)) == 1
    assert arrows_between(q(40), q(41)) == 4  # above 40 an arrow is a quarter
    assert arrows_between(q(29), q(31)) == 3  # 29 → 30, then two half arrows
    assert arrows_between(q(31), q(29)) == -3
    assert arrows_between(q(33.5), q(33.5)) == 0


@settings(max_examples=200)
@given(any_field, st.integers(min_value=-60, max_value=60))
def test_arrows_between_undoes_move_arrows(field: int, arrows: int) -> None:
    moved = move_arrows(field, arrows)
    assert move_arrows(field, arrows_between(field, moved)) == moved
    if 0 < moved < DEFAULT_TOP:  # not stopped at either end of the scale
        assert arrows_between(field, moved) == arrows


def test_the_board_hangs_in_columns_of_ten_and_a_short_top_joins_the_column_below() -> None:
    assert columns(q(56)) == (
        (q(50), q(56)),
        (q(40), q(49.75)),
        (q(30), q(39.75)),
        (q(20), q(29.75)),
        (q(10), q(19.75)),
        (q(0), q(9.75)),
    )
    assert columns(q(53))[0] == (q(40), q(53))  # 50–53 spans only three strengths
    assert columns(q(54))[0] == (q(50), q(54))
    assert columns(q(5)) == ((0, q(5)),)


@pytest.mark.parametrize(
    ("typed", "text"), [(" 27,5 ", "27.5"), ("27.5", "27.5"), ("", ""), (None, ""), ("Ola", "Ola")]
)
def test_a_decimal_comma_reads_as_a_point(typed: str | None, text: str) -> None:
    assert decimal_point(typed) == text


def test_a_number_is_written_with_a_decimal_comma_in_polish() -> None:
    assert written(Fraction(13, 2), "en") == "6.5" and written(Fraction(13, 2), "pl") == "6,5"
    assert written(Fraction(7), "pl") == "7" and written(Fraction(161, 4), "pl") == "40,25"


@pytest.mark.parametrize(
    ("typed", "number"),
    [("7", 7.0), ("7,5", 7.5), (" 7.5 ", 7.5), (".5", 0.5), ("12.", 12.0), ("0", 0.0)]
    + [(quirk, None) for quirk in ["1_0", "1e3", "inf", "nan", "١٠", "-3", "+3", "1.2.3", "7,5,0", "1 0", "", None]],
)
def test_a_typed_number_is_digits_with_one_decimal_point_or_comma(typed: str | None, number: float | None) -> None:
    assert typed_number(typed) == number
    if typed != "-3":
        assert typed_number(typed, signed=True) == number


def test_a_signed_typed_number_keeps_its_minus_for_the_core_to_refuse() -> None:
    assert typed_number("-3,5", signed=True) == -3.5 and typed_number("-1_0", signed=True) is None
