"""The owner puts a wrong tap right and withdraws a player who went home, on the phone.

The kiosk's clock is fixed at Monday 30 November 2026, 19:00 in the club (the suite runs at
about 04:00 Warsaw, outside the club's evening), with internet time, as a Pi has it.
"""

from __future__ import annotations

import http.cookiejar
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from form_fields import hidden_fields
from served import served_app
from test_web_event import (  # the event page's own club: its owner's PIN, four players checked in
    EVENING,
    PIN,
    PLAYERS,
    app,  # noqa: F401  (a fixture)
    owner,
    settings,
    start,
)

from kiosk.events import Edit, Void
from kiosk.services import tournaments as events
from kiosk.store import Store
from web import create_app
from web.pin import hash_pin

POLISH = {"Accept-Language": "pl"}


def token(client: FlaskClient, event_id: int) -> str:
    return hidden_fields(client.get(f"/event/{event_id}").get_data(as_text=True))["csrf_token"]


def tap(client: FlaskClient, event_id: int, board: int, value: str, round_: str = "1", points: str = ""):
    data = {"csrf_token": token(client, event_id), "round": round_, "board": str(board), "tap": value, "points": points}
    return client.post(f"/event/{event_id}/result", data=data, follow_redirects=True)


def fix(client: FlaskClient, event_id: int, board: int, value: str, fixes: str = "0", round_: str = "1", **extra):
    data = {
        "csrf_token": token(client, event_id),
        "round": round_,
        "board": str(board),
        "tap": value,
        "points": "",
        "fixes": fixes,
        **extra,
    }
    return client.post(f"/event/{event_id}/correct", data=data, follow_redirects=True)


def went_home(client: FlaskClient, event_id: int, nick: str, headers: dict[str, str] | None = None):
    data = {"csrf_token": token(client, event_id), "player": nick}
    return client.post(f"/event/{event_id}/withdraw", data=data, follow_redirects=True, headers=headers or {})


def magnets(home: Path) -> dict[str, int]:
    with Store.open(home) as store:
        return {m.nick: m.strength for m in store.magnets()}


def test_the_owner_corrects_a_wrong_tap_and_the_board_replays(client: FlaskClient, home: Path) -> None:
    event_id = start(owner(client))
    phone = client.application.test_client()
    before = magnets(home)
    assert "Saved: Ewa won by resignation" in tap(phone, event_id, 2, "a:resignation").get_data(as_text=True)
    assert "Correct this result" not in phone.get(f"/event/{event_id}").get_data(as_text=True)  # a player's phone
    page = client.get(f"/event/{event_id}").get_data(as_text=True)
    assert 'id="fix-1-2"' in page and "Correct this result" in page and "Clear the result" in page
    answer = fix(client, event_id, 2, "b:points", points="4,5")
    assert "Corrected: Hania won by 4.5 points. The board was replayed." in answer.get_data(as_text=True)
    with Store.open(home) as store:
        [game] = store.games_since(datetime(2026, 11, 30))
        assert (game.players, game.winner, game.by) == (("Ewa", "Hania"), "Hania", 4.5)
        assert [type(e) for _, e in store.history_entries()][-1] is Edit
        assert store.check() == []
    # Hania (28, a guest) beat Ewa (30): as if the right result had been tapped from the start.
    after = magnets(home)
    assert after["Hania"] > before["Hania"] and after["Ewa"] <= before["Ewa"]
    # The same form again (a double tap) changes nothing; the second phone's stale form is refused.
    again = fix(client, event_id, 2, "b:points", points="4.5", fixes="0")
    assert "That board already says so; nothing was changed." in again.get_data(as_text=True)
    stale = fix(client, event_id, 2, "a:other", fixes="0")
    assert stale.status_code == 409
    assert "Someone changed this board just now: Hania won by 4.5 points." in stale.get_data(as_text=True)
    with Store.open(home) as store:
        assert len([e for _, e in store.history_entries() if isinstance(e, Edit)]) == 1


def test_the_owner_clears_a_board_and_a_player_taps_it_again(client: FlaskClient, home: Path) -> None:
    event_id = start(owner(client), counts=False)
    phone = client.application.test_client()
    tap(phone, event_id, 1, "a:other")
    answer = fix(client, event_id, 1, "clear").get_data(as_text=True)
    assert "The result was cleared: the players can tap this board again." in answer
    with Store.open(home) as store:
        assert store.games_since(datetime(2026, 11, 30)) == []
        assert [type(e) for _, e in store.history_entries()][-1] is Void
    assert "Saved: Franek won" in tap(phone, event_id, 1, "b:other").get_data(as_text=True)
    with Store.open(home) as store:
        [game] = store.games_since(datetime(2026, 11, 30))
        assert game.winner == "Franek" and game.kind == "event"


def test_only_the_owner_corrects_or_withdraws(client: FlaskClient, home: Path) -> None:
    event_id = start(owner(client))
    phone = client.application.test_client()
    tap(phone, event_id, 2, "a:resignation")
    with Store.open(home) as store:
        before = list(store.history_entries())
    csrf = token(phone, event_id)
    data = {"csrf_token": csrf, "round": "1", "board": "2", "tap": "b:other", "fixes": "0"}
    refused = phone.post(f"/event/{event_id}/correct", data=data)
    assert refused.status_code == 302 and "/owner/login" in refused.headers["Location"]
    refused = phone.post(f"/event/{event_id}/withdraw", data={"csrf_token": csrf, "player": "Hania"})
    assert refused.status_code == 302 and "/owner/login" in refused.headers["Location"]
    with Store.open(home) as store:
        assert list(store.history_entries()) == before
        assert events.get(store, event_id).withdrawn == ()  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("send", "status", "english", "polish"),
    [
        ({"round": "1", "board": "1", "tap": "a:other"}, 400, "This board has no result yet", "nie ma jeszcze wyniku"),
        ({"round": "1", "board": "9", "tap": "a:other"}, 400, "That board is not there", "Tej planszy nie ma"),
        ({"round": "x", "board": "2", "tap": "a:other"}, 400, "Tap who won, and how.", "Stuknij, kto wygrał i jak."),
        ({"round": "1", "board": "2", "tap": "sideways"}, 400, "Tap who won, and how.", "Stuknij, kto wygrał i jak."),
        ({"round": "1", "board": "2", "tap": "a:other", "fixes": ""}, 400, "This form is too old", "za stary"),
        (
            {"round": "1", "board": "2", "tap": "a:points", "points": "lots"},
            400,
            "Type the points as a number",
            "Wpisz punkty",
        ),
    ],
)
def test_bad_corrections_say_why_in_english_and_polish_and_change_nothing(
    client: FlaskClient, home: Path, send: dict[str, str], status: int, english: str, polish: str
) -> None:
    event_id = start(owner(client))
    tap(client, event_id, 2, "a:resignation")
    with Store.open(home) as store:
        before = list(store.history_entries())
    for headers, expected in (({}, english), (POLISH, polish)):
        data = {"csrf_token": token(client, event_id), "fixes": "0", **send}
        response = client.post(f"/event/{event_id}/correct", data=data, headers=headers)
        page = response.get_data(as_text=True)
        assert response.status_code == status and expected in page, (send, page[:3000])
        assert "Traceback" not in page
    with Store.open(home) as store:
        assert list(store.history_entries()) == before
    gone = client.post(
        "/event/404/correct",
        data={"csrf_token": token(client, event_id), "round": "1", "board": "1", "tap": "a:other", "fixes": "0"},
    )
    assert gone.status_code == 404 and "That event is not there any more." in gone.get_data(as_text=True)
    stale = client.post(f"/event/{event_id}/correct", data={"round": "1", "board": "2", "tap": "b:other"})
    assert stale.status_code == 400 and "This form is too old" in stale.get_data(as_text=True)


def test_the_owner_withdraws_a_player_who_went_home(client: FlaskClient, home: Path) -> None:
    event_id = start(owner(client))
    phone = client.application.test_client()
    tap(phone, event_id, 1, "a:other")  # Gosia beat Franek
    page = client.get(f"/event/{event_id}").get_data(as_text=True)
    assert 'name="player" id="went-home"' in page and "Went home: no more games" in page
    answer = went_home(client, event_id, "hania").get_data(as_text=True)
    assert "Hania went home: no more games in this event. Their opponents get the bye instead." in answer
    # Round 1's board 2 (Ewa – Hania) is not played: Ewa sits out it instead; round 2 is on.
    assert "Round 2 of 6" in answer and "Hania (went home)" not in answer.split("Standings")[0]
    assert 'Hania <span class="small">(went home)</span>' in answer
    assert "each opponent they would still have met sits out that round instead" in answer
    with Store.open(home) as store:
        event = events.get(store, event_id)
        assert event is not None and event.withdrawn == (("Hania", 1),)
        assert all("Hania" not in (s.a, s.b) for s in event.seats)
    again = went_home(client, event_id, "Hania").get_data(as_text=True)
    assert "Hania had already gone home." in again
    nobody = went_home(client, event_id, "Zbyszek", POLISH)
    assert nobody.status_code == 400 and "Wybierz gracza tego turnieju." in nobody.get_data(as_text=True)
    polish = went_home(client, event_id, "Franek", POLISH).get_data(as_text=True)
    assert "Franek – wycofanie z turnieju" in polish
    # The stale tap of a phone on Hania's old board is refused kindly, saying why.
    assert "Hania went home: you have the bye." in tap(phone, event_id, 2, "b:other").get_data(as_text=True)


def test_the_opponent_of_one_who_went_home_hears_they_have_the_bye(client: FlaskClient, home: Path) -> None:
    event_id = start(owner(client))
    went_home(client, event_id, "Hania")  # round 1's board 2 (Ewa – Hania) became Ewa's bye
    phone = client.application.test_client()
    english = tap(phone, event_id, 2, "a:resignation").get_data(as_text=True)
    assert "Hania went home: you have the bye." in english and "That round is over" not in english
    phone.get("/event", headers=POLISH)
    data = {"csrf_token": token(phone, event_id), "round": "1", "board": "2", "tap": "a:other", "points": ""}
    polish = phone.post(f"/event/{event_id}/result", data=data, follow_redirects=True, headers=POLISH)
    assert "Hania – wycofanie z turnieju: masz pauzę (1 punkt)." in polish.get_data(as_text=True)
    with Store.open(home) as store:
        assert store.games_since(datetime(2026, 11, 30)) == []  # nothing saved


def test_withdrawing_from_a_closed_event_is_refused(client: FlaskClient) -> None:
    event_id = start(owner(client))
    client.post(f"/event/{event_id}/close", data={"csrf_token": token(client, event_id), "sure": "yes"})
    refused = went_home(client, event_id, "Hania")
    assert refused.status_code == 400 and "This event is over or closed" in refused.get_data(as_text=True)
    polish = went_home(client, event_id, "Hania", POLISH)
    assert "Ten turniej jest zakończony albo zamknięty" in polish.get_data(as_text=True)


class Phone:
    """A phone's browser over real HTTP: its own cookies, redirects not followed (the answer's status is kept)."""

    class _Keep(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    def __init__(self, address: str) -> None:
        self.address = address
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), self._Keep()
        )

    def get(self, path: str) -> str:
        with self.opener.open(self.address + path, timeout=30) as response:
            return response.read().decode()

    def post(self, path: str, data: dict[str, object]) -> tuple[int, str]:
        body = urllib.parse.urlencode(data, doseq=True).encode()
        try:
            with self.opener.open(self.address + path, data=body, timeout=30) as response:
                return response.status, ""
        except urllib.error.HTTPError as answer:  # a redirect (not followed) or a refusal
            return answer.code, answer.headers.get("Location", "")


@contextmanager
def waitress_app(home: Path, tmp_path: Path) -> Iterator[str]:
    """The app under waitress with four threads, as `semedori serve` runs it; yields its address."""
    served = create_app({**settings(home, tmp_path), "STORE_PER_THREAD": True})
    with served_app(served) as server:
        yield f"http://127.0.0.1:{server.effective_port}"


def test_two_owner_phones_correcting_at_once_under_waitress_record_one_change(home: Path, tmp_path: Path) -> None:
    with Store.open(home) as store:
        store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN)))
        for nick in PLAYERS:
            store.check_in(EVENING, nick)

    def logged_in(address: str) -> Phone:
        phone = Phone(address)
        login = hidden_fields(phone.get("/owner/login"))
        assert phone.post("/owner/login", {**login, "pin": PIN})[0] == 302
        return phone

    with waitress_app(home, tmp_path) as address:
        first = logged_in(address)
        page = first.get("/event?size=13")
        status, location = first.post(
            "/event/start", {**hidden_fields(page), "size": "13", "player": PLAYERS, "counts": "y"}
        )
        assert status == 302, location
        event_id = int(location.rsplit("/", 1)[1])
        csrf = hidden_fields(first.get(f"/event/{event_id}"))["csrf_token"]
        tapped = {"csrf_token": csrf, "round": "1", "board": "2", "tap": "a:resignation"}
        assert first.post(f"/event/{event_id}/result", tapped)[0] == 302
        phones = []
        for _i in range(6):  # six of the owner's phones, each logged in, each with the page open
            phone = logged_in(address)
            phones.append((phone, hidden_fields(phone.get(f"/event/{event_id}"))["csrf_token"]))
        line = threading.Barrier(len(phones))
        answers: list[int] = []

        def correct(i: int) -> None:
            phone, csrf = phones[i]
            wish = "b:other" if i % 2 else "clear"
            data = {"csrf_token": csrf, "round": "1", "board": "2", "tap": wish, "fixes": "0"}
            line.wait()
            answers.append(phone.post(f"/event/{event_id}/correct", data)[0])

        threads = [threading.Thread(target=correct, args=(i,)) for i in range(len(phones))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    # One phone's change is saved (a redirect back to the event), as are those that asked for the same (nothing
    # to do); the others are told the board changed (409). Never a 500, never a second change.
    assert len(answers) == 6 and set(answers) <= {302, 409} and 302 in answers and 409 in answers, answers
    with Store.open(home) as store:
        changes = [e for _, e in store.history_entries() if isinstance(e, Edit | Void)]
        assert len(changes) == 1 and events.fix_count(store, event_id, 1, 2) == 1
        seat = events.get(store, event_id).round_seats(1)[1]  # type: ignore[union-attr]
        games = store.games_since(datetime(2026, 11, 30))
        assert (seat.result is None) == isinstance(changes[0], Void) == (games == [])
        assert store.check() == []


def test_eight_phones_tapping_two_winners_at_once_under_waitress_one_wins_every_other_result_is_a_409(
    home: Path, tmp_path: Path
) -> None:
    # The first tap decides; a phone that tapped the same result hears "same result again"
    # (200), every phone that tapped the other winner a 409, never a second game.
    import json

    with Store.open(home) as store:
        for nick in PLAYERS:
            store.check_in(EVENING, nick)
        from kiosk.pairing import side_of

        event = events.start(store, EVENING, 13, [side_of(store.magnets(), n, 13) for n in PLAYERS], counts=True)
        boards = [s for s in event.round_seats(1) if s.b is not None]

    def post(address: str, body: dict) -> int:
        request = urllib.request.Request(
            f"{address}/api/events/{event.id}/results",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return int(response.status)
        except urllib.error.HTTPError as answer:
            return int(answer.code)

    with waitress_app(home, tmp_path) as address:
        for seat in boards:
            line = threading.Barrier(8)
            answers: dict[int, int] = {}

            def phone(i: int, seat: object = seat, line: threading.Barrier = line, answers: dict = answers) -> None:
                winner = seat.a if i % 2 else seat.b  # type: ignore[attr-defined]
                line.wait()
                answers[i] = post(address, {"round": 1, "board": seat.board, "winner": winner, "by": "resignation"})  # type: ignore[attr-defined]

            threads = [threading.Thread(target=phone, args=(i,)) for i in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(answers.values()).count(201) == 1, answers
            first = next(i for i, code in answers.items() if code == 201)
            same = [code for i, code in answers.items() if i != first and i % 2 == first % 2]
            other = [code for i, code in answers.items() if i % 2 != first % 2]
            assert same == [200, 200, 200] and other == [409, 409, 409, 409], answers
    with Store.open(home) as store:
        assert len(store.games_since(datetime(2026, 11, 30))) == len(boards)  # one game a board
        assert store.check() == []
