"""The wall leaves sleepers out, by the time its data was read (kiosk.sleepers, display/wall.py)."""

from __future__ import annotations

from datetime import datetime

from display.wall import from_board
from kiosk.config import Config
from kiosk.events import parse_event
from kiosk.replay import replay

LINES = [
    {"type": "player", "at": "2026-06-01T18:00", "nick": "Ala", "size": 13, "status": "member", "strength": 20},
    {"type": "player", "at": "2026-06-01T18:00", "nick": "Bolek", "size": 13, "status": "member", "strength": 20},
    {"type": "player", "at": "2026-06-01T18:00", "nick": "Żaba", "size": 9, "status": "member", "strength": 5},
    {"type": "game", "at": "2026-11-02T19:00", "size": 13, "players": ["Ala", "Bolek"], "winner": "Ala"},
]


def test_the_wall_hides_a_magnet_unplayed_for_the_sleeper_weeks() -> None:
    board = replay([parse_event(line) for line in LINES])
    now = datetime(2026, 11, 30, 19, 0)  # Żaba's 9x9 magnet unplayed since June
    data = from_board(board, Config(sleeper_weeks=12), now)
    assert data.sizes() == (13,)
    assert data.on_size(9) == ()
    assert [m.nick for m in data.on_size(13)] == ["Ala", "Bolek"]
    off = from_board(board, Config(sleeper_weeks=0), now)
    assert off.sizes() == (9, 13) and [m.nick for m in off.on_size(9)] == ["Żaba"]


def test_the_board_says_how_many_magnets_rest_and_a_player_checked_in_hangs_again() -> None:
    """The wall said "No magnets on 13×13 yet" while its magnets rested; now it counts them."""
    from dataclasses import replace

    from display.profiles import profile
    from display.render import board_report, render
    from display.tonight import evening
    from display.wall import View

    lines = [
        *LINES,
        {"type": "game", "at": "2027-01-30T19:00", "size": 9, "players": ["Żaba", "Żaba2"], "winner": "Żaba"},
    ]
    lines.insert(
        0, {"type": "player", "at": "2026-06-01T18:00", "nick": "Żaba2", "size": 9, "status": "member", "strength": 5}
    )
    board = replay([parse_event(line) for line in lines])
    now = datetime(2027, 2, 1, 19, 0)  # the club played 9x9 on 30 January; 13x13 unplayed since 2 November
    data = from_board(board, Config(sleeper_weeks=12), now)
    assert data.on_size(13) == () and data.resting_on(13) == 2
    panel = profile("impression-7.3")
    quiet = render(replace(data, sleeper_weeks=0, magnets=()), View("board", 13), panel)
    resting = render(data, View("board", 13), panel)
    assert quiet.tobytes() != resting.tobytes()
    canvas_texts = _texts_of(data, panel)
    assert any("2 magnets resting: no game for 12 weeks" in text for text in canvas_texts)
    assert not any("No magnets" in text for text in canvas_texts)
    # Ala checks in for tonight: her magnet hangs at once, before her first game; Bolek still rests.
    here = replace(data, tonight=evening(Config(sleeper_weeks=12), now, ("Ala",)))
    assert [m.nick for m in here.on_size(13)] == ["Ala"] and here.resting_on(13) == 1
    assert [label["nick"] for _, labels in board_report(here, 13, panel, draw=False) for label in labels] == ["Ala"]
    polish = _texts_of(replace(data, language="pl"), panel)
    assert any("2 magnesy odpoczywają (tygodnie bez partii: 12)" in text for text in polish)


def _texts_of(data, panel) -> list[str]:  # type: ignore[no-untyped-def]
    """Every text the board page draws (the canvas keeps them), read back through a recording canvas."""
    from display import render as module
    from display.canvas import Canvas
    from display.wall import View

    drawn: list[str] = []

    class Recording(Canvas):
        def drawn_text(self, xy, text, face, ink="black", anchor="la"):  # type: ignore[no-untyped-def]
            drawn.append(text)
            return super().drawn_text(xy, text, face, ink, anchor)

    canvas = Recording(panel, panel.canvas())
    _, body = module.header_box(canvas)
    module.board_page(canvas, data, View("board", 13), body)
    return drawn
