"""Messages a screen reader announces with their field, and the owner's home that starts with
what needs attention (item 8): Debian's Chromium at 390x844, English and Polish, axe-core clean, screenshots."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from serving import OWNER_PIN
from test_accessibility import findings

pytestmark = pytest.mark.browser

WORDS = {
    "en": {
        "player1": "Player 1: type a nickname (1 to 30 letters).",
        "long": "Player 2: the nickname is too long (43 letters; at most 30).",
        "winner": "Who won: tap one of the two players",
        "strength": "the nearest fields are 22 and 23",
        "attention": "Needs your attention",
        "void": "To be sure, type the number of games (1)",
    },
    "pl": {
        "player1": "Gracz 1: wpisz nick (od 1 do 30 znaków).",
        "long": "Gracz 2: nick jest za długi (43 znaki; najwyżej 30).",
        "winner": "Kto wygrał: stuknij jedną z dwóch osób",
        "strength": "najbliższe pola to 22 i 23",
        "attention": "Do sprawdzenia",
        "void": "Dla pewności wpisz liczbę partii (1)",
    },
}


@pytest.fixture
def phone(chromium, server: str, lang: str):
    """A 390x844 touch phone asking for ``lang``, allowed to run axe-core despite the app's CSP."""
    context = chromium.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        base_url=server,
        bypass_csp=True,
        locale="pl-PL" if lang == "pl" else "en-GB",
        extra_http_headers={"Accept-Language": "pl-PL,pl;q=0.9" if lang == "pl" else "en-GB,en;q=0.9"},
    )
    yield context.new_page()
    context.close()


def shot(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"problems-{name}.png"), full_page=True)


def test_an_empty_form_announces_player_1_first_and_marks_the_fields(phone: Page, lang: str, artifacts: Path) -> None:
    said = WORDS[lang]
    phone.goto("/new")
    phone.locator("button.big").click()
    summary = phone.get_by_role("alert")
    expect(summary.locator("p").first).to_have_text(said["player1"])
    player1 = phone.locator("input[name=a]")
    expect(player1).to_have_attribute("aria-invalid", "true")
    expect(player1).to_have_accessible_description(said["player1"])  # what a screen reader says on the field
    expect(phone.locator("fieldset#winner")).to_have_accessible_description(re.compile("^" + said["winner"]))
    summary.locator("a").first.click()  # the summary's message leads to its field
    expect(player1).to_be_focused()
    assert findings(phone) == []
    shot(phone, artifacts, f"empty-form-{lang}")
    player1.fill("Bianka")
    phone.locator("input[name=b]").fill("C" * 43)
    expect(phone.locator("#handicap-slot .add-guest")).to_be_visible()  # the box has redrawn for the typed names
    with phone.expect_navigation():
        phone.locator("button[value=save]").click()
    expect(phone.locator("input[name=b]")).to_have_accessible_description(said["long"])
    expect(player1).not_to_have_attribute("aria-invalid", "true")
    assert findings(phone) == []
    shot(phone, artifacts, f"too-long-{lang}")


def test_the_owners_form_names_the_nearest_fields_and_the_home_says_what_needs_attention(
    phone: Page, lang: str, artifacts: Path
) -> None:
    said = WORDS[lang]
    phone.goto("/owner/")
    phone.locator("input[name=pin]").fill(OWNER_PIN)
    phone.locator("button.big").click()
    # The served club's Pi has no internet time and no phone has sent a result: the clock needs a look.
    expect(phone.locator("#attention h2")).to_have_text(said["attention"])
    expect(phone.locator("#attention-clock-untrusted a")).to_have_attribute("href", "/owner/clock")
    assert findings(phone) == []
    shot(phone, artifacts, f"owner-home-{lang}")
    phone.goto("/owner/member")
    phone.locator("input[name=nick]").fill("Nowa")
    phone.locator("input[name=strength]").fill("22,5" if lang == "pl" else "22.5")
    phone.locator("button.big").click()
    strength = phone.locator("input[name=strength]")
    expect(strength).to_have_attribute("aria-invalid", "true")
    expect(strength).to_have_accessible_description(re.compile(said["strength"]))
    assert findings(phone) == []
    shot(phone, artifacts, f"owner-member-{lang}")
    phone.goto("/owner/recent/")
    phone.locator("form button.secondary").first.click()  # "Void the 1 game from import": it only asks
    expect(phone.locator("#void-batch label")).to_contain_text(said["void"])
    phone.locator("input[name=count]").fill("7")
    phone.locator("#void-batch button.danger").click()
    expect(phone.locator("input[name=count]")).to_have_attribute("aria-invalid", "true")
    assert findings(phone) == []
    shot(phone, artifacts, f"owner-void-{lang}")
