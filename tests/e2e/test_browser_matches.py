"""The owner's matches page on a phone: the host club writes the match file, both languages.

Real Chromium at 390x844 against the app under waitress: the owner types the evening's games one
a line, gets the match file as a download (which the other club's kiosk reads back with the code);
a missing club name or a bad line is said in the owner's language and nothing is kept.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from serving import club_home, owner_pin, serving
from test_browser_event import PHONE, assert_thumb_sized

from kiosk.store import Store

pytestmark = pytest.mark.browser

LINES = [
    {"type": "player", "at": "2026-11-01T10:00", "nick": nick, "size": 13, "status": "member", "strength": s}
    for nick, s in (("Ala", 20), ("Bartek", 24), ("Celina", 33.5))
]
TYPED = "2026-11-20 18:00; 13; Ala; Kuba; 20; home; resignation\n2026-11-20 18:40; 13; Celina; Jaś; 33,5; away; 12"


@pytest.fixture
def club_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    home = club_home(tmp_path / "data", LINES)
    with serving(home) as address:
        yield address, home


@pytest.mark.parametrize("locale", ["en-GB", "pl-PL"])
def test_the_owner_writes_the_match_file_on_the_phone(
    chromium: Browser, club_server: tuple[str, Path], artifacts: Path, locale: str
) -> None:
    server, home = club_server
    polish = locale == "pl-PL"
    context = chromium.new_context(**PHONE, base_url=server, locale=locale, accept_downloads=True)
    page = context.new_page()
    try:
        owner_pin(page)
        page.goto("/owner/matches")
        form = page.locator("form.match-export")
        # No club name: said in the owner's language, the games typed are kept, nothing written.
        form.locator("input[name=code]").fill("K7 Q2 M9 X4")
        form.locator("textarea[name=sheet]").fill(TYPED)
        form.locator("button[type=submit]").click()
        expect(page.get_by_role("alert")).to_contain_text(
            "Wpisz nazwę klubu, z którym graliście." if polish else "Type the name of the club you played."
        )
        expect(page.locator("form.match-export textarea[name=sheet]")).to_have_value(TYPED)
        assert_thumb_sized(page)
        page.screenshot(path=artifacts / f"match-export-{locale}-refused.png", full_page=True)
        with Store.open(home) as store:
            assert store.kept_matches() == []
        form = page.locator("form.match-export")
        form.locator("input[name=other]").fill("Klub Kraków")
        with page.expect_download() as download:
            form.locator("button[type=submit]").click()
        assert download.value.suggested_filename.startswith("match-Klub-Krak-w-")
        written = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
        assert [g["home"] for g in written["games"]] == ["Ala", "Celina"]
        assert [g["away_strength"] for g in written["games"]] == [20, 33.5]
        with Store.open(home) as store:  # kept as written (the club rating reads it), nothing on the board moved
            assert len(store.kept_matches()) == 1
            assert {m.nick: m.strength for m in store.magnets()} == {"Ala": 80, "Bartek": 96, "Celina": 134}
    finally:
        context.close()
