"""The wall's ruler poured line by line: neighbouring strengths share a line, each number before its magnets.

``display/packing.py`` gives each strength lines of its own, so a field of one magnet takes a whole
line of a column twice as wide as its label, and a 120 club's pages of the 7.3" were a third full.
Here the ruler is read like text: strongest first, each field's number (in the gutter at a line's
start, else inside the line before its first magnet), then its magnets, then the next field on the
same line where it fits. An empty strength is a thin tick between lines, as everywhere on the wall;
a band starts with its header, and a column that goes on starts with a strip of its ink and the number
of the field it goes on with. A page break never cuts a field that fits a column; a crowded field taller
than that goes on, its number first on the next page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from display.columns import Label, Page, Piece, Typeface, label_for
from display.fonts import width
from kiosk.bands import Band
from kiosk.board import Magnet
from kiosk.scale import QUARTERS, Quarters, format_strength

# One of the ruler's units from display/packing.py: ("row" | "empty" | "gap", its fields).
Unit = tuple[str, tuple[Quarters, ...]]


@dataclass(slots=True)
class Column:
    """The column being filled: its pieces, the height they take, and the field piece being written."""

    pieces: list[Piece] = field(default_factory=list)
    used: int = 0
    piece: Piece | None = None  # the lines being written (added to ``pieces`` when closed)
    line_used: int = 0  # pixels of the last line taken


class Liner:
    """Pours a size's ruler into pages of ``count`` columns ``width`` wide and ``height`` tall, line by line."""

    def __init__(
        self,
        bands: Sequence[tuple[Band, list[Unit]]],
        held: dict[Quarters, list[Magnet]],
        texts: dict[str, str],
        moved: dict[str, int],
        style: Typeface,
        labels: dict[tuple[str, int], Label],
    ) -> None:
        self.bands, self.held, self.texts, self.moved, self.style = bands, held, texts, moved, style
        # A long name stays on one line where the line holds it: fewer lines than wrapping it at nine ems.
        self.wide = replace(style, widest_label=1 << 16)
        self._labels = labels
        self._field: Quarters | None = None  # the field being written, its number repeated atop a new column
        self._started = False  # some of its magnets are placed already

    def label(self, magnet: Magnet, room: int) -> Label:
        """A magnet's label for lines of ``room`` pixels (shared by every try of the same type)."""
        key = (magnet.nick, room)
        found = self._labels.get(key)
        if found is None:
            found = label_for(magnet, self.texts[magnet.nick], self.wide, self.moved.get(magnet.nick, 0), room)
            self._labels[key] = found
        return found

    def pour(self, count: int, width: int, height: int, tail: tuple[int, int] | None = None) -> list[Page]:
        """The pages; each band's units in order, a field's magnets after its number. With ``tail`` (a page's
        number, a height) the columns from that page on are that tall: the last pages evened out."""
        # Long: one pouring loop over the bands' units; every branch moves the same state (page, column, line).
        style = self.style
        self.count, self.width, self.height, self.tail = count, width, height, tail
        self.pages: list[Page] = [Page([], widths=[])]
        self.column = Column()
        for band, band_units in self.bands:
            self.room = width - style.chip_for(band)
            self.band = band
            self.open_band(band)
            for kind, row in band_units:
                if kind == "gap":
                    self.tick(row, style.thin * 2, "gap")
                    continue
                self.keep_whole(row)
                for q in sorted(row):  # halves and quarters left to right, as on the printed board
                    magnets = self.held.get(q, [])
                    if magnets:
                        self.start_field(q, [self.label(m, self.room) for m in magnets])
                    else:
                        self.slot(q)
            self.close_piece()
        self.end_column()
        pages = [page for page in self.pages if page.columns]
        for page in pages:
            found = [q for column in page.columns for piece in column for q in piece.fields]
            page.highest, page.lowest = max(found), min(found)
        return pages

    def add(self, piece: Piece) -> None:
        """A piece at the foot of the column."""
        self.column.pieces.append(piece)
        self.column.used += piece.height

    def open_band(self, band: Band) -> None:
        """A band's header: under the band before when a line of its fields fits there too, else atop a column."""
        style = self.style
        self.close_piece()
        column = self.column
        if column.pieces and column.used + style.gap + style.head_height + style.pitch <= self.height:
            self.add(Piece("space", band, style.gap))
            self.add(Piece("head", band, style.head_height))
            return
        self.next_column(continued=False)

    def next_column(self, continued: bool) -> None:
        """Start a column (on a new page when this one is full): a band's header, or a strip where it goes on."""
        style = self.style
        self.close_piece()
        self.end_column()
        if len(self.pages[-1].columns) == self.count:
            self.pages.append(Page([], widths=[]))
            if self.tail is not None and len(self.pages) > self.tail[0]:
                self.height = self.tail[1]
        first = not self.pages[-1].columns
        # A page's first column always has the full header: it may be the only one of its band there.
        slim = continued and not first
        self.column = Column()
        self.add(Piece("head", self.band, style.strip if slim else style.head_height, continued=slim))

    def end_column(self) -> None:
        """The column filled goes onto its page."""
        if self.column.pieces and any(piece.kind != "head" for piece in self.column.pieces):
            self.pages[-1].columns.append(self.column.pieces)
            self.pages[-1].widths.append(self.width)
        self.column = Column()

    def close_piece(self) -> None:
        """The lines being written become a piece of the column."""
        piece = self.column.piece
        if piece is not None:
            piece.height = len(piece.lines) * self.style.pitch
            piece.fields = tuple(sorted(set(piece.fields), reverse=True))
            self.add(piece)
            self.column.piece = None

    def lines_left(self) -> int:
        """Whole lines still free in the column below the lines being written."""
        taken = len(self.column.piece.lines) * self.style.pitch if self.column.piece else 0
        return (self.height - self.column.used - taken) // self.style.pitch

    def new_line(self, rows: int = 1) -> None:
        """A fresh line for the field being written (in the next column when this one is full)."""
        if self.lines_left() < rows:
            self.next_column(continued=True)
        column = self.column
        if column.piece is None:
            column.piece = Piece("field", self.band, 0, (), [], [])
        at_top = not column.piece.lines and column.pieces[-1].kind == "head"
        if at_top and self._started:  # where a column goes on, the field number is repeated
            column.piece.continued = True
        column.piece.lines.append([])
        column.piece.numbers.append(self._field if at_top and self._started else None)
        column.line_used = 0

    def need(self, token: Label) -> int:
        """The pixels a token takes on a line (a number or a tick has a pad before it)."""
        return token.width + self.style.gap + (self.style.pad if token.magnet is None else 0)

    def fits(self, tokens: list[Label]) -> bool:
        """True when the tokens fit on the line being written."""
        piece = self.column.piece
        if piece is None or not piece.lines or not piece.lines[-1]:
            return False
        return self.column.line_used + sum(self.need(token) for token in tokens) <= self.room

    def put(self, tokens: list[Label]) -> None:
        """Tokens at the end of the line being written."""
        piece = self.column.piece
        assert piece is not None
        piece.lines[-1].extend(tokens)
        self.column.line_used += sum(self.need(token) for token in tokens)
        held = [token.magnet.strength if token.magnet is not None else token.field for token in tokens]
        piece.fields = (*piece.fields, *(q for q in held if q is not None))

    def slot(self, q: Quarters) -> None:
        """An empty field: its number and a dash inside the line being written where it fits, else a thin dash
        between two lines (beside its strength's other empty fields), as on the ruler."""
        style = self.style
        text = format_strength(q)
        numbered = Label(None, text, round(width(text, style.field)) + 2 * style.pad + style.slot, field=q, empty=True)
        if self.fits([numbered]):
            self.put([numbered])
            return
        last = self.column.pieces[-1] if self.column.pieces and self.column.piece is None else None
        if last is not None and last.kind == "empty" and last.fields[-1] // QUARTERS == q // QUARTERS:
            last.fields = (*last.fields, q)  # the same strength's dashes side by side
            return
        self.tick((q,), style.thin, "empty")

    def tick(self, row: tuple[Quarters, ...], tall: int, kind: str) -> None:
        """Empty fields as a thin piece between lines (a fold of many: a gap)."""
        self.close_piece()
        if self.column.used + tall > self.height:
            self.next_column(continued=True)
        self.add(Piece(kind, self.band, tall, row))

    def lines_of(self, labels: list[Label], number: Label) -> int:
        """How many lines a field's labels take from the line being written on (0: it starts inside that line)."""
        used = self.column.line_used if self.fits([]) else self.room + 1
        count = 0
        for index, label in enumerate(labels):
            need = self.need(label) + (self.need(number) if index == 0 else 0)
            if label.rows > 1 or used + need > self.room:
                count += label.rows
                used = self.need(label) if label.rows == 1 else self.room + 1
            else:
                used += need
        return count

    def keep_whole(self, row: tuple[Quarters, ...]) -> None:
        """A strength that fits a column is not cut by the page break: at a page's last column it starts the next
        page when the lines left do not hold it (a crowded one taller than a column goes on over the break)."""
        if len(self.pages[-1].columns) != self.count - 1:
            return
        style = self.style
        labels = [self.label(m, self.room) for q in sorted(row) for m in self.held.get(q, [])]
        numbers = sum(1 for q in row if q in self.held)  # each field's number before its magnets, at worst
        text = format_strength(row[0])
        number = Label(None, text, round(width(text, style.field)) + style.pad, field=row[0])
        lines = self.lines_of(labels, number) + (1 if numbers > 1 else 0)
        fresh = (self.height - style.head_height) // style.pitch
        if lines > self.lines_left() and lines <= fresh:
            self.next_column(continued=True)

    def start_field(self, q: Quarters, labels: list[Label]) -> None:
        """A field's magnets: its number, then each label where it fits, a wrapped name on lines of its own."""
        style = self.style
        self._field, self._started = q, False
        number = Label(None, format_strength(q), round(width(format_strength(q), style.field)) + style.pad, field=q)
        for index, label in enumerate(labels):
            tokens = [number, label] if index == 0 else [label]
            if label.rows == 1 and self.fits(tokens):
                self.put(tokens)
            else:
                self.new_line(label.rows)
                piece = self.column.piece
                assert piece is not None
                if index == 0:
                    piece.numbers[-1] = q
                self.put([label])
                for _ in range(label.rows - 1):  # the rest of its name on the lines below, nothing beside it
                    piece.lines.append([])
                    piece.numbers.append(None)
            self._started = True
