"""The owner page says when the wall has no panel (the display's wall-status.json), in English and Polish."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

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
