"""A child's printable progress card: A5 landscape at print resolution (a pure function).

The club's name and the season, the player's label as the wall shows it (initials for a minor by
default), the season's strength chart (where the magnet hung, step by step), the games and wins,
the milestones and the month's awards won, in English or Polish. Printed, so drawn in RGB with
smooth type, as the certificates are. Nothing on it needs an account or the internet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from PIL import Image, ImageDraw

from display.awards import award_reason
from display.certificate import CERTIFICATE_PAPERS, INK, PAPER_WHITE, RED, _fitting
from display.fonts import BOLD, NICK, REGULAR, drawable, font, runs, shorten, size_for_cap, wrapped
from display.paper import Paper, paper
from display.profiles import INK_RGB
from display.words import format_date, say
from kiosk.catalogue import N_, translate
from kiosk.progress import Milestone, Progress
from kiosk.scale import QUARTERS, decimal_mark, format_strength

GREEN = INK_RGB["green"]
GREY = (150, 150, 150)
MILESTONES = {
    "joined": N_("joined the board"),
    "member": N_("became a member"),
    "even": N_("first even game with {other}"),
    "best": N_("best field of the season: {field}"),
}
SHOWN = 6  # milestones and awards listed: the latest


def progress_card(card: Progress, club_name: str, language: str = "en", paper_name: str = "A5") -> Image.Image:
    """The card as an RGB picture of the paper (landscape) at its default print resolution."""
    sheet = _Sheet.of(paper(paper_name, None, landscape=True, choices=CERTIFICATE_PAPERS))
    px, w, h = sheet.px, sheet.width, sheet.height
    sheet.draw.rectangle((px(6), px(6), w - px(6), h - px(6)), outline=GREEN, width=px(1.2))
    _heading(sheet, card, club_name, language)
    chart(sheet.draw, card, (px(14), px(58), round(w * 0.56), h - px(22)), px, language)
    _milestones_and_awards(sheet, card, language)
    sheet.text((w - px(14), h - px(12)), "Semedori Board", REGULAR, 2.4, GREY, anchor="rs")
    return sheet.image


@dataclass
class _Sheet:
    """The card's paper being drawn: its picture, and millimetres of the A5 design in its pixels."""

    paper: Paper
    image: Image.Image
    draw: ImageDraw.ImageDraw
    scale: float  # A5 landscape is the design

    @classmethod
    def of(cls, sheet: Paper) -> _Sheet:
        image = Image.new("RGB", sheet.pixels, PAPER_WHITE)
        return cls(sheet, image, ImageDraw.Draw(image), sheet.width_mm / 210)

    @property
    def width(self) -> int:
        return self.paper.pixels[0]

    @property
    def height(self) -> int:
        return self.paper.pixels[1]

    def px(self, mm: float) -> int:
        """Millimetres of the design in pixels of this paper."""
        return self.paper.px(mm * self.scale)

    def text(
        self,
        xy: tuple[float, float],
        value: str,
        name: str,
        cap_mm: float,
        ink: tuple[int, int, int] = INK,
        room: float | None = None,
        anchor: str = "ls",
    ) -> None:
        """One line in the typeface ``name`` with capitals ``cap_mm`` tall, shortened to ``room``."""
        face = font(name, size_for_cap(name, self.px(cap_mm)))
        value = drawable(value, face)
        if room is not None:
            value = shorten(value, face, room)
        x = xy[0] - (face.getlength(value) if anchor.startswith("r") else 0)
        for part, run_face in runs(value, face):
            self.draw.text((x, xy[1]), part, font=run_face, fill=ink, anchor="ls")
            x += run_face.getlength(part)

    def paragraph(self, value: str, name: str, cap_mm: float, ink: tuple[int, int, int], left: int, top: int) -> int:
        """Lines of ``value`` wrapped to the column from ``left`` (at most three); the next line's baseline."""
        face = font(name, size_for_cap(name, self.px(cap_mm)))
        room = self.width - left - self.px(14)
        for part in wrapped(drawable(value, face), face, room)[:3]:
            self.text((left, top), part, name, cap_mm, ink, room=room)
            top += round(self.px(cap_mm) * 1.6)
        return top + self.px(1)


def _heading(sheet: _Sheet, card: Progress, club_name: str, language: str) -> None:
    """The club and the season, the player's label in large type, and the season's strength in one line."""
    px, w = sheet.px, sheet.width
    sheet.text((px(14), px(18)), club_name, BOLD, 4.5, room=w * 0.55)
    season = translate(language, "Progress card · season {season}", season=card.season)
    sheet.text((w - px(14), px(18)), season, BOLD, 4.5, RED, anchor="rs")
    label_face = _fitting(sheet.paper, NICK, card.label, 14 * sheet.scale, 6 * sheet.scale, round(w * 0.6))
    label_y = px(40)
    x: float = px(14)
    for part, run_face in runs(shorten(drawable(card.label, label_face), label_face, w * 0.6), label_face):
        sheet.draw.text((x, label_y), part, font=run_face, fill=INK, anchor="ls")
        x += run_face.getlength(part)
    first = card.steps[0][1] if card.steps else 0
    last = card.steps[-1][1] if card.steps else 0
    gained = last - first
    sign = "+" if gained > 0 else ("−" if gained < 0 else "±")
    line = translate(
        language,
        "{size}×{size}: strength {first} → {last} ({sign}{gained}) · {games} games, {wins} won",
        size=card.size,
        first=_n(first, language),
        last=_n(last, language),
        sign=sign,
        gained=_n(abs(gained), language),
        games=card.games,
        wins=card.wins,
    )
    sheet.text((px(14), px(50)), line, REGULAR, 3.4, room=w * 0.56)


def _milestones_and_awards(sheet: _Sheet, card: Progress, language: str) -> None:
    """The right column: the season's latest milestones, then its awards, each with a word when there is none."""
    px = sheet.px
    right = round(sheet.width * 0.60)
    y = px(34)
    sheet.text((right, y), translate(language, "Milestones"), BOLD, 3.8)
    y += px(7)
    shown = card.milestones[-SHOWN:]
    for milestone in shown:
        entry = f"{format_date(milestone.at.date(), language)}  {_milestone(milestone, language)}"
        y = sheet.paragraph(entry, REGULAR, 2.8, INK, right, y)
    if not shown:
        sheet.text((right, y), translate(language, "the season has just begun"), REGULAR, 2.8, GREY)
        y += px(5.5)
    y += px(5)
    sheet.text((right, y), translate(language, "Awards"), BOLD, 3.8)
    y += px(7)
    for award in card.awards[-SHOWN:]:
        y = sheet.paragraph(say(language, f"award_{award.kind}"), BOLD, 2.8, RED, right, y)
        y = sheet.paragraph(award_reason(award, language), REGULAR, 2.6, INK, right, y) + px(1.5)
    if not card.awards:
        sheet.text((right, y), translate(language, "none yet: every game counts"), REGULAR, 2.8, GREY)


def chart(
    draw: ImageDraw.ImageDraw, card: Progress, box: tuple[int, int, int, int], px: Callable[[float], int], language: str
) -> None:
    """The season's strength as steps (a magnet stays on its field until it moves), lowest and highest field
    on the left, the season's first and last day below."""
    x0, y0, x1, y1 = box
    left, bottom = x0 + px(12), y1 - px(7)
    draw.rectangle((left, y0, x1, bottom), outline=GREY, width=px(0.3))
    steps = list(card.steps)
    small = font(REGULAR, size_for_cap(REGULAR, px(2.6)))
    if not steps:
        return
    low = min(q for _, q in steps)
    high = max(q for _, q in steps)
    span = max(high - low, 4 * QUARTERS // 2)
    floor = low - (span - (high - low)) / 2
    start, end = card.start, max(card.now, steps[-1][0])
    seconds = max((end - start).total_seconds(), 1.0)

    def x(at: datetime) -> float:
        return left + ((at - start).total_seconds() / seconds) * (x1 - left)

    def y(q: float) -> float:
        return bottom - px(3) - (q - floor) / span * (bottom - y0 - px(6))

    points = [(x(steps[0][0]), y(steps[0][1]))]
    for at, q in steps[1:]:
        points.append((x(at), points[-1][1]))
        points.append((x(at), y(q)))
    points.append((x1, points[-1][1]))
    draw.line(points, fill=GREEN, width=px(0.9))
    draw.ellipse((x1 - px(1.6), points[-1][1] - px(1.6), x1 + px(1.6), points[-1][1] + px(1.6)), fill=GREEN)
    for q in {low, high}:
        draw.text((left - px(2), y(q)), _n(q, language), font=small, fill=INK, anchor="rm")
    draw.text((left, y1), format_date(start.date(), language), font=small, fill=INK, anchor="ls")
    draw.text((x1, y1), format_date(end.date(), language), font=small, fill=INK, anchor="rs")


def _milestone(milestone: Milestone, language: str) -> str:
    detail = decimal_mark(milestone.detail, language) if milestone.kind == "best" else milestone.detail
    return translate(language, MILESTONES[milestone.kind], other=detail, field=detail)


def _n(q: int, language: str) -> str:
    return decimal_mark(format_strength(q), language)
