"""The wall's tonight page while tonight's event runs: its players play there, the others are paired."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from test_wall_tonight import lines, named, report

from display.profiles import profile
from display.render import render
from display.wall import View, from_source
from kiosk.evening import club_evening
from kiosk.events import parse_line
from kiosk.pairing import side_of
from kiosk.privacy import SHORT, PlayerPrivacy
from kiosk.services import tournaments as events
from kiosk.store import Store

THURSDAY = datetime(2026, 11, 5, 19, 0)  # the club's evening is on (17:00 to 03:00): the clock is the test's
MORE = [("Łucja", 30), ("Ваня", 28), ("小龍", 26), ("Ewa", 24), ("Gosia", 12)]
IN_EVENT = ["Bianka", "Czarek", "Łucja", "Ваня"]


def club(store: Store) -> Store:
    """The wall tests' club, with five more on 13x13, all checked in on Thursday evening."""
    for nick, strength in MORE:
        line = {"type": "player", "at": "2026-11-02T18:00", "nick": nick, "size": 13, "status": "member"}
        store.record(parse_line(json.dumps({**line, "strength": strength})))
    evening = club_evening(store.config, THURSDAY)[0]
    for nick in ["Bianka", "Czarek", *[n for n, _ in MORE]]:
        store.check_in(evening, nick)
    return store


def start(store: Store) -> events.Tournament:
    evening = club_evening(store.config, THURSDAY)[0]
    return events.start(store, evening, 13, [side_of(store.magnets(), n, 13) for n in IN_EVENT], counts=True)


def test_the_events_players_are_named_once_as_playing_there_and_never_paired(store: Store, tmp_path: Path) -> None:
    start(club(store))
    data = from_source(store, THURSDAY)
    for name in ("impression-7.3", "impression-13.3", "impression-4"):
        pages = report(data, name)
        assert lines(pages, "in_event") and " ".join(lines(pages, "in_event")).startswith(
            "Playing in tonight's event: Bianka, Czarek, Łucja, Ваня"
        ), name
        assert sorted(named(pages, {"in_event"})) == sorted(IN_EVENT), name
        assert sorted(named(pages, {"pair", "bye", "waiting"})) == ["Ewa", "Gosia", "小龍"], name  # only the others
    image = render(data, View("tonight", 13), profile("impression-7.3"))
    image.save(tmp_path / "tonight-event.png")


def test_in_polish_and_by_the_clubs_public_labels(store: Store) -> None:
    store.set_player_privacy("Łucja", PlayerPrivacy(SHORT, "Łusia"))
    store.save_config(store.config.with_changes(language="pl"))
    start(club(store))
    pages = report(from_source(store, THURSDAY), "impression-7.3")
    said = " ".join(lines(pages, "in_event"))
    assert said.startswith("Grają w dzisiejszym turnieju: ") and "Łusia" in said and "Łucja" not in said


def test_once_the_event_is_closed_everyone_here_is_paired_again(store: Store) -> None:
    event = start(club(store))
    assert events.close(store, event.id)
    pages = report(from_source(store, THURSDAY), "impression-7.3")
    assert lines(pages, "in_event") == []
    assert len(named(pages, {"pair", "bye", "waiting"})) == 2 + len(MORE)


def test_when_everyone_here_plays_in_the_event_the_page_says_so_and_asks_for_nothing(
    store: Store, tmp_path: Path
) -> None:
    start(club(store))
    evening = club_evening(store.config, THURSDAY)[0]
    for nick in ("Ewa", "Gosia", "小龍"):
        store.check_out(evening, nick)
    data = from_source(store, THURSDAY)
    pages = report(data, "impression-7.3")
    assert named(pages, {"pair", "bye", "waiting"}) == []
    assert sorted(named(pages, {"in_event"})) == sorted(IN_EVENT)
    texts = [label["text"] for page in pages for label in page]
    assert not any("When two players" in text for text in texts), texts  # nobody is missing a partner
    render(data, View("tonight", 13), profile("impression-7.3")).save(tmp_path / "all-in-event.png")
