"""The packed columns (display/packing.py): fewer pages, every field findable, the strength order kept."""

from __future__ import annotations

import pytest
from wall_clubs import survey_club

from display import columns
from display.canvas import Canvas
from display.profiles import profile
from display.render import board_layout, board_pages, gutter, header_box
from kiosk.scale import QUARTERS


def laid(count: int, name: str, orientation: str) -> tuple[columns.Plan, tuple[int, int, int, int]]:
    """The plan the board page uses for the survey club of ``count`` magnets, and its columns' area."""
    panel = profile(name)
    canvas = Canvas(panel, panel.canvas(orientation))
    plan, area, _ = board_layout(survey_club(count), 13, canvas, header_box(canvas)[1])
    assert plan is not None
    return plan, area


@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
def test_the_120_club_takes_fewer_pages_of_the_7_3_than_columns_of_one_width_did(orientation: str) -> None:
    """4 pages in either orientation before; the labels cover about 1.3 pages."""
    assert board_pages(survey_club(120), 13, profile("impression-7.3"), orientation) <= 3


@pytest.mark.parametrize("name", ["impression-7.3", "impression-5.7"])
def test_a_packed_board_keeps_the_scale_in_order_every_field_numbered_where_its_magnets_hang(name: str) -> None:
    plan, area = laid(120, name, "landscape")
    assert any(page.widths for page in plan.pages)  # packed: each column its own width
    strengths: list[int] = []
    held: set[int] = set()
    for page in plan.pages:
        assert sum(page.widths) + gutter(Canvas(profile(name), profile(name).canvas())) * (len(page.widths) - 1) <= (
            area[2] - area[0]
        )
        for column in page.columns:
            for piece in column:
                if piece.kind != "field":
                    continue
                field = None
                for line, number in zip(piece.lines, piece.numbers, strict=True):
                    field = field if number is None else number  # a field's next lines go on under its number
                    for label in line:
                        if label.magnet is None and label.field is not None and not label.empty:
                            field = label.field  # a field's number before its magnets, inside the line
                        elif label.magnet is not None:
                            # every magnet stands after its own field's number: found by its strength
                            assert field == label.magnet.strength, (label.text, field)
                            strengths.append(label.magnet.strength // QUARTERS)
                            held.add(label.magnet.strength)
    assert strengths == sorted(strengths, reverse=True)  # strongest first, column after column, page after page
    assert held == {m.strength for m in survey_club(120).on_size(13)}


def test_a_page_break_cuts_only_a_field_too_crowded_for_a_column_and_its_number_goes_on() -> None:
    plan, _ = laid(120, "impression-7.3", "landscape")
    for above, below in zip(plan.pages, plan.pages[1:], strict=False):
        if above.lowest == below.highest:  # field 20's forty magnets go on over the break
            assert above.lowest == 20 * QUARTERS
            first = next(piece for piece in below.columns[0] if piece.kind == "field")
            assert first.numbers[0] == 20 * QUARTERS  # the next page starts with its number
        else:
            assert above.lowest > below.highest
