"""Tonight's event on real phone browsers: a wrong tap is taken back from the phone that made it,
and closing an event with rounds unplayed asks first and can be undone by reopening it. English and Polish.

The kiosk's clock is fixed at Monday 30 November 2026, 19:00 in the club, with internet time.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from serving import club_home, serving
from test_browser_event import CLUB_19H, PIN, phone

from kiosk.pairing import side_of
from kiosk.services import tournaments
from kiosk.store import Store
from web.pin import hash_pin

pytestmark = pytest.mark.browser
EVENING = date(2026, 11, 30)
FOUR = ["Bianka", "Czarek", "Dawid", "Zosia"]


@pytest.fixture
def event_server(tmp_path: Path) -> Iterator[tuple[str, Path, int]]:
    """The app under waitress with tonight's event of four started (a double round-robin of 6 rounds on 9x9)."""
    home = club_home(tmp_path / "data", owner_pin_hash=hash_pin(PIN))
    with Store.open(home) as store:
        for nick in FOUR:
            store.check_in(EVENING, nick)
        sides = [side_of(store.magnets(), nick, 9) for nick in FOUR]
        event_id = tournaments.start(store, EVENING, 9, sides, counts=True).id
    synced = tmp_path / "synchronized"
    synced.touch()
    with serving(home, SEMEDORI_PI_CLOCK=lambda: CLUB_19H, SEMEDORI_TIMESYNC_FLAG=str(synced)) as address:
        yield address, home, event_id


def games(home: Path) -> list[tuple[str | None, object]]:
    """Tonight's games (the club's history has an older one)."""
    with Store.open(home) as store:
        return [(g.winner, g.by) for g in store.games_since(datetime(2026, 11, 30))]


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        (
            "en-GB",
            {
                "wrong": "Bianka won by resignation",
                "right": "Zosia won by resignation",
                "undo": "Undo my tap (wrong result)",
                "undone": "Your tap was taken back: tap the right result.",
                "minutes": "You can take it back for 10 more minutes.",
                "saved": "Saved: Zosia won by resignation. Thank you!",
            },
        ),
        (
            "pl-PL",
            {
                "wrong": "Bianka – wygrana przez poddanie",
                "right": "Zosia – wygrana przez poddanie",
                "undo": "Cofnij mój wynik (pomyłka)",
                "undone": "Twój wynik został cofnięty: wybierz właściwy.",
                "minutes": "Możesz go cofnąć jeszcze przez 10 minut.",
                "saved": "Zapisano: Zosia – wygrana przez poddanie. Dziękujemy!",
            },
        ),
    ],
)
def test_a_wrong_tap_is_taken_back_from_the_same_phone_and_no_other(
    chromium: Browser, event_server: tuple[str, Path, int], artifacts: Path, locale: str, words: dict[str, str]
) -> None:
    server, home, event_id = event_server
    child = phone(chromium, server, locale)
    child.goto(f"/event/{event_id}")
    child.get_by_role("button", name=words["wrong"]).click()  # the wrong winner: it was Zosia
    expect(child.locator("#board-1 .result")).to_have_text(words["wrong"])
    assert games(home) == [("Bianka", "resignation")]  # the magnets moved
    undo = child.locator("#board-1").get_by_role("button", name=words["undo"])
    expect(undo).to_be_visible()
    expect(child.locator("#board-1 form.undo")).to_contain_text(words["minutes"])
    box = undo.bounding_box()
    assert box is not None and box["height"] >= 44  # a child's thumb
    child.screenshot(path=artifacts / f"event-undo-{locale}-tapped.png", full_page=True)

    # Another phone sees the result and no undo: only the phone that tapped may take it back.
    other = phone(chromium, server, locale)
    other.goto(f"/event/{event_id}")
    expect(other.locator("#board-1 .result")).to_have_text(words["wrong"])
    expect(other.locator("form.undo")).to_have_count(0)

    undo.click()
    expect(child.get_by_text(words["undone"])).to_be_visible()
    expect(child.locator("#board-1 .result")).to_have_count(0)
    assert games(home) == []  # the board is as if never tapped
    child.get_by_role("button", name=words["right"]).click()
    expect(child.get_by_text(words["saved"])).to_be_visible()
    expect(child.locator("#board-1 .result")).to_have_text(words["right"])
    assert games(home) == [("Zosia", "resignation")]
    child.screenshot(path=artifacts / f"event-undo-{locale}-right.png", full_page=True)
    with Store.open(home) as store:
        assert store.check() == []


def owner_phone(chromium: Browser, server: str, locale: str) -> Page:
    owner = phone(chromium, server, locale)
    owner.goto("/owner/login")
    owner.locator("input[name=pin]").fill(PIN)
    owner.locator("main form button[type=submit]").first.click()
    expect(owner.locator("ul.menu")).to_be_visible()
    return owner


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        (
            "en-GB",
            {
                "close": "Close the event",
                "asked": "6 rounds not played yet",
                "keep": "No, keep playing",
                "sure": "Yes, close the event",
                "closed": "The event is closed. Its standings and files stay here.",
                "reopen": "Reopen the event",
                "reopened": "The event is open again: the players can tap the boards.",
                "round": "Round 1 of 6",
            },
        ),
        (
            "pl-PL",
            {
                "close": "Zamknij turniej",
                "asked": "6 rund jeszcze nierozegranych",
                "keep": "Nie, gramy dalej",
                "sure": "Tak, zamknij turniej",
                "closed": "Turniej jest zamknięty. Tabela i pliki zostają tutaj.",
                "reopen": "Otwórz turniej ponownie",
                "reopened": "Turniej jest znów otwarty: gracze mogą wpisywać wyniki.",
                "round": "Runda 1 z 6",
            },
        ),
    ],
)
def test_closing_with_rounds_unplayed_asks_first_and_the_owner_can_reopen(
    chromium: Browser, event_server: tuple[str, Path, int], artifacts: Path, locale: str, words: dict[str, str | None]
) -> None:
    server, home, event_id = event_server
    owner = owner_phone(chromium, server, locale)
    owner.goto(f"/event/{event_id}")
    owner.get_by_role("button", name=words["close"], exact=True).click()
    expect(owner.get_by_role("heading", name=words["asked"])).to_be_visible()
    owner.screenshot(path=artifacts / f"event-close-{locale}-asked.png", full_page=True)
    with Store.open(home) as store:
        assert tournaments.get(store, event_id).closed is False  # type: ignore[union-attr]  # asking saved nothing
    owner.get_by_role("link", name=words["keep"]).click()
    expect(owner.get_by_role("heading", name=words["round"])).to_be_visible()
    expect(owner.get_by_role("heading", name=words["asked"])).to_have_count(0)

    owner.get_by_role("button", name=words["close"], exact=True).click()
    owner.get_by_role("button", name=words["sure"]).click()
    expect(owner.get_by_text(words["closed"] or "")).to_be_visible()
    reopen = owner.get_by_role("button", name=words["reopen"])
    expect(reopen).to_be_visible()
    with Store.open(home) as store:
        assert tournaments.get(store, event_id).closed is True  # type: ignore[union-attr]
    owner.screenshot(path=artifacts / f"event-close-{locale}-closed.png", full_page=True)
    reopen.click()
    expect(owner.get_by_text(words["reopened"] or "")).to_be_visible()
    expect(owner.locator("#board-1 form.taps")).to_be_visible()  # the boards take taps again
    with Store.open(home) as store:
        assert tournaments.get(store, event_id).closed is False  # type: ignore[union-attr]
        assert store.check() == []
