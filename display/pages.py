"""The pages the buttons reach besides the board: full handicap tables, the week's summary."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from display.awards import awards_strip, strip_height
from display.canvas import Box, Canvas
from display.fonts import BOLD, NICK, REGULAR, Font, font, line_height, width, wrapped
from display.profiles import NAME_CAP_MM
from display.render import format_date, small_face
from display.wall import WallData
from display.words import say
from kiosk.board import GameResult, climbers
from kiosk.handicap import TableCell, table
from kiosk.scale import arrows_between, format_strength


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
    x0, y0, x1, y1 = body
    title = canvas.face(BOLD)
    note = small_face(canvas)
    y = y0
    even_text = f"{say(data.language, 'even')}: {say(data.language, 'difference')} 0–{format_strength(even.highest)}"
    if canvas.profile.px_to_mm(y1 - y0) < 80:  # a small panel: one line of title, the table gets the room
        canvas.text((x0, y), f"{say(data.language, 'handicap', size=size)} · {even_text}", title, room=x1 - x0)
        y += line_height(title) + canvas.px(2)
    else:
        for line in wrapped(say(data.language, "handicap_title", size=size), title, x1 - x0)[:2]:
            canvas.text((x0, y), line, title, room=x1 - x0)
            y += line_height(title)
        y += canvas.px(4)
        canvas.text((x0, y), even_text, canvas.face(REGULAR), room=x1 - x0)
        y += line_height(canvas.face(REGULAR)) + canvas.px(4)
    notes = [say(data.language, "cells"), say(data.language, "training_from", n=rules.training_moves)]
    one_line = width(notes[0], note) + width(notes[1], note) + canvas.px(20) <= x1 - x0
    bottom = y1 - line_height(note) * (1 if one_line else 2)
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
    if one_line:
        canvas.text((x0, y1), notes[0], note, anchor="ld")
        canvas.text((x1, y1), notes[1], note, ink="red", anchor="rd")
    else:
        canvas.text((x0, y1 - line_height(note)), notes[0], note, anchor="ld", room=x1 - x0)
        canvas.text((x0, y1), notes[1], note, ink="red", anchor="ld", room=x1 - x0)
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
        x0, y, x1, bottom = box
        portrait, names, smallest = self.portrait, self.names, self.smallest
        row_height = max(1, (bottom - y) // rows)
        size_px = max(smallest, min(canvas.profile.text_px(REGULAR, 5.0), round(row_height * 0.62)))
        while True:  # as large as the height allows, but digits that would run together shrink (not under 2 mm)
            face = font(NICK, size_px)
            bold = font(NICK if portrait else BOLD, size_px)
            head_width, cell_need = self.measure(canvas, size_px, row_keys, x1 - x0)
            cell_width = (x1 - x0 - head_width) // max(1, len(self.column_keys))
            if size_px <= smallest or cell_need <= cell_width:
                break
            size_px -= 1
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


def milestones(data: WallData) -> list[str]:
    """The week's milestones in words: new members, pairs that now play even."""
    found = []
    for game in data.week:
        for milestone in game.milestones:
            if milestone[0] == "member":
                found.append(say(data.language, "became_member", nick=milestone[1]))
            elif milestone[0] == "even" and len(milestone) == 3:
                found.append(say(data.language, "now_even", a=milestone[1], b=milestone[2]))
    return found


def week_page(canvas: Canvas, data: WallData, body: Box) -> None:
    """The week in large type: its results with the arrows each magnet moved, climbers and fallers, newcomers,
    milestones, and across the bottom the month's awards. Landscape: three columns; portrait: one under the other."""
    x0, y0, x1, y1 = body
    big = canvas.face(BOLD, 3.5)
    face = canvas.face(REGULAR, NAME_CAP_MM)
    games = len(data.week)
    title = say(data.language, "week_title", start=format_date(data.week_start, data.language))
    if games:
        title += " · " + say(data.language, "games_played", n=games)
    canvas.text((x0, y0), title, big, room=x1 - x0)
    top = y0 + line_height(big) + canvas.px(8)
    strip = strip_height(canvas, data.awards, data.language, x1 - x0, y1 - top)
    awards_strip(canvas, data.awards, data.language, (x0, y1 - strip, x1, y1), y1 - top)
    y1 -= strip
    if not data.week:
        canvas.text((x0, top), say(data.language, "quiet_week"), face, room=x1 - x0)
        return
    gap = canvas.px(16)
    sections = [
        (say(data.language, "results"), result_lines(data), "earlier"),
        (say(data.language, "climbers"), [f"{nick}  ↑{n}" for nick, _, n in climbers(data.week)], None),
        (say(data.language, "fallers"), [f"{nick}  ↓{n}" for nick, n in fallers(data)], None),
        (say(data.language, "newcomers"), newcomers(data), None),
        (say(data.language, "milestones"), milestones(data) or [say(data.language, "no_milestones")], None),
    ]
    if canvas.width >= canvas.height:
        room = x1 - x0 - 2 * gap  # the results get the widest column: two names and their arrows
        edges = [x0, x0 + round(room * 0.44), x0 + round(room * 0.72) + gap, x1 + gap]
        boxes = [(edges[i] + (gap if i else 0), top, edges[i + 1] - gap, y1) for i in range(3)]
        boxes[0] = (x0, top, edges[1], y1)
        groups = [sections[:1], sections[1:3], sections[3:]]
    else:
        boxes, groups = [(x0, top, x1, y1)], [sections]
    for box, group in zip(boxes, groups, strict=True):
        y = box[1]
        for heading, lines, more in group:
            if not lines or y + line_height(big) + line_height(face) > box[3]:
                continue
            canvas.text((box[0], y), heading, big, ink="red", room=box[2] - box[0])
            y = _lines(canvas, lines, face, (box[0], y + line_height(big), box[2], box[3]), more, data.language)
            y += canvas.px(10)


def _lines(canvas: Canvas, lines: list[str], face: Font, box: Box, more: str | None, language: str) -> int:
    """Lines of text down a box; what does not fit is counted in a last line (the phrase ``more``); the bottom."""
    x0, y, x1, y1 = box
    step = line_height(face) + canvas.px(2)
    room = (y1 - y) // step
    shown = lines if len(lines) <= room else lines[: max(0, room - 1)]
    for line in shown:
        canvas.text((x0, y), line, face, room=x1 - x0)
        y += step
    if len(shown) < len(lines):
        canvas.text((x0, y), say(language, more or "more", n=len(lines) - len(shown)), face, room=x1 - x0)
        y += step
    return y


def result_lines(data: WallData) -> list[str]:
    """The week's results, newest first, each magnet with the arrows it moved: ``Ewa ↑2 beat Ola ↓2``."""
    found = []
    for game in reversed(data.week):
        if game.winner is None:
            found.append(
                say(data.language, "drew", a=_with_arrows(game, game.players[0]), b=_with_arrows(game, game.players[1]))
            )
        else:
            found.append(
                say(data.language, "beat", winner=_with_arrows(game, game.winner), loser=_with_arrows(game, game.loser))
            )
    return found


def _with_arrows(game: GameResult, nick: str | None) -> str:
    """A nickname with the arrows its magnet moved in a game: ``Ewa ↑2``."""
    move = game.moves.get(nick or "")
    arrows = arrows_between(move.before, move.after) if move else 0
    return f"{nick} {'↑' if arrows > 0 else '↓'}{abs(arrows)}" if arrows else str(nick)


def fallers(data: WallData) -> list[tuple[str, int]]:
    """Who went down this week, in arrows, most first (only the games' own moves count)."""
    arrows: dict[str, int] = defaultdict(int)
    for game in data.week:
        for nick, move in game.moves.items():
            arrows[nick] += arrows_between(move.before, move.after)
    return sorted(((nick, -n) for nick, n in arrows.items() if n < 0), key=lambda item: (-item[1], item[0]))


def newcomers(data: WallData) -> list[str]:
    """Guests who played this week: the club's newest faces."""
    playing = {nick for game in data.week for nick in game.players}
    return sorted({m.nick for m in data.magnets if m.guest and not m.retired and m.nick in playing})
