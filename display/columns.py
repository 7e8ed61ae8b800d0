"""The strength columns: every field of the scale, every magnet at its field, like the printed board.

The scale is cut into the club's columns (kiosk.bands: 0–9, 10–19, …, 50–top),
each in its own ink. Each column is a ruler of all its fields: a field holding magnets is
a row of framed labels that wraps into as many lines as it needs, an empty field is a thin
tick, so players can count arrows. Nobody is hidden and no name is cut: type never goes
below the legibility minimum (3 mm capitals), a label too long for its column wraps onto
a second line (at a space where it has one), so the initial or number that tells two
players apart is always there; when a size's magnets do not fit, the scale is split into
pages, as few as that minimum allows, each break between two fields. Where a field or a
column goes on in the next column, its number and header are repeated.
"""

from __future__ import annotations

import dataclasses
import math
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

from display.canvas import Box, Canvas
from display.fonts import BOLD, INVISIBLE, NICK, Font, cap_height, drawable, font, line_height, substitute, width
from display.profiles import Profile
from kiosk.bands import Band, fields_of, magnets_by_field
from kiosk.board import Magnet
from kiosk.scale import QUARTERS, Quarters, fields, format_strength

# A label wider than this many nickname-sized ems wraps onto a second line (a real magnet has a size too).
LONGEST_LABEL_EMS = 9
# A column is never so narrow that an ordinary nickname (about ten letters) must wrap.
NARROWEST_LABEL_EMS = 6
# How much larger than the minimum the type may grow when the pages stay as few.
GROWTH = (1.25,)
HYPHEN = "-"  # drawn where a word too long for any column is broken between two lines


@dataclass(frozen=True, slots=True)
class Typeface:
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
    mark: int = 2  # the thickness of every mark that means something (an empty field's dash, a guest's frame)
    two_mm: int = 10  # 2 mm in pixels: the least size of a mark read from 2 m (arrows, a guest frame's dashes)

    @classmethod
    def at(
        cls,
        size: int,
        profile: Profile,
        field_texts: Sequence[str] = ("40.25",),
        arrows: bool = False,
        ticks: bool = False,
    ) -> Typeface:
        """The type for nicknames of ``size`` pixels; field numbers as large, and bold.

        With ``arrows`` each column keeps a narrow strip at its left for the small ↑ between
        neighbouring fields, as on the magnet board.
        """
        nick = font(NICK, size)
        field_font = font(NICK, size)
        widest_field = max((width(text, field_font) for text in field_texts), default=0)
        frame = max(1, round(size / 16))
        two_mm = round(profile.mm(2))
        lead = max(two_mm + 1, round(size * 0.4)) if arrows else 0  # the ↑ between fields: 2 mm at least
        return cls(
            nick=nick,
            field=field_font,
            head=font(BOLD, size),
            label_height=line_height(nick) + 2 * frame,
            frame=frame,
            pad=max(2, round(size * 0.2)),
            gap=max(2, round(size * 0.15)),
            chip=round(widest_field) + max(4, round(size * 0.4)) + lead,
            thin=max(4, round(profile.mm(0.8))),  # a 2-px dash with paper above and below
            widest_label=round(size * LONGEST_LABEL_EMS),
            lead=lead,
            ticks=ticks,
            mark=max(2, round(profile.mm(0.35))),
            two_mm=two_mm,
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
        """The width of the ↑ or ↓ on a magnet that moved: 2 mm at least, read from 2 m."""
        return max(self.two_mm, round(self.nick.size * 0.45))

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
    """A magnet's label: its nickname whole, the lines it is drawn in, and its box on the picture."""

    magnet: Magnet | None  # None for a field number standing inside a line (a half or quarter)
    text: str
    width: int
    box: Box = (0, 0, 0, 0)
    field: Quarters | None = None  # the field of a number standing inside a line
    moved: int = 0  # +1 / -1: the magnet moved up / down since the last club evening (a small ↑ or ↓)
    empty: bool = False  # an empty half or quarter among its strength's fields: its number and a thin tick
    parts: tuple[str, ...] = ()  # the text's lines, top to bottom, when it wraps ("".join(parts) == text)
    # How many lines of the column the label takes (two or more only when its name wraps); kept, not counted
    # again: the layouts ask it of every label in every try.
    rows: int = dataclasses.field(init=False, default=1)

    def __post_init__(self) -> None:
        self.rows = max(1, len(self.parts))


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
    widths: list[int] = field(default_factory=list)  # each column's own width (display/packing.py); none: the plan's

    def width_of(self, index: int, default: int) -> int:
        """The width of the page's column ``index``: its own, else the plan's one column width."""
        return self.widths[index] if index < len(self.widths) else default

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

    typeface: Typeface
    column_width: int
    pages: list[Page]
    wrapped: int = 0  # labels whose names take two lines or more (never cut)

    @property
    def cut(self) -> int:
        """Labels that are not drawn on one line: the layouts are compared by it (a name is never shortened)."""
        return self.wrapped


@lru_cache(maxsize=256)
def _chip(face: Font, lowest: Quarters, highest: Quarters, pad: int) -> int:
    texts = [format_strength(q) for q in fields() if lowest <= q <= highest]
    return round(max(width(text, face) for text in texts)) + pad


def flow_row(
    groups: list[tuple[Quarters, list[Label]]], style: Typeface, room: int, numbered: bool = True
) -> tuple[list[list[Label]], list[Quarters | None]]:
    """The labels of one strength's fields left to right in lines of ``room`` pixels, as many lines as needed.

    A field that starts a line has its number in the column's gutter; a half or quarter that
    starts within a line gets its number there, before its first label, so the fields of one
    strength sit side by side as on the printed board. A label whose name wraps stands on lines
    of its own: the lines under its first are left empty (``[]``) for the rest of its name.
    """
    # Long: one line-filling loop: every branch moves the same state (the line, its numbers, the room used).
    lines: list[list[Label]] = [[]]
    numbers: list[Quarters | None] = [None]
    used = 0
    after_tall = False  # the last label wrapped: what follows starts on a line of its own

    def new_line() -> None:
        nonlocal used, after_tall
        lines.append([])
        numbers.append(None)
        used, after_tall = 0, False

    for q, labels in groups:
        if after_tall:
            new_line()
        if not labels:  # an empty half or quarter: a thin slot, so players can count the fields
            text = format_strength(q) if lines[-1] and numbered else ""  # unnumbered: a tick to count
            slot = Label(
                None,
                text,
                round(width(text, style.field)) + style.pad * (2 if text else 0) + style.slot,
                field=q,
                empty=True,
            )
            need = slot.width + style.gap + style.pad  # placing it puts a pad before it
            if lines[-1] and used + need > room:
                new_line()
                slot = Label(None, "", style.slot, field=q, empty=True)
                need = slot.width + style.gap + style.pad
            if not lines[-1]:
                numbers[-1] = q
            lines[-1].append(slot)
            used += need
            continue
        for index, label in enumerate(labels):
            if after_tall:
                new_line()
            tokens = [label]
            if index == 0 and lines[-1]:
                text = format_strength(q)
                tokens = [Label(None, text, round(width(text, style.field)) + style.pad, field=q), label]
            need = sum(token.width for token in tokens) + style.gap * len(tokens)
            need += style.pad if len(tokens) > 1 else 0
            if lines[-1] and (used + need > room or label.rows > 1):
                new_line()
                tokens = [label]
                need = label.width + style.gap
            if not lines[-1] and index == 0:
                numbers[-1] = q
            lines[-1].extend(tokens)
            used += need
            if label.rows > 1:  # the rest of its name on the lines below, nothing beside it
                for _ in range(label.rows - 1):
                    lines.append([])
                    numbers.append(None)
                after_tall = True
    return lines, numbers


def whole_lines(lines: list[list[Label]], fit: int) -> int:
    """The most of the first ``fit`` lines that cut no wrapped label in two (at least its first label's lines)."""
    if fit >= len(lines):
        return len(lines)
    while fit > 0 and not lines[fit]:  # line ``fit`` goes on with a name from above: break before that label
        fit -= 1
    if fit == 0:  # the first label alone is taller than the room: it goes whole
        fit = 1
        while fit < len(lines) and not lines[fit]:
            fit += 1
    return fit


def first_field(line: list[Label]) -> Quarters | None:
    """The field of the first magnet on a line."""
    return next((label.magnet.strength for label in line if label.magnet is not None), None)


def label_texts(magnets: Sequence[Magnet], style: Typeface) -> dict[str, str]:
    """Each nickname's text on its label: whole, as the wall can draw it, never looking like another's."""
    return _label_texts(tuple(sorted({m.nick for m in magnets})), style.nick)


@lru_cache(maxsize=64)  # the layout tries several column widths with the same names
def _label_texts(nicks: tuple[str, ...], face: Font) -> dict[str, str]:
    drawn: dict[str, str] = {}
    seen: set[str] = set()
    for nick in nicks:  # sorted: the same nickname always gets the same text
        text = drawable(nick, face)
        if text in seen:  # two nicknames that differ only in what cannot be drawn (joiners): their codes show it
            text = "".join(substitute(char) if char in INVISIBLE else char for char in nick)
        count = 2
        while text in seen:
            text, count = f"{drawable(nick, face)} ‹{count}›", count + 1
        seen.add(text)
        drawn[nick] = text
    return drawn


def wrap_name(text: str, face: Font, room: float, hyphen: float = 0) -> tuple[str, ...]:
    """A name in lines of at most ``room`` pixels: broken at its spaces, a word too long broken between letters.

    Each line keeps the space it broke at, so ``"".join(lines) == text``: nothing is dropped,
    the initial or number at the end of a name included. A character code (``‹1F9A9›``) is never broken.
    A broken word leaves ``hyphen`` pixels at its lines' ends for the hyphen drawn there, and no piece of it
    is one or two letters alone.
    """
    if width(text, face) <= room:
        return (text,)
    units = _units(text)
    lines: list[str] = []
    line = ""
    index = 0
    while index < len(units):
        if units[index] == " ":
            line += " "
            index += 1
            continue
        end = index
        while end < len(units) and units[end] != " ":
            end += 1
        word = "".join(units[index:end])
        if not line.strip() or width(line + word, face) <= room:
            if width(line + word, face) <= room:
                line += word
                index = end
                continue
            # A word longer than the line: cut into as few pieces as fit, of even widths (no lone last letter).
            cut_room = max(1.0, room - hyphen)
            pieces = max(1, min(math.ceil(width(word, face) / cut_room), (end - index) // 3))
            target = width(word, face) / pieces
            taken = 0  # letters on the piece being cut
            for position, unit in enumerate(units[index:end]):
                left = end - index - position  # letters not yet placed, this one included
                over = width(line + unit, face) > cut_room
                full = over or width(line, face) >= target
                # A long word's piece past the room breaks even leaving a letter or two (18 kana ran off the 4").
                if line.strip() and ((taken >= 3 and left >= 3 and full) or (over and end - index >= 6)):
                    lines.append(line)
                    line, taken = "", 0
                line += unit
                taken += 1
            index = end
            continue
        lines.append(line)
        line = ""
    if line:
        lines.append(line)
    return tuple(lines)


def _units(text: str) -> list[str]:
    """The text's characters, a character code (‹1F9A9›) and a letter with its combining marks each one unit."""
    units: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "‹" and "›" in text[index:]:
            end = text.index("›", index) + 1
            units.append(text[index:end])
            index = end
            continue
        if units and unicodedata.combining(char):
            units[-1] += char
        else:
            units.append(char)
        index += 1
    return units


def pieces(
    magnets: Sequence[Magnet],
    band_list: Sequence[Band],
    top: Quarters,
    style: Typeface,
    column: int,
    moved: dict[str, int] | None = None,
    every_field: bool = False,
) -> tuple[list[list[Piece]], int]:
    """Each band's header and fields as pieces (empty fields one piece each); and how many names wrap.

    With ``every_field`` (the printed board) an empty strength gets a numbered row like a held one, not a tick.
    """
    texts = label_texts(magnets, style)
    held = magnets_by_field(magnets)
    found = []
    wrapped = 0
    for band in band_list:
        band_pieces = [Piece("head", band, style.head_height)]
        room = column - style.chip_for(band)
        for row in rows_of(band, top):
            if not every_field and not any(q in held for q in row):  # an empty strength: its fields as ticks
                band_pieces.append(Piece("empty", band, style.thin, row))
                continue
            groups = []
            for q in sorted(row):  # halves and quarters left to right: a win is an arrow "up (or right)"
                labels = [
                    label_for(m, texts[m.nick], style, (moved or {}).get(m.nick, 0), room) for m in held.get(q, ())
                ]
                wrapped += sum(1 for label in labels if label.rows > 1)
                groups.append((q, labels))
            band_pieces += row_pieces(band, row, groups, style, room, every_field)
        found.append(band_pieces)
    return found, wrapped


def row_pieces(
    band: Band,
    row: tuple[Quarters, ...],
    groups: list[tuple[Quarters, list[Label]]],
    style: Typeface,
    room: int,
    every_field: bool,
) -> list[Piece]:
    """One strength's fields: side by side where one line holds them, else stacked, the stronger above."""
    # Empty halves and quarters between: a dash each, as every empty field is drawn (numbered on paper only).
    lines, numbers = flow_row(groups, style, room, numbered=every_field)
    if len(lines) > 1 and every_field:  # short of room: the empty ones as bare dashes, their numbers left to counting
        lines, numbers = flow_row(groups, style, room, numbered=False)
    if len(lines) > 1:  # no room for the thin slots: the magnets side by side without them, or
        groups = [(q, labels) for q, labels in groups if labels]  # stacked, each empty one a tick
        if not style.ticks:
            lines, numbers = flow_row(groups, style, room)
    if len(lines) == 1 or len(row) == 1:
        return [Piece("field", band, len(lines) * style.pitch, row, lines, numbers)]
    found = []
    by_field = dict(groups)
    for q in row:
        if q not in by_field and not every_field:
            found.append(Piece("empty", band, style.thin, (q,)))
            continue
        lines, numbers = flow_row([(q, by_field.get(q, []))], style, room)
        found.append(Piece("field", band, len(lines) * style.pitch, (q,), lines, numbers))
    return found


def compressed(band_pieces: list[list[Piece]], style: Typeface) -> list[list[Piece]]:
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
                found[-1].append(Piece("gap", found[-1][0].band, style.thin * 2, folded))
            else:
                pending += folded
            continue
        band = one_band[0].band
        kept: list[Piece] = [one_band[0]]
        if pending:
            kept.append(Piece("gap", band, style.thin * 2, pending))
            pending = ()
        run: list[Piece] = []
        for piece in [*one_band[1:], None]:
            if piece is not None and piece.kind == "empty":
                run.append(piece)
                continue
            if len(run) > 2:  # the first and last of a run stay, so its ends can still be counted
                kept += [
                    run[0],
                    Piece("gap", band, style.thin * 2, tuple(q for p in run[1:-1] for q in p.fields)),
                    run[-1],
                ]
            else:
                kept += run
            run = []
            if piece is not None:
                kept.append(piece)
        found.append(kept)
    if pending and found:
        found[-1].append(Piece("gap", found[-1][0].band, style.thin * 2, pending))
    return found


def label_for(magnet: Magnet, text: str, style: Typeface, moved: int, room: int | None = None) -> Label:
    """A magnet's label, wide enough for its text and its ↑ or ↓; on two lines or more where the name is long.

    A name wraps when its label would be wider than ``LONGEST_LABEL_EMS`` or than the column's
    ``room``; a single word as wide as the column still fits it stays whole on its line.
    """
    arrow = style.arrow + style.pad if moved else 0
    chrome = 2 * (style.frame + style.pad) + arrow
    natural = round(width(text, style.nick)) + chrome
    limit = style.widest_label if room is None else min(room - style.gap, style.widest_label)
    if natural <= limit:
        return Label(magnet, text, natural, moved=moved)
    inner = max(1, limit - chrome)
    if room is not None:  # a word longer than a label's usual width stays whole where the column holds it
        longest = max(width(word, style.nick) for word in text.split())
        inner = max(inner, min(math.ceil(longest), room - style.gap - chrome))
    hyphen = width(HYPHEN, style.nick)
    parts = wrap_name(text, style.nick, inner, hyphen)
    if room is not None and len(parts) > 1 and len(parts[-1].strip()) <= 3:  # an initial or number not left alone
        joined = parts[-2] + parts[-1]
        if width(joined, style.nick) <= room - style.gap - chrome:
            parts = (*parts[:-2], joined)
        elif " " in parts[-2].rstrip():  # the word before comes down with it: "Brzęczyszczykiewicz T."
            head, _, _ = parts[-2].rstrip().rpartition(" ")
            tail = parts[-2][len(head) + 1 :] + parts[-1]
            if width(tail, style.nick) <= room - style.gap - chrome:
                parts = (*parts[:-2], head + " ", tail)
    widest = max(round(width(drawn_part(parts, row), style.nick)) for row in range(len(parts)))
    return Label(magnet, text, widest + chrome, moved=moved, parts=parts if len(parts) > 1 else ())


def drawn_part(parts: Sequence[str], row: int) -> str:
    """A line of a wrapped name as drawn: a word broken at its end gets a hyphen, so nobody reads two names."""
    part = parts[row]
    return part + HYPHEN if row < len(parts) - 1 and part and not part.endswith(" ") else part.rstrip()


def broken_words(labels: Iterable[Label], style: Typeface | None = None, widest: int = 0) -> int:
    """How many labels break a word between two lines (a name broken at its spaces reads whole); with ``style``
    only the words a column ``widest`` pixels wide would hold whole (a break a wider column avoids)."""
    found = 0
    for label in labels:
        if not any(part and not part.endswith(" ") for part in label.parts[:-1]):
            continue
        if style is not None:
            text_width = max(round(width(drawn_part(label.parts, row), style.nick)) for row in range(label.rows))
            chrome = label.width - text_width
            longest = max(width(word, style.nick) for word in label.text.split())
            if longest + chrome + style.gap > widest - style.chip:
                continue  # wider than any column can be: broken, with a hyphen
        found += 1
    return found


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

    def __init__(self, columns: int, height: int, style: Typeface, whole_bands: bool = True) -> None:
        self.columns, self.height, self.style, self.whole_bands = columns, height, style, whole_bands
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
        self.add(Piece("head", band, self.style.strip if slim else self.style.head_height, continued=slim))

    def add(self, piece: Piece) -> None:
        """Put a piece at the foot of the column being filled."""
        self.column.append(piece)
        self.used += piece.height

    def pour_band(self, band_pieces: list[Piece]) -> None:
        """A band: in the column being filled when it fits there whole, else from the top of the next."""
        band = band_pieces[0].band
        total = sum(piece.height for piece in band_pieces)
        first = band_pieces[0].height + (band_pieces[1].height if len(band_pieces) > 1 else 0)
        if self.column and (total if self.whole_bands else first) + self.style.gap <= self.room():
            self.add(Piece("space", band, self.style.gap))
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
        fresh = self.height - self.style.head_height  # the room of a new column (a full header at worst)
        if piece.height <= fresh or self.room() < self.style.pitch:
            self.new_column(piece.band, continued=True)
            if piece.height <= self.room():
                self.add(piece)
                return
        # Taller than a whole column: as many lines as fit here, the rest in the next columns; on a
        # new page when this one cannot hold it all, so a page break never cuts a field that fits a page.
        per_column = fresh // self.style.pitch
        spare = self.room() // self.style.pitch + (self.columns - len(self.pages[-1].columns)) * per_column
        if len(piece.lines) > spare and len(piece.lines) <= self.columns * per_column:
            if all(p.kind == "head" for p in self.column):  # no column of a bare header left behind
                self.pages[-1].columns.pop()
                if not self.pages[-1].columns:
                    self.pages.pop()
            self.pages.append(Page([[]]))
            self.used = 0
            self.add(Piece("head", piece.band, self.style.head_height))  # a page starts with a full header
        lines, numbers = piece.lines, piece.numbers
        continued = False
        while lines:
            fit = whole_lines(lines, max(1, self.room() // self.style.pitch))  # a wrapped name is never split
            bare = all(p.kind == "head" for p in self.column)
            if fit * self.style.pitch > self.room() and not bare:  # its whole name in the next column
                self.new_column(piece.band, continued=True)
                continue
            part = numbers[:fit]
            if continued and part[0] is None:  # where a column goes on, the field number is repeated
                part = [first_field(lines[0]), *part[1:]]
            self.add(
                Piece(
                    "field",
                    piece.band,
                    min(fit, len(lines)) * self.style.pitch,
                    piece.fields,
                    lines[:fit],
                    part,
                    continued=continued,
                )
            )
            lines, numbers, continued = lines[fit:], numbers[fit:], True
            if lines:
                self.new_column(piece.band, continued=True)


def pour(
    band_pieces: list[list[Piece]], columns: int, height: int, style: Typeface, every_page: bool = False
) -> list[Page]:
    """The pieces in pages of ``columns`` columns; a page break falls between fields.

    A column starts at a band's header when that costs no extra page; otherwise bands follow
    each other in a column, a header between them. With ``every_page`` (the printed board)
    pages of nothing but empty fields are kept.
    """
    pages: list[Page] = []
    for whole_bands in (True, False):
        pourer = Pourer(columns, height, style, whole_bands)
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
    # no page.
    # Likewise the empty halves and quarters as ticks of their own where their strength's row is stacked.
    arrows = ticks = True
    arrowed = _plan_at(smallest, magnets, band_list, top, profile, area, gutter, moved, arrows, ticks)
    # A name wrapped onto a second line loses nothing, so only a page more keeps the marks out.
    if len(arrowed.pages) > len(best.pages):
        ticks = False
        arrowed = _plan_at(smallest, magnets, band_list, top, profile, area, gutter, moved, arrows, ticks)
    arrows = len(arrowed.pages) <= len(best.pages)
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
            if len(larger.pages) == 1 and larger.wrapped <= best.wrapped:
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
    """The best layout with nicknames of ``size`` px: fewest pages, then fewest wrapped names, then fewest columns."""
    field_texts = tuple(format_strength(q) for q in fields(top) if any(band.holds(q) for band in band_list))
    style = Typeface.at(size, profile, field_texts, arrows, ticks)
    area_width, area_height = area[2] - area[0], area[3] - area[1]
    area_height = max(area_height, style.head_height + style.pitch)
    height = area_height - style.zigzag  # room below for a zigzag
    best: Plan | None = None
    best_broken = 0
    poured: tuple[list[list[Piece]], int] = ([], 1)
    for count in range(1, 9):
        column = (area_width - gutter * (count - 1)) // count
        if count > 1 and column - style.chip < size * NARROWEST_LABEL_EMS:
            break  # narrower columns would wrap ordinary names
        band_pieces, wrapped = pieces(magnets, band_list, top, style, column, moved, every_field)
        pages = _poured(band_pieces, count, height, style, every_field)
        found = Plan(style, column, pages, wrapped)
        broken = broken_words(label for page in pages for label in page.labels())
        # A tie: fewer, wider columns; a word is not broken where a wider column holds it.
        if best is None or (len(pages), broken, wrapped) < (len(best.pages), best_broken, best.wrapped):
            best, poured, best_broken = found, (band_pieces, count), broken
    assert best is not None
    if len(best.pages) > 1 and not every_field:
        best.pages = _balanced(poured[0], poured[1], height, style, len(best.pages))
    return best


def _poured(
    band_pieces: list[list[Piece]], count: int, height: int, style: Typeface, every_field: bool = False
) -> list[Page]:
    """The pieces poured into pages; where the whole ruler costs a page, long empty stretches folded."""
    pages = pour(band_pieces, count, height, style, every_field)
    if len(pages) > 1 and not every_field:
        folded = pour(compressed(band_pieces, style), count, height, style)
        pages = folded if len(folded) < len(pages) else pages
    return pages


def _balanced(band_pieces: list[list[Piece]], count: int, height: int, style: Typeface, fewest: int) -> list[Page]:
    """The same number of pages, the columns as short as keeps it so: the last page is no near-empty remainder
    while the others are full (each page a fair share of the club). A field the full columns kept on one page
    stays on one page."""
    split = _split_fields(_poured(band_pieces, count, height, style))
    low, high = style.head_height + style.pitch, height
    while high - low > max(2, style.pitch // 4):
        middle = (low + high) // 2
        pages = _poured(band_pieces, count, middle, style)
        if len(pages) <= fewest and _split_fields(pages) <= split:
            high = middle
        else:
            low = middle
    return _poured(band_pieces, count, high, style)


def _split_fields(pages: list[Page]) -> int:
    """How many fields hang on more than one page (a crowded field taller than a page goes on over the next)."""
    seen: dict[Quarters, set[int]] = {}
    for number, page in enumerate(pages):
        for column in page.columns:
            for piece in column:
                if piece.kind == "field":
                    for q in piece.fields:
                        seen.setdefault(q, set()).add(number)
    return sum(1 for pages_of in seen.values() if len(pages_of) > 1)


def free_box(plan: Plan, page: Page, area: Box, gutter: int) -> Box:
    """The largest free room of a placed page: the width right of its columns, or the foot of its emptiest column."""
    style = plan.typeface
    lefts = column_lefts(plan, page, area, gutter)
    right = lefts[-1][0] + lefts[-1][1] + gutter if lefts else area[0]
    best: Box = (right, area[1], area[2], area[3]) if right < area[2] else (area[0], area[3], area[0], area[3])
    for (left, column_width), column in zip(lefts, page.columns, strict=True):
        bottom = column[-1].top + column[-1].height + style.gap if column else area[1]
        box = (left, bottom, left + column_width, area[3])
        if min(box[2] - box[0], box[3] - box[1]) > min(best[2] - best[0], best[3] - best[1]):
            best = box
    return best


def column_lefts(plan: Plan, page: Page, area: Box, gutter: int) -> list[tuple[int, int]]:
    """Each column's left edge on the picture and its width."""
    found = []
    x = area[0]
    for index in range(len(page.columns)):
        column_width = page.width_of(index, plan.column_width)
        found.append((x, column_width))
        x += column_width + gutter
    return found


def place(plan: Plan, page: Page, area: Box, gutter: int) -> None:
    """Set where every piece and label of a page lies on the picture."""
    style = plan.typeface
    for (x, _), column in zip(column_lefts(plan, page, area, gutter), page.columns, strict=True):
        y = area[1]
        for piece in column:
            piece.top = y
            if piece.kind == "field":
                for number, line in enumerate(piece.lines):
                    left = x + style.chip_for(piece.band)
                    top = y + number * style.pitch
                    for label in line:
                        if label.magnet is None:
                            left += style.pad
                        tall = (label.rows - 1) * style.pitch
                        label.box = (left, top, left + label.width - 1, top + style.label_height + tall - 1)
                        left += label.width + style.gap
            y += piece.height


def draw(canvas: Canvas, plan: Plan, page: Page, area: Box, gutter: int) -> None:
    """Draw one page of the columns into the area."""
    place(plan, page, area, gutter)
    style = plan.typeface
    following = [column for later in plan.pages[plan.pages.index(page) :] for column in later.columns][1:]
    for index, ((x, column_width), column) in enumerate(
        zip(column_lefts(plan, page, area, gutter), page.columns, strict=True)
    ):
        if index < len(following) and column:
            target = next((piece.band for piece in following[index] if piece.kind != "head"), None)
            if target is not None:
                bottom = column[-1].top + column[-1].height
                _draw_zigzag(canvas, style, target, x, bottom)
        if style.lead:
            _draw_field_arrows(canvas, style, x, column)
        for piece in column:
            if piece.kind == "head":
                box = (x, piece.top, x + column_width - 1, piece.top + piece.height - style.gap - 1)
                if piece.continued:
                    _draw_strip(canvas, piece.band, style, box)
                else:
                    _draw_head(canvas, piece.band, style, box)
            elif piece.kind == "empty":
                _draw_empty(canvas, style, x, piece)
            elif piece.kind == "gap":
                _draw_gap(canvas, style, x, piece)
            elif piece.kind == "field":
                _draw_field(canvas, piece, style, x)


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


def _draw_field_arrows(canvas: Canvas, style: Typeface, x: int, column: list[Piece]) -> None:
    """A small ↑ in the strip left of the numbers where one field meets the next, as on the magnet board."""
    size = style.lead - 1
    left = x + 1
    for lower, top in field_arrows(column, size):
        canvas.draw.polygon(
            [(left, top + size - 1), (left + size - 1, top + size - 1), (left + (size - 1) / 2, top)],
            fill=canvas.ink(lower.band.ink if lower.band.ink != "yellow" else "black"),
        )


def _draw_head(canvas: Canvas, band: Band, style: Typeface, box: Box) -> None:
    middle_y = (box[1] + box[3]) / 2
    ink_on = "black"
    if band.header == "solid":
        canvas.box(box, fill=band.ink)
        ink_on = "black" if band.ink == "yellow" else "white"
    elif band.header == "hatch":
        canvas.box(box, outline=band.ink, line=style.frame)
        canvas.hatch(box, band.ink, step=max(4, style.gap * 2), line=1)
    else:
        canvas.box(box, fill="white", outline=band.ink, line=style.frame * 2)
    title_width = width(band.title, style.head)
    grades_width = width(band.grades, style.head)
    inner = box[2] - box[0] - 2 * style.pad
    with_grades = title_width + grades_width + 3 * style.pad <= inner
    if band.header == "hatch":  # paper behind the words, so the pattern does not eat them
        inner_top, inner_bottom = box[1] + style.frame, box[3] - style.frame
        canvas.box(
            (box[0] + style.frame, inner_top, round(box[0] + style.frame + title_width + 2 * style.pad), inner_bottom),
            fill="white",
        )
        if with_grades:
            canvas.box(
                (
                    round(box[2] - style.frame - grades_width - 2 * style.pad),
                    inner_top,
                    box[2] - style.frame,
                    inner_bottom,
                ),
                fill="white",
            )
        ink_on = "black"
    canvas.text((box[0] + style.pad + style.frame, middle_y), band.title, style.head, ink=ink_on, anchor="lm")
    if with_grades:  # the conversion to official grades hangs beside the scale, as on the printed board
        canvas.text((box[2] - style.pad - style.frame, middle_y), band.grades, style.head, ink=ink_on, anchor="rm")


def _draw_strip(canvas: Canvas, band: Band, style: Typeface, box: Box) -> None:
    """The head of a column that goes on: a strip in the band's ink (framed or hatched on two inks)."""
    if band.header == "solid":
        canvas.box(box, fill=band.ink)
    elif band.header == "hatch":
        canvas.box(box, outline=band.ink, line=1)
        canvas.hatch(box, band.ink, step=max(4, style.gap * 2), line=1)
    else:
        canvas.box(box, fill="white", outline=band.ink, line=style.frame * 2)


def _draw_gap(canvas: Canvas, style: Typeface, x: int, piece: Piece) -> None:
    """Empty strengths folded away: three dots under the field numbers."""
    dot = max(2, style.frame + 1)
    spacing = 3 * dot
    middle = piece.top + piece.height // 2
    right = x + style.chip_for(piece.band) - max(3, style.pad)
    for index in range(3):
        left = right - dot - index * spacing
        canvas.box((left, middle - dot // 2, left + dot - 1, middle - dot // 2 + dot - 1), fill="black")


def _draw_zigzag(canvas: Canvas, style: Typeface, target: Band, x: int, top: int) -> None:
    """The arrow down to a field hanging in another column: a zigzag in that column's ink, under the numbers."""
    height = style.zigzag - 2
    left = x + style.pad
    right = left + round(style.nick.size * 2.2)
    teeth = 4
    step = (right - left) / teeth
    points = [(left + i * step, top + 2 + (height if i % 2 else 0)) for i in range(teeth + 1)]
    canvas.draw.line(points, fill=canvas.ink(target.ink), width=max(2, style.frame + 1), joint="curve")


def _draw_empty(canvas: Canvas, style: Typeface, x: int, piece: Piece) -> None:
    """Empty fields: short ticks under the field numbers, side by side for the halves and quarters of a strength.

    Every empty field is the same dash, 2 px thick, on every page; a whole five's is longer, so players can
    count along the ruler.
    """
    y = piece.top + (piece.height - style.mark) // 2
    right = x + style.chip_for(piece.band) - max(3, style.pad)
    left = x + style.lead + style.pad
    count = len(piece.fields)
    if count == 1 and piece.fields[0] % QUARTERS == 0:
        long = piece.fields[0] % (5 * QUARTERS) == 0
        canvas.hline(left if long else (left + right) // 2, right, y, line=style.mark)
        return
    # Halves and quarters keep the slot they have on a full row of four, so the ticks line up.
    step = (right - left + style.gap) / 4
    for q in piece.fields:
        slot = q % QUARTERS
        start = round(left + slot * step)
        canvas.hline(start, round(start + step - style.gap), y, line=style.mark)


def _draw_field(canvas: Canvas, piece: Piece, style: Typeface, x: int) -> None:
    ascent = style.nick.getmetrics()[0]
    for number, line in zip(piece.numbers, piece.lines, strict=True):
        if number is not None and line:
            baseline = line[0].box[1] + style.frame + ascent
            canvas.drawn_text(
                (x + style.chip_for(piece.band) - max(3, style.pad), baseline),
                format_strength(number),
                style.field,
                anchor="rs",
            )
        for label in line:
            if label.magnet is None:
                if label.text:
                    canvas.drawn_text(
                        (label.box[0], label.box[1] + style.frame + ascent), label.text, style.field, anchor="ls"
                    )
                if label.empty:  # a dash where the magnets of this half or quarter would hang: as on the ruler
                    middle = (label.box[1] + label.box[3]) // 2 - style.mark // 2
                    canvas.hline(label.box[2] - style.slot + 1, label.box[2], middle, line=style.mark)
            else:
                _draw_label(canvas, label, piece.band, style)


def _draw_label(canvas: Canvas, label: Label, band: Band, style: Typeface) -> None:
    box = label.box
    fill = band.ink if band.label == "fill" else "white"
    frame_ink = "black" if band.label == "fill" else band.ink
    canvas.box(box, fill=fill)
    # A guest's frame is dashes of 2 mm, 2 px thick: told apart from across the room.
    if label.magnet is not None and label.magnet.guest:
        canvas.dashed_box(box, frame_ink, max(style.mark, style.frame), dash=max(style.pad, style.two_mm // 2))
    else:
        canvas.box(box, outline=frame_ink, line=style.frame)
    parts = label.parts or (label.text,)
    for row in range(len(parts)):
        canvas.drawn_text(
            (box[0] + style.frame + style.pad, box[1] + style.frame + row * style.pitch),
            drawn_part(parts, row),
            style.nick,
        )
    if label.moved:
        _draw_arrow(canvas, style, label.moved, (box[2] - style.frame - style.pad - style.arrow, box[1], box[3]))


def _draw_arrow(canvas: Canvas, style: Typeface, direction: int, where: tuple[int, int, int]) -> None:
    """A small ↑ (a filled triangle over a stem) or ↓ inside a label's right end."""
    left, top, _ = where
    cap = cap_height(style.nick)
    baseline = top + style.frame + style.nick.getmetrics()[0]
    head = style.arrow
    tip, base = (baseline - cap, baseline - cap + head) if direction > 0 else (baseline, baseline - head)
    middle = left + head / 2
    canvas.draw.polygon([(left, base), (left + head - 1, base), (middle, tip)], fill=canvas.ink("black"))
    stem = max(style.mark, head // 4)
    low, high = sorted((base, baseline if direction > 0 else baseline - cap))
    canvas.box((round(middle - stem / 2), low, round(middle - stem / 2) + stem - 1, high), fill="black")


def report(plan: Plan, page: Page) -> list[dict[str, object]]:
    """Every magnet label of a placed page, as the layout report lists it."""
    cap = cap_height(plan.typeface.nick)
    return [
        {
            "nick": label.magnet.nick,
            "size": label.magnet.size,
            "field": format_strength(label.magnet.strength),
            "text": label.text,
            "lines": list(label.parts or (label.text,)),  # as drawn, top to bottom: together the whole text
            "box": list(label.box),
            "cap_height_px": cap,
        }
        for label in page.labels()
        if label.magnet is not None  # always, from labels(): said again for the type checker
    ]


def fill(labels: Sequence[dict[str, object]], picture: tuple[int, int]) -> float:
    """How much of a page its magnets' labels cover (label area / page area), from the layout report."""
    area = 0
    for label in labels:
        box = label["box"]
        assert isinstance(box, list), box  # report() writes it as [x0, y0, x1, y1]
        x0, y0, x1, y1 = box
        area += (x1 - x0 + 1) * (y1 - y0 + 1)
    return area / (picture[0] * picture[1])
