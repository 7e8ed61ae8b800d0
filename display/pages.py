"""The pages the buttons reach besides the board: full handicap tables, the week's summary."""

from __future__ import annotations

from collections import defaultdict

from display.canvas import Box, Canvas
from display.fonts import BOLD, REGULAR, font, line_height, width
from display.wall import WallData
from display.words import say
from kiosk.board import climbers
from kiosk.handicap import table
from kiosk.scale import format_strength

CLIMBERS_SHOWN = 5


def handicap_page(canvas: Canvas, data: WallData, size: int, body: Box) -> None:
    """The size's handicap table in full: a row per number of moves, a column per prisoners."""
    rules = data.size_rules[size]
    cells = table(rules)
    x0, y0, x1, y1 = body
    title = font(BOLD, canvas.px(18, floor=12))
    canvas.text((x0, y0), say(data.language, "handicap_title", size=size), title, room=x1 - x0)
    y = y0 + line_height(title) + canvas.px(6)
    prisoners = sorted({c.handicap.prisoners for c in cells if not c.handicap.even})
    moves = sorted({c.handicap.moves for c in cells if not c.handicap.even})
    note = font(REGULAR, canvas.px(13, floor=11))
    rows = 2 + len(moves)
    row_height = max(1, (y1 - line_height(note) - y) // rows)
    size_px = min(canvas.px(22), round(row_height * 0.6))
    titles = [say(data.language, "prisoners"), say(data.language, "even"), say(data.language, "moves", n=max(moves))]
    head_width = round(max(width(title, font(BOLD, size_px)) for title in titles)) + canvas.px(12)
    cell_width = (x1 - x0 - head_width) // max(1, len(prisoners))
    widest = width("12.75", font(REGULAR, size_px))
    if widest > cell_width - canvas.px(4):  # text width grows with the size: scale it down in one go
        size_px = max(9, int(size_px * (cell_width - canvas.px(4)) / widest))
    face = font(REGULAR, size_px)
    bold = font(BOLD, size_px)
    middle = row_height / 2
    canvas.text((x0, y + middle), say(data.language, "prisoners"), bold, anchor="lm", room=head_width)
    for index, count in enumerate(prisoners):
        canvas.text((x0 + head_width + (index + 0.5) * cell_width, y + middle), str(count), bold, anchor="mm")
    canvas.hline(x0, x1, y + row_height - 1, line=canvas.px(2))
    y += row_height
    even = next(c for c in cells if c.handicap.even)
    canvas.text((x0, y + middle), say(data.language, "even"), bold, anchor="lm", room=head_width)
    canvas.text((x0 + head_width, y + middle), f"{say(data.language, 'difference')} 0–{format_strength(even.highest)}",
                face, anchor="lm")
    y += row_height
    training_rows = {c.handicap.moves for c in cells if c.handicap.training}
    for count in moves:
        training = count in training_rows
        name = say(data.language, "move") if count == 1 else say(data.language, "moves", n=count)
        canvas.text((x0, y + middle), name, bold, ink="red" if training else "black", anchor="lm", room=head_width)
        for cell in cells:
            if cell.handicap.even or cell.handicap.moves != count:
                continue
            column = prisoners.index(cell.handicap.prisoners)
            canvas.text((x0 + head_width + (column + 0.5) * cell_width, y + middle), format_strength(cell.lowest),
                        face, anchor="mm")
        canvas.hline(x0, x1, y + row_height - 1)
        y += row_height
    canvas.text((x0, y1), say(data.language, "cells"), note, anchor="ld", room=(x1 - x0) // 2)
    canvas.text((x1, y1), say(data.language, "training_from", n=rules.training_moves), note, ink="red", anchor="rd")


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
    """The week so far: games played, biggest climbers, milestones."""
    x0, y0, x1, y1 = body
    big = font(BOLD, canvas.px(22, floor=13))
    face = font(REGULAR, canvas.px(18, floor=12))
    step = line_height(face) + canvas.px(4)
    from display.render import format_date  # one date format for the whole wall

    canvas.text((x0, y0), say(data.language, "week_title", start=format_date(data.week_start, data.language)), big,
                room=x1 - x0)
    y = y0 + line_height(big) + canvas.px(8)
    if not data.week:
        canvas.text((x0, y), say(data.language, "quiet_week"), face, room=x1 - x0)
        return
    per_size: dict[int, int] = defaultdict(int)
    for game in data.week:
        per_size[game.size] += 1
    sizes = " · ".join(f"{size}×{size}: {count}" for size, count in sorted(per_size.items()))
    canvas.text((x0, y), f"{say(data.language, 'games_played', n=len(data.week))}  ({sizes})", face, room=x1 - x0)
    y += step + canvas.px(8)
    split = (x0 + x1) // 2 if canvas.width >= canvas.height else x1
    top = y
    canvas.text((x0, y), say(data.language, "climbers"), big, ink="red", room=split - x0)
    y += line_height(big)
    for nick, size, arrows in climbers(data.week)[:CLIMBERS_SHOWN]:
        if y + step > y1:
            break
        text = f"{nick} ({size}×{size})  +{arrows}"
        canvas.text((x0, y), text, face, room=split - x0 - canvas.px(8))
        y += step
    if split == x1:
        x, y = x0, y + canvas.px(12)
    else:
        x, y = split, top
    canvas.text((x, y), say(data.language, "milestones"), big, ink="red", room=x1 - x)
    y += line_height(big)
    for line in milestones(data) or [say(data.language, "no_milestones")]:
        if y + step > y1:
            break
        canvas.text((x, y), line, face, room=x1 - x)
        y += step
