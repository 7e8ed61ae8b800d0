"""Lying phone clocks against the real app under waitress, on a Pi without NTP.

On main one game form whose phone clock was 6 days ahead moved the kiosk 6 days ahead (the
game itself was refused), five forms from one address set 2099, and "never backwards" kept
the kiosk ahead after honest phones had put the offset right: an honest game of today was
stamped a week ahead. Now phones vote one voice per address, three must agree, phones alone
move the kiosk at most a month, and a correction lets "never backwards" go.
"""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
from form_fields import hidden_fields
from harness import make_club
from served import served_app

from kiosk import clockfile
from kiosk.store import Store
from web import create_app


class Served:
    """The app under waitress on 127.0.0.1, on a Pi with no NTP (the flag file is never written)."""

    def __init__(self, home: Path, flag: Path) -> None:
        self.home, self.flag = home, flag
        # The Pi's own clock is the machine's, as on a Pi: the phones lie about it, and the test reads it too.
        pi = {"SEMEDORI_PI_CLOCK": lambda: datetime.now(UTC), "SEMEDORI_TIMESYNC_FLAG": str(flag)}
        self.app = create_app({"SEMEDORI_HOME": str(home), "STORE_PER_THREAD": True, **pi})
        self.port = 0  # waitress's, once it serves

    def kiosk_time(self) -> datetime:
        """What the kiosk's clock says now (the wall and the pages read the same)."""
        return clockfile.current(self.home, datetime.now(UTC), self.flag)[0]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    home = make_club(tmp_path / "data")
    with Store.open(home) as store:
        # Three honest phones record one pair each in turn: about clocks, not the "is this the same game?" question.
        # Their games are dated by the phones' clocks (today, or the week ahead the liars claim): the default
        # days back is all they need, on any day the test runs.
        store.save_config(store.config.with_changes(same_game_minutes=0))
    running = Served(home, tmp_path / "synchronized")
    with served_app(running.app) as server:
        running.port = server.effective_port
        yield running


def send_game(served: Served, address: str, phone_clock: datetime, a: str = "Ala", b: str = "Bartek") -> int:
    """A phone at ``address`` opens the game form and sends it (time as shown) with its own clock."""
    cookies: dict[str, str] = {}

    def one(method: str, path: str, body: bytes | None = None) -> tuple[int, str]:
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30, source_address=(address, 0))
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode()
            for line in response.headers.get_all("Set-Cookie") or []:
                cookies.update({name: morsel.value for name, morsel in SimpleCookie(line).items()})
            return response.status, text
        finally:
            connection.close()

    _, page = one("GET", "/new?size=13")
    form = hidden_fields(page)
    millis = str(int(phone_clock.timestamp() * 1000))
    fields = {**form, "size": "13", "a": a, "b": b, "winner": "a", "by": "resignation", "at": form.get("shown_at", "")}
    status, _ = one("POST", "/new", urlencode({**fields, "phone_clock": millis}).encode())
    return status


def newest_game_at(home: Path) -> datetime:
    with Store.open(home) as store:
        return store.recent_games(1)[0].at


def test_one_lying_address_cannot_move_the_kiosk_and_honest_phones_stamp_todays_games_today(served: Served) -> None:
    real = datetime.now(UTC)
    # One phone six days ahead, then the same address four more times, the last set to 2099.
    for moment in (real + timedelta(days=6),) * 4 + (datetime(2099, 1, 1, tzinfo=UTC),):
        send_game(served, "127.0.8.66", moment)
    off = served.kiosk_time() - datetime.now(UTC)
    print(f"\nafter 5 forms from one lying address the kiosk is {off} off")
    assert abs(off) < timedelta(minutes=2)
    # Three honest phones from three addresses: an honest game is stamped today, in this ISO week.
    for n in range(1, 4):
        assert send_game(served, f"127.0.8.{n}", datetime.now(UTC), "Celina", "Darek") == 302
    with Store.open(served.home) as store:
        zone = store.config.zone
    played = newest_game_at(served.home)
    today = datetime.now(UTC).astimezone(zone)
    assert played.date() == today.date() and played.isocalendar()[:2] == today.isocalendar()[:2]
    # The liar goes on: still one voice among four, the kiosk stays with the honest phones.
    for _ in range(5):
        send_game(served, "127.0.8.66", datetime.now(UTC) + timedelta(days=6))
    assert abs(served.kiosk_time() - datetime.now(UTC)) < timedelta(minutes=2)


def test_three_lying_addresses_move_the_kiosk_at_most_a_month_and_honest_phones_bring_it_back(served: Served) -> None:
    for n in range(1, 4):  # three kids agree on 2099
        send_game(served, f"127.0.9.{n}", datetime(2099, 1, 1, tzinfo=UTC))
    assert abs(served.kiosk_time() - datetime.now(UTC)) < timedelta(minutes=2)  # beyond the step: pending
    assert clockfile.load(served.home).pending is not None
    for n in range(1, 4):  # three kids agree on a week ahead: within the step, followed
        send_game(served, f"127.0.9.{n}", datetime.now(UTC) + timedelta(days=7))
    assert served.kiosk_time() - datetime.now(UTC) > timedelta(days=6)
    for n in range(10, 14):  # four honest phones: most addresses, the kiosk is back, never-backwards let go
        send_game(served, f"127.0.9.{n}", datetime.now(UTC), "Celina", "Darek")
    assert abs(served.kiosk_time() - datetime.now(UTC)) < timedelta(minutes=2)
    # NTP comes: it wins, whatever the phones say, and the kiosk says so.
    served.flag.touch()
    for n in range(1, 4):
        send_game(served, f"127.0.9.{n}", datetime.now(UTC) + timedelta(days=7))
    told, state = clockfile.current(served.home, datetime.now(UTC), served.flag)
    assert abs(told - datetime.now(UTC)) < timedelta(seconds=5) and state.follows == "ntp"
