"""The fairness audit on a 50,000-game club: reading the games from the store and fitting (kiosk/fairness.py).

Run: .venv/bin/python -m bench.bench_fairness  (figures to compare, not a timed test)
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fairness_clubs import planted_club

from kiosk.fairness import report
from kiosk.store import Store

GAMES = 50_000
NOW = datetime(2030, 1, 1)


def main() -> None:
    started = time.perf_counter()
    lines = planted_club(4.0, size=13, players=300, games=GAMES, seed=50, rehang=False)
    drawn = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder, Store.open(Path(folder)) as store:
        store.import_history(json.dumps(line) for line in lines)
        start = time.perf_counter()
        games = store.board(with_games=True).games
        read = time.perf_counter() - start
        start = time.perf_counter()
        made = report(games, store.file_config, store.rule_changes(), NOW)
        fitted = time.perf_counter() - start
    found = made.of(13)
    assert found is not None and found.constant.found is not None
    c = found.constant.found
    print(f"club drawn: {GAMES} games in {drawn:.1f} s (not part of the audit)")
    print(f"reading the games from the store: {read:.2f} s")
    print(f"audit (rows, fit, interval, suggestion): {fitted:.2f} s")
    print(f"13x13 points per strength: {c.value:.3f} ({c.low:.3f} – {c.high:.3f}); table 5, planted 4 (magnets moving)")


if __name__ == "__main__":
    main()
