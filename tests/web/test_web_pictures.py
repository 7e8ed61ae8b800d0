"""The wall as the web shows it: ``/board.png`` with a real address, and an app that starts without Pillow."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from club_days import on_the_club_clock

from display.wall import WallData
from kiosk import config
from web import create_app


def test_the_wall_preview_fills_in_the_pis_address(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import display.render

    config.save(home, replace(config.load(home), form_url="http://{ip}:8080"))
    drawn = []
    real = display.render.render

    def render(data: WallData, *args: object) -> object:
        drawn.append(data)
        return real(data, *args)

    monkeypatch.setattr(display.render, "render", render)
    client = create_app(on_the_club_clock({"SEMEDORI_HOME": str(home), "TESTING": True})).test_client()
    assert client.get("/board.png?size=9").status_code == 200
    assert drawn and "{ip}" not in drawn[0].form_url and drawn[0].form_url.startswith("http://")


def test_the_app_starts_and_shows_the_board_page_without_pillow(home: Path) -> None:
    script = (
        "import sys; from web import create_app; "
        f"app = create_app({{'SEMEDORI_HOME': {str(home)!r}, 'TESTING': True}}); print('PIL' in sys.modules); "
        "status = app.test_client().get('/').status_code; print(status, 'PIL' in sys.modules)"
    )
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    # Pillow waits until the wall's picture is drawn (/board.png), not for the phone's board page.
    assert found.stdout.split() == ["False", "200", "False"]
