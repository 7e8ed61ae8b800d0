"""Fixtures of the reliability tests: a fresh club, and a real `semedori serve` on it (see harness.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from club_days import apps_on_a_clock_of_their_own
from harness import Server, make_club


@pytest.fixture(autouse=True)
def _apps_on_a_clock() -> Iterator[None]:
    """Every app a reliability test serves from its own process runs on a clock the test gave it (a `semedori serve`
    subprocess keeps the machine's, and its tests date their games by that)."""
    with apps_on_a_clock_of_their_own():
        yield


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """A fresh data folder with the four members."""
    return make_club(tmp_path / "data")


@pytest.fixture
def server(club: Path) -> Iterator[Server]:
    """The club's data folder served by a real `semedori serve --threads 8`."""
    running = Server(club).start()
    try:
        yield running
    finally:
        running.stop()
