"""The printable board (display/printed.py, ``semedori render --print``): paper size, every magnet, clear refusals."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from PIL.PdfParser import PdfName, PdfParser
from wall_clubs import big_club, demo_data

from display import cli
from display.cli import render_command
from display.paper import paper
from display.printed import print_profile, printed_board, tables_fit
from display.profiles import NAME_CAP_MM
from display.wall import from_source
from kiosk.events import nick_key, parse_line
from kiosk.scale import fields
from kiosk.store import Store

DEMO = demo_data()


def render_print(*args: str) -> tuple[int, str]:
    """``semedori render --demo`` with the wall's fixed test club as the demo (the tests check against DEMO)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli, "demo_data", lambda: DEMO)
        result = CliRunner().invoke(render_command, ["--demo", *args])
    return result.exit_code, result.output


def check_every_magnet_once(data, size: int, report: dict) -> None:
    """Each magnet of the size is on exactly one sheet, on its own field, its label inside the paper; none overlap."""
    labels = [label for page in report["pages"] for label in page["magnets"]]
    expected = sorted(nick_key(m.nick) for m in data.on_size(size))
    assert sorted(nick_key(label["nick"]) for label in labels) == expected
    fields = {m.nick: m.strength / 4 for m in data.on_size(size)}
    for page in report["pages"]:
        boxes = [label["box"] for label in page["magnets"]]
        for label in page["magnets"]:
            assert float(label["field"]) == fields[label["nick"]]
            x0, y0, x1, y1 = label["box"]
            assert 0 <= x0 < x1 < report["width"] and 0 <= y0 < y1 < report["height"]
        for index, a in enumerate(boxes):
            for b in boxes[index + 1 :]:
                assert a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1], (a, b)


def test_an_a1_print_has_the_papers_pixels_at_150_dpi_and_every_magnet(tmp_path: Path) -> None:
    code, output = render_print("--print", "A1", "--out", str(tmp_path))
    assert code == 0, output
    report = json.loads((tmp_path / "layout.json").read_text(encoding="utf-8"))
    assert (report["paper"], report["dpi"], report["width"], report["height"]) == ("A1", 150, 3508, 4967)
    assert len(report["pages"]) == 1  # the demo club, its tables and the grades on one sheet
    with Image.open(tmp_path / report["pages"][0]["file"]) as image:
        assert image.size == (3508, 4967)  # 594 × 841 mm at 150 dpi
        assert round(image.info["dpi"][0]) == 150  # the printer prints it at its real size
    check_every_magnet_once(DEMO, 13, report)
    assert printed_board(DEMO, 13, "A1").scale == set(fields())  # every field of the scale, 0 to 56
    # Names are larger than the wall's 3 mm minimum: a poster is read from a few steps away.
    assert report["pages"][0]["magnets"][0]["cap_height_px"] / 150 * 25.4 > 2 * NAME_CAP_MM


@pytest.mark.parametrize(
    ("name", "dpi", "size"),
    [("A2", None, (3307, 4677)), ("a3", "100", (1169, 1654)), ("A4", None, (2480, 3508)), ("A1", "72", (1684, 2384))],
)
def test_every_paper_at_its_dpi(tmp_path: Path, name: str, dpi: str | None, size: tuple[int, int]) -> None:
    out = tmp_path / "board.png"
    code, output = render_print("--print", name, *(["--dpi", dpi] if dpi else []), "--out", str(out))
    assert code == 0, output
    with Image.open(out if out.exists() else tmp_path / "board-1.png") as image:
        assert image.size == size


def test_a_pdf_has_a_page_per_sheet_of_the_papers_size(tmp_path: Path) -> None:
    out = tmp_path / "board.pdf"
    code, output = render_print("--print", "A4", "--out", str(out))
    assert code == 0, output
    assert out.read_bytes().startswith(b"%PDF")
    parser = PdfParser(buf=out.read_bytes())
    assert len(parser.pages) == len(printed_board(DEMO, 13, "A4").images) == 2  # the tables on a sheet of their own
    for page in parser.pages:  # points: 210 × 297 mm
        _, _, width, height = parser.read_indirect(page)[PdfName(b"MediaBox")]
        assert abs(width - 210 / 25.4 * 72) < 1 and abs(height - 297 / 25.4 * 72) < 1
    parser.close()


@pytest.mark.parametrize("name", ["A2", "A4"])
def test_an_empty_board_still_prints_the_whole_scale_for_the_magnets_to_come(name: str) -> None:
    board = printed_board(DEMO, 19, name)  # the demo club has nobody on 19x19
    assert board.scale == set(fields()) and not any(board.report)
    assert len(board.images) == (1 if name == "A2" else 2)  # A4: the tables on a sheet of their own


def test_small_paper_gives_the_tables_a_sheet_of_their_own_large_paper_has_them_under_the_columns() -> None:
    for name, under in (("A1", True), ("A4", False)):
        sheet = paper(name)
        profile = print_profile(sheet)
        w, h = profile.canvas("portrait")
        strip = (0, round(h * 0.75), w, h)
        assert tables_fit(DEMO, 13, strip, profile, sheet) is under


def test_a_250_magnet_club_on_a4_goes_on_over_sheets_and_nobody_is_left_out(tmp_path: Path) -> None:
    data = big_club(250)
    board = printed_board(data, 13, "A4")
    report = {"width": 2480, "height": 3508, "pages": [{"magnets": list(labels)} for labels in board.report]}
    assert len(board.images) >= 2
    check_every_magnet_once(data, 13, report)
    # Many more names than on the demo: the wall's minimum type, never smaller, and more sheets instead.
    assert min(label["cap_height_px"] for labels in board.report for label in labels) / 300 * 25.4 >= NAME_CAP_MM


def test_the_print_reads_the_clubs_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMEDORI_HOME", str(tmp_path))
    (tmp_path / "semedori.toml").write_text('[club]\nname = "Klub Go Semedori"\n', encoding="utf-8")
    with Store.open(tmp_path) as store:
        for nick, strength in (("Żaneta", 20), ("小龍", 33.5), ("Kot 🐈", 47.25)):
            store.record(
                parse_line(
                    json.dumps(
                        {
                            "type": "player",
                            "at": "2026-11-02T18:00",
                            "nick": nick,
                            "size": 9,
                            "status": "member",
                            "strength": strength,
                        }
                    )
                )
            )
        data = from_source(store, datetime(2026, 11, 26, 20, 0))
    out = tmp_path / "print"
    result = CliRunner().invoke(render_command, ["--size", "9", "--print", "A3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "layout.json").read_text(encoding="utf-8"))
    assert (report["width"], report["height"]) == (3508, 4961)
    check_every_magnet_once(data, 9, report)
    assert {label["text"] for label in report["pages"][0]["magnets"]} == {"Żaneta", "小龍", "Kot 🐈"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--print", "B4"], "unknown paper 'B4'; choose one of A1, A2, A3, A4"),
        (["--print", "A5"], "choose one of A1, A2, A3, A4"),
        (["--print", ""], "unknown paper"),
        (["--print", "A1", "--dpi", "300"], "A1 at 300 dpi is more pixels than a Pi's memory holds; use --dpi 200"),
        (["--print", "A4", "--dpi", "20"], "72 to 600 dpi"),
        (["--dpi", "150"], "--dpi goes with --print"),
    ],
)
def test_bad_paper_gets_a_clear_message_and_writes_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "out"
    code, output = render_print(*args, "--out", str(out))
    assert code == 1 and message in output and "Traceback" not in output
    assert not out.exists()
