"""A real Chromium obeys the kiosk's Content-Security-Policy: no page breaks it, scripts still work."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# Every violation the browser reports, gathered before any page script runs.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
"""

PAGES = [
    "/",
    "/?size=9",
    "/games",
    "/games/1",
    "/players/Bianka",
    "/handicap?size=9&a=Bianka&b=Czarek",
    "/rules",
    "/new",
    "/players/new",
    "/owner/login",
    "/nowhere",  # the 404 page
]
OWNER_PAGES = [
    "/owner/",
    "/owner/correction",
    "/owner/magnets",
    "/owner/member",
    "/owner/shift",
    "/owner/merge",
    "/owner/games/1",
    "/owner/settings",
    "/owner/import",
    "/owner/audit",
]


@pytest.fixture
def watched(phone: Page) -> tuple[Page, list[str]]:
    """The phone, with CSP violations from the console and from the page's own events collected."""
    console: list[str] = []
    phone.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    phone.add_init_script(WATCH)
    return phone, console


def violations(page: Page, console: list[str]) -> list[str]:
    """What the policy blocked on this page so far."""
    reported = page.evaluate("window.__violations")
    return reported + [text for text in console if "Content Security Policy" in text]


def test_the_policy_is_in_force_and_would_catch_an_inline_script(watched: tuple[Page, list[str]]) -> None:
    page, console = watched
    page.goto("/")
    page.evaluate(
        """() => { const s = document.createElement("script");
                   s.textContent = "window.__ran = true"; document.body.append(s); }"""
    )
    page.wait_for_function("window.__violations.length > 0")
    assert page.evaluate("window.__ran === undefined")  # the inline script never ran
    assert any(v.startswith("script-src") for v in violations(page, console))


def test_no_page_breaks_the_policy(watched: tuple[Page, list[str]]) -> None:
    page, console = watched
    for url in PAGES:
        page.goto(url)
        page.wait_for_load_state("load")
        assert violations(page, console) == [], url
    page.goto("/owner/login")  # the PIN set at the kiosk, then walk the owner's tools
    page.get_by_label("Owner PIN").fill("2468")
    page.get_by_role("button", name="Enter").click()
    expect(page.get_by_role("heading", name="Owner tools")).to_be_visible()
    for url in OWNER_PAGES:
        page.goto(url)
        page.wait_for_load_state("load")
        assert page.url.endswith(url), url  # the page itself, not the PIN form
        assert violations(page, console) == [], url
    assert len(PAGES) + len(OWNER_PAGES) == 21


def test_under_the_policy_the_form_still_helps_as_players_are_typed(watched: tuple[Page, list[str]]) -> None:
    page, console = watched
    page.goto("/new")
    page.get_by_text("9×9", exact=True).click()
    page.get_by_label("Player 1", exact=True).fill("bian")
    expect(page.locator("#handicap-slot button.chip", has_text="Bianka")).to_be_visible()  # the type-ahead
    page.get_by_label("Player 1", exact=True).fill("Bianka")
    page.get_by_label("Player 2", exact=True).fill("Czarek")
    expect(page.locator("#handicap-box")).to_contain_text("2 starting moves, 0 prisoners")  # fetched by app.js
    expect(page.get_by_text("Czarek won")).to_be_visible()  # the winner buttons follow the names
    page.get_by_label("Player 2", exact=True).fill("Dawid")
    expect(page.locator("#handicap-box")).to_contain_text("Bianka takes White, Dawid takes Black.")
    assert violations(page, console) == []
