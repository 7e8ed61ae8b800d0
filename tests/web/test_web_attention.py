"""The owner's home starts with what needs attention, each with the link that fixes it, and says nothing when all
is well; privacy changes and merges in the audit log; a quick correction's landing page;
"Void the N games from import" asks for the number first."""

from __future__ import annotations

import os
import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from club_days import CLUB_EVENING, on_the_club_clock
from conftest import HISTORY, write_history
from flask import Flask
from flask.testing import FlaskClient

from kiosk import backupstatus
from kiosk.rules import club_now
from kiosk.store import Store
from web import create_app
from web.pin import hash_pin


@pytest.fixture
def app(home: Path, tmp_path: Path) -> Flask:
    """The app whose Pi has internet time (its clock is trusted): a club where all is well."""
    flag = tmp_path / "synchronized"
    flag.write_text("")
    return create_app(
        on_the_club_clock({"SEMEDORI_HOME": str(home), "TESTING": True, "SEMEDORI_TIMESYNC_FLAG": str(flag)})
    )


@pytest.fixture
def owner(client: FlaskClient, store: Store) -> FlaskClient:
    return as_owner(client, store)


def as_owner(client: FlaskClient, store: Store) -> FlaskClient:
    """The phone of an owner who typed the PIN a minute ago."""
    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin("2468")))
    with client.session_transaction() as session:
        session["owner"] = time.time() - 60
    return client


def attention(page: str) -> dict[str, str]:
    """The items of "Needs your attention": key -> the item's text and link."""
    return {
        key: " ".join(re.sub(r"<[^>]+>", " ", text).split())
        for key, text in re.findall(r'<li id="attention-([\w-]+)">(.*?)</li>', page, flags=re.S)
    }


def links(page: str) -> dict[str, str]:
    return dict(re.findall(r'<li id="attention-([\w-]+)">.*?href="([^"]+)"', page, flags=re.S))


def test_nothing_needs_attention_when_all_is_well(owner: FlaskClient) -> None:
    page = owner.get("/owner/").get_data(as_text=True)
    assert 'id="attention"' not in page
    assert page.index("<h2>Tools</h2>") < page.index('id="clock-trust"')


def test_a_failed_backup_and_a_stopped_one_are_said_with_the_fix(owner: FlaskClient, home: Path) -> None:
    backupstatus.failed(home, datetime(2026, 11, 30, 2, 0, tzinfo=UTC), {"en": "the card is full", "pl": "karta pełna"})
    page = owner.get("/owner/").get_data(as_text=True)
    assert attention(page)["backup-failed"].startswith("The nightly backup failed (2026-11-30 03:00): the card is full")
    assert links(page)["backup-failed"] == "/owner/backup"
    owner.set_cookie("lang", "pl")
    assert "karta pełna" in attention(owner.get("/owner/").get_data(as_text=True))["backup-failed"]
    backupstatus.succeeded(home)
    (home / "backups").mkdir(exist_ok=True)
    old = home / "backups" / "semedori-2026-11-01.sqlite3"
    old.write_bytes(b"x")
    three_days = (datetime.now(UTC) - timedelta(days=3)).timestamp()
    os.utime(old, (three_days, three_days))
    owner.set_cookie("lang", "en")
    assert "No nightly backup since" in attention(owner.get("/owner/").get_data(as_text=True))["backup-overdue"]


def test_a_late_entry_of_this_week_is_listed(owner: FlaskClient, send, store: Store) -> None:
    played = (club_now(store.config, CLUB_EVENING) - timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")  # the app's clock
    game = {"size": "9", "a": "Bianka", "b": "Czarek", "winner": "b", "by": "resignation", "at": played}
    assert send("/new", game).status_code == 302  # entered three days after it was played
    page = owner.get("/owner/").get_data(as_text=True)
    assert attention(page)["late"].startswith("1 game was entered a day or more after it was played")
    assert links(page)["late"] == "/owner/recent/"


def test_a_game_imported_twice_and_look_alike_players_are_listed(tmp_path: Path) -> None:
    game = {"type": "game", "at": "2026-11-04T18:00", "size": 9, "players": ["Czarek", "Bianka"]}
    game |= {"winner": "Czarek", "by": "resignation"}
    twins = [
        {"type": "player", "at": "2026-11-01T11:00", "nick": "Łucja", "size": 9, "status": "guest", "strength": 5},
        {"type": "player", "at": "2026-11-01T11:01", "nick": "Lucja", "size": 9, "status": "guest", "strength": 5},
    ]
    folder = tmp_path / "club"
    write_history(folder, [*HISTORY, *twins, game, game])
    flag = tmp_path / "synchronized"
    flag.write_text("")
    app = create_app(
        on_the_club_clock({"SEMEDORI_HOME": str(folder), "TESTING": True, "SEMEDORI_TIMESYNC_FLAG": str(flag)})
    )
    client = app.test_client()
    with Store.open(folder) as store:
        as_owner(client, store)
    page = client.get("/owner/").get_data(as_text=True)
    assert attention(page)["copies"].startswith("1 game looks entered twice.")
    assert links(page)["copies"] == "/owner/recent/"
    assert attention(page)["merge"].startswith("1 player may be on the board twice: Lucja / Łucja.")
    assert links(page)["merge"] == "/owner/merge"


def test_an_unchecked_clock_is_said_once_on_the_owner_home(home: Path, tmp_path: Path, store: Store) -> None:
    # No internet time and no phone yet: the list at the top says so, and the line under the tools does not repeat it.
    unsynced = {"SEMEDORI_HOME": str(home), "TESTING": True, "SEMEDORI_TIMESYNC_FLAG": str(tmp_path / "never")}
    client = as_owner(create_app(on_the_club_clock(unsynced)).test_client(), store)
    page = client.get("/owner/").get_data(as_text=True)
    assert attention(page)["clock-untrusted"].startswith("The kiosk&#39;s clock has not been checked yet")
    assert 'id="clock-trust"' not in page
