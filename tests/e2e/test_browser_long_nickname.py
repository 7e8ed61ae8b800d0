"""No page scrolls sideways for any nickname the kiosk accepts: a 30-letter
nickname without a space, checked in, playing, on every page of the phone and the owner, at 390 px."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser
from serving import CLUB, OWNER_PIN, club_home, serving

from kiosk.events import NICK_LIMIT
from web import create_app

pytestmark = pytest.mark.browser

LONG = "W" * NICK_LIMIT  # the widest letter, as many as a nickname may have
LINES = [
    *CLUB,
    {"type": "player", "at": "2026-11-01T10:05", "nick": LONG, "size": 9, "status": "member", "strength": 22},
    {"type": "game", "at": "2026-11-02T18:10", "size": 9, "players": [LONG, "Czarek"], "winner": LONG, "by": 5},
]
# GET pages that are no page to look at: files, JSON, pictures, redirects.
NOT_PAGES = {"static", "language", "pages.favicon", "pages.manifest", "pictures.board_png", "owner.export"}
NOT_PAGES |= {"owner.backup", "privacy.export", "awards.certificate_png", "event.export_h9", "event.export_opengotha"}
ARGUMENTS = {"nick": LONG, "game_id": "2"}


def pages(home: Path) -> list[str]:
    """Every page of the app a person opens, with the long nickname wherever a page names a player."""
    app = create_app({"SEMEDORI_HOME": str(home), "TESTING": True})
    found = []
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()) or rule.endpoint in NOT_PAGES or rule.endpoint.startswith("api."):
            continue
        if rule.arguments - set(ARGUMENTS):
            continue  # an event's page: no event tonight here
        path = rule.rule
        for name in rule.arguments:
            path = path.replace(f"<int:{name}>", ARGUMENTS[name]).replace(f"<path:{name}>", ARGUMENTS[name])
        found.append(path)
    found += ["/?size=9", f"/new?a={LONG}&b=Czarek&size=9", "/tonight?size=9", f"/owner/privacy/player?nick={LONG}"]
    return found


@pytest.mark.parametrize("language", ["en", "pl"])
def test_no_page_scrolls_sideways_for_a_thirty_letter_nickname(
    chromium: Browser, tmp_path: Path, language: str
) -> None:
    home = club_home(tmp_path / "data", LINES)
    with serving(home) as address:
        context = chromium.new_context(viewport={"width": 390, "height": 844}, base_url=address, locale=language)
        page = context.new_page()
        page.goto("/owner/")
        page.locator("input[name=pin]").fill(OWNER_PIN)
        page.locator("button.big").click()
        for nick in (LONG, "Czarek"):  # both here tonight: the long name is paired on the tonight page
            page.goto("/tonight?size=9")
            page.locator("form.check-in input[name=nick]").fill(nick)
            page.locator("form.check-in button.here").click()
        visited = pages(home)
        assert len(visited) > 25
        wide = {}
        for path in visited:
            response = page.goto(path)
            assert response is not None and response.status < 500, path
            width = page.evaluate("document.scrollingElement.scrollWidth")
            if width > 390:
                wide[path] = width
        page.goto("/tonight?size=9")
        assert LONG in page.locator("main").inner_text().replace("\n", "")  # the long name is on the page, whole
        context.close()
    assert wide == {}, "these pages scroll sideways"
