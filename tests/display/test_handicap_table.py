"""The wall's handicap page (button B): the handicap table legible on every panel."""

from __future__ import annotations

from dataclasses import replace

import pytest
from wall_clubs import demo_data

from display.canvas import Canvas
from display.fonts import cap_height
from display.handicap_table import handicap_page
from display.profiles import PROFILES, SMALLEST_CAP_MM, profile
from display.render import handicap_pages, header_box, render
from display.wall import View

DEMO = demo_data()
LANGUAGES = {"en": DEMO, "pl": replace(DEMO, language="pl")}


def handicap_texts(name: str, size: int, orientation: str, part: int, language: str = "en") -> tuple[Canvas, int]:
    """A handicap page drawn on its own canvas (every text it drew recorded), and how many pages the table has."""
    panel = profile(name)
    canvas = Canvas(panel, panel.canvas(orientation))
    parts = handicap_page(canvas, LANGUAGES[language], size, header_box(canvas)[1], part)
    return canvas, parts


@pytest.mark.parametrize("name", list(PROFILES))
@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
@pytest.mark.parametrize("size", [9, 13, 19])
@pytest.mark.parametrize("language", ["en", "pl"])
def test_every_handicap_page_has_no_text_under_2_mm_and_no_two_texts_overlap(
    name: str, orientation: str, size: int, language: str
) -> None:
    """On main the wHAT's 13x13 table in landscape ran its rows into each other."""
    panel = profile(name)
    _, parts = handicap_texts(name, size, orientation, 0, language)
    assert parts == handicap_pages(LANGUAGES[language], size, panel, orientation)
    for part in range(parts):
        canvas, _ = handicap_texts(name, size, orientation, part, language)
        boxes = [box for box, _ in canvas.texts]
        assert len(boxes) > 10  # the table is there
        for box, face in canvas.texts:
            assert panel.px_to_mm(cap_height(face)) >= SMALLEST_CAP_MM, (name, size, orientation, part)
            assert box[0] >= 0 and box[2] <= canvas.width and box[1] >= 0 and box[3] <= canvas.height
        for index, a in enumerate(boxes):
            for b in boxes[index + 1 :]:
                apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
                assert apart, (name, size, orientation, part, a, b)


def test_a_table_too_tall_for_the_panel_goes_on_over_pages_each_with_its_own_rows() -> None:
    panel = profile("what")
    assert handicap_pages(DEMO, 13, panel, "landscape") == 2  # 13 prisoners rows do not fit 300 px at 2 mm
    assert handicap_pages(DEMO, 13, profile("impression-13.3"), "landscape") == 1
    first = render(DEMO, View("handicap", 13, 0), panel)
    second = render(DEMO, View("handicap", 13, 1), panel)
    assert first.tobytes() != second.tobytes()
    assert render(DEMO, View("handicap", 13, 5), panel).tobytes() == second.tobytes()  # past the end: the last page
