"""A real phone browser records the Bianka/Czarek game end to end, then undoes it."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def board(server: str, size: int) -> dict[str, float]:
    """The board as the JSON API sees it."""
    with urllib.request.urlopen(f"{server}/api/board?size={size}") as response:
        return {m["nick"]: m["strength"] for m in json.load(response)["magnets"]}


def test_record_the_rules_game_and_undo_it(phone: Page, server: str, artifacts: Path) -> None:
    phone.goto("/new")
    phone.get_by_text("9×9", exact=True).click()
    phone.get_by_label("Player 1", exact=True).fill("Bianka")
    phone.get_by_label("Player 2", exact=True).fill("Czarek")
    handicap = phone.locator("#handicap-box")
    expect(handicap).to_contain_text("Bianka takes White, Czarek takes Black.")
    expect(handicap).to_contain_text("2 starting moves, 0 prisoners")
    phone.get_by_text("Czarek won").click()
    phone.get_by_text("By points").click()  # "How?" has no default
    phone.get_by_role("textbox", name="Points").fill("21")
    phone.get_by_label("Played at").fill("2026-11-03T19:10")
    phone.screenshot(path=artifacts / "1-new-game.png", full_page=True)

    phone.get_by_role("button", name="Save the result").click()
    expect(phone.get_by_role("heading", name="Saved!")).to_be_visible()
    moves = phone.locator("ul.moves")
    expect(moves).to_contain_text("Bianka: clear loss, 2 arrows down: 34.5 → 33.5")
    expect(moves).to_contain_text("Czarek: clear win, 2 arrows up: 25 → 27")
    phone.screenshot(path=artifacts / "2-confirmation.png", full_page=True)
    assert board(server, 9) == {"Bianka": 33.5, "Czarek": 27, "Dawid": 23, "Zosia": 12}

    phone.get_by_role("button", name="Undo this game").click()
    expect(phone.get_by_text("The game was undone")).to_be_visible()
    phone.screenshot(path=artifacts / "3-undone.png", full_page=True)
    assert board(server, 9) == {"Bianka": 34.5, "Czarek": 25, "Dawid": 23, "Zosia": 12}

    phone.goto("/?size=9")
    expect(phone.locator("a.magnet", has_text="Bianka")).to_contain_text("34.5")
    phone.get_by_text("The wall now").click()
    wall = phone.get_by_role("img", name="The wall picture of 9x9")
    expect(wall).to_be_visible()
    phone.wait_for_function("() => document.querySelector('details.wall img').naturalWidth > 0")
    assert wall.evaluate("picture => picture.naturalWidth") == 800  # drawn by the panel's renderer
    phone.screenshot(path=artifacts / "4-board.png", full_page=True)


def test_the_handicap_follows_the_players_and_hides_the_draw_in_an_even_game(phone: Page) -> None:
    phone.goto("/new?size=9")
    phone.get_by_label("Player 1", exact=True).fill("Czarek")
    phone.get_by_label("Player 2", exact=True).fill("Dawid")
    expect(phone.locator("#handicap-box")).to_contain_text("Even game: nigiri, komi 6.5")
    expect(phone.get_by_text("Draw (handicap games only)")).to_be_hidden()
    phone.get_by_label("Player 2", exact=True).fill("Zosia")
    expect(phone.locator("#handicap-box")).to_contain_text("Czarek takes White")
    expect(phone.get_by_text("Draw (handicap games only)")).to_be_visible()


def test_without_javascript_a_game_is_still_recorded(chromium, server: str, artifacts: Path) -> None:
    context = chromium.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False, base_url=server)
    page = context.new_page()
    try:
        page.goto("/new")
        page.get_by_text("9×9", exact=True).click()
        page.get_by_label("Player 1", exact=True).fill("Bianka")
        page.get_by_label("Player 2", exact=True).fill("Czarek")
        page.get_by_role("button", name="Show the handicap").click()
        expect(page.locator("#handicap-box")).to_contain_text("2 starting moves, 0 prisoners")
        page.get_by_text("Czarek won").click()
        page.get_by_text("By resignation").click()
        page.get_by_role("button", name="Save the result").click()
        expect(page.locator("ul.moves")).to_contain_text("Czarek: clear win, 2 arrows up: 25 → 27")
        page.screenshot(path=artifacts / "5-no-javascript.png", full_page=True)
    finally:
        context.close()


def test_every_page_fits_a_phone_without_sideways_scrolling(phone: Page, artifacts: Path) -> None:
    for path, name in [
        ("/?size=9", "board"),
        ("/handicap", "handicap"),
        ("/players/Bianka", "player"),
        ("/players/new", "add-player"),
        ("/games", "games"),
        ("/rules", "rules"),
    ]:
        phone.goto(path)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{path} is {width} px wide"
        phone.screenshot(path=artifacts / f"page-{name}.png", full_page=True)


def test_the_owner_types_the_pin_and_shifts_a_size_after_the_preview(phone: Page, server: str, artifacts: Path) -> None:
    phone.goto("/owner/")
    phone.get_by_label("Owner PIN").fill("2468")
    phone.get_by_role("button", name="Enter").click()
    expect(phone.get_by_role("heading", name="Owner tools")).to_be_visible()
    phone.screenshot(path=artifacts / "6-owner-tools.png", full_page=True)

    phone.get_by_role("link", name="Shift").click()
    phone.get_by_label("Amount (e.g. -5)").fill("-5")
    phone.get_by_text("one size").click()
    phone.locator("fieldset.sizes").get_by_text("9×9").click()
    phone.get_by_role("button", name="Preview").click()
    preview = phone.locator("table.preview")
    expect(preview).to_contain_text("Bianka (9×9)")
    expect(preview).not_to_contain_text("Ewa")
    phone.screenshot(path=artifacts / "7-shift-preview.png", full_page=True)
    assert board(server, 9)["Bianka"] == 34.5  # nothing moved before the confirmation

    phone.get_by_role("button", name="Save the shift").click()
    expect(phone.get_by_role("heading", name="Audit log")).to_be_visible()
    assert board(server, 9) == {"Bianka": 30, "Czarek": 20, "Dawid": 18, "Zosia": 7}
    assert board(server, 13) == {"Ewa": 30}
