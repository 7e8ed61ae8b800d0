"""The board's coloured columns: which fields hang in which column, in which ink (docs/rules.md).

The scale is cut into columns of ten strengths (kiosk.scale.columns); the printed board
gives each its own ink, strongest first: black, red, blue, green, yellow, and black again
with an outline header at the bottom. A panel with two inks stands in with patterns. Both
the wall (display.columns) and the phone's board page (web.pages) hang magnets by this rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from kiosk.board import Magnet
from kiosk.events import nick_key
from kiosk.scale import QUARTERS, Quarters, fields, to_grade
from kiosk.scale import columns as column_ranges


@dataclass(frozen=True, slots=True)
class Band:
    """One column of the wall: the fields from ``lowest`` to ``highest`` and how it looks."""

    lowest: Quarters
    highest: Quarters
    ink: str
    header: str  # "solid", "hatch" or "outline"
    label: str = "frame"  # "frame": framed in the ink; "fill": filled with it (a light ink)

    @property
    def title(self) -> str:
        """The range as people say it: ``30–39``."""
        return f"{self.lowest // QUARTERS}–{self.highest // QUARTERS}"

    @property
    def grades(self) -> str:
        """The official grades the column converts to, as on the printed board: ``20–11 kyu``."""
        low, high = to_grade(self.lowest), to_grade(self.highest)
        low_number, low_unit = low.split()
        high_number, high_unit = high.split()
        if low_unit == high_unit:
            return f"{low_number}–{high_number} {low_unit}"
        return f"{low}–{high}"

    def holds(self, q: Quarters) -> bool:
        """True when the field ``q`` belongs to this column."""
        return self.lowest <= q <= self.highest


# Strongest first. Black ends both sides of the scale, so the bottom column gets an
# outline header to tell it from the top one.
COLOUR_STYLES = (
    ("black", "solid", "frame"),
    ("red", "solid", "frame"),
    ("blue", "solid", "frame"),
    ("green", "solid", "frame"),
    ("yellow", "solid", "fill"),
    ("black", "outline", "frame"),
)
# Black-and-red panels: patterns and frames stand in for the missing inks.
TWO_INK_STYLES = (
    ("black", "solid", "frame"),
    ("red", "solid", "frame"),
    ("black", "hatch", "frame"),
    ("red", "hatch", "frame"),
    ("black", "outline", "frame"),
    ("red", "outline", "frame"),
)


def bands(top: Quarters, colourful: bool = True) -> tuple[Band, ...]:
    """The columns of the scale, strongest first."""
    styles = COLOUR_STYLES if colourful else TWO_INK_STYLES
    ranges = column_ranges(top)
    # The styles are strongest first too; a short scale takes the lower end of them.
    return tuple(
        Band(low, high, *styles[max(0, len(styles) - len(ranges) + index)]) for index, (low, high) in enumerate(ranges)
    )


def fields_of(band: Band, top: Quarters) -> tuple[Quarters, ...]:
    """The fields of a column, strongest first."""
    return tuple(q for q in reversed(fields(top)) if band.holds(q))


Groups = tuple[tuple[Band, tuple[tuple[Quarters, tuple[Magnet, ...]], ...]], ...]


@lru_cache(maxsize=16)
def grouped(magnets: tuple[Magnet, ...], band_list: tuple[Band, ...]) -> Groups:
    """The columns that hold magnets, each with its fields (strongest first) and their magnets (the web's board)."""
    found = []
    for band in band_list:
        on_band = sorted((m for m in magnets if band.holds(m.strength)), key=lambda m: (-m.strength, nick_key(m.nick)))
        if on_band:
            held = magnets_by_field(on_band)
            found.append((band, tuple((q, tuple(held[q])) for q in sorted(held, reverse=True))))
    return tuple(found)


def magnets_by_field(magnets: Sequence[Magnet]) -> dict[Quarters, list[Magnet]]:
    """The magnets of each field, in the order they hang (by nickname)."""
    found: dict[Quarters, list[Magnet]] = {}
    for magnet in sorted(magnets, key=lambda m: nick_key(m.nick)):
        found.setdefault(magnet.strength, []).append(magnet)
    return found
