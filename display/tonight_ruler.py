"""The wall's first page while the club is open: who is here tonight, on a ruler of their fields.

Only the fields tonight's players hang on are drawn, strongest first, each number in a black tick with its
players after it; under a field's number the strength folded away since the field before ("−3"), so the
ruler stays short but honest and a fold costs no height. Each player's name is at least ``NAME_MM`` tall
(read at 3–4 m), with the evening's moves so far as a large ↑/↓ before it and their suggested opponent and
handicap beside it, in the words of the tonight page (``display/tonight.py``: the same pairs as the phone's).

The chips flow along rows like a ruler read line by line, the rows one names' ink apart (not a line of type:
a tenth row on the 7.3"). Where a row ends is chosen for the fewest lines on the page, as a typesetter breaks
a paragraph; partners side by side share one join ("Ala = Ola", "Ala – Ola 2 moves + 3 prisoners"), kept at
both ends where a row's end parts them, and partners standing apart name each other ("vs Ola · …"). A
crowded evening draws its joins and the words beside names tighter before it takes a second page; an evening
too large for one page goes on over pages (nobody is hidden), a name too wide for a row wraps (never cut).
"""

from __future__ import annotations

import itertools
import logging
import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from display.canvas import Box, Canvas
from display.columns import wrap_name
from display.fonts import BOLD, NICK, REGULAR, Font, cap_height, line_height, pixels, width, wrapped
from display.profiles import SMALLEST_CAP_MM, Profile
from display.tonight import Tonight, compact_panel
from display.words import counted, say
from kiosk.errors import SemedoriError
from kiosk.handicap import Handicap
from kiosk.pairing import Pairing, side_of
from kiosk.scale import Quarters, arrows_between, format_strength
from kiosk.tonight import Evening

log = logging.getLogger(__name__)
NAME_MM = 5.0  # names' capitals: read across the room, at 3–4 m (the board's 3 mm is read at 2 m)
FIELD_MM = 3.0  # the field numbers of the ruler's ticks, as large as the board's
DETAIL_MM = 2.2  # the opponent and the handicap: read by the player who walked up to find their name
# Where the evening leaves room (the 13.3", a small evening), names are larger: up to this, in half millimetres.
LARGEST_NAME_MM = 9.0


@dataclass
class Chip:
    """One player on the ruler: the move mark, the stone, the name (its lines), what they play tonight."""

    nick: str
    strength: Quarters
    mark: str = ""  # "↑2", "↓1" or "" (no move tonight on this size)
    stone: str = ""  # "○ " White, "● " Black, "" an even game or no pair
    detail: str = ""  # beside the name: "vs Ola · 2 moves + 3 prisoners", "sits out this round"
    detail_kind: str = "pair"
    partner: str | None = None  # the suggested opponent's nickname
    words: str = ""  # the pair's handicap in words: said once beside both when they stand side by side
    lines: tuple[str, ...] = ()
    width: int = 0


@dataclass
class Faces:
    """The ruler's type: names 5 mm, the ticks' numbers 4 mm, the pairs' words 2.2 mm."""

    name: Font
    mark: Font
    field: Font
    detail: Font
    gap: Font
    legend: Font
    pitch: int = 0  # from one row of names to the next: the names' ink, tallest accent to deepest descender
    lift: int = 0  # the line's room above the tallest accent, which the next row's names may use
    tight: bool = False  # the joins and ticks closer to the names, for a crowded evening

    @classmethod
    def of(cls, canvas: Canvas, name_mm: float = NAME_MM) -> Faces:
        # The other type grows in two steps only, not with every size of the names: each size is a font face
        # of its own, about 0.7 MB of the display process's memory, which must stay under 80 MB on the 13.3".
        larger = name_mm >= 1.5 * NAME_MM
        small = SMALLEST_CAP_MM * (1.25 if larger else 1.0)
        name = canvas.face(NICK, name_mm)
        above, below = ink_reach(name)
        return cls(
            name=name,
            mark=name,
            field=canvas.face(NICK, FIELD_MM * (1.5 if larger else 1.0)),
            detail=canvas.face(NICK, DETAIL_MM * (1.36 if larger else 1.0)),
            gap=canvas.face(BOLD, small),
            legend=canvas.face(REGULAR, small),
            pitch=above + below,
            lift=name.getmetrics()[0] - above,
        )


# The letters that reach furthest from the line in the scripts a club writes: Polish, Czech and Cyrillic accents
# over capitals, descenders. The fallback fonts' CJK, hangul and emoji reach less far on both sides (a test keeps
# that true) and are left out of the probe: measuring them would open their faces at every size of names.
REACH = "ŻŚÓĄÉÅŘЁЙÇgjpqyąęţşДУЦЩ↑↓○●"


def ink_reach(face: Font) -> tuple[int, int]:
    """How far the names' ink reaches above and below the baseline: rows are this far apart, no further.

    A line of type is taller than any letter in it (ascent and descent leave room for marks no club name
    carries), so rows of 5 mm names one ink-height apart never touch and fit a row more on the 7.3".
    """
    return _reach(str(face.path), pixels(face))


@lru_cache(maxsize=32)  # by the font's file and size: a cached face would outlive the wall's closing of faces
def _reach(path: str, size: int) -> tuple[int, int]:
    face = ImageFont.truetype(path, size)
    ascent, descent = face.getmetrics()
    above = below = 0
    for letter in REACH:  # one at a time: Pillow places a text's mask by the text's own extent, a pixel either way
        picture = Image.new("1", (2 * size + 8, ascent + descent + 8), 0)
        ImageDraw.Draw(picture).text((4, 4 + ascent), letter, font=face, fill=1, anchor="ls")
        box = picture.getbbox()
        if box is not None:
            above, below = max(above, 4 + ascent - box[1]), max(below, box[3] - (4 + ascent))
    return min(ascent, above), min(descent, below)


Piece = tuple[str, Any, int]  # what ("tick", "chip", "dash", "space", "detail"), its value, its width


@dataclass
class Row:
    """A row of the ruler: its pieces from left to right, each at its x."""

    pieces: list[tuple[int, Piece]] = field(default_factory=list)
    lines: int = 1  # lines of names (a name too wide for a row wraps, and has the row to itself)
    height: int = 0  # its names' lines and the words under them, in pixels


def shown_on(profile: Profile, orientation: str = "landscape") -> bool:
    """True when the ruler is the first page of this panel while the club is open (else tonight's pairs)."""
    return not compact_panel(profile, orientation)


def handicap_words(handicap: Handicap, language: str) -> str:
    """The pair's handicap in the tonight page's words: "2 moves + 3 prisoners", "even"."""
    if handicap.even:
        return say(language, "even")
    text = f"{counted(language, 'moves_n', handicap.moves)} + {counted(language, 'prisoners_n', handicap.prisoners)}"
    return text + (" · " + say(language, "ruler_training") if handicap.training else "")


def moves_tonight(tonight: Tonight, size: int) -> dict[str, int]:
    """Each player's arrows tonight on a size, net: +2 is two arrows up since the evening began."""
    first: dict[str, Quarters] = {}
    last: dict[str, Quarters] = {}
    for game in tonight.played():
        if game.size != size:
            continue
        for nick, move in game.moves.items():
            first.setdefault(nick, move.before)
            last[nick] = move.after
    return {nick: arrows_between(first[nick], last[nick]) for nick in first if first[nick] != last[nick]}


def chips(data: Any, size: int) -> tuple[list[Chip], tuple[str, ...]]:
    """Everyone here tonight as a chip, strongest first, and the nicknames with no magnet any more."""
    tonight: Tonight = data.tonight
    language = data.language
    try:
        found: Evening | None = tonight.pairs(data.magnets, size)
    except SemedoriError as error:  # a list the core refuses: the ruler still shows who is here
        log.error("tonight's pairs on %dx%d cannot be made: %s", size, size, error)
        found = None
    moved = moves_tonight(tonight, size)
    result: list[Chip] = []

    def chip(nick: str, strength: Quarters, **what: Any) -> None:
        arrows = moved.get(nick, 0)
        # One arrow is the mark alone, more say how many: ↑, ↑2, ↓3.
        mark = ("↑" if arrows > 0 else "↓") + (str(abs(arrows)) if abs(arrows) > 1 else "") if arrows else ""
        result.append(Chip(nick, strength, mark, **what))

    if found is None:
        for nick in tonight.here:
            try:
                chip(nick, side_of(data.magnets, nick, size).strength)
            except SemedoriError:
                continue
        return sorted(result, key=lambda c: -c.strength), ()
    for pairing in found.suggestion.pairs:
        pair_chips(pairing, language, chip)
    if found.suggestion.bye is not None:
        bye = found.suggestion.bye
        chip(bye.nick, bye.strength, detail=say(language, "ruler_bye"), detail_kind="bye")
    for side in found.waiting:
        chip(side.nick, side.strength, detail=say(language, "ruler_waiting"), detail_kind="waiting")
    for nick in found.in_event:
        try:
            strength = side_of(data.magnets, nick, size).strength
        except SemedoriError:
            continue
        chip(nick, strength, detail=say(language, "ruler_in_event"), detail_kind="in_event")
    return side_by_side(result), found.off_board


def side_by_side(found: list[Chip]) -> list[Chip]:
    """Strongest first; on one field, whoever plays someone of the field above first and of the field below last.

    Partners on one field keep the order of the pairs (side by side). Of the pairs across two neighbouring
    fields, the players of the lower field come in the reverse order of their partners above, nested like
    brackets: the innermost pair stands side by side and shares one join and one line of handicap instead
    of a line "vs …" each.
    """
    strength = {item.nick: item.strength for item in found}

    def place(item: Chip) -> tuple[int, int]:
        other = strength.get(item.partner or "", item.strength)
        return (-item.strength, 0 if other > item.strength else 2 if other < item.strength else 1)

    ordered = sorted(found, key=place)
    where: dict[str, int] = {}
    result: list[Chip] = []
    for _, group in itertools.groupby(ordered, key=lambda item: item.strength):
        members = list(group)
        above = [item for item in members if place(item)[1] == 0]
        above.sort(key=lambda item: -where.get(item.partner or "", -1))  # the partner placed last comes first
        for item in [*above, *(item for item in members if place(item)[1] != 0)]:
            where[item.nick] = len(result)
            result.append(item)
    return result


def pair_chips(pairing: Pairing, language: str, chip: Any) -> None:
    """The two chips of a pair: each names the other and the pair's handicap; ○ and ● say who takes White."""
    white = pairing.white
    words = handicap_words(pairing.handicap, language)
    for side, other in ((pairing.sides[0], pairing.sides[1]), (pairing.sides[1], pairing.sides[0])):
        stone = "" if white is None else ("○ " if side is white else "● ")
        detail = f"{say(language, 'ruler_vs', nick=other.nick)} · {words}"
        chip(side.nick, side.strength, stone=stone, detail=detail, detail_kind="pair", partner=other.nick, words=words)


@dataclass
class Ruler:
    """The ruler laid out: its pages, each a list of rows."""

    faces: Faces
    pages: list[list[Row]]
    pitch: int  # from one row of names to the next
    rows: list[Row] = field(default_factory=list)  # all pages' rows
    off_board: tuple[str, ...] = ()


def two_lines(text: str, face: Font, one_line: float) -> tuple[str, ...]:
    """A short text beside a name: one line up to ``one_line`` pixels, else two lines as even as its words allow.

    The opponent on a line of their own ("vs Ola" over "2 moves + 3 prisoners") reads best: that break is
    taken unless another is clearly narrower.
    """
    if not text:
        return ()
    if width(text, face) <= one_line:
        return (text,)
    best: tuple[str, ...] = (text,)
    best_width = width(text, face)
    for cut, keep in ((" · ", ""), (" + ", " +")):  # never inside a name: at the dot, or after the plus
        at = text.find(cut)
        while at > 0:
            lines = (text[:at] + keep, text[at + len(cut) :])
            wide = max(width(line, face) for line in lines) * (0.85 if cut == " · " else 1.0)
            if wide < best_width:
                best, best_width = lines, wide
            at = text.find(cut, at + 1)
    return best


def lay_out(canvas: Canvas, data: Any, size: int, body: Box) -> Ruler:
    """The ruler with names as large as still lets it fit one page (never under ``NAME_MM``).

    Widths grow with the type, so the size is estimated from the fill at 5 mm and checked, a few sizes at most
    (every size is a font face of its own in the display process's memory).
    """
    found = ruler_at(canvas, data, size, body, NAME_MM)
    if len(found.pages) > 1:  # the joins and ticks closer to the names: a crowded evening on one page
        tight = ruler_at(canvas, data, size, body, NAME_MM, tight=True)
        return tight if len(tight.pages) < len(found.pages) else found
    if not found.rows:
        return found
    height = body[3] - body[1]
    used = sum(row_end(row) * row.height for row in found.rows)
    scale = (height * (body[2] - body[0]) / max(1, used)) ** 0.5
    # A guess on the safe side of the fill (rows break less evenly with larger type), in whole millimetres,
    # then smaller ones: a name that would wrap at the larger size keeps it down.
    guess = min(LARGEST_NAME_MM, math.floor(NAME_MM * scale * 0.85))
    for name_mm in range(int(guess), int(guess) - 3, -1):
        if name_mm <= NAME_MM:
            break
        larger = ruler_at(canvas, data, size, body, name_mm)
        if len(larger.pages) == 1 and name_lines(larger) == name_lines(found):  # larger, not broken more
            return larger
    return found


def name_lines(ruler: Ruler) -> int:
    """How many lines the names take (a name wraps only when it must)."""
    return sum(len(piece[1].lines) for row in ruler.rows for _, piece in row.pieces if piece[0] == "chip")


def ruler_at(canvas: Canvas, data: Any, size: int, body: Box, name_mm: float, tight: bool = False) -> Ruler:
    """The players poured along rows, strongest first, page after page; each field's tick leads its players.

    Two partners standing side by side on the ruler (the usual case: pairs are of near strengths) are joined by
    a dash with their handicap once beside them; a player whose partner stands elsewhere (or on another row)
    names them ("vs Ola · …"). A field going on in a new row has its tick again, framed.
    """
    faces = Faces.of(canvas, name_mm)
    if tight:  # a crowded evening: the words beside the names in the wall's smallest type (a face opened only then)
        small = canvas.face(NICK, SMALLEST_CAP_MM)  # condensed: narrower ticks and words
        faces = replace(faces, tight=True, detail=small, gap=small)
    found, off_board = chips(data, size)
    x0, y0, x1, y1 = body
    measures = Measures.of(canvas, faces, found, x1 - x0)
    for item in found:
        item.width = measures.chip_width(item)
    legend = say(data.language, "ruler_legend")
    foot = len(wrapped(legend, faces.legend, measures.room)) * line_height(faces.legend)
    off_text = say(data.language, "off_board", nicks=", ".join(off_board))
    off_h = len(wrapped(off_text, faces.legend, measures.room)) * line_height(faces.legend) if off_board else 0
    # Partners kept on one row where the page has room for that; parted at a row's end only to save a page.
    rows = pour(found, measures, whole=True)
    if sum(row.height for row in rows) + foot + off_h > y1 - y0:
        rows = pour(found, measures)
    pages: list[list[Row]] = [[]]
    for row in rows:
        page = [*pages[-1], row]
        used = sum(one.height for one in page)
        beside = legend_spot(page, faces, legend, measures.room)[0] is not None  # else on a line of its own
        if pages[-1] and used + (0 if beside else foot) + off_h > y1 - y0:
            pages.append([row])
        else:
            pages[-1] = page
    return Ruler(faces, pages, faces.pitch, rows, off_board)


@dataclass
class Measures:
    """The widths pouring needs, in this canvas's pixels at these faces: a chip, a tick, the words after a name."""

    canvas: Canvas
    faces: Faces
    room: int
    pad: int
    tick_w: int  # the widest tick: a wrapped name leaves room for it
    dash: int  # "=" or "–" between partners
    space: int  # between two players of one field who are not partners: narrower than a join
    name_h: int
    detail_h: int
    # The rows are tried many ways (see pour): each tick and each text beside a name is measured once.
    ticks: dict[tuple[Quarters, Quarters | None, bool], list[Piece]] = field(default_factory=dict)
    beside: dict[str, tuple[tuple[str, ...], int]] = field(default_factory=dict)

    @classmethod
    def of(cls, canvas: Canvas, faces: Faces, found: list[Chip], room: int) -> Measures:
        """The measures of a ruler of these players ``room`` pixels wide."""
        tick_w = max(
            (tick_width(canvas, faces, c.strength, "−" + format_strength(c.strength)) for c in found), default=0
        )
        # The join hugs its partners (a thin space either side), the space between two who are not partners is
        # wider than a name's own spaces ("Kot 🐈", "Weronika Ś."), so neither is read as the other.
        dash = round(width("–", faces.name) + 2 * (canvas.px(5) if faces.tight else width(" ", faces.name)))
        return cls(
            canvas,
            faces,
            room,
            canvas.px(5),
            tick_w,
            dash,
            round(width(" – ", faces.name) * 0.6),
            faces.pitch,
            line_height(faces.detail),
        )

    def chip_width(self, item: Chip) -> int:
        """A chip's width, its name wrapped (never cut) where it is wider than a row."""
        lead = lead_width(self.canvas, self.faces, item)
        item.lines = wrap_name(item.nick, self.faces.name, self.room - self.tick_w - round(lead) - 2 * self.pad)
        return min(
            self.room - self.tick_w, round(lead + max(width(line, self.faces.name) for line in item.lines)) + self.pad
        )

    def detail(self, text: str, kind: str, nicks: tuple[str, ...], beside: int) -> Piece:
        """The words after a name (or a pair), in two lines at most; under the name where a row has no room."""
        face = self.faces.detail
        if text not in self.beside:
            lines = two_lines(text, face, 2.5 * self.name_h)
            self.beside[text] = (lines, round(max((width(line, face) for line in lines), default=0)) + 2 * self.pad)
        lines, wide = self.beside[text]
        if lines and wide > self.room - beside:  # under the name: in one line, else each part on lines of its own
            under = self.room - self.tick_w - self.dash - 2 * self.pad  # from the row's first name on
            if width(text, face) <= under:
                return ("detail", ((text,), kind, nicks, True, text), 0)
            parts = [line for part in text.split(" · ") for line in wrapped(part, face, under)]
            return ("detail", (tuple(parts), kind, nicks, True, text), 0)
        return ("detail", (lines, kind, nicks, False, text), wide if lines else 0)

    def tick(self, item: Chip, previous: Quarters | None, first: bool) -> list[Piece]:
        """The tick before a player who begins a field (under its number the strength folded away before it,
        "−3"), or who begins a row on a field going on (framed); else none."""
        key = (item.strength, previous, first)
        if key not in self.ticks:
            self.ticks[key] = self._tick(item.strength, previous, first)
        return self.ticks[key]

    def _tick(self, strength: Quarters, previous: Quarters | None, first: bool) -> list[Piece]:
        if strength == previous:
            again = ("tick", (strength, True, ""), tick_width(self.canvas, self.faces, strength))
            return [again] if first else []
        gap = ""
        if previous is not None and arrows_between(strength, previous) > 1:  # fields folded away
            gap = "−" + format_strength(previous - strength)
        return [("tick", (strength, False, gap), tick_width(self.canvas, self.faces, strength, gap))]


def row_end(row: Row) -> int:
    """Where a row's last piece ends."""
    return max((x + piece[2] for x, piece in row.pieces), default=0)


def tick_width(canvas: Canvas, faces: Faces, strength: Quarters, gap: str = "") -> int:
    """A field's tick: its number (and the strength folded away before it) in a box, a little room either side."""
    return round(max(width(format_strength(strength), faces.field), width(gap, faces.gap))) + 4 * tick_pad(
        canvas, faces
    )


def tick_pad(canvas: Canvas, faces: Faces) -> int:
    """The room either side of a tick's box, and inside it either side of its number."""
    return canvas.px(2 if faces.tight else 3)


def joined(item: Chip, partner: Chip | None) -> bool:
    """Two partners standing side by side, each on one line: one join and one line of handicap for both."""
    return (
        partner is not None
        and item.partner == partner.nick
        and partner.partner == item.nick
        and len(item.lines) == len(partner.lines) == 1
    )


def one_row(found: list[Chip], start: int, end: int, measures: Measures) -> Row | None:
    """The players ``start`` to ``end`` on one row (None where they do not fit it).

    Partners side by side are joined by "=" (an even game) or "–" (a handicap, written after the second). A
    pair the row's end parts keeps its join at both ends, as a word broken at a hyphen: "Ala –" ends the row,
    "– Ola" begins the next. A name wrapped onto more lines, or words that must go under a name, have the row
    to themselves.
    """
    # Long: the three ways a player stands on a row (going on from a pair the row before began, joined with
    # the partner beside them, or alone with their words) share the row's x and its field so far.
    row = Row()
    x = 0
    previous = found[start - 1].strength if start else None
    index = start
    alone = False
    while index < end:
        item = found[index]
        ticks = measures.tick(item, previous, index == start)
        goes_on = index == start and start > 0 and parted(found[start - 1], item, measures)  # began a row above
        pieces: list[Piece] = []
        if goes_on:
            pieces.append(("dash", (join_mark(item), (found[start - 1].nick, item.nick)), measures.dash))
        elif not ticks and index > start:
            pieces.append(("space", None, measures.space))
        pieces += [*ticks, ("chip", item, item.width)]
        partner = found[index + 1] if index + 1 < len(found) else None
        if goes_on:
            if item.stone:  # the pair's handicap, beside its second partner
                beside = x + sum(piece[2] for piece in pieces)
                pieces.append(measures.detail(item.words, "pair", (found[start - 1].nick, item.nick), beside))
            index += 1
        elif joined(item, partner) and partner is not None and index + 1 < end:
            pieces += [("dash", (join_mark(item), (item.nick, partner.nick)), measures.dash)]
            pieces += [*measures.tick(partner, item.strength, False), ("chip", partner, partner.width)]
            if item.stone:  # a handicap: beside the second partner, or under the pair where the row has no room
                beside = x + sum(piece[2] for piece in pieces)
                pieces.append(measures.detail(item.words, "pair", (item.nick, partner.nick), beside))
            index += 2
        elif partner is not None and parted(item, partner, measures):  # the partner begins the next row
            pieces.append(("dash", (join_mark(item), (item.nick, partner.nick)), measures.dash))
            index += 1
        else:
            beside = x + sum(piece[2] for piece in pieces)
            pieces.append(measures.detail(item.detail, item.detail_kind, (item.nick,), beside))
            index += 1
        previous = pieces_strength(pieces, previous)
        under = [piece[1][0] for piece in pieces if piece[0] == "detail" and piece[1][3]]
        lines = max(len(piece[1].lines) for piece in pieces if piece[0] == "chip")
        if lines > 1 or under:
            alone = True
            # The words under the name: the row grows by as many lines of names as they take.
            row.lines = lines
        for piece in pieces:
            row.pieces.append((x, piece))
            x += piece[2]
    under = [len(piece[1][0]) for _, piece in row.pieces if piece[0] == "detail" and piece[1][3]]
    row.height = row.lines * measures.name_h + (sum(under) * measures.detail_h + measures.pad if under else 0)
    if end - start == 1:  # one player always makes a row: a name wider than the row is wrapped
        return row
    if x > measures.room or (alone and (end - start > 2 or not joined(found[start], found[start + 1]))):
        return None
    return row


def parted(item: Chip, partner: Chip, measures: Measures) -> bool:
    """Whether two partners side by side may be parted by a row's end with their join at both ends (each half
    fits a row); else, parted, each names the other."""
    if not joined(item, partner):
        return False
    words = measures.detail(partner.words, "pair", (), 0)[2] if partner.stone else 0
    first = measures.tick_w + item.width + measures.dash
    return max(first, measures.dash + measures.tick_w + partner.width + words) <= measures.room


def join_mark(item: Chip) -> str:
    """The join between two partners: "=" for an even game (the legend says what it means), "–" a handicap."""
    return "–" if item.stone else "="


def pieces_strength(pieces: list[Piece], previous: Quarters | None) -> Quarters | None:
    """The field of the last player among some pieces."""
    chips_here = [piece[1] for piece in pieces if piece[0] == "chip"]
    return chips_here[-1].strength if chips_here else previous


def pour(found: list[Chip], measures: Measures, whole: bool = False) -> list[Row]:
    """The chips along rows in their order, the rows chosen for the fewest lines on the page.

    A row ends where the next player no longer fits; which one is chosen looking ahead, as a typesetter
    breaks a paragraph: ending a row a player early may join two partners on the next (one line of handicap
    instead of two), where a row filled to its end would part them. ``whole``: the fewest partners parted by a
    row's end first, then the fewest lines (for a page with room to spare).
    """
    count = len(found)
    best: list[tuple[int, int, int]] = [(0, 0, count)] * (count + 1)  # lines, partners parted, where the row ends
    rows: dict[tuple[int, int], Row] = {}
    for start in range(count - 1, -1, -1):
        choice: tuple[int, int, int] | None = None
        least = 0
        for end in range(start + 1, count + 1):
            least += found[end - 1].width
            if least > measures.room and end > start + 1:
                break
            row = one_row(found, start, end, measures)
            if row is None:
                continue
            rows[start, end] = row
            parted = int(end < count and joined(found[end - 1], found[end]))
            cost = (row.height + best[end][0], parted + best[end][1], end)
            rank = (cost[1], cost[0]) if whole else cost[:2]  # whole: the fewest pairs parted, then lines
            if choice is None or rank < ((choice[1], choice[0]) if whole else choice[:2]):
                choice = cost
        best[start] = choice if choice is not None else (1, 0, start + 1)
    result: list[Row] = []
    start = 0
    while start < count:
        end = best[start][2]
        result.append(rows[start, end])
        start = end
    return result


def legend_spot(rows: list[Row], faces: Faces, legend: str, room: int) -> tuple[int | None, tuple[str, ...]]:
    """Where the legend goes on a page: after the lowest row with room for it (in one line or two), else at
    the foot (None)."""
    pad = round(width(" ", faces.legend))
    one = (legend,)
    two = two_lines(legend, faces.legend, 0)
    for index in range(len(rows) - 1, -1, -1):
        if any(piece[0] == "detail" and piece[1][3] for _, piece in rows[index].pieces):
            continue  # the words under a name reach further than the row's names
        free = room - row_end(rows[index]) - 2 * pad
        for lines in (one, two):
            tall = len(lines) * line_height(faces.legend) <= rows[index].height
            if tall and max(width(line, faces.legend) for line in lines) <= free:
                return index, lines
    return None, ()


def ruler_page(canvas: Canvas, data: Any, size: int, body: Box, part: int = 0) -> tuple[int, list[dict[str, object]]]:
    """Draw one page of tonight's ruler; returns how many pages it takes and what is drawn (the layout report)."""
    # Long: the page's rows, then its legend (after a row or at the foot) and the nicknames off the board share
    # one report of what is drawn and the height the rows left.
    ruler = lay_out(canvas, data, size, body)
    part = min(max(part, 0), len(ruler.pages) - 1)
    faces = ruler.faces
    x0, y, x1, y1 = body
    labels: list[dict[str, object]] = []

    def report(kind: str, text: str, face: Font, nicks: tuple[str, ...] = (), words: str = "") -> None:
        box = list(canvas.texts[-1][0])
        if face is faces.name:  # a name's row is its ink, tallest accent to deepest descender (see ink_reach)
            box[1], box[3] = box[1] + faces.lift, box[1] + faces.lift + faces.pitch
        label: dict[str, object] = {"kind": kind, "nicks": list(nicks), "text": text, "size": size, "box": box}
        label["cap_height_px"] = cap_height(face)
        if words:  # the whole of the words beside a name, as read: its lines one after the other
            label["words"] = words
        labels.append(label)

    rows = ruler.pages[part]
    tops = []
    for row in rows:
        tops.append(y)
        draw_row(canvas, data, row, faces, (x0, y), report)
        y += row.height
    legend = say(data.language, "ruler_legend")
    spot, lines = legend_spot(rows, faces, legend, x1 - x0)
    off_text = say(data.language, "off_board", nicks=", ".join(ruler.off_board))
    foot = len(wrapped(legend, faces.legend, x1 - x0)) + (
        len(wrapped(off_text, faces.legend, x1 - x0)) if ruler.off_board else 0
    )
    if y + foot * line_height(faces.legend) <= y1:  # room at the foot, where a legend is looked for
        spot = None
    if spot is not None:  # at the end of a row with room for it: the lowest
        top = tops[spot] + (rows[spot].height - len(lines) * line_height(faces.legend)) / 2
        for number, line in enumerate(lines):
            canvas.text((x1, top + number * line_height(faces.legend)), line, faces.legend, anchor="ra")
            report("legend", line, faces.legend)
    else:  # on lines of its own at the foot, wrapped, never cut
        lines = tuple(wrapped(legend, faces.legend, x1 - x0))
        y1 = foot_lines(canvas, lines, faces.legend, (x0, y1), report, "legend", ())
    if ruler.off_board and part == len(ruler.pages) - 1:  # checked in, then renamed or merged away: said
        text = say(data.language, "off_board", nicks=", ".join(ruler.off_board))
        foot_lines(
            canvas,
            tuple(wrapped(text, faces.legend, x1 - x0)),
            faces.legend,
            (x0, y1),
            report,
            "off_board",
            ruler.off_board,
        )
    return len(ruler.pages), labels


def foot_lines(
    canvas: Canvas,
    lines: tuple[str, ...],
    face: Font,
    at: tuple[int, int],
    report: Any,
    kind: str,
    nicks: tuple[str, ...],
) -> int:
    """Lines at the foot of the page, the last on its bottom; returns where the lines above them must end."""
    x0, y1 = at
    for number, line in enumerate(reversed(lines)):
        canvas.text((x0, y1 - number * line_height(face)), line, face, anchor="ld")
        report(kind, line, face, nicks if number == len(lines) - 1 else ())
    return y1 - len(lines) * line_height(face)


def draw_row(canvas: Canvas, data: Any, row: Row, faces: Faces, at: tuple[int, int], report: Any) -> None:
    """One row of the ruler, left to right: ticks, players, joins and the words beside (or under) them."""
    x0, y = at
    up_ink = "green" if "green" in canvas.profile.inks else "black"
    detail_h = line_height(faces.detail)
    first = min((x for x, piece in row.pieces if piece[0] == "chip"), default=0)
    for x, (kind, value, wide) in row.pieces:
        left = x0 + x
        if kind == "chip":
            draw_chip(canvas, value, faces, (left, y), up_ink, report)
        elif kind == "tick":
            draw_tick(canvas, value, faces, (left, y, left + wide), report)
        elif kind == "dash":  # "=" joins an even pair, "–" a pair whose handicap is written beside it
            # Centred between the names: the name before it ends in its chip's pad.
            canvas.text((left + (wide - canvas.px(5)) / 2, y - faces.lift), value[0], faces.name, anchor="ma")
            report("join", value[0], faces.name, value[1])
        elif kind == "detail":
            lines, detail_kind, nicks, under, text = value
            top = y + (faces.pitch - len(lines) * detail_h) / 2
            pad = canvas.px(5)
            if under:  # below the names' line, from where the row's first name begins
                left, top = (
                    x0 + first - pad,
                    y + faces.pitch * max(len(p[1].lines) for _, p in row.pieces if p[0] == "chip"),
                )
            ink = "red" if say(data.language, "ruler_training") in " ".join(lines) else "black"
            for number, line in enumerate(lines):
                canvas.text((left + pad, top + number * detail_h), line, faces.detail, ink=ink)
                report(detail_kind, line, faces.detail, nicks if number == 0 else (), text)


def draw_tick(
    canvas: Canvas, value: tuple[Quarters, bool, str], faces: Faces, span: tuple[int, int, int], report: Any
) -> None:
    """A field's tick: its number in a black box (framed where the field goes on from the row before), under
    it the strength folded away since the field before ("−3")."""
    strength, again, gap = value
    left, y, right = span
    text = format_strength(strength)
    pad = tick_pad(canvas, faces)
    box = (left + pad, y + canvas.px(1), right - pad, y + faces.pitch - canvas.px(1))
    canvas.box(box, fill=None if again else "black", outline="black", line=canvas.px(2))
    ink = "black" if again else "white"
    centre = (box[0] + box[2]) / 2
    if not gap:
        canvas.text((centre, (box[1] + box[3]) / 2), text, faces.field, ink=ink, anchor="mm")
        report("field", text, faces.field)
        return
    # The number above, the strength folded away below it: digits, stacked by their ink.
    room = box[3] - box[1] - cap_height(faces.field) - cap_height(faces.gap)
    baseline = box[1] + room / 3 + cap_height(faces.field)
    for shown, face, at in ((text, faces.field, baseline), (gap, faces.gap, box[3] - room / 3)):
        canvas.text((centre, at), shown, face, ink=ink, anchor="ms")
        ink_box = canvas.draw.textbbox((centre, at), shown, font=face, anchor="ms")
        canvas.texts[-1] = (tuple(round(v) for v in ink_box), face)  # type: ignore[assignment]  # digits' ink
        report("field" if shown is text else "gap", shown, face)


def draw_chip(canvas: Canvas, item: Chip, faces: Faces, at: tuple[int, int], up_ink: str, report: Any) -> None:
    """A player: the move mark (green or black up, red down), the stone, the name's lines."""
    x, y = at
    y -= faces.lift  # the row begins at the tallest accent's top, not at the line's
    lead = 0.0
    if item.mark:
        ink = up_ink if item.mark.startswith("↑") else "red"
        lead = canvas.text((x, y), item.mark, faces.mark, ink=ink)
        report("mark", item.mark, faces.mark, (item.nick,))
        lead += lead_space(canvas, faces)
    if item.stone:
        lead += canvas.text((x + lead, y), item.stone.strip(), faces.name)
        report("stone", item.stone.strip(), faces.name, (item.nick,))
        lead += lead_space(canvas, faces)
    for index, line in enumerate(item.lines):
        canvas.text((x + lead, y + index * faces.pitch), line, faces.name)
        report("name", line, faces.name, (item.nick,) if index == 0 else ())


def lead_space(canvas: Canvas, faces: Faces) -> float:
    """The space after a move mark or a stone: a name's space, or a thin one where an evening is crowded."""
    return canvas.px(3) if faces.tight else width(" ", faces.name)


def lead_width(canvas: Canvas, faces: Faces, item: Chip) -> float:
    """How far a player's name begins after their move mark and their stone."""
    mark = width(item.mark, faces.mark) + lead_space(canvas, faces) if item.mark else 0
    return mark + (width(item.stone.strip(), faces.name) + lead_space(canvas, faces) if item.stone else 0)


def page_count(data: Any, size: int, profile: Profile, orientation: str, body: Box) -> int:
    """How many pages tonight's ruler takes on a panel."""
    canvas = Canvas(profile, profile.canvas(orientation))
    return len(lay_out(canvas, data, size, body).pages)
