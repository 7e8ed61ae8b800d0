"""What the browser tests share: the kiosk served by waitress as `semedori serve` runs it, the club they
play in, and the owner's PIN (set at the kiosk, as `semedori set-pin` does). (A module, not conftest.py:
test files import from it.)"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from club_days import days_back_for, on_the_club_clock
from playwright.sync_api import Page, expect
from served import served_app

from kiosk.store import Store
from web import create_app
from web.pin import hash_pin

# 34.5, 25, 21 (23 after beating Bianka) and 12 on 9x9; Ewa on 13x13.
CLUB = [
    {"type": "player", "at": "2026-11-01T10:00", "nick": "Bianka", "size": 9, "status": "member", "strength": 34.5},
    {"type": "player", "at": "2026-11-01T10:01", "nick": "Czarek", "size": 9, "status": "member", "strength": 25},
    {"type": "player", "at": "2026-11-01T10:02", "nick": "Dawid", "size": 9, "status": "member", "strength": 21},
    {"type": "player", "at": "2026-11-01T10:03", "nick": "Zosia", "size": 9, "status": "guest", "strength": 12},
    {"type": "player", "at": "2026-11-01T10:04", "nick": "Ewa", "size": 13, "status": "member", "strength": 30},
    {
        "type": "game",
        "at": "2026-11-02T18:00",
        "size": 9,
        "players": ["Dawid", "Bianka"],
        "winner": "Dawid",
        "by": "resignation",
    },
]
OWNER_PIN = "2468"
OWNER_PIN_HASH = hash_pin(OWNER_PIN)  # once: scrypt is slow on purpose


def club_home(home: Path, lines: list[dict[str, Any]] = CLUB, **settings: Any) -> Path:
    """A data folder holding ``lines`` and the owner PIN; phones may date games back to its November 2026 from the
    club's clock (tests/club_days.py), and nobody rests."""
    with Store.open(home) as store:
        store.import_history([json.dumps(line, ensure_ascii=False) for line in lines])
        defaults = {"days_back": days_back_for(lines), "sleeper_weeks": 0, "owner_pin_hash": OWNER_PIN_HASH}
        store.save_config(store.config.with_changes(**{**defaults, **settings}))
    return home


@contextmanager
def serving(home: Path, **app_config: Any) -> Iterator[str]:
    """The kiosk's web app on ``home`` under waitress on 127.0.0.1, its clock on the club's evening unless
    ``app_config`` gives one (SEMEDORI_PI_CLOCK); yields its address."""
    # As `semedori serve` runs it, but on the tests' clock: waitress's threads share the app and its config.
    app = create_app(on_the_club_clock({"SEMEDORI_HOME": str(home), "STORE_PER_THREAD": True, **app_config}))
    with served_app(app) as server:
        yield f"http://127.0.0.1:{server.effective_port}"


def owner_pin(page: Page) -> None:
    """The owner types the PIN and lands on the owner's menu."""
    page.goto("/owner/")
    page.locator("input[name=pin]").fill(OWNER_PIN)
    page.locator("button.big").click()
    expect(page.locator("ul.menu")).to_be_visible()
