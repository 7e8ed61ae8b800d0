"""The strength scale: fields, arrows and grade conversion (docs/rules.md §1, §2).

Strength is kept in quarters (an ``int``) everywhere in the core: every field of the
scale is a whole number of quarters, so the rules never touch binary floats.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

Quarters = int

QUARTERS = 4
# Where the arrows get finer: below 30 an arrow is 1, up to 40 it is 0.5, above 0.25.
HALF_TIER_FROM: Quarters = 30 * QUARTERS
QUARTER_TIER_FROM: Quarters = 40 * QUARTERS
DEFAULT_TOP: Quarters = 56 * QUARTERS
# The board hangs in columns of ten strengths; a stub column of fewer than four
# strengths at the top would look lost, so it joins the column below.
COLUMN_SPAN: Quarters = 10 * QUARTERS
SHORTEST_COLUMN: Quarters = 4 * QUARTERS

# Official grades: 1 strength is one grade, 0 is 50 kyu, 49 is 1 kyu, 50 is 1 dan.
GRADE_ARROWS_BELOW = 5
MAX_KYU = 50
MAX_DAN = 9


def step_up(q: Quarters) -> Quarters:
    """Size in quarters of the arrow up from field ``q``."""
    if q < HALF_TIER_FROM:
        return 4
    if q < QUARTER_TIER_FROM:
        return 2
    return 1


def step_down(q: Quarters) -> Quarters:
    """Size in quarters of the arrow down from field ``q``."""
    if q <= HALF_TIER_FROM:
        return 4
    if q <= QUARTER_TIER_FROM:
        return 2
    return 1


def is_field(q: Quarters, top: Quarters = DEFAULT_TOP) -> bool:
    """True when ``q`` quarters is a field of the scale."""
    if q < 0 or q > top:
        return False
    if q <= HALF_TIER_FROM:
        return q % 4 == 0
    if q <= QUARTER_TIER_FROM:
        return q % 2 == 0
    return True


@lru_cache(maxsize=8)
def fields(top: Quarters = DEFAULT_TOP) -> tuple[Quarters, ...]:
    """Every field from 0 to the top, lowest first."""
    return tuple(q for q in range(0, top + 1) if is_field(q, top))


def move_arrows(q: Quarters, arrows: int, top: Quarters = DEFAULT_TOP) -> Quarters:
    """The field ``arrows`` arrows up (positive) or down from ``q``; stops at 0 and top."""
    for _ in range(arrows):
        if q >= top:
            return top
        q += step_up(q)
    for _ in range(-arrows):
        if q <= 0:
            return 0
        q -= step_down(q)
    return q


def arrows_between(a: Quarters, b: Quarters) -> int:
    """How many arrows lead from field ``a`` to field ``b``: positive up, negative down."""
    arrows = 0
    while a < b:
        a += step_up(a)
        arrows += 1
    while a > b:
        a -= step_down(a)
        arrows -= 1
    return arrows


def columns(top: Quarters = DEFAULT_TOP) -> tuple[tuple[Quarters, Quarters], ...]:
    """The board's columns as (lowest, highest) fields, strongest first: 50–top, 40–49, ..., 0–9."""
    lows = list(range(0, top + 1, COLUMN_SPAN))
    if len(lows) > 1 and top - lows[-1] < SHORTEST_COLUMN:
        lows.pop()
    return tuple((low, top if index == 0 else low + COLUMN_SPAN - 1) for index, low in enumerate(reversed(lows)))


def nearest_field(q: Quarters, top: Quarters = DEFAULT_TOP) -> Quarters:
    """The field nearest to ``q`` quarters; a tie goes to the higher field (docs/rules.md §5)."""
    if q <= 0:
        return 0
    if q >= top:
        return top
    if is_field(q, top):
        return q
    below = q - 1
    while not is_field(below, top):
        below -= 1
    above = q + 1
    while not is_field(above, top):
        above += 1
    return below if q - below < above - q else above


def from_grade(kyu: int | None = None, dan: int | None = None, top: Quarters = DEFAULT_TOP) -> Quarters:
    """A guest's starting field from a declared grade: the conversion, 5 arrows lower."""
    if (kyu is None) == (dan is None):
        raise ValueError("give either kyu or dan")
    grade = 50 - kyu if kyu is not None else 49 + (dan or 0)  # dan is given when kyu is not
    converted = min(max(grade * QUARTERS, 0), top)
    return move_arrows(converted, -GRADE_ARROWS_BELOW, top)


def to_grade(q: Quarters) -> str:
    """The official grade a field converts to, e.g. ``"10 kyu"`` or ``"2 dan"``."""
    whole = q // QUARTERS
    if whole >= 50:
        return f"{whole - 49} dan"
    return f"{50 - whole} kyu"


def quarters(value: int | float | str | Fraction) -> Quarters:
    """Exact quarters of a strength given as a number; ``ValueError`` when not a quarter."""
    if isinstance(value, bool):
        raise ValueError("not a number")
    exact = Fraction(value) * QUARTERS
    if exact.denominator != 1:
        raise ValueError("not a whole number of quarters")
    return int(exact)


def decimal_point(typed: str | None) -> str:
    """A number as a person typed it, trimmed, with a decimal comma (``27,5`` on Polish phones) read as a point."""
    return (typed or "").strip().replace(",", ".")


def decimal_mark(text: str, language: str) -> str:
    """A number's text with the language's decimal mark: ``6.5``, and in Polish ``6,5`` (``decimal_point`` reads
    either back)."""
    return text.replace(".", ",") if language == "pl" else text


def written(value: Fraction, language: str) -> str:
    """A number as the club writes it: ``6.5``, and in Polish with a decimal comma, ``6,5``."""
    return decimal_mark(str(value.numerator) if value.denominator == 1 else f"{float(value):g}", language)


# Digits with at most one decimal point, as a person types a number (after ``decimal_point``): ASCII digits only.
_TYPED_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")


def typed_number(typed: str | None, signed: bool = False) -> float | None:
    """A number typed into a form: digits with one optional decimal point or comma ("7", "7.5", "7,5"), and a
    leading minus when ``signed`` (for the core to refuse in its words); None for anything else, also for what
    Python's float() would take but no person means ("1_0" is ten, "1e3", "inf", "nan", other scripts' digits)."""
    text = decimal_point(typed)
    number = text[1:] if signed and text.startswith("-") else text
    return float(text) if _TYPED_NUMBER.fullmatch(number) else None


def as_number(q: Quarters) -> int | float:
    """A strength as a JSON number: ``27`` or ``33.5`` (quarters are exact in binary)."""
    return q // QUARTERS if q % QUARTERS == 0 else q / QUARTERS


def format_strength(q: Quarters) -> str:
    """A strength as people write it on the board: ``27``, ``33.5``, ``40.25``."""
    return str(as_number(q))
