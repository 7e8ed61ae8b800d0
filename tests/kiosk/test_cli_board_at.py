"""`semedori board --at DAY`: the board as it stood at the end of a day, under its rules."""

from __future__ import annotations

import json
from pathlib import Path

from test_cli import BIANKA_CZAREK, semedori, write_history

# The 9x9 clear win is raised to 25 points on the 4th: Czarek's second win by 21 is then a plain win.
WITH_A_RULE_CHANGE = [
    *BIANKA_CZAREK,
    {
        "type": "rules",
        "at": "2026-11-04T12:00",
        "handicap": {"9": {"points_per_strength": 2, "clear_margin": 25, "training_moves": 4}},
        "note": "the club voted",
    },
    {
        "type": "game",
        "at": "2026-11-05T19:10",
        "size": 9,
        "players": ["Bianka", "Czarek"],
        "winner": "Czarek",
        "by": 21,
    },
    {"type": "player", "at": "2026-11-06T18:00", "nick": "Żaneta 王", "size": 13, "status": "guest", "strength": 0},
]


def club(tmp_path: Path, language: str = "en") -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    home = tmp_path / "home"
    assert semedori(home, "import", str(write_history(tmp_path / "h.jsonl", WITH_A_RULE_CHANGE))).returncode == 0
    if language != "en":
        settings = home / "semedori.toml"
        settings.write_text(settings.read_text("utf-8").replace('language = "en"', f'language = "{language}"'), "utf-8")
    return home


def test_the_board_as_of_a_day_in_english(tmp_path: Path) -> None:
    home = club(tmp_path)
    before = semedori(home, "board", "--at", "2026-11-03")
    assert before.returncode == 0, before.stderr
    assert "as of the end of 2026-11-03" in before.stdout
    assert "27  Czarek" in before.stdout  # the clear win of the 3rd: two arrows
    assert "13x13" not in before.stdout  # Żaneta joined on the 6th
    after = semedori(home, "board", "--at", "2026-11-06").stdout
    assert "28  Czarek" in after  # the win of the 5th, under the new margin: one arrow
    assert "Żaneta 王 (guest)" in after
    assert semedori(home, "board").stdout.split("\n", 1)[1] == after.split("\n", 1)[1]
    assert semedori(home, "check").returncode == 0
    empty = semedori(home, "board", "--at", "2026-10-01")
    assert empty.returncode == 0 and "(no magnets yet)" in empty.stdout


def test_the_board_as_of_a_day_in_polish_and_as_json(tmp_path: Path) -> None:
    home = club(tmp_path, "pl")
    text = semedori(home, "board", "--at", "2026-11-06").stdout
    assert (
        "stan na koniec dnia 2026-11-06" in text
        and "Żaneta 王 (gość)" in text
        and "(3 magnesy)" in text
        and "(1 magnes)" in text
    )
    result = semedori(home, "board", "--at", "2026-11-03", "--json", "--size", "9")
    board = json.loads(result.stdout)
    assert board["at"] == "2026-11-03" and list(board["sizes"]) == ["9"]
    assert {m["nick"]: m["strength"] for m in board["sizes"]["9"]}["Czarek"] == 27


def test_a_bad_day_gets_a_clear_message_in_the_clubs_language(tmp_path: Path) -> None:
    home = club(tmp_path)
    for bad, words in (("2999-01-01", "is in the future"), ("1 June", "is not a date like 2026-06-01")):
        result = semedori(home, "board", "--at", bad)
        assert result.returncode == 1 and words in result.stderr and "Traceback" not in result.stderr
    polish = club(tmp_path / "pl", "pl")
    result = semedori(polish, "board", "--at", "czerwiec")
    assert result.returncode == 1 and "to nie data w postaci 2026-06-01" in result.stderr
