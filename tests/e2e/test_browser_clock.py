"""A real phone browser puts right a Pi whose clock is nine days behind and has no NTP."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from serving import OWNER_PIN_HASH, serving

from kiosk import clockfile
from kiosk.store import Store

pytestmark = pytest.mark.browser

CLUB = [
    {"type": "player", "at": "2026-11-01T10:00", "nick": "Bianka", "size": 9, "status": "member", "strength": 34.5},
    {"type": "player", "at": "2026-11-01T10:01", "nick": "Czarek", "size": 9, "status": "member", "strength": 25},
]
# The phones' time: Monday 30 November 2026, 19:00 in the club (Warsaw, UTC+1).
REAL = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)


class SkewedPi:
    """The Pi's own clock: started at its last shutdown time nine days ago, running since."""

    def __init__(self) -> None:
        self.started = datetime.now(UTC)

    def __call__(self) -> datetime:
        return REAL - timedelta(days=9) + (datetime.now(UTC) - self.started)


@pytest.fixture
def skewed(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The web app under waitress on a Pi with a skewed clock and no NTP; yields its address and data."""
    home = tmp_path / "data"
    with Store.open(home) as store:  # the club's own settings: a phone dates a game at most a week back
        store.import_history([json.dumps(line) for line in CLUB])
        store.save_config(store.config.with_changes(owner_pin_hash=OWNER_PIN_HASH))
    flag = str(tmp_path / "synchronized")  # never written: no NTP
    pi = SkewedPi()
    # Two phones of the evening at other addresses sent the right time already: the browser's is the third
    # address, and three must agree before the kiosk follows the phones.
    for address in ("192.168.1.31", "192.168.1.32"):
        now = pi()
        clockfile.heard(home, str(int((now + timedelta(days=9)).timestamp() * 1000)), now, Path(flag), address)
    with serving(home, SEMEDORI_PI_CLOCK=pi, SEMEDORI_TIMESYNC_FLAG=flag) as address:
        yield address, home


def test_a_phone_posts_its_clock_and_the_game_lands_on_the_right_day(
    chromium, skewed: tuple[str, Path], artifacts: Path
) -> None:
    server, home = skewed
    context = chromium.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, base_url=server
    )
    page: Page = context.new_page()
    page.clock.set_fixed_time(REAL)  # the phone knows the right time
    page.goto("/new")
    # The form was made by the Pi's wrong clock: nine days ago, another week.
    expect(page.get_by_label("Played at")).to_have_value("2026-11-21T19:00")
    page.get_by_text("9×9", exact=True).click()
    page.get_by_label("Player 1", exact=True).fill("Bianka")
    page.get_by_label("Player 2", exact=True).fill("Czarek")
    page.get_by_text("Czarek won").click()
    page.get_by_text("By points").click()  # "How?" has no default
    page.get_by_role("textbox", name="Points").fill("21")
    page.get_by_role("button", name="Save the result").click()
    expect(page.get_by_role("heading", name="Saved!")).to_be_visible()
    page.screenshot(path=artifacts / "clock-1-saved.png", full_page=True)

    with Store.open(home) as store:
        played = store.recent_games(1)[0].at
    assert played.date().isoformat() == "2026-11-30"  # the phones' day, not the Pi's
    assert played == datetime(2026, 11, 30, 19, 0)  # the time the form showed, corrected

    # The next form shows the phones' time.
    page.goto("/new")
    assert page.get_by_label("Played at").input_value().startswith("2026-11-30T19:0")

    # The owner page says who set the clock, and when.
    page.goto("/owner/")
    page.get_by_label("Owner PIN").fill("2468")
    page.get_by_role("button", name="Enter").click()
    expect(page.locator("#clock-trust")).to_contain_text("set from the players' phones at 2026-11-30 19:00")
    expect(page.locator("#clock-trust")).to_contain_text("9 days off")
    page.screenshot(path=artifacts / "clock-2-owner.png", full_page=True)
    # What the clock heard, and from whom: the three addresses, nine days ahead of the Pi.
    page.get_by_role("link", name="The kiosk's clock").click()
    for address in ("192.168.1.31", "192.168.1.32", "127.0.0.1"):
        expect(page.locator("#readings")).to_contain_text(address)
    expect(page.locator("#readings")).to_contain_text("9 days ahead")
    page.screenshot(path=artifacts / "clock-3-heard.png", full_page=True)
    context.close()


def test_the_served_kiosk_runs_on_the_club_evening_not_the_machines_clock(server: str) -> None:
    # tests/e2e/serving.py hands waitress's app tests/club_days.py's clock: every browser test's "now" is this one.
    with urllib.request.urlopen(f"{server}/new", timeout=30) as answer:
        assert 'name="shown_at" value="2026-12-01T19:30"' in answer.read().decode()
