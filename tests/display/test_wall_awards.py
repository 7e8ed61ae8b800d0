"""The month's awards on the wall's week page (display/awards.py): legible and complete on every panel."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from wall_clubs import MIXED_NAMES, demo_data

from display.awards import award_lines, award_reason, strip_lines
from display.canvas import Canvas
from display.fonts import cap_height
from display.profiles import PROFILES, SMALLEST_CAP_MM, profile
from display.render import header_box, render
from display.wall import View, WallData, from_source
from display.week import week_page
from kiosk.awards import FIRST_EVEN, MOST_GAMES, MOST_IMPROVED, MOST_OPPONENTS, Award, MonthAwards
from kiosk.config import Config
from kiosk.store import Store

DEMO = demo_data()
NOVEMBER = (2026, 11)
# A month of many ties and milestones, in the names a mixed club writes.
CROWDED = MonthAwards(
    NOVEMBER,
    (
        *(Award(MOST_IMPROVED, NOVEMBER, nick, 4) for nick in MIXED_NAMES[:5]),
        *(Award(MOST_GAMES, NOVEMBER, nick, 9) for nick in MIXED_NAMES[5:9]),
        Award(MOST_OPPONENTS, NOVEMBER, "Grzegorz Brzęczyszczykiewicz", 7),
        *(
            Award(FIRST_EVEN, NOVEMBER, nick, 1, opponent="🐉 Smok", at=datetime(2026, 11, 3, 19))
            for nick in MIXED_NAMES[10:22]
        ),
    ),
)


def week_canvas(data: WallData, name: str, orientation: str, part: int = 0) -> Canvas:
    panel = profile(name)
    canvas = Canvas(panel, panel.canvas(orientation))
    week_page(canvas, data, header_box(canvas)[1], part)
    return canvas


def week_canvases(data: WallData, name: str, orientation: str) -> list[Canvas]:
    """Every page of the week (the small panels put the awards at the foot of the last, or on one of their own)."""
    panel = profile(name)
    scratch = Canvas(panel, panel.canvas(orientation))
    count = week_page(scratch, data, header_box(scratch)[1])
    return [week_canvas(data, name, orientation, part) for part in range(count)]


@pytest.mark.parametrize("name", list(PROFILES))
@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
@pytest.mark.parametrize("language", ["en", "pl"])
@pytest.mark.parametrize("awards", ["demo", "crowded"])
def test_the_week_page_with_awards_has_no_text_under_2_mm_and_none_overlapping(
    name: str, orientation: str, language: str, awards: str
) -> None:
    data = replace(DEMO, language=language, awards=CROWDED if awards == "crowded" else DEMO.awards)
    panel = profile(name)
    canvases = week_canvases(data, name, orientation)
    without = week_canvases(replace(data, awards=None), name, orientation)
    drawn = [canvas.image.tobytes() for canvas in canvases]
    assert drawn[len(without) :] or drawn != [canvas.image.tobytes() for canvas in without]  # the strip is drawn
    for canvas in canvases:
        boxes = [box for box, _ in canvas.texts]
        for box, face in canvas.texts:
            assert panel.px_to_mm(cap_height(face)) >= SMALLEST_CAP_MM
            assert box[0] >= 0 and box[2] <= canvas.width and box[1] >= 0 and box[3] <= canvas.height
        for index, a in enumerate(boxes):
            for b in boxes[index + 1 :]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


@pytest.mark.parametrize("name", list(PROFILES))
def test_awards_that_do_not_fit_are_counted_not_dropped(name: str) -> None:
    panel = profile(name)
    canvas = Canvas(panel, panel.canvas())
    entries = award_lines(CROWDED, "en")
    assert len(entries) == 3 + 12  # one line per tied award, one per first even game
    lines = strip_lines(canvas, CROWDED, "en", canvas.width - 20, most=2)
    assert 1 <= len(lines) <= 2
    text = " ".join(lines)  # an entry too long for a line goes on in the next
    shown = sum(1 for entry in entries if entry in text)
    if shown < len(entries):
        assert text.endswith(f"+{len(entries) - shown} more")


def test_the_awards_in_words_in_both_languages() -> None:
    awards = MonthAwards(
        NOVEMBER,
        (
            Award(MOST_IMPROVED, NOVEMBER, "Zosia", 5),
            Award(MOST_GAMES, NOVEMBER, "Jan", 4),
            Award(MOST_GAMES, NOVEMBER, "Ola", 4),
            Award(FIRST_EVEN, NOVEMBER, "Iza", 1, "Piotr", datetime(2026, 11, 20, 19)),
        ),
    )
    assert award_lines(awards, "en") == [
        "Most improved: Zosia ↑5",
        "Most games: Jan, Ola (4)",
        "First even game with a stronger player: Iza (with Piotr)",
    ]
    assert award_lines(awards, "pl") == [
        "Największy postęp: Zosia ↑5",
        "Najwięcej partii: Jan, Ola (4)",
        "Pierwsza równa partia z silniejszym: Iza (z: Piotr)",
    ]
    two = MonthAwards(
        NOVEMBER, (Award(FIRST_EVEN, NOVEMBER, "Iza", 1, "Piotr"), Award(FIRST_EVEN, NOVEMBER, "Kuba", 1, "Ewa"))
    )
    assert award_lines(two, "en") == ["First even game with a stronger player: Iza (with Piotr)", "Kuba (with Ewa)"]
    assert award_reason(awards.awards[0], "en") == "5 arrows up, net, in November 2026"
    assert award_reason(awards.awards[3], "pl") == "równa partia z: Piotr, 20.11.2026"


def test_the_wall_reads_the_months_awards_from_the_store(tmp_path: Path) -> None:
    lines = [
        '{"type": "player", "at": "2026-10-01T18:00", "nick": "Ola", "size": 13, "status": "member", "strength": 20}',
        '{"type": "player", "at": "2026-10-01T18:00", "nick": "Kuba", "size": 13, "status": "member", "strength": 21}',
        '{"type": "game", "at": "2026-11-03T19:00", "size": 13, "players": ["Ola", "Kuba"], "winner": "Ola", '
        '"by": null}',
    ]
    with Store.open(tmp_path) as store:
        store.import_history(lines)
        data = from_source(store, datetime(2026, 11, 26, 20, 0))
        assert data.awards is not None and data.awards.month == NOVEMBER
        assert [(a.kind, a.nick) for a in data.awards.awards] == [(MOST_IMPROVED, "Ola"), (FIRST_EVEN, "Ola")]
        # In December's first week the wall still shows November's.
        assert from_source(store, datetime(2026, 12, 2, 20, 0)).awards == data.awards
        assert from_source(store, datetime(2026, 12, 8, 20, 0)).awards == MonthAwards((2026, 12))
    image = render(data, View("week", 13), profile("impression-7.3"))
    assert image.tobytes() != render(replace(data, awards=None), View("week", 13), profile("impression-7.3")).tobytes()
    assert Config().timezone == "Europe/Warsaw"
