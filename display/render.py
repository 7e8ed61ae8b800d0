"""Board state + panel profile + options → the picture (a pure function, no I/O)."""

from __future__ import annotations

from datetime import date

from PIL import Image

from display import columns
from display.canvas import Box, Canvas
from display.fonts import BOLD, NICK, REGULAR, font, line_height, width
from display.profiles import Profile
from display.wall import PAGES, View, WallData
from display.words import say
from kiosk.board import GameResult
from kiosk.events import RESIGNATION, margin_json
from kiosk.handicap import table
from kiosk.scale import format_strength

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
RESULTS_SHOWN = 5


def render(data: WallData, view: View, profile: Profile, orientation: str = "landscape") -> Image.Image:
    """The wall's picture of one page, in the panel's own palette ('P' mode)."""
    if view.page not in PAGES:
        raise ValueError(f"page must be one of {', '.join(PAGES)}")
    canvas = Canvas(profile, profile.canvas(orientation))
    body = header(canvas, data, view)
    if view.page == "board":
        board_page(canvas, data, view.size, body)
    else:
        from display import pages  # the other pages are rarely shown; keep the board's import light

        if view.page == "handicap":
            pages.handicap_page(canvas, data, view.size, body)
        else:
            pages.week_page(canvas, data, body)
    return canvas.image


def format_date(day: date, language: str) -> str:
    """A date as the club writes it: ``3 Nov 2026`` or ``3.11.2026``."""
    if language == "pl":
        return f"{day.day}.{day.month:02}.{day.year}"
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def header(canvas: Canvas, data: WallData, view: View) -> Box:
    """Club name, board size and the date of the last game; returns the box below it."""
    margin = canvas.px(8, floor=4)
    title = font(BOLD, canvas.px(24, floor=14))
    height = line_height(title) + margin
    top = margin // 2
    size_text = f"{view.size}×{view.size}"
    if view.page == "week":
        size_text = say(data.language, "week")
    badge = round(width(size_text, title)) + 2 * margin
    canvas.box((margin, top, margin + badge, top + height - margin // 2), fill="black")
    canvas.text((margin + badge / 2, top + (height - margin // 2) / 2), size_text, title, ink="white", anchor="mm")
    last = data.recent_on(view.size)
    when = (say(data.language, "last_game", date=format_date(last[0].at.date(), data.language))
            if last else say(data.language, "no_games"))
    middle = top + (height - margin // 2) / 2
    name_and_date(canvas, data.club_name, when, (margin * 2 + badge, middle, canvas.width - margin), margin,
                  clock_note(data))
    rule_y = top + height
    canvas.hline(margin, canvas.width - margin, rule_y, line=canvas.px(2))
    return (margin, rule_y + canvas.px(2) + margin, canvas.width - margin, canvas.height - margin)


def clock_note(data: WallData) -> str:
    """A small line when the kiosk's clock has no internet time (kiosk/clock.py); none when it has."""
    if data.clock_by == "ntp":
        return ""
    if data.clock_trusted is None:
        return say(data.language, "clock_unsure")
    moment = data.clock_trusted
    return say(data.language, "clock_phones", date=f"{format_date(moment.date(), data.language)} {moment:%H:%M}")


def name_and_date(canvas: Canvas, name: str, when: str, line: tuple[int, float, int], margin: int,
                  note: str = "") -> None:
    """The club's name after the badge and the last game's date at the right, on one header line.

    On a narrow (portrait) panel the date goes on two small lines, then the name shrinks a
    little, before the name is cut.
    """
    left, middle, right = line
    small = font(REGULAR, canvas.px(15, floor=11))
    title = font(BOLD, canvas.px(24, floor=14))
    lines = [when]
    if note:  # the clock's line under the date, both a little smaller
        lines = [when, note]
        small = font(REGULAR, canvas.px(13, floor=11))
    elif width(name, title) > right - left - width(when, small) - 2 * margin and " " in when:
        cut = min((i for i, char in enumerate(when) if char == " "), key=lambda i: abs(i - len(when) / 2))
        lines = [when[:cut], when[cut + 1:]]
        small = font(REGULAR, canvas.px(13, floor=11))
    room = right - left - round(max(width(text, small) for text in lines)) - 2 * margin
    size, smallest = title.size, canvas.px(18, floor=12)
    while size > smallest and width(name, font(BOLD, size)) > room:
        size -= 1
    canvas.text((left, middle), name, font(BOLD, size), anchor="lm", room=room)
    step = line_height(small)
    for index, text in enumerate(lines):
        canvas.text((right, middle + (index - (len(lines) - 1) / 2) * step), text, small, anchor="rm")


def board_page(canvas: Canvas, data: WallData, size: int, body: Box) -> None:
    """The strength columns with a side panel: QR code, compact handicap, last results."""
    magnets = data.on_size(size)
    band_list = columns.bands(data.top, canvas.profile.colourful)
    area, side = split(canvas, body, slim=False)
    if not magnets:
        face = font(BOLD, canvas.px(22, floor=14))
        canvas.text(((area[0] + area[2]) / 2, (area[1] + area[3]) / 2), say(data.language, "empty", size=size),
                    face, anchor="mm", room=area[2] - area[0])
        side_panel(canvas, data, size, side)
        return
    plan = columns.layout(magnets, band_list, canvas, area)
    if plan.crowded:  # a full club wins over the side panel: keep only the QR code
        area, side = split(canvas, body, slim=True)
        plan = columns.layout(magnets, band_list, canvas, area)
        qr_block(canvas, data, side)
    else:
        side_panel(canvas, data, size, side)
    columns.draw(canvas, plan, area, say(data.language, "more", n=plan.hidden))


def split(canvas: Canvas, body: Box, slim: bool) -> tuple[Box, Box]:
    """The body cut into the columns' area and the side panel (right, or below in portrait)."""
    gutter = canvas.px(12)
    if canvas.width >= canvas.height:
        side_width = max(canvas.px(96 if slim else 190), 90 if slim else 110)
        area = (body[0], body[1], body[2] - side_width - gutter, body[3])
        side = (body[2] - side_width, body[1], body[2], body[3] if not slim else body[1] + side_width + canvas.px(20))
    else:
        side_height = max(canvas.px(120 if slim else 170), 90 if slim else 110)
        area = (body[0], body[1], body[2], body[3] - side_height - gutter)
        side = (body[0], body[3] - side_height, body[2] if not slim else body[0] + side_height, body[3])
    return area, side


def side_panel(canvas: Canvas, data: WallData, size: int, box: Box) -> None:
    """The QR code, the compact handicap table, the guest legend and the last results."""
    gap = canvas.px(10)
    x0, y0, x1, y1 = box
    if canvas.width >= canvas.height:
        qr_side = min(x1 - x0, (y1 - y0) // 3)
        used = qr_block(canvas, data, (x0, y0, x1, y0 + qr_side))
        used = handicap_block(canvas, data, size, (x0, used + gap, x1, y1))
        results_block(canvas, data, size, (x0, used + gap, x1, y1))
    else:
        third = (x1 - x0 - 2 * gap) // 3
        qr_block(canvas, data, (x0, y0, x0 + third, y1))
        handicap_block(canvas, data, size, (x0 + third + gap, y0, x0 + 2 * third + gap, y1))
        results_block(canvas, data, size, (x0 + 2 * (third + gap), y0, x1, y1))


def qr_block(canvas: Canvas, data: WallData, box: Box) -> int:
    """A QR code of the web form's address, so a new phone finds it; returns the bottom."""
    words = say(data.language, "enter")
    size = canvas.px(14, floor=11)
    while size > 10 and width(words, font(BOLD, size)) > box[2] - box[0]:
        size -= 1  # a slim side panel: smaller words rather than cut ones
    caption = font(BOLD, size)
    caption_height = line_height(caption)
    room = (box[0], box[1], box[2], box[3] - caption_height)
    side = canvas.qr(data.form_url, room)
    bottom = box[1] + side
    canvas.text(((box[0] + box[2]) / 2, bottom), words, caption, anchor="ma",
                room=box[2] - box[0])
    return bottom + caption_height


def handicap_rows(data: WallData, size: int) -> list[tuple[str, str]]:
    """The handicap table in a compact form: each number of moves with its differences."""
    rules = data.size_rules[size]
    rows: list[tuple[str, str]] = []
    by_moves: dict[int, tuple[int, int, bool]] = {}
    for cell in table(rules):
        if cell.handicap.even:
            rows.append((f"0–{format_strength(cell.highest)}", say(data.language, "even")))
            continue
        low, high, _ = by_moves.get(cell.handicap.moves, (cell.lowest, cell.highest, False))
        by_moves[cell.handicap.moves] = (min(low, cell.lowest), max(high, cell.highest), cell.handicap.training)
    for moves, (low, high, training) in sorted(by_moves.items()):
        name = say(data.language, "move") if moves == 1 else say(data.language, "moves", n=moves)
        # The table ends at the training row, and any greater difference is a training game too.
        span = f"{format_strength(low)}+" if training else f"{format_strength(low)}–{format_strength(high)}"
        rows.append((span, name))
    return rows


def handicap_block(canvas: Canvas, data: WallData, size: int, box: Box) -> int:
    """The compact handicap table of the size; returns the bottom."""
    title = font(BOLD, canvas.px(15, floor=11))
    face = font(REGULAR, canvas.px(13, floor=11))
    x0, y, x1, _ = box
    canvas.text((x0, y), say(data.language, "handicap", size=size), title, room=x1 - x0)
    y += line_height(title)
    step = line_height(face)
    rows = handicap_rows(data, size)
    # The names start right after this size's widest span: a slim side panel keeps "3 moves" whole.
    split = x0 + round(max((width(span, face) for span, _ in rows), default=0)) + canvas.px(10, floor=5)
    for span, name in rows:
        if y + step > box[3]:
            break
        canvas.text((x0, y), span, face)
        canvas.text((split, y), name, face, room=x1 - split)
        y += step
    legend = font(NICK, canvas.px(13, floor=11))
    guest = say(data.language, "guest")
    label_width = round(width(guest, legend)) + canvas.px(10)
    if y + step + canvas.px(6) <= box[3]:
        y += canvas.px(4)
        canvas.box((x0, y, x0 + label_width, y + step), fill="white")
        canvas.dashed_box((x0, y, x0 + label_width, y + step), "black", canvas.px(2), dash=canvas.px(4, floor=3))
        canvas.text((x0 + canvas.px(5), y + step / 2), guest, legend, anchor="lm")
        y += step + canvas.px(2)
    return y


def result_line(game: GameResult, language: str) -> str:
    """A game as one short line: who beat whom, and by how much."""
    if game.winner is None:
        return say(language, "drew", a=game.players[0], b=game.players[1])
    line = say(language, "beat", winner=game.winner, loser=game.loser)
    if game.by == RESIGNATION:
        return line + " (R)"
    if game.by is not None:
        return line + f" +{margin_json(game.by)}"
    return line


def results_block(canvas: Canvas, data: WallData, size: int, box: Box) -> int:
    """The last few results on this size; returns the bottom."""
    games = data.recent_on(size)[:RESULTS_SHOWN]
    if not games:
        return box[1]
    title = font(BOLD, canvas.px(15, floor=11))
    face = font(REGULAR, canvas.px(13, floor=11))
    x0, y, x1, y1 = box
    step = line_height(face)
    if y + line_height(title) + step > y1:
        return y
    canvas.text((x0, y), say(data.language, "results"), title, room=x1 - x0)
    y += line_height(title)
    for game in games:
        if y + step > y1:
            break
        canvas.text((x0, y), result_line(game, data.language), face, room=x1 - x0)
        y += step
    return y
