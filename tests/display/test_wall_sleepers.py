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
