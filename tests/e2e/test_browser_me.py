"""The phone that said "That's me" in a real Chromium at 390x844, in English and Polish:
the board opens at your field, check-in is one tap, the taps of a known pair are counted, a child sees their own
name among initials, the owner's symbols tell Ola from Oliwia, and a hidden child's phone sees their own page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import axe_playwright_python
import pytest
from new_game import box_redrawn
from playwright.sync_api import Browser, Page, expect
from serving import CLUB, club_home, owner_pin, serving

from kiosk.privacy import INITIALS, PlayerPrivacy
from kiosk.store import Store

pytestmark = pytest.mark.browser

AXE = Path(axe_playwright_python.__file__).with_name("axe.min.js")
# A board long enough to scroll: twenty more players on 9x9, among them Ola and Oliwia (both "O." by initials).
MORE = [
    {"type": "player", "at": f"2026-11-01T11:{n:02d}", "nick": nick, "size": 9, "status": "member", "strength": q}
    for n, (nick, q) in enumerate(
        [("Ola", 27), ("Oliwia", 26), ("Marek", 40), ("Magda", 39), ("Hubert", 38), ("Hania", 37), ("Celina", 36),
         ("Łucja", 33), ("Nikola", 32), ("Norbert", 31), ("Olek", 30), ("Piotr", 29), ("Patryk", 28),
         ("Róża", 19), ("Rafał", 18), ("Szymon", 17), ("Tola", 16), ("Tymon", 15), ("Wiktor", 14), ("Wanda", 13)]
    )
]  # fmt: skip
SAY = {
    "en": {"here": "I'm here", "tonight": "Tonight: who is here, who plays whom", "record": "Record this game",
           "catch": "You can catch:", "behind": "Close behind you:", "you": "you", "find": "Find me on the board",
           "own": "Only your phone shows this page", "pair": "Your pair tonight:"},
    "pl": {"here": "Jestem", "tonight": "Dziś: kto jest, kto z kim gra", "record": "Zapisz tę partię",
           "catch": "Możesz dogonić:", "behind": "Tuż za tobą:", "you": "to ty", "find": "Pokaż mnie na tablicy",
           "own": "Tę stronę widzi tylko twój telefon", "pair": "Twoja para na dziś:"},
}  # fmt: skip


class Taps:
    """Every tap a test makes on the phone, counted."""

    def __init__(self) -> None:
        self.count = 0

    def tap(self, target) -> None:
        target.tap()
        self.count += 1


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return club_home(tmp_path / "data", [*CLUB, *MORE])


@pytest.fixture
def address(home: Path) -> Iterator[str]:
    with serving(home) as served:
        yield served


def phone(chromium: Browser, address: str, lang: str, **extra) -> Page:
    """A 390x844 touch phone asking for ``lang``; axe-core may run in it despite the app's CSP."""
    context = chromium.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        base_url=address,
        bypass_csp=True,
        locale="pl-PL" if lang == "pl" else "en-GB",
        extra_http_headers={"Accept-Language": "pl-PL,pl;q=0.9" if lang == "pl" else "en-GB,en;q=0.9"},
        **extra,
    )
    return context.new_page()


def thats_me(page: Page, typed: str, other: str = "Zosia") -> None:
    """The phone's first game: its player types their name and ticks "That's me" (setup, not counted)."""
    page.goto("/new?size=9")
    page.locator("input[name=a]").fill(typed)
    page.locator("input[name=b]").fill(other)
    box_redrawn(page)
    page.locator("input[name=me]").check()
    page.locator("input[name=size][value='9'] + span").click()
    box_redrawn(page)
    page.locator("input[name=winner][value=a] + span").click()
    page.locator("input[name=by][value=resignation] + span").click()
    page.locator("button.big").click()
    expect(page.locator("h1.saved")).to_be_visible()


def axe_findings(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{page.url} {v['id']}: {node['target']}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
        for node in v["nodes"]
    ]


def fits(page: Page) -> None:
    """Nothing scrolls sideways; every button is big enough for a thumb."""
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390, page.url
    for target in page.locator("main button:visible, main a.button:visible, a.magnet:visible").all():
        box = target.bounding_box()
        assert box is not None and box["height"] >= 44, (target.inner_text(), box)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_board_opens_at_my_field_check_in_is_one_tap_and_a_known_pair_takes_four_taps_from_the_board(
    chromium: Browser, address: str, home: Path, lang: str, artifacts: Path
) -> None:
    say = SAY[lang]
    page = phone(chromium, address, lang)
    thats_me(page, "Bianka")
    page.goto("/tonight")  # Tonight offers the same one tap, with the name it knows
    expect(page.locator("form.check-in-me button")).to_contain_text("Bianka")
    fits(page)
    page.screenshot(path=artifacts / f"me-tonight-one-tap-{lang}.png")
    problems = axe_findings(page)
    page.goto("/")
    mine = page.locator("#me")
    expect(mine).to_contain_text("Bianka")
    expect(mine).to_contain_text(say["you"])
    expect(mine.locator(".near-me")).to_contain_text(say["catch"])  # Celina, Hania above 34.5
    expect(mine.locator(".near-me")).to_contain_text(say["behind"])  # Łucja, Nikola below
    expect(mine.locator(".near-me")).to_contain_text("Celina")
    box = mine.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + 48 <= 844, box  # opened there, not at the top
    assert page.evaluate("window.scrollY") > 0
    fits(page)
    page.screenshot(path=artifacts / f"me-board-{lang}.png")
    problems += axe_findings(page)

    taps = Taps()  # check-in: one tap on the board, nothing typed
    taps.tap(page.get_by_role("button", name=f"{say['here']}" + (" tonight" if lang == "en" else " dziś w klubie")))
    expect(page.locator("ul.here-list")).to_contain_text("Bianka")
    assert taps.count == 1
    for nick in ("Czarek", "Dawid", "Zosia"):  # the others check in on their own phones (typed here: not counted)
        page.locator("form.check-in input[name=nick]").fill(nick)
        page.locator("form.check-in button.here").click()
    expect(page.locator("ul.here-list li")).to_have_count(4)
    expect(page.locator("ul.here-list li.me")).to_contain_text("Bianka")
    fits(page)
    page.screenshot(path=artifacts / f"me-tonight-{lang}.png", full_page=True)
    problems += axe_findings(page)

    page.goto("/")  # from the board, via Tonight: Tonight, Record this game, who won, how, Save (five taps)
    taps = Taps()
    taps.tap(page.get_by_role("link", name=say["tonight"]))
    pair = page.locator("article.pair", has_text="Bianka")
    taps.tap(pair.get_by_role("link", name=say["record"]))
    expect(page.locator("input[name=a]")).not_to_have_value("")
    taps.tap(page.locator("input[name=winner][value=a] + span"))
    taps.tap(page.locator("input[name=by][value=resignation] + span"))
    taps.tap(page.locator("button.big"))
    expect(page.locator("h1.saved")).to_be_visible()
    assert taps.count <= 5, taps.count

    page.goto("/tonight")  # from Tonight: Record this game, who won, how, Save
    taps = Taps()
    taps.tap(page.locator("article.pair").filter(has_not_text="Bianka").first.get_by_role("link", name=say["record"]))
    taps.tap(page.locator("input[name=winner][value=b] + span"))
    taps.tap(page.locator("input[name=by][value=resignation] + span"))
    taps.tap(page.locator("button.big"))
    expect(page.locator("h1.saved")).to_be_visible()
    assert taps.count <= 4, taps.count

    page.goto("/")  # the board opens at Bianka's magnet with her next pair: Record this game, who won, how, Save
    expect(page.locator("#me .my-pair")).to_contain_text(say["pair"])
    fits(page)
    page.screenshot(path=artifacts / f"me-board-pair-{lang}.png")
    problems += axe_findings(page)
    other = page.locator("#me .my-pair b").inner_text()
    taps = Taps()
    taps.tap(page.locator("#me .my-pair").get_by_role("link", name=say["record"]))
    expect(page.locator("#handicap-box")).to_be_visible()
    taps.tap(page.locator("input[name=winner][value=a] + span"))
    taps.tap(page.locator("input[name=by][value=resignation] + span"))
    taps.tap(page.locator("button.big"))
    expect(page.locator("h1.saved")).to_be_visible()
    assert taps.count <= 4, taps.count
    with Store.open(home) as store:
        tonight = [set(g.players) for g in store.recent_games(5)]
    assert len(tonight) == 5 and tonight[0] == {"Bianka", other}  # the first game, three counted, the club's one
    page.context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_child_sees_their_own_name_and_the_owners_symbols_tell_ola_from_oliwia(
    chromium: Browser, address: str, home: Path, lang: str, artifacts: Path
) -> None:
    owner = phone(chromium, address, lang)
    owner_pin(owner)  # the owner: the club on initials, then a symbol for Ola and one for Oliwia, by taps
    with Store.open(home) as store:
        store.set_club_privacy(INITIALS)
    owner.goto("/owner/privacy/player?nick=Oliwia")
    owner.locator("label.choice", has=owner.locator("input[name=mark][value='♥']")).click()
    fits(owner)
    owner.screenshot(path=artifacts / f"me-owner-symbol-{lang}.png", full_page=True)
    problems = axe_findings(owner)
    owner.locator("button.big").click()
    expect(owner.locator(".flash")).to_be_visible()
    owner.goto("/owner/privacy/player?nick=Ola")
    owner.locator("label.choice", has=owner.locator("input[name=mark][value='★']")).click()
    owner.locator("button.big").click()
    owner.context.close()

    child = phone(chromium, address, lang)
    thats_me(child, "Oliwia", other="Olek")  # her own nickname, typed whole: the form turns it into "O.²"
    child.goto("/")
    mine = child.locator("#me")
    expect(mine).to_contain_text("Oliwia")  # her own name, on her own phone
    expect(mine.locator("a.magnet .mark")).to_have_text("♥")
    board = child.locator("main").inner_text()
    assert "★ O." in board and "Ola" not in board.replace("Oliwia", "")  # Ola: her symbol, never her name
    fits(child)
    child.screenshot(path=artifacts / f"me-initials-board-{lang}.png")
    problems += axe_findings(child)
    child.goto("/new")
    expect(child.locator("button.chip").first).to_be_visible()
    expect(child.locator("p.me-name")).to_contain_text("Oliwia")  # Player 1 reads "O.²": the form says it is her
    child.screenshot(path=artifacts / f"me-initials-new-{lang}.png")
    problems += axe_findings(child)

    visitor = phone(chromium, address, lang)
    visitor.goto("/?size=9")
    seen = visitor.locator("main").inner_text()
    assert "Oliwia" not in seen and "♥ O." in seen and "★ O." in seen
    visitor.context.close()
    child.context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_hidden_childs_own_phone_sees_their_own_page(
    chromium: Browser, address: str, home: Path, lang: str, artifacts: Path
) -> None:
    say = SAY[lang]
    child = phone(chromium, address, lang)
    thats_me(child, "Czarek", other="Dawid")  # said before the owner hid him
    with Store.open(home) as store:
        store.set_player_privacy("Czarek", PlayerPrivacy(hidden=True))
    child.goto("/")
    expect(child.locator("#me")).to_contain_text("Czarek")
    child.screenshot(path=artifacts / f"me-hidden-board-{lang}.png")
    problems = axe_findings(child)
    child.locator("#me a.magnet").click()
    expect(child.get_by_role("heading", level=1)).to_have_text("Czarek")
    expect(child.locator("main")).to_contain_text(say["own"])
    fits(child)
    child.screenshot(path=artifacts / f"me-hidden-player-{lang}.png", full_page=True)
    problems += axe_findings(child)
    address_of_page = child.url
    visitor = phone(chromium, address, lang)
    assert visitor.goto(address_of_page).status == 404  # the public still finds nothing there
    visitor.goto("/?size=9")
    assert "Czarek" not in visitor.locator("main").inner_text()  # nor on the board
    visitor.context.close()
    child.context.close()
    assert not problems, "\n".join(problems)
