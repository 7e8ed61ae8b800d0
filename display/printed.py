"""The printable board (``semedori render --print A1``): the whole scale on paper, for clubs that want paper too.

The wall's own drawing at print resolution: the strength columns of ``display.columns``
(fields, the arrows between them, the coloured columns, every magnet on its field, the
official grades in each column's header), the full handicap table of each size from
``display.handicap_table``, and the kyu/dan conversion from ``kiosk.scale``. Type is sized in
millimetres of the paper, never under the wall's minimums, and as large as one sheet
allows; a club too large for one sheet gets more sheets (pages of the PDF), nobody cut.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PIL import Image

from display import columns
from display.canvas import Box, Canvas
from display.fonts import BOLD, NICK, REGULAR, font, line_height, size_for_cap, width, wrapped
from display.handicap_table import handicap_page
from display.paper import PRINT_PAPERS, Paper, paper
from display.profiles import PROFILES, SIX_INKS, SMALLEST_CAP_MM, Profile
from display.wall import WallData
from display.words import format_date, say
from kiosk.bands import Band, bands
from kiosk.handicap import SIZES, table
from kiosk.scale import QUARTERS, fields, to_grade

# The largest nicknames a sheet gets, in millimetres of capitals: read from a few steps away.
LARGEST_NAME_MM = 12.0
# Millimetres on paper: the margin (most printers leave 5 mm white anyway), the title's capitals.
MARGIN_MM = 12.0
TITLE_MM = 9.0
# The share of the sheet's height under the columns for the handicap tables and the grade conversion.
TABLES_SHARE = 0.24
CONVERSION_SHARE = 0.22  # of the strip's width, for the kyu/dan conversion


@dataclass(frozen=True)
class PrintedBoard:
    """The sheets of a printed board and the layout report of every magnet label on them."""

    sheet: Paper
    images: tuple[Image.Image, ...]
    report: tuple[tuple[dict[str, object], ...], ...]  # per sheet: each label's nick, field, text, box
    scale: frozenset[int] = frozenset()  # every field drawn, over all sheets (quarters)

    def save(self, path: Any) -> None:
        """Into a PDF (every sheet a page) or a PNG (the first sheet; use ``save_pngs`` for all)."""
        dpi = (self.sheet.dpi, self.sheet.dpi)
        if str(path).lower().endswith(".pdf"):
            # Pillow writes a palette picture as hex text (35 MB an A1 sheet) and RGB as JPEG: RGB at a quality
            # that keeps type sharp, one sheet at a time (an RGB copy of an A1 sheet is 52 MB).
            for index, image in enumerate(self.images):
                image.convert("RGB").save(
                    path, "PDF", resolution=float(self.sheet.dpi), append=index > 0, quality=95, subsampling=0
                )
        else:
            self.images[0].save(path, "PNG", dpi=dpi)


def print_profile(sheet: Paper) -> Profile:
    """A panel profile as large as the sheet at its dpi: the wall's code measures type in millimetres from it."""
    w, h = sheet.pixels
    return Profile(
        f"print-{sheet.name}",
        w,
        h,
        SIX_INKS,
        title=f"{sheet.name} paper at {sheet.dpi} dpi",
        diagonal=math.hypot(w, h) / sheet.dpi,
    )


def sheet_canvas(profile: Profile, size: tuple[int, int], sheet: Paper) -> Canvas:
    """A canvas for the sheet whose gaps and frames are as many millimetres as on the 7.3" panel.

    The wall scales them with the panel's pixels (a 13.3" panel is seen from further away); a
    sheet of paper has many more pixels but is read from as near as the panel.
    """
    canvas = Canvas(profile, size)
    canvas.scale = sheet.dpi / PROFILES["impression-7.3"].dpi
    return canvas


def printed_board(data: WallData, size: int, paper_name: str, dpi: int | None = None) -> PrintedBoard:
    """Draw a size's whole board on portrait sheets of ``paper_name`` at ``dpi`` (the paper's default when None)."""
    sheet = paper(paper_name, dpi, choices=PRINT_PAPERS)
    profile = print_profile(sheet)
    canvas_size = profile.canvas("portrait")
    margin = sheet.px(MARGIN_MM)
    w, h = canvas_size
    title = font(BOLD, size_for_cap(BOLD, sheet.px(TITLE_MM)))
    head_bottom = margin + line_height(title) + sheet.px(4)
    tables_top = h - margin - round((h - 2 * margin) * TABLES_SHARE)
    strip = (margin, tables_top, w - margin, h - margin)
    under = tables_fit(data, size, strip, profile, sheet)
    area = (margin, head_bottom + sheet.px(4), w - margin, (tables_top if under else h - margin) - sheet.px(6))
    gutter = sheet.px(5)
    magnets = data.on_size(size)
    band_list = bands(data.top, colourful=True)
    plan = largest_plan(magnets, band_list, data, profile, area, gutter)
    images, reports = [], []
    for number, page in enumerate(plan.pages):  # an empty club too: the whole scale, for magnets to come
        canvas = sheet_canvas(profile, canvas_size, sheet)
        heading(canvas, data, size, sheet, (margin, margin, w - margin, head_bottom), number, plan)
        columns.draw(canvas, plan, page, area, gutter)
        reports.append(tuple(columns.report(plan, page)))
        if under:
            tables(canvas, data, size, strip, sheet)
        images.append(canvas.image)
    if not under:  # paper too small for the tables under the columns: a sheet of their own
        canvas = sheet_canvas(profile, canvas_size, sheet)
        heading(canvas, data, size, sheet, (margin, margin, w - margin, head_bottom), len(images), None)
        tables_sheet(canvas, data, size, (margin, head_bottom + sheet.px(6), w - margin, h - margin), sheet)
        images.append(canvas.image)
        reports.append(())
    drawn = frozenset(q for page in plan.pages for column in page.columns for piece in column for q in piece.fields)
    return PrintedBoard(sheet, tuple(images), tuple(reports), drawn)


def largest_plan(
    magnets: tuple[Any, ...],
    band_list: tuple[Band, ...],
    data: WallData,
    profile: Profile,
    area: Box,
    gutter: int,
) -> columns.Plan:
    """Every field numbered, with the largest names that keep the board on one sheet (up to ``LARGEST_NAME_MM``:
    a poster is read from further away than a panel); a club too large for that gets the wall's own plan, the
    fewest sheets at the minimum type."""
    smallest = profile.nick_px

    def attempt(size: int) -> columns.Plan:
        return columns._plan_at(size, magnets, band_list, data.top, profile, area, gutter, {}, True, True, True)

    def whole(plan: columns.Plan, sheets: int = 1) -> bool:
        # Every field on as many sheets: the wall drops a page of nothing but empty fields at either end.
        shown = {q for page in plan.pages for column in page.columns for piece in column for q in piece.fields}
        return len(plan.pages) <= sheets and shown == set(fields(data.top))

    best = attempt(smallest)
    wall = columns.plan(magnets, band_list, data.top, profile, area, gutter)
    if not whole(best) or best.cut > wall.cut:  # more than a sheet: every field numbered if that costs none more
        return best if whole(best, len(wall.pages)) and best.cut <= wall.cut else wall
    low, high = smallest, size_for_cap(NICK, profile.mm(LARGEST_NAME_MM))
    while high - low > max(1, low // 50):  # a binary search for the largest size that still fits
        middle = (low + high + 1) // 2
        tried = attempt(middle)
        if whole(tried) and tried.cut <= best.cut:
            low, best = middle, tried
        else:
            high = middle - 1
    return best


def folded(plan: columns.Plan) -> bool:
    """True when a plan folds long runs of empty strengths into a gap mark (paper should show every field)."""
    return any(piece.kind == "gap" for page in plan.pages for column in page.columns for piece in column)


def heading(
    canvas: Canvas, data: WallData, size: int, sheet: Paper, box: Box, number: int, plan: columns.Plan | None
) -> None:
    """The club's name and the board's size at the top left; the date it shows and the sheet at the right."""
    x0, y0, x1, y1 = box
    title = font(BOLD, size_for_cap(BOLD, sheet.px(TITLE_MM)))
    small = canvas.face(REGULAR, 4.0)
    right = [format_date(data.updated.date(), data.language) + f" {data.updated:%H:%M}"] if data.updated else []
    if plan is not None and len(plan.pages) > 1:
        right.append(f"{number + 1}/{len(plan.pages)}: {plan.pages[number].span}")
    right_width = max((width(text, small) for text in right), default=0)
    text, room = f"{size}×{size} · {data.club_name}", x1 - x0 - right_width - sheet.px(10)
    cap = sheet.px(TITLE_MM)
    while width(text, title) > room and cap > sheet.px(TITLE_MM / 2):  # smaller on small paper, then cut
        cap = round(cap * 0.9)
        title = font(BOLD, size_for_cap(BOLD, cap))
    canvas.text((x0, y0), text, title, room=room)
    for index, text in enumerate(right):
        canvas.text((x1, y0 + index * line_height(small)), text, small, anchor="ra")
    canvas.hline(x0, x1, y1 - sheet.px(1), line=sheet.px(0.8))


def tables_fit(data: WallData, size: int, box: Box, profile: Profile, sheet: Paper) -> bool:
    """True when every size's handicap table fits its share of the strip under the columns on one page."""
    # Measured on a canvas of one pixel that says it is the sheet's size: a second A1 picture would double the memory.
    probe = sheet_canvas(profile, (1, 1), sheet)
    probe.width, probe.height = profile.canvas("portrait")
    return all(
        handicap_page(probe, data, one, part) == 1
        for one, part in table_boxes(data, size, table_area(box, sheet), sheet)
    )


def table_area(strip: Box, sheet: Paper) -> Box:
    """The part of the strip under the columns for the handicap tables (the grade conversion takes the rest)."""
    x0, y0, x1, y1 = strip
    return (x0, y0, x1 - round((x1 - x0) * CONVERSION_SHARE) - sheet.px(8), y1)


def table_boxes(data: WallData, size: int, box: Box, sheet: Paper) -> list[tuple[int, Box]]:
    """Each size's table and its box: the board's own size first, the strip shared by how many columns each
    table has (13x13 has more starting moves before a training game than 19x19)."""
    x0, y0, x1, y1 = box
    gap = sheet.px(8)
    sizes = [size, *(s for s in SIZES if s != size and s in data.size_rules)]
    need = {one: data.size_rules[one].training_moves + 3 for one in sizes}
    room = x1 - x0 - gap * (len(sizes) - 1)
    found, left = [], x0
    for one in sizes:
        share = round(room * need[one] / sum(need.values()))
        found.append((one, (left, y0, min(x1, left + share), y1)))
        left += share + gap
    return found


def tables(canvas: Canvas, data: WallData, size: int, box: Box, sheet: Paper) -> None:
    """The full handicap table of each size side by side (the board's own first), the kyu/dan conversion after."""
    x0, y0, x1, y1 = box
    grades(canvas, data, (x1 - round((x1 - x0) * CONVERSION_SHARE), y0, x1, y1), sheet)
    for one, part in table_boxes(data, size, table_area(box, sheet), sheet):
        handicap_page(canvas, data, one, part)


def tables_sheet(canvas: Canvas, data: WallData, size: int, box: Box, sheet: Paper) -> None:
    """A sheet of its own for the tables, where paper is too small for them under the columns: one above
    the other, the kyu/dan conversion at the foot."""
    x0, y0, x1, y1 = box
    gap = sheet.px(8)
    sizes = [size, *(s for s in SIZES if s != size and s in data.size_rules)]
    conversion = round((y1 - y0) * 0.2)
    # Each table as tall as its rows need: 13 prisoners counts on 9x9 and 13x13, four on 19x19.
    rows = {one: len({c.handicap.prisoners for c in table(data.size_rules[one])}) + 4 for one in sizes}
    room = y1 - y0 - conversion - gap * len(sizes)
    top = y0
    for one in sizes:
        each = round(room * rows[one] / sum(rows.values()))
        handicap_page(canvas, data, one, (x0, top, x1, top + each))
        top += each + gap
    grades(canvas, data, (x0, y1 - conversion, x1, y1), sheet)


def grades(canvas: Canvas, data: WallData, box: Box, sheet: Paper) -> None:
    """Strength → official grade for every whole strength, in the columns' groups of ten (docs/rules.md §1)."""
    x0, y0, x1, y1 = box
    head = canvas.face(BOLD)
    lines = wrapped(say(data.language, "grades_title"), head, x1 - x0)
    for index, line in enumerate(lines[:2]):
        canvas.text((x0, y0 + index * line_height(head)), line, head, room=x1 - x0)
    top = y0 + min(2, len(lines)) * line_height(head) + sheet.px(2)
    strengths = list(range(data.top // QUARTERS + 1))
    groups = [strengths[i : i + 10] for i in range(0, len(strengths), 10)]
    if len(groups) > 1 and len(groups[-1]) < 4:  # a stub at the top joins the column below, as on the wall
        groups[-2:] = [groups[-2] + groups[-1]]
    per = max(len(group) for group in groups)
    widest = "50 = 41 kyu"
    best: tuple[float, int] = (0.0, 1)
    for stacked in (1, 2, 3):  # the groups of ten in one row, or two or three rows of them: the largest type wins
        across = -(-len(groups) // stacked)
        step = (y1 - top) / (per * stacked)
        cap_mm = min(5.0, canvas.profile.px_to_mm(step) * 0.5)
        room = (x1 - x0) // across - sheet.px(3)
        while cap_mm > SMALLEST_CAP_MM and width(widest, canvas.face(REGULAR, cap_mm)) > room:
            cap_mm = max(SMALLEST_CAP_MM, cap_mm - 0.25)  # never under the wall's 2 mm
        best = max(best, (cap_mm, stacked))
    cap_mm, stacked = best
    face = canvas.face(REGULAR, cap_mm)
    across = -(-len(groups) // stacked)
    column_width = (x1 - x0) // across
    step = (y1 - top) / (per * stacked)
    for index, group in enumerate(reversed(groups)):  # strongest first, as the columns run
        left = x0 + index % across * column_width
        first = top + index // across * per * step
        for row, strength in enumerate(reversed(group)):
            text = f"{strength} = {to_grade(strength * QUARTERS)}"
            canvas.text((left, first + row * step), text, face, room=column_width - sheet.px(2))
