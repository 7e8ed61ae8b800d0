"""Pages, page fill and cut names of the board for the clubs issue 23 measures, on every panel (real renders).

The clubs are ``display.demo.survey_club``: 30, 120 and 250 magnets on 13x13, names in Polish,
Cyrillic, CJK and emoji, a repeated name told apart by an initial or a number, 40 on field 20
(a third of the 30 club). Every page is drawn as the wall draws it and read back from the
layout report. ``python bench/bench_pages.py --write`` puts the table into README.md between
its markers; the README's table is never written by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from display import columns
from display.demo import SURVEY_SIZES, survey_club
from display.profiles import NAME_CAP_MM, ORIENTATIONS, PROFILES, profile
from display.render import board_report

README = Path(__file__).resolve().parent.parent / "README.md"
START, END = "<!-- pages-table: bench/bench_pages.py --write -->", "<!-- pages-table end -->"
PANELS = ("impression-13.3", "impression-7.3", "impression-5.7", "impression-4", "what")


def measure(name: str, count: int, orientation: str, draw: bool = True) -> tuple[int, list[float], int]:
    """The pages of a club's board on a panel: how many, each one's fill, and names not drawn whole."""
    panel = profile(name)
    pages = board_report(survey_club(count), 13, panel, orientation, draw=draw)
    picture = panel.canvas(orientation)
    fills = [columns.fill(labels, picture) for _, labels in pages]
    cut = sum(1 for _, labels in pages for label in labels if "".join(label["lines"]) != label["text"])  # type: ignore[arg-type]
    return len(pages), fills, cut


def table(draw: bool = True) -> str:
    """The README's table of panels: pages per club (landscape / portrait), page fill, names cut."""
    rows = [
        "| panel | dpi | name height | pages for " + " / ".join(str(n) for n in SURVEY_SIZES) + " magnets "
        "(landscape, portrait) | page fill (labels / page) | names cut |",
        "|---|---|---|---|---|---|",
    ]
    for name in PANELS:
        panel = profile(name)
        counts, fills, cut = [], [], 0
        for count in SURVEY_SIZES:
            found = [measure(name, count, orientation, draw) for orientation in ORIENTATIONS]
            counts.append("/".join(str(pages) for pages, _, _ in found))
            fills += [fill for _, page_fills, _ in found for fill in page_fills]
            cut += sum(names for _, _, names in found)
        from display.fonts import NICK, cap_height, font

        height = panel.px_to_mm(cap_height(font(NICK, panel.nick_px)))
        rows.append(
            f"| {PROFILES[name].title} | {panel.dpi:.0f} | {max(height, NAME_CAP_MM):.1f} mm | "
            f"{' · '.join(counts)} | {min(fills):.0%}–{max(fills):.0%} | {cut} |"
        )
    return "\n".join(rows)


def write(readme: Path = README, draw: bool = True) -> None:
    """Put the table into the README between its markers."""
    text = readme.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(f"{head}{START}\n{table(draw)}\n{END}{tail}", encoding="utf-8")


def main() -> int:
    """Print the table, or write it into README.md with --write."""
    if "--write" in sys.argv:
        write()
    print(table(draw="--write" not in sys.argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
