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
from display.profiles import Profile
from kiosk.bands import Band, magnets_by_field
from kiosk.board import Magnet
from kiosk.scale import QUARTERS, Quarters, fields, format_strength

# A unit of a band's ruler: a strength's row of fields holding magnets, an empty strength (ticks), or a fold ("···").
Unit = tuple[str, tuple[Quarters, ...]]
# A packed column holds this many nickname-sized ems of name at the least (a longer name wraps, never cut).
NARROWEST_PACKED_EMS = 6
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
            1.0 if label.rows == 1 else 0.6 for line in piece.lines for label in line if label.magnet is not None
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

    def pour(self, height: int) -> list[Page]:
        """The ruler in pages of columns ``height`` tall: each page the one of its tries that holds the most, its
        columns each as wide as packs best, or all of one width."""
        pages: list[Page] = []
        at = Cursor(0, -1)
        most = max(1, (self.area_width + self.gutter) // (self.narrowest + self.gutter))
        while at.band < len(self.units):
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
    return trimmed(packer.pour(high))


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
    if len(even.pages) <= fewest_pages(magnets, even.typeface, area):
        return even  # no packing can save a page: the labels alone cover as many
    size = profile.nick_px
    best = packed(size, magnets, band_list, top, profile, area, gutter, moved, arrows=True, ticks=True)
    plain = packed(size, magnets, band_list, top, profile, area, gutter, moved)  # the arrows never cost a page
    if plain is not None and (best is None or len(plain.pages) < len(best.pages)):
        best = plain
    if best is None:
        return even
    return best if len(best.pages) < len(even.pages) else even
