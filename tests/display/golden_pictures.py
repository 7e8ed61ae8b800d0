"""Reference pictures of the wall's test club, one per panel profile: ``python tests/display/golden_pictures.py``.

The golden test compares fresh renders with these files; regenerate them after a change
to the picture that is meant, and look at them before committing. (Test tooling: it lives
beside the test, not in the product a Pi installs.)
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image
from wall_clubs import demo_data, event_data, ruler_evening, tonight_data

from display.profiles import PROFILES, profile
from display.render import render
from display.wall import View

GOLDEN = Path(__file__).resolve().parent / "golden"
# Each profile's board, plus the other pages and portrait once, on the reference panel.
CASES: dict[str, tuple[str, View, str]] = {
    **{f"board-{name}": (name, View("board", 13), "landscape") for name in PROFILES},
    "board-impression-7.3-portrait": ("impression-7.3", View("board", 13), "portrait"),
    "handicap-9-impression-7.3": ("impression-7.3", View("handicap", 9), "landscape"),
    "handicap-19-impression-7.3": ("impression-7.3", View("handicap", 19), "landscape"),
    "week-impression-7.3": ("impression-7.3", View("week", 13), "landscape"),
    # The demo club takes two pages on the wHAT: the second one too, and the small panel's tables.
    "board-what-page-2": ("what", View("board", 13, 1), "landscape"),
    "handicap-13-what-portrait": ("what", View("handicap", 13), "portrait"),
    # Tonight's page: the demo's Thursday evening, fifteen players of four alphabets and emoji.
    "tonight-impression-7.3": ("impression-7.3", View("tonight", 13), "landscape"),
    "tonight-impression-7.3-page-2": ("impression-7.3", View("tonight", 13, 1), "landscape"),
    "tonight-impression-13.3": ("impression-13.3", View("tonight", 13), "landscape"),
    # Tonight's event: six of the evening's players in a double round-robin, and a Swiss of forty
    # (Polish, Cyrillic, CJK and emoji names) that takes pages on the 7.3" and one on the 13.3".
    "event-impression-7.3": ("impression-7.3", View("event", 13), "landscape"),
    "event-impression-13.3": ("impression-13.3", View("event", 13), "landscape"),
    "event-40-impression-7.3-page-2": ("impression-7.3", View("event", 13, 1), "landscape"),
    "event-40-impression-13.3": ("impression-13.3", View("event", 13), "landscape"),
    # Tonight's ruler, the first page while the club is open: 25 players of four alphabets and emoji, in Polish.
    "ruler-25-impression-7.3": ("impression-7.3", View("ruler", 13), "landscape"),
    "ruler-25-impression-13.3": ("impression-13.3", View("ruler", 13), "landscape"),
}


def picture(case: str) -> Image.Image:
    """A golden case rendered now."""
    name, view, orientation = CASES[case]
    if view.page == "ruler":
        return render(ruler_evening(25, "pl"), view, profile(name), orientation)
    if view.page == "event":
        return render(event_data(count=40 if case.startswith("event-40-") else 6), view, profile(name), orientation)
    return render(tonight_data() if view.page == "tonight" else demo_data(), view, profile(name), orientation)


def main(folder: Path = GOLDEN) -> int:
    """Write every golden picture."""
    folder.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        path = folder / f"{case}.png"
        picture(case).save(path, optimize=True)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
