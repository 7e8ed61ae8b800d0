"""The wall's first page while the club is open: who is here tonight, on a ruler of their fields.

Only the fields tonight's players hang on are drawn, strongest first, each number in a black tick with its
players after it; between two fields the strength between them ("−3"), so the ruler stays short but honest.
Each player's name is at least ``NAME_MM`` tall (read at 3–4 m), with the evening's moves so far as a large
↑/↓ before it and their suggested opponent and handicap below it, in the words of the tonight page
(``display/tonight.py``: the same pairs as the phone's). The chips flow along the rows like a ruler read line
by line; an evening too large for one page goes on over pages (nobody is hidden), a name too wide for a row
wraps (never cut).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from typing import Any

from display.canvas import Box, Canvas
from display.columns import wrap_name
from display.fonts import BOLD, NICK, REGULAR, Font, cap_height, line_height, width, wrapped
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

    @classmethod
    def of(cls, canvas: Canvas, name_mm: float = NAME_MM) -> Faces:
        # The other type grows in two steps only, not with every size of the names: each size is a font face
        # of its own, about 0.7 MB of the display process's memory, which must stay under 80 MB on the 13.3".
        larger = name_mm >= 1.5 * NAME_MM
        small = SMALLEST_CAP_MM * (1.25 if larger else 1.0)
        return cls(
            name=canvas.face(NICK, name_mm),
            mark=canvas.face(NICK, name_mm),
            field=canvas.face(BOLD, FIELD_MM * (1.5 if larger else 1.0)),
            detail=canvas.face(REGULAR, DETAIL_MM * (1.36 if larger else 1.0)),
            gap=canvas.face(BOLD, small),
            legend=canvas.face(REGULAR, small),
        )


Piece = tuple[str, Any, int]  # what ("tick", "chip", "dash", "space", "detail"), its value, its width


@dataclass
class Row:
    """A row of the ruler: its pieces from left to right, each at its x."""

    pieces: list[tuple[int, Piece]] = field(default_factory=list)
    lines: int = 1  # lines of names (a name too wide for a row wraps, and has the row to itself)


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
    # Strongest first; on one field in the order of the pairs, so partners on one field stand side by side.
    return sorted(result, key=lambda c: -c.strength), found.off_board


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
    """A short text beside a name: one line up to ``one_line`` pixels, else two lines as even as its words allow."""
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
            wide = max(width(line, face) for line in lines)
            if wide < best_width:
                best, best_width = lines, wide
            at = text.find(cut, at + 1)
    return best


class Flow:
    """Pieces poured along rows: a piece that does not fit begins a new row."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.rows: list[Row] = []
        self.x = room

    def free(self) -> int:
        return self.room - self.x

    def new_row(self, lines: int = 1) -> None:
        self.rows.append(Row(lines=lines))
        self.x = 0

    def put(self, piece: Piece) -> None:
        self.rows[-1].pieces.append((self.x, piece))
        self.x += piece[2]


def lay_out(canvas: Canvas, data: Any, size: int, body: Box) -> Ruler:
    """The ruler with names as large as still lets it fit one page (never under ``NAME_MM``).

    Widths grow with the type, so the size is estimated from the fill at 5 mm and checked, a few sizes at most
    (every size is a font face of its own in the display process's memory).
    """
    found = ruler_at(canvas, data, size, body, NAME_MM)
    if len(found.pages) > 1 or not found.rows:
        return found
    height = body[3] - body[1]
    used = sum(row_end(row) * found.pitch * row.lines for row in found.rows)
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


def ruler_at(canvas: Canvas, data: Any, size: int, body: Box, name_mm: float) -> Ruler:
    """The players poured along rows, strongest first, page after page; each field's tick leads its players.

    Two partners standing side by side on the ruler (the usual case: pairs are of near strengths) are joined by
    a dash with their handicap once beside them; a player whose partner stands elsewhere (or on the next row)
    names them ("vs Ola · …"). A field going on in a new row has its tick again, framed.
    """
    # Long: the three measures pour needs (a chip's width, the words after a name, a field's tick) are closures over
    # this canvas and its faces; then the rows are cut into pages.
    faces = Faces.of(canvas, name_mm)
    found, off_board = chips(data, size)
    x0, y0, x1, y1 = body
    room = x1 - x0
    pad = canvas.px(5)
    tick_w = max((tick_width(canvas, faces, c.strength, "−" + format_strength(c.strength)) for c in found), default=0)
    name_h, detail_h = line_height(faces.name), line_height(faces.detail)
    dash_w = round(width(" – ", faces.name))

    def chip_width(item: Chip) -> int:
        lead = (width(item.mark + " ", faces.mark) if item.mark else 0) + width(item.stone, faces.name)
        item.lines = wrap_name(item.nick, faces.name, room - tick_w - round(lead) - 2 * pad)
        return min(room - tick_w, round(lead + max(width(line, faces.name) for line in item.lines)) + pad)

    def detail_piece(text: str, kind: str, nicks: tuple[str, ...], beside: int = 0) -> Piece:
        """The words after a name (or a pair), in two lines at most; under the name where a row has no room."""
        lines = two_lines(text, faces.detail, 2.5 * name_h)
        wide = round(max((width(line, faces.detail) for line in lines), default=0)) + 2 * pad
        if beside and wide > room - tick_w - beside:  # each part of the words on lines of its own
            parts = [line for part in text.split(" · ") for line in wrapped(part, faces.detail, room - tick_w - pad)]
            return ("detail", (tuple(parts), kind, nicks, True), 0)
        return ("detail", (lines, kind, nicks, False), wide if lines else 0)

    def lead_in(item: Chip, previous: Quarters | None) -> list[Piece]:
        """The tick, when the player begins a new field: its number, and under it the strength from the field
        before where fields with nobody here are folded away ("−3")."""
        if item.strength == previous:
            return []
        gap = ""
        if previous is not None and arrows_between(item.strength, previous) > 1:  # fields folded away
            gap = "−" + format_strength(previous - item.strength)
        return [("tick", (item.strength, False, gap), tick_width(canvas, faces, item.strength, gap))]

    for item in found:
        item.width = chip_width(item)
    flow = pour(found, room, lead_in, detail_piece, dash_w, lambda q: tick_width(canvas, faces, q), (name_h, detail_h))
    pitch = max(name_h, 2 * detail_h) + canvas.px(2)
    legend_w = round(width(say(data.language, "ruler_legend"), faces.legend)) + 2 * pad
    legend_h = len(wrapped(say(data.language, "ruler_legend"), faces.legend, room)) * line_height(faces.legend)
    off_text = say(data.language, "off_board", nicks=", ".join(off_board))
    off_h = len(wrapped(off_text, faces.legend, room)) * line_height(faces.legend) if off_board else 0
    pages: list[list[Row]] = [[]]
    used = 0
    for row in flow.rows:
        height = pitch + (row.lines - 1) * name_h
        # The last row of a page needs only its names' height, not the space to the next; the legend sits at
        # its end where there is room, else on a line of its own.
        last = used + height - (pitch - name_h)
        legend = 0 if legend_w <= room - row_end(row) else legend_h
        if pages[-1] and last + legend + off_h > y1 - y0:
            pages.append([])
            used = 0
        pages[-1].append(row)
        used += height
    return Ruler(faces, pages, pitch, flow.rows, off_board)


def row_end(row: Row) -> int:
    """Where a row's last piece ends."""
    return max((x + piece[2] for x, piece in row.pieces), default=0)


def tick_width(canvas: Canvas, faces: Faces, strength: Quarters, gap: str = "") -> int:
    """A field's tick: its number (and the strength folded away before it) in a box, a little room either side."""
    return round(max(width(format_strength(strength), faces.field), width(gap, faces.gap))) + 4 * canvas.px(3)


def pour(
    found: list[Chip], room: int, lead_in: Any, detail_piece: Any, dash_w: int, tick_w: Any, heights: tuple[int, int]
) -> Flow:
    """The chips poured along rows as words are: a piece that does not fit the rest of a row begins the next.

    Partners side by side are joined by "=" (an even game) or "–" (a handicap, written after the second); the
    row may end after the join, as a line of text ends after a hyphen, and the second partner begins the next.
    """
    segments = _segments(found, room, lead_in, detail_piece, dash_w)
    return _poured(segments, room, dash_w, tick_w, heights)


def _segments(
    found: list[Chip], room: int, lead_in: Any, detail_piece: Any, dash_w: int
) -> list[tuple[list[Piece], bool]]:
    """The pieces that stay together (a player, or two partners joined), and whether a row is theirs alone."""
    segments: list[tuple[list[Piece], bool]] = []  # the pieces that stay together, and whether a row is theirs
    previous: Quarters | None = None
    index = 0
    while index < len(found):
        item = found[index]
        partner = found[index + 1] if index + 1 < len(found) else None
        first = [*lead_in(item, previous), ("chip", item, item.width)]
        if (
            partner is not None
            and item.partner == partner.nick
            and partner.partner == item.nick
            and len(item.lines) == len(partner.lines) == 1
        ):
            even = not item.stone  # an even game: "Ala = Ola", the legend says what = means
            join = ("=" if even else "–", (item.nick, partner.nick))
            second = [*lead_in(partner, item.strength), ("chip", partner, partner.width)]
            under = False
            if not even:  # beside the second partner, or under them where a row has no room for it
                words = detail_piece(item.words, "pair", (item.nick, partner.nick), partner.width)
                second.append(words)
                under = words[1][3]
            halves = ([*first, ("dash", join, dash_w)], second)
            if all(sum(piece[2] for piece in half) <= room for half in halves):  # else each names the other
                segments += [(halves[0], False), (halves[1], under)]
                previous, index = partner.strength, index + 2
                continue
        words = detail_piece(item.detail, item.detail_kind, (item.nick,), item.width)
        segments.append(([*first, words], len(item.lines) > 1 or words[1][3]))
        previous, index = item.strength, index + 1
    return segments


def _poured(
    segments: list[tuple[list[Piece], bool]], room: int, dash_w: int, tick_w: Any, heights: tuple[int, int]
) -> Flow:
    """The segments along rows: one that does not fit the rest of a row (or has a row to itself) begins the next."""
    name_h, detail_h = heights
    flow = Flow(room)
    space = ("space", None, round(dash_w * 0.6))  # between two players who are not partners: narrower than a join
    for number, (pieces, alone) in enumerate(segments):
        if number and pieces[0][0] == "chip" and segments[number - 1][0][-1][0] != "dash":
            pieces = [space, *pieces]
        need = sum(piece[2] for piece in pieces)
        if need > flow.free() or alone:
            lines = max((len(p[1].lines) for p in pieces if p[0] == "chip"), default=1)
            below = [p[1][0] for p in pieces if p[0] == "detail" and p[1][3]]
            if below:  # the words under the name: the row grows by as many lines of names as they take
                lines += -(-len(below[0]) * detail_h // name_h)
            flow.new_row(lines)
            pieces = start_row(pieces, tick_w)
        for piece in pieces:
            flow.put(piece)
        if alone:  # a name wrapped onto lines of its own has its row to itself
            flow.x = room
    return flow


def start_row(pieces: list[Piece], tick_w: Any) -> list[Piece]:
    """A row's first pieces: no gap's strength (the ticks' numbers tell it), a tick for a field going on."""
    if pieces and pieces[0][0] == "space":
        pieces = pieces[1:]
    if pieces and pieces[0][0] == "chip":
        pieces = [("tick", (pieces[0][1].strength, True, ""), tick_w(pieces[0][1].strength)), *pieces]
    return pieces


def ruler_page(canvas: Canvas, data: Any, size: int, body: Box, part: int = 0) -> tuple[int, list[dict[str, object]]]:
    """Draw one page of tonight's ruler; returns how many pages it takes and what is drawn (the layout report)."""
    # Long: one drawing of one ruler page: each row's ticks, chips and joins drawn left to right, sharing the row's x
    # and the layout report.
    ruler = lay_out(canvas, data, size, body)
    part = min(max(part, 0), len(ruler.pages) - 1)
    faces = ruler.faces
    x0, y, x1, y1 = body
    pad = canvas.px(5)
    labels: list[dict[str, object]] = []

    def report(kind: str, text: str, face: Font, nicks: tuple[str, ...] = ()) -> None:
        labels.append(
            {
                "kind": kind,
                "nicks": list(nicks),
                "text": text,
                "size": size,
                "box": list(canvas.texts[-1][0]),
                "cap_height_px": cap_height(face),
            }
        )

    up_ink = "green" if "green" in canvas.profile.inks else "black"
    name_h, detail_h = line_height(faces.name), line_height(faces.detail)
    chip_x, chip_lines = 0, 1
    for row in ruler.pages[part]:
        middle = y + name_h / 2
        for x, (kind, value, wide) in row.pieces:
            left = x0 + x
            if kind == "chip":
                draw_chip(canvas, value, faces, (left, y), up_ink, report)
                chip_x, chip_lines = x, len(value.lines)
            elif kind == "tick":
                strength, again, gap = value
                text = format_strength(strength)
                box = (left + canvas.px(3), y + canvas.px(1), left + wide - canvas.px(3), y + name_h - canvas.px(1))
                canvas.box(box, fill=None if again else "black", outline="black", line=canvas.px(2))
                ink = "black" if again else "white"
                centre = (box[0] + box[2]) / 2
                if gap:  # the number above, the strength folded away below it: digits, stacked by their ink
                    room = box[3] - box[1] - cap_height(faces.field) - cap_height(faces.gap)
                    baseline = box[1] + room / 3 + cap_height(faces.field)
                    for shown, face, at in ((text, faces.field, baseline), (gap, faces.gap, box[3] - room / 3)):
                        canvas.text((centre, at), shown, face, ink=ink, anchor="ms")
                        report("field" if shown is text else "gap", shown, face)
                        ink_box = canvas.draw.textbbox((centre, at), shown, font=face, anchor="ms")
                        labels[-1]["box"] = [round(v) for v in ink_box]  # digits have no line above or below
                else:
                    canvas.text((centre, (box[1] + box[3]) / 2), text, faces.field, ink=ink, anchor="mm")
                    report("field", text, faces.field)
            elif kind == "space":
                continue
            elif kind == "dash":  # "=" joins an even pair, "–" a pair whose handicap is written beside it
                canvas.text((left + wide / 2, y), value[0], faces.name, anchor="ma")
                report("join", value[0], faces.name, value[1])
            else:
                lines, detail_kind, nicks, under = value
                top = middle - len(lines) * detail_h / 2
                if under:  # below the name's lines, from where the name begins
                    left = x0 + chip_x - pad
                    top = y + chip_lines * name_h
                ink = "red" if say(data.language, "ruler_training") in " ".join(lines) else "black"
                for number, line in enumerate(lines):
                    canvas.text((left + pad, top + number * detail_h), line, faces.detail, ink=ink)
                    report(detail_kind, line, faces.detail, nicks if number == 0 else ())
                    labels[-1]["words"] = " ".join(lines)  # the whole, as read: its lines one after the other
        y += ruler.pitch + (row.lines - 1) * name_h
    legend = say(data.language, "ruler_legend")
    rows = ruler.pages[part]
    legend_w = width(legend, faces.legend) + 2 * pad
    if rows and legend_w <= x1 - x0 - row_end(rows[-1]):  # at the end of the last row, where there is room
        y_last = y - ruler.pitch - (rows[-1].lines - 1) * line_height(faces.name)
        canvas.text((x1, y_last + line_height(faces.name) / 2), legend, faces.legend, anchor="rm")
        report("legend", legend, faces.legend)
    else:  # on lines of its own at the foot, wrapped, never cut
        lines = wrapped(legend, faces.legend, x1 - x0)
        for number, line in enumerate(reversed(lines)):
            canvas.text((x0, y1 - number * line_height(faces.legend)), line, faces.legend, anchor="ld")
            report("legend", line, faces.legend)
        y1 -= len(lines) * line_height(faces.legend)
    if ruler.off_board and part == len(ruler.pages) - 1:  # checked in, then renamed or merged away: said
        text = say(data.language, "off_board", nicks=", ".join(ruler.off_board))
        lines = wrapped(text, faces.legend, x1 - x0)
        for number, line in enumerate(reversed(lines)):
            canvas.text((x0, y1 - number * line_height(faces.legend)), line, faces.legend, anchor="ld")
            report("off_board", line, faces.legend, ruler.off_board if number == len(lines) - 1 else ())
    return len(ruler.pages), labels


def draw_chip(canvas: Canvas, item: Chip, faces: Faces, at: tuple[int, int], up_ink: str, report: Any) -> None:
    """A player: the move mark (green or black up, red down), the stone, the name's lines."""
    x, y = at
    lead = 0.0
    if item.mark:
        ink = up_ink if item.mark.startswith("↑") else "red"
        lead = canvas.text((x, y), item.mark, faces.mark, ink=ink)
        report("mark", item.mark, faces.mark, (item.nick,))
        lead += width(" ", faces.mark)
    if item.stone:
        lead += canvas.text((x + lead, y), item.stone, faces.name)
        report("stone", item.stone.strip(), faces.name, (item.nick,))
    name_h = line_height(faces.name)
    for index, line in enumerate(item.lines):
        canvas.text((x + lead, y + index * name_h), line, faces.name)
        report("name", line, faces.name, (item.nick,) if index == 0 else ())


def page_count(data: Any, size: int, profile: Profile, orientation: str, body: Box) -> int:
    """How many pages tonight's ruler takes on a panel."""
    canvas = Canvas(profile, profile.canvas(orientation))
    return len(lay_out(canvas, data, size, body).pages)
