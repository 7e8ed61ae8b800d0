"""Printable award certificates (display/certificate.py): paper size, the nickname drawn, both languages."""

from __future__ import annotations

from datetime import datetime

import pytest
from PIL import Image, ImageChops

from display.certificate import certificate
from display.fonts import NICK, drawable, font
from display.paper import PaperError
from kiosk.awards import FIRST_EVEN, MOST_GAMES, MOST_IMPROVED, Award

NOVEMBER = (2026, 11)
ZOSIA = Award(MOST_IMPROVED, NOVEMBER, "Zosia", 5)


def changed(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int] | None:
    """The box where two pictures differ (None: identical)."""
    return ImageChops.difference(a, b).getbbox()


def dark(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """How many nearly black pixels a part of the picture has."""
    histogram = image.crop(box).convert("L").histogram()
    return sum(histogram[:80])


@pytest.mark.parametrize(("paper", "size"), [("A5", (2480, 1748)), ("A4", (3508, 2480)), ("a5", (2480, 1748))])
def test_a_certificate_is_the_papers_size_at_300_dpi_landscape(paper: str, size: tuple[int, int]) -> None:
    image = certificate(ZOSIA, "Semedori Go Club", "en", paper)
    assert image.size == size and image.mode == "RGB"
    assert certificate(ZOSIA, "Semedori Go Club", "en", "A5", dpi=150).size == (1240, 874)


@pytest.mark.parametrize("nick", ["Zosia", "小龍", "Kot 🐈", "Дмитрий", "Grzegorz Brzęczyszczykiewicz the Third"])
def test_the_nickname_is_drawn_in_the_middle_in_any_alphabet(nick: str) -> None:
    assert drawable(nick, font(NICK, 100)) == nick  # the fallback fonts have every character: no ‹codes›
    award = Award(MOST_GAMES, NOVEMBER, nick, 12)
    image = certificate(award, "Semedori Go Club", "en")
    other = certificate(Award(MOST_GAMES, NOVEMBER, "Ola", 12), "Semedori Go Club", "en")
    box = changed(image, other)
    assert box is not None
    width, height = image.size
    # Only the nickname's line differs: between "awarded to" and the reason, inside the frame.
    assert box[1] > height * 0.45 and box[3] < height * 0.68
    assert box[0] > width * 0.1 and box[2] < width * 0.9
    assert dark(image, box) > 2000  # large type, not a speck


def test_the_club_the_award_the_reason_and_the_month_are_on_it_in_both_languages() -> None:
    english = certificate(ZOSIA, "Semedori Go Club", "en")
    polish = certificate(ZOSIA, "Semedori Go Club", "pl")
    box = changed(english, polish)
    assert box is not None and box[1] < english.height * 0.4  # the award's name differs, high on the sheet
    other_club = certificate(ZOSIA, "Klub Go Bielsko", "en")
    assert changed(english, other_club)[3] < english.height * 0.25  # type: ignore[index]
    december = certificate(Award(MOST_IMPROVED, (2026, 12), "Zosia", 5), "Semedori Go Club", "en")
    assert changed(english, december)[1] > english.height * 0.65  # type: ignore[index]
    first = Award(FIRST_EVEN, NOVEMBER, "Iza", 1, opponent="Piotr", at=datetime(2026, 11, 20, 19))
    assert certificate(first, "Semedori Go Club", "pl").size == english.size


def test_a_certificate_on_paper_it_does_not_come_on_is_refused_clearly() -> None:
    with pytest.raises(PaperError, match="choose one of A5, A4"):
        certificate(ZOSIA, "Semedori Go Club", "en", "A1")
    with pytest.raises(PaperError, match="72 to 600 dpi"):
        certificate(ZOSIA, "Semedori Go Club", "en", "A5", dpi=5000)


def test_a_club_name_too_long_for_the_sheet_stays_inside_its_frame() -> None:
    long_name = "Uczniowski Klub Sportowy Go i Szachów Japońskich przy Szkole Podstawowej nr 12 w Bielsku-Białej"
    image = certificate(ZOSIA, long_name, "pl")
    box = changed(image, certificate(ZOSIA, "Klub", "pl"))
    assert box is not None
    assert box[0] > image.width * 0.1 and box[2] < image.width * 0.9  # inside the frames, cut with an ellipsis
