"""The vendored DejaVu fonts, and fitting text into a width."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONTS = Path(__file__).parent / "fonts"
REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"
# Condensed bold for nicknames: more names per row, and bold strokes stay crisp on e-ink.
NICK = "DejaVuSansCondensed-Bold.ttf"
ELLIPSIS = "…"

Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=128)
def font(name: str, size: int) -> Font:
    """A vendored font at a pixel size (the basic layout: same pixels on every machine)."""
    return ImageFont.truetype(str(FONTS / name), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=8192)  # the same nicknames are measured on every render
def width(text: str, face: Font) -> float:
    """The advance width of a text in pixels."""
    return face.getlength(text)


@lru_cache(maxsize=64)
def _notdef(face: Font) -> bytes:
    """The bitmap the font draws for a character it lacks (an empty box)."""
    return bytes(face.getmask("\uffff", mode="1"))


@lru_cache(maxsize=16384)
def has_glyph(face: Font, char: str) -> bool:
    """True when the font has a drawing for the character."""
    return char.isspace() or bytes(face.getmask(char, mode="1")) != _notdef(face)


@lru_cache(maxsize=8192)
def drawable(text: str, face: Font) -> str:
    """The text without characters the font lacks (an emoji), so no empty box shows on the wall."""
    if all(has_glyph(face, char) for char in text):
        return text
    kept = " ".join("".join(char for char in text if has_glyph(face, char)).split())
    return kept or "?"


def line_height(face: Font) -> int:
    """The height of one line of text: ascent plus descent."""
    ascent, descent = face.getmetrics()
    return ascent + descent


def shorten(text: str, face: Font, room: float) -> str:
    """The text, cut with an ellipsis when it is wider than ``room`` pixels."""
    if width(text, face) <= room:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        middle = (low + high + 1) // 2
        if width(text[:middle].rstrip() + ELLIPSIS, face) <= room:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS if low else ELLIPSIS
