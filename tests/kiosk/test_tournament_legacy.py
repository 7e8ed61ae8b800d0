"""A database made by a kiosk of before events were history keeps its events: its event tables become history lines.

``fixtures/old-events.sqlite3`` was made by that kiosk (``fixtures/make_old_events.py``, commit
9a0d4ab): a Swiss of 12 that counts, with an owner's correction, a clear and its re-tap, a
withdrawal and a close, and a round-robin of 7 that does not count; ``old-events.json`` is what
that kiosk read back. This kiosk must read the same events, standings, games and ways each
board ended, with the old tables gone and nothing else changed.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from kiosk import tournament_store
from kiosk.config import DATABASE_NAME
from kiosk.services import tournaments
from kiosk.store import SCHEMA_VERSION, Store
from kiosk.tournament import event_standings

FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "old-events.json").read_text(encoding="utf-8"))


_LATER_FIELDS = frozenset({"joined", "returned", "evenings", "late", "per_evening", "absent", "asking"})


def _json(value: object) -> object:
    """As fixtures/make_old_events.py writes the old kiosk's values."""
    from datetime import date

    if hasattr(value, "__slots__") and not isinstance(value, tuple):
        # Fields added since the old kiosk (a league's) keep their defaults for its events: left out here.
        return {name: _json(getattr(value, name)) for name in value.__slots__ if name not in _LATER_FIELDS}
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, int | str | bool) or value is None:
        return value
    return str(value)


def _old(value: object, expected: dict[str, object]) -> object:
    """Only the fields the old kiosk had (later fields, such as the owner's tie-breaks, have defaults of their own)."""
    assert isinstance(value, dict)
    return {name: value[name] for name in expected if name in value}


def old_database(tmp_path: Path) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(FIXTURES / "old-events.sqlite3", tmp_path / DATABASE_NAME)
    return tmp_path


def test_the_old_tables_become_history_lines_and_every_event_reads_as_the_old_kiosk_read_it(tmp_path: Path) -> None:
    folder = old_database(tmp_path)
    raw = sqlite3.connect(folder / DATABASE_NAME)
    assert raw.execute("SELECT count(*) FROM tournament").fetchone()[0] == 2  # what the old kiosk left
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 2
    raw.close()
    with Store.open(folder) as store:
        for key in ("1", "2"):
            event = tournaments.get(store, int(key))
            assert event is not None
            assert _old(_json(event), EXPECTED[key]["event"]) == EXPECTED[key]["event"]
            lines = [
                _old(_json(s), old) for s, old in zip(event_standings(event), EXPECTED[key]["standings"], strict=True)
            ]
            assert lines == EXPECTED[key]["standings"]
            games = {f"{r}-{b}": g for (r, b), g in sorted(tournaments.game_ids(store, int(key)).items())}
            assert games == EXPECTED[key]["games"]
            how = {f"{r}-{b}": h for (r, b), h in sorted(tournaments.how_of(store, int(key)).items())}
            assert how == EXPECTED[key]["how"]
        assert [[m.nick, m.size, m.strength] for m in store.magnets()] == EXPECTED["magnets"]
        assert store.check() == [] and tournament_store.check(store) == []
        tables = {name for (name,) in store.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert not {t for t in tables if t.startswith("tournament")}  # the second truth is gone
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        exported = list(store.export_lines())
        types = [json.loads(line)["type"] for line in exported]
        assert types.count("tournament-start") == 2 and types.count("tournament-close") == 2
        assert "tournament-withdraw" in types and "tournament-round" in types and "tournament-link" in types
    with Store.open(folder) as again:  # opened twice: converted once
        assert list(again.export_lines()) == exported


def test_a_converted_history_exports_imports_and_exports_byte_for_byte(tmp_path: Path) -> None:
    with Store.open(old_database(tmp_path / "old")) as store:
        exported = list(store.export_lines())
        swiss = tournaments.get(store, 1)
    with Store.open(tmp_path / "new") as fresh:
        fresh.import_history(exported)
        assert list(fresh.export_lines()) == exported
        assert tournaments.get(fresh, 1) == swiss  # the links name the games by id, which the file keeps
        assert fresh.check() == [] and tournament_store.check(fresh) == []


def test_a_converted_event_is_corrected_and_reopened_as_any(tmp_path: Path) -> None:
    from datetime import datetime

    with Store.open(old_database(tmp_path)) as store:
        event = tournaments.get(store, 1)
        assert event is not None and event.closed
        assert tournaments.reopen(store, 1) == tournaments.SAVED
        seat = next(s for s in event.round_seats(3) if s.b is not None and s.result is not None)
        other = "b" if seat.result == "a" else "a"
        status, after = tournaments.correct(store, 1, 3, seat.board, other, "resignation", datetime(2026, 11, 5, 22))
        assert status == tournaments.SAVED and after is not None and after.result == other
        assert tournaments.get(store, 1).round_seats(3)[seat.board - 1].result == other  # type: ignore[union-attr]
        assert store.check() == [] and tournament_store.check(store) == []
