"""`semedori drift` as a user runs it: text in English and Polish, JSON, and bad input (kiosk/drift_text.py)."""

from __future__ import annotations

import json
from pathlib import Path

from drift_clubs import inflating_club, two_groups
from test_cli import semedori, write_history

NOW = "2026-11-30T12:00"


def _club(tmp_path: Path, lines: list[dict[str, object]]) -> Path:
    home = tmp_path / "home"
    imported = semedori(home, "import", str(write_history(tmp_path / "h.jsonl", lines)))
    assert imported.returncode == 0, imported.stderr
    return home


def test_drift_in_words_and_as_json(tmp_path: Path) -> None:
    home = _club(tmp_path, inflating_club(10) + two_groups())
    text = semedori(home, "drift", "--now", NOW)
    assert text.returncode == 0, text.stderr
    out = text.stdout
    assert "Drift of the club's numbers on 2026-11-30 12:00" in out
    assert "  2026-01        4      14      14" in out
    assert "free losses +" in out
    assert "Suggested: shift group 2 by +5 (Bartek 25 → 30)." in out
    assert "group 1 played −5 against its numbers" in out
    raw = semedori(home, "drift", "--json", "--now", NOW)
    report = json.loads(raw.stdout)
    thirteen = report["sizes"]["13"]
    assert thirteen["months"][0] == {"month": "2026-01", "magnets": 4, "mean": 14.0, "median": 14.0}
    assert thirteen["unmatched_arrows"]["free-loss"] > 0
    (gap,) = thirteen["between_groups"]
    assert gap["error"] == -5.0 and gap["shift"]["amount"] == 5 and gap["shift"]["group"] == 2
    assert sorted(p["to"] - p["from"] for p in gap["preview"]) == [5, 5, 5]
    assert report["now"] == NOW and isinstance(report["flags"], list)


def test_drift_in_polish(tmp_path: Path) -> None:
    home = _club(tmp_path, inflating_club(10))
    settings = home / "semedori.toml"
    settings.write_text(settings.read_text(encoding="utf-8").replace('language = "en"', 'language = "pl"'), "utf-8")
    out = semedori(home, "drift", "--now", "2026-03-31T23:00").stdout
    assert "Dryf liczb klubu na 2026-03-31 23:00" in out
    assert "darmowe przegrane +40" in out
    assert "Proponowane przesunięcie 13x13: −10 (rusza się magnesów: 4; np. Ala 20 → 10)." in out
    bad = semedori(home, "drift", "--now", "jutro")
    assert bad.returncode == 1 and "Traceback" not in bad.stderr and bad.stderr.startswith("semedori: ")


def test_drift_of_an_empty_club_and_bad_input(tmp_path: Path) -> None:
    home = tmp_path / "home"
    out = semedori(home, "drift", "--now", NOW)
    assert out.returncode == 0 and out.stdout.splitlines()[-1] == "No magnets yet."
    assert json.loads(semedori(home, "drift", "--json", "--now", NOW).stdout)["sizes"] == {}
    bad = semedori(home, "drift", "--now", "2026-13-45")
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert bad.stderr.startswith("semedori: ") and "2026-13-45" in bad.stderr
