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
from fractions import Fraction
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
from kiosk.catalogue import N_, translate
from kiosk.handicap import MOVE_POINTS, SIZES, table
from kiosk.scale import QUARTERS, decimal_mark, fields, format_strength, to_grade, written

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


# --- the club's own board: the magnetic board's print, any size in millimetres -------------------
#
# The club prints its board on film for a magnetic board of 660 × 950 mm, and the players are
# 50 × 25 mm magnetic labels written with a marker: the print has no names on it, only the fields,
# each an empty slot for a label (two slots where the text says a field is double: the beginners'
# columns), the coloured column headers with their kyu/dan, the handicap tables the right way
# round (a row is Black's starting moves, a column the prisoners) with their continuation, and the
# rules in the club's language.

CLUB_SHEET_MM = (660.0, 950.0)  # the club text's board
LABEL_MM = (50.0, 25.0)  # a player's magnetic label
SLOT_GAP_MM = 1.5  # between two fields, and between the two slots of a double field
NUMBER_MM = 20.0  # room for a field's number left of its slot
DOUBLE_BELOW = 20 * QUARTERS  # fields under 20 are double: much room in the beginners' columns
CLUB_SIZES_MM = (200.0, 3000.0)  # a board smaller than A4's width or larger than 3 m is a typo
STRIP_SHARE = 0.245  # the share of the sheet's height for the tables, the rules and the grades


def club_sheet(text: str | None, dpi: int | None = None) -> Paper:
    """The club board's sheet: ``club`` (660 × 950 mm) or ``WIDTHxHEIGHT`` in millimetres (``700x1000``).

    The resolution is the highest up to 150 dpi that a Pi's memory holds (PaperError with what to type).
    """
    from display.paper import DPI_RANGE, MOST_PIXELS, PaperError
    from display.profiles import MM_PER_INCH

    key = ("club" if text is None else text).strip().lower().replace("×", "x").replace(" ", "").removesuffix("mm")
    if key == "club":
        w, h = CLUB_SHEET_MM
    else:
        parts = key.split("x")
        try:
            w, h = (float(p.replace(",", ".")) for p in parts) if len(parts) == 2 else (0.0, 0.0)
        except ValueError:
            w, h = 0.0, 0.0
        if not (CLUB_SIZES_MM[0] <= w <= CLUB_SIZES_MM[1] and CLUB_SIZES_MM[0] <= h <= CLUB_SIZES_MM[1]):
            raise PaperError(
                f"unknown paper {text!r}; choose one of A1, A2, A3, A4, club (660x950 mm) or a size in millimetres "
                f"such as 660x950, each side {CLUB_SIZES_MM[0]:g} to {CLUB_SIZES_MM[1]:g} mm"
            )
    area = (w / MM_PER_INCH) * (h / MM_PER_INCH)
    most = math.floor(math.sqrt(MOST_PIXELS / area))
    chosen = min(150, most) if dpi is None else dpi
    if not DPI_RANGE[0] <= chosen <= DPI_RANGE[1]:
        raise PaperError(f"a print's resolution is {DPI_RANGE[0]} to {DPI_RANGE[1]} dpi, not {chosen}")
    if chosen > most:
        raise PaperError(f"{w:g}x{h:g} mm at {chosen} dpi is more pixels than a Pi's memory holds; use --dpi {most}")
    return Paper(f"{w:g}x{h:g}mm", w, h, chosen)


def is_club_sheet(text: str) -> bool:
    """True for ``club`` or a size in millimetres, False for the A sizes of ``printed_board``."""
    return text.strip().upper() not in PRINT_PAPERS


@dataclass(frozen=True)
class Slot:
    """One field of the club board: its number's place and its label slots (boxes in pixels)."""

    field: int  # quarters
    number_at: tuple[int, int]
    slots: tuple[Box, ...]
    ink: str


def club_layout(data: WallData, sheet: Paper, area: Box) -> tuple[list[Slot], list[tuple[Box, Band]]]:
    """Every field strongest first, down the columns left to right, each band opening with its header.

    PaperError when the fields do not fit the sheet at the labels' size (it names how wide it would need).
    """
    # Long: one layout loop: fields placed down the columns, a band's header first, sharing the column's x and y.
    from display.paper import PaperError

    x0, y0, x1, y1 = area
    pitch = sheet.px(LABEL_MM[1] + SLOT_GAP_MM)
    header = sheet.px(12)
    band_list = bands(data.top, colourful=True)
    slots: list[Slot] = []
    headers: list[tuple[Box, Band]] = []
    left, y, column_width = x0, y0, 0

    def width_of(q: int) -> int:
        count = 2 if q < DOUBLE_BELOW else 1
        return sheet.px(NUMBER_MM + count * LABEL_MM[0] + (count - 1) * SLOT_GAP_MM + 4)

    for band in band_list:
        band_fields = [q for q in reversed(fields(data.top)) if band.holds(q)]
        first = True
        for q in band_fields:
            # a band opens where at least three of its fields fit under its header, never as an orphan
            need = header + min(3, len(band_fields)) * pitch if first else pitch
            if y + need > y1:  # next column
                left += column_width + sheet.px(6)
                y, column_width = y0, 0
                first = True
                need = header + pitch
            column_width = max(column_width, width_of(q))
            if first:
                headers.append(((left, y, left + width_of(q), y + header - sheet.px(2)), band))
                y += header
                first = False
            number_at = (left + sheet.px(NUMBER_MM - 2), y + pitch // 2)
            boxes = []
            sx = left + sheet.px(NUMBER_MM)
            for _ in range(2 if q < DOUBLE_BELOW else 1):
                boxes.append((sx, y, sx + sheet.px(LABEL_MM[0]), y + sheet.px(LABEL_MM[1])))
                sx += sheet.px(LABEL_MM[0] + SLOT_GAP_MM)
            slots.append(Slot(q, number_at, tuple(boxes), band.ink))
            y += pitch
    right = left + column_width
    if right > x1:
        mm = sheet.width_mm * (right - x0) / (x1 - x0) + 2 * MARGIN_MM * (right - x1) / max(right - x0, 1)
        raise PaperError(
            f"{sheet.width_mm:g}x{sheet.height_mm:g} mm is too small for every field with 50 x 25 mm labels: "
            f"it needs about {math.ceil(mm / 10) * 10:g} mm of width at this height"
        )
    return slots, headers


def club_board(data: WallData, size: int, sheet_text: str | None = None, dpi: int | None = None) -> PrintedBoard:
    """The club's own board for a magnetic board: fields as label slots, the tables, the rules, the grades."""
    sheet = club_sheet(sheet_text, dpi)
    profile = print_profile(sheet)
    canvas_size = profile.canvas("portrait")
    w, h = canvas_size
    margin = sheet.px(MARGIN_MM)
    canvas = sheet_canvas(profile, canvas_size, sheet)
    head_bottom = margin + sheet.px(16)
    club_heading(canvas, data, size, sheet, (margin, margin, w - margin, head_bottom))
    strip_top = h - margin - round((h - 2 * margin) * STRIP_SHARE)
    area = (margin, head_bottom + sheet.px(5), w - margin, strip_top - sheet.px(6))
    slots, headers = club_layout(data, sheet, area)
    draw_slots(canvas, sheet, slots, headers)
    canvas.hline(margin, w - margin, strip_top - sheet.px(3), line=sheet.px(0.6))
    strip = (margin, strip_top, w - margin, h - margin)
    sx0, sy0, sx1, sy1 = strip
    tables_right = sx0 + round((sx1 - sx0) * 0.42)
    rules_right = sx0 + round((sx1 - sx0) * 0.80)
    club_tables(canvas, data, size, (sx0, sy0, tables_right, sy1), sheet)
    rules_block(canvas, data, (tables_right + sheet.px(10), sy0, rules_right, sy1), sheet)
    grades(canvas, data, (rules_right + sheet.px(10), sy0, sx1, sy1), sheet)
    report: tuple[dict[str, object], ...] = tuple(
        {"field": as_field(s.field), "slots": [list(b) for b in s.slots], "double": len(s.slots) == 2} for s in slots
    )
    return PrintedBoard(sheet, (canvas.image,), (report,), frozenset(s.field for s in slots))


def as_field(q: int) -> int | float:
    return q // QUARTERS if q % QUARTERS == 0 else q / QUARTERS


def club_heading(canvas: Canvas, data: WallData, size: int, sheet: Paper, box: Box) -> None:
    """The club's header: its name large, the board's size, and where the rules come from."""
    x0, y0, x1, y1 = box
    title = font(BOLD, size_for_cap(BOLD, sheet.px(11)))
    small = font(REGULAR, size_for_cap(REGULAR, sheet.px(4)))
    canvas.text((x0, y0), data.club_name, title, room=(x1 - x0) * 0.7)
    canvas.text((x1, y0), f"{size}×{size}", title, anchor="ra")
    canvas.hline(x0, x1, y1, line=sheet.px(0.8))
    room = x1 - x0 - width(data.club_name, title) - width(f"{size}×{size}", title) - sheet.px(20)
    if room > 0:
        canvas.text(
            (x0 + width(data.club_name, title) + sheet.px(10), y1 - sheet.px(6)),
            translate(data.language, "Strength board · labels 50 × 25 mm"),
            small,
            room=room,
        )


def draw_slots(canvas: Canvas, sheet: Paper, slots: list[Slot], headers: list[tuple[Box, Band]]) -> None:
    """Each band's header (its range and kyu/dan), then each field's number and its empty label slots."""
    head = font(BOLD, size_for_cap(BOLD, sheet.px(4.5)))
    number = font(BOLD, size_for_cap(BOLD, sheet.px(5.5)))
    for (hx0, hy0, hx1, hy1), band in headers:
        filled = band.header != "outline"
        canvas.box((hx0, hy0, hx1, hy1), fill=band.ink if filled else None, outline=band.ink, line=sheet.px(0.8))
        ink = "black" if (not filled or band.label == "fill") else "white"
        middle = (hy0 + hy1) // 2 - line_height(head) // 2
        canvas.text((hx0 + sheet.px(3), middle), band.title, head, ink=ink)
        canvas.text((hx1 - sheet.px(3), middle), band.grades, head, ink=ink, anchor="ra")
    for s in slots:
        x, y = s.number_at
        canvas.text((x, y - line_height(number) // 2), format_strength(s.field), number, anchor="ra")
        for box in s.slots:
            canvas.box(box, outline=s.ink, line=sheet.px(0.5))


def club_tables(canvas: Canvas, data: WallData, size: int, box: Box, sheet: Paper) -> None:
    """Each size's handicap table, a row per number of starting moves and a column per prisoners, its even games
    above and its continuation below: past the last row one more move every 13 / points per strength."""
    # Long: one drawing: each size's table, row under row down the sheet, sharing the y and the step found at the top.
    x0, y0, x1, y1 = box
    sizes = [size, *(s for s in SIZES if s != size and s in data.size_rules)]
    title = font(BOLD, size_for_cap(BOLD, sheet.px(4.0)))
    cell = font(REGULAR, size_for_cap(REGULAR, sheet.px(3.4)))
    small = font(REGULAR, size_for_cap(REGULAR, sheet.px(2.8)))
    rows_of = {one: data.size_rules[one].training_moves for one in sizes}
    lines = sum(rows_of.values()) + 4 * len(sizes)
    step = min(sheet.px(7.0), (y1 - y0) // max(lines, 1))
    y = y0
    for one in sizes:
        rules = data.size_rules[one]
        cells = [c for c in table(rules) if not c.handicap.even]
        even = next(c for c in table(rules) if c.handicap.even)
        prisoners = sorted({c.handicap.prisoners for c in cells})
        head = translate(
            data.language, "Handicap {size}×{size}: row = Black's starting moves, column = prisoners", size=one
        )
        canvas.text((x0, y), head, title, room=x1 - x0)
        y += step
        canvas.text(
            (x0, y),
            translate(
                data.language,
                "even game (nigiri, komi 6.5): difference 0 to {high}",
                high=decimal_mark(format_strength(even.highest), data.language),
            ),
            small,
            room=x1 - x0,
        )
        y += step
        label_w = sheet.px(14)
        col_w = (x1 - x0 - label_w) / max(len(prisoners), 1)
        for index, p in enumerate(prisoners):
            canvas.text((x0 + label_w + (index + 0.5) * col_w, y), str(p), small, anchor="ma")
        canvas.text((x0, y), translate(data.language, "moves"), small)
        y += step
        for moves in range(1, rules.training_moves + 1):
            ink = "red" if moves >= rules.training_moves else "black"
            canvas.text((x0 + label_w - sheet.px(3), y), str(moves), title, ink=ink, anchor="ra")
            for c in cells:
                if c.handicap.moves == moves:
                    index = prisoners.index(c.handicap.prisoners)
                    canvas.text(
                        (x0 + label_w + (index + 0.5) * col_w, y),
                        decimal_mark(format_strength(c.lowest), data.language),
                        cell,
                        ink=ink,
                        anchor="ma",
                    )
            y += step
        every = written(Fraction(MOVE_POINTS) / rules.points_per_strength, data.language)
        canvas.text(
            (x0, y),
            translate(
                data.language,
                "and so on: one more starting move every {every} of difference; red: training game",
                every=every,
            ),
            small,
            room=x1 - x0,
        )
        y += step + step // 2


# The rules as they hang on the board, in the club's language: the short form of docs/rules.md §1–§5, whose
# section "The rules on the printed board" has these very words in English and Polish (tests/display/
# test_printed_club.py checks the print against it). The Polish is the catalogue's, like every word of the kiosk.
RULES: tuple[str, ...] = (
    N_(
        "Every player is a magnet with a nickname; the number beside it is the player's strength on that board size. "
        "An arrow is one step to the next field: 1 below 30, 0.5 from 30 to 40, 0.25 above 40."
    ),
    N_("The difference is the stronger number minus the weaker; the stronger player takes White."),
    N_(
        "Find your difference in the table: the row is Black's starting moves, the column the prisoners Black "
        "gets from White before the game. Prisoners count one point each at the end."
    ),
    N_(
        "A difference below the table's smallest: an even game. Nigiri; White gets 6 prisoners and wins ties "
        "(komi 6.5)."
    ),
    N_("Win: one arrow up. Loss: one arrow down. Draw: no move. Below 0 nobody falls."),
    N_("A clear result (resignation, or at least {clear}): two arrows, both ways."),
    N_("Your first loss of the week does not move your magnet; the winner moves as usual."),
    N_("A training game (from {training} starting moves): the stronger player's magnet does not move."),
    N_(
        "A guest hangs at 0, or 5 arrows below their kyu/dan. After a guest's game with a member only the guest "
        "moves; after 2–3 losses the guest becomes a member."
    ),
    N_(
        "A magnet shows the size you play regularly; in an occasional game on another size it gives the handicap "
        "and does not move."
    ),
    N_(
        "A teaching game, a simultaneous, rengo or an event game that is not for the board moves no magnet and uses "
        "no free loss."
    ),
    N_("Quick correction: a strong member and the owner may rehang a magnet on its true strength."),
)


def rules_texts(data: WallData) -> list[str]:
    """The board's rules in the club's language with the club's own numbers (clear margins, training rows)."""
    sizes = [s for s in SIZES if s in data.size_rules]
    clear = translate(
        data.language,
        "{margins} points on {sizes}",
        margins=" / ".join(written(data.size_rules[s].clear_margin, data.language) for s in sizes),
        sizes=" / ".join(f"{s}×{s}" for s in sizes),
    )
    training = " / ".join(str(data.size_rules[s].training_moves) for s in sizes)
    return [translate(data.language, rule, clear=clear, training=training) for rule in RULES]


def rules_block(canvas: Canvas, data: WallData, box: Box, sheet: Paper) -> None:
    """The rules, numbered, in the club's language, as large as the box allows (never under the wall's 2 mm)."""
    x0, y0, x1, y1 = box
    texts = rules_texts(data)
    title_text = translate(data.language, "Rules")
    cap = 5.0
    while True:
        face = font(REGULAR, size_for_cap(REGULAR, sheet.px(cap)))
        title = font(BOLD, size_for_cap(BOLD, sheet.px(cap * 1.3)))
        lines = [wrapped(f"{n}. {t}", face, x1 - x0) for n, t in enumerate(texts, start=1)]
        need = line_height(title) + sum(len(ls) * line_height(face) + sheet.px(cap * 0.5) for ls in lines)
        if need <= y1 - y0 or cap <= SMALLEST_CAP_MM:
            break
        cap = max(SMALLEST_CAP_MM, cap - 0.25)
    canvas.text((x0, y0), title_text, title)
    y = y0 + line_height(title)
    for block in lines:
        for line in block:
            canvas.text((x0, y), line, face, room=x1 - x0)
            y += line_height(face)
        y += sheet.px(cap * 0.5)
