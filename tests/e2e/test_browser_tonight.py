"""Tonight on a real phone browser: check in, see the pairs, refuse one, record one, in both languages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


@pytest.fixture
def tall_phone(chromium: Browser, server: str) -> Iterator[Page]:
    """A 390x844 phone in English."""
    context = chromium.new_context(**PHONE, base_url=server, locale="en-GB")
    yield context.new_page()
    context.close()


@pytest.fixture
def polish_phone(chromium: Browser, server: str) -> Iterator[Page]:
    """A 390x844 phone in Polish."""
    context = chromium.new_context(**PHONE, base_url=server, locale="pl-PL")
    yield context.new_page()
    context.close()


def check_in(page: Page, nick: str, button: str) -> None:
    page.locator("form.check-in input[name=nick]").fill(nick)
    page.get_by_role("button", name=button, exact=True).click()


def pairs(page: Page) -> list[str]:
    return [h.strip() for h in page.locator("article.pair h3").all_inner_texts()]


def assert_thumb_sized(page: Page) -> None:
    """Every button and link a player taps here is at least 44 px high (and wide), and nothing scrolls sideways."""
    for target in page.locator("main button:visible, main a.button:visible, nav.tabs a").all():
        box = target.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, (target.inner_text(), box)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_check_in_pairs_refuse_and_record_in_english(tall_phone: Page, artifacts: Path) -> None:
    page = tall_phone
    page.goto("/")
    page.get_by_role("link", name="Tonight: who is here, who plays whom").click()
    expect(page.get_by_role("heading", name="Tonight", exact=True)).to_be_visible()
    expect(page.get_by_text("Nobody has checked in yet tonight.")).to_be_visible()

    for nick in ("Bianka", "czarek", "Dawid", "Zosia"):
        check_in(page, nick, "I'm here")
    expect(page.get_by_role("heading", name="Here tonight (4)")).to_be_visible()
    expect(page.get_by_text("Zosia is here tonight.")).to_be_visible()
    # 34.5, 25, 23 and 12 on 9x9: the smallest sum of differences is 9.5 + 11.
    assert pairs(page) == ["1. Bianka – Czarek", "2. Dawid – Zosia"]
    first = page.locator("article.pair").first
    expect(first).to_contain_text("Bianka takes White, Czarek takes Black.")
    expect(first).to_contain_text("2 starting moves, 0 prisoners")
    expect(page.locator("article.pair").nth(1)).to_contain_text("Dawid takes White, Zosia takes Black.")
    assert_thumb_sized(page)
    page.screenshot(path=artifacts / "tonight-en-pairs.png", full_page=True)

    first.get_by_role("button", name="Not this pair").click()
    expect(page.get_by_text("Bianka and Czarek will not be paired tonight.")).to_be_visible()
    assert "1. Bianka – Czarek" not in pairs(page) and len(pairs(page)) == 2

    dawid_zosia = page.locator("article.pair", has_text="Dawid – Zosia")
    if not dawid_zosia.count():  # the refusal may have split them too: pair whatever is suggested first
        dawid_zosia = page.locator("article.pair").first
    names = dawid_zosia.locator("h3").inner_text().split(". ", 1)[1].split(" – ")
    dawid_zosia.get_by_role("link", name="Record this game").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    expect(page.get_by_label("Player 1", exact=True)).to_have_value(names[0])
    expect(page.get_by_label("Player 2", exact=True)).to_have_value(names[1])
    expect(page.locator("#handicap-box")).to_contain_text(f"{names[0]} takes White")
    page.get_by_text(f"{names[0]} won").click()
    page.get_by_text("By resignation").click()
    page.get_by_role("button", name="Save the result").click()
    expect(page.get_by_role("heading", name="Saved!")).to_be_visible()

    page.goto("/tonight")
    assert f"{names[0]} – {names[1]}" not in " ".join(pairs(page))  # played tonight: not suggested again
    assert len(pairs(page)) == 2
    expect(page.get_by_role("heading", name="Played tonight (1)")).to_be_visible()
    expect(page.locator("ul.played-list")).to_contain_text(f"{names[0]} won by resignation")
    expect(page.locator("ul.refused-list")).to_contain_text("Bianka – Czarek")

    page.locator("ul.here-list li", has_text="Zosia").get_by_role("button", name="Leaves").click()
    expect(page.get_by_role("heading", name="Here tonight (3)")).to_be_visible()
    assert len(pairs(page)) == 1 and page.locator("p.bye").count() == 1
    assert_thumb_sized(page)
    page.screenshot(path=artifacts / "tonight-en-after.png", full_page=True)


def test_check_in_pairs_and_record_in_polish(polish_phone: Page, artifacts: Path) -> None:
    page = polish_phone
    page.goto("/")
    page.get_by_role("link", name="Dziś: kto jest, kto z kim gra").click()
    expect(page.get_by_role("heading", name="Dziś", exact=True)).to_be_visible()
    check_in(page, "Bianca", "Jestem")  # a typo: one tap on the name it looks like
    expect(page.get_by_text("Twój nick: Bianca — tego nicku nie ma jeszcze na tablicy.")).to_be_visible()
    page.screenshot(path=artifacts / "tonight-pl-typo.png", full_page=True)
    page.get_by_role("button", name="Bianka", exact=True).click()
    expect(page.get_by_text("Bianka jest dziś w klubie.")).to_be_visible()
    check_in(page, "Czarek", "Jestem")
    check_in(page, "Dawid", "Jestem")
    expect(page.get_by_role("heading", name="Dziś w klubie (3)")).to_be_visible()
    assert pairs(page) == ["1. Czarek – Dawid"]
    expect(page.locator("article.pair")).to_contain_text("Równa partia: nigiri, komi 6,5")  # 25 and 23
    expect(page.get_by_text("Pauzuje w tej rundzie: Bianka")).to_be_visible()
    expect(page.locator("ul.here-list")).to_contain_text("34,5")
    assert_thumb_sized(page)
    page.screenshot(path=artifacts / "tonight-pl-pairs.png", full_page=True)

    page.get_by_role("link", name="Zapisz tę partię").click()
    expect(page.get_by_role("heading", name="Nowa partia")).to_be_visible()
    expect(page.get_by_label("Gracz 1", exact=True)).to_have_value("Czarek")
    expect(page.get_by_label("Gracz 2", exact=True)).to_have_value("Dawid")
    page.screenshot(path=artifacts / "tonight-pl-record.png", full_page=True)


def test_tonight_works_without_javascript(chromium: Browser, server: str, artifacts: Path) -> None:
    context = chromium.new_context(**PHONE, base_url=server, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto("/tonight")
        for nick in ("Bianka", "Czarek"):
            check_in(page, nick, "I'm here")
        assert pairs(page) == ["1. Bianka – Czarek"]
        page.get_by_role("button", name="Not this pair").click()
        expect(page.get_by_text("Waiting for someone else to arrive: Bianka, Czarek")).to_be_visible()
        page.screenshot(path=artifacts / "tonight-no-javascript.png", full_page=True)
    finally:
        context.close()
