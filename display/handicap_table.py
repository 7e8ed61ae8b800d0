"""The wall's handicap page (button B): a size's full handicap table, on over pages when it is too large.

The table is ``kiosk.handicap``'s; this module only lays it out and draws it, on the wall and
(through ``display.printed``) on paper.
"""

from __future__ import annotations

from dataclasses import dataclass

from display.canvas import Box, Canvas, small_face
from display.fonts import BOLD, NICK, REGULAR, font, line_height, width, wrapped
from display.profiles import SMALLEST_CAP_MM
from display.wall import WallData
from display.words import say
from kiosk.handicap import TableCell, table
from kiosk.scale import format_strength


def handicap_page(canvas: Canvas, data: WallData, size: int, body: Box, part: int = 0) -> int:
    """The size's handicap table in full: each cell the smallest difference that gets its moves + prisoners.

    Landscape: a row per number of moves, a column per prisoners; portrait swaps them, so the
    digits stay large. Training games are marked in red. Nothing is smaller than 2 mm: rows too
    many for the panel even in blocks side by side go on over pages (button B steps through
    them), ``part`` says which. Returns how many pages the table takes.
    """
    rules = data.size_rules[size]
    cells = [c for c in table(rules) if not c.handicap.even]
    even = next(c for c in table(rules) if c.handicap.even)
    x0, _, x1, y1 = body
    top = _title(canvas, data, size, even, body)
    note = small_face(canvas)
    notes = [say(data.language, "cells"), say(data.language, "training_from", n=rules.training_moves)]
    one_line = width(notes[0], note) + width(notes[1], note) + canvas.px(20) <= x1 - x0
    note_lines = [(line, "black") for line in wrapped(notes[0], note, x1 - x0)]
    note_lines += [(line, "red") for line in wrapped(notes[1], note, x1 - x0)]
    bottom = y1 - line_height(note) * (1 if one_line else len(note_lines))
    parts = _table(canvas, data, cells, (x0, top, x1, bottom), part)
    if one_line:
        canvas.text((x0, y1), notes[0], note, anchor="ld")
        canvas.text((x1, y1), notes[1], note, ink="red", anchor="rd")
    else:
        for index, (line, ink) in enumerate(reversed(note_lines)):  # wrapped, never cut
            canvas.text((x0, y1 - index * line_height(note)), line, note, ink=ink, anchor="ld", room=x1 - x0)
    return parts


def _title(canvas: Canvas, data: WallData, size: int, even: TableCell, body: Box) -> int:
    """The page's title and the even games' line, never cut; returns where the table begins."""
    x0, y0, x1, y1 = body
    title = canvas.face(BOLD)
    note = small_face(canvas)
    y = y0
    even_text = f"{say(data.language, 'even')}: {say(data.language, 'difference')} 0–{format_strength(even.highest)}"
    if canvas.profile.px_to_mm(y1 - y0) >= 80:
        for line in wrapped(say(data.language, "handicap_title", size=size), title, x1 - x0)[:2]:
            canvas.text((x0, y), line, title, room=x1 - x0)
            y += line_height(title)
        y += canvas.px(4)
        canvas.text((x0, y), even_text, canvas.face(REGULAR), room=x1 - x0)
        return y + line_height(canvas.face(REGULAR)) + canvas.px(4)
    # A small panel: one line of title, the table gets the room.
    head = say(data.language, "handicap", size=size)
    smaller = canvas.face(BOLD, SMALLEST_CAP_MM)
    if width(f"{head} · {even_text}", title) <= x1 - x0:
        canvas.text((x0, y), f"{head} · {even_text}", title)
        return y + line_height(title) + canvas.px(2)
    if width(f"{head} · {even_text}", smaller) <= x1 - x0:  # whole, in smaller bold: the table keeps its room
        canvas.text((x0, y), f"{head} · {even_text}", smaller)
        return y + line_height(smaller) + canvas.px(2)
    # Never cut: the even games' line in small type beside the title, or under it.
    used = round(canvas.text((x0, y), head, title, room=x1 - x0)) + canvas.px(8)
    if width(even_text, note) + used <= x1 - x0:
        canvas.text((x0 + used, y + line_height(title) - line_height(note)), even_text, note)
        return y + line_height(title) + canvas.px(2)
    y += line_height(title)
    for line in wrapped(even_text, note, x1 - x0):
        canvas.text((x0, y), line, note)
        y += line_height(note)
    return y + canvas.px(2)


def _table(canvas: Canvas, data: WallData, cells: list[TableCell], box: Box, part: int) -> int:
    """The table's cells in the box: turned, in blocks side by side or over pages as 2 mm digits need.

    Long on purpose: one decision (which way round, how many blocks, how many pages) in steps that
    each need the measures of the ones before; apart, every step would take them all as arguments.
    """
    x0, y, x1, bottom = box
    prisoners = sorted({c.handicap.prisoners for c in cells})
    moves = sorted({c.handicap.moves for c in cells})
    training = {c.handicap.moves for c in cells if c.handicap.training}
    portrait = canvas.width < canvas.height
    names = {m: say(data.language, "move") if m == 1 else say(data.language, "moves", n=m) for m in moves}
    corner = say(data.language, "prisoners")
    smallest = canvas.profile.text_px(REGULAR)
    by_cell = {(c.handicap.moves, c.handicap.prisoners): c for c in cells}

    def grid(turned: bool, column_keys: list[int]) -> Grid:
        return Grid(column_keys, names, turned, training, by_cell, smallest, corner, say(data.language, "moves_word"))

    def across(turned: bool, row_keys: list[int], column_keys: list[int]) -> int:
        head, cell = grid(turned, column_keys).measure(canvas, smallest, row_keys, x1 - x0)
        return head + len(column_keys) * cell

    def fits(turned: bool) -> bool:
        return across(turned, *((prisoners, moves) if turned else (moves, prisoners))) <= x1 - x0

    if not fits(portrait) and fits(not portrait):
        portrait = not portrait  # too many columns across at 2 mm: a row per prisoners count instead
    row_keys, column_keys = (prisoners, moves) if portrait else (moves, prisoners)
    # Too many columns across at 2 mm either way round (the 4"'s 13x13 in portrait): they go on over pages.
    column_parts = 1
    while (
        column_parts < len(column_keys)
        and across(portrait, row_keys, column_keys[: -(-len(column_keys) // column_parts)]) > x1 - x0
    ):
        column_parts += 1
    per_columns = -(-len(column_keys) // column_parts)
    # Rows too many for the height at 2 mm: the table in two or three blocks side by side, if they fit across.
    gap = canvas.px(16)
    needed_row = line_height(font(NICK, smallest)) + 2
    block_across = across(portrait, row_keys, column_keys[:per_columns])
    blocks = 1
    while (
        blocks < 3
        and (1 + -(-len(row_keys) // blocks)) * needed_row > bottom - y
        and (blocks + 1) * block_across + blocks * gap <= x1 - x0
    ):
        blocks += 1
    # Still too many at 2 mm with a gap between rows (the wHAT's 13x13): the rows go on over pages.
    per_block = max(1, (bottom - y) // needed_row - 1)
    row_parts = max(1, -(-len(row_keys) // (per_block * blocks)))
    parts = row_parts * column_parts
    part = min(max(part, 0), parts - 1)
    per_part = -(-len(row_keys) // row_parts)  # the pages share the rows evenly
    shown = row_keys[part % row_parts * per_part : (part % row_parts + 1) * per_part]
    shown_columns = column_keys[part // row_parts * per_columns : (part // row_parts + 1) * per_columns]
    per = -(-len(shown) // blocks)
    block_width = (x1 - x0 - gap * (blocks - 1)) // blocks
    rows = 1 + -(-per_part // blocks)  # every page's rows as tall as the first's
    for index in range(blocks):
        left = x0 + index * (block_width + gap)
        grid(portrait, shown_columns).draw(
            canvas, shown[index * per : (index + 1) * per], (left, y, left + block_width, bottom), rows
        )
    return parts


@dataclass(frozen=True)
class Grid:
    """What a block of the handicap table needs: its column keys, names and cells, and how it is turned."""

    column_keys: list[int]
    names: dict[int, str]
    portrait: bool  # rows are prisoners counts and columns moves (else the other way round)
    training: set[int]
    cells: dict[tuple[int, int], TableCell]
    smallest: int
    corner: str
    moves_word: str

    def measure(self, canvas: Canvas, size_px: int, row_keys: list[int], room: int) -> tuple[int, int]:
        """The width of the row headings and the width each column needs, with digits of ``size_px``."""
        names, portrait = self.names, self.portrait
        face, bold = font(NICK, size_px), font(NICK if portrait else BOLD, size_px)
        small = font(REGULAR, self.smallest)
        head_width = round(max(width(_key_text(k, names, not portrait), bold) for k in row_keys)) + canvas.px(10)
        corner_width = round(max(width(self.corner, small), width(self.moves_word, small))) + canvas.px(6)
        # The corner's words get their room, in portrait only where the digits keep theirs.
        if not portrait or corner_width <= room * 0.3:
            head_width = max(head_width, corner_width)
        texts = [
            format_strength(cell.lowest)
            for key, cell in self.cells.items()
            if (key[0] if portrait else key[1]) in self.column_keys
        ]
        widest = max(
            max((width(text, face) for text in texts), default=0),
            max(width(_key_text(k, names, portrait, portrait), bold) for k in self.column_keys),
        )
        return head_width, round(widest) + canvas.px(14, floor=6)  # room inside a training cell's red frame

    def draw(self, canvas: Canvas, row_keys: list[int], box: Box, rows: int) -> None:
        """One block of the table: a heading row, then a row per key; the digits as large as the room allows."""
        # Long: a block's heading row and its rows share the sizes found by the loop at the top.
        x0, y, x1, bottom = box
        portrait, names, smallest = self.portrait, self.names, self.smallest
        row_height = max(1, (bottom - y) // rows)
        size_px = max(smallest, min(canvas.profile.text_px(REGULAR, 5.0), round(row_height * 0.62)))

        # As large as the height allows, but digits that would run together shrink (not under 2 mm): the largest
        # size that fits. Widths grow with the size, so the search jumps near it and steps from there rather than
        # opening every size on the way down (each size is a font face of its own, 0.7 MB of the display's memory).
        def fits(size: int) -> bool:
            head_width, cell_need = self.measure(canvas, size, row_keys, x1 - x0)
            return cell_need <= (x1 - x0 - head_width) // max(1, len(self.column_keys))

        if not fits(size_px):
            head_width, cell_need = self.measure(canvas, size_px, row_keys, x1 - x0)
            cell_width = (x1 - x0 - head_width) // max(1, len(self.column_keys))
            top = size_px - 1
            size_px = max(smallest, min(top, int(size_px * cell_width / max(1, cell_need))))
            while size_px < top and fits(size_px + 1):
                size_px += 1
            while size_px > smallest and not fits(size_px):
                size_px -= 1
        head_width, _ = self.measure(canvas, size_px, row_keys, x1 - x0)
        cell_width = (x1 - x0 - head_width) // max(1, len(self.column_keys))
        face = font(NICK, size_px)
        bold = font(NICK if portrait else BOLD, size_px)
        small = font(REGULAR, smallest)
        middle = row_height / 2
        if portrait and row_height >= 2 * line_height(small):  # the corner names both ways
            canvas.text((x0 + head_width - 2, y + 1), self.moves_word, small, anchor="ra", room=head_width - 2)
            canvas.text((x0, y + row_height - 2), self.corner, small, anchor="ld", room=head_width)
        else:
            canvas.text((x0, y + middle), self.corner, small, anchor="lm", room=head_width)
        for index, key in enumerate(self.column_keys):
            ink = "red" if portrait and key in self.training else "black"
            canvas.text(
                (x0 + head_width + (index + 0.5) * cell_width, y + middle),
                _key_text(key, names, portrait, portrait),
                bold,
                ink=ink,
                anchor="mm",
                room=cell_width,
            )
        canvas.hline(x0, x1, y + row_height - 1, line=canvas.px(2))
        y += row_height
        for key in row_keys:
            ink = "red" if not portrait and key in self.training else "black"
            canvas.text(
                (x0, y + middle), _key_text(key, names, not portrait), bold, ink=ink, anchor="lm", room=head_width
            )
            for index, other in enumerate(self.column_keys):
                cell = self.cells.get((other, key) if portrait else (key, other))
                if cell is None:
                    continue
                left = x0 + head_width + index * cell_width
                if cell.handicap.training:  # a training game: framed in red, as the note says
                    canvas.box(
                        (left + 2, y + 1, left + cell_width - 3, y + row_height - 2),
                        outline="red",
                        line=max(1, canvas.px(2)),
                    )
                canvas.text(
                    (left + cell_width / 2, y + middle),
                    format_strength(cell.lowest),
                    face,
                    ink="red" if cell.handicap.training else "black",
                    anchor="mm",
                )
            canvas.hline(x0, x1, y + row_height - 1)
            y += row_height


def _key_text(key: int, names: dict[int, str], is_moves: bool, portrait: bool = False) -> str:
    """A row's or column's heading: "3 moves" (in portrait, under the corner's "moves", just 3), or prisoners."""
    return names[key] if is_moves and not portrait else str(key)
