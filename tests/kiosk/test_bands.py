"""The board's coloured columns (kiosk/bands.py): which fields hang where, in which ink."""

from __future__ import annotations

from kiosk.bands import bands, fields_of, grouped
from kiosk.board import Magnet
from kiosk.scale import QUARTERS


def test_the_column_headers_give_the_official_grades() -> None:
    titles = {band.title: band.grades for band in bands(56 * QUARTERS)}
    assert titles["40–49"] == "10–1 kyu" and titles["50–56"] == "1–7 dan" and titles["0–9"] == "50–41 kyu"


def test_each_column_has_its_own_colour_and_black_and_red_panels_use_patterns() -> None:
    colourful = bands(56 * QUARTERS, colourful=True)
    assert len({(b.ink, b.header) for b in colourful}) == len(colourful)
    two_ink = bands(56 * QUARTERS, colourful=False)
    assert {b.ink for b in two_ink} <= {"black", "red"}
    assert len({(b.ink, b.header) for b in two_ink}) == len(two_ink)
    assert {b.title for b in colourful} == {"0–9", "10–19", "20–29", "30–39", "40–49", "50–56"}


def test_the_phones_board_hangs_each_magnet_in_its_column_strongest_field_first() -> None:
    ola, ala, ela = (
        Magnet("Ola", 13, 4 * QUARTERS, "member"),
        Magnet("ala", 13, 4 * QUARTERS, "member"),
        Magnet("Ela", 13, 45 * QUARTERS, "guest"),
    )
    groups = grouped((ola, ala, ela), bands(56 * QUARTERS))
    assert [(band.title, [(q, [m.nick for m in held]) for q, held in fields]) for band, fields in groups] == [
        ("40–49", [(45 * QUARTERS, ["Ela"])]),
        ("0–9", [(4 * QUARTERS, ["ala", "Ola"])]),
    ]


def test_a_column_holds_its_fields_strongest_first() -> None:
    # Below 10 the fields are whole strengths only (docs/rules.md §1).
    lowest = bands(56 * QUARTERS)[-1]
    assert fields_of(lowest, 56 * QUARTERS) == tuple(n * QUARTERS for n in range(9, -1, -1))
