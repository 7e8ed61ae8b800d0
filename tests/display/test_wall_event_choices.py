"""The wall's event page with the owner's choices: the chain's columns, the handicap played, the prizes
of a finished event; every player and every prize drawn on every panel, nobody cut."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_wall_event import report, standings_rows
from wall_clubs import EVENT_SIX, demo_event, event_data

from display.profiles import PROFILES, profile
from display.render import render
from display.standings import of_event
from display.wall import View, WallData
from kiosk.board import Magnet
from kiosk.config import Config
from kiosk.scale import QUARTERS
from kiosk.tournament import A_WINS, B_WINS, points


def finished(count: int, **choices: object) -> WallData:
    """A demo event played to its end (every round's every board), with the owner's ``choices``."""
    data = event_data(count=count)
    nicks = EVENT_SIX if count == len(EVENT_SIX) else tuple(p.nick for p in data.event.standings)  # type: ignore[union-attr]
    strengths = {m.nick: m.strength for m in data.magnets if m.size == 13}
    rounds = 11 if count > 6 else 10
    event = demo_event(nicks, strengths, played=rounds)
    seats = tuple(
        s if s.b is None or s.result else s._replace(result=A_WINS if s.board % 3 else B_WINS) for s in event.seats
    )
    event = replace(event, seats=seats, **choices)
    assert event.finished
    return replace(data, event=of_event(event, data.magnets, Config()))


@pytest.mark.parametrize("name", ["impression-7.3", "impression-13.3", "png"])
@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_chain_columns_and_the_prizes_are_drawn_and_nobody_is_cut(name: str, language: str) -> None:
    data = replace(
        finished(40, tiebreaks=("direct", "sosos"), prize_classes=(20 * QUARTERS, 35 * QUARTERS)), language=language
    )
    assert data.event is not None
    pages = report(data, name)
    rows = standings_rows(pages)
    assert len(rows) == 40 == len({row[0] for row in rows})  # everyone once
    # The numbers drawn are the score and the event's first two tie-breaks (direct encounter, SOSOS).
    for row, line in zip(rows, data.event.standings, strict=True):
        assert row[1:] == (f"{line.place}.", *(points(v) for v in line.values[:3]))
    heads = [
        label["text"]
        for page in pages
        for label in page
        if label["kind"] == "columns" or label.get("text") in ("SOSOS",)
    ]
    assert "SOSOS" in heads
    drawn = [label for page in pages for label in page if label["kind"] == "prize"]
    assert data.event.prizes and {p.nick for p in data.event.prizes} <= {n for label in drawn for n in label["nicks"]}


def test_the_default_chain_draws_as_before() -> None:
    data = event_data()
    assert data.event is not None and data.event.tiebreaks == ("sos", "sodos") and not data.event.prizes
    rows = standings_rows(report(data, "impression-7.3"))
    assert all(len(row) == 5 for row in rows)  # place, score, SOS, SODOS beside the name


def test_look_at_it(tmp_path: Path) -> None:
    """The pictures to look at (written under tmp; the lead's eyes check them on review)."""
    data = replace(finished(40, tiebreaks=("sos", "progress"), prize_classes=(20 * QUARTERS,)), language="pl")
    for name in ("impression-7.3", "impression-13.3"):
        picture = render(data, View("event", 13), profile(name))
        picture.save(tmp_path / f"event-prizes-{name}.png")
        assert picture.size == profile(name).canvas("landscape")
    six = finished(6, tiebreaks=("direct",), handicap_cap=1)
    render(six, View("event", 13), profile("impression-7.3")).save(tmp_path / "event-six.png")
    assert Magnet and PROFILES
