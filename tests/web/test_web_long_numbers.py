"""A number too long for SQLite in an address (a typo, a pasted link, a probe) is an ordinary 404, never a 500."""

from __future__ import annotations

import re
from datetime import date

from flask import Flask
from form_fields import hidden_fields
from test_web_security import owner_phone
from werkzeug.routing import IntegerConverter

from kiosk.pairing import side_of
from kiosk.services import tournaments as events
from kiosk.store import Store

HUGE = "9" * 30  # far above SQLite's largest INTEGER, 2**63 - 1
POLISH = {"Accept-Language": "pl-PL,pl;q=0.9"}
NOT_FOUND = {
    "en": "There is nothing here. Maybe the game was undone or the player renamed.",
    "pl": "Nic tu nie ma. Może partię cofnięto albo gracz zmienił nick.",
}
# What a phone or script would send to any of these routes, so a request reaches as far as it can.
FORM = {"round": "1", "board": "1", "tap": "a:resignation", "fixes": "0", "player": "Ewa", "action": "void"}
JSON = {"round": 1, "board": 1, "winner": "Ewa"}


def everything(store: Store) -> list[str]:
    """The whole database as SQL, to prove a request changed nothing."""
    return list(store.db.iterdump())


def int_rules(app: Flask) -> list[tuple[str, str, set[str]]]:
    """Every rule with an ``int`` argument: (endpoint, the URL with HUGE for each such argument, methods)."""
    found = []
    for rule in app.url_map.iter_rules():
        if not any(isinstance(converter, IntegerConverter) for converter in rule._converters.values()):
            continue
        url = re.sub(r"<int:[^>]+>", HUGE, rule.rule)
        url = re.sub(r"<(?:[^:>]+:)?[^>]+>", "x", url)  # any other argument: a plain word
        found.append((rule.endpoint, url, set(rule.methods or ()) & {"GET", "POST"}))
    return found


def test_every_address_with_a_number_too_long_for_sqlite_is_a_404_and_changes_nothing(app: Flask, store: Store) -> None:
    # An event is open, so the event routes reach the database.
    event = events.start(
        store,
        date(2026, 11, 2),
        13,
        [side_of(store.magnets(), n, 13) for n in ("Ewa", "Franek", "Gosia", "Hania")],
        False,
    )
    assert event
    before = everything(store)
    rules = int_rules(app)
    endpoints = {endpoint for endpoint, _, _ in rules}
    # The ones the review found; a new route with a number joins the loop by itself.
    assert {"event.show", "api.event", "owner.game", "recording.game", "api.game"} <= endpoints, endpoints
    checked = 0
    for endpoint, url, methods in rules:
        for language, headers in (("en", {}), ("pl", POLISH)):
            phone = owner_phone(app)
            token = hidden_fields(phone.get("/owner/").get_data(as_text=True)).get("csrf_token", "")
            assert token
            for method in sorted(methods):
                if method == "GET":
                    response = phone.get(url, headers=headers)
                elif url.startswith("/api/"):
                    response = phone.post(url, json=JSON, headers=headers)
                else:
                    response = phone.post(
                        url, data={**FORM, "csrf_token": token, "once": f"{url}{language}"}, headers=headers
                    )
                assert response.status_code == 404, (endpoint, method, url, response.status_code)
                if url.startswith("/api/"):
                    assert response.is_json, url
                    assert response.get_json() == {"error": {"code": "not-found", "message": NOT_FOUND[language]}}
                else:
                    page = response.get_data(as_text=True)
                    assert NOT_FOUND[language] in page and '<nav class="top">' in page, (url, language)
                assert everything(store) == before, (endpoint, method, url)
                checked += 1
    assert checked >= 2 * 14
