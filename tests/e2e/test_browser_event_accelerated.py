"""The accelerated handicap event on real phone browsers, 390x844, English and Polish.

The owner ticks "Accelerated handicap event" on the start form: a player too far from everyone
is refused kindly (nothing saved), then the event starts; the boards show the levels' handicap,
the phones tap round 1, round 2 comes up with the winners' levels raised, and the standings show
level, rise and the FUS coefficient.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from serving import club_home, serving
from test_browser_event import PHONE, PIN, assert_thumb_sized, boards, phone, standings_heads_on_one_line

from kiosk.store import Store
from web.pin import hash_pin

pytestmark = pytest.mark.browser

CLUB_19H = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
EVENING = date(2026, 11, 30)
# The worked example's players of docs/events.md, and a strong visitor no one can meet within the cap.
PLAYERS = [("Ala", 24), ("Bartek", 22), ("Celina", 21), ("Darek", 19), ("Ewa", 18), ("Franek", 17), ("Gosia", 15)]
PLAYERS += [("Henio", 12), ("Mistrz", 45)]
LINES = [
    {"type": "player", "at": f"2026-11-01T10:{index:02}", "nick": nick, "size": 13, "status": "member", "strength": s}
    for index, (nick, s) in enumerate(PLAYERS)
]


@pytest.fixture
def club_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    home = club_home(tmp_path / "data", LINES, owner_pin_hash=hash_pin(PIN))
    with Store.open(home) as store:
        for nick, _strength in PLAYERS:
            store.check_in(EVENING, nick)
    synced = tmp_path / "synchronized"
    synced.touch()
    with serving(home, SEMEDORI_PI_CLOCK=lambda: CLUB_19H, SEMEDORI_TIMESYNC_FLAG=str(synced)) as address:
        yield address, home


def history(home: Path) -> list[str]:
    with Store.open(home) as store:
        return list(store.export_lines())


@pytest.mark.parametrize("locale", ["en-GB", "pl-PL"])
def test_the_owner_starts_an_accelerated_event_and_the_levels_climb(
    chromium: Browser, club_server: tuple[str, Path], artifacts: Path, locale: str
) -> None:
    server, home = club_server
    polish = locale == "pl-PL"
    owner = phone(chromium, server, locale)
    owner.goto("/owner/login")
    owner.locator("input[name=pin]").fill(PIN)
    owner.locator("button.big").click()
    owner.goto("/event?size=13")
    tick = owner.locator("#event-accelerated")
    expect(tick).not_to_be_checked()
    tick.check()
    assert_thumb_sized(owner)
    owner.screenshot(path=artifacts / f"accelerated-{locale}-start.png", full_page=True)
    before = history(home)
    owner.locator("form[action='/event/start'] button[type=submit]").click()
    # Mistrz (45) is more than 5 starting moves from everyone: refused kindly, nothing saved, the form kept.
    refusal = (
        "w granicy fory: Mistrz jest za daleko od wszystkich. Odznacz tego gracza"
        if polish
        else "within the handicap cap of an accelerated event: Mistrz is too far from all the others. Untick them"
    )
    expect(owner.get_by_role("alert")).to_contain_text(refusal)
    assert history(home) == before
    owner.locator("input[name=player][value=Mistrz]").uncheck()
    owner.locator("#event-accelerated").check()
    owner.locator("#event-rounds").fill("5")  # 8 players would play 7; the owner asks for 5, as the worked example
    owner.locator("form[action='/event/start'] button[type=submit]").click()

    expect(owner.locator("p.event-facts")).to_contain_text(
        "turniej z przyspieszeniem" if polish else "accelerated handicap event"
    )
    expect(owner.locator("p.event-facts")).to_contain_text(
        "wyniki nie przesuwają magnesów" if polish else "the results do not move magnets"
    )
    # Round 1 by the levels (the strengths at the start), top down: the worked example's first round.
    board = "Stół" if polish else "Board"
    assert boards(owner) == [
        f"{board} 1: Ala – Bartek",
        f"{board} 2: Celina – Darek",
        f"{board} 3: Ewa – Franek",
        f"{board} 4: Gosia – Henio",
    ]
    expect(owner.locator("#board-4")).to_contain_text("9 jeńców" if polish else "9 prisoners")  # 15 - 12 = 3
    heads = owner.locator("table.standings thead th").all_inner_texts()
    assert heads[2:5] == (["Poziom", "↑", "FUS"] if polish else ["Level", "↑", "FUS"])
    standings_heads_on_one_line(owner)
    assert_thumb_sized(owner)
    owner.screenshot(path=artifacts / f"accelerated-{locale}-round-1.png", full_page=True)

    # The players' phones tap round 1: the higher level wins boards 1 to 3, Henio (12) beats Gosia (15).
    player = phone(chromium, server, "en-GB" if polish else "pl-PL")
    player.goto("/event")
    for board, winner in ((1, "a"), (2, "a"), (3, "a"), (4, "b")):  # Ala, Celina, Ewa, then Henio (board 4's b)
        player.locator(f"#board-{board} form.taps button[value='{winner}:resignation']").click()
    expect(player.locator("h2#boards")).to_contain_text("2 z 5" if not polish else "2 of 5")
    owner.reload()
    rows = {}
    for row in owner.locator("table.standings tbody tr").all_inner_texts():
        cells = [cell.strip() for cell in row.split("\t")]
        rows[cells[1]] = cells[2:4]
    # One win each: the level one arrow up (below 30 an arrow is 1); a loss leaves it.
    assert rows["Henio"] == ["13", "+1"] and rows["Ala"] == ["25", "+1"] and rows["Gosia"] == ["15", "0"]
    # Round 2 from the levels: Ala 25 meets Celina 22 (she has not met her), Franek 17 meets Henio 13.
    round_2 = boards(owner)
    assert round_2[0].endswith("Ala – Celina") and round_2[3].endswith("Franek – Henio"), round_2
    expect(owner.locator("#board-1")).to_contain_text("9 jeńców" if polish else "9 prisoners")  # 25 - 22 = 3
    assert_thumb_sized(owner)
    owner.screenshot(path=artifacts / f"accelerated-{locale}-round-2.png", full_page=True)
    # Nothing moved on the board: the event's games are kind "event".
    with Store.open(home) as store:
        assert {m.nick: m.strength for m in store.magnets()} == {nick: 4 * s for nick, s in PLAYERS}
    owner.context.close()
    player.context.close()


def test_phone_size_is_the_shared_one() -> None:
    assert PHONE["viewport"] == {"width": 390, "height": 844}
