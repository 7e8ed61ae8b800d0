"""The strength columns of the board page: the wall's own columns and inks (display.columns)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from display.columns import Band, bands
from kiosk.board import Magnet
from kiosk.scale import Quarters


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the board with the magnets hanging in it, strongest first."""

    band: Band
    magnets: tuple[Magnet, ...]


def columns(magnets: Sequence[Magnet], top: Quarters) -> list[Column]:
    """The wall's columns, strongest first, each with its magnets."""
    return [Column(band, tuple(m for m in magnets if band.holds(m.strength))) for band in bands(top)]
