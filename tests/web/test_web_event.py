"""Tonight's event on the phone: the owner starts it, one tap per board, standings, exports.

The kiosk's clock is fixed at Monday 30 November 2026, 19:00 in the club (the suite runs at
about 04:00 Warsaw, outside the club's evening), with internet time, as a Pi has it.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from pathlib import Path
from xml.etree import ElementTree

import pytest
from flask import Flask
from flask.testing import FlaskClient
from form_fields import hidden_fields

from kiosk.services import tournaments as events
from kiosk.store import Store
from web import create_app
from web.pin import hash_pin

CLUB_19H = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
EVENING = date(2026, 11, 30)
PIN = "2468"
PLAYERS = ["Ewa", "Franek", "Gosia", "Hania"]  # 30, 0 (guest), 30.5 and 28 (guest) on 13x13


def settings(home: Path, tmp_path: Path) -> dict[str, object]:
    """The app's settings for the club at 19:00 on the evening, its clock trusted."""
    synced = tmp_path / "synchronized"
    synced.touch()
    return {"SEMEDORI_HOME": str(home), "SEMEDORI_PI_CLOCK": lambda: CLUB_19H, "SEMEDORI_TIMESYNC_FLAG": str(synced)}


@pytest.fixture
def app(home: Path, tmp_path: Path) -> Flask:
    with Store.open(home) as store:
        store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN)))
        for nick in PLAYERS:
            store.check_in(EVENING, nick)
    return create_app({**settings(home, tmp_path), "TESTING": True})


def owner(client: FlaskClient) -> FlaskClient:
    form = hidden_fields(client.get("/owner/login").get_data(as_text=True))
    assert client.post("/owner/login", data={**form, "pin": PIN}).status_code == 302
    return client


def start(client: FlaskClient, counts: bool = True, players: list[str] = PLAYERS) -> int:
    page = client.get("/event?size=13").get_data(as_text=True)
    data: dict[str, object] = {**hidden_fields(page), "size": "13", "player": players, "name": "Listopad"}
    if counts:
        data["counts"] = "y"
    response = client.post("/event/start", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def tap(client: FlaskClient, event_id: int, board: int, value: str, points: str = "", round_: str = "1", **extra: str):
    token = hidden_fields(client.get(f"/event/{event_id}").get_data(as_text=True))["csrf_token"]
    data = {"csrf_token": token, "round": round_, "board": str(board), "tap": value, "points": points, **extra}
    return client.post(f"/event/{event_id}/result", data=data, follow_redirects=True)


def test_the_owner_starts_tonights_event_and_a_tap_records_an_ordinary_game(client: FlaskClient, home: Path) -> None:
    page = client.get("/event").get_data(as_text=True)
    assert "No event tonight yet" in page and "Start the event" not in page  # not the owner
    owner(client)
    page = client.get("/event?size=13").get_data(as_text=True)
    assert "With everyone ticked: double round-robin, 6 rounds." in page
    event_id = start(client)
    page = client.get(f"/event/{event_id}").get_data(as_text=True)
    assert "Round 1 of 6" in page and "The event has started" in page
    # Berger's first round, 1-4 and 2-3: 30.5 against 0 (a training game) and 30 against 28 on 13x13.
    assert "Board 1: Gosia – Franek" in page and "Gosia takes White, Franek takes Black." in page
    assert "Training game: Gosia (White) does not move." in page
    assert "Board 2: Ewa – Hania" in page and "Ewa takes White, Hania takes Black." in page
    answer = tap(client, event_id, 2, "b:resignation").get_data(as_text=True)
    assert "Saved: Hania won by resignation. Thank you!" in answer
    with Store.open(home) as store:
        games = store.games_since(datetime(2026, 11, 30))
        assert [(g.players, g.winner, g.by) for g in games] == [(("Ewa", "Hania"), "Hania", "resignation")]
        assert games[0].at == datetime(2026, 11, 30, 19, 0)
    again = tap(client, event_id, 2, "b:resignation").get_data(as_text=True)
    assert "That result was already saved. Thank you!" in again
    other = tap(client, event_id, 2, "a:other").get_data(as_text=True)
    assert "This game already has a result: Hania won by resignation. If that is wrong, tell the owner." in other
    with Store.open(home) as store:
        assert len(store.games_since(datetime(2026, 11, 30))) == 1
    saved = tap(client, event_id, 1, "a:points", points="12,5").get_data(as_text=True)
    assert "Saved: Gosia won by 12.5 points. Thank you!" in saved
    page = client.get(f"/event/{event_id}").get_data(as_text=True)
    assert "Round 2 of 6" in page
    assert re.search(r"<td>1</td><td>(Gosia|Hania)</td><td class=\"num\">1</td>", page)


@pytest.mark.parametrize("typed", ["1_0", "1e1", "١٠", "1 0", "inf", "1,5,0"])
def test_only_digits_and_one_decimal_point_are_points(client: FlaskClient, home: Path, typed: str) -> None:
    """Python's float() reads "1_0" as ten and "١٠" (Arabic-Indic digits) as ten: a person typed neither as a
    10-point win. Refused in the game form's words, in English and Polish, and nothing is saved."""
    event_id = start(owner(client), counts=True)
    phone = client.application.test_client()
    english = tap(phone, event_id, 1, "a:points", typed)
    assert english.status_code == 400 and "Type the points as a number from 0.5 to 169" in english.get_data(
        as_text=True
    )
    token = hidden_fields(phone.get(f"/event/{event_id}").get_data(as_text=True))["csrf_token"]
    data = {"csrf_token": token, "round": "1", "board": "1", "tap": "a:points", "points": typed}
    polish = phone.post(f"/event/{event_id}/result", data=data, headers={"Accept-Language": "pl"})
    assert polish.status_code == 400 and "Wpisz punkty jako liczbę od 0,5 do 169" in polish.get_data(as_text=True)
    with Store.open(home) as store:
        assert store.games_since(datetime(2026, 11, 30)) == []
        assert all(s.result is None for s in events.get(store, event_id).seats)  # type: ignore[union-attr]


def test_bad_and_stale_taps_get_a_kind_message_and_save_nothing(client: FlaskClient, home: Path) -> None:
    event_id = start(owner(client), counts=False)
    phone = client.application.test_client()  # a player's phone, not the owner's
    for value, points, expected in [
        ("", "", "Tap who won, and how."),
        ("c:points", "", "Tap who won, and how."),
        ("a:sideways", "", "Tap who won, and how."),
        ("a:points", "", "Type the points first, then tap “won by points”."),
        ("a:points", "lots", "Type the points as a number from 0.5 to 169"),
    ]:
        response = tap(phone, event_id, 1, value, points)
        assert response.status_code == 400, value
        assert expected in response.get_data(as_text=True), value
    assert tap(phone, event_id, 1, "a:other", round_="x").status_code == 400
    assert tap(phone, event_id, 77, "a:other").get_data(as_text=True).count("That round is over") == 1
    assert tap(phone, event_id, 1, "a:other", round_="3").get_data(as_text=True).count("That round is over") == 1
    stale = phone.post(f"/event/{event_id}/result", data={"round": "1", "board": "1", "tap": "a:other"})
    assert stale.status_code == 400 and "This form is too old" in stale.get_data(as_text=True)
    gone = phone.post("/event/404/result", data={})
    assert gone.status_code == 400  # no token: stale, said first
    token = hidden_fields(phone.get(f"/event/{event_id}").get_data(as_text=True))["csrf_token"]
    gone = phone.post("/event/404/result", data={"csrf_token": token, "round": "1", "board": "1", "tap": "a:other"})
    assert gone.status_code == 404 and "That event is not there any more." in gone.get_data(as_text=True)
    assert phone.get("/event/404", follow_redirects=True).get_data(as_text=True).count("not there any more") == 1
    event = events.get(Store.open(home), event_id)
    assert event is not None and all(s.result is None for s in event.seats)
    # A draw is a choice in a handicap game; the event does not count on the board: its games are kind "event".
    assert "Saved: Draw. Thank you!" in tap(phone, event_id, 2, "draw").get_data(as_text=True)
    tap(phone, event_id, 1, "a:other")
    with Store.open(home) as store:
        assert {game.kind for game in store.games_since(datetime(2026, 11, 30))} == {"event"}
    # Round 2's first board, Gosia – Ewa (30.5 and 30), is an even game: no draw button, margins end in .5.
    page = phone.get(f"/event/{event_id}").get_data(as_text=True)
    first = page.split('id="board-1"')[1].split("</article>")[0]
    assert "Gosia – Ewa" in first and "Draw</button>" not in first and "Even game" in first
    seven = tap(phone, event_id, 1, "a:points", "7", round_="2")
    assert seven.status_code == 400 and "In an even game the points always end in .5" in seven.get_data(as_text=True)
    assert tap(phone, event_id, 1, "draw", round_="2").status_code == 400


def test_only_the_owner_starts_closes_and_downloads(client: FlaskClient, app: Flask) -> None:
    phone = app.test_client()
    page = phone.get("/event").get_data(as_text=True)
    assert phone.post("/event/start", data={**hidden_fields(page), "player": PLAYERS}).status_code == 302
    assert "/owner/login" in phone.post("/event/start", data={}).headers["Location"]
    event_id = start(owner(client))
    assert "/owner/login" in phone.get(f"/event/{event_id}/event-{event_id}.h9").headers["Location"]
    page = phone.get(f"/event/{event_id}").get_data(as_text=True)
    assert "Download" not in page and "Close the event" not in page
    assert phone.post(f"/event/{event_id}/close", data={}).status_code == 302
    assert events.open_event(Store.open(Path(app.config["SEMEDORI_HOME"])), EVENING) is not None
    # A second event while one is open: said, nothing changes.
    again = client.post(
        "/event/start",
        data={**hidden_fields(client.get("/event").get_data(as_text=True)), "size": "13", "player": PLAYERS},
    )
    assert again.status_code == 400 and "event is still open. Close it before" in again.get_data(as_text=True)


def test_the_owner_downloads_the_h9_and_the_opengotha_file(client: FlaskClient) -> None:
    event_id = start(owner(client))
    for board, value in ((1, "a:resignation"), (2, "draw")):
        tap(client, event_id, board, value)
    h9 = client.get(f"/event/{event_id}/event-{event_id}.h9")
    assert h9.status_code == 200 and "attachment" in h9.headers["Content-Disposition"]
    lines = [line for line in h9.get_data(as_text=True).splitlines() if line and not line.startswith(";")]
    assert len(lines) == 4 and all(re.match(r"^\d \S+ \d+[kd] PL Semd \d[+=-]", line) for line in lines)
    assert lines[0] == "1 Gosia 20k PL Semd 4+/w12"  # 30.5 converts to 20 kyu; 12 starting moves
    xml = client.get(f"/event/{event_id}/event-{event_id}.xml")
    root = ElementTree.fromstring(xml.get_data())
    assert sorted(p.get("name") for p in root.iter("Player")) == sorted(PLAYERS)
    assert [g.get("result") for g in root.iter("Game")][:2] == ["RESULT_WHITEWINS", "RESULT_EQUAL"]
    assert client.get(f"/event/{event_id}/event-{event_id + 1}.h9").status_code == 302
    close_token = hidden_fields(client.get(f"/event/{event_id}").get_data(as_text=True))["csrf_token"]
    asked = client.post(f"/event/{event_id}/close", data={"csrf_token": close_token})  # rounds unplayed: asked first
    assert "rounds not played yet" in asked.get_data(as_text=True)
    sure = {"csrf_token": close_token, "sure": "yes"}
    closed = client.post(f"/event/{event_id}/close", data=sure, follow_redirects=True)
    assert "The event is closed." in closed.get_data(as_text=True)
    late = tap(client, event_id, 1, "b:other", round_="2").get_data(as_text=True)
    assert "That round is over, or the event was closed." in late
    assert "Start an event" in client.get("/event").get_data(as_text=True)  # a new one may start


def test_the_event_page_speaks_polish(client: FlaskClient) -> None:
    event_id = start(owner(client))
    client.set_cookie("lang", "pl")
    page = client.get(f"/event/{event_id}", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert "Runda 1 z 6" in page and "Tabela" in page and "przez poddanie" in page
    answer = tap(client, event_id, 2, "b:resignation", **{}).get_data(as_text=True)
    assert "Zapisano: Hania – wygrana przez poddanie. Dziękujemy!" in answer


def test_a_swiss_for_eleven_and_the_owners_fewer_rounds(client: FlaskClient, home: Path) -> None:
    from kiosk.events import parse_event

    newcomers = [f"Gracz{i}" for i in range(7)]
    with Store.open(home) as store:
        for i, nick in enumerate(newcomers):
            line = {"type": "player", "at": "2026-11-01T11:00", "nick": nick, "size": 13, "status": "member"}
            store.record(parse_event({**line, "strength": 10 + i}))
            store.check_in(EVENING, nick)
    owner(client)
    page = client.get("/event?size=13").get_data(as_text=True)
    assert "With everyone ticked: Swiss, 7 rounds." in page and "Fewer rounds for a short evening" in page
    form = {**hidden_fields(page), "size": "13", "player": PLAYERS + newcomers, "rounds": "4"}
    response = client.post("/event/start", data=form, follow_redirects=True)
    shown = response.get_data(as_text=True)
    assert "Round 1 of 4" in shown and "Swiss" in shown
    # The weakest sits out first: Franek, a guest at 0.
    assert shown.count('class="board"') == 5 and "Sits out this round: Franek (it counts as a win)" in shown


def test_a_players_phone_names_the_event_by_the_clubs_labels_and_the_owner_sees_nicknames(
    app: Flask, home: Path
) -> None:
    from kiosk.privacy import INITIALS

    with Store.open(home) as store:
        store.set_club_privacy(INITIALS)
    event_id = start(owner(app.test_client()))
    owners = owner(app.test_client()).get(f"/event/{event_id}").get_data(as_text=True)
    assert "Board 1: Gosia – Franek" in owners
    phone = app.test_client()
    tap(phone, event_id, 1, "a:resignation")
    page = phone.get(f"/event/{event_id}").get_data(as_text=True)
    assert "Board 1: G. – F." in page and "G. won by resignation" in page
    for nick in PLAYERS:
        assert nick not in page  # the boards, the colours, the standings: labels only
