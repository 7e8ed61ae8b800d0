"""The wall's event page: tonight's small event, printed on the wall as on the phone.

The round being played, board by board (who is White, the starting moves and prisoners, or
the result once it is in), the bye, and the standings with their tie-breaks (score, SOS,
SODOS; equals share a place). Formats, pairings and standings are ``kiosk.tournament``'s,
the event read from the history by ``kiosk.tournament_store``; this module reads it once per refresh and
draws them, under the club's public labels (kiosk.privacy), in type sized in millimetres.
An event too large for one page goes on over pages (button C and the page timer step
through them), so nobody is hidden.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from fractions import Fraction
from typing import Any

from display.canvas import Box, Canvas
from display.flow import Block, Line, wrapped_lines
from display.fonts import BOLD, NICK, Font, cap_height, line_height, pixels, width
from display.profiles import NAME_CAP_MM, SMALLEST_CAP_MM, Profile
from display.tonight import Faces, columns_of, handicap_text, most_columns, pair_sizes
from display.words import say
from kiosk.accelerated import ACCELERATED, LevelStanding
from kiosk.board import GameResult, Magnet
from kiosk.config import Config
from kiosk.errors import SemedoriError
from kiosk.evening import club_evening
from kiosk.event_prizes import PLACE, WINS, Prize, class_grades, prizes
from kiosk.events import nick_key
from kiosk.handicap import Handicap
from kiosk.scale import decimal_mark, format_strength, written
from kiosk.tiebreak import TODAY
from kiosk.tournament import (
    A_WINS,
    B_WINS,
    DOUBLE_ROUND_ROBIN,
    DRAW,
    ROUND_ROBIN,
    Standing,
    Tournament,
    accelerated_standings,
    event_standings,
    played_boards,
    points,
)

log = logging.getLogger(__name__)
FORMAT_WORDS = {DOUBLE_ROUND_ROBIN: "format_double", ROUND_ROBIN: "format_round_robin"}  # else "format_swiss"
FORMAT_WORDS[ACCELERATED] = "format_accelerated"  # accel


# --- what the page shows, read once per refresh ----------------------------------------------------------------


@dataclass(frozen=True)
class EventBoard:
    """One board of the round being played: its two players (``b`` None: ``a`` has the bye), White, the handicap,
    and the result once it is in (``kiosk.tournament.A_WINS``, ``B_WINS``, ``DRAW``)."""

    board: int
    a: str
    b: str | None
    white: str | None = None  # None: an even game (nigiri), or the bye
    handicap: Handicap | None = None
    result: str | None = None

    @property
    def black(self) -> str | None:
        if self.white is None or self.b is None:
            return None
        return self.b if nick_key(self.white) == nick_key(self.a) else self.a

    @property
    def winner(self) -> str | None:
        return {A_WINS: self.a, B_WINS: self.b}.get(self.result or "")

    def labelled(self, label: Callable[[str], str]) -> EventBoard:
        return replace(
            self,
            a=label(self.a),
            b=None if self.b is None else label(self.b),
            white=None if self.white is None else label(self.white),
        )


@dataclass(frozen=True)
class EventWall:
    """Tonight's open event as the wall shows it."""

    name: str
    format: str
    size: int
    round: int  # the round being played (the last one once all are in)
    rounds: int
    finished: bool
    players: int
    boards: tuple[EventBoard, ...] = ()
    standings: tuple[Standing, ...] = ()
    # the owner's tie-breaks (the wall shows the first two beside the score) and, once the event is
    # finished, its prizes (kind, what it is for in the club's words' keys, the nickname)
    tiebreaks: tuple[str, ...] = TODAY
    prizes: tuple[Prize, ...] = ()
    # accel: an accelerated event's standings ride in ``standings`` as level, rise and FUS coefficient (strengths)
    # in place of points, SOS and SODOS; its columns and notes say so (``numbers_of``, ``heads_of``).
    levels: bool = False

    @property
    def playing(self) -> int:
        """How many boards of the round have no result yet."""
        return sum(1 for b in self.boards if b.b is not None and b.result is None)

    def labelled(self, label: Callable[[str], str]) -> EventWall:
        """The event under the public labels (the wall names nobody the club shows by initials)."""
        return replace(
            self,
            boards=tuple(b.labelled(label) for b in self.boards),
            standings=tuple(replace(s, nick=label(s.nick)) for s in self.standings),
            prizes=tuple(replace(p, nick=label(p.nick)) for p in self.prizes),
        )


def of_event(
    event: Tournament,
    magnets: Sequence[Magnet],
    config: Config,
    played: Mapping[tuple[int, int], GameResult] | None = None,
) -> EventWall:
    """The wall's view of an event: the current round's boards (``kiosk.tournament.played_boards``: a decided board
    as its history game in ``played`` had it, by (round, board); a board on with the handicap from the magnets
    now), the standings."""
    boards = tuple(
        EventBoard(seat.board, seat.a, seat.b, white, handicap, seat.result if seat.b is not None else None)
        for seat, white, _black, handicap in played_boards(event, magnets, played or {}, config)
    )
    if event.format == ACCELERATED:  # accel
        return EventWall(
            event.name,
            event.format,
            event.size,
            event.current,
            event.rounds,
            event.finished,
            len(event.players),
            boards,
            tuple(_level_line(line) for line in accelerated_standings(event)),
            levels=True,
        )
    table = event_standings(event)
    return EventWall(
        event.name,
        event.format,
        event.size,
        event.current,
        event.rounds,
        event.finished,
        len(event.players),
        boards,
        table,
        event.tiebreaks,
        prizes(table, event.prize_classes) if event.finished else (),
    )


def _level_line(line: LevelStanding) -> Standing:
    """accel: an accelerated event's line as a standings line: its level, rise and FUS coefficient as strengths."""
    score, rise, fus = (Fraction(q, 4) for q in (line.level, line.climbed, line.coefficient))
    return Standing(
        line.place,
        line.nick,
        line.strength,
        score,
        rise,
        fus,
        line.wins,
        line.draws,
        line.losses,
        line.byes,
        line.withdrawn,
    )


def numbers_of(line: Standing, levels: bool, language: str) -> tuple[str, ...]:
    """A standings line's numbers as the page prints them: the score and the event's first two tie-breaks; or
    (accel) level, rise, FUS."""
    if not levels:
        return _numbers(line)

    def signed(value: Fraction) -> str:
        text = written(abs(value), language)
        return f"+{text}" if value > 0 else f"−{text}" if value < 0 else text

    return written(line.score, language), signed(line.sos), signed(line.sodos)


def heads_of(levels: bool, language: str, tiebreaks: Sequence[str] = TODAY) -> tuple[str, ...]:
    """The number columns' names: the score and the event's first two tie-breaks, or (accel) level, rise, FUS."""
    if levels:  # accel
        return say(language, "level_short"), "↑", "FUS"
    return column_names(tiebreaks, language)


def _open_event(source: Any, config: Config, now: datetime) -> Tournament | None:
    from kiosk import tournament_store
    from kiosk.store import Store

    if not isinstance(source, Store):  # a damaged database, a test's source: no events
        return None
    return tournament_store.open_event(source, club_evening(config, now)[0])


def read(source: Any, config: Config, now: datetime) -> EventWall | None:
    """Tonight's open event from the store's history (the latest, there is at most one); None when there is none.

    Every change of an event is a history write, so the change counter tells the wall when to read again
    (no signature of its own). An event the core cannot read (a refusal of the core, logged) leaves the
    event page out rather than the whole wall unrefreshed: the board still shows every result.
    """
    event = _open_event(source, config, now)
    if event is None:
        return None
    from kiosk import tournament_store

    try:
        games = tournament_store.played_games(source, event.id, event.round_seats(event.current))
        return of_event(event, source.magnets(), config, games)
    except SemedoriError as error:
        log.error("tonight's event %d cannot be shown on the wall: %s", event.id, error)
        return None


# --- the page ---------------------------------------------------------------------------------------------------


@dataclass
class Table:
    """Where the standings' columns stand in a column of the page: right edges of place, score, SOS, SODOS."""

    place: int
    name: int  # where the name begins
    numbers: tuple[int, ...]  # the score's, then each tie-break's shown (the event's first two)
    name_room: int  # up to the score's column, a gap before it


def column_names(tiebreaks: Sequence[str], language: str) -> tuple[str, ...]:
    """The standings' number columns' heads: the score, then the event's first two tie-breaks."""
    short = {"direct": say(language, "short_direct"), "progress": say(language, "short_progress")}
    return (say(language, "points_short"), *(short.get(n, n.upper()) for n in tiebreaks[:2]))


def _numbers(line: Standing) -> tuple[str, ...]:
    """A line's numbers as the columns show them: the score, then the first two tie-breaks' values."""
    if not line.values:  # a line made without the chain (a test's): score, SOS, SODOS
        return (points(line.score), points(line.sos), points(line.sodos))
    return tuple(points(v) for v in line.values[:3])


def table_of(
    faces: EventFaces,
    room: int,
    lines: Sequence[Standing],
    language: str,
    tiebreaks: Sequence[str] = TODAY,
    levels: bool = False,
) -> Table:
    """The standings' columns: each number column as wide as its widest entry (its name, "10½", a SODOS of "12.75"
    after draws), a small gap between, so that the labels keep most of the line; the numbers close to the longest
    label, not across a wide panel."""
    face, head = faces.detail, faces.small
    gap = round(width("M", face))
    place = round(width(f"{len(lines)}.", face))
    names = heads_of(levels, language, tiebreaks)
    values = [numbers_of(s, levels, language) for s in lines]
    widths = [
        round(max([width(name, head), width("00", face), *(width(v[i], face) for v in values if i < len(v))]))
        for i, name in enumerate(names)
    ]
    longest = max((width(_label(s, language), face) for s in lines), default=0)
    natural = place + round(width(" ", face)) + gap // 2 + round(longest) + (len(names) - 1) * gap + sum(widths) + gap
    right = [min(room, natural)]  # the last column's right edge, then each one before it
    for index in range(len(names) - 1, 0, -1):
        right.insert(0, right[0] - widths[index] - gap)
    name = place + round(width(" ", face)) + gap // 2
    return Table(place, name, tuple(right), right[0] - widths[0] - gap - name)


def _phrases(text: str, face: Font, room: int) -> list[str]:
    """A handicap broken before its " · " and " + " rather than between a number and its noun ("9 / jeńców");
    a phrase wider than the room is broken at its spaces."""
    lines: list[str] = []
    for phrase in re.split(r" (?=[·+] )", text):
        if lines and width(f"{lines[-1]} {phrase}", face) <= room:
            lines[-1] += f" {phrase}"
        elif width(phrase, face) <= room:
            lines.append(phrase)
        else:
            lines += wrapped_lines(phrase, face, room)
    return lines or [""]


def _fit(text: str, face: Font, room: int, indent: int) -> int:
    """The indent of a line, or none when the line fits the column only from its left edge (a very long word)."""
    return indent if width(text, face) <= room - indent else 0


def _names(text: str, face: Font, least: Font, room: int) -> list[tuple[str, Font]]:
    """A name broken at its spaces; a word wider than the room in the smallest names' type (never under 3 mm)."""
    return [(part, face if width(part, face) <= room else least) for part in wrapped_lines(text, face, room)]


def board_block(board: EventBoard, faces: Faces, room: int, language: str) -> Block:
    """A board on: its names (White first, ○ and ●) in large type, the handicap below; a decided board: one line
    with its result and a tick (✓), the names in the page's text type."""
    number = f"{board.board}. "
    assert board.b is not None
    if board.result is not None:
        return _decided_block(board, number, faces, room, language)
    white, black = board.white, board.black
    first, second = (white, black) if white is not None and black is not None else (board.a, board.b)
    marks = ("○ ", "● ") if white is not None else ("", "")
    indent = round(width(number, faces.pair))
    one = f"{number}{marks[0]}{first} – {marks[1]}{second}"
    if width(one, faces.pair) <= room:
        lines = [Line(one, faces.pair, nicks=(first, second), kind="board")]
    else:  # long names: each on its own line(s), broken at its spaces rather than cut
        lines = []
        named = ((f"{number}{marks[0]}{first}", first), (f"– {marks[1]}{second}", second))
        for index, (text, nick) in enumerate(named):
            left = indent if index else 0
            # Wrapped for the indented lines: a continuation of the first name is indented too.
            for part_index, (part, font) in enumerate(_names(text, faces.pair, faces.least, room - indent)):
                lines.append(
                    Line(
                        part,
                        font,
                        nicks=(nick,) if not part_index else (),
                        kind="board",
                        indent=_fit(part, font, room, left if not part_index else indent),
                    )
                )
    assert board.handicap is not None
    text = handicap_text(board.handicap, white, language)
    if board.handicap.training:
        text += " · " + say(language, "training_game")
    for part in _phrases(text, faces.detail, room - indent):
        lines.append(
            Line(
                part,
                faces.detail,
                ink="red" if board.handicap.training else "black",
                kind="handicap",
                indent=_fit(part, faces.detail, room, indent),
            )
        )
    return Block(lines, gap=round(line_height(faces.detail) * 0.45))


def _decided_block(board: EventBoard, number: str, faces: Faces, room: int, language: str) -> Block:
    """A decided board: one line with its result and a tick (✓), the names in the page's text type."""
    assert board.b is not None
    if board.result == DRAW:
        text = say(language, "drew", a=board.a, b=board.b)
    else:
        winner = board.winner
        text = say(language, "beat", winner=winner, loser=board.b if winner == board.a else board.a)
    indent = round(width(number, faces.detail))
    lines = [
        Line(
            part,
            font,
            kind="result",
            indent=0 if index == 0 else indent,
            nicks=(board.a, board.b) if index == 0 else (),
        )
        for index, (part, font) in enumerate(_names(f"{number}✓ {text}", faces.detail, faces.least, room))
    ]
    return Block(lines, gap=max(1, pixels(faces.text) // 4))


def _went_home(line: Standing, language: str) -> str | None:
    """The mark of a player who went home mid-event (or, league, joined late: "from round 3"), as the phone's
    standings have it; None for one there from the start and still in."""
    marks = [say(language, "joined_from", round=line.joined)] if line.joined else []
    marks += [say(language, "went_home")] if line.withdrawn else []
    return f"({', '.join(marks)})" if marks else None


def _label(line: Standing, language: str) -> str:
    mark = _went_home(line, language)
    return line.nick if mark is None else f"{line.nick} {mark}"


def _marked(parts: list[str], mark: str | None, face: Font, room: int) -> list[str]:
    """The label's lines with the went-home mark after the last, or on a line of its own (never broken inside)."""
    if mark is None:
        return parts
    if parts and width(f"{parts[-1]} {mark}", face) <= room:
        return [*parts[:-1], f"{parts[-1]} {mark}"]
    return [*parts, mark]


def standing_block(
    line: Standing, table: Table, faces: EventFaces, room: int, language: str, levels: bool = False
) -> Block:
    """A player's line of the standings: place, label, score, SOS, SODOS; a long label on two lines, or the numbers
    on the line below a label that no break makes fit (never cut). A player who went home is marked so, as on the
    phone (their score stays)."""
    face = faces.detail
    mark = _went_home(line, language)
    numbers = tuple(zip(table.numbers, numbers_of(line, levels, language), strict=False))
    place: tuple[tuple[int, str], ...] = ((table.place, f"{line.place}."),)
    named_parts = wrapped_lines(line.nick, face, table.name_room)
    parts = _marked(named_parts, mark, face, table.name_room)
    if all(width(part, face) <= table.name_room for part in parts) and len(named_parts) <= 2:
        lines = [
            Line(
                part,
                face,
                kind="standing",
                indent=table.name,
                nicks=(line.nick,) if not index else (),
                cells=(*place, *numbers) if not index else (),
            )
            for index, part in enumerate(parts)
        ]
    else:  # one word wider than the name's column: the whole line for the label, the numbers below it
        named = _names(line.nick, face, faces.least, room - table.name)
        if mark is not None:  # the mark after the label: on its last line when it fits there, else below it
            last, font = named[-1]
            if font is face and width(f"{last} {mark}", face) <= room - table.name:
                named[-1] = (f"{last} {mark}", face)
            else:
                named += _names(mark, face, faces.least, room - table.name)
        if _fit(*named[0], room, table.name) != table.name:  # a word wider still: the place alone above the label
            lines = [Line("", face, kind="standing", cells=place)]
            place = ()
        else:
            lines = []
        lines += [
            Line(
                part,
                font,
                kind="standing",
                indent=_fit(part, font, room, table.name),
                nicks=(line.nick,) if not index else (),
                cells=place if not index else (),
            )
            for index, (part, font) in enumerate(named)
        ]
        lines.append(Line("", face, kind="standing", cells=numbers))
    return Block(lines, gap=max(1, pixels(face) // 8))


def blocks(event: EventWall, language: str, faces: EventFaces, room: int) -> list[Block]:
    """Everything the page shows, in order: the event and its round, the boards, the bye, the standings."""
    found = _event_heading(event, language, faces, room)
    round_heading = found[-1]
    for board in event.boards:
        if board.b is None:
            continue
        found.append(board_block(board, faces, room, language))
        found[-1].section = round_heading
    for board in event.boards:
        if board.b is None:
            text = say(language, "bye_level" if event.levels else "bye_counts", nick=board.a)
            found.append(
                Block(
                    [
                        Line(part, faces.text, kind="bye", nicks=(board.a,) if not index else ())
                        for index, part in enumerate(wrapped_lines(text, faces.text, room))
                    ],
                    gap=pixels(faces.text) // 2,
                    section=round_heading,
                )
            )
    found += _standings(event, language, faces, room)
    found += _prize_blocks(event, faces, room, language)
    return found


def _event_heading(event: EventWall, language: str, faces: EventFaces, room: int) -> list[Block]:
    """The event's name and format, then the red heading of its round (how many boards still play)."""
    found: list[Block] = []
    title = event.name or say(language, "event_title")
    facts = f"{say(language, FORMAT_WORDS.get(event.format, 'format_swiss'))} · {event.size}×{event.size}"
    lines = [Line(part, faces.heading, kind="title") for part in wrapped_lines(title, faces.heading, room)]
    lines += [Line(part, faces.text, kind="note") for part in wrapped_lines(facts, faces.text, room)]
    found.append(Block(lines, gap=pixels(faces.text) // 3))
    said = [say(language, "round_of", round=event.round, rounds=event.rounds)]
    if event.finished:
        said.append(say(language, "all_played"))
    elif event.playing:
        said.append(say(language, "still_playing", n=event.playing))
    # One line when it fits, else a line for each part: "grają:" never parted from its number.
    texts = [" · ".join(said)] if width(" · ".join(said), faces.heading) <= room else said
    found.append(
        Block(
            [
                Line(part, faces.heading, ink="red", kind="heading")
                for text in texts
                for part in wrapped_lines(text, faces.heading, room)
            ],
            gap=pixels(faces.heading) // 4,
            keep_with_next=True,
        )
    )
    return found


def _standings(event: EventWall, language: str, faces: EventFaces, room: int) -> list[Block]:
    """The standings under their heading and column names, then what breaks a tie."""
    found: list[Block] = []
    table = table_of(faces, room, event.standings, language, event.tiebreaks, event.levels)
    head = [
        Line(say(language, "standings"), faces.heading, ink="red", kind="heading"),
        Line(
            "",
            faces.small,
            kind="columns",
            cells=tuple(zip(table.numbers, heads_of(event.levels, language, event.tiebreaks), strict=True)),
        ),
    ]
    found.append(Block(head, gap=max(1, pixels(faces.text) // 8), keep_with_next=True, every_column=True))
    standings_heading = found[-1]
    for line in event.standings:
        found.append(standing_block(line, table, faces, room, language, event.levels))
        found[-1].section = standings_heading
    found.append(
        Block(
            [
                Line(part, faces.small, kind="note")
                for part in wrapped_lines(
                    say(language, "tie_break_levels") if event.levels else _tie_break_note(event.tiebreaks, language),
                    faces.small,
                    room,
                )
            ],
            optional=True,
        )
    )
    return found


def _tie_break_note(tiebreaks: Sequence[str], language: str) -> str:
    """The standings' note: how points are counted and what decides equal points (the event's chain)."""
    if tuple(tiebreaks) == TODAY:
        return say(language, "tie_break")
    names = {"direct": say(language, "long_direct"), "progress": say(language, "long_progress")}
    chain = ", ".join(names.get(n, n.upper()) for n in tiebreaks) or say(language, "shared_place")
    return say(language, "tie_break_chain", chain=chain)


def prize_text(prize: Prize, language: str) -> str:
    """A prize on the wall: "Place 1: Ola", "Best up to 21 kyu: Ela", "The most wins (4): Ula"."""
    if prize.kind == PLACE:
        what = say(language, "prize_place", place=prize.place)
    elif prize.kind == WINS:
        what = say(language, "prize_wins", n=prize.wins)
    else:
        first, last = class_grades(prize.low, prize.high)

        def field(q: int) -> str:
            return decimal_mark(format_strength(q), language)

        if prize.low is None and prize.high is not None:
            what = say(language, "prize_class_below", high=field(prize.high), grade=last)
        elif prize.low is not None and prize.high is None:
            what = say(language, "prize_class_from", low=field(prize.low), grade=first)
        else:
            assert prize.low is not None and prize.high is not None
            top = field(prize.high - 1)
            what = say(language, "prize_class", low=field(prize.low), top=top, first=first, last=last)
    return f"{what}: {prize.nick}"


def _prize_blocks(event: EventWall, faces: EventFaces, room: int, language: str) -> list[Block]:
    """A finished event's prizes under the standings: a heading, then one prize a block (wrapped, never cut)."""
    if not event.prizes:
        return []
    blocks = [Block([Line(say(language, "prizes"), faces.heading, ink="red", kind="heading")], keep_with_next=True)]
    for prize in event.prizes:
        text = prize_text(prize, language)
        blocks.append(
            Block(
                [
                    Line(part, faces.text, kind="prize", nicks=(prize.nick,) if not index else ())
                    for index, part in enumerate(wrapped_lines(text, faces.text, room))
                ],
                section=blocks[0],
            )
        )
    return blocks


@dataclass
class Laid:
    """The page's blocks placed: per page, per column, the blocks."""

    columns: list[Box]
    pages: list[list[list[Block]]] = field(default_factory=list)


def _flow(canvas: Canvas, event: EventWall, language: str, body: Box, pair_mm: float, count: int) -> Laid:
    laid = Laid(columns_of(canvas, body, count))
    room = laid.columns[0][2] - laid.columns[0][0]
    found = blocks(event, language, EventFaces.of(canvas, pair_mm), room)
    height = body[3] - body[1]
    pages: list[list[list[Block]]] = [[[]]]
    used = 0
    for index, block in enumerate(found):
        need = block.height()
        if block.keep_with_next and index + 1 < len(found):
            need += found[index + 1].height()
        if block.every_column:  # a table that fits a column whole starts one rather than being cut in two
            whole = need + sum(b.height() for b in found[index + 2 :] if b.section is block)
            need = whole if whole <= height else need
        if used and used + need > height:  # on to the next column, or the next page
            new_page = len(pages[-1]) >= len(laid.columns)
            if new_page and block.optional:
                continue
            if new_page:
                pages.append([[]])
            else:
                pages[-1].append([])
            used = 0
            section = block.section
            # Which list goes on here, when a block that fills the column whole leaves room to say it.
            if (
                section is not None
                and (new_page or section.every_column)
                and section.height() + block.height() <= height
            ):
                pages[-1][-1].append(section)
                used = section.height()
        pages[-1][-1].append(block)
        used += block.height()
    laid.pages = pages
    return laid


class EventFaces(Faces):
    """Tonight's faces, and the small type of the table's column names and the tie-break note."""

    small: Font

    @classmethod
    def of(cls, canvas: Canvas, pair_mm: float) -> EventFaces:
        base = Faces.of(canvas, pair_mm)
        found = cls(base.pair, base.detail, base.heading, base.text, base.least)
        found.detail = canvas.face(NICK, max(NAME_CAP_MM, pair_mm * 0.7))  # the standings' names and numbers
        found.small = canvas.face(NICK, max(SMALLEST_CAP_MM, pair_mm * 0.45))
        return found


def lay_out(canvas: Canvas, event: EventWall, language: str, body: Box) -> Laid:
    """The blocks flowed down the columns, page after page; the type as large, and the columns as few, as still
    lets the event fit on one page; a larger event goes on over pages at the smallest size and most columns."""
    laid = None
    for pair_mm in pair_sizes(canvas, body):
        for count in range(1, most_columns(canvas, body, pair_mm) + 1):
            laid = _flow(canvas, event, language, body, pair_mm, count)
            if len(laid.pages) == 1:
                return laid
    assert laid is not None
    return laid


def event_page(canvas: Canvas, data: Any, body: Box, part: int = 0) -> tuple[int, list[dict[str, object]]]:
    """Draw one page of tonight's event; returns how many pages it takes and what was drawn (the layout report)."""
    # Long: one drawing loop: each line's text, then its right-aligned cells, each into the same layout report.
    event: EventWall | None = data.event
    if event is None:  # closed since the button was pressed: said, never an empty page
        face = canvas.face(BOLD)
        for index, words in enumerate(wrapped_lines(say(data.language, "no_event"), face, body[2] - body[0])):
            canvas.text((body[0], body[1] + index * line_height(face)), words, face, room=body[2] - body[0])
        return 1, []
    laid = lay_out(canvas, event, data.language, body)
    part = min(max(part, 0), len(laid.pages) - 1)
    labels: list[dict[str, object]] = []
    for column, column_blocks in zip(laid.columns, laid.pages[part], strict=False):
        x0, y, x1, _ = column
        for block in column_blocks:
            for line in block.lines:
                right = (
                    min(
                        (x0 + edge - round(width(text, line.face)) for edge, text in line.cells if edge > line.indent),
                        default=x1,
                    )
                    if line.cells
                    else x1
                )
                if line.text:
                    canvas.text(
                        (x0 + line.indent, y), line.text, line.face, ink=line.ink, room=right - x0 - line.indent
                    )
                    labels.append(
                        {
                            "kind": line.kind,
                            "nicks": list(line.nicks),
                            "text": line.text,
                            "box": list(canvas.texts[-1][0]),
                            "cap_height_px": cap_height(line.face),
                        }
                    )
                for edge, text in line.cells:
                    canvas.text((x0 + edge, y), text, line.face, ink=line.ink, anchor="ra")
                    kind = line.kind if line.kind != "standing" else "place" if edge <= line.indent else "number"
                    labels.append(
                        {
                            "kind": kind,
                            "nicks": [],
                            "text": text,
                            "box": list(canvas.texts[-1][0]),
                            "cap_height_px": cap_height(line.face),
                        }
                    )
                y += line_height(line.face)
            y += block.gap
    return len(laid.pages), labels


def page_count(data: Any, profile: Profile, orientation: str, body: Box) -> int:
    """How many pages tonight's event takes on a panel."""
    if data.event is None:
        return 1
    canvas = Canvas(profile, profile.canvas(orientation))
    return len(lay_out(canvas, data.event, data.language, body).pages)
