"""The month's awards in words, and the strip that shows them across the bottom of the wall's week page."""

from __future__ import annotations

from collections.abc import Callable

from display.canvas import Box, Canvas
from display.fonts import BOLD, REGULAR, line_height, width, wrapped
from display.profiles import NAME_CAP_MM
from display.words import format_date, say
from kiosk.awards import FIRST_EVEN, KINDS, Award, MonthAwards, month_name

# The strip never takes more of the week page than this: the week's own results come first.
STRIP_SHARE = 0.34
SEPARATOR = " · "


def award_lines(awards: MonthAwards, language: str) -> list[str]:
    """One entry per award (tied winners together), and one per first even game: ``Most games: Jan, Ola (4)``,
    ``First even game with a stronger player: Iza (with Piotr)``, ``Kuba (with Ewa)``."""
    found = []
    for kind in KINDS:
        won = awards.of(kind)
        if not won:
            continue
        if kind == FIRST_EVEN:  # the award's name once, then each player: packed along a line
            found.append(say(language, "award_line_even", nick=won[0].nick, other=won[0].opponent))
            found += [say(language, "award_line_even_more", nick=a.nick, other=a.opponent) for a in won[1:]]
        else:
            found.append(say(language, f"award_line_{kind}", nicks=", ".join(a.nick for a in won), n=won[0].count))
    return found


def award_reason(award: Award, language: str) -> str:
    """What earned the award, for a certificate: ``5 arrows up, net, in November 2026``."""
    month = month_name(award.month, language)
    if award.kind == FIRST_EVEN:
        day = format_date(award.at.date(), language) if award.at else month
        return say(language, "certificate_even", other=award.opponent, date=day)
    if award.kind == "improved" and award.count == 1:
        return say(language, "certificate_improved_one", month=month)
    return say(language, f"certificate_{award.kind}", n=award.count, month=month)


def packed(entries: list[str], measure: Callable[[str], float], room: int) -> list[str]:
    """Entries joined into lines of ``room`` pixels with a middle dot between them; an entry is broken only
    when it is wider than a line by itself."""
    lines: list[str] = []
    for entry in entries:
        if lines and measure(lines[-1] + SEPARATOR + entry) <= room:
            lines[-1] += SEPARATOR + entry
            continue
        line = ""
        for word in entry.split():
            if line and measure(f"{line} {word}") > room:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return lines


def strip_height(canvas: Canvas, awards: MonthAwards | None, language: str, room: int, body_height: int) -> int:
    """How tall the awards strip is on this page (0 when the month has none)."""
    lines = strip_lines(canvas, awards, language, room, _most_lines(canvas, body_height))
    if not lines:
        return 0
    step = line_height(canvas.face(REGULAR, NAME_CAP_MM)) + canvas.px(2)
    titles = len(_title_lines(canvas, awards, language, room))
    return titles * line_height(canvas.face(BOLD, 3.5)) + len(lines) * step + canvas.px(8)


def _title_lines(canvas: Canvas, awards: MonthAwards | None, language: str, room: int) -> list[str]:
    """The strip's heading, "Awards · November 2026", on two lines where one is too narrow (never cut)."""
    if awards is None:
        return []
    title, big = say(language, "awards_title", month=month_name(awards.month, language)), canvas.face(BOLD, 3.5)
    return [title] if width(title, big) <= room else wrapped(title, big, room)


def _most_lines(canvas: Canvas, body_height: int) -> int:
    """How many lines of awards the strip may take of the week page's body."""
    step = line_height(canvas.face(REGULAR, NAME_CAP_MM)) + canvas.px(2)
    return max(1, (round(body_height * STRIP_SHARE) - line_height(canvas.face(BOLD, 3.5)) - canvas.px(8)) // step)


def strip_lines(canvas: Canvas, awards: MonthAwards | None, language: str, room: int, most: int) -> list[str]:
    """The awards packed into at most ``most`` lines; those left out are counted in a last entry, "+N more"."""
    if awards is None or not awards.awards:
        return []
    face = canvas.face(REGULAR, NAME_CAP_MM)
    entries = award_lines(awards, language)
    for shown in range(len(entries), -1, -1):
        left = len(entries) - shown
        lines = packed(
            entries[:shown] + ([say(language, "more", n=left)] if left else []), lambda text: width(text, face), room
        )
        if len(lines) <= most:
            return lines
    return lines


def awards_strip(canvas: Canvas, awards: MonthAwards | None, language: str, box: Box, body_height: int) -> None:
    """The month's awards under a thin rule at the bottom of the week page (``box``, as ``strip_height`` says)."""
    x0, y0, x1, _ = box
    lines = strip_lines(canvas, awards, language, x1 - x0, _most_lines(canvas, body_height))
    if not lines or awards is None:
        return
    big, face = canvas.face(BOLD, 3.5), canvas.face(REGULAR, NAME_CAP_MM)
    canvas.hline(x0, x1, y0 + canvas.px(2), line=canvas.px(1))
    y = y0 + canvas.px(6)
    for title in _title_lines(canvas, awards, language, x1 - x0):
        canvas.text((x0, y), title, big, ink="red", room=x1 - x0)
        y += line_height(big)
    for line in lines:
        canvas.text((x0, y), line, face, room=x1 - x0)
        y += line_height(face) + canvas.px(2)
