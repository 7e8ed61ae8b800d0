"""The phone flows of issue 12 in a real Chromium at 390x844, in English and Polish."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# What a player reads, per language (the catalogue's own sentences).
SAY = {
    "en": {
        "nobody": "Neither Bianka nor Czarek has a magnet on 19×19, so no magnet would move.",
        "anyway": "Record it on 19×19 anyway",
        "save": "Save the result",
        "won": "Czarek won",
        "resign": "By resignation",
        "saved": "Saved!",
        "why": "Bianka has no magnet on 19×19, so no magnet of theirs moved.",
        "handicap": "2 starting moves, 0 prisoners",
    },
    "pl": {
        "nobody": "Ani Bianka, ani Czarek nie ma magnesu na 19×19, więc żaden magnes się nie przesunie.",
        "anyway": "Zapisz na 19×19 mimo to",
        "save": "Zapisz wynik",
        "won": "Czarek wygrywa",
        "resign": "Przez poddanie",
        "saved": "Zapisane!",
        "why": "Bianka nie ma magnesu na 19×19, więc nie było czego przesunąć.",
        "handicap": "2 ruchy na start, 0 jeńców",
    },
}


def games(server: str) -> list[dict]:
    with urllib.request.urlopen(f"{server}/api/games?limit=50") as response:
        return json.load(response)["games"]


def checked_size(page: Page) -> str:
    return page.locator("input[name=size]:checked").get_attribute("value") or ""


def test_the_size_follows_the_players_and_a_size_neither_has_needs_a_tick(
    phone390: Page, server: str, lang: str, artifacts: Path
) -> None:
    say = SAY[lang]
    page = phone390
    page.goto("/new")
    assert checked_size(page) == "13"
    page.locator("input[name=a]").fill("Bianka")
    page.locator("input[name=b]").fill("Czarek")
    expect(page.locator("#handicap-box")).to_contain_text(say["handicap"])
    expect(page.locator("input[name=size][value='9']")).to_be_checked()  # followed the players
    # A size tapped by hand stays, and one neither player has asks for a tick.
    page.locator("label.choice", has=page.locator("input[name=size][value='19']")).click()
    expect(page.locator("#nobody-moves")).to_contain_text(say["nobody"])
    expect(page.locator("input[name=size][value='19']")).to_be_checked()
    page.get_by_text(say["won"]).click()
    page.get_by_text(say["resign"]).click()
    page.screenshot(path=artifacts / f"size-nobody-{lang}.png")
    before = len(games(server))
    page.get_by_role("button", name=say["save"]).click()
    expect(page.locator(".errors")).to_contain_text(say["nobody"].split(",")[0])
    assert len(games(server)) == before  # nothing saved without the tick
    page.get_by_text(say["anyway"]).click()
    page.get_by_role("button", name=say["save"]).click()
    expect(page.get_by_role("heading", name=say["saved"])).to_be_visible()
    expect(page.locator("ul.moves")).to_contain_text(say["why"])
    page.screenshot(path=artifacts / f"size-why-{lang}.png", full_page=True)
    assert len(games(server)) == before + 1
    page.goto("/new")
    assert checked_size(page) == "19"  # this phone's last size
