"""A printable certificate for one of the month's awards: A5 or A4 at print resolution (a pure function).

The club's name, the award, the player's nickname (CJK and emoji through the wall's fallback
fonts), what earned it and the month, in English or Polish. Printed, so drawn in RGB with
smooth type, unlike the panel's few inks.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from display.awards import award_reason
from display.fonts import BOLD, NICK, REGULAR, Font, drawable, font, runs, shorten, size_for_cap, width
from display.paper import Paper, paper
from display.profiles import INK_RGB
from display.words import say
from kiosk.awards import Award, month_name

CERTIFICATE_PAPERS = ("A5", "A4")
INK = INK_RGB["black"]
RED = INK_RGB["red"]
PAPER_WHITE = INK_RGB["white"]
# Cap heights in millimetres on A5; A4 scales them by its larger width.
CLUB_MM, AWARD_MM, FOR_MM, NICK_MM, REASON_MM, FOOT_MM = 5.0, 9.0, 3.5, 16.0, 4.5, 3.0
SMALLEST_NICK_MM = 5.0


def certificate(
    award: Award, club_name: str, language: str = "en", paper_name: str = "A5", dpi: int | None = None
) -> Image.Image:
    """The certificate of ``award`` as an RGB picture of the paper (landscape) at ``dpi``."""
    return sheet_of(
        club_name,
        say(language, f"award_{award.kind}"),
        say(language, "certificate_for"),
        award.nick,
        award_reason(award, language),
        f"{month_name(award.month, language)} · Semedori Board",
        paper_name,
        dpi,
    )


def event_certificate(
    title: str, nick: str, event_name: str, evening: str, club_name: str, language: str = "en", paper_name: str = "A5"
) -> Image.Image:
    """An event prize's certificate: the same sheet as the month's awards, the event's words."""
    return sheet_of(
        club_name, title, say(language, "certificate_for"), nick, event_name, f"{evening} · Semedori Board", paper_name
    )


def sheet_of(
    club_name: str,
    title: str,
    for_words: str,
    nick: str,
    reason: str,
    foot: str,
    paper_name: str = "A5",
    dpi: int | None = None,
) -> Image.Image:
    """A certificate's sheet: the club, the title (red), "awarded to", the nickname, the reason and the foot."""
    sheet = paper(paper_name, dpi, landscape=True, choices=CERTIFICATE_PAPERS)
    image = Image.new("RGB", sheet.pixels, PAPER_WHITE)
    draw = ImageDraw.Draw(image)
    scale = sheet.width_mm / 210  # A5 landscape is the design
    _frame(draw, sheet, scale)
    w = sheet.pixels[0]
    room = w - 2 * sheet.px(28 * scale)

    def line(
        y_mm: float, text: str, name: str, cap_mm: float, ink: tuple[int, int, int] = INK, least_mm: float | None = None
    ) -> None:
        face = _fitting(sheet, name, text, cap_mm * scale, (least_mm or cap_mm * 0.5) * scale, room)
        _centred(draw, (w / 2, sheet.px(y_mm * scale)), text, face, ink, room)

    # Baselines in millimetres from the top of an A5 sheet (148 mm tall).
    line(26, club_name, BOLD, CLUB_MM)
    line(50, title, BOLD, AWARD_MM, RED)
    line(66, for_words, REGULAR, FOR_MM)
    line(92, nick, NICK, NICK_MM, least_mm=SMALLEST_NICK_MM)
    line(110, reason, REGULAR, REASON_MM)
    line(128, foot, REGULAR, FOOT_MM)
    return image


def _frame(draw: ImageDraw.ImageDraw, sheet: Paper, scale: float) -> None:
    """A red frame and a thin black one inside it, and a black and a white stone in two corners."""
    w, h = sheet.pixels
    outer, inner = sheet.px(7 * scale), sheet.px(10 * scale)
    draw.rectangle((outer, outer, w - outer, h - outer), outline=RED, width=sheet.px(1.6 * scale))
    draw.rectangle((inner, inner, w - inner, h - inner), outline=INK, width=sheet.px(0.35 * scale))
    radius = sheet.px(5 * scale)
    for cx, fill in ((inner + sheet.px(12 * scale), INK), (w - inner - sheet.px(12 * scale), PAPER_WHITE)):
        cy = inner + sheet.px(12 * scale)
        draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius), fill=fill, outline=INK, width=sheet.px(0.5 * scale)
        )


def _fitting(sheet: Paper, name: str, text: str, cap_mm: float, least_mm: float, room: int) -> Font:
    """The largest face up to ``cap_mm`` capitals in which the text fits ``room`` (not under ``least_mm``)."""
    cap = sheet.px(cap_mm)
    face = font(name, size_for_cap(name, cap))
    while width(drawable(text, face), face) > room and cap > sheet.px(least_mm):
        cap = max(sheet.px(least_mm), round(cap * 0.9))
        face = font(name, size_for_cap(name, cap))
    return face


def _centred(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, face: Font, ink: tuple[int, int, int], room: int
) -> None:
    """Text centred on ``xy`` (its baseline at y), run by run in the fonts that have its characters."""
    text = shorten(drawable(text, face), face, room)  # a club's name too long even at half size: cut, not spilt
    x = xy[0] - width(text, face) / 2
    for part, run_face in runs(text, face):
        draw.text((x, xy[1]), part, font=run_face, fill=ink, anchor="ls")
        x += run_face.getlength(part)
