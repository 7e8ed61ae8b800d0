"""Board state + panel profile + options → the picture (a pure function, no I/O)."""

from __future__ import annotations

from PIL import Image

from display import columns, packing
from display.canvas import Box, Canvas, qr_modules, small_face
from display.fonts import BOLD, REGULAR, Font, line_height, width, wrapped
from display.profiles import NAME_CAP_MM, SMALLEST_CAP_MM, Profile
from display.wall import PAGES, View, WallData
from display.words import counted, format_date, resting_note, say
from kiosk.bands import bands
from kiosk.board import GameResult
from kiosk.events import RESIGNATION, margin_json
from kiosk.handicap import table
from kiosk.scale import format_strength

RESULTS_SHOWN = 5
QR_MM = 20  # the smallest QR code of the side strip: a phone reads it from an arm's length


def render(data: WallData, view: View, profile: Profile, orientation: str = "landscape") -> Image.Image:
    """The wall's picture of one page, in the panel's own palette ('P' mode)."""
    if view.page not in PAGES:
        raise ValueError(f"page must be one of {', '.join(PAGES)}")
    canvas = Canvas(profile, profile.canvas(orientation))
    if data.damaged:
        damaged_page(canvas, data)
        return canvas.image
    top, body = header_box(canvas)
    if view.page == "board":
        badge, _ = board_page(canvas, data, view, body)
        header(canvas, data, view, top, badge)
    else:
        badge = None  # the other pages are rarely shown: their modules are imported here, keeping the board's light
        if view.page == "handicap":
            from display.handicap_table import handicap_page

            parts = handicap_page(canvas, data, view.size, body, view.part)
            if parts > 1:  # the wHAT's 13x13 table: which of its pages this is
                badge = f"{view.size}×{view.size} · {min(max(view.part, 0), parts - 1) + 1}/{parts}"
        elif view.page == "tonight" or (view.page == "ruler" and not anyone_here(data)):
            # The ruler of nobody is tonight's page: how to check in, with the code (the wall shows the
            # ruler only once someone is here; `semedori render --page ruler` may ask before that).
            from display.tonight import tonight_page

            parts, _ = tonight_page(canvas, data, view.size, body, view.part)
            badge = tonight_badge(data, view, parts)
        elif view.page == "ruler":  # tonight's ruler: the first page while the club is open
            from display.tonight_ruler import ruler_page

            parts, _ = ruler_page(canvas, data, view.size, body, view.part)
            badge = ruler_badge(data, view, parts)
        elif view.page == "event":
            from display.standings import event_page

            parts, _ = event_page(canvas, data, body, view.part)
            badge = event_badge(data, view, parts)
        else:
            from display.week import week_page

            parts = week_page(canvas, data, body, view.part)
            if parts > 1:  # the small panels: the week's parts that had no room go on to a next page
                badge = f"{say(data.language, 'week')} · {min(max(view.part, 0), parts - 1) + 1}/{parts}"
        header(canvas, data, view, top, badge)
    return canvas.image


def tonight_badge(data: WallData, view: View, parts: int) -> str:
    """The tonight page's badge: "Tonight 13×13", and which of its pages when it has several."""
    badge = say(data.language, "tonight_badge", size=view.size)
    return badge + (f" · {min(max(view.part, 0), parts - 1) + 1}/{parts}" if parts > 1 else "")


def ruler_badge(data: WallData, view: View, parts: int) -> str:
    """The ruler's badge: "Tonight 13×13 · 18 players here", and which of its pages when it has several."""
    badge = say(data.language, "tonight_badge", size=view.size)
    if data.tonight is not None and data.tonight.here:
        badge += " · " + counted(data.language, "here_n", len(data.tonight.here))
    return badge + (f" · {min(max(view.part, 0), parts - 1) + 1}/{parts}" if parts > 1 else "")


def anyone_here(data: WallData) -> bool:
    """True when someone has checked in tonight: tonight's ruler has somebody to show."""
    return data.tonight is not None and bool(data.tonight.here)


def ruler_pages(data: WallData, size: int, profile: Profile, orientation: str = "landscape") -> int:
    """How many pages tonight's ruler takes on a panel (the page timer and button A step through them)."""
    from display.tonight_ruler import page_count

    if not anyone_here(data):
        return tonight_pages(data, size, profile, orientation)

    canvas = Canvas(profile, profile.canvas(orientation))
    return page_count(data, size, profile, orientation, header_box(canvas)[1])


def ruler_report(
    data: WallData, size: int, profile: Profile, orientation: str = "landscape"
) -> list[tuple[Image.Image, list[dict[str, object]]]]:
    """Every page of tonight's ruler with what is drawn on it (the layout report)."""
    from display.tonight_ruler import ruler_page

    if not anyone_here(data):
        return tonight_report(data, size, profile, orientation)
    found = []
    for part in range(ruler_pages(data, size, profile, orientation)):
        canvas = Canvas(profile, profile.canvas(orientation))
        top, body = header_box(canvas)
        view = View("ruler", size, part)
        parts, labels = ruler_page(canvas, data, size, body, part)
        header(canvas, data, view, top, ruler_badge(data, view, parts))
        found.append((canvas.image, labels))
    return found


def event_badge(data: WallData, view: View, parts: int) -> str:
    """The event page's badge: "Event 13×13" (the event's size), and which of its pages when it has several."""
    size = data.event.size if data.event is not None else view.size
    badge = say(data.language, "event_badge", size=size)
    return badge + (f" · {min(max(view.part, 0), parts - 1) + 1}/{parts}" if parts > 1 else "")


def event_pages(data: WallData, size: int, profile: Profile, orientation: str = "landscape") -> int:
    """How many pages tonight's event takes on a panel (button C and the page timer step through them)."""
    from display.standings import page_count

    canvas = Canvas(profile, profile.canvas(orientation))
    return page_count(data, profile, orientation, header_box(canvas)[1])


def event_report(
    data: WallData, profile: Profile, orientation: str = "landscape"
) -> list[tuple[Image.Image, list[dict[str, object]]]]:
    """Every page of tonight's event with what is drawn on it (the layout report)."""
    from display.standings import event_page

    found = []
    size = data.event.size if data.event is not None else 13
    for part in range(event_pages(data, size, profile, orientation)):
        canvas = Canvas(profile, profile.canvas(orientation))
        top, body = header_box(canvas)
        view = View("event", size, part)
        parts, labels = event_page(canvas, data, body, part)
        header(canvas, data, view, top, event_badge(data, view, parts))
        found.append((canvas.image, labels))
    return found


def tonight_pages(data: WallData, size: int, profile: Profile, orientation: str = "landscape") -> int:
    """How many pages tonight's pairs and results take on a panel (button C steps through them)."""
    from display.tonight import page_count

    canvas = Canvas(profile, profile.canvas(orientation))
    return page_count(data, size, profile, orientation, header_box(canvas)[1])


def tonight_report(
    data: WallData, size: int, profile: Profile, orientation: str = "landscape"
) -> list[tuple[Image.Image, list[dict[str, object]]]]:
    """Every page of tonight with the names drawn on it (the layout report)."""
    from display.tonight import tonight_page

    found = []
    for part in range(tonight_pages(data, size, profile, orientation)):
        canvas = Canvas(profile, profile.canvas(orientation))
        top, body = header_box(canvas)
        view = View("tonight", size, part)
        parts, labels = tonight_page(canvas, data, size, body, part)
        header(canvas, data, view, top, tonight_badge(data, view, parts))
        found.append((canvas.image, labels))
    return found


def damaged_page(canvas: Canvas, data: WallData) -> None:
    """The whole panel says the data is damaged and names the backup to restore: not an empty board."""
    margin = canvas.px(8, floor=4)
    room = canvas.width - 2 * margin
    title, body = title_face(canvas), canvas.face(REGULAR, NAME_CAP_MM)
    lines = [(line, title) for line in wrapped(say(data.language, "damaged"), title, room)]
    advice = say(data.language, "restore", backup=data.backup) if data.backup else say(data.language, "no_backup")
    lines += [(line, body) for line in wrapped(advice, body, room)]
    y = margin + line_height(title) / 2
    for text, face in lines:
        canvas.text((margin, y), text, face, ink="red" if face is title else "black", anchor="lm", room=room)
        y += line_height(face) * 1.3
    canvas.text((margin, canvas.height - margin), data.club_name, small_face(canvas), anchor="ld", room=room)


def week_pages(data: WallData, size: int, profile: Profile, orientation: str = "landscape") -> int:
    """How many pages the week takes on a panel (button C and the page timer step through them)."""
    from display.week import week_page

    canvas = Canvas(profile, profile.canvas(orientation))
    return week_page(canvas, data, header_box(canvas)[1])


def handicap_pages(data: WallData, size: int, profile: Profile, orientation: str = "landscape") -> int:
    """How many pages the handicap table of a size takes on a panel (button B steps through them)."""
    from display.handicap_table import handicap_page

    canvas = Canvas(profile, profile.canvas(orientation))
    return handicap_page(canvas, data, size, header_box(canvas)[1])


def title_face(canvas: Canvas) -> Font:
    """The header's bold type: as large as the names."""
    return canvas.face(BOLD, NAME_CAP_MM)


def header_box(canvas: Canvas) -> tuple[Box, Box]:
    """The header's box and the body's box below it."""
    margin = canvas.px(8, floor=4)
    height = max(line_height(title_face(canvas)) + margin, 2 * line_height(small_face(canvas)) + margin // 2)
    top = margin // 2
    rule_y = top + height
    body = (margin, rule_y + canvas.px(2) + margin, canvas.width - margin, canvas.height - margin)
    return (margin, top, canvas.width - margin, rule_y), body


def header(canvas: Canvas, data: WallData, view: View, box: Box, badge: str | None = None) -> None:
    """The badge (size, page and its strengths), the club's name, the last game and when the wall was updated."""
    # Long: the header's four parts share one line of measures (margin, badge width, the room left for the club's
    # name).
    margin = canvas.px(8, floor=4)
    x0, top, x1, rule_y = box
    title = title_face(canvas)
    size_text = badge or f"{view.size}×{view.size}"
    if view.page == "week":
        size_text = badge or say(data.language, "week")
    height = rule_y - top
    middle = top + (height - margin // 2) / 2
    last = data.recent_on(view.size)
    lines = [
        say(data.language, "last_game", date=format_date(last[0].at.date(), data.language))
        if last
        else say(data.language, "no_games")
    ]
    if data.updated is not None:
        lines.append(say(data.language, "updated", time=data.updated.strftime("%H:%M")))
    note = clock_note(data)  # only while the clock has no internet time
    natural = round(width(size_text, title)) + 2 * margin  # the badge's width on one line of title type
    if note:  # on the update's line: the header holds two lines on every panel
        room = x1 - x0 - min(natural, x1 - x0) - 2 * margin
        if data.updated is None:
            lines.append(note)
        elif width(f"{lines[-1]} · {note}", small_face(canvas)) <= room:
            lines[-1] = f"{lines[-1]} · {note}"
        else:  # a narrow panel: the clock matters more than the last game's date
            lines = [lines[-1], note]
    small = small_face(canvas)

    def beside(texts: list[str]) -> int:  # the room the lines at the right take, with a margin before them
        return round(max(width(text, small) for text in texts)) + 2 * margin

    if natural + beside(lines) > x1 - x0 and len(lines) > 1 and data.updated is not None and not note:
        # A narrow panel (the 4", the wHAT, portrait): when the wall was updated matters more than the last game.
        lines = lines[-1:]
    room = x1 - x0 - beside(lines)
    badge_width, badge_lines = min(natural, x1 - x0), [size_text]
    face = canvas.face(BOLD, SMALLEST_CAP_MM)
    badge_face = title
    halves = badge_halves(size_text, face, room - 2 * margin)
    parts = size_text.split(" · ")
    while len(parts) > 2 and halves and max(width(line, face) for line in halves) > room - 2 * margin:
        del parts[-2]  # a narrow panel: "Tonight 13×13 · 1/6" without the count of those on the page, time kept whole
        size_text = " · ".join(parts)
        halves = badge_halves(size_text, face, room - 2 * margin)
    if natural > room and halves:  # the page's strengths on a second line in smaller type, rather than cut off
        badge_lines = halves
        badge_width = max(room, round(max(width(text, face) for text in badge_lines)) + 2 * margin)
    elif natural > room and round(width(size_text, face)) + 2 * margin <= room:  # smaller type, the time kept whole
        badge_face, badge_width = face, round(width(size_text, face)) + 2 * margin
    canvas.box((x0, top, x0 + badge_width, rule_y - margin // 2), fill="black")
    if len(badge_lines) == 1:
        canvas.text(
            (x0 + badge_width / 2, middle), size_text, badge_face, ink="white", anchor="mm", room=badge_width - margin
        )
    else:
        step = line_height(face)
        for index, text in enumerate(badge_lines):
            canvas.text(
                (x0 + badge_width / 2, middle + (index - 0.5) * step),
                text,
                face,
                ink="white",
                anchor="mm",
                room=badge_width - margin,
            )
    name_and_date(canvas, data.club_name, lines, (x0 + badge_width + margin, middle, x1), margin)
    canvas.hline(x0, x1, rule_y, line=canvas.px(2))


def badge_halves(text: str, face: Font, room: int) -> list[str]:
    """The badge on two lines: after its ": " (the page's strengths below) where that fits ``room``, else at the
    place that leaves the narrowest badge (the ruler's "Tonight 13×13 · 15 players here · 1/6" broken at its last
    " · " was wider than the 4" portrait has room for, and cut the update time); none where it has no such place."""
    places = [(at, 2) for at in range(len(text)) if text.startswith(": ", at)]
    places += [(at, 3) for at in range(len(text)) if text.startswith(" · ", at)]
    splits = [[text[: at + (1 if gap == 2 else 0)], text[at + gap :]] for at, gap in places if at > 0]
    if (
        splits
        and ": " in text[places[0][0] : places[0][0] + 2]
        and max(width(line, face) for line in splits[0]) <= room
    ):
        return splits[0]
    return min(splits, key=lambda lines: max(width(line, face) for line in lines), default=[])


def clock_note(data: WallData) -> str:
    """A small line when the kiosk's clock has no internet time (kiosk/clock.py); none when it has."""
    if data.clock_by == "ntp":
        return ""
    if data.clock_trusted is None:
        return say(data.language, "clock_unsure")
    moment = data.clock_trusted
    if data.updated is not None and data.updated.date() == moment.date():  # today: the time says it all
        return say(data.language, "clock_phones", date=f"{moment:%H:%M}")
    return say(data.language, "clock_phones", date=f"{format_date(moment.date(), data.language)} {moment:%H:%M}")


def name_and_date(canvas: Canvas, name: str, lines: list[str], line: tuple[int, float, int], margin: int) -> None:
    """The club's name after the badge, and the last game and the update time at the right, one above the other.

    The name gets what room is left: whole, on two lines of smaller type, or its first words; never cut mid-word.
    """
    left, middle, right = line
    small = small_face(canvas)
    step = line_height(small)
    for index, text in enumerate(lines):
        canvas.text(
            (right, middle + (index - (len(lines) - 1) / 2) * step), text, small, anchor="rm", room=right - left
        )
    room = right - left - round(max(width(text, small) for text in lines)) - 2 * margin
    face, shown = club_name_lines(canvas, name, room, len(lines) * step)
    for index, text in enumerate(shown):
        canvas.text((left, middle + (index - (len(shown) - 1) / 2) * line_height(face)), text, face, anchor="lm")


def club_name_lines(canvas: Canvas, name: str, room: int, height: int) -> tuple[Font, list[str]]:
    """The club's name in the header, never cut mid-word: whole in title type, else on two lines of smaller bold
    type, else its first words that fit (``Semedori`` of "Semedori Go Club"); none where not a word fits."""
    title = title_face(canvas)
    if width(name, title) <= room:
        return title, [name]
    smaller = canvas.face(BOLD, SMALLEST_CAP_MM)
    two = wrapped(name, smaller, room)
    if (
        len(two) <= 2
        and all(width(line, smaller) <= room for line in two)
        and len(two) * line_height(smaller) <= max(height, line_height(title))
    ):
        return smaller, two
    words = name.split()
    for count in range(len(words) - 1, 0, -1):
        first = " ".join(words[:count])
        if width(first, title) <= room:
            return title, [first]
    return title, []


Layout = tuple[columns.Plan | None, Box, Box | None]
# The last layouts made: a refresh counts a board's pages and draws one, and the page timer draws the next of the
# same data, so each board is laid out once per read of the store, not once per picture.
_LAYOUTS: dict[tuple[int, int, str, tuple[int, int], Box], tuple[WallData, Layout]] = {}


def board_layout(data: WallData, size: int, canvas: Canvas, body: Box) -> Layout:
    """The columns' plan of a size's board, the columns' area and the side panel (None: none on this board)."""
    key = (id(data), size, canvas.profile.name, (canvas.width, canvas.height), body)
    kept = _LAYOUTS.get(key)
    if kept is not None and kept[0] is data:  # the very same data (id alone could be a new object's)
        return kept[1]
    found = _layout(data, size, canvas, body)
    if len(_LAYOUTS) >= 8:
        _LAYOUTS.pop(next(iter(_LAYOUTS)))
    _LAYOUTS[key] = (data, found)
    return found


def _layout(data: WallData, size: int, canvas: Canvas, body: Box) -> Layout:
    magnets = data.on_size(size)
    lines = sleepers_lines(canvas, data, size, body)
    if lines:  # a line at the foot for the sleepers: never a silent gap on the board
        body = (body[0], body[1], body[2], body[3] - len(lines) * line_height(small_face(canvas)) - canvas.px(4))
    area, side = split(canvas, body)
    if not magnets:
        return None, area, side
    band_list = bands(data.top, canvas.profile.colourful)
    moved = data.moved(size)
    plan = packing.plan(magnets, band_list, data.top, canvas.profile, area, gutter(canvas), moved)
    if len(plan.pages) > 1:  # a page fewer beats the side panel: the QR code then takes a page's free room
        wide = packing.plan(magnets, band_list, data.top, canvas.profile, body, gutter(canvas), moved)
        if len(wide.pages) < len(plan.pages):
            return wide, body, None
    return plan, area, side


def sleepers_lines(canvas: Canvas, data: WallData, size: int, body: Box) -> list[str]:
    """The board's note of its resting magnets, in lines as wide as the body (none when nobody rests)."""
    count = data.resting_on(size)
    if not count:
        return []
    return wrapped(resting_note(data.language, count, data.sleeper_weeks), small_face(canvas), body[2] - body[0])


def gutter(canvas: Canvas) -> int:
    """The space between two columns."""
    return canvas.px(10)


def board_page(
    canvas: Canvas,
    data: WallData,
    view: View,
    body: Box,
    laid: tuple[columns.Plan | None, Box, Box | None] | None = None,
) -> tuple[str, list[dict[str, object]]]:
    """One page of the strength columns with a side panel; returns the header's badge text and the labels drawn."""
    plan, area, side = laid or board_layout(data, view.size, canvas, body)
    if side is not None:
        side_panel(canvas, data, view.size, side)
    notes = sleepers_lines(canvas, data, view.size, body)
    small = small_face(canvas)
    for index, line in enumerate(reversed(notes)):
        canvas.text((body[0], body[3] - index * line_height(small)), line, small, anchor="ld", room=body[2] - body[0])
    badge = f"{view.size}×{view.size}"
    if plan is None and not notes:  # resting magnets are not "no magnets yet": the note at the foot says so
        face = canvas.face(BOLD)
        canvas.text(
            ((area[0] + area[2]) / 2, (area[1] + area[3]) / 2),
            say(data.language, "empty", size=view.size),
            face,
            anchor="mm",
            room=area[2] - area[0],
        )
    if plan is None:
        return badge, []
    part = min(max(view.part, 0), len(plan.pages) - 1)
    page = plan.pages[part]
    columns.draw(canvas, plan, page, area, gutter(canvas))
    if side is None:
        free = columns.free_box(plan, page, area, gutter(canvas))
        face = canvas.face(BOLD)
        lines = len(wrapped(say(data.language, "enter"), face, free[2] - free[0]))
        caption = lines * line_height(face)
        # A phone still reads it, and its caption stays words, not a column of single letters.
        if lines <= 2 and min(free[2] - free[0], free[3] - free[1] - caption) >= canvas.px(90):
            qr_block(canvas, data, free)
    if len(plan.pages) > 1:
        badge += f" · {part + 1}/{len(plan.pages)}: {page.span}"
    return badge, columns.report(plan, page)


def board_pages(data: WallData, size: int, profile: Profile, orientation: str = "landscape") -> int:
    """How many pages the board of a size takes on a panel (button A steps through them)."""
    canvas = Canvas(profile, profile.canvas(orientation))
    plan, _, _ = board_layout(data, size, canvas, header_box(canvas)[1])
    return 1 if plan is None else len(plan.pages)


def board_report(
    data: WallData, size: int, profile: Profile, orientation: str = "landscape", draw: bool = True
) -> list[tuple[Image.Image | None, list[dict[str, object]]]]:
    """Every page of a size's board with the labels on it (the layout report); pictures only when ``draw``."""
    canvas = Canvas(profile, profile.canvas(orientation))
    top, body = header_box(canvas)
    laid = board_layout(data, size, canvas, body)
    plan, area, _ = laid
    if not draw:
        if plan is None:
            return [(None, [])]
        found: list[tuple[Image.Image | None, list[dict[str, object]]]] = []
        for page in plan.pages:
            columns.place(plan, page, area, gutter(canvas))
            found.append((None, columns.report(plan, page)))
        return found
    found = []
    for part in range(1 if plan is None else len(plan.pages)):
        canvas = Canvas(profile, profile.canvas(orientation))
        view = View("board", size, part)
        badge, labels = board_page(canvas, data, view, body, laid)
        header(canvas, data, view, top, badge)
        found.append((canvas.image, labels))
    return found


def split(canvas: Canvas, body: Box) -> tuple[Box, Box]:
    """The body cut into the columns' area and the side panel (right, or below in portrait)."""
    gap = canvas.px(12)
    face = canvas.face(BOLD)
    if canvas.width >= canvas.height:
        side_width = max(canvas.px(110), round(width("Enter a", face)) + 2)
        area = (body[0], body[1], body[2] - side_width - gap, body[3])
        side = (body[2] - side_width, body[1], body[2], body[3])
    else:
        # Room for a QR code a phone reads (about 2 cm) and its caption beside the compact table: the 5.7"
        # once had a strip too short for any code.
        qr_room = round(canvas.profile.mm(QR_MM)) + 2 * line_height(face)
        side_height = max(canvas.px(110), 3 * line_height(face), qr_room)
        area = (body[0], body[1], body[2], body[3] - side_height - gap)
        side = (body[0], body[3] - side_height, body[2], body[3])
    return area, side


def side_panel(canvas: Canvas, data: WallData, size: int, box: Box) -> None:
    """The QR code, and where there is room the compact handicap table and the last results."""
    gap = canvas.px(10)
    x0, y0, x1, y1 = box
    if canvas.width >= canvas.height:
        caption = 2 * line_height(canvas.face(BOLD))
        qr_side = min(x1 - x0, (y1 - y0) // 2 - caption) + caption
        used = qr_block(canvas, data, (x0, y0, x1, y0 + qr_side))
        used = handicap_block(canvas, data, size, (x0, used + gap, x1, y1))
        if width("M" * 14, canvas.face(REGULAR)) <= x1 - x0:  # results cut to a name and a half help nobody
            results_block(canvas, data, size, (x0, used + gap, x1, y1))
    else:
        qr = min(y1 - y0, (x1 - x0) // 3)
        face, text = canvas.face(BOLD), say(data.language, "enter")
        while len(wrapped(text, face, qr)) > 2 and qr < (x1 - x0) // 2:  # words, not a column of letters
            qr += canvas.px(4)
        qr_block(canvas, data, (x0, y0, x0 + qr, y1))
        handicap_block(canvas, data, size, (x0 + qr + gap, y0, x1, y1))


def qr_block(canvas: Canvas, data: WallData, box: Box) -> int:
    """A QR code of the web form's address, so a new phone finds it, and its caption; returns the bottom."""
    caption = canvas.face(BOLD)
    lines = wrapped(say(data.language, "enter"), caption, box[2] - box[0])
    step = line_height(caption)
    room = (box[0], box[1], box[2], box[3] - step * len(lines))
    if min(room[2] - room[0], room[3] - room[1]) < 2 * qr_modules(data.form_url):
        return box[1]  # one pixel a module is a speck no phone reads: better no code than a dot
    side = canvas.qr(data.form_url, room)
    bottom = box[1] + side
    for line in lines:
        canvas.text(((box[0] + box[2]) / 2, bottom), line, caption, anchor="ma", room=box[2] - box[0])
        bottom += step
    return bottom


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
    """The compact handicap table of the size, as large as the names, when it fits whole; returns the bottom."""
    title = canvas.face(BOLD)
    face = canvas.face(REGULAR)
    x0, y, x1, _ = box
    rows = handicap_rows(data, size)
    step = line_height(face)
    split = x0 + round(max((width(span, face) for span, _ in rows), default=0)) + canvas.px(10, floor=5)
    widest = max((width(name, face) for _, name in rows), default=0)
    if y + line_height(title) + step * len(rows) > box[3] or split + widest > x1:
        return y  # half a table would mislead: the handicap page (button B) has it whole
    canvas.text((x0, y), say(data.language, "handicap", size=size), title, room=x1 - x0)
    y += line_height(title)
    for span, name in rows:
        canvas.text((x0, y), span, face)
        canvas.text((split, y), name, face, room=x1 - split)
        y += step
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
    title = canvas.face(BOLD)
    face = canvas.face(REGULAR)
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
