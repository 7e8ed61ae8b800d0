"""The wall's event page with late starters: every player drawn once, the late ones marked, nobody cut."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_wall_event import report, standings_rows
from test_wall_tonight import named
from wall_clubs import event_data

from display.profiles import PROFILES, profile
from display.render import event_pages, render
from display.standings import of_event
from display.wall import View, WallData
from kiosk import league
from kiosk.board import Magnet
from kiosk.config import Config
from kiosk.pairing import Side
from kiosk.scale import QUARTERS
from kiosk.tournament import Seat, Tournament, points

LATE = ("Wiktoria Szczepańska-Brzęczyszczykiewicz", "小龍 late", "Ян Поздний")  # the longest labels come late


def with_late_starters(event: Tournament, nicks: tuple[str, ...], first_round: int) -> Tournament:
    """``event`` as its fold gives it once ``nicks`` joined for ``first_round``: ½ point for each round missed."""
    seats = list(event.seats)
    for number in range(1, first_round):
        board = max(s.board for s in seats if s.round == number)
        seats += [Seat(number, board + 1 + i, nick, None, league.MISSED_HALF) for i, nick in enumerate(nicks)]
    sides = tuple(Side(nick, 20 * QUARTERS, True, False) for nick in nicks)
    return replace(
        event, players=(*event.players, *sides), seats=tuple(seats), joined=tuple((n, first_round) for n in nicks)
    )


def late_data(language: str, count: int) -> WallData:
    data = event_data(language, count)
    assert data.event is not None
    from wall_clubs import demo_event

    strengths = {m.nick: m.strength for m in data.magnets if m.size == 13}
    nicks = tuple(s.nick for s in data.event.standings)
    event = with_late_starters(demo_event(nicks, strengths, name="Turniej andrzejkowy"), LATE, 3)
    magnets = (*data.magnets, *(Magnet(n, 13, 20 * QUARTERS, "guest") for n in LATE))
    return replace(data, magnets=magnets, event=of_event(event, magnets, Config()))


@pytest.mark.parametrize(("language", "mark"), [("en", "(from round 3)"), ("pl", "(od rundy 3)")])
@pytest.mark.parametrize("count", [6, 40])
def test_late_starters_are_drawn_marked_and_nobody_is_cut_or_hidden(language: str, mark: str, count: int) -> None:
    data = late_data(language, count)
    assert data.event is not None
    for name in PROFILES:
        for orientation in ("landscape", "portrait"):
            pages = report(data, name, orientation)
            assert sorted(named(pages, {"standing"})) == sorted(s.nick for s in data.event.standings)
            text = " ".join(label["text"] for page in pages for label in page if label["kind"] == "standing")
            assert text.count(mark) == len(LATE), (name, orientation)
            assert "…" not in text
            scored = {row[0]: row[2] for row in standings_rows(pages)}
            assert all(scored[nick] == points(league.bye_points(league.MISSED_HALF) * 2) for nick in LATE)


def test_the_late_starters_page_renders(tmp_path: Path) -> None:
    """A PNG to look at (written to the test's folder; bench/ and docs do not keep it)."""
    data = late_data("pl", 6)
    panel = profile("impression-7.3")
    for part in range(event_pages(data, 13, panel, "landscape")):
        picture = render(data, View("event", 13, part), panel)
        picture.save(tmp_path / f"late-{part}.png")
        assert picture.size == panel.canvas("landscape")
