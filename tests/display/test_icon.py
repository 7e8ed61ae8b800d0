"""The home-screen icon (display/icon.py): the files the web serves are this drawing."""

from __future__ import annotations

from io import BytesIO

from PIL import Image, ImageChops, ImageStat

from display.icon import STATIC, files, icon


def test_the_icon_files_the_web_serves_are_the_drawing_of_display_icon() -> None:
    # After a change of the drawing, `python -m display.icon` writes them again.
    for name, data in files().items():
        with Image.open(STATIC / name) as file:
            served = file.convert("RGB")
        drawn = Image.open(BytesIO(data)).convert("RGB")
        assert served.size == drawn.size, name
        difference = ImageStat.Stat(ImageChops.difference(served, drawn)).mean
        assert max(difference) < 2, name  # the same picture (a newer Pillow may round an edge differently)


def test_the_icon_reads_at_a_glance_a_dark_tile_a_paper_magnet_and_a_green_arrow() -> None:
    picture = icon(192)
    assert picture.getpixel((5, 5)) == (0x1A, 0x1A, 0x1A)  # the dark tile
    assert picture.getpixel((96, 150)) == (0xFF, 0xFD, 0xF7)  # the magnet, between its stones
    red, green, blue = picture.getpixel((96, 50))  # the arrow up
    assert green > 100 and red < 60 and blue < 80
