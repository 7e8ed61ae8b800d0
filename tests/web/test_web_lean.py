"""The web process stays lean: reading pages never load the whole history, and a late
result replays from a checkpoint, not the whole history."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from kiosk.replay import Replay
from kiosk.store import Store
from kiosk.store_history import History

READING = [
    "/",
    "/?size=13",
    "/games",
    "/players/Bianka",
    "/handicap?size=9&a=Bianka&b=Czarek",
    "/rules",
    "/new",
    "/new/handicap?size=9&a=Bianka&b=Czarek",
    "/games/1",
    "/api/board?size=9",
    "/api/players",
    "/api/games",
    "/api/handicap?size=9&a=Bianka&b=Czarek",
]


@pytest.fixture
def whole_history_refused(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every way of reading or replaying the whole history fails loudly, and is noted."""
    used: list[str] = []

    def refuse(name: str) -> Callable[..., None]:
        def refused(*_args: object, **_kwargs: object) -> None:
            used.append(name)
            raise AssertionError(f"{name} read the whole history")

        return refused

    for owner, name in (
        (Store, "history_entries"),
        (Store, "export_lines"),
        (History, "history_entries"),
        (History, "export_lines"),
        (History, "replay_all"),
        (Replay, "run"),
        (Replay, "run_streamed"),
    ):
        monkeypatch.setattr(owner, name, refuse(f"{owner.__name__}.{name}"))
    return used


def test_reading_pages_never_load_the_whole_history(client: FlaskClient, whole_history_refused: list[str]) -> None:
    for path in READING:
        assert client.get(path).status_code == 200, path
    assert whole_history_refused == []


def test_a_late_result_from_a_phone_replays_from_a_checkpoint(
    client: FlaskClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Store, "checkpoint_every", 1)
    store.rebuild()  # checkpoints after every game of the small club
    for minute in range(5):
        body = {"size": 13, "players": ["Ewa", "Gosia"], "winner": "Gosia", "at": f"2026-11-04T19:{minute:02d}"}
        assert client.post("/api/games", json=body).status_code == 201
    refused: list[str] = []
    monkeypatch.setattr(History, "replay_all", lambda _self: refused.append("whole replay"))
    late = {"size": 13, "players": ["Ewa", "Gosia"], "winner": "Ewa", "at": "2026-11-04T19:02"}  # sent minutes late
    response = client.post("/api/games", json=late)
    assert response.status_code == 201
    assert refused == []
    monkeypatch.undo()
    games = store.recent_games(limit=10)
    assert [g.at.minute for g in games[:6]] == [4, 3, 2, 2, 1, 0]
    assert store.check() == []
