"""A teaching game entered on a 390x844 phone in a real Chromium, in English and Polish."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from new_game import box_redrawn
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SAY = {
    "en": {
        "question": "Not a rated game?",
        "teaching": "Teaching game",
        "saved": "Saved!",
        "why": "Kind of game: teaching game. It is not a rated game, so the magnets did not move",
        "stays": "Czarek: not a rated game: stays at 25",
        "badge": "teaching game",
    },
    "pl": {
        "question": "Partia nierankingowa?",
        "teaching": "Partia ucząca (lekcja)",
        "saved": "Zapisane!",
        "why": "Rodzaj partii: partia ucząca. To nie jest partia rankingowa, więc magnesy się nie przesunęły",
        "stays": "Czarek: partia nierankingowa: zostaje na 25",
        "badge": "partia ucząca",
    },
}


def board(server: str) -> dict[str, float]:
    with urllib.request.urlopen(f"{server}/api/board?size=9") as response:
        return {m["nick"]: m["strength"] for m in json.load(response)["magnets"]}


def test_a_teaching_game_takes_two_taps_more_and_moves_no_magnet(
    phone390: Page, server: str, lang: str, artifacts: Path
) -> None:
    say, page = SAY[lang], phone390
    before = board(server)
    page.goto("/new")
    page.locator("input[name=a]").fill("Bianka")
    page.locator("input[name=b]").fill("Czarek")
    box_redrawn(page)
    expect(page.locator("input[name=size][value='9']")).to_be_checked()  # the size followed the players
    page.locator("input[name=winner][value=b] + span").tap()
    page.locator("input[name=by][value=resignation] + span").tap()
    # The kinds wait behind the question: closed, with "rated" ticked, so the usual game costs nothing.
    kinds = page.locator("details.kind")
    expect(kinds).not_to_have_attribute("open", "")
    expect(page.locator("input[name=kind][value=rated]")).to_be_checked()
    expect(page.locator("input[name=kind][value=teaching] + span")).to_be_hidden()
    # On a size neither player has, a rated game warns that no magnet would move; a teaching game does not.
    page.locator("input[name=size][value='19'] + span").tap()
    expect(page.locator("#nobody-moves")).to_be_visible()
    page.get_by_text(say["question"]).tap()
    teaching = page.locator("input[name=kind][value=teaching] + span")
    expect(teaching).to_have_text(say["teaching"])
    teaching.tap()
    expect(page.locator("input[name=kind][value=teaching]")).to_be_checked()
    expect(page.locator("#nobody-moves")).to_have_count(0)
    page.locator("input[name=size][value='9'] + span").tap()
    expect(page.locator("#handicap-box")).to_be_visible()
    # Big enough for a child's thumb, and nothing runs off the side of the phone.
    for option in page.locator("fieldset.kinds label.choice span").all():
        box = option.bounding_box()
        assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    kinds.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / f"kind-form-{lang}.png")
    page.locator("button.big").tap()
    expect(page.locator("h1.saved")).to_have_text(say["saved"])
    expect(page.locator("#not-rated")).to_contain_text(say["why"])
    expect(page.locator("ul.moves")).to_contain_text(say["stays"])
    page.screenshot(path=artifacts / f"kind-result-{lang}.png", full_page=True)
    assert board(server) == before
    # Czarek's page lists the game with its kind; his record per size does not count it.
    page.goto("/players/Czarek")
    expect(page.locator("article.game .kind-badge").first).to_have_text(say["badge"])
    expect(page.locator("table.record")).to_have_count(0)
    page.screenshot(path=artifacts / f"kind-player-{lang}.png", full_page=True)
