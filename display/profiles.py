"""Panel profiles: the size and the inks of each panel the wall can drive."""

from __future__ import annotations

import math
from dataclasses import dataclass

# Inks by name, with the RGB a preview shows for each. Pure primaries would look garish
# in a browser; these are close to what the e-ink panel actually shows.
INK_RGB: dict[str, tuple[int, int, int]] = {
    "white": (255, 255, 255),
    "black": (0, 0, 0),
    "red": (196, 32, 32),
    "yellow": (240, 196, 0),
    "blue": (24, 64, 168),
    "green": (24, 120, 56),
    "orange": (232, 112, 24),  # only the 7-colour panels (ACeP) have it; display/panels.py adds it there
}

SIX_INKS = ("white", "black", "red", "yellow", "blue", "green")
THREE_INKS = ("white", "black", "red")
ORIENTATIONS = ("landscape", "portrait")

# The 7.3" panel is the reference for spacing (frames, gaps): lengths of its design are scaled.
REFERENCE_SIZE = (800, 480)
# Type is sized in millimetres of cap height, from each panel's real dots per inch: names are
# read from about 2 m on a 7.3" panel at 3 mm; nothing on any page is smaller than 2 mm.
NAME_CAP_MM = 3.0
SMALLEST_CAP_MM = 2.0
MM_PER_INCH = 25.4


@dataclass(frozen=True, slots=True)
class Profile:
    """A panel the wall can draw for: its pixels (landscape) and its inks."""

    name: str
    width: int
    height: int
    inks: tuple[str, ...] = SIX_INKS
    title: str = ""
    diagonal: float = 7.3  # inches of the visible area, as sold

    @property
    def dpi(self) -> float:
        """Dots per inch of the panel (square pixels)."""
        return math.hypot(self.width, self.height) / self.diagonal

    def mm(self, millimetres: float) -> float:
        """A length in millimetres as pixels of this panel."""
        return millimetres * self.dpi / MM_PER_INCH

    def px_to_mm(self, pixels: float) -> float:
        """A length in pixels of this panel as millimetres."""
        return pixels * MM_PER_INCH / self.dpi

    @property
    def colourful(self) -> bool:
        """True when the panel has more inks than black and red."""
        return len(self.inks) > len(THREE_INKS)

    def canvas(self, orientation: str = "landscape") -> tuple[int, int]:
        """The picture's (width, height) for an orientation."""
        if orientation not in ORIENTATIONS:
            raise ValueError(f"orientation must be one of {', '.join(ORIENTATIONS)}")
        long, short = max(self.width, self.height), min(self.width, self.height)
        return (long, short) if orientation == "landscape" else (short, long)

    @property
    def scale(self) -> float:
        """How much larger than the 7.3" panel everything is drawn."""
        long, short = max(self.width, self.height), min(self.width, self.height)
        return min(long / REFERENCE_SIZE[0], short / REFERENCE_SIZE[1])

    @property
    def nick_px(self) -> int:
        """The font size of nicknames at the legibility minimum (3 mm cap height)."""
        from display.fonts import NICK, size_for_cap

        return size_for_cap(NICK, self.mm(NAME_CAP_MM))

    def text_px(self, name: str, millimetres: float = SMALLEST_CAP_MM) -> int:
        """The font size of a vendored font whose capitals are at least ``millimetres`` tall here."""
        from display.fonts import size_for_cap

        return size_for_cap(name, self.mm(millimetres))

    def palette(self) -> list[int]:
        """The flat RGB palette of a 'P' image with exactly this panel's inks."""
        return [channel for ink in self.inks for channel in INK_RGB[ink]]

    def ink(self, name: str) -> int:
        """The palette index of an ink; inks a panel lacks fall back to black."""
        return self.inks.index(name) if name in self.inks else self.inks.index("black")


PROFILES: dict[str, Profile] = {
    "impression-7.3": Profile("impression-7.3", 800, 480, title='Inky Impression 7.3" (ACeP, Spectra 6)', diagonal=7.3),
    "impression-13.3": Profile("impression-13.3", 1600, 1200, title='Inky Impression 13.3" (Spectra 6)', diagonal=13.3),
    "impression-5.7": Profile("impression-5.7", 600, 448, title='Inky Impression 5.7"', diagonal=5.7),
    "impression-4": Profile("impression-4", 640, 400, title='Inky Impression 4"', diagonal=4.0),
    "what": Profile("what", 400, 300, THREE_INKS, title="Inky wHAT (black, white, red)", diagonal=4.2),
    # A preview as large as the 7.3" panel: the same dpi, so the same layout.
    "png": Profile("png", 800, 480, title="PNG file (development, web preview)", diagonal=7.3),
}


def profile(name: str, width: int | None = None, height: int | None = None) -> Profile:
    """The profile of a panel by name; ``png`` takes any size."""
    try:
        found = PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown panel {name!r}; choose one of {', '.join(PROFILES)}") from None
    if name == "png" and (width or height):
        w, h = width or found.width, height or found.height
        if not (200 <= w <= 4000 and 200 <= h <= 4000):
            raise ValueError("a PNG picture is 200 to 4000 pixels each way")
        # Any size at the 7.3" panel's dpi: type keeps its size, the picture holds more or less.
        return Profile("png", w, h, found.inks, found.title, math.hypot(w, h) / found.dpi)
    return found
