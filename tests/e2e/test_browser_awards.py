"""The month's awards in a real Chromium: the owner's page in both languages and a certificate downloaded."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Page, expect
from serving import owner_pin

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"title": "Awards of November 2026", "improved": "Most improved", "button": "Certificate A5 · EN"},
    "pl": {"title": "Nagrody: listopad 2026", "improved": "Największy postęp", "button": "Dyplom A5 · PL"},
}


def test_the_owner_downloads_a_certificate_from_the_months_awards(
    phone390: Page, lang: str, artifacts: Path, tmp_path: Path
) -> None:
    page = phone390
    owner_pin(page)
    page.locator("ul.menu a[href='/owner/awards/']").click()  # from the owner's menu
    page.goto("/owner/awards/?month=2026-11")  # the club's games are November 2026's, whatever today is
    expect(page.locator("h1")).to_have_text(WORDS[lang]["title"])
    improved = page.locator("#award-improved")
    expect(improved).to_contain_text(WORDS[lang]["improved"])
    expect(improved).to_contain_text("Dawid")  # his win over Bianka on 2 November: two arrows up
    page.screenshot(path=artifacts / f"owner-awards-{lang}.png", full_page=True)
    with page.expect_download() as download:
        improved.locator("a.button", has_text=WORDS[lang]["button"]).click()
    path = tmp_path / "certificate.png"
    download.value.save_as(path)
    assert download.value.suggested_filename == f"award-2026-11-improved-{lang}.png"
    with Image.open(path) as image:
        assert image.size == (2480, 1748)  # A5 landscape at 300 dpi
