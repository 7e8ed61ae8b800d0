"""The player page in a real browser at 390x844: its per-size record table reads whole in English and Polish."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

HEADERS = {"en": ["Size", "Wins", "Losses", "Draws"], "pl": ["Rozmiar", "Wygrane", "Przegrane", "Remisy"]}


def test_no_header_of_the_record_table_breaks_inside_a_word(phone390: Page, lang: str, artifacts: Path) -> None:
    """Polish "Przegrane" once broke as "Przegran/e" on a 390 px phone: a header breaks between words or not at all."""
    page = phone390
    page.goto("/players/Dawid")
    table = page.locator("table.record")
    expect(table).to_be_visible()
    headers = table.locator("th")
    assert headers.all_inner_texts() == HEADERS[lang]
    for th in headers.all():
        # Each word of the header as wide as it is drawn on one line must fit the cell's box (else it was broken),
        # and the header takes as many lines as it has words at most.
        lines = th.evaluate(
            """th => {
                const range = document.createRange(); range.selectNodeContents(th);
                const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                return {lines: tops.size, words: th.textContent.trim().split(/\\s+/).length,
                        scroll: th.scrollWidth, client: th.clientWidth};
            }"""
        )
        assert lines["lines"] <= lines["words"], (th.inner_text(), lines)
        assert lines["scroll"] <= lines["client"], (th.inner_text(), lines)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing scrolls sideways
    table.screenshot(path=artifacts / f"player-record-{lang}.png")
    page.screenshot(path=artifacts / f"player-{lang}.png", full_page=True)
