"""The lines and blocks a text page of the wall flows into columns: the tonight page and the event page.

A page is a list of ``Block``s, each a few ``Line``s that stay together in one column (a pair and its
handicap, a player's line of the standings); the pages' own ``_flow`` puts them into columns and pages.
"""

from __future__ import annotations

from dataclasses import dataclass

from display.fonts import Font, line_height, wrapped


@dataclass
class Line:
    """One line of a page: its text, face and ink, the nicknames it names (for the layout report), and
    right-aligned numbers (the event's standings)."""

    text: str
    face: Font
    ink: str = "black"
    nicks: tuple[str, ...] = ()
    # "title", "heading", "pair", "board", "handicap", "result", "bye", "waiting", "columns", "standing",
    # "number", "note" (and "qr" in the layout report)
    kind: str = "note"
    indent: int = 0
    cells: tuple[tuple[int, str], ...] = ()  # (right edge from the column's left, text): place, score, SOS, SODOS


@dataclass
class Block:
    """Lines that stay together in one column (a pair and its handicap; a heading and what follows it)."""

    lines: list[Line]
    gap: int = 0  # space below the block
    keep_with_next: bool = False  # a heading never ends a column
    qr: str | None = None  # a QR code under the lines (the check-in help)
    section: Block | None = None  # the heading of the block's section, said again atop a new page
    every_column: bool = False  # ... and atop a new column too (the standings' column heads)
    optional: bool = False  # a note left out rather than given a page of its own

    def height(self, qr_side: int = 0) -> int:
        return sum(line_height(line.face) for line in self.lines) + self.gap + (qr_side if self.qr else 0)


def wrapped_lines(text: str, face: Font, room: int) -> list[str]:
    """A text broken at its spaces (a word wider than ``room`` is cut when drawn); never no line at all."""
    return wrapped(text, face, room) or [""]
