"""A fresh data folder per test with a small club history, and a Flask test client on the club's clock."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from club_days import apps_on_a_clock_of_their_own, days_back_for, on_the_club_clock
from flask import Flask
from flask.testing import FlaskClient
from form_fields import hidden_fields
from werkzeug.test import TestResponse

from kiosk.store import Store
from web import create_app

# The club of docs/rules.md §4: Bianka (34.5) and Czarek (25) on 9x9. Bianka's free loss of
# the week of 2 November 2026 is already used (she lost to Dawid on Monday).
HISTORY = [
    {"type": "player", "at": "2026-11-01T10:00", "nick": "Bianka", "size": 9, "status": "member", "strength": 34.5},
    {"type": "player", "at": "2026-11-01T10:01", "nick": "Czarek", "size": 9, "status": "member", "strength": 25},
    {"type": "player", "at": "2026-11-01T10:02", "nick": "Dawid", "size": 9, "status": "member", "strength": 20},
    {"type": "player", "at": "2026-11-01T10:03", "nick": "Ewa", "size": 13, "status": "member", "strength": 30},
    {"type": "player", "at": "2026-11-01T10:04", "nick": "Franek", "size": 13, "status": "guest", "strength": 0},
    {"type": "player", "at": "2026-11-01T10:05", "nick": "Gosia", "size": 13, "status": "member", "strength": 30.5},
    {"type": "player", "at": "2026-11-01T10:06", "nick": "Hania", "size": 13, "status": "guest", "strength": 28},
    {
        "type": "game",
        "at": "2026-11-02T18:00",
        "size": 9,
        "players": ["Dawid", "Bianka"],
        "winner": "Dawid",
        "by": "resignation",
    },
]


def write_history(folder: Path, lines: list[dict[str, object]]) -> None:
    """Import a small history into the data folder."""
    with Store.open(folder) as store:
        store.import_history([json.dumps(line) for line in lines])
        # The tests date games in November 2026 and their apps' clock says 1 December (tests/club_days.py):
        # phones may date games only `days_back` days back (7 by default), so these clubs reach back to the
        # history's start. No magnet rests off the board as a sleeper (kiosk.sleepers) in tests of other things.
        store.save_config(store.config.with_changes(days_back=days_back_for(lines), sleeper_weeks=0))


@pytest.fixture(autouse=True)
def _apps_on_a_clock() -> Iterator[None]:
    """Every app a web test asks for a page runs on a clock the test gave it, never the machine's."""
    with apps_on_a_clock_of_their_own():
        yield


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A data folder holding the small club."""
    folder = tmp_path / "data"
    write_history(folder, HISTORY)
    return folder


@pytest.fixture
def app(home: Path) -> Flask:
    """The app on that data folder, with CSRF protection on as in production, on Tuesday 1 December's evening."""
    return create_app(on_the_club_clock({"SEMEDORI_HOME": str(home), "TESTING": True}))


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A phone: a test client that keeps its cookies."""
    return app.test_client()


@pytest.fixture
def store(home: Path) -> Iterator[Store]:
    """The real store, to see what a request changed."""
    with Store.open(home) as opened:
        yield opened


Send = Callable[..., TestResponse]


@pytest.fixture
def send(client: FlaskClient) -> Send:
    """Open a form page like a phone, then send its form with ``data`` filled in."""

    def post(page: str, data: dict[str, str], url: str | None = None, phone: FlaskClient | None = None) -> TestResponse:
        form_page = (phone or client).get(page).get_data(as_text=True)
        return (phone or client).post(url or page.split("?")[0], data={**hidden_fields(form_page), **data})

    return post


@pytest.fixture
def game() -> dict[str, str]:
    """The form of docs/rules.md's game: Czarek beats Bianka by 21 on 9x9 on Tuesday 3 November."""
    return {
        "size": "9",
        "a": "Bianka",
        "b": "Czarek",
        "winner": "b",
        "by": "points",
        "points": "21",
        "at": "2026-11-03T19:10",
    }


@pytest.fixture
def hidden() -> Callable[[str], dict[str, str]]:
    """The hidden inputs of a page's form, to send it again as a phone would."""
    return hidden_fields
