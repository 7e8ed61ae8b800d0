"""The strength columns: every magnet as a framed label at its field, like the printed board.

The scale is cut into the club's columns (kiosk.scale.columns: 0–9, 10–19, …, 50–top),
each in its own ink. Only fields that hold a magnet get a row; a run of empty fields
between two rows shows as a small gap mark, so the board never wastes a panel on empty
stretches. The layout tries the largest type first and shrinks it down to the legibility
minimum, taking the first attempt that draws every nickname whole (one column per band if
it can, else fewer, wider columns); a nickname is cut with an ellipsis only when no layout
holds it whole. A field with more magnets than its row can show ends in a "+N" label.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from display.canvas import Box, Canvas
from display.fonts import BOLD, NICK, Font, drawable, font, line_height, shorten, width
from kiosk.board import Magnet
from kiosk.events import nick_key
from kiosk.scale import QUARTERS, Quarters, format_strength, step_down
from kiosk.scale import columns as column_ranges


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
    return tuple(Band(low, high, *styles[max(0, len(styles) - len(ranges) + index)])
                 for index, (low, high) in enumerate(ranges))


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
    chip: int
    widest_label: int  # a label never grows wider, like a real magnet (longer names are cut)
    typical_label: int  # what the column count is planned for

    @classmethod
    def at(cls, size: int, canvas: Canvas, field_texts: Sequence[str] = ("40.25",)) -> Type:
        """The type for nicknames of ``size`` pixels, its gutter wide enough for ``field_texts``."""
        nick = font(NICK, size)
        field_font = font(NICK, max(canvas.profile.nick_px - 2, round(size * 0.8)))
        widest_field = max((width(text, field_font) for text in field_texts), default=0)
        frame = 1 if size < 18 else round(size / 8)  # thin frames buy a crowded board a line
        return cls(
            nick=nick,
            field=field_font,
            head=font(BOLD, max(canvas.profile.nick_px, round(size * 0.9))),
            label_height=line_height(nick) + 2 * frame,
            frame=frame,
            pad=max(2, round(size * 0.25)),
            gap=max(2, round(size * 0.15)),
            chip=round(widest_field) + max(3, round(size * 0.35)),
            widest_label=round(size * 12),
            typical_label=round(size * 8.5),
        )

    @property
    def head_height(self) -> int:
        """Height of a column's header band."""
        return line_height(self.head) + 2 * self.frame + self.gap

    @property
    def pitch(self) -> int:
        """Vertical distance from one line of labels to the next."""
        return self.label_height + self.gap


@dataclass(slots=True)
class Label:
    """A magnet's label: its nickname, cut to fit, and its width."""

    magnet: Magnet | None
    text: str
    width: int
    field: Quarters | None = None  # set for a field number standing inline (a crowded board)


@dataclass(slots=True)
class Item:
    """One thing in a column: a header, a field's row of labels, or a gap mark."""

    kind: str  # "head", "row", "gap" (empty fields left out), "space" (before a band's header)
    band: Band
    height: int
    field: Quarters = 0
    lines: list[list[Label]] = dataclasses.field(default_factory=list)
    inline: bool = False  # field numbers stand inside the lines (a crowded board)


@dataclass(slots=True)
class Layout:
    """Where everything goes: the type and the items of each column."""

    type: Type
    columns: list[list[Item]]
    column_width: int
    hidden: int = 0  # magnets that did not fit at all (only on an absurdly small panel)
    crowded: bool = False  # the smallest type did not fit every magnet in full


def labels_for(magnets: Sequence[Magnet], kind: Type, room: int) -> list[Label]:
    """Each magnet's label, with long nicknames shortened with an ellipsis."""
    inner = min(room, kind.widest_label) - 2 * (kind.frame + kind.pad)
    found = []
    for magnet in magnets:
        text, text_width = _label_text(magnet.nick, kind.nick, inner)
        found.append(Label(magnet, text, text_width + 2 * (kind.frame + kind.pad)))
    return found


@lru_cache(maxsize=16384)  # the layout tries many column widths with the same names
def _label_text(nick: str, face: Font, inner: int) -> tuple[str, int]:
    text = shorten(drawable(nick, face), face, inner)
    return text, round(width(text, face))


def flow(labels: list[Label], kind: Type, room: int, max_lines: int) -> list[list[Label]]:
    """Labels placed left to right in lines of ``room`` pixels; what won't fit becomes "+N"."""
    lines: list[list[Label]] = [[]]
    used = 0
    for index, label in enumerate(labels):
        if lines[-1] and used + kind.gap + label.width > room:
            if len(lines) == max_lines:
                return _with_more(lines, labels[index:], kind, room)
            lines.append([])
            used = 0
        used += (kind.gap if lines[-1] else 0) + label.width
        lines[-1].append(label)
    return lines


def _with_more(lines: list[list[Label]], rest: list[Label], kind: Type, room: int) -> list[list[Label]]:
    last = lines[-1]
    hidden = len(rest)
    while True:
        text = f"+{hidden}"
        more = Label(None, text, round(width(text, kind.nick)) + 2 * kind.pad)
        used = sum(label.width for label in last) + kind.gap * len(last)
        if used + more.width <= room:
            last.append(more)
            return lines
        if len(last) == 1:  # the only label gives up some of its name for the count
            only = last[0]
            inner = room - more.width - kind.gap - 2 * (kind.frame + kind.pad)
            text = shorten(drawable(only.magnet.nick, kind.nick) if only.magnet else only.text, kind.nick, inner)
            last[0] = Label(only.magnet, text, round(width(text, kind.nick)) + 2 * (kind.frame + kind.pad))
            last.append(more)
            return lines
        last.pop()
        hidden += 1


def items_for(magnets: Sequence[Magnet], band_list: Sequence[Band], kind: Type, column: int,
              height: int, lines_per_field: int | None = None) -> list[Item]:
    """The header, rows and gap marks of every column with magnets, strongest first."""
    room = column - kind.chip
    most_lines = max(1, (height - kind.head_height) // kind.pitch)
    if lines_per_field:
        most_lines = min(most_lines, lines_per_field)
    found: list[Item] = []
    for band, fields_held in grouped(tuple(magnets), tuple(band_list)):
        if found:  # air above a header that follows another band, so it does not touch its labels
            found.append(Item("space", band, kind.gap * 2))
        found.append(Item("head", band, kind.head_height))
        previous: Quarters | None = None
        for q, group in fields_held:
            if previous is not None and _skipped(previous, q):
                found.append(Item("gap", band, kind.gap * 2))
            lines = flow(labels_for(group, kind, room), kind, room, most_lines)
            found.append(Item("row", band, len(lines) * kind.pitch, q, lines))
            previous = q
    return found


Groups = tuple[tuple[Band, tuple[tuple[Quarters, tuple[Magnet, ...]], ...]], ...]


@lru_cache(maxsize=16)  # the layout asks once per attempt; the magnets are the same
def grouped(magnets: tuple[Magnet, ...], band_list: tuple[Band, ...]) -> Groups:
    """The columns that hold magnets, each with its fields (strongest first) and their magnets."""
    found = []
    for band in band_list:
        on_band = sorted((m for m in magnets if band.holds(m.strength)), key=lambda m: (-m.strength, nick_key(m.nick)))
        if on_band:
            found.append((band, tuple(_by_field(on_band))))
    return tuple(found)


def _by_field(magnets: list[Magnet]) -> Iterator[tuple[Quarters, tuple[Magnet, ...]]]:
    group: list[Magnet] = []
    for magnet in magnets:
        if group and group[0].strength != magnet.strength:
            yield group[0].strength, tuple(group)
            group = []
        group.append(magnet)
    if group:
        yield group[0].strength, tuple(group)


def _skipped(higher: Quarters, lower: Quarters) -> bool:
    """True when an empty field lies between two rows."""
    return higher - step_down(higher) != lower


def pack(items: list[Item], columns: int, height: int, new_column_per_band: bool,
         whole_bands: bool = False) -> list[list[Item]] | None:
    """The items poured into columns; None when they need more columns than given.

    With ``whole_bands``, a band that fits in one column is not split between two.
    """
    packed: list[list[Item]] = [[]]
    used = 0
    head: Item | None = None
    for index, item in enumerate(items):
        if item.kind == "head":
            head = item
            following = items[index + 1].height if index + 1 < len(items) else 0
            if whole_bands:
                band = _band_height(items, index)
                following = band - item.height if band <= height else following
            if packed[-1] and (new_column_per_band or used + item.height + following > height):
                packed.append([])
                used = 0
        elif used + item.height > height:
            if item.kind in ("gap", "space"):
                continue
            packed.append([])
            used = 0
            if head is not None:  # a column that continues repeats its header
                packed[-1].append(head)
                used = head.height
        if item.kind in ("gap", "space") and not packed[-1]:
            continue
        if len(packed) > columns:
            return None
        packed[-1].append(item)
        used += item.height
    for column in packed:  # a gap mark or space at the foot of a column marks nothing
        while column and column[-1].kind in ("gap", "space"):
            column.pop()
    return packed


def _band_height(items: list[Item], head: int) -> int:
    """The height of a band: its header and everything up to the next band."""
    total = items[head].height
    for item in items[head + 1:]:
        if item.kind in ("head", "space"):
            break
        total += item.height
    return total


def layout(magnets: Sequence[Magnet], band_list: Sequence[Band], canvas: Canvas, area: Box) -> Layout:
    """The largest legible layout of the magnets in the area (see the module's docstring)."""
    area_width, area_height = area[2] - area[0], area[3] - area[1]
    gutter = canvas.px(10)
    smallest = canvas.profile.nick_px
    largest = max(smallest, canvas.px(20))
    # Every font size tried costs memory (a FreeType face each): on big panels, step by 2 px.
    step = max(1, round(canvas.scale))
    sizes = sorted({*range(largest, smallest, -step), smallest}, reverse=True)
    shown = {band for band in band_list if any(band.holds(m.strength) for m in magnets)}
    field_texts = tuple(sorted({format_strength(m.strength) for m in magnets}))
    fallback: Layout | None = None  # the best layout that had to cut a name it could have shown
    for size in sizes:
        kind = Type.at(size, canvas, field_texts)
        natural = sum(min(width(m.nick, kind.nick), kind.widest_label) + 2 * (kind.frame + kind.pad) + kind.gap
                      for m in magnets)
        for per_band in (True, False):
            first = max(1, len(shown)) if per_band else 1
            for count in range(first, 12):
                column = (area_width - gutter * (count - 1)) // count
                if column < kind.chip + kind.typical_label * 0.6:
                    break
                if natural > count * (column - kind.chip) * (area_height // kind.pitch):
                    continue  # even packed edge to edge the labels would not fit
                items = items_for(magnets, band_list, kind, column, area_height)
                packed = pack(items, count, area_height, per_band)
                if not per_band:  # bands kept whole when they can be; split only when they must
                    packed = pack(items, count, area_height, False, whole_bands=True) or packed
                if packed is None:
                    continue
                plan = Layout(kind, packed, column)
                if not needless_cuts(plan):
                    return plan
                fallback = fallback or plan
                break  # more columns are only narrower: they would cut more names
    return fallback or _crowded(magnets, band_list, canvas, area, gutter)


def needless_cuts(plan: Layout) -> list[Label]:
    """The labels of a layout whose nickname was shortened although a label may be wide enough for it."""
    kind = plan.type
    inner = kind.widest_label - 2 * (kind.frame + kind.pad)
    return [label for column in plan.columns for item in column for line in item.lines for label in line
            if label.magnet is not None and label.text != drawable(label.magnet.nick, kind.nick)
            and width(drawable(label.magnet.nick, kind.nick), kind.nick) <= inner]


def _crowded(magnets: Sequence[Magnet], band_list: Sequence[Band], canvas: Canvas, area: Box, gutter: int) -> Layout:
    """Smallest type, field numbers inline so every line is full; what still won't fit is counted."""
    kind = Type.at(canvas.profile.nick_px, canvas)
    area_width, area_height = area[2] - area[0], area[3] - area[1]
    most = max(1, int((area_width + gutter) // (kind.typical_label * 0.8 + gutter)))
    for count in range(1, most + 1):  # the fewest columns that hold everything: the least cut names
        column = (area_width - gutter * (count - 1)) // count
        items = inline_items(magnets, band_list, kind, column)
        packed = pack(items, count, area_height, False)
        if packed is not None:
            return Layout(kind, packed, column, crowded=True)
    count = most
    column = (area_width - gutter * (count - 1)) // count
    items = inline_items(magnets, band_list, kind, column)
    # Leave one line free in the last column for the count of what did not fit.
    for keep in range(len(items), 0, -1):
        packed = pack(items[:keep], count, area_height - kind.pitch, False)
        if packed is not None:
            hidden = sum(_magnets_in(item) for item in items[keep:])
            return Layout(kind, packed, column, hidden, crowded=True)
    return Layout(kind, [[]], column, len(magnets), crowded=True)


def inline_items(magnets: Sequence[Magnet], band_list: Sequence[Band], kind: Type, column: int) -> list[Item]:
    """Each column as lines filled edge to edge: a field number, then its labels, then the next."""
    found: list[Item] = []
    for band, fields_held in grouped(tuple(magnets), tuple(band_list)):
        found.append(Item("head", band, kind.head_height))
        line: list[Label] = []
        used = 0
        for q, group in fields_held:
            text = format_strength(q)
            chip = Label(None, text, round(width(text, kind.field)) + kind.pad, field=q)
            if line:  # room before a field number so it reads as the start of a new field
                used += kind.pad * 2
            for index, label in enumerate(labels_for(group, kind, column - chip.width - kind.gap)):
                tokens = [chip, label] if index == 0 else [label]
                need = sum(t.width for t in tokens) + kind.gap * len(tokens)
                if line and used + need > column:
                    found.append(Item("row", band, kind.pitch, lines=[line], inline=True))
                    line, used = [], 0
                line.extend(tokens)
                used += need
        if line:
            found.append(Item("row", band, kind.pitch, lines=[line], inline=True))
    return found


def _magnets_in(item: Item) -> int:
    return sum(1 for line in item.lines for label in line if label.magnet is not None)


def draw(canvas: Canvas, plan: Layout, area: Box, more_text: str) -> None:
    """Draw the columns of a layout into the area."""
    kind = plan.type
    gutter = canvas.px(10)
    x = area[0]
    for column in plan.columns:
        y = area[1]
        for item in column:
            if item.kind == "head":
                _draw_head(canvas, item.band, kind, (x, y, x + plan.column_width - 1, y + item.height - kind.gap - 1))
            elif item.kind == "gap":
                _draw_gap(canvas, kind, x, y, item.height)
            elif item.kind == "row":
                _draw_row(canvas, item, kind, x, y)
            y += item.height
        x += plan.column_width + gutter
    if plan.hidden:
        canvas.text((area[2], area[3]), more_text, kind.nick, anchor="rd")


def _draw_head(canvas: Canvas, band: Band, kind: Type, box: Box) -> None:
    middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    ink_on = "black"
    if band.header == "solid":
        canvas.box(box, fill=band.ink)
        ink_on = "black" if band.ink == "yellow" else "white"
    elif band.header == "hatch":
        canvas.box(box, outline=band.ink, line=kind.frame)
        canvas.hatch(box, band.ink, step=max(4, kind.gap * 2), line=1)
        text_width = width(band.title, kind.head) + 2 * kind.pad
        canvas.box((round(middle[0] - text_width / 2), box[1] + kind.frame, round(middle[0] + text_width / 2),
                    box[3] - kind.frame), fill="white")
    else:
        canvas.box(box, fill="white", outline=band.ink, line=kind.frame * 2)
    canvas.text(middle, band.title, kind.head, ink=ink_on, anchor="mm")


def _draw_gap(canvas: Canvas, kind: Type, x: int, y: int, height: int) -> None:
    """Three dots under the field numbers: empty fields left out here."""
    dot = max(1, kind.frame)
    spacing = max(4, 3 * dot)
    centre_y = y + height // 2
    right = x + kind.chip - max(3, kind.pad)  # flush with the field numbers, clear of the labels
    for index in range(3):
        left = right - dot - index * spacing
        canvas.box((left, centre_y, left + dot - 1, centre_y + dot - 1), fill="black")


def _draw_row(canvas: Canvas, item: Item, kind: Type, x: int, y: int) -> None:
    band = item.band
    ascent = kind.nick.getmetrics()[0]
    inline = item.inline
    if not inline:
        baseline = y + kind.frame + ascent
        canvas.text((x + kind.chip - max(3, kind.pad), baseline), format_strength(item.field), kind.field, anchor="rs")
    for line_number, line in enumerate(item.lines):
        left = x if inline else x + kind.chip
        top = y + line_number * kind.pitch
        for label in line:
            if label.field is not None:
                left += kind.pad * 2 if left > x else 0
                canvas.text((left, top + kind.frame + ascent), label.text, kind.field, anchor="ls")
            else:
                _draw_label(canvas, label, band, kind, (left, top, left + label.width - 1, top + kind.label_height - 1))
            left += label.width + kind.gap


def _draw_label(canvas: Canvas, label: Label, band: Band, kind: Type, box: Box) -> None:
    text_at = (box[0] + kind.frame + kind.pad, box[1] + kind.frame)
    if label.magnet is None:  # "+N": plain text, no frame: it is not a magnet
        canvas.text(text_at, label.text, kind.nick)
        return
    fill = band.ink if band.label == "fill" else "white"
    frame_ink = "black" if band.label == "fill" else band.ink
    canvas.box(box, fill=fill)
    if label.magnet.guest:
        canvas.dashed_box(box, frame_ink, kind.frame, dash=max(3, kind.pad))
    else:
        canvas.box(box, outline=frame_ink, line=kind.frame)
    canvas.text(text_at, label.text, kind.nick)
