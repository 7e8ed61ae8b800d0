"""The wall's week page (button C while the club is closed): the week's results with their arrows,
climbers and fallers, newcomers, milestones, and the month's awards across the bottom."""

from __future__ import annotations

from collections import defaultdict

from display.awards import STRIP_SHARE, awards_strip, strip_height
from display.canvas import Box, Canvas
from display.fonts import BOLD, REGULAR, Font, line_height, width, wrapped
from display.profiles import NAME_CAP_MM
from display.wall import WallData
from display.words import format_date, say
from kiosk.board import GameResult, climbers
from kiosk.scale import arrows_between
from kiosk.sleepers import hanging


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


# A part of the page: its heading, its lines, and how it may be shortened: "earlier" (the results: the newest, and
# "+8 earlier results"), None (a list: "+3 more" where the page must hold the week), "whole" (milestones: never).
Section = tuple[str, list[str], str | None]


def week_page(canvas: Canvas, data: WallData, body: Box, part: int = 0) -> int:
    """The week in large type: its results with the arrows each magnet moved, climbers and fallers, newcomers,
    milestones, and across the bottom the month's awards. Landscape: three columns (two on a narrow panel);
    portrait: one under the other. Headings wrap, never cut. On a small panel a part with no room left goes on
    to a next page whole (the milestones were left out), and the awards to the foot of the last page, leaving the
    first to the results. Draws page ``part``; returns how many pages the week takes."""
    x0, y0, x1, y1 = body
    big = canvas.face(BOLD, 3.5)
    title = [say(data.language, "week_title", start=format_date(data.week_start, data.language))]
    if data.week:
        title.append(say(data.language, "games_played", n=len(data.week)))
    if not data.week:
        top = _heading(canvas, " · ".join(title), big, (x0, y0), x1 - x0, "black", parts=title) + canvas.px(8)
        strip = strip_height(canvas, data.awards, data.language, x1 - x0, y1 - top)
        awards_strip(canvas, data.awards, data.language, (x0, y1 - strip, x1, y1), y1 - top)
        canvas.text((x0, top), say(data.language, "quiet_week"), canvas.face(REGULAR, NAME_CAP_MM), room=x1 - x0)
        return 1
    scratch = Canvas(canvas.profile, (canvas.width, canvas.height))
    if _week_pages(scratch, data, body, title, -1, one_page=True) == 1:
        return _week_pages(canvas, data, body, title, part, one_page=True)
    return _week_pages(canvas, data, body, title, part, one_page=False)


def _week_pages(canvas: Canvas, data: WallData, body: Box, title: list[str], part: int, one_page: bool) -> int:
    """The week's pages, page ``part`` drawn on ``canvas`` (every other on a scratch canvas, to know where the
    shown one begins); how many pages. ``one_page``: as the large panels show it, the awards at the foot, a long
    part shortened ("+3 more") where its column has room for a line; else each part whole, the awards at the
    foot of the last page (or on a page of their own where the last has no room for them)."""
    awards_first = one_page
    x0, y0, x1, y1 = body
    big = canvas.face(BOLD, 3.5)
    face = canvas.face(REGULAR, NAME_CAP_MM)
    remaining = week_sections(data)
    page = 0
    while True:
        target = canvas if page == part else Canvas(canvas.profile, (canvas.width, canvas.height))
        top = _heading(target, " · ".join(title), big, (x0, y0), x1 - x0, "black", parts=title) + canvas.px(8)
        if not remaining:  # the awards on a page of their own: at its top, all of them the page holds
            share = round((y1 - top) / STRIP_SHARE)
            strip = strip_height(target, data.awards, data.language, x1 - x0, share)
            while top + strip > y1 and share > y1 - top:  # a two-line heading: a line fewer
                share -= line_height(face)
                strip = strip_height(target, data.awards, data.language, x1 - x0, share)
            awards_strip(target, data.awards, data.language, (x0, top, x1, top + strip), share)
            return page + 1
        strip = strip_height(target, data.awards, data.language, x1 - x0, y1 - top)
        awards_here = awards_first and page == 0
        bottom = y1 - strip if awards_here else y1
        left, lowest = _pour(target, remaining, (x0, top, x1, bottom), (big, face), data.language, whole=not one_page)
        if not awards_first and not left and lowest + strip <= y1:
            awards_here = True  # room under the last parts: the awards there, no page of their own
        if awards_here:
            awards_strip(target, data.awards, data.language, (x0, y1 - strip, x1, y1), y1 - top)
        page += 1
        if not left and (awards_first or awards_here or not strip):
            return page
        remaining = left


def week_sections(data: WallData) -> list[Section]:
    """The week page's parts in order: results, climbers, fallers, newcomers, milestones."""
    return [
        (say(data.language, "results"), result_lines(data), "earlier"),
        (
            say(data.language, "climbers"),
            [moved(nick, "↑", n, size, data) for nick, size, n in climbers(data.week)],
            None,
        ),
        (say(data.language, "fallers"), [moved(nick, "↓", n, size, data) for nick, size, n in fallers(data)], None),
        (say(data.language, "newcomers"), newcomers(data), None),
        (say(data.language, "milestones"), milestones(data) or [say(data.language, "no_milestones")], "whole"),
    ]


def _layouts(canvas: Canvas, box: Box, sections: list[Section]) -> list[tuple[list[Box], list[list[Section]]]]:
    """Where the parts may go, the first choice first. Landscape: three columns, the results the widest (two names
    and their arrows), or two on a panel too narrow for a heading's word in its column (the 4" and 5.7", long
    Polish words); portrait: one under the other."""
    x0, top, x1, y1 = box
    gap = canvas.px(16)
    found = []
    if canvas.width >= canvas.height:
        room = x1 - x0 - 2 * gap
        edges = [x0, x0 + round(room * 0.44), x0 + round(room * 0.72) + gap, x1 + gap]
        three = [(x0, top, edges[1], y1)] + [(edges[i] + gap, top, edges[i + 1] - gap, y1) for i in (1, 2)]
        half = x0 + (x1 - x0 - gap) // 2
        two = [(x0, top, half, y1), (half + gap, top, x1, y1)]
        lead = 1 if sections[0][2] == "earlier" else (len(sections) + 1) // 2  # the results: a column of their own
        found += [(three, [sections[:lead], sections[lead : lead + 2], sections[lead + 2 :]])]
        found += [(two, [sections[:lead], sections[lead:]])]
    return [*found, ([box], [sections])]


def _pour(
    canvas: Canvas, sections: list[Section], box: Box, faces: tuple[Font, Font], language: str, whole: bool
) -> tuple[list[Section], int]:
    """The parts drawn into their columns; a part with no room in its column goes on to the next column or page,
    and so do those after it (the order kept). ``whole``: a part that does not fit whole has no room;
    else one that has room for its heading and a line is shortened ("+3 more"). Returns the parts left for the
    next page (at least one part is always drawn) and the foot of the lowest line drawn."""
    big, face = faces
    layouts = _layouts(canvas, box, sections)
    for boxes, groups in layouts:  # the first whose headings' words fit their columns; else one column, cut
        if all(
            _fits(heading, big, b[2] - b[0]) for b, group in zip(boxes, groups, strict=True) for heading, *_ in group
        ):
            break
    left: list[Section] = []  # carried on to the next column, then to the next page
    drawn = 0
    lowest = box[1]
    step = line_height(face) + canvas.px(2)
    for column, group in zip(boxes, groups, strict=True):
        y, room, moved = column[1], column[2] - column[0], False
        carried, left = left, []
        for section in carried + group:
            heading, lines, more = section
            if not lines:
                continue
            heading_height = len(wrapped(heading, big, room)) * line_height(big)
            need = heading_height + line_height(face)  # its heading and a line
            if (whole and more != "earlier") or more == "whole":  # the results show the newest, count the rest
                need = heading_height + step * sum(len(wrapped(line, face, room) or [line]) for line in lines)
            if moved or (drawn and y + need > column[3]) or not _fits(heading, big, room):
                left.append(section)
                moved = True
                continue
            y = _heading(canvas, heading, big, (column[0], y), room, "red")
            y = _lines(
                canvas,
                lines,
                face,
                (column[0], y, column[2], column[3]),
                more if more == "earlier" else "more",
                language,
            )
            lowest = max(lowest, y)
            y += canvas.px(10)
            drawn += 1
    return left, lowest


def _fits(text: str, face: Font, room: int) -> bool:
    """True when every word of a text fits ``room`` pixels, so that wrapped at its spaces nothing is cut."""
    return all(width(word, face) <= room for word in text.split())


def _heading(
    canvas: Canvas, text: str, face: Font, xy: tuple[int, int], room: int, ink: str, parts: list[str] | None = None
) -> int:
    """A heading in full, on as many lines as it needs (broken between ``parts`` first, then at its spaces);
    the bottom of its last line."""
    x, y = xy
    if width(text, face) <= room:
        lines = [text]
    else:
        lines = [line for part in parts or [text] for line in wrapped(part, face, room)]
    for line in lines:
        canvas.text((x, y), line, face, ink=ink, room=room)  # cut only a single word wider than the whole page
        y += line_height(face)
    return y


def _lines(canvas: Canvas, lines: list[str], face: Font, box: Box, more: str | None, language: str) -> int:
    """Lines of text down a box, each wrapped at its spaces (never cut); what does not fit is counted in a last
    line (the phrase ``more``, wrapped too); the bottom."""
    x0, y, x1, y1 = box
    step = line_height(face) + canvas.px(2)
    room = (y1 - y) // step
    parts = [wrapped(line, face, x1 - x0) or [line] for line in lines]
    reserve = len(wrapped(say(language, more or "more", n=len(lines)), face, x1 - x0))  # room kept for "+N more"
    shown = 0
    used = 0
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if used + len(part) + (0 if last else reserve) > room:
            break
        used += len(part)
        shown += 1
    for part in parts[:shown]:
        for line in part:
            canvas.text((x0, y), line, face, room=x1 - x0)  # cut only a single word wider than the column
            y += step
    if shown < len(lines):
        for line in wrapped(say(language, more or "more", n=len(lines) - shown), face, x1 - x0)[: max(1, room - used)]:
            canvas.text((x0, y), line, face, room=x1 - x0)
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


def moved(nick: str, arrow: str, n: int, size: int, data: WallData) -> str:
    """A climber's or faller's line: ``Ola  ↑2``, and the size where the week had games on more than one
    (``Ola  ↑1 · 9×9`` beside ``Ola  ↑2 · 13×13``, never the same line twice)."""
    sizes = {game.size for game in data.week}
    return f"{nick}  {arrow}{n}" + (f" · {size}×{size}" if len(sizes) > 1 else "")


def fallers(data: WallData) -> list[tuple[str, int, int]]:
    """Who went down this week on which size, in arrows, most first (only the games' own moves count)."""
    arrows: dict[tuple[str, int], int] = defaultdict(int)
    for game in data.week:
        for nick, move in game.moves.items():
            arrows[(nick, game.size)] += arrows_between(move.before, move.after)
    return sorted(
        ((nick, size, -n) for (nick, size), n in arrows.items() if n < 0), key=lambda item: (-item[2], item[0], item[1])
    )


def newcomers(data: WallData) -> list[str]:
    """Guests who played this week: the club's newest faces."""
    playing = {nick for game in data.week for nick in game.players}
    return sorted({m.nick for m in hanging(data.magnets) if m.guest and m.nick in playing})
