"""The wall's fonts: vendored DejaVu first, then fallbacks for CJK and emoji, and fitting text into a width.

Pillow's basic layout has no font fallback of its own, so a text is cut into runs, each
drawn with the first font of the chain that has its characters. The fallbacks come from
Debian packages that ``make system`` and the Pi installer put in place (the same files on a
laptop and on a Pi): Droid Sans Fallback (Apache-2.0) for Chinese and Japanese, Unifont
(OFL) for Hangul and the rest of the basic plane, Unifont Upper for emoji. A character no
font has is drawn as its code in angle quotes (``‹1F9A9›``), never as an empty box or "?".
"""

from __future__ import annotations

import math
import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONTS = Path(__file__).parent / "fonts"
REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"
# Condensed bold for nicknames: more names per row, and bold strokes stay crisp on e-ink.
NICK = "DejaVuSansCondensed-Bold.ttf"
ELLIPSIS = "…"
# Where each fallback may be: the folder shipped with the package first, then Debian's paths.
FALLBACKS: tuple[tuple[str, ...], ...] = (
    (
        "DroidSansFallbackFull.ttf",
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
        "/usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf",
    ),
    ("unifont.otf", "/usr/share/fonts/opentype/unifont/unifont.otf"),
    ("unifont_upper.otf", "/usr/share/fonts/opentype/unifont/unifont_upper.otf"),
)
# Joiners and variation selectors shape a sequence in a colour-emoji font; drawn alone they are noise.
INVISIBLE = {"\u200d", "\u200c", "\u2060", *(chr(c) for c in range(0xFE00, 0xFE10))}

Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=128)
def font(name: str, size: int) -> Font:
    """A vendored font at a pixel size (the basic layout: same pixels on every machine)."""
    return ImageFont.truetype(str(FONTS / name), size, layout_engine=ImageFont.Layout.BASIC)


def faces_open() -> int:
    """How many font faces the caches hold open (a fallback size opens one face per fallback file)."""
    return font.cache_info().currsize + fallbacks.cache_info().currsize * len(fallback_files())


def forget() -> None:
    """Close every cached face and what was measured with it (each face maps its font file
    anew, 0.7 MB for DejaVu and more for the CJK fallbacks; pages drawn at many sizes add up)."""
    for cached in (font, fallbacks, _notdef, has_glyph, drawable, runs, width, cap_height):
        cached.cache_clear()


@lru_cache(maxsize=1)
def fallback_files() -> tuple[str, ...]:
    """The fallback font files found on this machine, in the order they are tried."""
    found = []
    for candidates in FALLBACKS:
        for candidate in candidates:
            path = Path(candidate) if candidate.startswith("/") else FONTS / candidate
            if path.is_file():
                found.append(str(path))
                break
    return tuple(found)


@lru_cache(maxsize=64)
def fallbacks(size: int) -> tuple[Font, ...]:
    """The fallback fonts at a pixel size."""
    return tuple(ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC) for path in fallback_files())


@lru_cache(maxsize=64)
def _notdef(face: Font) -> bytes:
    """The bitmap the font draws for a character it lacks (an empty box, or nothing)."""
    return bytes(face.getmask("\U0010fffd", mode="1"))


@lru_cache(maxsize=65536)
def has_glyph(face: Font, char: str) -> bool:
    """True when the font has a drawing for the character."""
    return char.isspace() or bytes(face.getmask(char, mode="1")) != _notdef(face)


def substitute(char: str) -> str:
    """What stands for a character no font has: its code, so two such names still differ."""
    return f"‹{ord(char):X}›"


@lru_cache(maxsize=16384)
def drawable(text: str, face: Font) -> str:
    """The text as the wall can draw it: invisible joiners dropped, unknown characters as their code."""
    out = []
    for char in unicodedata.normalize("NFC", text):
        if char in INVISIBLE:
            continue
        if char.isspace() or unicodedata.category(char) in ("Cc", "Cf"):
            out.append(" " if char.isspace() else "")
            continue
        # The fallbacks are opened only for a character the face lacks: each open face costs memory.
        found = has_glyph(face, char) or any(has_glyph(f, char) for f in fallbacks(face.size))
        out.append(char if found else substitute(char))
    return " ".join("".join(out).split()) or "?"


@lru_cache(maxsize=16384)
def runs(text: str, face: Font) -> tuple[tuple[str, Font], ...]:
    """The text cut into runs, each with the first font of the chain that draws it."""
    if all(has_glyph(face, char) for char in text):
        return ((text, face),)
    chain = (face, *fallbacks(face.size))
    found: list[tuple[str, Font]] = []
    for char in text:
        chosen = next((f for f in chain if has_glyph(f, char)), face)
        if found and found[-1][1] is chosen:
            found[-1] = (found[-1][0] + char, chosen)
        else:
            found.append((char, chosen))
    return tuple(found)


@lru_cache(maxsize=16384)  # the same nicknames are measured on every render
def width(text: str, face: Font) -> float:
    """The advance width of a text in pixels (fallback fonts included)."""
    return sum(f.getlength(part) for part, f in runs(text, face))


def wrapped(text: str, face: Font, room: int) -> list[str]:
    """A text broken into lines of ``room`` pixels at its spaces."""
    lines: list[str] = []
    for word in text.split():
        if lines and width(f"{lines[-1]} {word}", face) <= room:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def pixels(face: Font) -> int:
    """A face's size in whole pixels: Pillow types it a float, and every face here is made at a whole size."""
    return int(face.size)


def line_height(face: Font) -> int:
    """The height of one line of text: ascent plus descent."""
    ascent, descent = face.getmetrics()
    return ascent + descent


@lru_cache(maxsize=256)
def cap_height(face: Font) -> int:
    """The height of a capital letter in pixels: what a reader's eye measures."""
    box = face.getbbox("H", anchor="ls")
    return int(box[3] - box[1])  # whole pixels for a FreeType face (Pillow types the box as floats)


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


def shorten_keeping_end(text: str, face: Font, room: float, end: int) -> str:
    """The text cut in the middle (``Grzegorz B…z2``), keeping its last ``end`` characters."""
    tail = text[-end:] if end else ""
    head = text[: len(text) - end]
    low, high = 0, len(head)
    while low < high:
        middle = (low + high + 1) // 2
        if width(head[:middle] + ELLIPSIS + tail, face) <= room:
            low = middle
        else:
            high = middle - 1
    return head[:low] + ELLIPSIS + tail


def unique_texts(texts: dict[str, str], face: Font, room: float) -> dict[str, str]:
    """Each nickname's drawn text, shortened only as far as no two different nicknames look the same.

    ``texts`` maps a nickname to its drawable text; a text that does not fit is cut with an
    ellipsis, and where two cut texts would read the same, the cut moves inwards so that the
    differing end stays visible.
    """
    drawn = {nick: shorten(text, face, room) for nick, text in texts.items()}
    for _ in range(3):
        seen: dict[str, list[str]] = {}
        for nick, text in drawn.items():
            seen.setdefault(text, []).append(nick)
        clashes = [nicks for nicks in seen.values() if len(nicks) > 1]
        if not clashes:
            return drawn
        for nicks in clashes:
            for nick in nicks:
                full = texts[nick]
                others = [texts[other] for other in nicks if other != nick]
                end = next(
                    (n for n in range(1, len(full) + 1) if all(not other.endswith(full[-n:]) for other in others)),
                    len(full),
                )
                drawn[nick] = shorten_keeping_end(full, face, room, end)
    # Texts that differ only in what cannot be drawn (joiners): their codes tell them apart.
    shown: dict[str, str] = {}  # drawn text → the nick drawn so
    for nick in sorted(drawn):
        text = drawn[nick]
        if text in shown:
            drawn[nick] = "".join(substitute(c) if c in INVISIBLE else c for c in nick)
        shown[text] = nick
    return drawn


@lru_cache(maxsize=256)
def size_for_cap(name: str, cap_px: float) -> int:
    """The smallest pixel size of a vendored font whose capitals are at least ``cap_px`` tall."""
    # Estimated from the font's proportions, then checked at that size: every size opened costs memory, so the
    # measuring face is not kept (each face maps its font file anew: 0.7 MB of the display process's memory).
    box = ImageFont.truetype(str(FONTS / name), 100, layout_engine=ImageFont.Layout.BASIC).getbbox("H", anchor="ls")
    size = max(4, math.ceil(cap_px * 100 / (box[3] - box[1])) - 1)
    while cap_height(font(name, size)) < cap_px:
        size += 1
    return size
