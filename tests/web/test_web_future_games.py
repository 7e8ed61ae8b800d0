"""A game dated in the future never disappears from a list.

Phones and API clients can no longer date a game ahead of the kiosk's clock, but the owner, an
import, or a kiosk whose clock was wrong a year can still hold one. It must stay in the games
list, the API's list and both players' pages.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

from club_days import CLUB_EVENING
from flask.testing import FlaskClient

from kiosk.events import parse_line
from kiosk.rules import club_now
from kiosk.store import Store


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").split())


def record(store: Store, line: dict[str, object]) -> None:
    store.record(parse_line(json.dumps(line)), origin="owner")


def two_members(store: Store) -> None:
    for nick, strength in (("Zegarek", 20), ("Kalendarz", 22)):
        line = {"type": "player", "at": "2020-01-01T10:00", "nick": nick, "size": 9, "status": "member"}
        record(store, {**line, "strength": strength})


def game(at: str, winner: str) -> dict[str, object]:
    return {
        "type": "game",
        "at": at,
        "size": 9,
        "players": ["Zegarek", "Kalendarz"],
        "winner": winner,
        "by": "resignation",
    }


def test_a_game_dated_a_year_ahead_stays_in_every_list(client: FlaskClient, store: Store) -> None:
    now = club_now(store.config, CLUB_EVENING)
    ahead = (now + timedelta(days=365)).strftime("%Y-%m-%dT%H:%M")
    two_members(store)
    record(store, game(ahead, "Kalendarz"))
    # Ordinary games of today after it, so a list that cut at "now" or showed only today would miss it.
    for _ in range(3):
        record(store, game(now.strftime("%Y-%m-%dT%H:%M"), "Zegarek"))
    day = ahead[:10]

    games = text(client.get("/games").get_data(as_text=True))
    assert day in games, games[:2000]
    api = client.get("/api/games").get_json()
    assert any(g["at"].startswith(day) for g in api["games"]), api
    filtered = client.get("/api/games?player=Zegarek").get_json()
    assert any(g["at"].startswith(day) for g in filtered["games"]), filtered
    for nick in ("Zegarek", "Kalendarz"):
        page = client.get(f"/players/{nick}")
        assert page.status_code == 200
        assert day in text(page.get_data(as_text=True)), nick


def test_the_wall_lists_a_game_dated_ahead_among_its_latest(store: Store) -> None:
    from display.wall import from_source

    now = club_now(store.config, CLUB_EVENING)
    ahead = (now + timedelta(days=365)).strftime("%Y-%m-%dT%H:%M")
    two_members(store)
    record(store, game(ahead, "Kalendarz"))
    data = from_source(store, now.replace(tzinfo=None))
    assert any(g.at.strftime("%Y-%m-%dT%H:%M") == ahead for g in data.recent), data.recent
