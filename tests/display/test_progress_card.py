"""A child's progress card (display/progress_card.py): A5 at print resolution, the label, the chart, the words."""

from __future__ import annotations

from datetime import datetime

from display.progress_card import progress_card
from kiosk.awards import Award
from kiosk.progress import Milestone, Progress

CARD = Progress(
    nick="Łucja Kowalska",
    label="Ł.K.",
    size=13,
    start=datetime(2026, 9, 1),
    now=datetime(2026, 11, 30),
    steps=((datetime(2026, 9, 1), 40), (datetime(2026, 9, 8), 44), (datetime(2026, 10, 6), 52)),
    games=9,
    wins=6,
    milestones=(Milestone(datetime(2026, 10, 6), "best", "13"),),
    awards=(Award("improved", (2026, 10), "Łucja Kowalska", 3),),
)


def _greens(image) -> int:  # the chart's line and the frame are the card's green
    return sum(n for n, (r, g, b) in image.getcolors(maxcolors=1 << 20) or () if g > 100 and r < 60 and b < 90)


def test_the_card_is_a5_landscape_at_300_dpi_with_its_chart() -> None:
    image = progress_card(CARD, "Klub Go Semedori", "pl")
    assert image.size == (2480, 1748) and image.mode == "RGB"
    flat = progress_card(Progress(**{**CARD.__dict__, "steps": ((datetime(2026, 9, 1), 40),)}), "Klub", "pl")
    assert _greens(image) > _greens(flat)  # the climb is drawn: more line than a flat season


def test_an_empty_season_still_prints() -> None:
    empty = Progress(**{**CARD.__dict__, "steps": (), "milestones": (), "awards": (), "games": 0, "wins": 0})
    assert progress_card(empty, "Klub", "en").size == (2480, 1748)
