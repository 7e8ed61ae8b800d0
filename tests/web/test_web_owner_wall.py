"""The owner page says when the wall has no panel (the display's wall-status.json), in English and Polish."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from club_days import CLUB_EVENING
from flask.testing import FlaskClient
from test_web_owner import PIN, text

from kiosk import wallstatus
from kiosk.store import Store
from web.pin import hash_pin


def test_the_owner_page_says_no_panel_was_found_until_the_wall_finds_one(
    client: FlaskClient, store: Store, send, home: Path
) -> None:
    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN)))
    assert send("/owner/login", {"pin": PIN}).status_code == 302
    assert "No panel found" not in text(client.get("/owner/"))

    # What the display writes when the EEPROM does not answer (display/panels.py, AwaitedPanel).
    wallstatus.panel_missing(home, datetime.now(UTC), "No EEPROM detected!")
    page = text(client.get("/owner/"))
    assert "No panel found: check the header (the panel must sit on all 40 pins), then run" in page
    assert "sudo semedori-admin wall-check" in page
    polish = text(client.get("/owner/", headers={"Accept-Language": "pl"}))
    assert "Nie znaleziono panelu: sprawdź złącze" in polish and "sudo semedori-admin wall-check" in polish

    wallstatus.panel_found(home)  # the panel answers: the page stops saying so
    assert "No panel found" not in text(client.get("/owner/"))


def test_the_owner_page_says_which_way_to_hang_the_panel_as_render_advise_does(
    client: FlaskClient, store: Store, send, home: Path
) -> None:
    """The orientation that needs fewer pages for this club on this panel, in English and Polish."""
    from display.advice import advice
    from display.profiles import profile
    from display.wall import from_source
    from kiosk.rules import club_now

    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN), extra={"display": {"panel": "what"}}))
    assert send("/owner/login", {"pin": PIN}).status_code == 302
    data = from_source(store, club_now(store.config, CLUB_EVENING))  # the app's clock
    for language, heading in (("en", "Which way to hang the panel"), ("pl", "Jak powiesić panel")):
        expected = advice(data, profile("what"), "landscape", language)
        page = text(client.get("/owner/", headers={"Accept-Language": language}))
        assert heading in page
        for line in expected:
            assert line in page, (language, line)
    assert any("13×13, pages:" in line for line in advice(data, profile("what"), "landscape", "en"))
    assert "Inky wHAT" in text(client.get("/owner/")) or "same pages" in text(client.get("/owner/"))
