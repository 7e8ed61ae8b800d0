"""Recording on a phone in a real Chromium at 390x844, in English and Polish: few taps, kind mistakes, no typing."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from new_game import box_redrawn
from playwright.sync_api import Page, expect
from serving import owner_pin

pytestmark = pytest.mark.browser

# What a player reads, per language (the catalogue's own sentences).
SAY = {
    "en": {
        "nobody": "Neither Bianka nor Czarek has a magnet on 19×19, so no magnet would move.",
        "anyway": "Record it on 19×19 anyway",
        "save": "Save the result",
        "won": "Czarek won",
        "resign": "By resignation",
        "saved": "Saved!",
        "why": "Bianka: no magnet on 19×19, so nothing moved.",
        "handicap": "2 starting moves, 0 prisoners",
    },
    "pl": {
        "nobody": "Ani Bianka, ani Czarek nie ma magnesu na 19×19, więc żaden magnes się nie przesunie.",
        "anyway": "Zapisz na 19×19 mimo to",
        "save": "Zapisz wynik",
        "won": "Czarek – wygrana",
        "resign": "Przez poddanie",
        "saved": "Zapisane!",
        "why": "Bianka: brak magnesu na 19×19, więc nic się nie przesunęło.",
        "handicap": "2 ruchy na start, 0 jeńców",
    },
}


def games(server: str) -> list[dict]:
    with urllib.request.urlopen(f"{server}/api/games?limit=50") as response:
        return json.load(response)["games"]


def checked_size(page: Page) -> str:
    return page.locator("input[name=size]:checked").get_attribute("value") or ""


def test_the_size_follows_the_players_and_a_size_neither_has_needs_a_tick(
    phone390: Page, server: str, lang: str, artifacts: Path
) -> None:
    say = SAY[lang]
    page = phone390
    page.goto("/new")
    assert checked_size(page) == "13"
    page.locator("input[name=a]").fill("Bianka")
    page.locator("input[name=b]").fill("Czarek")
    box_redrawn(page)
    # Settled means the answer to both names, not the one to Bianka alone that lands while Czarek waits.
    assert page.locator("#handicap-answer").get_attribute("data-b") == "Czarek"
    expect(page.locator("#handicap-box")).to_contain_text(say["handicap"])
    expect(page.locator("input[name=size][value='9']")).to_be_checked()  # followed the players
    # A size tapped by hand stays, and one neither player has asks for a tick.
    page.locator("label.choice", has=page.locator("input[name=size][value='19']")).click()
    box_redrawn(page)
    expect(page.locator("#nobody-moves")).to_contain_text(say["nobody"])
    expect(page.locator("input[name=size][value='19']")).to_be_checked()
    page.get_by_text(say["won"]).click()
    page.get_by_text(say["resign"]).click()
    page.screenshot(path=artifacts / f"size-nobody-{lang}.png")
    before = len(games(server))
    page.get_by_role("button", name=say["save"]).click()
    expect(page.locator(".errors")).to_contain_text(say["nobody"].split(",")[0])
    assert len(games(server)) == before  # nothing saved without the tick
    page.get_by_text(say["anyway"]).click()
    page.get_by_role("button", name=say["save"]).click()
    expect(page.get_by_role("heading", name=say["saved"])).to_be_visible()
    expect(page.locator("ul.moves")).to_contain_text(say["why"])
    page.screenshot(path=artifacts / f"size-why-{lang}.png", full_page=True)
    assert len(games(server)) == before + 1
    page.goto("/new")
    assert checked_size(page) == "19"  # this phone's last size


class Taps:
    """Every tap a test makes on the phone, counted; typing is counted apart."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0
        self.typed = ""

    def tap(self, target) -> None:
        target.tap()
        self.count += 1

    def type(self, target, text: str) -> None:
        self.tap(target)  # the tap that puts the cursor in the field
        target.press_sequentially(text)
        self.typed += text


WON = {"en": "{} won", "pl": "{} – wygrana"}
SAVED = {"en": "Saved!", "pl": "Zapisane!"}


def first_game_says_i_am_bianka(page: Page) -> None:
    """A phone's first game: Bianka types both names and ticks "That's me" (not counted)."""
    page.goto("/new")
    page.locator("input[name=a]").fill("Bianka")
    page.locator("input[name=b]").fill("Czarek")
    box_redrawn(page)
    page.locator("input[name=me]").check()
    page.locator("input[name=size][value='9'] + span").click()  # without JavaScript nothing follows
    box_redrawn(page)
    page.locator("input[name=winner][value=a] + span").click()
    page.locator("input[name=by][value=resignation] + span").click()
    page.locator("button.big").click()
    expect(page.locator("h1.saved")).to_be_visible()


def test_a_known_pair_in_four_taps_and_no_typing(phone390: Page, server: str, lang: str, artifacts: Path) -> None:
    page = phone390
    first_game_says_i_am_bianka(page)
    page.goto("/new")
    expect(page.locator("input[name=a]")).to_have_value("Bianka")  # "I am Bianka", remembered
    page.screenshot(path=artifacts / f"names-chips-{lang}.png")
    taps = Taps(page)
    taps.tap(page.locator("button.chip", has_text="Dawid"))
    expect(page.locator("input[name=b]")).to_have_value("Dawid")
    expect(page.locator("input[name=size][value='9']")).to_be_checked()
    expect(page.locator("#handicap-box")).to_be_visible()
    taps.tap(page.locator("input[name=winner][value=b] + span"))
    taps.tap(page.locator("input[name=by][value=resignation] + span"))
    taps.tap(page.locator("button.big"))
    expect(page.locator("h1.saved")).to_have_text(SAVED[lang])
    expect(page.locator("ul.moves")).to_contain_text("Dawid")
    assert taps.count <= 4 and taps.typed == "", (taps.count, taps.typed)
    assert games(server)[0]["players"] == ["Bianka", "Dawid"]


def test_a_new_guests_first_game_in_eight_taps_plus_the_name(
    phone390: Page, server: str, lang: str, artifacts: Path
) -> None:
    page = phone390
    first_game_says_i_am_bianka(page)
    page.goto("/new")
    taps = Taps(page)
    taps.type(page.locator("input[name=b]"), "Tymek")
    add = page.locator("button.add-guest")
    expect(add).to_be_visible()
    page.screenshot(path=artifacts / f"names-new-guest-{lang}.png")
    taps.tap(add)
    expect(page.locator("input[name=nick]")).to_have_value("Tymek")
    taps.tap(page.locator("button.big"))  # check
    expect(page.locator(".handicap-box")).to_contain_text("Tymek")
    page.screenshot(path=artifacts / f"names-guest-check-{lang}.png")
    taps.tap(page.locator("button.big"))  # save
    expect(page.locator("input[name=b]")).to_have_value("Tymek")  # back on the filled-in form
    expect(page.locator("input[name=a]")).to_have_value("Bianka")
    expect(page.locator("#handicap-box")).to_be_visible()
    taps.tap(page.locator("input[name=winner][value=b] + span"))
    taps.tap(page.locator("input[name=by][value=resignation] + span"))
    taps.tap(page.locator("button.big"))
    expect(page.locator("h1.saved")).to_have_text(SAVED[lang])
    assert taps.count <= 8 and taps.typed == "Tymek", (taps.count, taps.typed)
    assert games(server)[0]["players"] == ["Bianka", "Tymek"]


def test_a_typo_and_missing_polish_letters_are_one_tap_away(phone390: Page, server: str, lang: str) -> None:
    page = phone390
    # Łucja joins before the form is opened: the game is dated when the form was (to the minute), and
    # a player who joined a minute after that "was not on the board yet" (a busy machine crossed one).
    request = urllib.request.Request(
        f"{server}/api/players",
        data=json.dumps({"nick": "Łucja", "size": 9}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    urllib.request.urlopen(request).close()
    page.goto("/new")
    page.locator("input[name=a]").press_sequentially("bianka")
    page.locator("input[name=b]").press_sequentially("Czark")
    fix = page.locator("#handicap-slot button.chip", has_text="Czarek")
    expect(fix).to_be_visible()
    fix.tap()
    expect(page.locator("input[name=b]")).to_have_value("Czarek")
    expect(page.locator("#handicap-box")).to_be_visible()
    # "lucja" (no Polish letters, no capital) finds Łucja.
    page.locator("input[name=b]").fill("lucja")
    box_redrawn(page)
    expect(page.locator("#handicap-box")).to_contain_text("Łucja")
    # The winner buttons name the players as the board does, not as typed ("lucja won" would read as a typo).
    won = {"en": "Łucja won", "pl": "Łucja – wygrana"}[lang]
    expect(page.locator("input[name=winner][value=b] + span")).to_have_text(won)
    expect(page.locator("input[name=winner][value=a] + span")).to_have_text(
        {"en": "Bianka won", "pl": "Bianka – wygrana"}[lang]
    )
    page.locator("input[name=winner][value=a] + span").click()
    page.locator("input[name=by][value=resignation] + span").click()
    page.locator("button.big").click()
    expect(page.locator("h1.saved")).to_have_text(SAVED[lang])
    assert games(server)[0]["players"] == ["Bianka", "Łucja"]


def test_names_by_tap_without_javascript(chromium, server: str, lang: str) -> None:
    context = chromium.new_context(
        viewport={"width": 390, "height": 844},
        java_script_enabled=False,
        base_url=server,
        extra_http_headers={"Accept-Language": lang},
    )
    page = context.new_page()
    try:
        first_game_says_i_am_bianka(page)
        page.goto("/new")
        taps = Taps(page)
        page.locator("button.chip", has_text="Dawid").click()
        taps.count += 1
        expect(page.locator("input[name=b]")).to_have_value("Dawid")
        expect(page.locator("input[name=size][value='9']")).to_be_checked()
        for target in ("input[name=winner][value=b] + span", "input[name=by][value=resignation] + span", "button.big"):
            page.locator(target).click()
            taps.count += 1
        expect(page.locator("h1.saved")).to_have_text(SAVED[lang])
        assert taps.count == 4
        # A typo without JavaScript: Save explains, one tap fixes it.
        page.goto("/new")
        page.locator("input[name=b]").fill("Czark")
        box_redrawn(page)
        page.locator("input[name=winner][value=a] + span").click()
        page.locator("input[name=by][value=resignation] + span").click()
        page.locator("button.big").click()
        page.locator("#handicap-slot button.chip", has_text="Czarek").click()
        expect(page.locator("input[name=b]")).to_have_value("Czarek")
        expect(page.locator("input[name=winner][value=a]")).to_be_checked()
    finally:
        context.close()


KIND = {
    "en": {
        "same": "Player 2: Player 1 and player 2 are both Bianka. Pick two different players.",
        "how": "How the game ended: tap By points, By resignation, or On time / other.",
    },
    "pl": {
        "same": "Gracz 2: Gracz 1 i gracz 2 to ta sama osoba: Bianka. Wybierz dwie różne osoby.",
        "how": "Jak skończyła się partia: wybierz Na punkty, Przez poddanie albo Na czas / inaczej.",
    },
}


def test_mistakes_are_explained_kindly_in_the_phones_language(phone390: Page, server: str, lang: str) -> None:
    page = phone390
    page.goto("/new")
    page.locator("input[name=a]").fill("Bianka")
    page.locator("input[name=b]").fill("bianka")
    box_redrawn(page)
    page.locator("input[name=winner][value=a] + span").click()
    page.locator("input[name=by][value=resignation] + span").click()
    page.locator("button.big").click()
    expect(page.locator(".errors")).to_have_text(KIND[lang]["same"])
    page.locator("input[name=b]").fill("Czarek")
    box_redrawn(page)
    page.locator("input[name=winner][value=b] + span").click()
    page.evaluate("document.querySelectorAll('input[name=by]').forEach((r) => { r.checked = false; })")
    page.locator("button.big").click()
    errors = page.locator(".errors")
    expect(errors).to_have_text(KIND[lang]["how"])
    assert "'" not in errors.inner_text() and "line" not in errors.inner_text()


OWNER = {
    "en": {"asks": "Void Dawid – Bianka?", "voided": "Voided the game Dawid – Bianka.", "who": "by the owner"},
    "pl": {"asks": "Unieważnić Dawid – Bianka?", "voided": "Unieważniono partię Dawid – Bianka.", "who": "właściciel"},
}


def test_the_owner_voids_after_a_confirmation_undoes_it_and_reads_the_log(
    phone390: Page, server: str, lang: str, artifacts: Path
) -> None:
    page = phone390
    owner_pin(page)
    page.goto("/owner/games/1")
    page.locator("button[value=void]").click()
    expect(page.locator("#void-confirm")).to_contain_text(OWNER[lang]["asks"])
    page.screenshot(path=artifacts / f"owner-void-confirm-{lang}.png")
    assert len(games(server)) == 1  # asking changed nothing
    page.locator("button[value=void-confirmed]").click()
    expect(page.locator("button[value=restore]")).to_be_visible()
    assert games(server) == []
    page.locator("button[value=restore]").click()
    expect(page.locator("ul.moves")).to_contain_text("Dawid")
    assert [g["players"] for g in games(server)] == [["Dawid", "Bianka"]]
    page.goto("/owner/audit")
    log = page.locator("ul.audit")
    expect(log).to_contain_text(OWNER[lang]["voided"])
    expect(log).to_contain_text(OWNER[lang]["who"])
    assert "phone:" not in log.inner_text() and "None" not in log.inner_text()
    page.screenshot(path=artifacts / f"owner-audit-{lang}.png", full_page=True)
    page.locator("ul.audit a", has_text="Dawid – Bianka").first.click()
    expect(page.locator("h1")).to_be_visible()


def test_the_games_list_filters_by_player(phone390: Page, lang: str, artifacts: Path) -> None:
    page = phone390
    page.goto("/games")
    page.locator("input[name=player]").fill("dawid")
    page.locator("form.filter button").click()
    expect(page.locator("article.game")).to_have_count(1)
    expect(page.locator("input[name=player]")).to_have_value("dawid")
    page.screenshot(path=artifacts / f"games-filter-{lang}.png")


PLAY = {"en": "Play Dawid → handicap", "pl": "Zagraj z: Dawid → handicap"}


def test_the_player_page_shows_the_record_and_leads_to_the_handicap(phone390: Page, lang: str, artifacts: Path) -> None:
    page = phone390
    page.goto("/players/Bianka")
    expect(page.locator("svg.chart text.now")).to_have_text("34,5" if lang == "pl" else "34.5")
    expect(page.locator("table.record tbody tr")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    page.screenshot(path=artifacts / f"player-{lang}.png", full_page=True)
    page.get_by_role("link", name=PLAY[lang]).click()
    expect(page.locator("#handicap-box, .handicap-box").first).to_be_visible()
    assert "a=Bianka" in page.url and "b=Dawid" in page.url


def test_a_new_guest_from_the_game_form_without_javascript(chromium, server: str, lang: str) -> None:
    context = chromium.new_context(
        viewport={"width": 390, "height": 844},
        java_script_enabled=False,
        base_url=server,
        extra_http_headers={"Accept-Language": lang},
    )
    page = context.new_page()
    try:
        page.goto("/new")
        page.locator("input[name=a]").fill("Bianka")
        page.locator("input[name=b]").fill("Tymek")
        box_redrawn(page)
        page.locator("input[name=size][value='9'] + span").click()
        box_redrawn(page)
        page.locator("input[name=winner][value=b] + span").click()
        page.locator("input[name=by][value=resignation] + span").click()
        page.locator("button.big").click()  # Save: Tymek is not on the board yet
        page.locator("button.add-guest").click()
        expect(page.locator("input[name=nick]")).to_have_value("Tymek")
        page.locator("button.big").click()  # check
        page.locator("button.big").click()  # save
        expect(page.locator("input[name=b]")).to_have_value("Tymek")
        expect(page.locator("input[name=winner][value=b]")).to_be_checked()
        page.locator("button.big").click()
        expect(page.locator("h1.saved")).to_have_text(SAVED[lang])
        assert games(server)[0]["players"] == ["Bianka", "Tymek"]
    finally:
        context.close()


def test_go_on_the_number_pad_saves_the_game(phone390: Page, server: str, lang: str) -> None:
    page = phone390
    page.goto("/new")
    page.locator("input[name=a]").fill("Bianka")
    page.locator("input[name=b]").fill("Czarek")
    box_redrawn(page)
    expect(page.locator("#handicap-box")).to_be_visible()
    page.locator("input[name=winner][value=b] + span").click()
    page.locator("input[name=by][value=points] + span").click()
    points = page.locator("input[name=points]")
    assert points.get_attribute("inputmode") == "decimal"  # the phone's number pad
    points.fill("21,5" if lang == "pl" else "21.5")
    points.press("Enter")
    expect(page.locator("h1.saved")).to_have_text(SAVED[lang])
    assert games(server)[0]["by"] == 21.5


STALE = {
    "en": "This form is too old or was not sent from this site; nothing was saved.",
    "pl": "Ten formularz jest za stary albo nie pochodzi z tej strony; nic nie zapisano.",
}


def test_a_form_whose_token_went_stale_comes_back_as_typed_and_saves_when_sent_again(
    phone390: Page, server: str, lang: str
) -> None:
    say = SAY[lang]
    page = phone390
    page.goto("/new")
    page.locator("input[name=a]").fill("Bianka")
    page.locator("input[name=b]").fill("Czarek")
    box_redrawn(page)
    page.get_by_text(say["won"]).click()
    page.get_by_text(say["resign"]).click()
    before = len(games(server))
    page.context.clear_cookies()  # the session that signed the form's token is gone, as after a long evening
    page.get_by_role("button", name=say["save"]).click()
    expect(page.locator("body")).to_contain_text(STALE[lang])
    expect(page.locator("input[name=a]")).to_have_value("Bianka")
    expect(page.locator("input[name=b]")).to_have_value("Czarek")
    assert len(games(server)) == before  # CSRFProtect refused it; the form came back, nothing saved
    page.get_by_role("button", name=say["save"]).click()  # the same taps kept: one more tap saves it
    expect(page.get_by_role("heading", name=say["saved"])).to_be_visible()
    assert len(games(server)) == before + 1
