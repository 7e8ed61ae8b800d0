"""Tampering: forged forms save nothing, the PIN resists guessing (across restarts), every
response carries the security headers, every owner action is audited, no stack trace leaks."""

from __future__ import annotations

import hashlib
import io
import logging
import re
import subprocess
import sys
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
from click.testing import CliRunner
from club_days import on_the_club_clock
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from kiosk.store import Store
from web import create_app, lockout
from web.cli import set_pin_command
from web.pin import check_pin, hash_pin

PIN = "2468"
PIN_HASH = hash_pin(PIN)  # once: scrypt is slow on purpose
POLISH = {"Accept-Language": "pl-PL,pl;q=0.9"}
STALE_PL = "Ten formularz jest za stary albo nie pochodzi z tej strony; nic nie zapisano."
SORRY_PL = "Coś poszło nie tak w kiosku; nic nie zapisano. Powiedz o tym właścicielowi tablicy."

# What a phone would send to each POST route when the form is filled in correctly:
# only the CSRF token is missing. A new POST route fails the test below until it is listed.
FILLED: dict[str, list[tuple[str, dict[str, str]]]] = {
    "recording.record_game": [
        (
            "/new",
            {"size": "9", "a": "Bianka", "b": "Czarek", "winner": "b", "by": "points", "points": "21", "once": "x1"},
        )
    ],
    "recording.add_player": [("/players/new", {"nick": "Iga", "size": "13", "start": "zero", "once": "x2"})],
    "recording.undo": [("/games/1/undo", {"once": "x3"})],
    "auth.login": [("/owner/login", {"pin": PIN})],
    "auth.logout": [("/owner/logout", {})],
    "owner.correction": [
        ("/owner/correction", {"nick": "Czarek", "size": "9", "strength": "30", "with": "Bianka", "once": "x4"})
    ],
    "owner.magnet_action": [
        ("/owner/magnets/rename", {"nick": "Czarek", "to": "Czarus", "once": "x5"}),
        ("/owner/magnets/retire", {"nick": "Czarek", "size": "9", "once": "x6"}),
        ("/owner/magnets/restore", {"nick": "Czarek", "size": "9", "once": "x7"}),
    ],
    "owner.member": [("/owner/member", {"nick": "Iga", "size": "13", "strength": "10", "once": "x8"})],
    "owner.shift": [("/owner/shift", {"amount": "-5", "scope": "all", "confirmed": "", "once": "x9"})],
    "owner.merge": [("/owner/merge", {"from": "Hania", "into": "Gosia", "once": "x10"})],
    "owner.unmerge": [("/owner/unmerge", {"from": "Hania", "into": "Gosia", "once": "x11"})],
    "owner.game": [
        ("/owner/games/1", {"action": "void", "once": "x12"}),
        (
            "/owner/games/1",
            {"size": "9", "a": "Dawid", "b": "Bianka", "winner": "b", "by": "points", "points": "5", "once": "x13"},
        ),
    ],
    "owner.settings": [
        (
            "/owner/settings",
            {"club_name": "Hacked", "timezone": "UTC", "language": "en", "guest_losses": "1", "once": "x14"},
        )
    ],
    "owner.import_history": [("/owner/import", {"replace": "yes", "once": "x15"})],
    "owner.clock_page": [("/owner/clock", {"at": "2026-11-30T19:00", "confirmed": "2026-11-30T19:00", "once": "x19"})],
    "recent.void_batch": [("/owner/recent/void", {"origin": "import", "once": "x16"})],
    "rules_history.rules": [("/owner/rules", {"guest_losses": "3", "top": "56", "once": "x17"})],
    "fairness.fairness": [("/owner/fairness", {"size": "13", "points": "4", "once": "x40"})],
    "matches.matches": [("/owner/matches", {"code": "ABCDEFGH", "once": "x41"})],
    "privacy.club": [("/owner/privacy/club", {"show": "initials", "once": "x17"})],
    "privacy.player": [("/owner/privacy/player", {"nick": "Czarek", "show": "nick", "hidden": "yes", "once": "x18"})],
    "tonight.check_in": [("/tonight/here", {"nick": "Bianka", "size": "9"})],
    "tonight.check_out": [("/tonight/leave", {"nick": "Bianka", "size": "9"})],
    "tonight.refuse": [("/tonight/refuse", {"a": "Bianka", "b": "Czarek", "size": "9"})],
    "tonight.pair_again": [("/tonight/pair-again", {"a": "Bianka", "b": "Czarek", "size": "9"})],
    "event.start": [("/event/start", {"size": "9", "player": "Bianka", "counts": "y"})],
    "event.result": [("/event/1/result", {"round": "1", "board": "1", "tap": "a:resignation"})],
    "event.close": [("/event/1/close", {})],
    "event.correct": [("/event/1/correct", {"round": "1", "board": "1", "tap": "b:other", "fixes": "0"})],
    "event.withdraw": [("/event/1/withdraw", {"player": "Bianka"})],
    "event.reopen": [("/event/1/reopen", {})],
    "event.undo": [("/event/1/undo", {"round": "1", "board": "1"})],
    "league.join": [("/event/1/join", {"player": "Bianka"})],
    "league.come_back": [("/event/1/return", {"player": "Bianka"})],
    "league.ask": [("/event/1/ask", {"player": "Bianka"})],
    "league.answer": [("/event/1/answer", {"player": "Bianka", "answer": "yes"})],
    "league.delete": [("/event/1/delete", {"sure": "yes"})],
    "league.evening": [("/event/1/evening", {"sure": "yes"})],
    "league.roster": [("/event/roster", {"size": "9"})],
    "matches.export": [("/owner/matches/export", {"other": "Klub B", "code": "ABCDEFGH", "sheet": ""})],
    "api.add_player": [("/api/players", {"nick": "Iga", "size": "13"})],
    "api.add_game": [("/api/games", {"size": "9", "players": "Bianka", "winner": "Czarek"})],
    "api.event_result": [("/api/events/1/results", {"round": "1", "board": "1", "winner": "Bianka"})],
}


def post_endpoints(app: Flask) -> set[str]:
    """Every endpoint of the app that accepts a POST."""
    return {rule.endpoint for rule in app.url_map.iter_rules() if "POST" in (rule.methods or ())}


def get_rules(app: Flask) -> list[tuple[str, str]]:
    """Every (endpoint, rule) of the app that answers a GET."""
    return [(r.endpoint, r.rule) for r in app.url_map.iter_rules() if "GET" in (r.methods or ())]


def history(store: Store) -> list[tuple[object, ...]]:
    """The whole history as stored, to prove a request changed nothing."""
    return store.db.execute("SELECT seq, line, origin FROM event ORDER BY seq").fetchall()


def owner_phone(app: Flask) -> FlaskClient:
    """A phone where the owner typed the PIN a minute ago (the club has one: without it nobody is the owner)."""
    with Store.open(Path(app.config["SEMEDORI_HOME"])) as store:
        if not store.config.owner_pin_hash:
            store.save_config(store.config.with_changes(owner_pin_hash=PIN_HASH))
    phone = app.test_client()
    with phone.session_transaction() as session:
        session["owner"] = time.time() - 60
    return phone


@pytest.fixture
def pin(store: Store) -> str:
    """The club's owner PIN, set."""
    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN)))
    return PIN


# --- CSRF on every form -----------------------------------------------------------------------


def test_every_post_route_is_covered_here(app: Flask) -> None:
    assert post_endpoints(app) == set(FILLED), "list the new POST route in FILLED, with a filled-in form"


# Only the JSON API skips CSRFProtect: it takes application/json alone (415 otherwise), which no
# cross-site form can send.
EXEMPT = {"api.add_player", "api.add_game", "api.event_result"}
# The views that answer a stale form themselves, on their own page; the others (one tap, nothing typed,
# or a page without the mark) get the plain "too old, nothing was saved" page.
PLAIN_STALE_PAGE = {
    "auth.logout",
    "owner.unmerge",
    "recording.undo",
}


def view_name(app: Flask, endpoint: str) -> str:
    """A view as Flask-WTF names it (module.function), without the package."""
    view = app.view_functions[endpoint]
    return f"{view.__module__.removeprefix('web.')}.{view.__name__}"


def test_csrf_protects_every_view_but_the_json_api(app: Flask) -> None:
    # A new POST is protected unless it says otherwise: no blueprint is exempt, and of the views only the API's.
    from web import csrf

    assert not csrf._exempt_blueprints
    assert {name.removeprefix("web.") for name in csrf._exempt_views} == {view_name(app, e) for e in EXEMPT}
    # Each exemption says why beside it, so the next engineer knows what protects the view instead.
    web = Path(__file__).resolve().parents[2] / "web"
    exempt_lines = [
        (path.name, line)
        for path in sorted(web.glob("*.py"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("@csrf.exempt")
    ]
    assert len(exempt_lines) == len(EXEMPT) and {name for name, _ in exempt_lines} == {"api.py"}
    assert all(re.fullmatch(r"@csrf\.exempt  # \w.{10,}", line) for _, line in exempt_lines)


def test_every_form_view_but_the_one_tap_ones_answers_a_stale_form_itself(app: Flask) -> None:
    from web.forms import STALE_FORM_VIEWS

    marked = {name.removeprefix("web.") for name in STALE_FORM_VIEWS}
    assert marked == {view_name(app, e) for e in post_endpoints(app) - EXEMPT - PLAIN_STALE_PAGE}
    assert len(marked) == 37


def test_a_post_without_its_token_is_a_friendly_polish_400_and_saves_nothing(
    app: Flask, store: Store, pin: str, home: Path
) -> None:
    checked = 0
    for endpoint, sends in FILLED.items():
        for url, form in sends:
            before, config = history(store), (home / "semedori.toml").read_bytes()
            phone = app.test_client() if endpoint == "auth.login" else owner_phone(app)
            data: dict[str, object] = dict(form)
            if endpoint == "owner.import_history":
                data["history"] = (io.BytesIO(b'{"type": "note", "at": "2026-11-05T10:00", "note": "x"}\n'), "h.jsonl")
            response = phone.post(url, data=data, headers=POLISH)
            page = response.get_data(as_text=True)
            if endpoint.startswith("api."):
                # The JSON API takes only application/json, which no cross-site form can send.
                assert response.status_code == 415 and response.is_json, url
            else:
                assert response.status_code == 400, (url, response.status_code)
                assert STALE_PL in page, url
                assert '<nav class="top">' in page and "Traceback" not in page, url
            assert history(store) == before, url
            assert (home / "semedori.toml").read_bytes() == config, url
            if endpoint == "auth.logout":
                assert phone.get("/owner/").status_code == 200  # a forged logout does not log the owner out
            if endpoint == "auth.login":
                assert phone.get("/owner/").status_code == 302  # the right PIN without a token lets no one in
            checked += 1
    assert checked == sum(len(sends) for sends in FILLED.values()) == 46


def test_a_forged_token_is_refused_like_a_missing_one(app: Flask, store: Store, pin: str) -> None:
    before = history(store)
    phone = owner_phone(app)
    form = {"nick": "Czarek", "size": "9", "strength": "30", "with": "Bianka", "csrf_token": "forged.token.x"}
    response = phone.post("/owner/correction", data=form, headers=POLISH)
    assert response.status_code == 400 and STALE_PL in response.get_data(as_text=True)
    assert history(store) == before


def test_a_stale_game_form_comes_back_with_what_was_typed(app: Flask, store: Store) -> None:
    before = history(store)
    _, form = FILLED["recording.record_game"][0]
    response = app.test_client().post("/new", data={**form, "csrf_token": "from-yesterday"}, headers=POLISH)
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and STALE_PL in page
    assert 'value="Bianka"' in page and 'value="Czarek"' in page and 'value="21"' in page
    assert history(store) == before


@pytest.mark.parametrize(
    ("url", "typed", "shown"),
    [
        (
            "/players/new",
            {"nick": "Zosia", "size": "9", "start": "kyu", "grade": "12"},
            ['value="Zosia"', 'value="12"'],
        ),
        ("/tonight/here", {"nick": "Zosia", "size": "9"}, ['value="Zosia"']),
        ("/owner/settings", {"club_name": "Klub Zosi", "timezone": "UTC", "language": "pl"}, ['value="Klub Zosi"']),
        ("/owner/rules", {"top": "56", "note": "od jesieni"}, ['value="56"', 'value="od jesieni"']),
        ("/owner/matches", {"code": "KLUB-B-28"}, ['value="KLUB-B-28"']),
        # An evening's games typed into the sheet are not lost with the token.
        (
            "/owner/matches/export",
            {"other": "Klub B", "code": "KLUB-B-28", "sheet": "2026-11-28 18:00; 13; Ala; Kuba; 20; home; resignation"},
            ['value="Klub B"', "2026-11-28 18:00; 13; Ala; Kuba; 20; home; resignation</textarea>"],
        ),
    ],
)
def test_a_stale_form_comes_back_in_polish_with_what_was_typed_and_saves_nothing(
    app: Flask, store: Store, pin: str, home: Path, url: str, typed: dict[str, str], shown: list[str]
) -> None:
    before, config = history(store), (home / "semedori.toml").read_bytes()
    response = owner_phone(app).post(url, data={**typed, "csrf_token": "from-a-tab-left-open"}, headers=POLISH)
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and STALE_PL in page
    assert all(value in page for value in shown), url
    assert "<form" in page and "Traceback" not in page
    assert history(store) == before and (home / "semedori.toml").read_bytes() == config


def test_a_form_is_refused_when_csrfprotect_refused_it_though_its_token_is_good(
    app: Flask, store: Store, hidden
) -> None:
    # Over HTTPS CSRFProtect also wants a Referer from this site; the form alone would take the token.
    # The view, run to answer the refusal, must refuse it too (g.stale_form), not save the game.
    phone = app.test_client()
    form_page = phone.get("/new", base_url="https://localhost").get_data(as_text=True)
    _, typed = FILLED["recording.record_game"][0]
    before = history(store)
    response = phone.post("/new", data={**hidden(form_page), **typed}, base_url="https://localhost", headers=POLISH)
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and STALE_PL in page and 'value="Czarek"' in page
    assert history(store) == before
    sent = {**hidden(form_page), **typed}
    again = phone.post("/new", data=sent, base_url="https://localhost", headers={"Referer": "https://localhost/new"})
    assert again.status_code == 302 and history(store) != before  # the same form, from this site: saved


def test_a_stale_owner_form_comes_back_with_what_was_typed_and_saves_once_sent_again(
    app: Flask, store: Store, pin: str, hidden
) -> None:
    owner = owner_phone(app)
    before = history(store)
    typed = {"nick": "Czarek", "size": "9", "strength": "30", "with": "Bianka", "note": "back from camp", "once": "o1"}
    stale = owner.post("/owner/correction", data={**typed, "csrf_token": "from-a-tab-left-open"}, headers=POLISH)
    page = stale.get_data(as_text=True)
    assert stale.status_code == 400 and STALE_PL in page
    assert 'value="back from camp"' in page and 'value="Bianka"' in page and 'value="30"' in page
    assert history(store) == before
    again = {**hidden(page), **typed}
    assert owner.post("/owner/correction", data=again).status_code == 302
    assert owner.post("/owner/correction", data=again).status_code == 302  # a double tap
    assert [e.line["type"] for e in store.entries(limit=2)] == ["correction", "game"]


def test_the_json_api_takes_nothing_a_cross_site_page_can_send_without_asking(app: Flask, store: Store) -> None:
    before = history(store)
    body = '{"size": 9, "players": ["Bianka", "Czarek"], "winner": "Czarek", "by": 21}'
    # The three types a page on another site may post without a CORS preflight.
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        response = app.test_client().post("/api/games", data=body, content_type=kind)
        assert response.status_code == 415 and response.is_json, kind
        assert "Access-Control-Allow-Origin" not in response.headers
    assert history(store) == before


def test_a_pin_cannot_be_set_by_a_forged_form(app: Flask, store: Store) -> None:
    response = app.test_client().post("/owner/login", data={"pin": "1111", "again": "1111"}, headers=POLISH)
    assert response.status_code == 400 and "semedori set-pin" in response.get_data(as_text=True)
    assert not store.reload_config().owner_pin_hash


# --- the owner PIN --------------------------------------------------------------------------------


def test_the_pin_is_kept_only_as_a_slow_salted_scrypt_hash(send, store: Store, home: Path) -> None:
    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin("735190")))  # as `semedori set-pin` does
    assert send("/owner/login", {"pin": "735190"}).status_code == 302
    stored = store.reload_config().owner_pin_hash
    saved = (home / "semedori.toml").read_text()
    assert "735190" not in saved and stored in saved
    kind, n, r, p, salt, digest = stored.split("$")
    assert kind == "scrypt" and int(n) >= 2**14 and int(r) >= 8 and int(p) >= 1
    assert len(bytes.fromhex(salt)) >= 16 and len(bytes.fromhex(digest)) >= 32
    # The digest is what scrypt makes of the PIN at those costs, not a fast hash.
    again = hashlib.scrypt(b"735190", salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32)
    assert again.hex() == digest
    assert hash_pin("735190") != stored  # a fresh salt every time
    assert check_pin("735190", stored) and not check_pin("735191", stored)


def wrong(client: FlaskClient, send, times: int) -> TestResponse:
    """Type a wrong PIN ``times`` times; the last answer."""
    response = None
    for _ in range(times):
        response = send("/owner/login", {"pin": "0000"})
        assert response.status_code == 400
    assert response is not None
    return response


def test_five_wrong_pins_lock_the_phone_out_even_after_a_restart(
    client: FlaskClient, send, pin: str, home: Path
) -> None:
    assert "Wrong PIN" in wrong(client, send, 4).get_data(as_text=True)
    locked = wrong(client, send, 1).get_data(as_text=True)
    assert "Too many wrong PINs: try again in 1 min." in locked
    assert send("/owner/login", {"pin": pin}).status_code == 400
    assert client.get("/owner/").status_code == 302

    # The kiosk restarts (a power cut, an update): a new process on the same data folder.
    restarted = subprocess.run(
        [sys.executable, "-c", RESTARTED, str(home), pin], capture_output=True, text=True, timeout=60, check=True
    )
    assert restarted.stdout.splitlines() == ["400", "Za dużo złych PIN-ów: spróbuj znowu za 1 min.", "302"]


RESTARTED = """
import re, sys
from web import create_app
home, pin = sys.argv[1:]
phone = create_app({"SEMEDORI_HOME": home, "TESTING": True}).test_client()
page = phone.get("/owner/login").get_data(as_text=True)
form = dict(re.findall(r'name="(csrf_token|once)"[^>]*value="([^"]*)"', page))
refused = phone.post("/owner/login", data={**form, "pin": pin}, headers={"Accept-Language": "pl"})
print(refused.status_code)
print(re.search(r"Za dużo[^<]*", refused.get_data(as_text=True)).group(0))
print(phone.get("/owner/").status_code)
"""


def test_after_the_wait_the_right_pin_works_and_each_new_wrong_pin_doubles_the_wait(
    client: FlaskClient, send, pin: str, home: Path
) -> None:
    an_hour_ago = time.time() - 3600
    for _ in range(5):  # five wrong PINs an hour ago: that minute is long over
        lockout.failed(home, "127.0.0.1", an_hour_ago)
    assert "Too many wrong PINs: try again in 2 min." in wrong(client, send, 1).get_data(as_text=True)
    assert 60 < lockout.seconds_left(home, "127.0.0.1", time.time()) <= 120
    assert send("/owner/login", {"pin": pin}).status_code == 400  # still locked: the right PIN is not even tried

    lockout.succeeded(home, "127.0.0.1")  # as if the wait were over and the owner came in
    assert send("/owner/login", {"pin": pin}).status_code == 302
    assert lockout.seconds_left(home, "127.0.0.1", time.time()) == 0


def test_the_waits_grow_so_guessing_a_four_digit_pin_takes_years(tmp_path: Path) -> None:
    assert [lockout.lock_seconds(n, 5) for n in range(4, 9)] == [0, 60, 120, 240, 480]
    assert lockout.lock_seconds(100, 5) == 24 * 3600
    # A kid who guesses as fast as the door allows, for a week:
    now, guesses = 0.0, 0
    while now < 7 * 24 * 3600:
        now += lockout.seconds_left(tmp_path, "kid", now) + 1
        lockout.failed(tmp_path, "kid", now)
        guesses += 1
    assert guesses < 100  # of 10,000 PINs


def test_guessing_from_many_phones_slows_every_phone_and_locks_none_that_typed_no_wrong_pin(tmp_path: Path) -> None:
    now = 1_000_000.0
    for phone in range(lockout.CLUB_LIMIT):
        lockout.failed(tmp_path, f"10.0.0.{phone}", now)  # one each: no phone is locked on its own
    assert lockout.seconds_left(tmp_path, "10.0.0.99", now) == 0  # a new phone (the owner's) may try now
    assert lockout.seconds_left(tmp_path, "10.0.0.1", now) == lockout.CLUB_PACE  # the others once per half minute
    assert lockout.seconds_left(tmp_path, "10.0.0.1", now + lockout.CLUB_PACE) == 0
    lockout.failed(tmp_path, "10.0.0.99", now)
    assert lockout.seconds_left(tmp_path, "10.0.0.99", now + 1) == lockout.CLUB_PACE - 1


def test_old_wrong_pins_are_forgotten_and_a_broken_file_locks_nobody_out(tmp_path: Path) -> None:
    for _ in range(4):
        lockout.failed(tmp_path, "owner-phone", 0.0)
    lockout.failed(tmp_path, "owner-phone", 3600.0)  # an hour later, the fifth: locked
    assert lockout.seconds_left(tmp_path, "owner-phone", 3600.0) == 60
    next_week = 7 * 24 * 3600.0
    lockout.failed(tmp_path, "owner-phone", next_week)  # a week later: one slip, not six
    assert lockout.seconds_left(tmp_path, "owner-phone", next_week) == 0
    (tmp_path / lockout.FILE_NAME).write_text("{half a fi")
    assert lockout.seconds_left(tmp_path, "owner-phone", 0.0) == 0
    lockout.failed(tmp_path, "owner-phone", 0.0)
    assert (tmp_path / lockout.FILE_NAME).stat().st_mode & 0o077 == 0  # only the kiosk's user reads it


def test_set_pin_at_the_kiosk_lets_the_locked_out_owner_back_in(
    client: FlaskClient, send, pin: str, home: Path
) -> None:
    assert "Too many wrong PINs" in wrong(client, send, 5).get_data(as_text=True)
    for _ in range(20):  # a long night of guessing: this phone waits a day; another phone may still try
        lockout.failed(home, "127.0.0.1", time.time())
    assert lockout.seconds_left(home, "127.0.0.1", time.time()) > 23 * 3600
    assert lockout.seconds_left(home, "10.0.0.7", time.time()) == 0
    result = CliRunner().invoke(set_pin_command, ["--pin", "97531"], env={"SEMEDORI_HOME": str(home)})
    assert result.exit_code == 0, result.output
    assert send("/owner/login", {"pin": "97531"}).status_code == 302


def copied_phone(app: Flask, owner: FlaskClient) -> FlaskClient:
    """Another browser holding a copy of the owner's session cookie."""
    cookie = owner.get_cookie("session")
    assert cookie is not None
    thief = app.test_client()
    thief.set_cookie("session", cookie.value)
    return thief


def test_logout_and_a_new_pin_end_every_owner_session_even_a_copied_cookie(
    app: Flask, client: FlaskClient, send, pin: str, home: Path, hidden
) -> None:
    # On main a copied owner cookie still opened /owner/ after logout and after set-pin.
    assert send("/owner/login", {"pin": pin}).status_code == 302
    thief, second = copied_phone(app, client), app.test_client()
    assert thief.get("/owner/").status_code == 200
    with second.session_transaction() as session:  # the owner also logged in on the club's tablet
        session["owner"] = time.time()
    assert second.get("/owner/").status_code == 200
    tools = client.get("/owner/")
    assert client.post("/owner/logout", data=hidden(tools.get_data(as_text=True))).status_code == 302
    assert [p.get("/owner/").status_code for p in (client, thief, second)] == [302, 302, 302]
    assert send("/owner/login", {"pin": pin}).status_code == 302  # the owner can log in again at once
    thief = copied_phone(app, client)
    assert thief.get("/owner/").status_code == 200
    result = CliRunner().invoke(set_pin_command, ["--pin", "97531"], env={"SEMEDORI_HOME": str(home)})
    assert result.exit_code == 0, result.output
    assert [p.get("/owner/").status_code for p in (client, thief)] == [302, 302]
    assert send("/owner/login", {"pin": "97531"}).status_code == 302


def test_owner_pages_are_never_cached(app: Flask, client: FlaskClient, send, pin: str) -> None:
    assert send("/owner/login", {"pin": pin}).headers["Cache-Control"] == "no-store"
    for path in (
        "/owner/login",
        "/owner/",
        "/owner/settings",
        "/owner/audit",
        "/owner/recent/",
        "/owner/export",
        "/owner/backup",
        "/owner/merge",
        "/owner/games/1",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers.get("Cache-Control") == "no-store", path


def test_an_owner_session_lasts_eight_hours_and_cannot_be_forged(app: Flask, pin: str, home: Path) -> None:
    phone = app.test_client()
    for hours, allowed in ((7.9, True), (8.1, False), (-1, False)):  # -1: a timestamp from the future
        with phone.session_transaction() as session:
            session["owner"] = time.time() - hours * 3600
        assert (phone.get("/owner/").status_code == 200) is allowed, hours
    other = create_app(
        on_the_club_clock({"SEMEDORI_HOME": str(home), "TESTING": True, "SECRET_KEY": "someone else's key"})
    )
    forger = other.test_client()
    with forger.session_transaction() as session:
        session["owner"] = time.time()
    assert forger.get("/owner/").status_code == 200  # valid where it was signed...
    cookie = forger.get_cookie("session")
    assert cookie is not None
    phone.set_cookie("session", cookie.value)
    assert phone.get("/owner/").status_code == 302  # ...but not on this kiosk


def test_a_crafted_link_never_sends_a_phone_to_another_site(app: Flask, send, pin: str) -> None:
    phone = app.test_client()
    for target in ("//evil.example", "/\\evil.example", "/\\/evil.example", "https://evil.example", "/\tevil"):
        location = phone.get("/language/pl", query_string={"next": target}).headers["Location"]
        assert location.startswith("/") and not location.startswith("//") and "\\" not in location, target
    response = send("/owner/login?next=//evil.example", {"pin": pin}, url="/owner/login?next=//evil.example")
    assert response.headers["Location"] == "/owner/"


SNEAKY_TARGETS = (
    "/\t/evil.example",  # a browser drops the tab: //evil.example
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    " //evil.example",
    "/%09/evil.example",  # escaped once more: the query string itself carries %09
    "/\x0b/evil.example",
    "/\u3000/evil.example",
    "http:evil.example",
    "/owner\r\nSet-Cookie: owner=1",
)


def browser_sees(location: str) -> str:
    """The address a browser follows: it drops tabs and newlines, and leading spaces and controls (WHATWG URL)."""
    return re.sub(r"[\t\n\r]", "", location).lstrip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f ")


def test_no_tab_newline_or_space_in_next_sends_a_phone_elsewhere_or_breaks_the_page(app: Flask, send, pin: str) -> None:
    # On main `/language/en?next=/%09/evil.com` answered `Location: //evil.com`,
    # and a newline in `next` was a 500 (on /owner/login: logged in behind a "nothing saved" page).
    phone = app.test_client()
    answers = []
    for target in SNEAKY_TARGETS:
        response = phone.get("/language/pl", query_string={"next": target})
        answers.append((target, response.status_code, response.headers.get("Location", "")))
    print("\n" + "\n".join(f"{t!r}: {status} {location!r}" for t, status, location in answers))
    for target, status, location in answers:
        seen = browser_sees(location)
        assert status == 302, target
        assert seen.startswith("/") and not seen.startswith(("//", "/\\")) and "\\" not in seen, (target, location)
        assert not re.search(r"[\x00-\x1f\x7f\s]", location), (target, location)
    for target in ("/owner\r\nX-Evil: 1", "/owner/\n/evil.example", "/owner\t//evil.example"):
        url = "/owner/login?" + urlencode({"next": target})
        response = send(url, {"pin": pin}, url=url)
        assert response.status_code == 302, target
        assert response.headers["Location"] in ("/owner/", "/owner"), (target, response.headers["Location"])


# --- headers on every response ----------------------------------------------------------------------

SAMPLE_ARGUMENTS = {
    "nick": "Bianka",
    "game_id": "1",
    "code": "pl",
    "filename": "app.js",
    "month_key": "2026-11",
    "kind": "improved",
}
SAMPLE_ARGUMENTS.update(event_id="1", number="1")
PAIRING = "?size=9&a=Bianka&b=Czarek"  # the handicap pages answer more with a pairing
QUERIES = {
    "api.handicap": PAIRING,
    "pages.handicap": PAIRING,
    "recording.handicap_preview": PAIRING,
    "privacy.card": "?nick=Dawid&size=9",  # a player's progress card names a player on the board
}
# Addresses whose arguments must name something that exists: Dawid's win on 2 November is an award.
PATHS = {
    "awards.certificate_png": "/owner/awards/2026-11/improved/Dawid.png",
    "privacy.card": "/owner/privacy/card.png?nick=Czarek&size=9",  # a child's progress card
}
# The API answers a 404 (JSON, with the headers all the same) where this club has no event tonight.
# No event tonight; a progress card needs ?nick=; an event prize's certificate needs the event.
NO_EVENT = {"api.tonight_event", "api.event", "privacy.card", "event_choices.certificate_png"}


def check_headers(response: TestResponse, what: str) -> int:
    """Assert the security headers of one response; the number of headers checked."""
    policy = response.headers.get("Content-Security-Policy", "")
    directives = {d.split()[0]: d.split()[1:] for d in policy.split(";") if d.strip()}
    assert directives.get("frame-ancestors") == ["'none'"], what
    script = directives.get("script-src", directives.get("default-src"))
    assert script == ["'self'"], what  # no 'unsafe-inline', no 'unsafe-eval', no other site
    assert directives.get("default-src") == ["'self'"] and directives.get("object-src") == ["'none'"], what
    assert response.headers.get("X-Content-Type-Options") == "nosniff", what
    assert response.headers.get("Referrer-Policy") in ("same-origin", "no-referrer"), what
    assert response.headers.get("X-Frame-Options") == "DENY", what
    return 4


def check_page(response: TestResponse, what: str) -> None:
    """An HTML page has no inline script, event handler or style for the policy to block."""
    if response.mimetype != "text/html":
        return
    page = response.get_data(as_text=True)
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), what
    assert not re.search(r"\son[a-z]+\s*=", page, flags=re.I), what
    assert not re.search(r"\sstyle\s*=|<style|javascript:", page, flags=re.I), what


def test_every_response_carries_the_security_headers(app: Flask, pin: str) -> None:
    visited, headers = set(), 0
    for phone in (app.test_client(), owner_phone(app)):  # the owner pages as a visitor (redirect) and as owner
        for endpoint, rule in get_rules(app):
            sample = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", lambda m: SAMPLE_ARGUMENTS[m.group(1)], rule)
            url = PATHS.get(endpoint, sample)
            response = phone.get(url + QUERIES.get(endpoint, ""))
            assert response.status_code in ((200, 302, 404) if endpoint in NO_EVENT else (200, 302)), url
            headers += check_headers(response, url)
            check_page(response, url)
            response.close()  # the static files are streamed from disk
            visited.add(endpoint)
    extra = {
        "404 page": app.test_client().get("/players/Nobody"),
        "404 JSON": app.test_client().get("/api/nothing"),
        "405 page": app.test_client().delete("/"),
        "400 JSON": app.test_client().get("/api/games?limit=lots"),
        "board.png 19": app.test_client().get("/board.png?size=19"),
        "a saved game": app.test_client().post(
            "/api/games", json={"size": 9, "players": ["Bianka", "Czarek"], "winner": "Czarek"}
        ),
        "refused form": app.test_client().post("/owner/logout"),
    }
    for what, response in extra.items():
        headers += check_headers(response, what)
        check_page(response, what)
    assert visited == {endpoint for endpoint, _ in get_rules(app)}
    assert len(get_rules(app)) >= 25 and headers == 4 * (2 * len(get_rules(app)) + len(extra))


def test_every_cookie_is_http_only_and_same_site_lax(app: Flask, pin: str, send, game: dict[str, str]) -> None:
    responses = {
        "session": send("/owner/login", {"pin": PIN}),
        "phone": app.test_client().get("/new"),  # given with the form, so its key is the phone's own
        "lang": app.test_client().get("/language/pl"),
    }
    for name, response in responses.items():
        cookies = [SimpleCookie(h) for h in response.headers.getlist("Set-Cookie")]
        morsel = next(c[name] for c in cookies if name in c)
        assert morsel["httponly"] is True and morsel["samesite"] == "Lax", name


# --- every owner action is audited ---------------------------------------------------------------------


def test_every_owner_action_leaves_an_entry_in_the_audit_log(app: Flask, store: Store, pin: str, hidden) -> None:
    owner = owner_phone(app)

    def act(url: str, form: dict[str, object], confirm: bool = False, page: str | None = None) -> str:
        shown = hidden(owner.get(page or url).get_data(as_text=True))
        response = owner.post(url, data={**shown, **form})
        if confirm:  # shift and merge show a preview first; the second tap saves
            response = owner.post(url, data={**hidden(response.get_data(as_text=True)), **form})
        assert response.status_code == 302, (url, response.get_data(as_text=True)[:2000])
        newest = store.entries(limit=1)[0]
        assert newest.origin == "owner", url
        return str(newest.line["type"])

    done = {
        "owner.correction": act(
            "/owner/correction", {"nick": "Czarek", "size": "9", "strength": "30", "with": "Bianka"}
        ),
        "owner.magnet_action rename": act(
            "/owner/magnets/rename", {"nick": "Franek", "to": "Franio"}, page="/owner/magnets"
        ),
        "owner.magnet_action retire": act(
            "/owner/magnets/retire", {"nick": "Franio", "size": "13"}, page="/owner/magnets"
        ),
        "owner.magnet_action restore": act(
            "/owner/magnets/restore", {"nick": "Franio", "size": "13"}, page="/owner/magnets"
        ),
        "owner.member": act("/owner/member", {"nick": "Iga", "size": "13", "strength": "10"}),
        "owner.shift": act("/owner/shift", {"amount": "1", "scope": "all"}, confirm=True),
        "owner.merge": act("/owner/merge", {"from": "Hania", "into": "Gosia"}, confirm=True),
        "owner.unmerge": act("/owner/unmerge", {"from": "Hania", "into": "Gosia"}, page="/owner/merge"),
        "owner.game edit": act(
            "/owner/games/1",
            {
                "size": "9",
                "a": "Dawid",
                "b": "Bianka",
                "winner": "b",
                "by": "points",
                "points": "5",
                "played": "2026-11-02T18:00",
            },
        ),
        "owner.game void": act("/owner/games/1", {"action": "void-confirmed"}),
        "owner.settings": act(
            "/owner/settings",
            {"club_name": "GoKids", "timezone": "Europe/Warsaw", "language": "pl", "guest_losses": "2"},
        ),
    }
    exported = owner.get("/owner/export").get_data()
    done["owner.import_history"] = act(
        "/owner/import", {"replace": "yes", "history": (io.BytesIO(exported), "history.jsonl")}
    )
    done["owner.clock_page"] = act("/owner/clock", {"at": "2026-11-30T19:00"}, confirm=True)
    assert done == {
        "owner.correction": "correction",
        "owner.magnet_action rename": "rename",
        "owner.magnet_action retire": "retire",
        "owner.magnet_action restore": "restore",
        "owner.member": "player",
        "owner.shift": "shift",
        "owner.merge": "merge",
        "owner.unmerge": "unmerge",
        "owner.game edit": "edit",
        "owner.game void": "void",
        "owner.settings": "note",
        "owner.import_history": "note",
        "owner.clock_page": "note",
    }
    # Entering and leaving the tools change nothing on the board, so they are not history events.
    owner_posts = {e for e in post_endpoints(app) if e.startswith("owner.")} - {"auth.login", "auth.logout"}
    assert owner_posts == {what.split()[0] for what in done}
    audit = owner.get("/owner/audit").get_data(as_text=True)
    assert f"history.jsonl: {len(exported.splitlines())} " in audit  # said in the club's language


# --- no stack trace, ever ---------------------------------------------------------------------------------


class KioskBug(RuntimeError):
    """A bug of ours, with a detail no visitor should read."""


def test_an_internal_error_is_a_friendly_page_in_the_users_language_and_is_logged(
    home: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(on_the_club_clock({"SEMEDORI_HOME": str(home), "TESTING": True}))

    def broken(*_args: object) -> str:
        raise KioskBug("secret detail: /home/pi/.semedori/web-secret")

    app.add_url_rule("/broken", "broken", broken)
    app.add_url_rule("/api/broken", "api_broken", broken)
    monkeypatch.setattr("web.pages.grouped", broken)  # a real view breaking deep inside
    phone = app.test_client()
    with caplog.at_level(logging.ERROR, logger="web.error_pages"):
        for url in ("/broken", "/api/broken", "/"):
            response = phone.get(url, headers=POLISH)
            body = response.get_data(as_text=True)
            assert response.status_code == 500, url
            assert SORRY_PL in (response.get_json()["error"]["message"] if url.startswith("/api/") else body), url
            for leak in ("Traceback", "secret detail", "KioskBug", "web-secret", 'File "'):
                assert leak not in body, (url, leak)
            check_headers(response, url)
    # The log (journald under systemd) has what is needed to fix it: the request and the trace.
    logged = [r for r in caplog.records if r.exc_info and isinstance(r.exc_info[1], KioskBug)]
    assert len(logged) == 3
    assert all(url in r.getMessage() for r, url in zip(logged, ("/broken", "/api/broken", "/"), strict=True))


@pytest.mark.parametrize("per_thread", [True, False])
def test_a_broken_settings_file_never_shows_a_phone_the_kiosks_folders(home: Path, per_thread: bool) -> None:
    # On main every page then showed "configuration /home/pi/.../semedori.toml: ...".
    app = create_app(on_the_club_clock({"SEMEDORI_HOME": str(home), "TESTING": True, "STORE_PER_THREAD": per_thread}))
    phone = app.test_client()
    assert phone.get("/").status_code == 200
    (home / "semedori.toml").write_text("[club\nname = ", encoding="utf-8")  # an owner's edit, half saved
    answers = {}
    for path in ("/", "/games", "/new", "/owner/login", "/api/board?size=9", "/players/Bianka"):
        response = phone.get(path)
        answers[path] = (response.status_code, response.get_data(as_text=True))
    game = {"size": 9, "players": ["Bianka", "Czarek"], "winner": "Czarek"}
    response = phone.post("/api/games", json=game)
    answers["POST /api/games"] = (response.status_code, response.get_data(as_text=True))
    print("\n" + ", ".join(f"{path} {status}" for path, (status, _) in answers.items()))
    for path, (status, text) in answers.items():
        assert str(home) not in text and str(home.parent) not in text, path
        assert status < 500 or status == 503, path
    if per_thread:  # `semedori serve`: the board keeps working with the settings read before
        assert answers["/"][0] == 200 and answers["POST /api/games"][0] == 201
    else:
        assert "semedori.toml" in answers["/"][1]
