"""A child's season for the progress card (kiosk/progress.py): season, strength steps, milestones, awards."""

from __future__ import annotations

import json
from datetime import datetime

from kiosk.awards import month_awards
from kiosk.config import Config
from kiosk.events import parse_history
from kiosk.progress import progress, season_name, season_start
from kiosk.replay import Replay

LINES = [
    {"type": "player", "at": "2026-06-01T17:00", "nick": "Ola", "size": 13, "status": "member", "strength": 10},
    {"type": "player", "at": "2026-06-01T17:00", "nick": "Kuba", "size": 13, "status": "member", "strength": 14},
    {"type": "game", "at": "2026-06-08T17:30", "size": 13, "players": ["Ola", "Kuba"], "winner": "Kuba", "by": 3},
    *[
        {"type": "game", "at": f"2026-09-{day:02d}T17:30", "size": 13, "players": ["Ola", "Kuba"], "winner": "Ola",
         "by": 4}
        for day in (7, 14, 21)
    ],
    {"type": "game", "at": "2026-10-05T17:30", "size": 13, "players": ["Ola", "Kuba"], "winner": "Kuba", "by": 2},
]  # fmt: skip


def test_the_season_is_the_school_year() -> None:
    assert season_start(datetime(2026, 11, 30)) == datetime(2026, 9, 1)
    assert season_start(datetime(2027, 3, 1)) == datetime(2026, 9, 1)
    assert season_name(datetime(2026, 9, 1)) == "2026/27"


def test_a_season_of_steps_milestones_and_awards() -> None:
    board = Replay(Config()).run(parse_history(json.dumps(line) for line in LINES))
    september = month_awards((2026, 9), board.games)
    found = progress(board, "ola", 13, "O.", datetime(2026, 11, 30, 12, 0), [september])
    assert found is not None and found.nick == "Ola" and found.label == "O." and found.season == "2026/27"
    # where Ola hung when the season began, then after each of its games
    assert [q / 4 for _, q in found.steps] == [10, 11, 12, 13, 13]
    assert found.steps[0][0] == datetime(2026, 9, 1) and found.gained == 12
    assert (found.games, found.wins) == (4, 3)  # the June game is last season's
    kinds = [m.kind for m in found.milestones]
    assert "best" in kinds and "joined" not in kinds  # joined in June: last season
    best = next(m for m in found.milestones if m.kind == "best")
    assert best.detail == "13" and best.at == datetime(2026, 9, 21, 17, 30)
    assert {a.kind for a in found.awards} <= {a.kind for a in september.for_player("Ola")}
    assert progress(board, "Ola", 9, "O.", datetime(2026, 11, 30)) is None  # no 9x9 magnet
