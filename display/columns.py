"""The strength columns: every field of the scale, every magnet at its field, like the printed board.

The scale is cut into the club's columns (kiosk.scale.columns: 0–9, 10–19, …, 50–top),
each in its own ink. Each column is a ruler of all its fields: a field holding magnets is
a row of framed labels that wraps into as many lines as it needs, an empty field is a thin
tick, so players can count arrows. Nobody is hidden: type never goes below the legibility
minimum (3 mm capitals), so when a size's magnets do not fit, the scale is split into
pages, as few as that minimum allows, each break between two fields. Where a field or a
column goes on in the next column, its number and header are repeated.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

from display.canvas import Box, Canvas
from display.fonts import BOLD, NICK, Font, cap_height, drawable, font, line_height, unique_texts, width
from display.profiles import Profile
from kiosk.board import Magnet
from kiosk.events import nick_key
from kiosk.scale import QUARTERS, Quarters, fields, format_strength, to_grade
from kiosk.scale import columns as column_ranges

# A label is never wider than this many nickname-sized ems (a real magnet has a size too).
LONGEST_LABEL_EMS = 9
# A column is never so narrow that an ordinary nickname (about ten letters) must be cut.
NARROWEST_LABEL_EMS = 6
# How much larger than the minimum the type may grow when the pages stay as few.
GROWTH = (1.25,)


@dataclass(frozen=True, slots=True)
class Band:
    """One column of the wall: the fields from ``lowest`` to ``highest`` and how it looks."""

    lowest: Quarters
    highest: Quarters
    ink: str
    header: str  # "solid", "hatch" or "outline"
    label: str = "frame"  # "frame": framed in the ink; "fill": filled with it (a light ink)

    @property
    def title(self) -> str:
        """The range as people say it: ``30–39``."""
        return f"{self.lowest // QUARTERS}–{self.highest // QUARTERS}"

    @property
    def grades(self) -> str:
        """The official grades the column converts to, as on the printed board: ``20–11 kyu``."""
        low, high = to_grade(self.lowest), to_grade(self.highest)
        low_number, low_unit = low.split()
        high_number, high_unit = high.split()
        if low_unit == high_unit:
            return f"{low_number}–{high_number} {low_unit}"
        return f"{low}–{high}"

    def holds(self, q: Quarters) -> bool:
        """True when the field ``q`` belongs to this column."""
        return self.lowest <= q <= self.highest


# Strongest first. Black ends both sides of the scale, so the bottom column gets an
# outline header to tell it from the top one.
COLOUR_STYLES = (
    ("black", "solid", "frame"),
    ("red", "solid", "frame"),
    ("blue", "solid", "frame"),
    ("green", "solid", "frame"),
    ("yellow", "solid", "fill"),
    ("black", "outline", "frame"),
)
# Black-and-red panels: patterns and frames stand in for the missing inks.
TWO_INK_STYLES = (
    ("black", "solid", "frame"),
    ("red", "solid", "frame"),
    ("black", "hatch", "frame"),
    ("red", "hatch", "frame"),
    ("black", "outline", "frame"),
    ("red", "outline", "frame"),
)


def bands(top: Quarters, colourful: bool = True) -> tuple[Band, ...]:
    """The columns of the scale, strongest first."""
    styles = COLOUR_STYLES if colourful else TWO_INK_STYLES
    ranges = column_ranges(top)
    # The styles are strongest first too; a short scale takes the lower end of them.
    return tuple(
        Band(low, high, *styles[max(0, len(styles) - len(ranges) + index)]) for index, (low, high) in enumerate(ranges)
    )


@dataclass(frozen=True, slots=True)
class Type:
    """The type sizes and spacing of one attempt at laying out the columns."""

    nick: Font
    field: Font
    head: Font
    label_height: int
    frame: int
    pad: int
    gap: int
    chip: int  # the width of the field numbers' gutter at a column's left
    thin: int  # the height of an empty field's tick
    widest_label: int
    lead: int = 0  # a strip left of the field numbers for the arrows between neighbouring fields (0: none)
    ticks: bool = False  # a strength's halves and quarters stacked, the empty ones thin, where no line holds them

    @classmethod
    def at(
        cls,
        size: int,
        profile: Profile,
        field_texts: Sequence[str] = ("40.25",),
        arrows: bool = False,
        ticks: bool = False,
    ) -> Type:
        """The type for nicknames of ``size`` pixels; field numbers as large, and bold.

        With ``arrows`` each column keeps a narrow strip at its left for the small ↑ between
        neighbouring fields, as on the magnet board.
        """
        nick = font(NICK, size)
        field_font = font(NICK, size)
        widest_field = max((width(text, field_font) for text in field_texts), default=0)
        frame = max(1, round(size / 16))
        lead = max(5, round(size * 0.4)) if arrows else 0
        return cls(
            nick=nick,
            field=field_font,
            head=font(BOLD, size),
            label_height=line_height(nick) + 2 * frame,
            frame=frame,
            pad=max(2, round(size * 0.2)),
            gap=max(2, round(size * 0.15)),
            chip=round(widest_field) + max(4, round(size * 0.4)) + lead,
            thin=max(4, round(profile.mm(0.8))),
            widest_label=round(size * LONGEST_LABEL_EMS),
            lead=lead,
            ticks=ticks,
        )

    @property
    def head_height(self) -> int:
        """Height of a column's header band."""
        return line_height(self.head) + 2 * self.frame + self.gap

    @property
    def strip(self) -> int:
        """The height of the ink strip that heads a column going on from the one before."""
        return max(6, round(self.nick.size * 0.4)) + self.gap

    def chip_for(self, band: Band) -> int:
        """The gutter of a column of this band: as wide as its widest field number ("29" is narrower than "40.25")."""
        return _chip(self.field, band.lowest, band.highest, max(4, round(self.nick.size * 0.4))) + self.lead

    @property
    def zigzag(self) -> int:
        """The height of the zigzag at a column's foot (the arrow to a field in another column)."""
        return max(6, round(self.nick.size * 0.5))

    @property
    def arrow(self) -> int:
        """The width of the ↑ or ↓ on a magnet that moved."""
        return max(5, round(self.nick.size * 0.45))

    @property
    def slot(self) -> int:
        """The width of an empty half's or quarter's thin tick where it sits beside its strength's magnets."""
        return max(8, round(self.nick.size * 1.2))

    @property
    def pitch(self) -> int:
        """Vertical distance from one line of labels to the next."""
        return self.label_height + self.gap


@dataclass(slots=True)
class Label:
    """A magnet's label: its nickname as drawn (cut only when needed) and its box on the picture."""

    magnet: Magnet | None  # None for a field number standing inside a line (a half or quarter)
    text: str
    width: int
    box: Box = (0, 0, 0, 0)
    field: Quarters | None = None  # the field of a number standing inside a line
    moved: int = 0  # +1 / -1: the magnet moved up / down since the last club evening (a small ↑ or ↓)
    empty: bool = False  # an empty half or quarter among its strength's fields: its number and a thin tick


@dataclass(slots=True)
class Piece:
    """One thing in a column: a header, a field's lines of labels, or a run of empty fields."""

    kind: str  # "head", "field", "empty"
    band: Band
    height: int
    fields: tuple[Quarters, ...] = ()  # the field of a "field" piece, the fields of an "empty" run
    lines: list[list[Label]] = field(default_factory=list)
    numbers: list[Quarters | None] = field(default_factory=list)  # the field number at each line's start
    continued: bool = False  # a header or field number repeated where a column goes on
    top: int = 0  # y on the picture, set when the page is placed


@dataclass(slots=True)
class Page:
    """One page of a size's board: its columns of pieces, and the stretch of the scale it shows."""

    columns: list[list[Piece]]
    highest: Quarters = 0
    lowest: Quarters = 0

    def labels(self) -> Iterator[Label]:
        """Every magnet label on the page."""
        for column in self.columns:
            for piece in column:
                for line in piece.lines:
                    yield from (label for label in line if label.magnet is not None)

    @property
    def span(self) -> str:
        """The stretch of the scale, strongest first: ``56–30``."""
        return f"{format_strength(self.highest)}–{format_strength(self.lowest)}"


@dataclass(slots=True)
class Plan:
    """A size's board laid out: the type, the column width and the pages."""

    type: Type
    column_width: int
    pages: list[Page]
    cut: int = 0  # nicknames shortened with an ellipsis


@lru_cache(maxsize=256)
def _chip(face: Font, lowest: Quarters, highest: Quarters, pad: int) -> int:
    texts = [format_strength(q) for q in fields() if lowest <= q <= highest]
    return round(max(width(text, face) for text in texts)) + pad


def fields_of(band: Band, top: Quarters) -> tuple[Quarters, ...]:
    """The fields of a column, strongest first."""
    return tuple(q for q in reversed(fields(top)) if band.holds(q))


Groups = tuple[tuple[Band, tuple[tuple[Quarters, tuple[Magnet, ...]], ...]], ...]


@lru_cache(maxsize=16)
def grouped(magnets: tuple[Magnet, ...], band_list: tuple[Band, ...]) -> Groups:
    """The columns that hold magnets, each with its fields (strongest first) and their magnets (the web's board)."""
    found = []
    for band in band_list:
        on_band = sorted((m for m in magnets if band.holds(m.strength)), key=lambda m: (-m.strength, nick_key(m.nick)))
        if on_band:
            held = magnets_by_field(on_band)
            found.append((band, tuple((q, tuple(held[q])) for q in sorted(held, reverse=True))))
    return tuple(found)


def magnets_by_field(magnets: Sequence[Magnet]) -> dict[Quarters, list[Magnet]]:
    """The magnets of each field, in the order they hang (by nickname)."""
    found: dict[Quarters, list[Magnet]] = {}
    for magnet in sorted(magnets, key=lambda m: nick_key(m.nick)):
        found.setdefault(magnet.strength, []).append(magnet)
    return found


def flow_row(
    groups: list[tuple[Quarters, list[Label]]], kind: Type, room: int, numbered: bool = True
) -> tuple[list[list[Label]], list[Quarters | None]]:
    """The labels of one strength's fields left to right in lines of ``room`` pixels, as many lines as needed.

    A field that starts a line has its number in the column's gutter; a half or quarter that
    starts within a line gets its number there, before its first label, so the fields of one
    strength sit side by side as on the printed board.
    """
    lines: list[list[Label]] = [[]]
    numbers: list[Quarters | None] = [None]
    used = 0
    for q, labels in groups:
        if not labels:  # an empty half or quarter: a thin slot, so players can count the fields
            text = format_strength(q) if lines[-1] and numbered else ""  # unnumbered: a tick to count
            slot = Label(
                None,
                text,
                round(width(text, kind.field)) + kind.pad * (2 if text else 0) + kind.slot,
                field=q,
                empty=True,
            )
            need = slot.width + kind.gap + kind.pad  # placing it puts a pad before it
            if lines[-1] and used + need > room:
                lines.append([])
                numbers.append(None)
                used = 0
                slot = Label(None, "", kind.slot, field=q, empty=True)
                need = slot.width + kind.gap + kind.pad
            if not lines[-1]:
                numbers[-1] = q
            lines[-1].append(slot)
            used += need
            continue
        for index, label in enumerate(labels):
            tokens = [label]
            if index == 0 and lines[-1]:
                text = format_strength(q)
                tokens = [Label(None, text, round(width(text, kind.field)) + kind.pad, field=q), label]
            need = sum(token.width for token in tokens) + kind.gap * len(tokens) + (kind.pad if len(tokens) > 1 else 0)
            if lines[-1] and used + need > room:
                lines.append([])
                numbers.append(None)
                used = 0
                tokens = [label]
                need = label.width + kind.gap
            if not lines[-1] and index == 0:
                numbers[-1] = q
            lines[-1].extend(tokens)
            used += need
    return lines, numbers


def first_field(line: list[Label]) -> Quarters | None:
    """The field of the first magnet on a line."""
    return next((label.magnet.strength for label in line if label.magnet is not None), None)


def label_texts(magnets: Sequence[Magnet], kind: Type, room: int) -> dict[str, str]:
    """Each nickname's text on its label, shortened only to fit and never to look like another."""
    inner = min(room, kind.widest_label) - 2 * (kind.frame + kind.pad)
    return _label_texts(tuple(sorted({m.nick for m in magnets})), kind.nick, inner)


@lru_cache(maxsize=64)  # the layout tries several column widths with the same names
def _label_texts(nicks: tuple[str, ...], face: Font, inner: int) -> dict[str, str]:
    return unique_texts({nick: drawable(nick, face) for nick in nicks}, face, inner)


def pieces(
    magnets: Sequence[Magnet],
    band_list: Sequence[Band],
    top: Quarters,
    kind: Type,
    column: int,
    moved: dict[str, int] | None = None,
    every_field: bool = False,
) -> tuple[list[list[Piece]], int]:
    """Each band's header and fields as pieces (empty fields one piece each); and how many names were cut.

    With ``every_field`` (the printed board) an empty strength gets a numbered row like a held one, not a tick.
    """
    narrowest = column - max(kind.chip_for(band) for band in band_list)
    texts = label_texts(magnets, kind, narrowest - kind.arrow - kind.pad)  # room for a ↑ beside a long name
    cut = sum(1 for nick, text in texts.items() if text != drawable(nick, kind.nick))
    held = magnets_by_field(magnets)
    found = []
    for band in band_list:
        band_pieces = [Piece("head", band, kind.head_height)]
        room = column - kind.chip_for(band)
        for row in rows_of(band, top):
            if not every_field and not any(q in held for q in row):  # an empty strength: its fields as ticks
                band_pieces.append(Piece("empty", band, kind.thin, row))
                continue
            groups = []
            for q in sorted(row):  # halves and quarters left to right: a win is an arrow "up (or right)"
                groups.append(
                    (q, [label_for(m, texts[m.nick], kind, (moved or {}).get(m.nick, 0)) for m in held.get(q, ())])
                )
            lines, numbers = flow_row(groups, kind, room)  # empty halves and quarters drawn thin between
            if len(lines) > 1:  # short of room: the empty ones as bare ticks, their numbers left to counting
                lines, numbers = flow_row(groups, kind, room, numbered=False)
            if len(lines) > 1:  # no room for the thin slots: the magnets side by side without them, or
                groups = [(q, labels) for q, labels in groups if labels]  # stacked, each empty one a tick
                if not kind.ticks:
                    lines, numbers = flow_row(groups, kind, room)
            if len(lines) == 1 or len(row) == 1:
                band_pieces.append(Piece("field", band, len(lines) * kind.pitch, row, lines, numbers))
                continue
            # Side by side only where one line holds them; else stacked, the stronger above, like the ruler.
            by_field = dict(groups)
            for q in row:
                if q not in by_field and not every_field:
                    band_pieces.append(Piece("empty", band, kind.thin, (q,)))
                    continue
                lines, numbers = flow_row([(q, by_field.get(q, []))], kind, room)
                band_pieces.append(Piece("field", band, len(lines) * kind.pitch, (q,), lines, numbers))
        found.append(band_pieces)
    return found, cut


def compressed(band_pieces: list[list[Piece]], kind: Type) -> list[list[Piece]]:
    """The bands with long runs of empty strengths folded into one gap mark each, and empty bands folded away.

    Used only where the full ruler would cost a page more: fewer button presses beat ticks to count.
    The folded fields stay in the gap's ``fields``, so a page still says which strengths it spans.
    """
    found: list[list[Piece]] = []
    pending: tuple[Quarters, ...] = ()  # the fields of empty bands above the first band with magnets
    for one_band in band_pieces:
        if not any(piece.kind == "field" for piece in one_band):
            folded = tuple(q for piece in one_band for q in piece.fields)
            if found:
                found[-1].append(Piece("gap", found[-1][0].band, kind.thin * 2, folded))
            else:
                pending += folded
            continue
        band = one_band[0].band
        kept: list[Piece] = [one_band[0]]
        if pending:
            kept.append(Piece("gap", band, kind.thin * 2, pending))
            pending = ()
        run: list[Piece] = []
        for piece in [*one_band[1:], None]:
            if piece is not None and piece.kind == "empty":
                run.append(piece)
                continue
            if len(run) > 2:  # the first and last of a run stay, so its ends can still be counted
                kept += [
                    run[0],
                    Piece("gap", band, kind.thin * 2, tuple(q for p in run[1:-1] for q in p.fields)),
                    run[-1],
                ]
            else:
                kept += run
            run = []
            if piece is not None:
                kept.append(piece)
        found.append(kept)
    if pending and found:
        found[-1].append(Piece("gap", found[-1][0].band, kind.thin * 2, pending))
    return found


def label_for(magnet: Magnet, text: str, kind: Type, moved: int) -> Label:
    """A magnet's label, wide enough for its text and its ↑ or ↓."""
    arrow = kind.arrow + kind.pad if moved else 0
    return Label(magnet, text, round(width(text, kind.nick)) + 2 * (kind.frame + kind.pad) + arrow, moved=moved)


def rows_of(band: Band, top: Quarters) -> list[tuple[Quarters, ...]]:
    """The column's fields by whole strength, strongest first: one row holds 1, 2 or 4 fields, as printed."""
    found: list[tuple[Quarters, ...]] = []
    for q in fields_of(band, top):
        if found and found[-1][0] // QUARTERS == q // QUARTERS:
            found[-1] = (*found[-1], q)
        else:
            found.append((q,))
    return found


class Pourer:
    """Pours pieces into columns of a fixed height, and columns into pages of a fixed count."""

    def __init__(self, columns: int, height: int, kind: Type, whole_bands: bool = True) -> None:
        self.columns, self.height, self.kind, self.whole_bands = columns, height, kind, whole_bands
        self.pages: list[Page] = [Page([[]])]
        self.used = 0

    @property
    def column(self) -> list[Piece]:
        """The column being filled."""
        return self.pages[-1].columns[-1]

    def room(self) -> int:
        """Pixels left in the column being filled."""
        return self.height - self.used

    def new_column(self, band: Band, continued: bool) -> None:
        """Start a column (on a new page when this one is full), with the band's header."""
        if self.column and all(piece.kind == "head" for piece in self.column):
            self.column.clear()  # a column that got only its header is used for what follows instead
        elif self.column:
            if len(self.pages[-1].columns) == self.columns:
                self.pages.append(Page([[]]))
            else:
                self.pages[-1].columns.append([])
        self.used = 0
        # A column that goes on shows only a strip of its ink (the numbers say where it is on the scale);
        # but a page's first column always has the full header: it may be the only one of its band there.
        slim = continued and len(self.pages[-1].columns) > 1
        self.add(Piece("head", band, self.kind.strip if slim else self.kind.head_height, continued=slim))

    def add(self, piece: Piece) -> None:
        """Put a piece at the foot of the column being filled."""
        self.column.append(piece)
        self.used += piece.height

    def pour_band(self, band_pieces: list[Piece]) -> None:
        """A band: in the column being filled when it fits there whole, else from the top of the next."""
        band = band_pieces[0].band
        total = sum(piece.height for piece in band_pieces)
        first = band_pieces[0].height + (band_pieces[1].height if len(band_pieces) > 1 else 0)
        if self.column and (total if self.whole_bands else first) + self.kind.gap <= self.room():
            self.add(Piece("space", band, self.kind.gap))
            self.add(band_pieces[0])
        else:
            self.new_column(band, continued=False)
        for piece in band_pieces[1:]:
            self.pour_field(piece)

    def pour_field(self, piece: Piece) -> None:
        """A field: where it fits; a crowded field goes on in the next column, its number repeated."""
        if piece.height <= self.room():
            self.add(piece)
            return
        fresh = self.height - self.kind.head_height  # the room of a new column (a full header at worst)
        if piece.height <= fresh or self.room() < self.kind.pitch:
            self.new_column(piece.band, continued=True)
            if piece.height <= self.room():
                self.add(piece)
                return
        # Taller than a whole column: as many lines as fit here, the rest in the next columns; on a
        # new page when this one cannot hold it all, so a page break never cuts a field that fits a page.
        per_column = fresh // self.kind.pitch
        spare = self.room() // self.kind.pitch + (self.columns - len(self.pages[-1].columns)) * per_column
        if len(piece.lines) > spare and len(piece.lines) <= self.columns * per_column:
            if all(p.kind == "head" for p in self.column):  # no column of a bare header left behind
                self.pages[-1].columns.pop()
                if not self.pages[-1].columns:
                    self.pages.pop()
            self.pages.append(Page([[]]))
            self.used = 0
            self.add(Piece("head", piece.band, self.kind.head_height))  # a page starts with a full header
        lines, numbers = piece.lines, piece.numbers
        continued = False
        while lines:
            fit = max(1, self.room() // self.kind.pitch)
            part = numbers[:fit]
            if continued and part[0] is None:  # where a column goes on, the field number is repeated
                part = [first_field(lines[0]), *part[1:]]
            self.add(
                Piece(
                    "field",
                    piece.band,
                    min(fit, len(lines)) * self.kind.pitch,
                    piece.fields,
                    lines[:fit],
                    part,
                    continued=continued,
                )
            )
            lines, numbers, continued = lines[fit:], numbers[fit:], True
            if lines:
                self.new_column(piece.band, continued=True)


def pour(band_pieces: list[list[Piece]], columns: int, height: int, kind: Type, every_page: bool = False) -> list[Page]:
    """The pieces in pages of ``columns`` columns; a page break falls between fields.

    A column starts at a band's header when that costs no extra page; otherwise bands follow
    each other in a column, a header between them. With ``every_page`` (the printed board)
    pages of nothing but empty fields are kept.
    """
    pages: list[Page] = []
    for whole_bands in (True, False):
        pourer = Pourer(columns, height, kind, whole_bands)
        for one_band in band_pieces:
            pourer.pour_band(one_band)
        if not pages or len(pourer.pages) < len(pages):
            pages = pourer.pages
    # A page of nothing but empty fields at either end of the scale would be a button press for nothing.
    while not every_page and len(pages) > 1 and not any(pages[-1].labels()):
        pages.pop()
    while not every_page and len(pages) > 1 and not any(pages[0].labels()):
        pages.pop(0)
    for page in pages:
        held = [q for column in page.columns for piece in column for q in piece.fields]
        page.highest, page.lowest = max(held), min(held)
    return pages


def plan(
    magnets: Sequence[Magnet],
    band_list: Sequence[Band],
    top: Quarters,
    profile: Profile,
    area: Box,
    gutter: int,
    moved: dict[str, int] | None = None,
) -> Plan:
    """The fewest pages at the minimum type, then the largest type that keeps them as few."""
    smallest = profile.nick_px
    best = _plan_at(smallest, magnets, band_list, top, profile, area, gutter, moved)
    # The arrows between neighbouring fields take a strip of every column: drawn only where they cost
    # no page and shorten no name more.
    # Likewise the empty halves and quarters as ticks of their own where their strength's row is stacked.
    arrows = ticks = True
    arrowed = _plan_at(smallest, magnets, band_list, top, profile, area, gutter, moved, arrows, ticks)
    if len(arrowed.pages) > len(best.pages) or arrowed.cut > best.cut:
        ticks = False
        arrowed = _plan_at(smallest, magnets, band_list, top, profile, area, gutter, moved, arrows, ticks)
    arrows = len(arrowed.pages) <= len(best.pages) and arrowed.cut <= best.cut
    best = arrowed if arrows else best
    if len(best.pages) == 1:
        for growth in GROWTH:
            larger = _plan_at(
                round(smallest * growth),
                magnets,
                band_list,
                top,
                profile,
                area,
                gutter,
                moved,
                arrows,
                ticks and arrows,
            )
            if len(larger.pages) == 1 and larger.cut <= best.cut:
                return larger
    return best


def _plan_at(
    size: int,
    magnets: Sequence[Magnet],
    band_list: Sequence[Band],
    top: Quarters,
    profile: Profile,
    area: Box,
    gutter: int,
    moved: dict[str, int] | None = None,
    arrows: bool = False,
    ticks: bool = False,
    every_field: bool = False,
) -> Plan:
    """The best layout with nicknames of ``size`` px: fewest pages, then fewest cut names, then fewest columns."""
    field_texts = tuple(format_strength(q) for q in fields(top) if any(band.holds(q) for band in band_list))
    kind = Type.at(size, profile, field_texts, arrows, ticks)
    area_width, area_height = area[2] - area[0], area[3] - area[1]
    area_height = max(area_height, kind.head_height + kind.pitch)
    best: Plan | None = None
    for count in range(1, 9):
        column = (area_width - gutter * (count - 1)) // count
        if count > 1 and column - kind.chip < size * NARROWEST_LABEL_EMS:
            break  # narrower columns would cut ordinary names to a few letters
        band_pieces, cut = pieces(magnets, band_list, top, kind, column, moved, every_field)
        pages = pour(band_pieces, count, area_height - kind.zigzag, kind, every_field)  # room below for a zigzag
        if len(pages) > 1 and not every_field:  # the whole ruler costs a page: long empty stretches folded
            folded = pour(compressed(band_pieces, kind), count, area_height - kind.zigzag, kind)
            pages = folded if len(folded) < len(pages) else pages
        found = Plan(kind, column, pages, cut)
        if best is None or (len(pages), cut) < (len(best.pages), best.cut):  # a tie: fewer, wider columns
            best = found
    assert best is not None
    return best


def free_box(plan: Plan, page: Page, area: Box, gutter: int) -> Box:
    """The largest free room of a placed page: its unused columns, or the foot of its emptiest column."""
    kind = plan.type
    used = len(page.columns)
    per_page = max(1, (area[2] - area[0] + gutter) // (plan.column_width + gutter))
    if used < per_page:
        left = area[0] + used * (plan.column_width + gutter)
        return (left, area[1], area[2], area[3])
    best: Box = (area[0], area[3], area[0], area[3])
    for index, column in enumerate(page.columns):
        bottom = column[-1].top + column[-1].height + kind.gap if column else area[1]
        left = area[0] + index * (plan.column_width + gutter)
        if area[3] - bottom > best[3] - best[1]:
            best = (left, bottom, left + plan.column_width, area[3])
    return best


def place(plan: Plan, page: Page, area: Box, gutter: int) -> None:
    """Set where every piece and label of a page lies on the picture."""
    kind = plan.type
    x = area[0]
    for column in page.columns:
        y = area[1]
        for piece in column:
            piece.top = y
            if piece.kind == "field":
                for number, line in enumerate(piece.lines):
                    left = x + kind.chip_for(piece.band)
                    top = y + number * kind.pitch
                    for label in line:
                        if label.magnet is None:
                            left += kind.pad
                        label.box = (left, top, left + label.width - 1, top + kind.label_height - 1)
                        left += label.width + kind.gap
            y += piece.height
        x += plan.column_width + gutter


def draw(canvas: Canvas, plan: Plan, page: Page, area: Box, gutter: int) -> None:
    """Draw one page of the columns into the area."""
    place(plan, page, area, gutter)
    kind = plan.type
    x = area[0]
    following = [column for later in plan.pages[plan.pages.index(page) :] for column in later.columns][1:]
    for index, column in enumerate(page.columns):
        if index < len(following) and column:
            target = next((piece.band for piece in following[index] if piece.kind != "head"), None)
            if target is not None:
                bottom = column[-1].top + column[-1].height
                _draw_zigzag(canvas, kind, target, x, bottom)
        if kind.lead:
            _draw_field_arrows(canvas, kind, x, column)
        for piece in column:
            if piece.kind == "head":
                box = (x, piece.top, x + plan.column_width - 1, piece.top + piece.height - kind.gap - 1)
                if piece.continued:
                    _draw_strip(canvas, piece.band, kind, box)
                else:
                    _draw_head(canvas, piece.band, kind, box)
            elif piece.kind == "empty":
                _draw_empty(canvas, kind, x, piece)
            elif piece.kind == "gap":
                _draw_gap(canvas, kind, x, piece)
            elif piece.kind == "field":
                _draw_field(canvas, piece, kind, x)
        x += plan.column_width + gutter


def field_arrows(column: list[Piece], size: int) -> list[tuple[Piece, int]]:
    """Where a column's small ↑ marks stand: between two neighbouring fields, one of them holding magnets.

    Each is the lower piece and the mark's top. Between two empty fields' thin ticks there is no
    room (the ticks alone are counted); a mark that would touch the one above is left out.
    """
    found: list[tuple[Piece, int]] = []
    last = -size
    for upper, lower in pairwise(column):
        if not (upper.kind in ("field", "empty") and lower.kind in ("field", "empty") and upper.band == lower.band):
            continue
        if "field" not in (upper.kind, lower.kind) or upper.fields == lower.fields:
            continue  # two ticks, or the same field going on
        top = lower.top - size // 2
        if top > last + 1 and top + size <= lower.top + lower.height:
            found.append((lower, top))
            last = top + size - 1
    return found


def _draw_field_arrows(canvas: Canvas, kind: Type, x: int, column: list[Piece]) -> None:
    """A small ↑ in the strip left of the numbers where one field meets the next, as on the magnet board."""
    size = kind.lead - 1
    left = x + 1
    for lower, top in field_arrows(column, size):
        canvas.draw.polygon(
            [(left, top + size - 1), (left + size - 1, top + size - 1), (left + (size - 1) / 2, top)],
            fill=canvas.ink(lower.band.ink if lower.band.ink != "yellow" else "black"),
        )


def _draw_head(canvas: Canvas, band: Band, kind: Type, box: Box) -> None:
    middle_y = (box[1] + box[3]) / 2
    ink_on = "black"
    if band.header == "solid":
        canvas.box(box, fill=band.ink)
        ink_on = "black" if band.ink == "yellow" else "white"
    elif band.header == "hatch":
        canvas.box(box, outline=band.ink, line=kind.frame)
        canvas.hatch(box, band.ink, step=max(4, kind.gap * 2), line=1)
    else:
        canvas.box(box, fill="white", outline=band.ink, line=kind.frame * 2)
    title_width = width(band.title, kind.head)
    grades_width = width(band.grades, kind.head)
    inner = box[2] - box[0] - 2 * kind.pad
    with_grades = title_width + grades_width + 3 * kind.pad <= inner
    if band.header == "hatch":  # paper behind the words, so the pattern does not eat them
        inner_top, inner_bottom = box[1] + kind.frame, box[3] - kind.frame
        canvas.box(
            (box[0] + kind.frame, inner_top, round(box[0] + kind.frame + title_width + 2 * kind.pad), inner_bottom),
            fill="white",
        )
        if with_grades:
            canvas.box(
                (
                    round(box[2] - kind.frame - grades_width - 2 * kind.pad),
                    inner_top,
                    box[2] - kind.frame,
                    inner_bottom,
                ),
                fill="white",
            )
        ink_on = "black"
    canvas.text((box[0] + kind.pad + kind.frame, middle_y), band.title, kind.head, ink=ink_on, anchor="lm")
    if with_grades:  # the conversion to official grades hangs beside the scale, as on the printed board
        canvas.text((box[2] - kind.pad - kind.frame, middle_y), band.grades, kind.head, ink=ink_on, anchor="rm")


def _draw_strip(canvas: Canvas, band: Band, kind: Type, box: Box) -> None:
    """The head of a column that goes on: a strip in the band's ink (framed or hatched on two inks)."""
    if band.header == "solid":
        canvas.box(box, fill=band.ink)
    elif band.header == "hatch":
        canvas.box(box, outline=band.ink, line=1)
        canvas.hatch(box, band.ink, step=max(4, kind.gap * 2), line=1)
    else:
        canvas.box(box, fill="white", outline=band.ink, line=kind.frame * 2)


def _draw_gap(canvas: Canvas, kind: Type, x: int, piece: Piece) -> None:
    """Empty strengths folded away: three dots under the field numbers."""
    dot = max(2, kind.frame + 1)
    spacing = 3 * dot
    middle = piece.top + piece.height // 2
    right = x + kind.chip_for(piece.band) - max(3, kind.pad)
    for index in range(3):
        left = right - dot - index * spacing
        canvas.box((left, middle - dot // 2, left + dot - 1, middle - dot // 2 + dot - 1), fill="black")


def _draw_zigzag(canvas: Canvas, kind: Type, target: Band, x: int, top: int) -> None:
    """The arrow down to a field hanging in another column: a zigzag in that column's ink, under the numbers."""
    height = kind.zigzag - 2
    left = x + kind.pad
    right = left + round(kind.nick.size * 2.2)
    teeth = 4
    step = (right - left) / teeth
    points = [(left + i * step, top + 2 + (height if i % 2 else 0)) for i in range(teeth + 1)]
    canvas.draw.line(points, fill=canvas.ink(target.ink), width=max(2, kind.frame + 1), joint="curve")


def _draw_empty(canvas: Canvas, kind: Type, x: int, piece: Piece) -> None:
    """Empty fields: short ticks under the field numbers, side by side for the halves and quarters of a strength.

    A whole five gets a longer, thicker tick, so players can count along the ruler.
    """
    y = piece.top + piece.height // 2
    right = x + kind.chip_for(piece.band) - max(3, kind.pad)
    left = x + kind.lead + kind.pad
    count = len(piece.fields)
    if count == 1 and piece.fields[0] % QUARTERS == 0:
        long = piece.fields[0] % (5 * QUARTERS) == 0
        canvas.hline(left if long else (left + right) // 2, right, y, line=2 if long else 1)
        return
    # Halves and quarters keep the slot they have on a full row of four, so the ticks line up.
    step = (right - left + kind.gap) / 4
    for q in piece.fields:
        slot = q % QUARTERS
        start = round(left + slot * step)
        canvas.hline(start, round(start + step - kind.gap), y, line=2 if q % (5 * QUARTERS) == 0 else 1)


def _draw_field(canvas: Canvas, piece: Piece, kind: Type, x: int) -> None:
    ascent = kind.nick.getmetrics()[0]
    for number, line in zip(piece.numbers, piece.lines, strict=True):
        if number is not None and line:
            baseline = line[0].box[1] + kind.frame + ascent
            canvas.drawn_text(
                (x + kind.chip_for(piece.band) - max(3, kind.pad), baseline),
                format_strength(number),
                kind.field,
                anchor="rs",
            )
        for label in line:
            if label.magnet is None:
                if label.text:
                    canvas.drawn_text(
                        (label.box[0], label.box[1] + kind.frame + ascent), label.text, kind.field, anchor="ls"
                    )
                if label.empty:  # a thin tick where the magnets of this half or quarter would hang
                    middle = (label.box[1] + label.box[3]) // 2
                    canvas.hline(label.box[2] - kind.slot + 1, label.box[2], middle)
            else:
                _draw_label(canvas, label, piece.band, kind)


def _draw_label(canvas: Canvas, label: Label, band: Band, kind: Type) -> None:
    box = label.box
    fill = band.ink if band.label == "fill" else "white"
    frame_ink = "black" if band.label == "fill" else band.ink
    canvas.box(box, fill=fill)
    if label.magnet.guest:
        canvas.dashed_box(box, frame_ink, kind.frame, dash=max(3, kind.pad))
    else:
        canvas.box(box, outline=frame_ink, line=kind.frame)
    canvas.drawn_text((box[0] + kind.frame + kind.pad, box[1] + kind.frame), label.text, kind.nick)
    if label.moved:
        _draw_arrow(canvas, kind, label.moved, (box[2] - kind.frame - kind.pad - kind.arrow, box[1], box[3]))


def _draw_arrow(canvas: Canvas, kind: Type, direction: int, where: tuple[int, int, int]) -> None:
    """A small ↑ (a filled triangle over a stem) or ↓ inside a label's right end."""
    left, top, _ = where
    cap = cap_height(kind.nick)
    baseline = top + kind.frame + kind.nick.getmetrics()[0]
    head = kind.arrow
    tip, base = (baseline - cap, baseline - cap + head) if direction > 0 else (baseline, baseline - head)
    middle = left + head / 2
    canvas.draw.polygon([(left, base), (left + head - 1, base), (middle, tip)], fill=canvas.ink("black"))
    stem = max(1, head // 4)
    low, high = sorted((base, baseline if direction > 0 else baseline - cap))
    canvas.box((round(middle - stem / 2), low, round(middle - stem / 2) + stem - 1, high), fill="black")


def report(plan: Plan, page: Page) -> list[dict[str, object]]:
    """Every magnet label of a placed page, as the layout report lists it."""
    cap = cap_height(plan.type.nick)
    return [
        {
            "nick": label.magnet.nick,
            "size": label.magnet.size,
            "field": format_strength(label.magnet.strength),
            "text": label.text,
            "box": list(label.box),
            "cap_height_px": cap,
        }
        for label in page.labels()
    ]
