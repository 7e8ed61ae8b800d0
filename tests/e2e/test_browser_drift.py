"""The owner's drift page in Chromium at 390x844, English and Polish: no sideways scrolling, one tap to act."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from drift_clubs import inflating_club, two_groups
from serving import club_home, serving

from web.pin import hash_pin

PIN = "8642"
KIOSK_NOW = datetime(2026, 11, 30, 11, 0, tzinfo=UTC)
RETURN = {"type": "game", "at": "2026-11-25T19:00", "size": 13, "players": ["Ala", "Dorota"], "winner": "Ala", "by": 4}


@pytest.fixture
def drift_server(tmp_path: Path) -> Iterator[str]:
    """The drift club served by waitress, the kiosk's clock on 30 November 2026."""
    lines = [*inflating_club(10), *two_groups(), RETURN]
    home = club_home(tmp_path / "data", lines, owner_pin_hash=hash_pin(PIN), sleeper_weeks=12)
    synchronized = tmp_path / "synchronized"
    synchronized.touch()
    with serving(home, SEMEDORI_PI_CLOCK=lambda: KIOSK_NOW, SEMEDORI_TIMESYNC_FLAG=str(synchronized)) as address:
        yield address


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_drift_page_on_a_phone(chromium, drift_server: str, artifacts: Path, lang: str) -> None:
    context = chromium.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        base_url=drift_server,
        locale="pl-PL" if lang == "pl" else "en-GB",
        extra_http_headers={"Accept-Language": "pl-PL,pl;q=0.9" if lang == "pl" else "en-GB,en;q=0.9"},
    )
    page = context.new_page()
    try:
        page.goto("/owner/drift")
        page.fill("input[name=pin]", PIN)
        page.locator("form button[type=submit]").first.click()
        page.wait_for_url("**/owner/drift")
        assert page.locator("svg.chart").first.is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
        page.screenshot(path=str(artifacts / f"owner-drift-{lang}.png"), full_page=True)
        page.screenshot(path=str(artifacts / f"owner-drift-{lang}-top.png"))
        heading = "Dryf liczb klubu" if lang == "pl" else "Drift of the club's numbers"
        assert page.locator("h1").inner_text() == heading
        # One tap from a returner to the quick correction, filled in.
        label = "Szybka korekta" if lang == "pl" else "Quick correction"
        page.locator("#flags .flag", has_text="Ala").get_by_role("link", name=label).click()
        assert page.input_value("input[name=nick]") == "Ala"
        assert "37" in page.input_value("input[name=note]")
    finally:
        context.close()
