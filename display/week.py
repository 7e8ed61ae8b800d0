"""The wall's week page (button C while the club is closed): the week's results with their arrows,
climbers and fallers, newcomers, milestones, and the month's awards across the bottom."""

from __future__ import annotations

from collections import defaultdict

from display.awards import awards_strip, strip_height
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


def week_page(canvas: Canvas, data: WallData, body: Box) -> None:
    """The week in large type: its results with the arrows each magnet moved, climbers and fallers, newcomers,
    milestones, and across the bottom the month's awards. Landscape: three columns (two on a narrow panel);
    portrait: one under the other. Headings wrap, never cut."""
    # Long: the week's parts placed in order in the columns they share (the flow's state is the y of each column).
    x0, y0, x1, y1 = body
    big = canvas.face(BOLD, 3.5)
    face = canvas.face(REGULAR, NAME_CAP_MM)
    title = [say(data.language, "week_title", start=format_date(data.week_start, data.language))]
    if data.week:
        title.append(say(data.language, "games_played", n=len(data.week)))
    top = _heading(canvas, " · ".join(title), big, (x0, y0), x1 - x0, "black", parts=title) + canvas.px(8)
    strip = strip_height(canvas, data.awards, data.language, x1 - x0, y1 - top)
    awards_strip(canvas, data.awards, data.language, (x0, y1 - strip, x1, y1), y1 - top)
    y1 -= strip
    if not data.week:
        canvas.text((x0, top), say(data.language, "quiet_week"), face, room=x1 - x0)
        return
    gap = canvas.px(16)
    sections = [
        (say(data.language, "results"), result_lines(data), "earlier"),
        (
            say(data.language, "climbers"),
            [moved(nick, "↑", n, size, data) for nick, size, n in climbers(data.week)],
            None,
        ),
        (say(data.language, "fallers"), [moved(nick, "↓", n, size, data) for nick, size, n in fallers(data)], None),
        (say(data.language, "newcomers"), newcomers(data), None),
        (say(data.language, "milestones"), milestones(data) or [say(data.language, "no_milestones")], None),
    ]
    layouts = [([(x0, top, x1, y1)], [sections])]  # portrait: one under the other
    if canvas.width >= canvas.height:
        # Three columns, the results the widest (two names and their arrows); on a panel too narrow for a heading's
        # word in its column (the 4" and 5.7", long Polish words), two; a heading is never cut, it wraps at spaces.
        room = x1 - x0 - 2 * gap
        edges = [x0, x0 + round(room * 0.44), x0 + round(room * 0.72) + gap, x1 + gap]
        three = [(x0, top, edges[1], y1)] + [(edges[i] + gap, top, edges[i + 1] - gap, y1) for i in (1, 2)]
        half = x0 + (x1 - x0 - gap) // 2
        two = [(x0, top, half, y1), (half + gap, top, x1, y1)]
        layouts = [(three, [sections[:1], sections[1:3], sections[3:]]), (two, [sections[:1], sections[1:]]), *layouts]
    for boxes, groups in layouts:  # the first whose headings' words fit their columns; else one column, cut
        columns = zip(boxes, groups, strict=True)
        if all(_fits(heading, big, box[2] - box[0]) for box, group in columns for heading, _, _ in group):
            break
    for box, group in zip(boxes, groups, strict=True):
        y = box[1]
        for heading, lines, more in group:
            words = wrapped(heading, big, box[2] - box[0])
            if not lines or y + len(words) * line_height(big) + line_height(face) > box[3]:
                continue
            y = _heading(canvas, heading, big, (box[0], y), box[2] - box[0], "red")
            y = _lines(canvas, lines, face, (box[0], y, box[2], box[3]), more, data.language)
            y += canvas.px(10)


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
