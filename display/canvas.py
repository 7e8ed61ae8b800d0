"""A palette picture to draw on: only the panel's own inks, text never anti-aliased."""

from __future__ import annotations

from functools import lru_cache

import segno
from PIL import Image, ImageDraw

from display.fonts import REGULAR, Font, drawable, font, runs, shorten, width
from display.profiles import NAME_CAP_MM, SMALLEST_CAP_MM, Profile

Box = tuple[int, int, int, int]


class Canvas:
    """A 'P' image holding exactly the panel's inks, and the few shapes the wall draws."""

    def __init__(self, profile: Profile, size: tuple[int, int]) -> None:
        self.profile = profile
        self.width, self.height = size
        self.scale = profile.scale
        self.image = Image.new("P", size, 0)
        self.image.putpalette(profile.palette())
        self.draw = ImageDraw.Draw(self.image)
        # Anti-aliased edges would need inks the panel does not have (and would be dithered).
        self.draw.fontmode = "1"
        # Every text drawn, as (its line box, its face): tests check that no two touch and none is too small.
        self.texts: list[tuple[Box, Font]] = []

    def px(self, value: float, floor: int = 1) -> int:
        """A length of the 7.3" design in this panel's pixels."""
        return max(floor, round(value * self.scale))

    def face(self, name: str, millimetres: float = NAME_CAP_MM) -> Font:
        """A vendored font whose capitals are ``millimetres`` tall on this panel (3 mm: as large as names)."""
        return font(name, self.profile.text_px(name, millimetres))

    def ink(self, name: str) -> int:
        """The palette index of an ink (black where the panel lacks it)."""
        return self.profile.ink(name)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        face: Font,
        ink: str = "black",
        room: float | None = None,
        anchor: str = "la",
    ) -> float:
        """Draw text (cut with an ellipsis to ``room``, fallback fonts for what the face lacks); return its width."""
        text = drawable(text, face)
        if room is not None:
            text = shorten(text, face, room)
        return self.drawn_text(xy, text, face, ink, anchor)

    def drawn_text(
        self, xy: tuple[float, float], text: str, face: Font, ink: str = "black", anchor: str = "la"
    ) -> float:
        """Draw a text already made drawable and short enough, run by run; return its width."""
        total = width(text, face)
        ascent, descent = face.getmetrics()
        x, y = xy
        x -= {"l": 0, "m": total / 2, "r": total}[anchor[0]]
        baseline = {"a": y + ascent, "t": y + ascent, "s": y, "d": y - descent, "m": y + (ascent - descent) / 2}[
            anchor[1]
        ]
        fill = self.ink(ink)
        for part, run_face in runs(text, face):
            # The fallbacks (CJK, hangul, emoji) have no bold: beside bold Latin their 1-px strokes fade at 2 m, so
            # they are drawn four times a pixel apart (every stroke 2 px, as heavy as the Latin, no blot).
            heavy = run_face is not face and is_bold(face)
            for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1)) if heavy else ((0, 0),):
                self.draw.text((x + dx, baseline + dy), part, font=run_face, fill=fill, anchor="ls")
            x += run_face.getlength(part)
        if text.strip():  # the line's box: its width, from the ascent to the descent
            self.texts.append(((round(x - total), round(baseline - ascent), round(x), round(baseline + descent)), face))
        return total

    def box(self, box: Box, fill: str | None = None, outline: str | None = None, line: int = 1) -> None:
        """A filled and/or framed rectangle."""
        self.draw.rectangle(
            box,
            fill=None if fill is None else self.ink(fill),
            outline=None if outline is None else self.ink(outline),
            width=line,
        )

    def dashed_box(self, box: Box, ink: str, line: int, dash: int) -> None:
        """A rectangle with a dashed frame (how the wall marks a guest's magnet)."""
        x0, y0, x1, y1 = box
        colour = self.ink(ink)
        for x in range(x0, x1 + 1, 2 * dash):
            end = min(x + dash - 1, x1)
            self.draw.rectangle((x, y0, end, y0 + line - 1), fill=colour)
            self.draw.rectangle((x, y1 - line + 1, end, y1), fill=colour)
        for y in range(y0, y1 + 1, 2 * dash):
            end = min(y + dash - 1, y1)
            self.draw.rectangle((x0, y, x0 + line - 1, end), fill=colour)
            self.draw.rectangle((x1 - line + 1, y, x1, end), fill=colour)

    def hatch(self, box: Box, ink: str, step: int, line: int) -> None:
        """Diagonal hatching inside a box (a column's pattern on a black-and-red panel)."""
        x0, y0, x1, y1 = box
        colour = self.ink(ink)
        height = y1 - y0
        for start in range(x0 - height, x1 + 1, step):
            # The 45° line (start + t, y1 - t), clipped to the box.
            low, high = max(0, x0 - start), min(height, x1 - start)
            if low <= high:
                self.draw.line((start + low, y1 - low, start + high, y1 - high), fill=colour, width=line)

    def hline(self, x0: int, x1: int, y: int, ink: str = "black", line: int = 1) -> None:
        """A horizontal rule."""
        self.draw.rectangle((x0, y, x1, y + line - 1), fill=self.ink(ink))

    def qr(self, data: str, box: Box) -> int:
        """Draw a QR code as large as fits in the box, centred at its top; return its side."""
        matrix = _qr_matrix(data)
        modules = len(matrix)
        room = min(box[2] - box[0], box[3] - box[1])
        module = max(1, room // modules)
        side = module * modules
        left = box[0] + (box[2] - box[0] - side) // 2
        top = box[1]
        self.draw.rectangle((left, top, left + side - 1, top + side - 1), fill=self.ink("white"))
        black = self.ink("black")
        for row, bits in enumerate(matrix):
            for column, dark in enumerate(bits):
                if dark:
                    x, y = left + column * module, top + row * module
                    self.draw.rectangle((x, y, x + module - 1, y + module - 1), fill=black)
        return side


@lru_cache(maxsize=64)
def is_bold(face: Font) -> bool:
    """True for the wall's bold faces (names, field numbers, headers)."""
    return "Bold" in str(getattr(face, "path", ""))


@lru_cache(maxsize=4)
def qr_modules(data: str) -> int:
    """How many modules a side the QR code of ``data`` has (its quiet zone included)."""
    return len(_qr_matrix(data))


def _qr_matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code's modules with a quiet zone of two (the address rarely changes: make it once)."""
    code = segno.make(data, error="m", micro=False)
    return tuple(tuple(bool(bit) for bit in row) for row in code.matrix_iter(scale=1, border=2))


def small_face(canvas: Canvas) -> Font:
    """The smallest type of the wall (dates, notes): 2 mm capitals."""
    return canvas.face(REGULAR, SMALLEST_CAP_MM)
