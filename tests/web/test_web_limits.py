"""Every route that writes is under the per-client write limit.

The routes are read from the app itself (``app.url_map``), so a route added later is
checked the day it is added: a POST, PUT, PATCH or DELETE that a phone can send twice in a
row past a burst of one without a 429 fails here.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from club_days import on_the_club_clock
from flask import Flask
from form_fields import hidden_fields
from werkzeug.routing.converters import NumberConverter

from kiosk.store import Store
from web import create_app, limits
from web.pin import hash_pin

WRITING = {"POST", "PUT", "PATCH", "DELETE"}


def limited_app(home: Path, **config: object) -> Flask:
    """The app as `semedori serve` runs it (limits on), CSRF off so every view is reached."""
    settings = {"SEMEDORI_HOME": str(home), "TESTING": True, "WRITE_LIMITS": True, **config}
    return create_app(on_the_club_clock(settings))


def sample_url(app: Flask, endpoint: str, arguments: set[str], numbers: set[str]) -> str:
    """A URL of the rule with made-up values: 1 for a number, "x" for text."""
    values = {name: 1 if name in numbers else "x" for name in arguments}
    with app.test_request_context():
        from flask import url_for

        return url_for(endpoint, **values)


def writing_rules(app: Flask) -> list[tuple[str, str, str]]:
    """(endpoint, method, url) of every rule that takes a writing method."""
    found = []
    for rule in app.url_map.iter_rules():
        numbers = {name for name, conv in rule._converters.items() if isinstance(conv, NumberConverter)}
        for method in sorted((rule.methods or set()) & WRITING):
            found.append((rule.endpoint, method, sample_url(app, rule.endpoint, set(rule.arguments), numbers)))
    return found


def test_every_writing_route_of_the_app_is_limited(home: Path) -> None:
    """Item 8: a burst of one write per address, then every writing route answers 429 with Retry-After."""
    app = limited_app(home, WTF_CSRF_ENABLED=False, WRITE_BURST=1, WRITES_PER_MINUTE=1)
    rules = writing_rules(app)
    assert len(rules) >= 25  # the phone's, the API's, the events' and the owner's (a broken walk finds none)
    missed = []
    for number, (endpoint, method, url) in enumerate(rules):
        phone = app.test_client()
        address = {"REMOTE_ADDR": f"10.0.{number // 250}.{number % 250 + 1}"}  # a fresh address per route
        # "confirmed" and "save": the add-guest form's saving step (its first step only shows the field).
        data = {"confirmed": "x", "action": "save"}
        phone.open(url, method=method, data=data, environ_base=address)
        second = phone.open(url, method=method, data=data, environ_base=address)
        if second.status_code != 429 or not second.headers.get("Retry-After"):
            missed.append(f"{method} {url} ({endpoint}): {second.status_code}")
    print(f"\n{len(rules)} writing routes, {len(missed)} outside the limit")
    assert not missed, "writes outside the limit:\n" + "\n".join(missed)


def test_the_event_and_tonight_routes_are_limited_like_a_game(home: Path) -> None:
    """Item 8 as the issue saw it: check-in posted in a loop from one address stops at the burst."""
    app = limited_app(home, WTF_CSRF_ENABLED=False, WRITES_PER_MINUTE=1)  # no refill while the test runs
    phone = app.test_client()
    answers = [
        phone.post("/tonight/here", data={"nick": "Bianka", "size": "9"}).status_code
        for _ in range(limits.WRITE_BURST + 5)
    ]
    assert answers.count(429) == 5
    assert 429 not in answers[: limits.WRITE_BURST]


def test_the_owner_is_not_limited(home: Path) -> None:
    """The owner's writes are behind the PIN: the limit never stands in their way."""
    with Store.open(home) as store:  # without the owner's PIN nobody is the owner
        store.save_config(store.config.with_changes(owner_pin_hash=hash_pin("2468")))
    app = limited_app(home, WTF_CSRF_ENABLED=False, WRITE_BURST=1)
    owner = app.test_client()
    with owner.session_transaction() as session:
        session["owner"] = time.time() - 60
    answers = [owner.post("/tonight/here", data={"nick": "Bianka", "size": "9"}).status_code for _ in range(3)]
    assert owner.get("/owner/").status_code == 200
    assert 429 not in answers


def guests_saved(home: Path) -> int:
    with Store.open(home) as store:
        return sum(1 for m in store.magnets() if m.nick.startswith("Gość"))


def test_a_preview_on_the_add_guest_form_is_limited_and_one_guest_costs_one_write(home: Path) -> None:
    """Item 7: ``action=preview`` with the fingerprint saved guests past the limit; the plain flow paid twice."""
    app = limited_app(home, WRITES_PER_MINUTE=1, PLAYERS_PER_MINUTE=1)  # no refill while the test runs
    attacker = app.test_client()
    answers = []
    for n in range(40):
        page = attacker.get("/players/new").get_data(as_text=True)
        fields = {**hidden_fields(page), "nick": f"Gość {n}", "size": "13", "start": "zero", "action": "preview"}
        fields["confirmed"] = f"Gość {n}|13|None|None"
        answers.append(attacker.post("/players/new", data=fields).status_code)
    print(f"\npreview: {guests_saved(home)} guests saved of 40, {answers.count(429)} refused")
    assert guests_saved(home) == limits.PLAYER_BURST  # main: 40
    assert answers.count(429) == 40 - limits.PLAYER_BURST

    # An honest phone on another address: check the guest, then save it; ten guests in a row all go in.
    phone = app.test_client()
    saved = 0
    for n in range(limits.PLAYER_BURST):
        form = phone.get("/players/new").get_data(as_text=True)
        typed = {"nick": f"Kasia {n}", "size": "13", "start": "zero"}
        shown = phone.post(
            "/players/new", data={**hidden_fields(form), **typed}, environ_base={"REMOTE_ADDR": "10.9.9.9"}
        )
        assert shown.status_code == 200
        done = phone.post(
            "/players/new",
            data={**hidden_fields(shown.get_data(as_text=True)), **typed},
            environ_base={"REMOTE_ADDR": "10.9.9.9"},
        )
        saved += done.status_code == 302
    print(f"plain flow: {saved} of {limits.PLAYER_BURST} guests saved in a burst")
    assert saved == limits.PLAYER_BURST  # main: 5 (the check step took a token too)
    assert re.search(r"\d", str(saved))
