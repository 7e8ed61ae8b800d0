"""Paper for printing: ISO A sizes in millimetres and pixels at a print resolution."""

from __future__ import annotations

import math
from dataclasses import dataclass

from display.profiles import MM_PER_INCH

# Portrait width × height in millimetres (ISO 216).
PAPERS: dict[str, tuple[int, int]] = {
    "A1": (594, 841),
    "A2": (420, 594),
    "A3": (297, 420),
    "A4": (210, 297),
    "A5": (148, 210),
}
# The printable board's papers (smaller would hold too little of a club); certificates come on A5 or A4.
PRINT_PAPERS = ("A1", "A2", "A3", "A4")
# Dots per inch a printer's driver takes and a Pi can hold: at 150 dpi an A1 sheet is 3508 × 4967 pixels,
# 52 MB as RGB; at 300 dpi four times that, so larger paper gets the lower default.
DEFAULT_DPI = {"A1": 150, "A2": 200, "A3": 300, "A4": 300, "A5": 300}
DPI_RANGE = (72, 600)
# The most pixels a print may have (an A1 at 200 dpi): beyond that the Pi's memory, not the paper, is the limit.
MOST_PIXELS = 4680 * 6622


class PaperError(ValueError):
    """A paper name or resolution the printer cannot take; the message says what can be."""


@dataclass(frozen=True, slots=True)
class Paper:
    """A sheet at a resolution: its name, millimetres and pixels (width × height as it will be printed)."""

    name: str
    width_mm: float
    height_mm: float
    dpi: int

    @property
    def pixels(self) -> tuple[int, int]:
        """The sheet's (width, height) in pixels."""
        return (round(self.width_mm * self.dpi / MM_PER_INCH), round(self.height_mm * self.dpi / MM_PER_INCH))

    def px(self, millimetres: float) -> int:
        """A length on paper in pixels."""
        return max(1, round(millimetres * self.dpi / MM_PER_INCH))


def paper(
    name: str, dpi: int | None = None, landscape: bool = False, choices: tuple[str, ...] = tuple(PAPERS)
) -> Paper:
    """A sheet by its name (``A1`` … ``A5``, any case) at ``dpi`` (its default when None)."""
    key = name.strip().upper()
    if key not in choices:
        raise PaperError(f"unknown paper {name!r}; choose one of {', '.join(choices)}")
    chosen = DEFAULT_DPI[key] if dpi is None else dpi
    if not DPI_RANGE[0] <= chosen <= DPI_RANGE[1]:
        raise PaperError(f"a print's resolution is {DPI_RANGE[0]} to {DPI_RANGE[1]} dpi, not {chosen}")
    width, height = PAPERS[key]
    if landscape:
        width, height = height, width
    sheet = Paper(key, width, height, chosen)
    pixels = sheet.pixels[0] * sheet.pixels[1]
    if pixels > MOST_PIXELS:
        most = math.floor(chosen * math.sqrt(MOST_PIXELS / pixels))
        raise PaperError(f"{key} at {chosen} dpi is more pixels than a Pi's memory holds; use --dpi {most} or less")
    return sheet
