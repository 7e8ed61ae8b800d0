"""The wall's event page for an accelerated handicap event: the levels, nobody cut or hidden.

The standings' three numbers are the level, its rise and the FUS coefficient (signed), with their own column
names and note; the boards show the levels' handicap; every player is drawn once on every panel.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path

import pytest
from test_wall_event import Recording, report
from test_wall_tonight import lines, named
from wall_clubs import event_data

from display.profiles import PROFILES
from display.render import event_pages, header_box, render
from display.standings import event_page, of_event
from display.wall import View, WallData
from kiosk.accelerated import ACCELERATED
from kiosk.board import Magnet
from kiosk.config import Config
from kiosk.handicap import DEFAULT_SIZE_RULES
from kiosk.pairing import Side
from kiosk.tournament import A_WINS, B_WINS, Tournament, accelerated_standings, fold, next_round, start_line

RULES = DEFAULT_SIZE_RULES[13]


def accelerated_event(magnets: tuple[Magnet, ...], played: int, seed: int = 3) -> Tournament:
    """An accelerated event of ``magnets`` (13x13) with ``played`` rounds decided by a seeded coin."""
    sides = [Side(m.nick, m.strength, False, False) for m in magnets if m.size == 13]
    start = start_line(
        1, datetime(2026, 11, 5, 18, 30), date(2026, 11, 5), 13, sides, False, "FUS", None, accelerated_rules=RULES
    )
    event = fold([(1, start)])[1].tournament
    rng = random.Random(seed)
    for _ in range(played):
        current = event.round_seats(event.current)
        decided = [s._replace(result=rng.choice([A_WINS, B_WINS])) if s.b is not None else s for s in current]
        seats = (*(s for s in event.seats if s.round != event.current), *decided)
        event = replace(event, seats=seats)
        event = replace(event, seats=(*event.seats, *next_round(event, RULES)))
    return event


def wall(count: int, language: str = "en", played: int = 4) -> WallData:
    data = event_data(language, count=count)
    magnets = tuple(m for m in data.magnets if m.size == 13)
    event = accelerated_event(magnets, played)
    assert event.format == ACCELERATED and event.current == played + 1
    return replace(data, event=of_event(event, data.magnets, Config()))


@pytest.mark.parametrize("count", [6, 40])
@pytest.mark.parametrize("language", ["en", "pl"])
def test_every_player_is_drawn_once_with_level_rise_and_fus_on_every_panel(count: int, language: str) -> None:
    data = wall(count, language)
    assert data.event is not None and data.event.levels
    players = sorted(s.nick for s in data.event.standings)
    for name in PROFILES:
        for orientation in ("landscape", "portrait"):
            pages = report(data, name, orientation)
            assert sorted(named(pages, {"standing"})) == players, (name, orientation)
            assert len(lines(pages, "number")) == 3 * len(players)


def test_the_standings_print_the_levels_signed_and_the_words_of_the_format() -> None:
    data = wall(40, "pl")
    assert data.event is not None
    panel = PROFILES["impression-13.3"]
    drawn: list[str] = []
    for part in range(event_pages(data, 13, panel)):
        canvas = Recording(panel, panel.canvas("landscape"))
        event_page(canvas, data, header_box(canvas)[1], part)
        drawn += canvas.drawn
    assert "turniej z przyspieszeniem · 13×13" in drawn
    assert {"Poziom", "↑", "FUS"} <= set(drawn)
    top = data.event.standings[0]
    assert str(top.score).replace(".", ",") in drawn or f"{float(top.score):g}".replace(".", ",") in drawn
    assert any(text.startswith("−") for text in drawn) and any(text.startswith("+") for text in drawn)
    assert not [text for text in drawn if "…" in text]  # nobody cut


def test_the_wall_and_the_core_agree_on_the_order(tmp_path: Path) -> None:
    data = event_data("en", count=40)
    magnets = tuple(m for m in data.magnets if m.size == 13)
    event = accelerated_event(magnets, 4)
    shown = of_event(event, data.magnets, Config())
    assert [s.nick for s in shown.standings] == [s.nick for s in accelerated_standings(event)]
    # A picture to look at (the report's reviewer opens it): the 13.3" panel, landscape.
    picture = render(replace(data, event=shown), View("event", 13, 0), PROFILES["impression-13.3"])
    picture.save(tmp_path / "accelerated.png")
    assert picture.size[0] > 0
