"""The owner's choices for an event on real phone browsers at 390x844: tie-breaks, unique places, the
handicap played, pairs kept apart, class prizes; "why is she above me" opened on a player's phone; English and
Polish, bad input refused in both with nothing started."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from serving import club_home, serving
from test_browser_event import CLUB_19H, PIN, assert_thumb_sized, boards, phone

from kiosk.store import Store
from web.pin import hash_pin

pytestmark = pytest.mark.browser
EVENING = date(2026, 11, 30)


@pytest.fixture
def choices_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The app under waitress at 19:00 in the club on a Monday, four players checked in; its address and folder."""
    home = club_home(tmp_path / "data", owner_pin_hash=hash_pin(PIN))
    with Store.open(home) as store:
        for nick in ("Bianka", "Czarek", "Dawid", "Zosia"):
            store.check_in(EVENING, nick)
    synced = tmp_path / "synchronized"
    synced.touch()
    with serving(home, SEMEDORI_PI_CLOCK=lambda: CLUB_19H, SEMEDORI_TIMESYNC_FLAG=str(synced)) as address:
        yield address, home


def _owner_with_four(chromium: Browser, server: str, locale: str) -> Page:
    owner = phone(chromium, server, locale)
    owner.goto("/owner/login")
    owner.locator("input[name=pin]").fill(PIN)
    owner.locator("form button[type=submit]").first.click()
    owner.wait_for_url(lambda url: "/owner/login" not in url)  # signed in before going on
    owner.goto("/event")
    return owner


def _starts(home: Path) -> int:
    with Store.open(home) as store:
        return sum('"tournament-start"' in line for line in store.export_lines())


def test_the_owner_chooses_the_chain_the_handicap_and_a_pair_and_a_player_opens_why(
    chromium: Browser, choices_server: tuple[str, Path], artifacts: Path
) -> None:
    server, _home = choices_server
    owner = _owner_with_four(chromium, server, "en-GB")
    owner.get_by_text("Tie-breaks, handicap, pairing and prizes (you may leave them)").click()
    expect(owner.locator("#tiebreak-1")).to_have_value("sos")  # OpenGotha's default, preselected
    expect(owner.locator("#tiebreak-2")).to_have_value("sosos")
    owner.locator("#tiebreak-1").select_option("direct")
    owner.locator("#tiebreak-2").select_option("sos")
    owner.get_by_label("Unique places for a prize-giving (still equal: the stronger at the start goes first)").check()
    owner.get_by_label("At most this many starting moves:").fill("2")
    owner.get_by_label("Pair 1, first player").select_option("Bianka")
    owner.get_by_label("Pair 1, second player").select_option("Zosia")
    owner.get_by_label("Class prizes: the fields where a class begins (e.g. 20 30), empty for none:").fill("20")
    assert_thumb_sized(owner)
    owner.screenshot(path=artifacts / "event-choices-en-start.png", full_page=True)
    owner.get_by_role("button", name="Start the event").click()

    expect(owner.get_by_text("Handicap: at most 2 starting moves.")).to_be_visible()
    # Bianka (34.5) and Zosia (12), marked, do not meet in round 1: Berger's round 1 (Bianka–Zosia) moved last.
    assert all("Bianka – Zosia" not in board for board in boards(owner))
    for text in owner.locator("article.board p.big").all_inner_texts():
        assert "3 starting moves" not in text and "4 starting moves" not in text  # never above the cap
    expect(owner.locator("p.training")).to_have_count(0)
    for board in (1, 2):
        owner.locator(f"#board-{board}").get_by_role("button", name="by resignation").first.click()
    expect(owner.get_by_role("heading", name="Round 2 of 6")).to_be_visible()
    assert_thumb_sized(owner)

    player = phone(chromium, server, "pl-PL")
    player.goto("/event")
    expect(player.get_by_role("heading", name="Runda 2 z 6")).to_be_visible()
    why = player.locator("details.why").first
    why.locator("summary").click()
    expect(why.locator("table.why-numbers")).to_be_visible()
    expect(why.locator("tr.decided")).to_have_count(1)  # the number that decided is marked
    assert "Dlaczego" in why.locator("summary").inner_text()
    assert_thumb_sized(player)
    player.screenshot(path=artifacts / "event-choices-pl-why.png", full_page=True)
    expect(player.get_by_role("heading", name="Nagrody")).to_be_visible()

    owner.reload()
    owner.locator("details.why").first.locator("summary").click()
    assert_thumb_sized(owner)
    owner.screenshot(path=artifacts / "event-choices-en-owner-why.png", full_page=True)
    certificate = owner.locator("section.prizes a", has_text="certificate").first
    with owner.expect_download() as download:
        certificate.click()
    assert download.value.suggested_filename.startswith("event-1-place")


@pytest.mark.parametrize(
    ("locale", "said"),
    [("en-GB", "at most 1 to 9 starting moves"), ("pl-PL", "najwyżej od 1 do 9 ruchów na start")],
)
def test_a_bad_choice_is_said_in_the_phones_language_and_nothing_starts(
    chromium: Browser, choices_server: tuple[str, Path], artifacts: Path, locale: str, said: str
) -> None:
    server, home = choices_server
    owner = _owner_with_four(chromium, server, locale)
    owner.locator("details.choices summary").click()
    owner.locator("#handicap-cap").fill("12")
    owner.locator("section.start button.primary").click()
    expect(owner.locator("div.errors")).to_contain_text(said)
    assert _starts(home) == 0
    assert_thumb_sized(owner)
    owner.screenshot(path=artifacts / f"event-choices-{locale}-refused.png", full_page=True)
