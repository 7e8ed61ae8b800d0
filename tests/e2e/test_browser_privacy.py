"""Children's privacy in a real browser: the owner hides a child and shows initials; visitors see labels."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from serving import owner_pin

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"privacy": "Privacy: initials, short names, hidden players", "initials": "Initials",
           "saved": "Saved: Zosia."},
    "pl": {"privacy": "Prywatność: inicjały, krótkie nazwy, ukryci gracze", "initials": "Inicjały",
           "saved": "Zapisano: Zosia."},
}  # fmt: skip


def fits_the_phone(page: Page) -> None:
    """Nothing scrolls sideways, and every button and choice is big enough for a thumb."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for target in page.locator("main button:visible, main label.choice:visible, ul.privacy-players a").all():
        box = target.bounding_box()
        assert box is not None and box["height"] >= 44, (target.inner_text(), box)


def test_the_owner_shows_initials_hides_a_child_and_visitors_never_see_the_nickname(
    phone390: Page, chromium: Browser, server: str, lang: str, artifacts: Path
) -> None:
    page = phone390
    words = WORDS[lang]
    owner_pin(page)
    page.get_by_role("link", name=words["privacy"]).click()
    fits_the_phone(page)
    page.locator("label.choice", has_text=words["initials"]).first.click()
    page.locator("form[action$='/club'] button").click()
    expect(page.locator(".flash")).to_be_visible()
    page.locator("ul.privacy-players a", has_text="Zosia").click()
    page.locator("input[name=short_name]").fill("Zozo")
    page.locator("input[name=hidden]").check()
    page.locator("input[name=minor]").check()
    fits_the_phone(page)
    page.screenshot(path=artifacts / f"privacy-player-{lang}.png", full_page=True)
    page.locator("button.big").click()
    expect(page.locator(".flash")).to_contain_text(words["saved"])
    fits_the_phone(page)
    page.screenshot(path=artifacts / f"privacy-owner-{lang}.png", full_page=True)
    listed = page.locator("ul.privacy-players").inner_text()
    assert "Zosia" in listed and "Zozo" in listed  # the owner sees every nickname, and the short name typed

    visitor = chromium.new_context(viewport={"width": 390, "height": 844}, base_url=server).new_page()
    visitor.goto("/?size=9")
    board = visitor.locator("main").inner_text()
    assert "B." in board and "Bianka" not in board and "Zozo" not in board and "Zosia" not in board
    visitor.goto("/games")
    assert "Bianka" not in visitor.content() and "D. – B." in visitor.locator("main").inner_text()
    visitor.screenshot(path=artifacts / f"privacy-visitor-games-{lang}.png")
    visitor.context.close()


def equal_thumb_sized_choices(page: Page) -> None:
    """In each group of choices, the choices are equal buttons, each at least 44 px tall, none wider than the
    phone, no text cut or spilling (the ways of showing a player, and the minors' and consent's groups)."""
    groups = page.locator("fieldset.choices").all()
    assert groups
    for number, group in enumerate(groups):
        boxes = []
        for choice in group.locator("label.choice span").all():
            box = choice.bounding_box()
            assert box is not None and box["height"] >= 44, (choice.inner_text(), box)
            assert choice.evaluate("span => span.scrollWidth <= span.clientWidth"), choice.inner_text()
            boxes.append(box)
        assert len(boxes) >= (3 if number == 0 else 2)
        assert max(b["height"] for b in boxes) - min(b["height"] for b in boxes) <= 1, boxes  # none a tall odd one out
        assert max(b["width"] for b in boxes) - min(b["width"] for b in boxes) <= 1, boxes
        assert all(b["x"] >= 0 and b["x"] + b["width"] <= 390 for b in boxes), boxes
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_ways_of_showing_players_are_equal_buttons_a_child_can_hit(
    phone390: Page, lang: str, artifacts: Path
) -> None:
    """The third way ("Short name (initials where none is set)") was once a tall narrow button beside two short."""
    page = phone390
    owner_pin(page)
    # Measured once the page has loaded with its stylesheet: a click only waits for the navigation to begin.
    page.get_by_role("link", name=WORDS[lang]["privacy"]).click()
    page.wait_for_url("**/owner/privacy/", wait_until="load")
    equal_thumb_sized_choices(page)
    page.locator("fieldset.choices").first.screenshot(path=artifacts / f"privacy-choices-{lang}.png")
    page.locator("ul.privacy-players a", has_text="Zosia").click()
    page.wait_for_url("**/owner/privacy/player**", wait_until="load")
    equal_thumb_sized_choices(page)
    page.locator("fieldset.choices").first.screenshot(path=artifacts / f"privacy-player-choices-{lang}.png")
