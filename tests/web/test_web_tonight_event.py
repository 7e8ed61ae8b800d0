"""The phone's tonight page while tonight's event runs: its players play there, the others are paired.

The kiosk's clock is fixed at Monday 30 November 2026, 19:00 in the club (the suite runs at about
04:00 Warsaw, outside the club's evening), with internet time, as a Pi has it.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from kiosk.pairing import side_of
from kiosk.privacy import SHORT, PlayerPrivacy
from kiosk.services import tournaments as events
from kiosk.store import Store
from web import create_app

CLUB_19H = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
EVENING = date(2026, 11, 30)
HERE = ["Ewa", "Franek", "Gosia", "Hania", "Bianka", "Czarek", "Dawid"]
IN_EVENT = ["Ewa", "Franek", "Gosia", "Hania"]
POLISH = {"Accept-Language": "pl-PL,pl;q=0.9"}


@pytest.fixture
def app(home: Path, tmp_path: Path) -> Flask:
    synced = tmp_path / "synchronized"
    synced.touch()
    with Store.open(home) as store:
        for nick in HERE:
            store.check_in(EVENING, nick)
    return create_app(
        {
            "SEMEDORI_HOME": str(home),
            "TESTING": True,
            "SEMEDORI_PI_CLOCK": lambda: CLUB_19H,
            "SEMEDORI_TIMESYNC_FLAG": str(synced),
        }
    )


def start(store: Store, players: list[str] = IN_EVENT) -> events.Tournament:
    return events.start(store, EVENING, 13, [side_of(store.magnets(), n, 13) for n in players], counts=True)


def page(client: FlaskClient, size: int = 13, headers: dict[str, str] | None = None) -> str:
    response = client.get(f"/tonight?size={size}", headers=headers or {})
    assert response.status_code == 200
    return html.unescape(response.get_data(as_text=True))


def pairs(text: str) -> list[str]:
    return re.findall(r"<h3>\d+\. (.+?)</h3>", text)


def sits_out(text: str) -> list[str]:
    return re.findall(r"Sits out this round: ([^<]+)<", text)


def test_the_events_players_are_named_as_playing_there_and_never_paired(client: FlaskClient, store: Store) -> None:
    before = page(client)
    assert any(nick in p for p in pairs(before) for nick in IN_EVENT)  # before the event: paired as usual
    start(store)
    text = page(client)
    assert "Here tonight (7)" in text  # still here, with their "Leaves" button
    assert "Playing in tonight's event: Ewa, Franek, Gosia, Hania" in text
    assert re.search(r'class="in-event">[^<]+<br><a href="/event">', text)  # one tap to the event's rounds
    suggested = " ".join(pairs(text) + sits_out(text))
    assert not any(nick in suggested for nick in IN_EVENT)
    assert pairs(text) == ["Czarek – Dawid"] and sits_out(text) == ["Bianka"]  # on 13x13 by their primary magnets
    nine = page(client, 9)  # every size's pairs leave them out
    assert pairs(nine) == ["Czarek – Dawid"] and sits_out(nine) == ["Bianka"]


def test_in_polish_too(client: FlaskClient, store: Store) -> None:
    start(store)
    text = page(client, headers=POLISH)
    assert "Grają w dzisiejszym turnieju: Ewa, Franek, Gosia, Hania" in text
    assert "Dzisiejszy turniej: rundy i tabela" in text


def test_a_withdrawn_player_still_here_is_paired_and_one_who_left_is_not(client: FlaskClient, store: Store) -> None:
    event = start(store)
    assert events.withdraw(store, event.id, "Hania")[0] == events.SAVED
    text = page(client)
    assert "Playing in tonight's event: Ewa, Franek, Gosia" in text
    assert "Hania" in " ".join(pairs(text) + sits_out(text))  # withdrawn, but still on tonight's list
    store.check_out(EVENING, "Hania")  # "Leaves": she went home
    assert "Hania" not in " ".join(pairs(page(client)) + sits_out(page(client)))


def test_once_the_event_is_closed_everyone_here_is_paired_again(client: FlaskClient, store: Store) -> None:
    event = start(store)
    assert events.close(store, event.id)
    text = page(client)
    assert "Playing in tonight's event" not in text
    assert len(pairs(text)) == 3 and len(sits_out(text)) == 1


def test_the_event_line_speaks_the_clubs_public_labels(client: FlaskClient, store: Store) -> None:
    store.set_player_privacy("Gosia", PlayerPrivacy(SHORT, "Gośka"))
    start(store)
    text = page(client)
    assert "Playing in tonight's event: Ewa, Franek, Gośka, Hania" in text
    assert "Gosia" not in text
