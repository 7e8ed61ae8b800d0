"""The app under a real WSGI server (waitress) on a free port, and Debian's Chromium."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from waitress.server import create_server

from kiosk.store import Store
from web import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"

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


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The kiosk's web app served by waitress on 127.0.0.1; yields its address."""
    home = tmp_path / "data"
    with Store.open(home) as store:
        store.import_history([json.dumps(line) for line in CLUB])
        store.save_config(store.config.with_changes(days_back=3660, sleeper_weeks=0))  # Nov 2026, any day: all hang
    app = create_app({"SEMEDORI_HOME": str(home), "STORE_PER_THREAD": True})  # as `semedori serve` runs it
    # poll(), not select(): closing the server from this thread while its loop waits
    # makes select() fail with EBADF in the loop's thread; poll() just reports the fd.
    wsgi = create_server(app, host="127.0.0.1", port=0, threads=4, asyncore_use_poll=True)
    thread = threading.Thread(target=wsgi.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{wsgi.effective_port}"
    finally:
        wsgi.task_dispatcher.shutdown()
        wsgi.close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """Debian's Chromium through Playwright; the browser tests fail (never skip) without it."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(chromium, server: str):
    """A phone-sized page (360 px wide, touch) on the running server."""
    context = chromium.new_context(
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        base_url=server,
    )
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots go (ignored by git)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(params=["en", "pl"])
def lang(request: pytest.FixtureRequest) -> str:
    """Each browser flow runs in both of the club's languages."""
    return request.param


@pytest.fixture
def phone390(chromium, server: str, lang: str):
    """A 390x844 touch phone (an iPhone 12-14 size) whose browser asks for ``lang``."""
    context = chromium.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
        base_url=server,
        locale="pl-PL" if lang == "pl" else "en-GB",
        extra_http_headers={"Accept-Language": "pl-PL,pl;q=0.9" if lang == "pl" else "en-GB,en;q=0.9"},
    )
    page = context.new_page()
    yield page
    context.close()
