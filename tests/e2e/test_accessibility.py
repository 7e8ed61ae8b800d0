"""Every page passes axe-core (no serious or critical findings) and has touch targets of 44 px, in both languages.

axe-core's own axe.min.js comes from the axe-playwright-python package (the test extras); it is injected
into each page of the real app served by waitress, in Debian's Chromium at 390x844.
"""

from __future__ import annotations

from pathlib import Path

import axe_playwright_python
import pytest
from new_game import box_redrawn
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

AXE = Path(axe_playwright_python.__file__).with_name("axe.min.js")

PAGES = [
    "/",
    "/?size=13",
    "/new",
    "/new?size=9&a=Bianka&b=Czarek",
    "/new?size=19&a=Bianka&b=Tymk",
    "/games",
    "/games/1",
    "/games?player=dawid",
    "/players/Bianka",
    "/players/new",
    "/players/new?nick=Bianca&size=9",
    "/handicap",
    "/handicap?size=9&a=Bianka&b=Czarek",
    "/rules",
    "/nothing-here",
]
OWNER_PAGES = [
    "/owner/",
    "/owner/clock",
    "/owner/correction",
    "/owner/shift",
    "/owner/merge",
    "/owner/magnets",
    "/owner/member",
    "/owner/settings",
    "/owner/import",
    "/owner/audit",
    "/owner/games/1",
    "/owner/awards/?month=2026-11",
    "/owner/rules",
    "/owner/board",
    "/owner/board?at=2026-11-02&size=9",
    "/owner/privacy/",
    "/owner/privacy/player?nick=Zosia",
]
# What a thumb taps: each must be at least 44 px tall (WCAG 2.5.5); links inside a sentence are exempt.
TARGETS = (
    "nav a, footer a, button:not(.enter-key), a.button, a.magnet, .tabs a, ul.menu a, label.choice span, "
    "label.check, article.game h3 a, .move a, input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
)


@pytest.fixture
def phone390(chromium, server: str, lang: str):
    """The 390x844 phone of conftest, allowed to run axe-core despite the app's Content-Security-Policy."""
    context = chromium.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        base_url=server,
        bypass_csp=True,
        extra_http_headers={"Accept-Language": "pl-PL,pl;q=0.9" if lang == "pl" else "en-GB,en;q=0.9"},
    )
    yield context.new_page()
    context.close()


def findings(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page, one line each."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {node['target']} {node.get('failureSummary', '')[:200]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
        for node in v["nodes"]
    ]


def small_targets(page: Page) -> list[str]:
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .filter((el) => el.offsetParent !== null)
            .map((el) => [el, el.getBoundingClientRect()])
            .filter(([el, box]) => box.height < 44 || box.width < 44)
            .map(([el, box]) => `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}" `
              + `${Math.round(box.width)}x${Math.round(box.height)}`)""",
        TARGETS,
    )


def check_pages(page: Page, paths: list[str]) -> None:
    problems = []
    for path in paths:
        page.goto(path)
        problems += [f"{path}: {line}" for line in findings(page)]
        problems += [f"{path}: small target {line}" for line in small_targets(page)]
    assert not problems, "\n".join(problems)


def test_every_page_passes_axe_and_has_big_targets(phone390: Page) -> None:
    check_pages(phone390, PAGES)


def test_every_owner_page_passes_axe_and_has_big_targets(phone390: Page) -> None:
    page = phone390
    page.goto("/owner/")
    check_pages(page, ["/owner/login"])
    page.locator("input[name=pin]").fill("2468")
    page.locator("button.big").click()
    check_pages(page, OWNER_PAGES)


def test_the_form_with_errors_and_the_result_page_pass_too(phone390: Page) -> None:
    page = phone390
    page.goto("/new")
    page.locator("input[name=a]").fill("Bianka")
    page.locator("input[name=b]").fill("Czark")
    box_redrawn(page)
    page.locator("button.big").click()  # errors: a typo, no winner
    problems = findings(page) + small_targets(page)
    page.locator("#handicap-slot button.chip", has_text="Czarek").click()
    box_redrawn(page)
    page.locator("input[name=winner][value=b] + span").click()
    page.locator("input[name=by][value=resignation] + span").click()
    page.locator("button.big").click()
    page.locator("h1.saved").wait_for()
    problems += findings(page) + small_targets(page)  # "Saved!", the moves, undo
    page.locator("form.undo button").click()
    page.locator("p.flash").wait_for()
    problems += findings(page) + small_targets(page)
    assert not problems, "\n".join(problems)
