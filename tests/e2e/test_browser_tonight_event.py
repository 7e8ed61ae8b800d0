"""Tonight on a real phone browser while tonight's event runs: its players are named, never paired.

The kiosk's clock is fixed at Monday 30 November 2026, 19:00 in the club, with internet
time: the suite runs at about 04:00 Warsaw, outside the club's evening.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from serving import CLUB, club_home, serving

from kiosk.pairing import side_of
from kiosk.services import tournaments as events
from kiosk.store import Store

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
CLUB_19H = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
EVENING = date(2026, 11, 30)
MORE = [
    {"type": "player", "at": "2026-11-01T10:05", "nick": "Łucja", "size": 9, "status": "member", "strength": 16},
    {"type": "player", "at": "2026-11-01T10:06", "nick": "小龍", "size": 9, "status": "member", "strength": 14},
]
IN_EVENT = ["Bianka", "Czarek", "Dawid", "Zosia"]


@pytest.fixture
def event_server(tmp_path: Path) -> Iterator[str]:
    """The app under waitress at 19:00 on a Monday: seven here, four of them in tonight's event on 9x9."""
    home = club_home(tmp_path / "data", [*CLUB, *MORE])
    with Store.open(home) as store:
        for nick in [*IN_EVENT, "Ewa", "Łucja", "小龍"]:
            store.check_in(EVENING, nick)
        events.start(store, EVENING, 9, [side_of(store.magnets(), n, 9) for n in IN_EVENT], counts=True)
    synced = tmp_path / "synchronized"
    synced.touch()
    with serving(home, SEMEDORI_PI_CLOCK=lambda: CLUB_19H, SEMEDORI_TIMESYNC_FLAG=str(synced)) as address:
        yield address


@pytest.mark.parametrize(
    ("locale", "said", "link"),
    [
        ("en-GB", "Playing in tonight's event: Bianka, Czarek, Dawid, Zosia", "Tonight's event: rounds and standings"),
        ("pl-PL", "Grają w dzisiejszym turnieju: Bianka, Czarek, Dawid, Zosia", "Dzisiejszy turniej: rundy i tabela"),
    ],
)
def test_the_events_players_are_named_and_the_others_paired_on_a_phone(
    chromium: Browser, event_server: str, artifacts: Path, locale: str, said: str, link: str
) -> None:
    context = chromium.new_context(**PHONE, base_url=event_server, locale=locale)
    page = context.new_page()
    page.goto("/tonight?size=9")
    line = page.locator("p.in-event")
    expect(line).to_contain_text(said)
    suggested = " ".join(page.locator("article.pair h3").all_inner_texts())
    assert suggested and not any(nick in suggested for nick in IN_EVENT)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    line.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"tonight-event-{locale}.png"))
    line.get_by_role("link", name=link).click()
    expect(page).to_have_url(f"{event_server}/event")
    context.close()
