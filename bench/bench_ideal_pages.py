"""The fewest pages the survey clubs' labels could take on each panel: a lower bound for the wall's layout.

An ideal flow, kinder than any real board: the labels as the wall draws them at the 3 mm name height
(display/columns.py's ``Typeface`` and ``label_for``), strongest field first, each field's number
before its magnets, neighbouring fields sharing a line wherever they fit, a full line the only
waste; no marks for empty fields, no zigzag, a band's header the only other line. The best of one
to four columns is taken. A real layout needs at least as many pages: where this says 2.38, no
arrangement of these labels fits two pages. ``python bench/bench_ideal_pages.py --write`` puts the table
into docs/panels.md between its markers (a test checks it is the one this script prints).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "display"))  # the wall's test clubs

from wall_clubs import SURVEY_SIZES, survey_club

from display.canvas import Canvas
from display.columns import Typeface, label_for, label_texts
from display.fonts import width
from display.profiles import ORIENTATIONS, profile
from display.render import header_box
from kiosk.board import Magnet
from kiosk.scale import QUARTERS, format_strength

PANELS = ("impression-13.3", "impression-7.3", "impression-5.7", "impression-4", "what")
DOC = Path(__file__).resolve().parent.parent / "docs" / "panels.md"
START, END = "<!-- ideal-pages: bench/bench_ideal_pages.py --write -->", "<!-- ideal-pages end -->"


def flowed_rows(by_field: dict[int, list[Magnet]], style: Typeface, texts: dict[str, str], room: int) -> int | None:
    """The lines the labels take flowed into columns ``room`` pixels wide; None where a label is wider."""
    lines, x = 0, room
    for strength in sorted(by_field, reverse=True):
        number = round(width(format_strength(strength), style.field)) + 2 * style.pad
        labels = [label_for(magnet, texts[magnet.nick], style, 0, room - number) for magnet in by_field[strength]]
        if any(label.width > room - number for label in labels):
            return None
        lines += sum(label.rows - 1 for label in labels)  # a wrapped name's further lines
        for index, label in enumerate(labels):
            need = label.width + style.gap + (number if index == 0 else 0)
            if x + need > room:
                lines, x = lines + 1, number if index else 0  # a field going on is indented past its number
            x += need
    bands = len({strength // QUARTERS // 10 for strength in by_field})
    return lines + bands


def ideal_pages(name: str, count: int, orientation: str) -> tuple[float, int]:
    """The fewest pages (fractional) and the columns that give them."""
    panel = profile(name)
    canvas = Canvas(panel, panel.canvas(orientation))
    x0, y0, x1, y1 = header_box(canvas)[1]
    magnets = [magnet for magnet in survey_club(count).magnets if magnet.size == 13]
    style = Typeface.at(panel.nick_px, panel)
    texts = label_texts(magnets, style)
    by_field: dict[int, list[Magnet]] = defaultdict(list)
    for magnet in magnets:
        by_field[magnet.strength].append(magnet)
    found: list[tuple[float, int]] = []
    for columns in range(1, 5):
        room = (x1 - x0 - (columns - 1) * 3 * style.gap) // columns
        rows = flowed_rows(by_field, style, texts, room)
        if rows is not None:
            found.append((rows / (((y1 - y0) // style.pitch) * columns), columns))
    return min(found)


def table() -> str:
    """The lower bound per panel and club, landscape / portrait, as a Markdown table."""
    rows = [
        "| panel | " + " | ".join(f"{count} magnets (landscape / portrait)" for count in SURVEY_SIZES) + " |",
        "|---|" + "---|" * len(SURVEY_SIZES),
    ]
    for name in PANELS:
        cells = [" / ".join(f"{ideal_pages(name, count, o)[0]:.2f}" for o in ORIENTATIONS) for count in SURVEY_SIZES]
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def main() -> int:
    found = table()
    print(found)
    if "--write" in sys.argv[1:]:
        page = DOC.read_text(encoding="utf-8")
        before, rest = page.split(START, 1)
        DOC.write_text(f"{before}{START}\n{found}\n{END}{rest.split(END, 1)[1]}", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
