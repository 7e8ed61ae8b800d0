"""The app under a real WSGI server (waitress) on a free port, and Debian's Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from club_days import apps_on_a_clock_of_their_own
from serving import club_home, serving

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


@pytest.fixture(autouse=True)
def _apps_on_a_clock() -> Iterator[None]:
    """Every app a browser test opens runs on a clock the test gave it (serving's by default), never the machine's."""
    with apps_on_a_clock_of_their_own():
        yield


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The kiosk's web app served by waitress on 127.0.0.1; yields its address."""
    with serving(club_home(tmp_path / "data")) as address:
        yield address


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
