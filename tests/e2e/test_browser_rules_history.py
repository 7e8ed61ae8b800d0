"""The owner changes a rule and reads the board as of a day on a real phone browser."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from serving import owner_pin

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"saved": "Rule change saved", "past": "clear win from 25 points", "end": "At the end of 2026-11-02"},
    "pl": {"saved": "Zmiana zasad zapisana", "past": "wyraźna wygrana od 25 pkt", "end": "Na koniec dnia 2026-11-02"},
}


def test_the_owner_changes_a_rule_and_reads_the_board_as_of_a_day(
    phone390: Page, server: str, lang: str, artifacts: Path
) -> None:
    page = phone390
    owner_pin(page)
    page.locator("ul.menu a[href='/owner/rules']").click()
    page.locator("input[name=h9_clear_margin]").fill("25")
    page.locator("input[name=note]").fill("Zebranie klubu / club meeting")
    page.locator("button.big").click()  # the preview first: nothing moves yet
    expect(page.locator("table.preview")).to_be_visible()
    page.screenshot(path=artifacts / f"owner-rules-preview-{lang}.png", full_page=True)
    page.locator("button.big").click()
    expect(page.locator("body")).to_contain_text(WORDS[lang]["saved"])
    expect(page.locator("ul.rule-changes")).to_contain_text(WORDS[lang]["past"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "nothing scrolls sideways"
    page.screenshot(path=artifacts / f"owner-rules-{lang}.png", full_page=True)
    page.goto("/owner/board")
    page.locator("input[name=at]").fill("2026-11-02")
    page.locator("form.board-at button").click()
    expect(page.locator("main")).to_contain_text(WORDS[lang]["end"])
    page.locator("nav.tabs a", has_text="9×9").click()
    expect(page.locator(".columns")).to_contain_text("Dawid")
    expect(page.locator(".columns")).to_contain_text("Dawid 23")  # 21, and a win on the 2nd
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=artifacts / f"owner-board-at-{lang}.png", full_page=True)
