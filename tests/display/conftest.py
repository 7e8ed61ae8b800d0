"""What the wall's tests share: the store of the wall tests' four players."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_refresh import PLAYERS

from kiosk.events import parse_line
from kiosk.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """Bianka and Czarek on 13x13, Ola and Kuba on 9x9, joined on Monday 2 November 2026 at 18:00."""
    with Store.open(tmp_path) as opened:
        for line in PLAYERS:
            opened.record(parse_line(json.dumps(line)))
        yield opened
