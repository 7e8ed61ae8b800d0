"""Which way to mount the panel for this club: the orientation whose board takes fewer pages.

``semedori render --advise``, the owner's tools page (through web/pictures.py) and the installer's question
all say the same, from real layouts of the club's own board.
"""

from __future__ import annotations

from display.profiles import ORIENTATIONS, Profile
from display.wall import WallData


def advice(data: WallData, chosen: Profile, mounted: str, language: str | None = None) -> list[str]:
    """Which way to mount the panel for this club: each size's pages both ways, then the orientation with fewer
    pages in all (a tie keeps the way it is mounted); in the club's language unless another is asked for."""
    from display.render import board_pages
    from kiosk.catalogue import translate

    language = language or data.language
    names = {"landscape": translate(language, "landscape"), "portrait": translate(language, "portrait")}
    totals = dict.fromkeys(ORIENTATIONS, 0)
    lines = []
    for size in data.sizes() or (13,):
        pages = {turn: board_pages(data, size, chosen, turn) for turn in ORIENTATIONS}
        for turn, count in pages.items():
            totals[turn] += count
        lines.append(
            translate(
                language,
                "{size}×{size}, pages: {landscape} in landscape, {portrait} in portrait",
                size=size,
                landscape=pages["landscape"],
                portrait=pages["portrait"],
            )
        )
    best = min(ORIENTATIONS, key=lambda turn: (totals[turn], turn != mounted))
    if totals["landscape"] == totals["portrait"]:
        lines.append(
            translate(language, "Either way the same pages: keep it in {orientation}.", orientation=names[mounted])
        )
    else:
        lines.append(
            translate(
                language,
                "Mount the {panel} panel in {orientation}: pages in all {pages}, {fewer} fewer.",
                panel=chosen.title or chosen.name,
                orientation=names[best],
                pages=totals[best],
                fewer=max(totals.values()) - totals[best],
            )
        )
    return lines
