"""The two commands: ``semedori render`` once into a file, ``semedori display --once`` on a PNG panel."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from display.cli import display_command, render_command
from kiosk.events import parse_line
from kiosk.store import Store


def test_render_writes_the_demo_board_for_a_panel(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    result = CliRunner().invoke(
        render_command, ["--size", "13", "--panel", "impression-7.3", "--demo", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    with Image.open(out) as image:
        assert image.size == (800, 480)
        assert image.mode == "P"


def test_render_demo_draws_the_club_semedori_demo_makes(tmp_path: Path) -> None:
    """--demo draws kiosk/demo.py's club, the one ``semedori demo`` fills a folder with and ``make run`` shows."""
    from kiosk import demo

    out = tmp_path / "wall"
    result = CliRunner().invoke(
        render_command, ["--size", "9", "--panel", "impression-7.3", "--demo", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    report = json.loads((out / "layout.json").read_text(encoding="utf-8"))
    drawn = sorted(label["nick"] for page in report["pages"] for label in page["magnets"])
    assert drawn == sorted(nick for nick, _, sizes, _ in demo.PLAYERS if 9 in sizes)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SEMEDORI_HOME", str(tmp_path))
    (tmp_path / "semedori.toml").write_text(
        '[club]\nname = "Klub Go Semedori"\n\n[display]\npanel = "png"\npng_path = "wall/board.png"\n', encoding="utf-8"
    )
    with Store.open(tmp_path) as store:
        store.record(
            parse_line(
                json.dumps(
                    {
                        "type": "player",
                        "at": "2026-11-02T18:00",
                        "nick": "Ola",
                        "size": 9,
                        "status": "member",
                        "strength": 20,
                    }
                )
            )
        )
    return tmp_path


def test_render_reads_the_data_folder(home: Path) -> None:
    out = home / "preview.png"
    result = CliRunner().invoke(
        render_command, ["--size", "9", "--panel", "what", "--out", str(out), "--orientation", "portrait"]
    )
    assert result.exit_code == 0, result.output
    with Image.open(out) as image:
        assert image.size == (300, 400)


def test_display_once_draws_the_wall_into_its_png_file(home: Path) -> None:
    result = CliRunner().invoke(display_command, ["--once"])
    assert result.exit_code == 0, result.output
    with Image.open(home / "wall" / "board.png") as image:
        assert image.size == (800, 480)


def test_a_bad_setting_is_one_clear_line(home: Path) -> None:
    (home / "semedori.toml").write_text('[display]\npanel = "impression-9"\n', encoding="utf-8")
    result = CliRunner().invoke(display_command, ["--once"])
    assert result.exit_code == 1
    assert "display.panel" in result.output


def test_every_command_has_help() -> None:
    for command in (render_command, display_command):
        assert command.help
        assert CliRunner().invoke(command, ["--help"]).exit_code == 0


def test_a_detected_13_3_gets_button_c_on_gpio25_by_itself(caplog: pytest.LogCaptureFixture) -> None:
    """panel = "auto" on a 13.3": GPIO16 is its chip select 1, so C must not take it."""
    from gpiozero import Button, Device
    from gpiozero.pins.mock import MockFactory
    from inky.eeprom import EPDType
    from inky_fakes import Eeprom

    from display.cli import start_buttons
    from display.panels import InkyPanel
    from display.settings import parse

    eeprom = EPDType(1600, 1200, color="spectra6", pcb_variant=12, display_variant=21).encode()
    panel = InkyPanel.detect(i2c_bus=Eeprom(eeprom))
    assert panel.profile.name == "impression-13.3"
    pressed: list[str] = []
    Device.pin_factory = MockFactory()
    try:
        buttons = start_buttons(parse({}), panel, pressed.append)
        assert buttons is not None
        pins = {letter: str(button.pin) for letter, button in buttons.buttons.items()}
        assert pins == {"A": "GPIO5", "B": "GPIO6", "C": "GPIO25", "D": "GPIO24"}
        Device.pin_factory.pin(25).drive_low()
        assert pressed == ["C"]
        Button(16).close()  # GPIO16 is still free for the panel
        assert "does not work" not in caplog.text
        buttons.close()
    finally:
        Device.pin_factory.close()
        Device.pin_factory = None


def test_render_writes_every_page_and_a_layout_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from wall_clubs import big_club

    from display import cli

    club = big_club(120)
    monkeypatch.setattr(cli, "demo_data", lambda: club)  # --demo draws a 120-magnet club here
    out = tmp_path / "wall"
    result = CliRunner().invoke(
        render_command, ["--size", "13", "--panel", "impression-7.3", "--demo", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    report = json.loads((out / "layout.json").read_text(encoding="utf-8"))
    assert report["panel"] == "impression-7.3" and round(report["dpi"]) == 128
    assert len(report["pages"]) > 1
    nicks = []
    fills = [page["fill"] for page in report["pages"]]  # how much of each page the labels cover
    assert all(0 < fill < 1 for fill in fills) and min(fills) >= max(fills) / 4  # no near-empty page beside full ones
    for number, page in enumerate(report["pages"], start=1):
        assert page["file"] == f"board-13-{number}.png"
        with Image.open(out / page["file"]) as image:
            assert image.size == (800, 480)
        for label in page["magnets"]:
            assert set(label) >= {"nick", "size", "field", "box", "cap_height_px", "lines"}
            assert "".join(label["lines"]) == label["text"]  # drawn whole
            assert label["cap_height_px"] * 25.4 / report["dpi"] >= 3.0
            nicks.append(label["nick"])
    assert sorted(nicks) == sorted(m.nick for m in club.on_size(13))  # everyone, once


def test_render_writes_each_page_of_a_handicap_table_too_tall_for_the_panel(tmp_path: Path) -> None:
    out = tmp_path / "wall"
    result = CliRunner().invoke(
        render_command, ["--size", "13", "--panel", "what", "--demo", "--page", "handicap", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in out.iterdir()) == ["handicap-13-1.png", "handicap-13-2.png"]
    one = tmp_path / "large"
    result = CliRunner().invoke(
        render_command,
        ["--size", "13", "--panel", "impression-13.3", "--demo", "--page", "handicap", "--out", str(one)],
    )
    assert result.exit_code == 0, result.output
    assert [path.name for path in one.iterdir()] == ["handicap-13.png"]


def test_render_advise_says_which_way_to_mount_the_panel_for_this_club(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The organiser mounts the panel once; the way with fewer pages for this club is said, in Polish too."""
    from dataclasses import replace

    from wall_clubs import survey_club

    from display import cli
    from display.render import board_pages

    club = survey_club(120)
    monkeypatch.setattr(cli, "demo_data", lambda: club)
    result = CliRunner().invoke(render_command, ["--panel", "what", "--demo", "--advise"])
    assert result.exit_code == 0, result.output
    landscape, portrait = (board_pages(club, 13, profile_of("what"), turn) for turn in ("landscape", "portrait"))
    assert f"13×13, pages: {landscape} in landscape, {portrait} in portrait" in result.output
    best = "landscape" if landscape < portrait else "portrait"
    if landscape != portrait:
        assert f"panel in {best}: pages in all {min(landscape, portrait)}" in result.output
    monkeypatch.setattr(cli, "demo_data", lambda: replace(club, language="pl"))
    polish = CliRunner().invoke(render_command, ["--panel", "what", "--demo", "--advise"])
    assert f"13×13, strony: {landscape} poziomo, {portrait} pionowo" in polish.output
    assert not list(tmp_path.iterdir())  # nothing drawn, nothing written
    missing = CliRunner().invoke(render_command, ["--panel", "what", "--demo"])
    assert missing.exit_code != 0 and "--out" in missing.output


def profile_of(name: str):  # type: ignore[no-untyped-def]
    from display.profiles import profile

    return profile(name)


@pytest.mark.parametrize("panel", ["impression-7.3", "what"])
def test_render_of_tonights_ruler_before_anyone_checked_in_is_tonights_how_to_check_in(
    tmp_path: Path, panel: str
) -> None:
    """The ruler of nobody: a stack trace before; now the words and the code that bring the first player in."""
    out = tmp_path / "ruler"
    result = CliRunner().invoke(render_command, ["--panel", panel, "--page", "ruler", "--demo", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    report = json.loads((out / "layout.json").read_text(encoding="utf-8"))
    texts = " ".join(str(label["text"]) for page in report["pages"] for label in page["names"])
    assert "Nobody has checked in" in texts and "I'm here" in texts
    assert [label["kind"] for page in report["pages"][:1] for label in page["names"]].count("qr") == 1
    assert sorted(path.name for path in out.glob("*.png")) == [page["file"] for page in report["pages"]]
