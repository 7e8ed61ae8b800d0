"""Pages, page fill and cut names of the board for the clubs of 30, 120 and 250 magnets, on every panel (real renders).

The clubs are ``survey_club`` (tests/display/wall_clubs.py): 30, 120 and 250 magnets on 13x13, names in Polish,
Cyrillic, CJK and emoji, a repeated name told apart by an initial or a number, 40 on field 20
(a third of the 30 club). Every page is drawn as the wall draws it and read back from the
layout report. ``python bench/bench_pages.py --write`` puts the table into docs/panels.md between
its markers (and the wall's pictures into README.md); the table is never written by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "display"))  # the wall's test clubs

from wall_clubs import SURVEY_SIZES, survey_club

from display import columns
from display.profiles import NAME_CAP_MM, ORIENTATIONS, PROFILES, profile
from display.render import board_report

README = Path(__file__).resolve().parent.parent / "README.md"  # the pictures
START, END = "<!-- pages-table: bench/bench_pages.py --write -->", "<!-- pages-table end -->"
PICTURES = ("<!-- wall-pictures: bench/bench_pages.py --write -->", "<!-- wall-pictures end -->")
NUMBERS = ("one", "two", "three", "four", "five", "six", "seven", "eight")
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
    """docs/panels.md's table of panels: pages per club (landscape / portrait), page fill, names cut."""
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


def pictures(folder: Path) -> str:
    """The README's pictures of the 120 club on the 7.3" panel, drawn into ``folder`` (docs/), and their words."""
    from display.panels import PngPanel
    from display.render import board_layout, header_box

    panel = profile("impression-7.3")
    data = survey_club(120)
    pages = board_report(data, 13, panel)
    from display.canvas import Canvas

    canvas = Canvas(panel, panel.canvas())
    plan, _, _ = board_layout(data, 13, canvas, header_box(canvas)[1])
    assert plan is not None
    for old in folder.glob("wall-7.3-120-magnets-*.png"):
        old.unlink()
    lines = [
        'The wall on a 7.3" Inky Impression, for a club of 120 magnets on 13x13 (names in Polish,',
        "Cyrillic, CJK and emoji, a repeated name told apart by an initial or a number, 40 of them",
        f"on field 20). Names are 3 mm tall, readable from about 2 m, so the board takes {NUMBERS[len(pages) - 1]}",
        "pages; button A (or, every 10 minutes, the wall by itself) turns them:",
        "",
    ]
    for number, ((image, _), page) in enumerate(zip(pages, plan.pages, strict=True), start=1):
        name = f"wall-7.3-120-magnets-{number}.png"
        assert image is not None
        PngPanel(folder / name, panel).show(image)
        lines.append(f"![Page {number} of {len(pages)}: strengths {page.span}](docs/{name})")
    return "\n".join(lines)


def write(readme: Path = README, draw: bool = True) -> None:
    """Put the pictures (drawn into docs/) into the README and the table into docs/panels.md, between their markers."""
    page = readme.parent / "docs" / "panels.md"
    for path, (start, end), block in (
        (page, (START, END), table(draw)),
        (readme, PICTURES, pictures(readme.parent / "docs")),
    ):
        text = path.read_text(encoding="utf-8")
        head, rest = text.split(start, 1)
        _, tail = rest.split(end, 1)
        path.write_text(f"{head}{start}\n{block}\n{end}{tail}", encoding="utf-8")


def times() -> str:
    """How long each club's board takes to lay out and draw, every page, per panel and orientation (seconds)."""
    import time

    rows = [
        "| panel | orientation | " + " | ".join(f"{n} magnets" for n in SURVEY_SIZES) + " |",
        "|---|---|---|---|---|",
    ]
    for name in PANELS:
        for orientation in ORIENTATIONS:
            cells = []
            for count in SURVEY_SIZES:
                data = survey_club(count)
                start = time.perf_counter()
                pages = board_report(data, 13, profile(name), orientation)
                cells.append(f"{time.perf_counter() - start:.2f} s ({len(pages)} pages)")
            rows.append(f"| {name} | {orientation} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def main() -> int:
    """Print the table, or write it into docs/panels.md (and the pictures into README.md) with --write; with
    --times also how long each board takes to draw (not written: it depends on the machine)."""
    if "--write" in sys.argv:
        write()
    print(table(draw="--write" not in sys.argv))
    if "--times" in sys.argv:
        print(times())
    return 0


if __name__ == "__main__":
    sys.exit(main())
