"""Tonight's event on real phone browsers: check in, the owner starts it, one-tap results, standings.

The kiosk's clock is fixed at Monday 30 November 2026, 19:00 in the club, with internet
time: the suite runs at about 04:00 Warsaw, outside the club's evening.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from serving import club_home, serving

from kiosk.store import Store
from web.pin import hash_pin

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
CLUB_19H = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
PIN = "2468"


@pytest.fixture
def club_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The app under waitress, its clock at 19:00 in the club on a Monday; yields its address and data folder."""
    home = club_home(tmp_path / "data", owner_pin_hash=hash_pin(PIN))
    synced = tmp_path / "synchronized"
    synced.touch()
    with serving(home, SEMEDORI_PI_CLOCK=lambda: CLUB_19H, SEMEDORI_TIMESYNC_FLAG=str(synced)) as address:
        yield address, home


def phone(chromium: Browser, server: str, locale: str) -> Page:
    context = chromium.new_context(**PHONE, base_url=server, locale=locale)
    return context.new_page()


def assert_thumb_sized(page: Page) -> None:
    """Every result button is at least 44 px high and wide, and nothing scrolls sideways."""
    # Measured in one go in the page: a page that refreshes itself (a result tapped in) between a list of the
    # buttons and the measuring of the 22nd once left the test waiting 30 s for a button that had gone.
    page.wait_for_load_state()
    boxes = page.evaluate(
        "[...document.querySelectorAll('main button, main a.button')]"
        ".filter(e => e.offsetParent !== null)"
        ".map(e => [e.innerText, e.getBoundingClientRect().width, e.getBoundingClientRect().height])"
    )
    assert boxes
    for text, wide_px, high_px in boxes:
        assert high_px >= 44 and wide_px >= 44, (text, wide_px, high_px)
    wide = page.evaluate(
        "[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > 390)"
        ".map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, wide


def standings_heads_on_one_line(page: Page) -> None:
    """Each column head of the standings is on one line: "W–R–P" never breaks at its dashes."""
    lines = page.locator("table.standings > thead th").evaluate_all(
        "heads => heads.map(head => { const range = document.createRange(); range.selectNodeContents(head);"
        " return [head.innerText, new Set([...range.getClientRects()].map(r => Math.round(r.top))).size]; })"
    )
    assert lines and all(count == 1 for _, count in lines), lines


def boards(page: Page) -> list[str]:
    return [h.strip() for h in page.locator("article.board h3").all_inner_texts()]


def test_check_in_start_an_event_tap_results_and_see_the_standings(
    chromium: Browser, club_server: tuple[str, Path], artifacts: Path
) -> None:
    server, home = club_server
    owner = phone(chromium, server, "en-GB")
    owner.goto("/owner/login")
    owner.locator("input[name=pin]").fill(PIN)
    owner.get_by_role("button", name="Enter").click()
    owner.goto("/tonight")
    for nick in ("Bianka", "Czarek", "Dawid", "Zosia"):
        owner.locator("form.check-in input[name=nick]").fill(nick)
        owner.get_by_role("button", name="I'm here", exact=True).click()
    expect(owner.get_by_role("heading", name="Here tonight (4)")).to_be_visible()

    owner.get_by_role("link", name="Tonight's event: rounds and standings").click()
    expect(owner.get_by_role("heading", name="Start an event")).to_be_visible()
    expect(owner.get_by_text("With everyone ticked: double round-robin, 6 rounds.")).to_be_visible()
    expect(owner.get_by_label("The results count on the board (the magnets move)")).to_be_checked()
    owner.get_by_label("Name (you may leave it empty)").fill("Listopadowy turniej")
    owner.screenshot(path=artifacts / "event-en-start.png", full_page=True)
    owner.get_by_role("button", name="Start the event").click()

    expect(owner.get_by_role("heading", name="Round 1 of 6")).to_be_visible()
    # Berger's round 1 (1-4, 2-3) of 34.5, 25, 23 and 12 on 9x9: a training game and an even game.
    assert boards(owner) == ["Board 1: Bianka – Zosia", "Board 2: Czarek – Dawid"]
    expect(owner.locator("#board-1")).to_contain_text("Bianka takes White, Zosia takes Black.")
    expect(owner.locator("#board-1")).to_contain_text("4 starting moves, 0 prisoners")
    expect(owner.locator("#board-2")).to_contain_text("Even game: nigiri, komi 6.5")
    expect(owner.locator("#board-2").get_by_role("button", name="Draw")).to_have_count(0)
    assert_thumb_sized(owner)
    owner.screenshot(path=artifacts / "event-en-round-1.png", full_page=True)

    # A player's phone in Polish opens the same round before the owner taps board 1.
    player = phone(chromium, server, "pl-PL")
    player.goto("/event")
    expect(player.get_by_role("heading", name="Runda 1 z 6")).to_be_visible()

    owner.get_by_role("button", name="Zosia won by resignation").click()
    expect(owner.get_by_text("Saved: Zosia won by resignation. Thank you!")).to_be_visible()
    expect(owner.locator("#board-1 .result")).to_have_text("Zosia won by resignation")
    expect(owner.locator("#board-1")).to_contain_text("4 starting moves, 0 prisoners")  # as played, not as now

    # The Polish phone's page is stale: its tap on board 1 is refused kindly, nothing changes.
    player.get_by_role("button", name="Bianka – wygrana przez poddanie").click()
    expect(player.get_by_text("Ta partia ma już wynik: Zosia – wygrana przez poddanie.")).to_be_visible()
    player.screenshot(path=artifacts / "event-pl-taken.png", full_page=True)
    # Board 2 by points, typed with a Polish decimal comma; the next round comes up on its own.
    player.locator("#board-2 input[name=points]").fill("12,5")
    player.get_by_role("button", name="Dawid – wygrana na punkty").click()
    expect(player.get_by_text("Zapisano: Dawid – wygrana o 12,5 punktów. Dziękujemy!")).to_be_visible()
    expect(player.get_by_role("heading", name="Runda 2 z 6")).to_be_visible()
    rows = player.locator("table.standings > tbody > tr:not(.why-row)").all_inner_texts()
    assert [row.split("\t")[:3] for row in rows] == [
        ["1", "Dawid", "1"],  # equal points and SOS: the stronger listed first, the place shared
        ["1", "Zosia", "1"],
        ["3", "Bianka", "0"],
        ["3", "Czarek", "0"],
    ]
    assert_thumb_sized(player)
    player.screenshot(path=artifacts / "event-pl-round-2.png", full_page=True)

    with Store.open(home) as store:  # the event counts on the board: two ordinary games
        games = store.games_since(datetime(2026, 11, 30))
        assert sorted((g.winner, g.by) for g in games) == [("Dawid", 12.5), ("Zosia", "resignation")]

    # The owner puts a wrong tap right: board 2 of round 1 was Czarek's win, not Dawid's.
    owner.reload()
    earlier = owner.locator("details.round-fixes")
    earlier.get_by_text("Round 1", exact=True).click()
    fix = earlier.locator("#fix-1-2")
    fix.locator("summary").click()
    fix.scroll_into_view_if_needed()
    owner.screenshot(path=artifacts / "event-en-owner-correct.png", full_page=True)
    assert_thumb_sized(owner)
    fix.get_by_role("button", name="Czarek won by resignation").click()
    expect(owner.get_by_text("Corrected: Czarek won by resignation. The board was replayed.")).to_be_visible()
    with Store.open(home) as store:  # the same game, corrected in place: still two games
        games = store.games_since(datetime(2026, 11, 30))
        assert sorted((g.winner, g.by) for g in games) == [("Czarek", "resignation"), ("Zosia", "resignation")]
    # Zosia goes home during round 2: her board is not played, her opponent sits out instead.
    owner.get_by_label(
        "Someone went home? Pick them, then tap the button: they play no more games in this event."
    ).select_option("Zosia")
    assert_thumb_sized(owner)
    owner.screenshot(path=artifacts / "event-en-owner-withdraw.png", full_page=True)
    owner.get_by_role("button", name="Went home: no more games").click()
    expect(owner.get_by_text("Zosia went home: no more games in this event.")).to_be_visible()
    expect(owner.locator("table.standings")).to_contain_text("Zosia (went home)")
    assert all("Zosia" not in board for board in boards(owner))
    expect(owner.locator("p.bye")).to_have_count(1)
    assert_thumb_sized(owner)
    owner.screenshot(path=artifacts / "event-en-owner-after-withdraw.png", full_page=True)
    player.reload()
    expect(player.locator("table.standings")).to_contain_text("poza turniejem")
    assert_thumb_sized(player)
    standings_heads_on_one_line(player)
    # The owner's controls in Polish, the longest words: still finger-sized, nothing sideways.
    owner.get_by_role("link", name="Polski").click()
    owner.get_by_text("Runda 1", exact=True).click()
    # Zosia went home: her board 1 can be corrected but not cleared (nobody would tap it again).
    owner.locator("#fix-1-1 summary").click()
    expect(owner.locator("#fix-1-1 button.clear")).to_have_count(0)
    owner.locator("#fix-1-2 summary").click()
    expect(
        owner.locator("#fix-1-2").get_by_role("button", name="Wyczyść wynik (gracze stukną go jeszcze raz)")
    ).to_be_visible()
    assert_thumb_sized(owner)
    owner.screenshot(path=artifacts / "event-pl-owner-correct.png", full_page=True)
    owner.get_by_role("link", name="English").click()

    owner.reload()
    expect(owner.get_by_role("link", name="Download for the EGD (.h9)")).to_be_visible()
    with owner.expect_download() as download:
        owner.get_by_role("link", name="Download for the EGD (.h9)").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert "Zosia 38k PL Semd" in text and "+/b4" in text, text  # 12 converts to 38 kyu; Zosia had 4 starting moves
    owner.get_by_role("button", name="Close the event").click()
    # Rounds are unplayed: the page asks first.
    expect(owner.get_by_role("heading", name="rounds not played yet")).to_be_visible()
    owner.get_by_role("button", name="Yes, close the event").click()
    expect(owner.get_by_text("The event is closed. Its standings and files stay here.")).to_be_visible()
    owner.screenshot(path=artifacts / "event-en-closed.png", full_page=True)
    owner.context.close()
    player.context.close()


AXE = Path(__import__("axe_playwright_python").__file__).with_name("axe.min.js")


def serious_findings(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page (as tests/e2e/test_accessibility.py runs it)."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {node['target']}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
        for node in v["nodes"]
    ]


@pytest.mark.parametrize("locale", ["en-GB", "pl-PL"])
def test_the_event_pages_pass_axe(chromium: Browser, club_server: tuple[str, Path], locale: str) -> None:
    server, home = club_server
    context = chromium.new_context(**PHONE, base_url=server, locale=locale, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto("/event")  # no event yet, not the owner
        problems = serious_findings(page)
        page.goto("/owner/login")
        page.locator("input[name=pin]").fill(PIN)
        page.locator("button.big").click()
        with Store.open(home) as store:
            for nick in ("Bianka", "Czarek", "Dawid", "Zosia", "Ewa"):
                store.check_in(datetime(2026, 11, 30).date(), nick)
        page.goto("/event")  # the owner's start form
        problems += serious_findings(page)
        page.locator("form[action='/event/start'] button[type=submit]").click()
        page.locator("article.board").first.wait_for()
        problems += serious_findings(page)  # boards with their buttons, standings, the owner's downloads
        # The owner's corrections and withdrawal: a decided board with its correction form open.
        page.locator("#board-1 form.taps button[value$=':resignation']").first.click()
        page.locator("#board-1 details.fix summary").click()
        problems += serious_findings(page)
        assert not problems, "\n".join(problems)
    finally:
        context.close()
