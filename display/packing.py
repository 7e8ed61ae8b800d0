"""The wall's columns packed into as few pages as the labels need: each column as wide as its fields want.

``columns.plan`` gives every column of a page the same width, so a column of single magnets is as
wide as the crowded field's, and most of a page is paper (a 120 club took 4 pages of the 7.3" where
its labels cover 1.3). Here each column of a page takes the width that holds the most
magnets per pixel of the page: narrow for a run of single magnets, wide where a crowded field fills
whole lines. The ruler stays a ruler: strongest first, the columns in the scale's order, every
magnet after its field's number (one strength a line; where that still costs a page, neighbouring
strengths flow beside each other along the lines, each number before its magnets); a crowded field
goes on at the top of the next column with its number repeated, a band goes on in the free foot of
another band's column (its header, or a strip of its ink, and the zigzag lead on), and a page break
falls between two strengths: a field that fits a page is never cut by it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from display.columns import (
    Label,
    Page,
    Piece,
    Plan,
    Typeface,
    broken_words,
    first_field,
    flow_row,
    label_for,
    label_texts,
    row_pieces,
    rows_of,
    whole_lines,
)
from display.columns import _split_fields as split_fields
from display.columns import plan as columns_plan
from display.lines import Liner
from display.profiles import Profile
from kiosk.bands import Band, magnets_by_field
from kiosk.board import Magnet
from kiosk.scale import QUARTERS, Quarters, fields, format_strength

# A unit of a band's ruler: a strength's row of fields holding magnets, an empty strength (ticks), or a fold ("···").
Unit = tuple[str, tuple[Quarters, ...]]
# A packed column holds this many nickname-sized ems of name at the least (a longer name wraps, never cut).
NARROWEST_PACKED_EMS = 6
# A line of the line-by-line ruler is at most this many nickname-sized ems (four or five names).
WIDEST_LINE_EMS = 30
Rest = tuple[tuple[Quarters, tuple[Magnet, ...]], ...]  # a row's fields and magnets still to place


@dataclass(frozen=True, slots=True)
class Cursor:
    """Where the pouring stands: a band, its unit (-1: its header comes first), and a row's magnets left over."""

    band: int
    unit: int
    rest: Rest | None = None


def reading(q: Quarters) -> tuple[int, Quarters]:
    """The order a line is read in: stronger strengths first, a strength's halves and quarters left to right."""
    return (-(q // QUARTERS), q)


def units(
    magnets: Sequence[Magnet], band_list: Sequence[Band], top: Quarters, fold: bool, flow: bool = False
) -> list[tuple[Band, list[Unit]]]:
    """Each band with its ruler's units; with ``fold`` long runs of empty strengths (and empty bands) folded into
    a gap, as ``columns.compressed`` folds them where the whole ruler would cost a page; with ``flow`` neighbouring
    strengths that hold magnets one run, flowing beside each other along the lines (no empty strength between)."""
    held = magnets_by_field(magnets)
    found: list[tuple[Band, list[Unit]]] = []
    pending: tuple[Quarters, ...] = ()
    for band in band_list:
        band_units: list[Unit] = []
        for row in rows_of(band, top):
            kind = "row" if any(q in held for q in row) else "empty"
            if flow and kind == "row" and band_units and band_units[-1][0] in ("row", "run"):
                band_units[-1] = ("run", band_units[-1][1] + row)
            else:
                band_units.append((kind, row))
        if not fold:
            found.append((band, band_units))
            continue
        if not any(kind in ("row", "run") for kind, _ in band_units):
            folded = tuple(q for _, row in band_units for q in row)
            if found:
                found[-1][1].append(("gap", folded))
            else:
                pending += folded
            continue
        kept: list[Unit] = []
        if pending:
            kept.append(("gap", pending))
            pending = ()
        run: list[Unit] = []
        for unit in [*band_units, None]:
            if unit is not None and unit[0] == "empty":
                run.append(unit)
                continue
            if len(run) > 2:  # the first and last of a run stay, so its ends can still be counted
                kept += [run[0], ("gap", tuple(q for _, row in run[1:-1] for q in row)), run[-1]]
            else:
                kept += run
            run = []
            if unit is not None:
                kept.append(unit)
        found.append((band, kept))
    if pending and found:
        found[-1][1].append(("gap", pending))
    return found


def fields_in(lines: list[list[Label]]) -> tuple[Quarters, ...]:
    """The fields whose magnets (or empty halves' ticks) stand on these lines, stronger first."""
    found = {label.magnet.strength for line in lines for label in line if label.magnet is not None}
    found |= {label.field for line in lines for label in line if label.empty and label.field is not None}
    return tuple(sorted(found, reverse=True))


def new_strength(above: list[list[Label]], below: list[list[Label]]) -> bool:
    """True when the lines below start a strength of their own (a page break there cuts no strength in two)."""
    last = next((label.magnet.strength for line in reversed(above) for label in reversed(line) if label.magnet), None)
    first = next((label.magnet.strength for line in below for label in line if label.magnet is not None), None)
    return last is None or first is None or last // QUARTERS != first // QUARTERS


def magnets_in(piece: Piece) -> int:
    """How many magnets a piece holds."""
    return sum(1 for line in piece.lines for label in line if label.magnet is not None)


class Stuck(RuntimeError):
    """A page that placed nothing (it should not happen: then the plan of columns of one width is used)."""


class Packer:
    """Pours a size's ruler into pages of columns of varying widths, each column as wide as packs it best."""

    def __init__(
        self,
        magnets: Sequence[Magnet],
        band_list: Sequence[Band],
        top: Quarters,
        style: Typeface,
        area_width: int,
        gutter: int,
        moved: dict[str, int] | None,
        fold: bool,
        whole_bands: bool,
        flow: bool = False,
        shared: dict[object, object] | None = None,
    ) -> None:
        self.style, self.area_width, self.gutter, self.whole_bands = style, area_width, gutter, whole_bands
        self.held = magnets_by_field(magnets)
        self.texts = label_texts(magnets, style)
        self.moved = moved or {}
        self.units = units(magnets, band_list, top, fold, flow)
        # The narrowest column: the widest numbers and six ems of name, so an ordinary name is never broken in three.
        self.narrowest = min(area_width, style.chip + round(style.nick.size * NARROWEST_PACKED_EMS))
        self.step = max(8, round(2 * style.nick.size))
        # Labels and flowed rows depend only on the type and the width: the tries of one plan share them.
        shared = {} if shared is None else shared
        self._labels: dict[tuple[str, int], Label] = shared.setdefault("labels", {})  # type: ignore[assignment]  # one dict, two caches
        self._rows: dict[tuple[object, ...], list[Piece]] = shared.setdefault("rows", {})  # type: ignore[assignment]  # one dict, two caches
        self._bands: dict[tuple[int, int], int] = {}
        self._columns: dict[tuple[Cursor, int, int, bool, bool], tuple[list[Piece], Cursor, float]] = {}

    def label(self, magnet: Magnet, room: int) -> Label:
        """A magnet's label for a column of ``room`` (labels are never wider than ``LONGEST_LABEL_EMS``)."""
        room = min(room, self.style.widest_label + self.style.gap)
        key = (magnet.nick, room)
        found = self._labels.get(key)
        if found is None:
            found = label_for(magnet, self.texts[magnet.nick], self.style, self.moved.get(magnet.nick, 0), room)
            self._labels[key] = found
        return found

    def row(self, band_index: int, unit_index: int, rest: Rest | None, width: int) -> list[Piece]:
        """A strength's row (or what is left of it) flowed into a column ``width`` wide."""
        key_rest = None if rest is None else tuple((q, tuple(m.nick for m in ms)) for q, ms in rest)
        band, band_units = self.units[band_index]
        kind, row = band_units[unit_index]
        key = (band.lowest, kind, row, key_rest, width)
        found = self._rows.get(key)
        if found is not None:
            return found
        groups_of = (
            rest if rest is not None else tuple((q, tuple(self.held.get(q, ()))) for q in sorted(row, key=reading))
        )
        room = width - self.style.chip_for(band)
        groups = [(q, [self.label(m, room) for m in ms]) for q, ms in groups_of]
        if kind == "run":  # neighbouring strengths along the lines, each field's number before its magnets
            lines, numbers = flow_row([(q, labels) for q, labels in groups if labels], self.style, room)
            shown = tuple(q for q, labels in groups if labels)  # only the run's fields left to place
            found = [Piece("field", band, len(lines) * self.style.pitch, shown, lines, numbers)]
        else:
            left = {q for q, _ in groups_of}
            shown = tuple(q for q in row if q in left)  # the row's order: stacked, the stronger field above
            found = row_pieces(band, shown, groups, self.style, room, False)
        if rest is not None:
            for piece in found:
                piece.continued = True
        self._rows[key] = found
        return found

    def unit_height(self, band_index: int, unit_index: int, width: int) -> int:
        """The height of a unit in a column ``width`` wide."""
        kind = self.units[band_index][1][unit_index][0]
        if kind == "empty":
            return self.style.thin
        if kind == "gap":
            return self.style.thin * 2
        return sum(piece.height for piece in self.row(band_index, unit_index, None, width))

    def band_height(self, band_index: int, width: int) -> int:
        """A whole band's height in a column ``width`` wide, header included."""
        key = (band_index, width)
        if key not in self._bands:
            self._bands[key] = self.style.head_height + sum(
                self.unit_height(band_index, index, width) for index in range(len(self.units[band_index][1]))
            )
        return self._bands[key]

    def column(self, at: Cursor, width: int, height: int, first: bool, last: bool) -> tuple[list[Piece], Cursor, float]:
        """One column ``width`` wide from ``at``: its pieces, where it stops, and what it holds (magnets and rows)."""
        # Long: one filling loop: pieces go into the column until it is full, the cursor's band, unit and rest moving
        # together.
        style = self.style
        band_index, unit_index, rest = at.band, at.unit, at.rest
        band = self.units[band_index][0]
        if unit_index < 0:
            head = Piece("head", band, style.head_height)
            unit_index = 0
        else:  # a band going on: a strip of its ink, but a page's first column has the full header
            head = Piece("head", band, style.head_height if first else style.strip, continued=not first)
        found = [head]
        used, placed = head.height, 0.0
        while band_index < len(self.units):
            band, band_units = self.units[band_index]
            if unit_index >= len(band_units):
                band_index, unit_index, rest = band_index + 1, -1, None
                if band_index == len(self.units):
                    break
                need = (
                    self.band_height(band_index, width)
                    if self.whole_bands
                    else style.head_height + min(self.unit_height(band_index, 0, width), 2 * style.pitch)
                )
                if used + style.gap + need > height:
                    break
                following = self.units[band_index][0]
                found += [Piece("space", following, style.gap), Piece("head", following, style.head_height)]
                used += style.gap + style.head_height
                unit_index = 0
                continue
            kind, row = band_units[unit_index]
            if kind not in ("row", "run"):
                tall = style.thin if kind == "empty" else style.thin * 2
                if used + tall > height and len(found) > 1:
                    break
                found.append(Piece(kind, band, tall, row))
                used += tall
                placed += 0.2
                unit_index += 1
                continue
            row_parts = self.row(band_index, unit_index, rest, width)
            stop = False
            for index, piece in enumerate(row_parts):
                if used + piece.height <= height:
                    found.append(piece)
                    used += piece.height
                    placed += self.worth(piece)
                    continue
                # A field that fits a column is not cut by the page break.
                whole = last and len(piece.fields) == 1 and self.fits_column(band_index, unit_index, height, width)
                left_over = self.split(piece, row_parts[index + 1 :], height - used, height, last, whole, len(found))
                if left_over is None:  # the whole piece in the next column
                    rest = self.remaining([], row_parts[index:])
                else:
                    part, rest = left_over
                    found.append(part)
                    used += part.height
                    placed += self.worth(part)
                stop = True
                break
            if stop:
                break
            unit_index, rest = unit_index + 1, None
            placed += 0.2
        return found, Cursor(band_index, unit_index, rest), placed

    def fits_column(self, band_index: int, unit_index: int, height: int, width: int) -> bool:
        """True when a whole row fits one column ``width`` wide."""
        return self.unit_height(band_index, unit_index, width) <= height - self.style.head_height

    def split(
        self, piece: Piece, after: list[Piece], room: int, height: int, last: bool, whole: bool, pieces_above: int
    ) -> tuple[Piece, Rest] | None:
        """The lines of a piece that go in this column and the magnets left for the next; None: all in the next.

        A field of a few lines goes on whole at the top of the next column; a crowded one fills this column
        first, its number repeated where it goes on. At a page's last column a field that fits a page is not
        cut by the page break.
        """
        style = self.style
        lines = piece.lines
        fresh = height - style.head_height
        fit = min(len(lines), room // style.pitch)
        fit = whole_lines(lines, fit) if fit > 0 else 0
        if fit * style.pitch > room:
            fit = 0
        bare = pieces_above <= 1  # only the header above: something must go here, or nothing ever would
        if bare and fit == 0:
            fit = whole_lines(lines, 1)
        if fit == 0:
            return None
        if not bare:
            small = len(lines) * style.pitch <= fresh and len(lines) <= 3
            if small or fit < 2 or whole:
                return None
        if last and len(piece.fields) > 1:  # a run of strengths: a page break falls between two strengths
            cut = fit
            while cut > 0 and cut < len(lines) and not new_strength(lines[:cut], lines[cut:]):
                cut -= 1
            if cut == 0 and not bare:
                return None
            fit = cut or fit  # a strength taller than the column is cut where it must be
        numbers = list(piece.numbers[:fit])
        if piece.continued and numbers[0] is None:
            numbers[0] = first_field(lines[0])
        part = Piece(
            "field", piece.band, fit * style.pitch, fields_in(lines[:fit]), lines[:fit], numbers, piece.continued
        )
        rest = self.remaining(lines[fit:], after)
        return part, rest

    @staticmethod
    def worth(piece: Piece) -> float:
        """What a piece is worth to a column: its magnets, a wrapped name a little less (it reads worse)."""
        return sum(
            1.0 if label.rows == 1 else 0.3 if broken_words([label]) else 0.6
            for line in piece.lines
            for label in line
            if label.magnet is not None
        )

    @staticmethod
    def remaining(lines: list[list[Label]], after: list[Piece]) -> Rest:
        """The fields and magnets not yet placed: those on a split piece's later lines, then whole pieces'."""
        found: dict[Quarters, list[Magnet]] = {}
        for line in lines:
            for label in line:
                if label.magnet is not None:
                    found.setdefault(label.magnet.strength, []).append(label.magnet)
                elif label.empty and label.field is not None:  # an empty half or quarter still to tick
                    found.setdefault(label.field, [])
        for piece in after:
            for q in piece.fields:
                found.setdefault(q, [])
            for line in piece.lines:
                for label in line:
                    if label.magnet is not None:
                        found[label.magnet.strength].append(label.magnet)
        return tuple((q, tuple(found[q])) for q in sorted(found, key=reading))

    def _column(
        self, at: Cursor, width: int, height: int, first: bool, last: bool
    ) -> tuple[list[Piece], Cursor, float]:
        key = (at, width, height, first, last)
        found = self._columns.get(key)
        if found is None:
            found = self._columns[key] = self.column(at, width, height, first, last)
        return found

    def widths(self, left: int) -> list[int]:
        """The widths a column may take with ``left`` pixels of the page free: a grid, and all that is left."""
        found = []
        width = self.narrowest
        while left - width - self.gutter >= self.narrowest:
            found.append(width)
            width += self.step
        return [*found, left]

    def greedy(self, at: Cursor, height: int) -> tuple[float, Page, Cursor]:
        """A page whose every column in turn takes the width that holds the most per pixel (the last, what is left)."""
        page = Page([], widths=[])
        left, worth = self.area_width, 0.0
        while at.band < len(self.units) and left >= self.narrowest:
            best: tuple[float, int, list[Piece], Cursor, float] | None = None
            for width in self.widths(left):
                last = width == left
                # The last column is laid out on the grid too (its rows are then the ones already flowed) and drawn
                # as wide as what is left.
                laid = self.narrowest + (width - self.narrowest) // self.step * self.step if last else width
                column, after, held = self._column(at, laid, height, not page.columns, last)
                score = held / (left if last else width + self.gutter)
                if best is None or score > best[0] + 1e-9:
                    best = (score, width, column, after, held)
            assert best is not None
            _, width, column, after, held = best
            if page.columns and self.cut_field(at, after, height, width):
                break  # a field that fits a page starts on the next page rather than in this last column
            page.columns.append(column)
            page.widths.append(width)
            left -= width + self.gutter
            worth += held
            at = after
        return worth, page, at

    def cut_field(self, before: Cursor, after: Cursor, height: int, width: int) -> bool:
        """True when a column from ``before`` to ``after`` starts a field and leaves the rest of it for the next
        page although the whole field would fit a column as wide (a crowded field taller than that may go on over
        the page break, its number repeated: that saves a page)."""
        if after.rest is None or (before.band, before.unit) != (after.band, after.unit):
            return False
        kind, row = self.units[after.band][1][after.unit]
        held = [q for q in row if q in self.held]
        whole = before.rest is None or sum(len(ms) for _, ms in before.rest) == sum(len(self.held[q]) for q in held)
        return whole and kind == "row" and len(held) == 1 and self.fits_column(after.band, after.unit, height, width)

    def even(self, at: Cursor, height: int, count: int) -> tuple[float, Page, Cursor]:
        """A page of ``count`` columns of one width."""
        width = (self.area_width - (count - 1) * self.gutter) // count
        page = Page([], widths=[])
        worth = 0.0
        for index in range(count):
            if at.band >= len(self.units):
                break
            column, after, held = self._column(at, width, height, index == 0, index == count - 1)
            if index == count - 1 and page.columns and self.cut_field(at, after, height, width):
                break
            at = after
            page.columns.append(column)
            page.widths.append(width)
            worth += held
        return worth, page, at

    def pour(self, height: int, at: Cursor | None = None) -> list[Page]:
        """The ruler (from ``at`` on) in pages of columns ``height`` tall: each page the one of its tries that holds
        the most, its columns each as wide as packs best, or all of one width. ``starts`` keeps where each began."""
        pages: list[Page] = []
        at = at or Cursor(0, -1)
        self.starts: list[Cursor] = []
        most = max(1, (self.area_width + self.gutter) // (self.narrowest + self.gutter))
        while at.band < len(self.units):
            self.starts.append(at)
            tries = [self.greedy(at, height), *(self.even(at, height, count) for count in range(most, 0, -1))]
            _, page, after = max(tries, key=lambda found: found[0])  # a tie: the first tried
            if after == at:  # nothing placed: never loop for ever on the wall; columns of one width take over
                raise Stuck(at)
            pages.append(page)
            at = after
        return pages


def packed(
    size: int,
    magnets: Sequence[Magnet],
    band_list: Sequence[Band],
    top: Quarters,
    profile: Profile,
    area: tuple[int, int, int, int],
    gutter: int,
    moved: dict[str, int] | None = None,
    arrows: bool = False,
    ticks: bool = False,
) -> Plan | None:
    """The fewest pages with columns as wide as their fields need; the columns then as short as keeps them so
    (None: no packing placed everything)."""
    field_texts = tuple(format_strength(q) for q in fields(top) if any(band.holds(q) for band in band_list))
    style = Typeface.at(size, profile, field_texts, arrows, ticks)
    area_width = area[2] - area[0]
    height = max(area[3] - area[1], style.head_height + style.pitch) - style.zigzag
    best: tuple[list[Page], Packer] | None = None
    shared: dict[object, object] = {}
    for flow, fold in ((False, False), (False, True), (True, True)):
        # Neighbouring strengths along a line, and empty stretches folded, only where either saves a page.
        packer = Packer(magnets, band_list, top, style, area_width, gutter, moved, fold, False, flow, shared)
        try:
            pages = trimmed(packer.pour(height))
        except Stuck:
            continue
        if best is None or len(pages) < len(best[0]):
            best = (pages, packer)
    if best is None:
        return None
    pages, packer = best
    if len(pages) > 1:
        pages = balanced(packer, height, len(pages))
    wrapped = sum(1 for page in pages for label in page.labels() if label.rows > 1)
    return Plan(style, max(max(page.widths) for page in pages), pages, wrapped)


def trimmed(pages: list[Page]) -> list[Page]:
    """The pages without a page of nothing but empty fields at either end; each knowing its stretch of the scale."""
    pages = [page for page in pages if any(piece.fields for column in page.columns for piece in column)] or pages[:1]
    while len(pages) > 1 and not any(pages[-1].labels()):
        pages.pop()
    while len(pages) > 1 and not any(pages[0].labels()):
        pages.pop(0)
    for page in pages:
        held = [q for column in page.columns for piece in column for q in piece.fields]
        page.highest, page.lowest = max(held), min(held)
    return pages


def balanced(packer: Packer, height: int, fewest: int) -> list[Page]:
    """The same number of pages with the columns as short as keeps it so: no near-empty last page beside full ones.
    A field the full columns kept on one page stays on one page."""
    style = packer.style
    split = split_fields(trimmed(packer.pour(height)))
    low, high = style.head_height + style.pitch, height
    while high - low > max(2, style.pitch):
        middle = (low + high) // 2
        try:
            pages = trimmed(packer.pour(middle))
            fits = len(pages) <= fewest and split_fields(pages) <= split
        except Stuck:
            fits = False
        if fits:
            high = middle
        else:
            low = middle
    pages = packer.pour(high)
    if evenness(trimmed(pages)) >= 0.25 or len(pages) < 2:
        return trimmed(pages)
    return trimmed(evened_tail(packer, pages, high))


def evened_tail(packer: Packer, pages: list[Page], height: int) -> list[Page]:
    """A last page of a few magnets beside full ones: the last two pages poured again with shorter columns, so
    both are fair shares (the pages before them, and how many there are, unchanged)."""
    style = packer.style
    start = packer.starts[-2]
    head, tail = pages[:-2], pages[-2:]
    split = split_fields(tail)
    best = (evenness(tail), tail)
    for shorter in range(height - style.pitch // 2, style.head_height + 2 * style.pitch, -max(2, style.pitch // 2)):
        try:
            tried = packer.pour(shorter, start)
        except Stuck:
            break
        if len(tried) > 2:
            break
        if split_fields(tried) <= split and evenness(tried) > best[0]:
            best = (evenness(tried), tried)
    return [*head, *best[1]]


def fewest_pages(magnets: Sequence[Magnet], style: Typeface, area: tuple[int, int, int, int]) -> int:
    """The fewest pages the labels could take at all: their area (a gap around each) over the columns' area."""
    texts = label_texts(magnets, style)
    covered = sum((label_for(m, texts[m.nick], style, 0).width + style.gap) * style.pitch for m in magnets)
    return max(1, -(-covered // max(1, (area[2] - area[0]) * (area[3] - area[1]))))


def plan(
    magnets: Sequence[Magnet],
    band_list: Sequence[Band],
    top: Quarters,
    profile: Profile,
    area: tuple[int, int, int, int],
    gutter: int,
    moved: dict[str, int] | None = None,
) -> Plan:
    """The wall's plan of a size: columns of one width (``columns.plan``), or packed where that takes fewer pages.

    The arrows between fields and the ticks of empty halves are kept where they cost no page.
    """
    even = columns_plan(magnets, band_list, top, profile, area, gutter, moved)
    if len(even.pages) <= fewest_pages(magnets, even.typeface, area) and not midword(even.pages):
        return even  # no packing can save a page (the labels alone cover as many) nor a word broken
    size = profile.nick_px
    by_lines = [
        lined(magnets, band_list, top, profile, area, gutter, moved, arrows=True),
        lined(magnets, band_list, top, profile, area, gutter, moved),
    ]
    found = [
        packed(size, magnets, band_list, top, profile, area, gutter, moved, arrows=True, ticks=True),
        even,
        packed(size, magnets, band_list, top, profile, area, gutter, moved),  # the arrows never cost a page
        *by_lines,
    ]
    tries = [one for one in found if one is not None]
    widest = area[2] - area[0]
    # A ruler poured line by line mixes strengths on a line (its quarters rising left to right while the lines go
    # down): read as a ruler it is harder, so it is chosen only where it saves a page or evens the pages.
    lines_poured = {id(one) for one in by_lines if one is not None}

    def avoidable(one: Plan) -> int:  # words broken that a column as wide as the page would hold whole
        return broken_words((label for page in one.pages for label in page.labels()), one.typeface, widest)

    # The fewest pages; then no page near empty beside a full one; columns rather than lines; no word broken where a
    # wider column holds it; the fewest words broken at all (a word wider than any column, with a hyphen); the arrows.
    return min(
        tries,
        key=lambda one: (
            len(one.pages),
            evenness(one.pages) < 0.25,
            id(one) in lines_poured,
            avoidable(one),
            midword(one.pages),
            not one.typeface.lead,
        ),
    )


def evenness(pages: list[Page]) -> float:
    """How evenly full the pages are: the emptiest page's magnets over the fullest's (1: all as full)."""
    held = [sum(label.width * label.rows for label in page.labels()) for page in pages]
    return min(held) / max(1, max(held))


def midword(pages: list[Page]) -> int:
    """How many labels on the pages break a word between two lines."""
    return broken_words(label for page in pages for label in page.labels())


def evened(
    tries: list[tuple[tuple[int, int, int], Liner, int, int, list[Page]]], height: int
) -> tuple[int, int, list[Page]]:
    """The best try (the first) with its columns as short as keeps the pages as few and evenly full, none near
    empty; where it still leaves a page near empty, its equals (other widths, folded or not) are evened too."""
    score, liner, count, width, pages = tries[0]
    style = liner.style
    if len(pages) > 1:  # the columns as short as keeps the pages as few: the pages evenly full, none near empty
        found = [(evenness(pages), count, width, pages, liner)]
        # Where the best try still leaves a page near empty, its equals (other widths, folded or not) are evened too.
        for one in tries:
            if found[0][0] >= 0.25 and one is not tries[0]:
                break
            if one[0][:2] != score[:2]:
                break
            _, liner, count, width, pages = one
            split = split_fields(pages)
            found.append((evenness(pages), count, width, pages, liner))
            lowest = max(style.head_height + style.pitch, height - 8 * style.pitch)  # four lines of shorter columns
            for middle in range(height - style.pitch // 2, lowest, -max(2, style.pitch // 2)):
                tried = trimmed(liner.pour(count, width, middle))
                if len(tried) > len(pages):
                    break
                if split_fields(tried) <= split and midword(tried) <= score[1]:
                    found.append((evenness(tried), count, width, tried, liner))
            if max(found, key=lambda one: one[0])[0] >= 0.25:
                break
        evenest, count, width, pages, liner = max(found, key=lambda one: one[0])
        if evenest < 0.25:  # still a last page of a few magnets: the last two poured again with shorter columns
            pages = lined_tail(liner, count, width, height, pages)
    return count, width, pages


def lined_tail(liner: Liner, count: int, width: int, height: int, pages: list[Page]) -> list[Page]:
    """The pages with their last two (or three) poured again with shorter columns where that evens them (as many
    pages)."""
    style = liner.style
    best = (evenness(pages), pages)
    split = split_fields(pages)
    for last in (2, 3):  # the last two pages share the stub, else the last three
        lowest = max(style.head_height + 2 * style.pitch, height - 8 * style.pitch)
        for shorter in range(height - style.pitch // 2, lowest, -max(2, style.pitch // 2)):
            tried = trimmed(liner.pour(count, width, height, (max(0, len(pages) - last), shorter)))
            if len(tried) > len(pages):
                break
            if split_fields(tried) <= split and evenness(tried) > best[0]:
                best = (evenness(tried), tried)
        if best[0] >= 0.3:
            break
    return best[1]


def lined(
    magnets: Sequence[Magnet],
    band_list: Sequence[Band],
    top: Quarters,
    profile: Profile,
    area: tuple[int, int, int, int],
    gutter: int,
    moved: dict[str, int] | None = None,
    arrows: bool = False,
) -> Plan | None:
    """The ruler poured line by line (display/lines.py) into columns of one width: the fewest pages, then the
    fewest words broken, the fewest names wrapped; then the columns as short as keeps the pages evenly full (None:
    no column width fits the area)."""
    field_texts = tuple(format_strength(q) for q in fields(top) if any(band.holds(q) for band in band_list))
    style = Typeface.at(profile.nick_px, profile, field_texts, arrows)
    area_width = area[2] - area[0]
    height = max(area[3] - area[1], style.head_height + style.pitch) - style.zigzag
    held = {q: list(ms) for q, ms in magnets_by_field(magnets).items()}
    texts = label_texts(magnets, style)
    labels: dict[tuple[str, int], Label] = {}
    tries: list[tuple[tuple[int, int, int], Liner, int, int, list[Page]]] = []
    for fold in (False, True):
        liner = Liner(
            [(band, found) for band, found in units(magnets, band_list, top, fold) if found],
            held,
            texts,
            moved or {},
            style,
            labels,
        )
        for count in range(1, 9):
            width = (area_width - gutter * (count - 1)) // count
            if count > 1 and width - style.chip < style.nick.size * NARROWEST_PACKED_EMS:
                break  # narrower columns would wrap ordinary names
            if width > style.nick.size * WIDEST_LINE_EMS:
                continue  # a line across the whole panel hides the numbers in it: the eye finds a field down a column
            pages = trimmed(liner.pour(count, width, height))
            wrapped = sum(1 for page in pages for label in page.labels() if label.rows > 1)
            tries.append(((len(pages), midword(pages), wrapped), liner, count, width, pages))
    if not tries:
        return None
    tries.sort(key=lambda one: (one[0], -one[2]))  # a tie: more, shorter lines, read like the ruler
    count, width, pages = evened(tries, height)
    wrapped = sum(1 for page in pages for label in page.labels() if label.rows > 1)
    return Plan(style, width, pages, wrapped)
