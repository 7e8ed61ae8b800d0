"""The wall's tonight page: tonight's suggested pairs with their handicaps, the bye, tonight's results.

The pairs are ``kiosk.tonight.for_evening``'s, the same as the phone's Tonight page and
``semedori pair``; the evening is ``kiosk.evening``'s. This module only reads them and
draws them: pairs in large type, flowed down columns (two on the 7.3", three on the
13.3"), and on over pages when the evening is too large for one (button C steps through
them, as A does the board's), so nobody is hidden.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any

from display.canvas import Box, Canvas, qr_modules
from display.flow import Block, Line, wrapped_lines
from display.fonts import BOLD, NICK, REGULAR, Font, cap_height, line_height, pixels, width
from display.profiles import NAME_CAP_MM, Profile
from display.words import counted, say
from kiosk.board import GameResult
from kiosk.board_source import BoardSource
from kiosk.config import Config
from kiosk.errors import SemedoriError
from kiosk.evening import club_evening, list_opens
from kiosk.events import nick_key
from kiosk.handicap import Handicap, komi
from kiosk.pairing import Pairing
from kiosk.scale import arrows_between
from kiosk.tonight import LAST_WEEK, Evening, for_evening, seated

log = logging.getLogger(__name__)
# The pairs' names: as large as lets the evening fit on as few pages as possible, read while walking to
# a table; never under the board's 3 mm (3.5 mm where the panel is tall enough to spare it).
PAIR_CAPS_MM = (6.0, 5.0, 4.0, 3.5)
# The panels whose tonight page is the ruler (display/tonight_ruler.py): from the 7.3" up, 10–25 players fit a page
# of 5 mm names; a smaller one shows tonight's pairs first instead.
SMALLEST_RULER_MM2 = 14_000
COLUMN_MM = 75.0  # the narrowest column for 4 mm names: a pair's two names and its handicap in words


@dataclass(frozen=True)
class Tonight:
    """Tonight as the wall reads it once per refresh: who is here, who refused whom, the last week's games."""

    config: Config
    evening: date
    starts: datetime
    ends: datetime
    since: datetime  # when tonight's list began (kiosk.evening.list_opens): games since then are tonight's
    now: datetime
    here: tuple[str, ...] = ()  # checked in, in the order they came
    refused: frozenset[frozenset[str]] = frozenset()
    games: tuple[GameResult, ...] = ()  # a week back at least, in replay order (for rematches)
    # Seated in tonight's open event (kiosk.tonight.seated): they play there, the pairs leave them out.
    in_event: tuple[str, ...] = ()
    # One refresh counts the pages and draws the picture twice: the pairs are made once.
    _made: dict[tuple[int, int], tuple[Any, Evening]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def open(self) -> bool:
        """True while the club's evening is on."""
        return self.starts <= self.now < self.ends

    def played(self) -> tuple[GameResult, ...]:
        """Tonight's games, in the order they were played."""
        return tuple(g for g in self.games if g.at >= self.since)

    def labelled(self, label: Callable[[str], str], game: Callable[[GameResult], GameResult]) -> Tonight:
        """Tonight under the public labels (the wall names nobody the club shows by initials)."""
        return replace(
            self,
            here=tuple(label(n) for n in self.here),
            refused=frozenset(frozenset(nick_key(label(n)) for n in pair) for pair in self.refused),  # keys
            games=tuple(game(g) for g in self.games),
            in_event=tuple(label(n) for n in self.in_event),
            _made={},
        )

    def pairs(self, magnets: Any, size: int) -> Evening:
        """Tonight's suggested pairs on a size: the phone's and ``semedori pair``'s algorithm."""
        made = self._made.get((size, id(magnets)))
        if made is not None and made[0] is magnets:
            return made[1]
        found = for_evening(
            size, magnets, self.here, self.config, self.games, self.since, self.now, self.refused, self.in_event
        )
        self._made[(size, id(magnets))] = (magnets, found)  # the magnets kept: their id is not reused meanwhile
        return found


def evening(
    config: Config,
    now: datetime,
    here: Iterable[str] = (),
    refused: Collection[frozenset[str]] = (),
    games: Iterable[GameResult] = (),
) -> Tonight:
    """Tonight for ``now`` (club time) by the club's hours."""
    day, starts, ends = club_evening(config, now)
    since = list_opens(day, config.evening_starts, config.evening_ends)
    return Tonight(
        config, day, starts, ends, since, now, tuple(here), frozenset(frozenset(p) for p in refused), tuple(games)
    )


def read(source: BoardSource, config: Config, now: datetime) -> Tonight:
    """Tonight from the store: the check-in list, the refusals, the games since a week ago (or since the list
    began, if earlier). A damaged database's stand-in has nobody here."""
    found = evening(config, now)
    games = source.games_since(min(found.since, now - LAST_WEEK))
    here, refused = source.checked_in(found.evening), source.refusals(found.evening)
    return replace(evening(config, now, here, refused, games), in_event=_seated(source, found.evening))


def _seated(source: Any, day: date) -> tuple[str, ...]:
    """Who plays in the evening's open event (a history write: the change counter tells the refresh)."""
    from kiosk import tournament_store
    from kiosk.store import Store

    if not isinstance(source, Store):  # a test's source without a history: no event
        return ()

    try:
        return seated(tournament_store.open_event(source, day))
    except SemedoriError as error:  # an event the core cannot read: the pairs as if there were none, said in the log
        log.error("tonight's event cannot be read for the tonight page: %s", error)
        return ()


# --- the page ---------------------------------------------------------------------------------------------


@dataclass
class Faces:
    """The page's type, in millimetres of cap height on the panel."""

    pair: Font
    detail: Font
    heading: Font
    text: Font
    least: Font  # a name too long for its line at ``pair`` size: smaller, never under the board's 3 mm

    @classmethod
    def of(cls, canvas: Canvas, pair_mm: float) -> Faces:
        text_mm = max(NAME_CAP_MM, pair_mm * 0.7)
        return cls(
            pair=canvas.face(NICK, pair_mm),
            detail=canvas.face(REGULAR, text_mm),
            heading=canvas.face(BOLD, text_mm),
            text=canvas.face(REGULAR, text_mm),
            least=canvas.face(NICK, NAME_CAP_MM),
        )


def pair_sizes(canvas: Canvas, body: Box) -> tuple[float, ...]:
    """The sizes of the pairs' names to try, largest first (a small panel goes down to the board's 3 mm)."""
    if canvas.profile.px_to_mm(body[3] - body[1]) >= 70:
        return PAIR_CAPS_MM
    return (*(mm for mm in PAIR_CAPS_MM if mm <= 4.0), NAME_CAP_MM)


@dataclass
class Laid:
    """The page's blocks placed: per page, per column, the blocks."""

    columns: list[Box]
    pages: list[list[list[Block]]] = field(default_factory=list)
    qr_side: int = 0


def most_columns(canvas: Canvas, body: Box, pair_mm: float) -> int:
    """How many columns of names ``pair_mm`` tall fit across: each at least ``COLUMN_MM`` wide at 4 mm."""
    gap = canvas.px(16)
    return max(1, int((body[2] - body[0] + gap) // (canvas.profile.mm(COLUMN_MM * pair_mm / 4.0) + gap)))


def columns_of(canvas: Canvas, body: Box, count: int) -> list[Box]:
    """The body cut into ``count`` columns."""
    x0, y0, x1, y1 = body
    gap = canvas.px(16)
    step = (x1 - x0 + gap) // count
    return [(x0 + i * step, y0, x0 + (i + 1) * step - gap if i < count - 1 else x1, y1) for i in range(count)]


def handicap_text(handicap: Handicap, white: str | None, language: str) -> str:
    """What the pair plays, in the handicap page's words: "White: Ewa · 2 moves + 3 prisoners", or the even game."""
    if handicap.even or white is None:
        return say(language, "even_game", komi=komi(language))
    moves = counted(language, "moves_n", handicap.moves)
    prisoners = counted(language, "prisoners_n", handicap.prisoners)
    return f"{say(language, 'white_is', nick=white)} · {moves} + {prisoners}"


def compact_panel(profile: Profile, orientation: str = "landscape") -> bool:
    """True on a small panel (the 5.7", the 4", the wHAT): tonight's first page there is the pairs, an even pair
    on one line ("Ala = Ola") with what = means said once, so more pairs fit a page."""
    w, h = profile.canvas(orientation)
    return profile.px_to_mm(w) * profile.px_to_mm(h) < SMALLEST_RULER_MM2


def pair_block(pairing: Pairing, number: int, faces: Faces, room: int, language: str, compact: bool = False) -> Block:
    """A pair: its names (White first, ○ and ●) in large type, its handicap below, a training game in red.

    ``compact``: an even game is the names joined by "=" alone (the page's legend says what = means)."""
    white, black = pairing.white, pairing.black
    first, second = (white, black) if white is not None and black is not None else pairing.sides
    marks = ("○ ", "● ") if white is not None else ("", "")
    nicks = (first.nick, second.nick)
    even = compact and pairing.handicap.even and not pairing.handicap.training
    join = "=" if even else "–"
    one = f"{number}. {marks[0]}{first.nick} {join} {marks[1]}{second.nick}"
    indent = round(width(f"{number}. ", faces.pair))
    if width(one, faces.pair) <= room:
        lines = [Line(one, faces.pair, nicks=nicks, kind="pair")]
    else:  # long names: each on its own line(s), broken at its spaces rather than cut
        lines = []
        for index, text in enumerate((f"{number}. {marks[0]}{first.nick} {join}", f"{marks[1]}{second.nick}")):
            for part_index, part in enumerate(wrapped_lines(text, faces.pair, room - (indent if index else 0))):
                left = indent if index or part_index else 0
                # One word wider than the column (Brzęczyszczykiewicz on the 4"): smaller type, not cut.
                face = faces.pair if width(part, faces.pair) <= room - left else faces.least
                lines.append(
                    Line(part, face, nicks=nicks[index : index + 1] if not part_index else (), kind="pair", indent=left)
                )
    if even:
        return Block(lines, gap=round(line_height(faces.detail) * 0.3))
    text = handicap_text(pairing.handicap, white.nick if white else None, language)
    training = pairing.handicap.training
    if training:
        text += " · " + say(language, "training_game")
    for part in wrapped_lines(text, faces.detail, room - indent):
        lines.append(Line(part, faces.detail, ink="red" if training else "black", kind="handicap", indent=indent))
    return Block(lines, gap=round(line_height(faces.detail) * 0.45))


def result_text(game: GameResult, size: int, language: str) -> str:
    """A game of tonight: ``Ewa ↑1 beat Ola ↓1`` (with its size when it is not the page's)."""

    def named(nick: str | None) -> str:
        move = game.moves.get(nick or "")
        arrows = arrows_between(move.before, move.after) if move else 0
        return f"{nick} {'↑' if arrows > 0 else '↓'}{abs(arrows)}" if arrows else str(nick)

    if game.winner is None:
        text = say(language, "drew", a=named(game.players[0]), b=named(game.players[1]))
    else:
        text = say(language, "beat", winner=named(game.winner), loser=named(game.loser))
    return text if game.size == size else f"{text} ({game.size}×{game.size})"


def blocks(
    data: Any, size: int, evening_pairs: Evening | None, faces: Faces, room: int, compact: bool = False
) -> list[Block]:
    """Everything the page shows, in order: the pairs, the bye, who waits, tonight's results (newest first)."""
    language = data.language
    tonight: Tonight | None = data.tonight
    here = tonight.here if tonight else ()
    pairs = evening_pairs.suggestion.pairs if evening_pairs else ()
    found = _pairs_heading(language, here, faces, room)
    if not here:
        found += _nobody_here(data, faces, room)
    heading = found[0]
    in_event = evening_pairs.in_event if evening_pairs else ()
    if in_event:  # they play in the event: named once, so nobody looks for a pair
        found.append(
            _named_block(say(language, "in_event", nicks=", ".join(in_event)), in_event, "in_event", faces, room)
        )
    for number, pairing in enumerate(pairs, start=1):
        found.append(pair_block(pairing, number, faces, room, language, compact))
        found[-1].section = heading
    if compact and any(p.handicap.even and not p.handicap.training for p in pairs):  # what "=" means, once
        text = say(language, "even_legend", komi=komi(language))
        found.append(Block([Line(part, faces.text, kind="legend") for part in wrapped_lines(text, faces.text, room)]))
        found[-1].gap = round(faces.text.size) // 2
    if evening_pairs is not None:
        found += _not_paired(evening_pairs, bool(pairs), in_event, size, language, faces, room)
    played = tonight.played() if tonight else ()
    if played:
        found += _played_tonight(played, size, language, faces, room)
    return found


def _pairs_heading(language: str, here: Sequence[Any], faces: Faces, room: int) -> list[Block]:
    """The red heading over the pairs, with how many are here."""
    title = say(language, "pairs_title")
    if here:
        title += " · " + say(language, "here_count", n=len(here))
    lines = [Line(part, faces.heading, ink="red", kind="heading") for part in wrapped_lines(title, faces.heading, room)]
    return [Block(lines, gap=pixels(faces.heading) // 4, keep_with_next=True)]


def _nobody_here(data: Any, faces: Faces, room: int) -> list[Block]:
    """Nobody checked in yet: how to check in, and the QR code of tonight's form."""
    language = data.language
    help_lines = [Line(part, faces.pair) for part in wrapped_lines(say(language, "nobody_here"), faces.pair, room)]
    help_lines += [Line(part, faces.text) for part in wrapped_lines(say(language, "how_to_check_in"), faces.text, room)]
    return [
        Block(help_lines, gap=pixels(faces.text) // 2),
        Block([], gap=pixels(faces.text) // 2, qr=data.form_url.rstrip("/") + "/tonight"),
    ]


def _named_block(
    text: str, nicks: tuple[str, ...], kind: str, faces: Faces, room: int, face: Font | None = None
) -> Block:
    """One sentence naming players, wrapped; the names are marked on its first line only."""
    face = face or faces.text
    lines = [
        Line(part, face, kind=kind, nicks=nicks if not index else ())
        for index, part in enumerate(wrapped_lines(text, face, room))
    ]
    return Block(lines, gap=pixels(faces.text) // 2)


def _not_paired(
    evening_pairs: Evening,
    paired: bool,
    in_event: tuple[str, ...],
    size: int,
    language: str,
    faces: Faces,
    room: int,
) -> list[Block]:
    """Who is here and has no pair: the bye, who waits, who was checked in and is no longer on the board."""
    found: list[Block] = []
    bye = evening_pairs.suggestion.bye
    if not paired and (bye is not None or not in_event):  # one player here: how pairs come, never a lone "sits out"
        lines = [
            Line(part, faces.text) for part in wrapped_lines(say(language, "two_needed", size=size), faces.text, room)
        ]
        found.append(Block(lines, gap=pixels(faces.text) // 2))
    if bye is not None and not paired:
        found.append(_named_block(say(language, "waiting_one", nick=bye.nick), (bye.nick,), "waiting", faces, room))
    elif bye is not None:
        text = say(language, "bye", nick=bye.nick)
        found.append(_named_block(text, (bye.nick,), "bye", faces, room, face=faces.heading))
    if evening_pairs.waiting:
        nicks = tuple(side.nick for side in evening_pairs.waiting)
        found.append(_named_block(say(language, "waiting", nicks=", ".join(nicks)), nicks, "waiting", faces, room))
    if evening_pairs.off_board:  # checked in, then renamed or merged away: said, not silently dropped
        gone = evening_pairs.off_board
        found.append(_named_block(say(language, "off_board", nicks=", ".join(gone)), gone, "waiting", faces, room))
    return found


def _played_tonight(played: Sequence[Any], size: int, language: str, faces: Faces, room: int) -> list[Block]:
    """Tonight's results under their own red heading, newest first."""
    heading = Block(
        [Line(say(language, "played_tonight", n=len(played)), faces.heading, ink="red", kind="heading")],
        gap=pixels(faces.heading) // 4,
        keep_with_next=True,
    )
    found = [heading]
    for game in reversed(played):
        text = result_text(game, size, language)
        lines = [
            Line(part, faces.text, kind="result", nicks=game.players if not index else ())
            for index, part in enumerate(wrapped_lines(text, faces.text, room))
        ]
        found.append(Block(lines, gap=max(1, pixels(faces.text) // 6), section=heading))
    return found


def lay_out(canvas: Canvas, data: Any, size: int, body: Box) -> Laid:
    """The blocks flowed down the columns, column after column, page after page; a block never splits.

    The names are as large, and the columns as few (so as wide), as still lets the evening fit on
    one page; an evening too large for that goes on over pages at the smallest size and most columns.
    """
    tonight: Tonight | None = data.tonight
    try:
        evening_pairs = tonight.pairs(data.magnets, size) if tonight and tonight.here else None
    except SemedoriError as error:  # a list the core refuses: the page still shows tonight's results
        log.error("tonight's pairs on %dx%d cannot be made: %s", size, size, error)
        evening_pairs = None
    laid = None
    for pair_mm in pair_sizes(canvas, body):
        for count in range(1, most_columns(canvas, body, pair_mm) + 1):
            laid = _flow(canvas, data, size, body, evening_pairs, pair_mm, count)
            if len(laid.pages) == 1:
                return laid
    assert laid is not None
    if laid.qr_side or any(block.qr for page in laid.pages for column in page for block in column):
        # A QR code a page after the words that say "scan the code" is lost on the panel: beside them instead.
        for pair_mm in pair_sizes(canvas, body):
            beside = _code_beside(canvas, data, size, body, pair_mm)
            if beside is not None:
                return beside
    return laid


def _code_beside(canvas: Canvas, data: Any, size: int, body: Box, pair_mm: float) -> Laid | None:
    """Nobody here yet on a low page: the words in a column on the left, the QR code on the right of the first
    page (what follows, tonight's results, goes on down the words' column); None if the words that say
    "scan the code" do not fit beside it."""
    x0, y0, x1, y1 = body
    gap = canvas.px(16)
    height = y1 - y0
    code = data.form_url.rstrip("/") + "/tonight"
    modules = qr_modules(code)
    side = min(height, round(canvas.profile.mm(35)), (x1 - x0) // 3) // modules * modules
    if side < 2 * modules:
        return None
    words_column = (x0, y0, x1 - side - gap, y1)
    orientation = "landscape" if canvas.width >= canvas.height else "portrait"
    faces = Faces.of(canvas, pair_mm)
    found = blocks(data, size, None, faces, words_column[2] - x0, compact_panel(canvas.profile, orientation))
    codes = [block for block in found if block.qr]
    words = [block for block in found if not block.qr]
    laid = Laid([words_column, (x1 - side, y0, x1, y1)], qr_side=side)
    laid.pages = [[[], codes]]
    used = 0
    for index, block in enumerate(words):
        if used and used + block.height() > height:
            if index < 2:  # the heading and the words about the code: on the code's page, or not this way
                return None
            laid.pages.append([[], []])
            used = 0
        laid.pages[-1][0].append(block)
        used += block.height()
    return laid


def _flow(
    canvas: Canvas, data: Any, size: int, body: Box, evening_pairs: Evening | None, pair_mm: float, count: int
) -> Laid:
    laid = Laid(columns_of(canvas, body, count))
    room = laid.columns[0][2] - laid.columns[0][0]
    orientation = "landscape" if canvas.width >= canvas.height else "portrait"
    compact = compact_panel(canvas.profile, orientation)
    found = blocks(data, size, evening_pairs, Faces.of(canvas, pair_mm), room, compact)
    height = body[3] - body[1]
    code = next((b.qr for b in found if b.qr), None)
    if code:  # as large as a phone reads from a step away, never a speck (then none: the words say it)
        side = min(room, round(height * 0.55), round(canvas.profile.mm(35)))
        modules = qr_modules(code)
        laid.qr_side = side // modules * modules if side >= 2 * modules else 0
        if not laid.qr_side:
            found = [b for b in found if not b.qr]
    pages: list[list[list[Block]]] = [[[]]]
    used = 0
    for index, block in enumerate(found):
        need = block.height(laid.qr_side)
        if block.keep_with_next and index + 1 < len(found):
            need += found[index + 1].height(laid.qr_side)
        if used and used + need > height:  # on to the next column, or the next page
            if len(pages[-1]) < len(laid.columns):
                pages[-1].append([])
            else:
                pages.append([[]])
                if block.section is not None:  # a new page says which list goes on
                    pages[-1][-1].append(block.section)
                    used = block.section.height()
                    pages[-1][-1].append(block)
                    used += block.height(laid.qr_side)
                    continue
            used = 0
        pages[-1][-1].append(block)
        used += block.height(laid.qr_side)
    laid.pages = pages
    return laid


def tonight_page(canvas: Canvas, data: Any, size: int, body: Box, part: int = 0) -> tuple[int, list[dict[str, object]]]:
    """Draw one page of tonight; returns how many pages tonight takes and the names drawn (the layout report)."""
    laid = lay_out(canvas, data, size, body)
    part = min(max(part, 0), len(laid.pages) - 1)
    labels: list[dict[str, object]] = []
    for column, column_blocks in zip(laid.columns, laid.pages[part], strict=False):
        x0, y, x1, _ = column
        for block in column_blocks:
            for line in block.lines:
                canvas.text((x0 + line.indent, y), line.text, line.face, ink=line.ink, room=x1 - x0 - line.indent)
                if line.text.strip():
                    labels.append(
                        {
                            "kind": line.kind,
                            "nicks": list(line.nicks),
                            "text": line.text,
                            "size": size,
                            "box": list(canvas.texts[-1][0]),
                            "cap_height_px": cap_height(line.face),
                        }
                    )
                y += line_height(line.face)
            if block.qr and laid.qr_side:
                canvas.qr(block.qr, (x0, y, x0 + laid.qr_side, y + laid.qr_side))
                labels.append(
                    {
                        "kind": "qr",
                        "nicks": [],
                        "text": block.qr,
                        "size": size,
                        "box": [x0, y, x0 + laid.qr_side - 1, y + laid.qr_side - 1],
                        "cap_height_px": 0,
                    }
                )
                y += laid.qr_side
            y += block.gap
    return len(laid.pages), labels


def page_count(data: Any, size: int, profile: Profile, orientation: str, body: Box) -> int:
    """How many pages tonight takes on a panel."""
    canvas = Canvas(profile, profile.canvas(orientation))
    return len(lay_out(canvas, data, size, body).pages)
