"""The kiosk's home-screen icon: a magnet of the board moving up one field, in the phone pages' inks.

Drawn here because Pillow lives in display/; the web serves the PNG and ICO files written from it
(``web/static/icon-*.png``, ``favicon.ico``) as static files, so the web app needs no Pillow for them.
``python -m display.icon`` writes them again after a change; a test keeps the files and this drawing one.
"""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

from PIL import Image, ImageDraw

INK, PAPER, OK = "#1a1a1a", "#fffdf7", "#187838"  # web/static/app.css: --ink, --paper, --ok
SIZES = (180, 192, 512)  # apple-touch-icon, and the two the web app manifest asks for
FAVICON_SIZES = ((16, 16), (32, 32), (48, 48))
STATIC = Path(__file__).resolve().parent.parent / "web" / "static"


def icon(size: int) -> Image.Image:
    """The icon, ``size`` pixels square: a dark tile, a paper magnet, a black and a white stone, an arrow up."""
    scale = 4  # drawn large and shrunk, for smooth edges without anti-aliasing of our own
    side = size * scale
    picture = Image.new("RGB", (side, side), INK)
    draw = ImageDraw.Draw(picture)

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        return (round(x0 * side), round(y0 * side), round(x1 * side), round(y1 * side))

    # The magnet: a paper label, as on the wall.
    draw.rounded_rectangle(box(0.12, 0.42, 0.88, 0.84), radius=round(0.06 * side), fill=PAPER)
    # A black and a white stone on it (the white one outlined in ink, as on a board).
    draw.ellipse(box(0.20, 0.50, 0.46, 0.76), fill=INK)
    draw.ellipse(box(0.54, 0.50, 0.80, 0.76), fill=PAPER, outline=INK, width=max(1, round(0.025 * side)))
    # The arrow up: the magnet moves up a field after a win.
    draw.polygon([(0.5 * side, 0.08 * side), (0.74 * side, 0.34 * side), (0.26 * side, 0.34 * side)], fill=OK)
    return picture.resize((size, size), Image.Resampling.LANCZOS)


def png(size: int) -> bytes:
    """The icon as PNG bytes."""
    out = BytesIO()
    icon(size).save(out, format="PNG", optimize=True)
    return out.getvalue()


def favicon() -> bytes:
    """The icon as a Windows ICO with the sizes a browser tab and a bookmark use."""
    out = BytesIO()
    icon(FAVICON_SIZES[-1][0]).save(out, format="ICO", sizes=list(FAVICON_SIZES))
    return out.getvalue()


def files() -> dict[str, bytes]:
    """Every icon file the web serves, by its name in web/static/."""
    made = {f"icon-{size}.png": png(size) for size in SIZES}
    made["favicon.ico"] = favicon()
    return made


def main() -> None:
    """Write the icon files into web/static/."""
    for name, data in files().items():
        (STATIC / name).write_bytes(data)


if __name__ == "__main__":
    main()
