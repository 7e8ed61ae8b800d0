"""`semedori fairness` as a user runs it: text in English and Polish, JSON, too few games (kiosk/fairness_text.py)."""

from __future__ import annotations

import json
from pathlib import Path

from fairness_clubs import planted_club
from test_cli import semedori, write_history

NOW = "2026-11-30T12:00"


def _club(tmp_path: Path, lines: list[dict[str, object]]) -> Path:
    home = tmp_path / "home"
    imported = semedori(home, "import", str(write_history(tmp_path / "h.jsonl", lines)))
    assert imported.returncode == 0, imported.stderr
    return home


def test_fairness_in_words_and_as_json(tmp_path: Path) -> None:
    home = _club(tmp_path, planted_club(3.0, size=9, games=1200, seed=4))
    text = semedori(home, "fairness", "--now", NOW)
    assert text.returncode == 0, text.stderr
    out = text.stdout
    assert "Fairness of the handicap tables on 2026-11-30 12:00 (club time)" in out
    assert "9x9: 1200 games" in out
    assert "Points per strength: the table 2; the games 3" in out
    assert "Suggested rule change: 3 points per strength from 2026-11-30 12:00" in out
    assert "    2 moves" in out and "won " in out
    raw = json.loads(semedori(home, "fairness", "--json", "--now", NOW).stdout)
    (nine,) = raw["sizes"]
    assert nine["size"] == 9 and nine["games"] == 1200 and nine["enough"] and nine["clear"]
    assert nine["found"]["low"] <= 3.0 <= nine["found"]["high"]
    assert nine["suggestion"]["points_per_strength"] == 3.0 and nine["suggestion"]["at"] == NOW


def test_fairness_in_polish_on_a_small_club(tmp_path: Path) -> None:
    home = _club(tmp_path, planted_club(2.0, size=13, players=6, games=30, seed=2))
    settings = home / "semedori.toml"
    settings.write_text(settings.read_text(encoding="utf-8").replace('language = "en"', 'language = "pl"'), "utf-8")
    out = semedori(home, "fairness", "--now", NOW).stdout
    assert "Sprawiedliwość tabel wyrównania na 2026-11-30 12:00 (czas klubu)" in out
    assert "Za mało gier, by ocenić tabelę: 30 z co najmniej 100." in out
    assert "za mało gier" in out and "wygrał" not in out
    bad = semedori(home, "fairness", "--now", "jutro")
    assert bad.returncode != 0 and "Traceback" not in bad.stderr


def test_fairness_of_an_empty_club(tmp_path: Path) -> None:
    home = _club(tmp_path, [])
    out = semedori(home, "fairness", "--now", NOW).stdout
    assert "No games to audit yet." in out
