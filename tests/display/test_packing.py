"""The packed columns (display/packing.py): fewer pages, every field findable, the strength order kept."""

from __future__ import annotations

from functools import lru_cache

import pytest
from wall_clubs import survey_club as new_survey_club

from display import columns
from display.canvas import Canvas
from display.columns import Typeface, drawn_part, label_for, wrap_name
from display.fonts import NICK, font, width
from display.profiles import profile
from display.render import board_layout, board_pages, board_report, gutter, header_box
from kiosk.board import Magnet
from kiosk.scale import QUARTERS

# One club object per size: the wall keeps its last layouts of the very same data, so the tests below share them.
survey_club = lru_cache(maxsize=None)(new_survey_club)

# The survey clubs' pages on every panel (landscape, portrait), from real layouts: a change that costs a page fails.
PAGES = {
    "impression-13.3": {30: (1, 1), 120: (1, 1), 250: (2, 2)},
    "impression-7.3": {30: (1, 1), 120: (3, 3), 250: (6, 6)},
    "impression-5.7": {30: (2, 1), 120: (5, 4), 250: (9, 8)},
    "impression-4": {30: (4, 4), 120: (12, 11), 250: (26, 23)},
    "what": {30: (3, 3), 120: (10, 10), 250: (21, 22)},
}
# Where the last page still holds a few magnets beside full ones (one column a page: the breaks fall between
# fields, and no shorter column keeps the pages as few).
NEAR_EMPTY_LAST = {("impression-4", 250, "portrait"), ("what", 250, "portrait")}


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


@pytest.mark.parametrize("name", list(PAGES))
def test_each_survey_club_takes_no_more_pages_than_measured(name: str) -> None:
    for count, expected in PAGES[name].items():
        found = tuple(board_pages(survey_club(count), 13, profile(name), o) for o in ("landscape", "portrait"))
        assert found <= expected and all(a <= b for a, b in zip(found, expected, strict=True)), (count, found)


@pytest.mark.parametrize("name", ["impression-13.3", "impression-7.3", "impression-5.7", "impression-4"])
def test_thirty_magnets_take_one_page_where_the_panel_holds_them(name: str) -> None:
    """The 13.3", the 7.3" and the 5.7" in portrait hold 30 magnets on one page; the 4" and the 5.7" in landscape
    need more (their labels, ticks and headers cover more than a page at the 3 mm names)."""
    expected = PAGES[name][30]
    pages = tuple(board_pages(survey_club(30), 13, profile(name), o) for o in ("landscape", "portrait"))
    assert pages == expected
    if name in ("impression-13.3", "impression-7.3"):
        assert pages == (1, 1)


@pytest.mark.parametrize("name", ["impression-4", "what"])
@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
@pytest.mark.parametrize("count", [30, 120, 250])
def test_no_small_panels_page_holds_under_a_quarter_of_the_fullest(name: str, orientation: str, count: int) -> None:
    """On main the 4" and the wHAT in portrait ended the 250 club with a page of 3 %."""
    panel = profile(name)
    pages = board_report(survey_club(count), 13, panel, orientation, draw=False)
    fills = [columns.fill(labels, panel.canvas(orientation)) for _, labels in pages]
    if (name, count, orientation) in NEAR_EMPTY_LAST:
        assert min(fills) >= 0.05, fills  # not yet a quarter: at least no longer a page of one or two magnets
    else:
        assert min(fills) >= max(fills) / 4, fills


@pytest.mark.parametrize("count", [30, 250])
def test_no_word_is_broken_where_a_column_could_hold_it(count: int) -> None:
    """ "Brzęczyszc/zykiewicz" on the 13.3" on main: a wider column holds it at no page's cost.

    The 120 club on the 13.3" and the smaller panels keep their columns, with a hyphen in the word, rather than
    a ruler poured line by line (strengths mixed along its lines) or a board without its "Enter a result" code."""
    for orientation in ("landscape", "portrait"):
        panel = profile("impression-13.3")
        canvas = Canvas(panel, panel.canvas(orientation))
        plan, area, _ = board_layout(survey_club(count), 13, canvas, header_box(canvas)[1])
        assert plan is not None
        labels = [label for page in plan.pages for label in page.labels()]
        broken = columns.broken_words(labels, plan.typeface, area[2] - area[0])
        assert broken == 0, [label.parts for label in labels if columns.broken_words([label])]


@pytest.mark.parametrize(
    ("name", "orientation"),
    [
        ("impression-13.3", "landscape"),
        ("impression-7.3", "landscape"),
        ("impression-7.3", "portrait"),
    ],
)
def test_a_board_of_one_page_keeps_its_enter_a_result_code(name: str, orientation: str) -> None:
    """The packing once dropped the side panel's QR code to keep one long surname unbroken."""
    panel = profile(name)
    canvas = Canvas(panel, panel.canvas(orientation))
    plan, _, side = board_layout(survey_club(30), 13, canvas, header_box(canvas)[1])
    assert plan is not None and len(plan.pages) == 1
    assert side is not None


def test_a_word_wider_than_any_column_is_broken_with_a_hyphen_and_no_letter_left_alone() -> None:
    panel = profile("impression-4")
    style = Typeface.at(panel.nick_px, panel)
    name = "Grzegorz Brzęczyszczykiewicz T."
    label = label_for(Magnet(name, 13, 80, "member"), name, style, 0, 260)
    assert "".join(label.parts) == name  # nothing dropped
    assert len(label.parts) >= 3
    lines = [drawn_part(label.parts, row) for row in range(label.rows)]
    assert any(line.endswith("-") for line in lines)  # the broken word says so
    assert all(len(part.strip()) >= 3 for part in label.parts)  # no "T." and no "cz" alone
    assert max(width(line, style.nick) for line in lines) + 2 * (style.frame + style.pad) <= label.width


def test_a_wrapped_name_keeps_its_initial_with_the_word_before() -> None:
    panel = profile("impression-7.3")
    style = Typeface.at(panel.nick_px, panel)
    name = "Grzegorz Brzęczyszczykiewicz T."
    wide = label_for(Magnet(name, 13, 80, "member"), name, style, 0, 320)
    assert wide.parts[-1].strip() != "T." and "".join(wide.parts) == name


def test_a_short_word_is_never_cut_into_pieces_of_one_or_two_letters() -> None:
    face = font(NICK, 30)
    for word in ("Ewa", "Kuba", "Zosia"):
        parts = wrap_name(word, face, width(word, face) / 3)
        assert all(len(part) >= 3 for part in parts) or len(parts) == 1, parts


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


@pytest.mark.parametrize("name", ["が" * 18, "W" * 30, "Brzęczyszczykiewicz", "Ж" * 12 + " Ю."])
def test_a_word_broken_to_fit_never_runs_past_its_room(name: str) -> None:
    """The rule "no piece of one or two letters" once kept 18 kana together past the room: 31 px off the 4"."""
    face = font(NICK, 29)
    for room in range(round(3 * face.size), 420, 7):
        parts = wrap_name(name, face, room)
        assert "".join(parts) == name
        assert all(width(part.rstrip(), face) <= room for part in parts), (room, parts)
