"""The owner's menu on a phone when the wall has no panel: the sentence and the command, in both languages."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import expect
from serving import owner_pin

from kiosk import wallstatus

pytestmark = pytest.mark.browser

SAID = {
    "en": "No panel found: check the header (the panel must sit on all 40 pins), then run",
    "pl": "Nie znaleziono panelu: sprawdź złącze (panel musi siedzieć na wszystkich 40 pinach), a potem uruchom",
}


def test_the_owner_menu_says_the_wall_found_no_panel(phone390, lang: str, tmp_path: Path, artifacts: Path) -> None:
    # What semedori-display writes while no panel answers (the server's data folder is tmp_path/data).
    wallstatus.panel_missing(tmp_path / "data", datetime.now(UTC), "No EEPROM detected!")
    owner_pin(phone390)
    notice = phone390.locator("#wall-status")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(SAID[lang])
    expect(notice.locator("code")).to_have_text("sudo semedori-admin wall-check")
    # The command is whole on one line, within the phone's width (one broken at its hyphen is hard to copy).
    command = notice.locator("code")
    assert command.evaluate("e => e.getClientRects().length") == 1
    box = command.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    phone390.screenshot(path=str(artifacts / f"owner-no-panel-{lang}.png"))
