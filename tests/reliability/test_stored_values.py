"""What a phone sends that is kept has a length cap, against `semedori serve`.

The game form's one-time token becomes the history's idempotency key and the phone cookie
its origin: before the caps, one game carrying a 25 MB token grew the database by 71 MB.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from urllib.parse import urlencode

from form_fields import hidden_fields
from harness import Phone, Server, request

from kiosk.config import DATABASE_NAME

FORM = {"size": "13", "a": "Ala", "b": "Bartek", "winner": "b", "by": "points", "points": "7.5", "action": "save"}


def stored_bytes(home: Path) -> int:
    """The database and its write-ahead log, as the card holds them."""
    return sum(path.stat().st_size for path in home.glob(f"{DATABASE_NAME}*"))


def longest_stored(home: Path) -> tuple[int, int, int]:
    """The longest key, origin and line in the history."""
    with contextlib.closing(sqlite3.connect(home / DATABASE_NAME)) as db:
        row = db.execute("SELECT max(length(key)), max(length(origin)), max(length(line)) FROM event").fetchone()
    return int(row[0] or 0), int(row[1] or 0), int(row[2] or 0)


def games(home: Path) -> int:
    with contextlib.closing(sqlite3.connect(home / DATABASE_NAME)) as db:
        return int(db.execute("SELECT count(*) FROM event WHERE type = 'game'").fetchone()[0])


def test_a_huge_token_or_cookie_is_refused_or_replaced_and_nothing_grows(server: Server, club: Path) -> None:
    before = stored_bytes(club)
    phone = Phone(server.host)
    _, _, page = phone.send("GET", "/new")
    fields = {**hidden_fields(page), **FORM}

    # 25 MB in the one-time token: the body alone is over the cap, refused before it is read.
    status, _, text = phone.send("POST", "/new", {**fields, "once": "x" * 25_000_000})
    assert status == 413  # main: 302, the game saved with the 25 MB key
    assert "too large" in text
    # 60 KB: the body is under the cap, the token is not a token.
    status, _, text = phone.send("POST", "/new", {**fields, "once": "y" * 60_000})
    assert status == 400  # main: 302
    assert "nothing was saved" in text
    assert games(club) == 0
    # Polish too.
    body = urlencode({**fields, "once": "z" * 60_000}).encode()
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Accept-Language": "pl",
        "Cookie": "; ".join(f"{k}={v}" for k, v in phone.cookies.items()),
    }
    status, _, text = request(server.host, "POST", "/new", body, headers)
    assert status == 400 and "nic nie zapisano" in text

    # A 3,000-character phone cookie is not kept: the phone gets a fresh one, the game goes in.
    phone.cookies["phone"] = "p" * 3000
    status, _, _ = phone.send("POST", "/new", fields)
    assert status == 302
    assert len(phone.cookies["phone"]) < 64
    key, origin, _ = longest_stored(club)
    print(f"\nlongest key {key}, longest origin {origin}, the card grew by {stored_bytes(club) - before:,} bytes")
    assert key <= 100 and origin <= 100  # main: a 25,000,005-character key, a 3,006-character origin
    assert stored_bytes(club) - before < 200_000  # main: +71 MB
    assert server.errors_logged() == []


def test_every_form_body_outside_the_import_is_capped(server: Server, club: Path) -> None:
    """A 1 MB form to the add-guest, check-in or login page is refused whole (413), nothing kept."""
    for path in ("/players/new", "/tonight/here", "/owner/login", "/new"):
        status, _, _ = request(
            server.host,
            "POST",
            path,
            urlencode({"nick": "N" * 1_000_000}).encode(),
            {"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert status == 413, path
    assert games(club) == 0
