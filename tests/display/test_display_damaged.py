"""On the wall: a damaged database at start shows "restore a backup", never a crash or an empty board.

The same three faults of a dying SD card as tests/reliability/test_damaged_start.py (the file
cut to 0 bytes, cut to half, one 4 KB page overwritten), each after a nightly backup; then
the real ``semedori display`` loop on the PNG panel, and ``--once``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from damage import PAGE, damage
from PIL import Image, ImageChops

from display.cli import display_command
from display.profiles import profile
from display.render import render
from display.wall import View, WallData
from kiosk.backup import backup_nightly
from kiosk.config import DATABASE_NAME
from kiosk.events import parse_line
from kiosk.store import Store

PNG = Path("wall") / "board.png"


def club(home: Path, language: str = "en") -> str:
    """A club of 40 magnets and 1,500 games (a file of many pages), its nightly backup's file name."""
    (home / "semedori.toml").write_text(
        f'[club]\nname = "Klub Go Semedori"\nlanguage = "{language}"\n\n[display]\npanel = "png"\n'
        f'png_path = "{PNG.as_posix()}"\n',
        encoding="utf-8",
    )
    lines = [
        json.dumps(
            {
                "type": "player",
                "at": "2026-01-01T10:00",
                "nick": f"Gracz{n}",
                "size": 13,
                "status": "member",
                "strength": 10 + n % 20,
            }
        )
        for n in range(40)
    ]
    for n in range(1500):
        at = f"2026-02-{1 + n // 60:02d}T{10 + n % 60 // 6:02d}:{n % 6 * 10:02d}"
        pair = [f"Gracz{n % 40}", f"Gracz{(n + 1) % 40}"]
        lines.append(
            json.dumps(
                {"type": "game", "at": at, "size": 13, "players": pair, "winner": pair[n % 2], "by": "resignation"}
            )
        )
    with Store.open(home) as store:
        store.import_history(lines, replace_history=True)
    path, _ = backup_nightly(home)
    return path.name


def expected(name: str | None, language: str = "en") -> Image.Image:
    data = WallData(club_name="Klub Go Semedori", language=language, damaged=True, backup=name)
    return render(data, View(), profile("png")).convert("RGB")


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


@pytest.mark.parametrize("how", ["empty", "half", "page"])
def test_the_real_display_loop_shows_restore_a_backup_on_a_damaged_database(tmp_path: Path, how: str) -> None:
    backup = club(tmp_path)
    damage(tmp_path, how)
    before = (tmp_path / DATABASE_NAME).read_bytes()
    env = {**os.environ, "SEMEDORI_HOME": str(tmp_path)}
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "semedori"), "display"],
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not (tmp_path / PNG).exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)  # a few turns of the loop on the damaged data
        assert process.poll() is None, process.communicate()[1]
    finally:
        process.send_signal(signal.SIGTERM)
        _, errors = process.communicate(timeout=30)
    assert "Traceback" not in errors, errors
    assert f"semedori restore {tmp_path / 'backups' / backup}" in errors
    with Image.open(tmp_path / PNG) as shown:
        assert same(shown, expected(backup))  # the page that names the backup, not an empty board
        assert not same(shown, render(WallData(club_name="Klub Go Semedori"), View(), profile("png")))
    assert (tmp_path / DATABASE_NAME).read_bytes() == before  # nothing written into the damaged file


def test_once_in_polish_and_without_a_good_backup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMEDORI_HOME", str(tmp_path))
    backup = club(tmp_path, "pl")
    damage(tmp_path, "half")
    result = CliRunner().invoke(display_command, ["--once"])
    assert result.exit_code == 0, result.output
    with Image.open(tmp_path / PNG) as shown:
        assert same(shown, expected(backup, "pl"))
        assert not same(shown, expected(backup, "en"))
    (tmp_path / "backups" / backup).write_bytes(b"not a database")
    result = CliRunner().invoke(display_command, ["--once"])
    assert result.exit_code == 0, result.output
    with Image.open(tmp_path / PNG) as shown:
        assert same(shown, expected(None, "pl"))


def test_a_sound_database_still_shows_its_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMEDORI_HOME", str(tmp_path))
    backup = club(tmp_path)
    with Store.open(tmp_path) as store:
        store.record(
            parse_line(
                json.dumps(
                    {
                        "type": "player",
                        "at": "2026-03-01T10:00",
                        "nick": "Ola",
                        "size": 9,
                        "status": "member",
                        "strength": 20,
                    }
                )
            )
        )
    assert CliRunner().invoke(display_command, ["--once"]).exit_code == 0
    with Image.open(tmp_path / PNG) as shown:
        assert not same(shown, expected(backup))


def test_damage_found_while_the_loop_runs_turns_the_wall_to_restore_a_backup(tmp_path: Path) -> None:
    from display.panels import PngPanel
    from display.refresh import Wall
    from display.settings import DisplaySettings

    backup = club(tmp_path)
    with Store.open(tmp_path) as store:
        panel = PngPanel(tmp_path / PNG)
        wall = Wall(store, panel, DisplaySettings(debounce=0, min_interval=0))
        assert wall.refresh()
        with Image.open(tmp_path / PNG) as shown:
            assert not same(shown, expected(backup))  # the club's board
        size = (tmp_path / DATABASE_NAME).stat().st_size
        os.truncate(tmp_path / DATABASE_NAME, size // 2 // PAGE * PAGE)  # the card loses half the file
        for _ in range(3):
            wall.press("D")  # a button asks for a fresh picture: the board is read again
            wall.turn()
        with Image.open(tmp_path / PNG) as shown:
            assert same(shown, expected(backup))
