"""A club night's faults in a real Chromium at 390x844, in English and Polish.

- Both players record the same game on their own phones: the second is asked "Is this the same
  game?", and "Yes, same game" adds nothing and marks the game confirmed by both players.
- A double tap on a phone's very first Save: one game, and "Undo this game" on that phone, also
  after a reload.
- A guest added from the game form leaves the board with the undo, and the form comes back
  filled in with the undone game.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from new_game import box_redrawn
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

SAY = {
    "en": {
        "save": "Save the result",
        "asked": "Is this the same game?",
        "just": "Bianka – Czarek was just recorded (",
        "result": "Czarek won by resignation). Is this the same game?",
        "yes": "Yes, same game",
        "confirmed": "Confirmed by both players",
        "undo": "Undo this game",
        "add": "Add Bartuś as a new guest",
        "check": "Check",
        "keep": "Save Bartuś",
        "left": "Bartuś, added for this game, has left the board with it.",
        "undone": "The game was undone",
    },
    "pl": {
        "save": "Zapisz wynik",
        "asked": "Czy to ta sama partia?",
        "just": "Partia Bianka – Czarek została właśnie zapisana (",
        "result": "Czarek – wygrana przez poddanie). Czy to ta sama partia?",
        "yes": "Tak, ta sama partia",
        "confirmed": "Potwierdzona przez obu graczy",
        "undo": "Cofnij tę partię",
        "add": "Dodaj nowego gościa: Bartuś",
        "check": "Sprawdź",
        "keep": "Zapisz: Bartuś",
        "left": "Bartuś (dopisano do tej partii) znika z tablicy razem z nią.",
        "undone": "Partia została cofnięta",
    },
}


def games(server: str) -> list[dict]:
    """Every game the board counts, newest first (the API)."""
    with urllib.request.urlopen(f"{server}/api/games?limit=50") as response:
        return json.load(response)["games"]


def board_nicks(server: str, size: int) -> list[str]:
    """The magnets hanging on one size (the API's board)."""
    with urllib.request.urlopen(f"{server}/api/board?size={size}") as response:
        return [m["nick"] for m in json.load(response)["magnets"]]


def new_phone(chromium: Browser, server: str, lang: str) -> Page:
    """Another 390x844 phone in the same language: its own cookies, as a second child's phone."""
    context = chromium.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        base_url=server,
        locale="pl-PL" if lang == "pl" else "en-GB",
        extra_http_headers={"Accept-Language": "pl-PL,pl;q=0.9" if lang == "pl" else "en-GB,en;q=0.9"},
    )
    return context.new_page()


def fill_the_game(page: Page, b: str = "Czarek") -> None:
    """Bianka – Czarek (or ``b``) on 9x9, the second player won by resignation."""
    page.goto("/new")
    page.locator("input[name=a]").fill("Bianka")
    page.locator("input[name=b]").fill(b)
    box_redrawn(page)
    page.locator("input[name=size][value='9'] + span").click()
    box_redrawn(page)
    page.locator("input[name=winner][value=b] + span").click()
    page.locator("input[name=by][value=resignation] + span").click()


def test_the_second_phone_is_asked_and_yes_keeps_one_game_confirmed_by_both(
    chromium: Browser, phone390: Page, server: str, lang: str, artifacts: Path
) -> None:
    say = SAY[lang]
    jedrek, hania = phone390, new_phone(chromium, server, lang)
    try:
        fill_the_game(jedrek)
        jedrek.get_by_role("button", name=say["save"]).click()
        expect(jedrek.locator("h1.saved")).to_be_visible()
        before = len(games(server))
        fill_the_game(hania)
        hania.get_by_role("button", name=say["save"]).click()
        expect(hania.get_by_role("heading", name=say["asked"])).to_be_visible()
        expect(hania.locator("#question")).to_contain_text(say["just"])
        expect(hania.locator("#question")).to_contain_text(say["result"])
        hania.screenshot(path=artifacts / f"same-game-question-{lang}.png", full_page=True)
        assert len(games(server)) == before  # nothing saved while the question is open
        hania.get_by_role("button", name=say["yes"]).click()
        expect(hania.locator(".confirmed")).to_contain_text(say["confirmed"])
        hania.screenshot(path=artifacts / f"same-game-confirmed-{lang}.png", full_page=True)
        assert len(games(server)) == before  # one game, once
        jedrek.reload()
        expect(jedrek.locator(".confirmed")).to_contain_text(say["confirmed"])
        jedrek.goto("/players/Czarek")
        expect(jedrek.locator(".confirmed").first).to_contain_text(say["confirmed"])
    finally:
        hania.context.close()


def test_a_double_tap_on_the_very_first_save_keeps_undo_on_that_phone(
    phone390: Page, server: str, lang: str, artifacts: Path
) -> None:
    say = SAY[lang]
    page = phone390  # a phone that never recorded here: no phone cookie yet
    fill_the_game(page)
    before = len(games(server))
    # Two taps before the first answer is back: both forms are on their way, neither carries a phone cookie.
    landed = page.evaluate(
        """async () => {
            const form = document.getElementById("game-form");
            // form.action would be the buttons named "action": the address is the attribute.
            const to = form.getAttribute("action");
            const send = () => fetch(to, {method: "POST", body: new URLSearchParams(new FormData(form))});
            const answers = await Promise.all([send(), send()]);
            return answers.map((answer) => answer.url);
        }"""
    )
    assert len(games(server)) == before + 1  # one game
    page.goto(landed[-1])
    expect(page.get_by_role("button", name=say["undo"])).to_be_visible()
    page.reload()
    expect(page.get_by_role("button", name=say["undo"])).to_be_visible()
    page.screenshot(path=artifacts / f"double-tap-undo-{lang}.png", full_page=True)


def test_a_guest_added_from_the_form_leaves_with_the_undo(
    phone390: Page, server: str, lang: str, artifacts: Path
) -> None:
    say = SAY[lang]
    page = phone390
    fill_the_game(page, b="Bartuś")
    page.get_by_role("button", name=say["add"]).click()
    page.get_by_role("button", name=say["check"]).click()
    page.get_by_role("button", name=say["keep"]).click()
    expect(page.locator("input[name=b]")).to_have_value("Bartuś")  # back on the game form, as typed
    assert "Bartuś" in board_nicks(server, 9)
    page.locator("input[name=size][value='9'] + span").click()
    page.locator("input[name=winner][value=b] + span").click()
    page.locator("input[name=by][value=resignation] + span").click()
    page.get_by_role("button", name=say["save"]).click()
    expect(page.locator("h1.saved")).to_be_visible()
    page.get_by_role("button", name=say["undo"]).click()
    expect(page.locator(".flash").first).to_contain_text(say["left"])
    expect(page.get_by_text(say["undone"])).to_be_visible()
    # The form comes back filled in with the undone game.
    expect(page.locator("input[name=a]")).to_have_value("Bianka")
    expect(page.locator("input[name=b]")).to_have_value("Bartuś")
    expect(page.locator("input[name=winner][value=b]")).to_be_checked()
    expect(page.locator("input[name=by][value=resignation]")).to_be_checked()
    page.screenshot(path=artifacts / f"undo-guest-{lang}.png", full_page=True)
    assert "Bartuś" not in board_nicks(server, 9)  # off the board and the wall's list
    page.goto("/?size=9")
    expect(page.locator(".columns")).not_to_contain_text("Bartuś")
