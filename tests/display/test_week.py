"""The wall's week page (display/week.py): the week's results with their arrows, climbers, fallers, milestones."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from wall_clubs import demo_data

from display.canvas import Canvas
from display.profiles import PROFILES, profile
from display.render import header_box, render
from display.wall import View, from_board
from display.week import fallers, milestones, result_lines, week_page
from display.words import say
from kiosk.board import climbers
from kiosk.config import Config
from kiosk.events import parse_line
from kiosk.replay import replay


def test_the_week_page_names_climbers_and_milestones() -> None:
    lines = [
        {"type": "player", "at": "2026-11-02T18:00", "nick": "Ola", "size": 13, "status": "member", "strength": 30},
        {"type": "player", "at": "2026-11-02T18:00", "nick": "Kuba", "size": 13, "status": "member", "strength": 31.5},
        {
            "type": "game",
            "at": "2026-11-24T19:00",
            "size": 13,
            "players": ["Ola", "Kuba"],
            "winner": "Ola",
            "by": "resignation",
        },
    ]
    board = replay([parse_line(json.dumps(line)) for line in lines])
    data = from_board(board, Config(), datetime(2026, 11, 26, 20, 0))
    assert climbers(data.week)[0][:2] == ("Ola", 13)
    assert milestones(data) == ["Ola and Kuba now play even"]
    image = render(data, View("week", 13), profile("impression-7.3"))
    assert image.getextrema()[1] > 0


WEEK_LINES = [
    {"type": "player", "at": "2026-11-02T18:00", "nick": "Ola", "size": 13, "status": "member", "strength": 30},
    {"type": "player", "at": "2026-11-02T18:00", "nick": "Kuba", "size": 13, "status": "member", "strength": 31.5},
    {"type": "game", "at": "2026-11-17T19:00", "size": 13, "players": ["Ola", "Kuba"], "winner": "Kuba", "by": None},
    {
        "type": "game",
        "at": "2026-11-24T19:00",
        "size": 13,
        "players": ["Ola", "Kuba"],
        "winner": "Ola",
        "by": "resignation",
    },
    {
        "type": "game",
        "at": "2026-11-25T19:00",
        "size": 13,
        "players": ["Ola", "Kuba"],
        "winner": "Ola",
        "by": "resignation",
    },
]


def test_the_week_page_shows_each_result_with_the_arrows_moved_and_who_went_down() -> None:
    board = replay([parse_line(json.dumps(line)) for line in WEEK_LINES])
    data = from_board(board, Config(), datetime(2026, 11, 26, 20, 0))
    assert result_lines(data) == ["Ola ↑2 beat Kuba ↓2", "Ola ↑2 beat Kuba"]  # newest first; his first loss was free
    assert fallers(data) == [("Kuba", 13, 2)]


def test_the_week_names_the_size_of_each_move_and_never_cuts_a_milestone() -> None:
    """On main the week page said "Ola ↑1" twice (her 9x9 and 13x13 magnets) and cut "Nela and Iga now…"."""

    from display.canvas import Canvas
    from display.profiles import profile
    from display.render import header_box
    from display.week import week_page

    lines = [
        *WEEK_LINES,
        {"type": "player", "at": "2026-11-02T18:00", "nick": "Ola", "size": 9, "status": "member", "strength": 20},
        {"type": "player", "at": "2026-11-02T18:00", "nick": "Kuba", "size": 9, "status": "member", "strength": 20},
        {"type": "game", "at": "2026-11-25T20:00", "size": 9, "players": ["Ola", "Kuba"], "winner": "Ola", "by": None},
    ]
    lines.sort(key=lambda line: line["at"])
    board = replay([parse_line(json.dumps(line)) for line in lines])
    data = from_board(board, Config(), datetime(2026, 11, 26, 20, 0))
    milestone = "Przemysław Ś. and Weronika Ś. now play even"
    drawn: list[str] = []

    class Recording(Canvas):
        def drawn_text(self, xy, text, face, ink="black", anchor="la"):  # type: ignore[no-untyped-def]
            drawn.append(text)
            return super().drawn_text(xy, text, face, ink, anchor)

    for name in ("impression-7.3", "impression-13.3"):  # the smaller panels have no room for it yet
        panel = profile(name)
        canvas = Recording(panel, panel.canvas())
        from display import week

        original = week.milestones
        week.milestones = lambda _data: [milestone]  # type: ignore[assignment]
        try:
            week_page(canvas, data, header_box(canvas)[1])
        finally:
            week.milestones = original
        text = " ".join(drawn)
        assert "Ola ↑4 · 13×13" in text and "Ola ↑1 · 9×9" in text, name
        assert "…" not in text, (name, [t for t in drawn if "…" in t])
        assert all(word in text for word in milestone.split()), name  # wrapped whole
        drawn.clear()


def test_on_a_monday_the_week_page_shows_the_week_just_gone() -> None:
    board = replay([parse_line(json.dumps(line)) for line in WEEK_LINES])
    monday = from_board(board, Config(), datetime(2026, 11, 30, 12, 0))
    assert monday.week_start.isoformat() == "2026-11-23" and len(monday.week) == 2
    tuesday = from_board(board, Config(), datetime(2026, 12, 1, 12, 0))
    assert tuesday.week_start.isoformat() == "2026-11-30" and not tuesday.week


class Recording(Canvas):
    """A canvas that keeps every text as drawn (after any shortening with an ellipsis), with its ink."""

    drawn: list[tuple[str, str]]

    def drawn_text(
        self, xy: tuple[float, float], text: str, face: object, ink: str = "black", anchor: str = "la"
    ) -> float:
        self.drawn = [*getattr(self, "drawn", []), (text, ink)]
        return super().drawn_text(xy, text, face, ink, anchor)  # type: ignore[arg-type]


HEADINGS = ("results", "climbers", "fallers", "newcomers", "milestones")


@pytest.mark.parametrize("language", ["en", "pl"])
@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
@pytest.mark.parametrize("name", list(PROFILES))
def test_no_heading_of_the_week_page_is_cut(name: str, orientation: str, language: str) -> None:
    """The 7.3" once showed "Guests this w…": a heading wraps, or its column gets the room, never an ellipsis."""
    panel = profile(name)
    canvas = Recording(panel, panel.canvas(orientation))
    data = demo_data(config=Config(language=language))
    week_page(canvas, data, header_box(canvas)[1])
    title = [text for text, ink in canvas.drawn if ink == "black"][:2]
    red = [text for text, ink in canvas.drawn if ink == "red"]
    assert not [text for text in red + title if "…" in text], canvas.drawn
    assert say(language, "results") in " ".join(red)
    if orientation == "landscape" and name in ("impression-7.3", "png"):
        assert say(language, "newcomers") in " ".join(red), red  # "Guests this week", on two lines
    if name == "impression-13.3":  # room for every section
        assert all(say(language, key) in " ".join(red) for key in HEADINGS), red


@pytest.mark.parametrize("name", list(PROFILES))
@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
@pytest.mark.parametrize("language", ["en", "pl"])
def test_every_part_of_the_week_is_on_one_of_its_pages_whole(
    name: str, orientation: str, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On main a part with no room was left out: the wHAT and the 4" showed no milestones, and the 7.3" no one
    who went down. Now a part goes on to the next column or page; every heading is on a page, and every line
    of the milestones; a list longer than its column is counted ("+3 more"), never left out without a word."""
    from display import week

    milestone = "Przemysław Ś. and Weronika Ś. now play even"
    monkeypatch.setattr(week, "milestones", lambda _data: [milestone])
    panel = profile(name)
    data = demo_data(config=Config(language=language))
    scratch = Canvas(panel, panel.canvas(orientation))
    count = week_page(scratch, data, header_box(scratch)[1])
    drawn: list[str] = []
    for part in range(count):
        canvas = Recording(panel, panel.canvas(orientation))
        assert week_page(canvas, data, header_box(canvas)[1], part) == count
        drawn += [text for text, _ in canvas.drawn]
    text = " ".join(drawn)
    assert "…" not in text
    for key, lines in (
        ("climbers", [f"{nick} ↑{n}" for nick, _, n in climbers(data.week)]),
        ("fallers", [f"{nick} ↓{n}" for nick, _, n in fallers(data)]),
    ):
        assert all(word in text for word in say(language, key).split()), (key, count)
        missing = [line for line in lines if line not in drawn]
        assert not missing or say(language, "more", n=len(missing)) in text, (key, missing, count)  # counted
    assert all(word in text for word in say(language, "milestones").split() + milestone.split())  # whole
    assert count == 1 or name not in ("impression-13.3",)  # the largest panel holds the week on one page


def test_button_c_steps_through_the_weeks_pages_on_a_small_panel_then_shows_its_first_again(tmp_path: Path) -> None:
    """The wHAT hung portrait needs pages for the week: button C and the page timer step through them."""
    from test_refresh import PLAYERS, Clock, Screen, game, wall_for

    from display.render import week_pages
    from kiosk.store import Store

    with Store.open(tmp_path) as store:
        for line in PLAYERS:
            store.record(parse_line(json.dumps(line)))
        for day in range(2, 6):  # a game a day, Bianka and Czarek winning in turn: both move, up and down
            store.record(game(f"2026-11-0{day}T19:0{day}", winner="Bianka" if day % 2 else "Czarek"))
        store.record(game("2026-11-05T19:30", size=9, winner="Ola", players=("Ola", "Kuba")))
        clock = Clock(datetime(2026, 11, 6, 12, 0))  # Friday noon: the club is closed, C shows the week
        wall = wall_for(store, Screen("what"), clock, orientation="portrait")
        wall.press("C")
        assert wall.tick() and wall.view.page == "week"
        assert wall.data is not None
        parts = week_pages(wall.data, 13, profile("what"), "portrait")
        assert parts > 1 and wall.parts == parts
        seen = [wall.view.part]
        for _ in range(parts):
            wall.press("C")
            assert wall.tick()
            seen.append(wall.view.part)
        assert seen == [*range(parts), 0]
