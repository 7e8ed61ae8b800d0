"""Late starters and returns on real phone browsers, 390x844, in English and Polish.

A player who arrives after round 1 asks from their own phone and the owner says yes on the event
page; the owner brings back a player who went home; a bad ask is refused in the phone's language.
The kiosk's clock is fixed at Monday 30 November 2026, 19:00 in the club.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from serving import club_home, serving
from test_browser_event import CLUB_19H, PIN, assert_thumb_sized

from kiosk.evening import club_evening
from kiosk.events import parse_event
from kiosk.pairing import side_of
from kiosk.services import tournaments as events
from kiosk.store import Store
from web.pin import hash_pin

pytestmark = pytest.mark.browser

TWELVE = [f"Gracz{i:02d}" for i in range(12)]
WORDS = {
    "en": {
        "ask": "Ask to play (the owner confirms)",
        "asked": "Asked: the owner will confirm, Gracz11.",
        "playing": "Gracz01 plays in this event already.",
        "yes": "Yes, Gracz11 plays",
        "in": "Gracz11 is in: they play from round 2.",
        "from": "(from round 2)",
        "back": "Back: plays again",
        "is back": "Gracz04 is back: they play again from round 1.",
        "nick": "Your nickname:",
    },
    "pl": {
        "ask": "Poproś o grę (właściciel potwierdzi)",
        "asked": "Prośba wysłana (Gracz11): właściciel potwierdzi.",
        "playing": "Gracz01 już gra w tym turnieju.",
        "yes": "Tak, gra: Gracz11",
        "in": "Przyjęto: Gracz11. Gra od rundy 2.",
        "from": "(od rundy 2)",
        "back": "Wraca: gra dalej",
        "is back": "Wraca: Gracz04. Gra znowu od rundy 1.",
        "nick": "Twój nick:",
    },
}


@pytest.fixture
def swiss(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """Eleven of twelve members in a Swiss of tonight (7 rounds), served by waitress; its address and number."""
    home = club_home(tmp_path / "data", owner_pin_hash=hash_pin(PIN))
    with Store.open(home) as store:
        for i, nick in enumerate(TWELVE):
            line = {"type": "player", "at": "2026-11-01T18:00", "nick": nick, "size": 13, "status": "member"}
            store.record(parse_event({**line, "strength": 30 - i}))
        evening = club_evening(store.config, CLUB_19H.replace(tzinfo=None))[0]
        sides = [side_of(store.magnets(), nick, 13) for nick in TWELVE[:11]]
        event = events.start(store, evening, 13, sides, True, "Jesień")
    synced = tmp_path / "synchronized"
    synced.touch()
    with serving(home, SEMEDORI_PI_CLOCK=lambda: CLUB_19H, SEMEDORI_TIMESYNC_FLAG=str(synced)) as address:
        yield address, event.id


def phone(chromium: Browser, server: str, lang: str) -> Page:
    context = chromium.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        base_url=server,
        locale="pl-PL" if lang == "pl" else "en-GB",
        extra_http_headers={"Accept-Language": "pl-PL,pl;q=0.9" if lang == "pl" else "en-GB,en;q=0.9"},
    )
    return context.new_page()


def as_owner(page: Page) -> Page:
    page.goto("/owner/login")
    page.locator("input[name=pin]").fill(PIN)
    page.locator("input[name=pin]").press("Enter")
    page.wait_for_url("**/owner/**")
    return page


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_late_player_asks_from_the_phone_and_the_owner_says_yes(
    chromium: Browser, swiss: tuple[str, int], lang: str, artifacts: Path
) -> None:
    server, event_id = swiss
    words = WORDS[lang]
    player = phone(chromium, server, lang)
    player.goto(f"/event/{event_id}")
    player.get_by_label(words["nick"]).fill("Gracz01")  # already playing: refused, nothing asked
    player.get_by_role("button", name=words["ask"]).click()
    expect(player.get_by_role("alert")).to_contain_text(words["playing"])
    player.get_by_label(words["nick"]).fill("Gracz11")
    player.get_by_role("button", name=words["ask"]).click()
    expect(player.get_by_text(words["asked"])).to_be_visible()
    assert_thumb_sized(player)
    player.screenshot(path=artifacts / f"league-{lang}-ask.png", full_page=True)

    owner = as_owner(phone(chromium, server, lang))
    owner.goto(f"/event/{event_id}")
    owner.get_by_role("button", name=words["yes"]).click()
    expect(owner.get_by_text(words["in"])).to_be_visible()
    expect(owner.locator("table.standings")).to_contain_text(f"Gracz11 {words['from']}")
    assert_thumb_sized(owner)
    owner.screenshot(path=artifacts / f"league-{lang}-joined.png", full_page=True)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_owner_brings_back_a_player_who_went_home(
    chromium: Browser, swiss: tuple[str, int], lang: str, artifacts: Path
) -> None:
    server, event_id = swiss
    words = WORDS[lang]
    owner = as_owner(phone(chromium, server, lang))
    owner.goto(f"/event/{event_id}")
    owner.locator("#went-home").select_option("Gracz04")
    owner.locator("form.withdraw button").click()
    owner.locator("#come-back").select_option("Gracz04")
    owner.get_by_role("button", name=words["back"]).click()
    expect(owner.get_by_text(words["is back"])).to_be_visible()
    expect(owner.locator("#come-back")).to_have_count(0)  # nobody is away now
    assert_thumb_sized(owner)
    owner.screenshot(path=artifacts / f"league-{lang}-back.png", full_page=True)
