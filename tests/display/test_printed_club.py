"""The club's own board for a magnetic board: any size in millimetres, label slots, tables, rules.

Measured on the drawing's own report (every field's slots in pixels) and on the PDF's pages.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from PIL.PdfParser import PdfName, PdfParser
from wall_clubs import demo_data

from display import cli, printed
from display.canvas import Canvas
from display.cli import render_command
from display.paper import PaperError
from display.printed import DOUBLE_BELOW, LABEL_MM, RULES, club_board, club_sheet, rules_texts
from display.profiles import PROFILES
from kiosk.catalogue import translate
from kiosk.config import Config
from kiosk.scale import QUARTERS, fields

DEMO = demo_data()
MM_PER_INCH = 25.4


def render(*args: str) -> tuple[int, str]:
    """``semedori render --demo`` with the wall's fixed test club as the demo (the tests check against DEMO)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli, "demo_data", lambda: DEMO)
        result = CliRunner().invoke(render_command, ["--demo", *args])
    return result.exit_code, result.output


def test_the_club_board_is_660_by_950_mm_and_every_field_has_a_slot_for_a_50_by_25_mm_label() -> None:
    board = club_board(DEMO, 13, "club", dpi=72)
    sheet = board.sheet
    assert (sheet.width_mm, sheet.height_mm) == (660, 950)
    (image,) = board.images
    assert image.size == (round(660 / MM_PER_INCH * 72), round(950 / MM_PER_INCH * 72))
    (report,) = board.report
    assert board.scale == frozenset(fields(DEMO.top)) and len(report) == 115  # every field, 0 to 56
    label_w, label_h = (round(mm / MM_PER_INCH * 72) for mm in LABEL_MM)
    boxes = []
    for field in report:
        q = round(field["field"] * QUARTERS)
        assert field["double"] == (q < DOUBLE_BELOW)  # the beginners' fields hold two labels
        for x0, y0, x1, y1 in field["slots"]:
            assert (x1 - x0, y1 - y0) == (label_w, label_h)
            assert x0 >= 0 and x1 <= image.width and y0 >= 0 and y1 <= image.height
            boxes.append((x0, y0, x1, y1))
    for i, a in enumerate(boxes):  # no two slots overlap: two labels never cover each other
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    # strongest first, down the first column
    assert report[0]["field"] == 56 and report[-1]["field"] == 0


def test_any_size_in_millimetres_and_a_clear_message_when_labels_do_not_fit() -> None:
    sheet = club_sheet("700x1000")
    assert (sheet.width_mm, sheet.height_mm, sheet.dpi) == (700, 1000, 150)
    assert club_sheet("660 × 950 mm").name == club_sheet("club").name == "660x950mm"
    with pytest.raises(PaperError, match="too small for every field with 50 x 25 mm labels"):
        club_board(DEMO, 13, "300x400", dpi=72)
    with pytest.raises(PaperError, match="choose one of A1, A2, A3, A4, club"):
        club_sheet("660 by 950")
    with pytest.raises(PaperError, match="more pixels than a Pi's memory holds"):
        club_sheet("club", 400)


def test_the_tables_go_the_right_way_round_and_the_rules_are_in_the_clubs_language() -> None:
    # The words the sheet prints, in English and Polish: the tables' heads and their continuation, the rules.
    heads = translate("pl", "Handicap {size}×{size}: row = Black's starting moves, column = prisoners", size=13)
    assert heads.startswith("Wyrównanie 13×13: wiersz = ruchy startowe Czarnego")
    more = translate(
        "pl", "and so on: one more starting move every {every} of difference; red: training game", every="2,6"
    )
    assert "co 2,6" in more
    assert all(translate("pl", rule) != rule for rule in RULES)
    # On the sheet: every size's table drawn in red where the training game starts (pixels of the red ink).
    board = club_board(DEMO, 9, "club", dpi=72)
    image = board.images[0].convert("RGB")
    strip = image.crop((0, int(image.height * 0.76), int(image.width * 0.42), image.height))
    reds = sum(n for n, (r, g, b) in strip.getcolors(maxcolors=1 << 16) or () if r > 150 and g < 80 and b < 80)
    assert reds > 200


def test_render_print_club_writes_a_pdf_page_of_the_clubs_size_and_a_png(tmp_path: Path) -> None:
    pdf = tmp_path / "board.pdf"
    code, output = render("--print", "club", "--dpi", "72", "--out", str(pdf))
    assert code == 0, output
    parser = PdfParser(buf=pdf.read_bytes())
    (page,) = parser.pages
    _, _, width, height = parser.read_indirect(page)[PdfName(b"MediaBox")]
    assert abs(width - 660 / MM_PER_INCH * 72) < 1 and abs(height - 950 / MM_PER_INCH * 72) < 1
    parser.close()
    png = tmp_path / "board.png"
    code, output = render("--print", "800x1000", "--dpi", "72", "--out", str(png))
    assert code == 0, output
    with Image.open(png) as picture:
        assert picture.size == (round(800 / MM_PER_INCH * 72), round(1000 / MM_PER_INCH * 72))
    code, output = render("--print", "100x100", "--out", str(tmp_path / "x.pdf"))
    assert code == 1 and "choose one of" in output and "Traceback" not in output
    assert not (tmp_path / "x.pdf").exists()


# accel: the printed rules are docs/rules.md's section "The rules on the printed board", word for word
DOCS_RULES = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")


def documented_rules(language: str) -> list[str]:
    """The numbered list after ``<!-- checked: board-rules LANGUAGE -->`` in docs/rules.md."""
    marker = f"<!-- checked: board-rules {language} -->"
    assert DOCS_RULES.count(marker) == 1
    found = []
    for line in DOCS_RULES.split(marker, 1)[1].strip().splitlines():
        if not line.strip():
            break
        found.append(line.strip())
    return found


class Recording(Canvas):
    """A canvas that keeps every text as it is drawn (after any cut with an ellipsis)."""

    def drawn_text(
        self, xy: tuple[float, float], text: str, face: object, ink: str = "black", anchor: str = "la"
    ) -> float:
        self.drawn = [*getattr(self, "drawn", []), text]
        return super().drawn_text(xy, text, face, ink, anchor)  # type: ignore[arg-type]


@pytest.mark.parametrize(("language", "title"), [("en", "Rules"), ("pl", "Zasady")])
def test_the_sheet_prints_the_rules_of_docs_in_the_clubs_language(
    language: str, title: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    documented = documented_rules(language)
    assert len(documented) == len(RULES)
    data = replace(DEMO, language=language, size_rules=dict(Config().size_rules))
    assert [f"{n}. {text}" for n, text in enumerate(rules_texts(data), start=1)] == documented
    # What the sheet draws: the title, then every rule whole, broken only at its spaces, none cut.
    canvases: list[Recording] = []

    def recording(profile: object, size: tuple[int, int], sheet: object) -> Canvas:
        canvas = Recording(profile, size)  # type: ignore[arg-type]
        canvas.scale = sheet.dpi / PROFILES["impression-7.3"].dpi  # type: ignore[attr-defined]
        canvases.append(canvas)
        return canvas

    monkeypatch.setattr(printed, "sheet_canvas", recording)
    club_board(data, 13, "club", dpi=72)
    drawn = canvases[0].drawn
    assert not [text for text in drawn if "…" in text]
    after = drawn[drawn.index(title) + 1 :]
    assert " ".join(after).startswith(" ".join(documented))
