"""The strength columns of the wall: contiguous fields, each column in its own colour."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.board import Magnet
from kiosk.scale import QUARTERS, Quarters

# (lowest strength, colour) of each column, strongest last; the wall's six inks.
COLUMNS: tuple[tuple[int, str], ...] = (
    (0, "green"),
    (10, "blue"),
    (20, "yellow"),
    (30, "red"),
    (40, "black"),
    (50, "black"),
)


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the board with the magnets hanging in it, strongest first."""

    lowest: Quarters
    highest: Quarters  # first strength of the next column, or the top
    colour: str
    magnets: tuple[Magnet, ...]


def columns(magnets: Sequence[Magnet], top: Quarters) -> list[Column]:
    """The board's columns, strongest first; empty columns are kept so the wall's shape shows."""
    bounds = [low * QUARTERS for low, _ in COLUMNS] + [top + 1]
    result = []
    for i, (_, colour) in enumerate(COLUMNS):
        low, high = bounds[i], bounds[i + 1]
        inside = tuple(m for m in magnets if low <= m.strength < high)
        result.append(Column(low, min(high, top), colour, inside))
    return result[::-1]
