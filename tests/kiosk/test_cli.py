"""The `semedori` command, run as a user runs it: a real process, a real data folder."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import click
import pytest

from kiosk.cli import main

BIANKA_CZAREK = [
    {"type": "player", "at": "2026-11-01T18:00", "nick": "Bianka", "size": 9, "status": "member", "strength": 34.5},
    {"type": "player", "at": "2026-11-01T18:00", "nick": "Czarek", "size": 9, "status": "member", "strength": 25},
    {"type": "player", "at": "2026-11-01T18:00", "nick": "Ola", "size": 9, "status": "member", "strength": 34.5},
    # Bianka's first loss of the week (to Ola) is free, so the next one moves her.
    {"type": "game", "at": "2026-11-03T18:30", "size": 9, "players": ["Bianka", "Ola"], "winner": "Ola", "by": 3},
    {
        "type": "game",
        "at": "2026-11-03T19:10",
        "size": 9,
        "players": ["Bianka", "Czarek"],
        "winner": "Czarek",
        "by": 21,
    },
]


def semedori(
    home: Path, *args: str, stdin: str | None = None, lang: str = "C.UTF-8"
) -> subprocess.CompletedProcess[str]:
    """Run the installed console script against a data folder, from a terminal in ``lang``."""
    terminal = {"LANG": lang, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
    env = {**os.environ, "SEMEDORI_HOME": str(home), **terminal}
    script = Path(sys.executable).with_name("semedori")
    return subprocess.run(
        [str(script), *args], env=env, input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


def write_history(path: Path, lines: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path


def test_every_command_has_help_text() -> None:
    for name in main.list_commands(click.Context(main)):
        command = main.get_command(click.Context(main), name)
        assert command is not None
        assert command.help, f"`semedori {name}` has no help text"
        with click.Context(command) as context:
            assert "Usage" in command.get_help(context)


def test_replay_prints_the_board_of_rules_7(tmp_path: Path) -> None:
    history = write_history(tmp_path / "h.jsonl", BIANKA_CZAREK)
    result = semedori(tmp_path / "home", "replay", str(history))
    assert result.returncode == 0, result.stderr
    board = json.loads(result.stdout)
    magnets = {m["nick"]: m for m in board["magnets"]}
    assert magnets["Czarek"] == {"nick": "Czarek", "size": 9, "strength": 27, "status": "member"}
    assert magnets["Bianka"]["strength"] == 33.5
    last = board["games"][-1]
    assert last == {
        "at": "2026-11-03T19:10",
        "size": 9,
        "players": ["Bianka", "Czarek"],
        "white": "Bianka",
        "handicap": {"even": False, "moves": 2, "prisoners": 0},
        "training": False,
        "moves": {
            "Bianka": {"from": 34.5, "to": 33.5, "why": "clear-loss"},
            "Czarek": {"from": 25, "to": 27, "why": "clear-win"},
        },
    }
    assert not (tmp_path / "home" / "semedori.sqlite3").exists(), "replay must not touch a database"


def test_replay_imports_nothing_it_does_not_use(tmp_path: Path) -> None:
    # `semedori replay` is timed as a whole process: no SQLite, store, demo club, entry points, web or display.
    history = write_history(tmp_path / "h.jsonl", BIANKA_CZAREK)
    code = (
        "import sys\n"
        "from kiosk.cli import main\n"
        "try:\n"
        f"    main(['replay', {str(history)!r}])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert json.loads(result.stdout)["magnets"]
    loaded = set(result.stderr.split())
    unused = {"sqlite3", "kiosk.store", "kiosk.demo", "kiosk.pairing", "importlib.metadata", "flask", "web", "PIL"}
    assert loaded & unused == set()


@pytest.mark.parametrize(
    ("bad_line", "reason"),
    [
        (
            {"type": "game", "at": "2026-11-04T19:00", "size": 9, "players": ["Bianka", "Zed"], "winner": "Zed"},
            "unknown player 'Zed'",
        ),
        (
            {"type": "game", "at": "2026-11-04T19:00", "size": 9, "players": ["Bianka", "Ola"], "winner": None},
            "a draw is impossible in an even game",
        ),
        (
            {
                "type": "player",
                "at": "2026-11-04T19:00",
                "nick": "Ewa",
                "size": 9,
                "status": "member",
                "strength": 31.25,
            },
            "31.25 is not a field of the scale",
        ),
        (
            {"type": "game", "at": "2026-11-04T19:00", "size": 9, "players": ["Ola", "ola"], "winner": "Ola"},
            "cannot play against herself",
        ),
        (
            {"type": "game", "at": "2026-11-31T19:00", "size": 9, "players": ["Bianka", "Ola"], "winner": "Ola"},
            "is not a date and time",
        ),
        ({"type": "teleport", "at": "2026-11-04T19:00"}, "unknown type 'teleport'"),
        (
            {
                "type": "game",
                "at": "2026-11-04T19:00",
                "size": 9,
                "players": ["Bianka", "Ola"],
                "winner": "Ola",
                "colour": "red",
            },
            "unknown field 'colour'",
        ),
    ],
)
def test_bad_input_names_the_line_and_writes_nothing(tmp_path: Path, bad_line: dict[str, object], reason: str) -> None:
    history = write_history(tmp_path / "h.jsonl", [*BIANKA_CZAREK, bad_line])
    home = tmp_path / "home"
    for command in (["replay", str(history)], ["import", str(history)]):
        result = semedori(home, *command)
        assert result.returncode != 0
        assert "Traceback" not in result.stderr
        assert result.stderr.strip().splitlines() == [f"semedori: line 6: {reason}"] or (
            len(result.stderr.strip().splitlines()) == 1 and "line 6" in result.stderr and reason in result.stderr
        ), result.stderr
    assert semedori(home, "export").stdout == "", "a failed import must leave the history empty"


def test_malformed_json_names_the_line(tmp_path: Path) -> None:
    history = tmp_path / "h.jsonl"
    history.write_text(json.dumps(BIANKA_CZAREK[0]) + "\n{not json\n", encoding="utf-8")
    result = semedori(tmp_path / "home", "replay", str(history))
    assert result.returncode == 1
    assert result.stderr.startswith("semedori: line 2: not valid JSON")


def test_export_import_export_is_byte_identical(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    assert semedori(first, "demo", "--end", "2026-11-30").returncode == 0
    exported = semedori(first, "export").stdout
    assert exported.count("\n") > 100
    (tmp_path / "export.jsonl").write_text(exported, encoding="utf-8")
    assert semedori(second, "import", str(tmp_path / "export.jsonl")).returncode == 0
    assert semedori(second, "export").stdout == exported


def test_import_refuses_to_mix_histories_without_replace(tmp_path: Path) -> None:
    history = write_history(tmp_path / "h.jsonl", BIANKA_CZAREK)
    home = tmp_path / "home"
    assert semedori(home, "import", str(history)).returncode == 0
    again = semedori(home, "import", str(history))
    assert again.returncode == 1 and "--replace" in again.stderr
    assert semedori(home, "import", "--replace", str(history)).returncode == 0
    assert semedori(home, "export").stdout.count("\n") == len(BIANKA_CZAREK)


def test_handicap_from_strengths_and_from_the_board(tmp_path: Path) -> None:
    by_numbers = semedori(tmp_path, "handicap", "--size", "9", "34.5", "25")
    assert by_numbers.returncode == 0
    assert "Black: 25, 2 starting moves, 0 prisoners from White" in by_numbers.stdout
    assert "White: 34.5" in by_numbers.stdout

    history = write_history(tmp_path / "h.jsonl", BIANKA_CZAREK[:2])
    semedori(tmp_path / "home", "import", str(history))
    by_names = semedori(tmp_path / "home", "handicap", "--size", "9", "Bianka", "Czarek")
    assert "White: Bianka" in by_names.stdout
    assert "Black: Czarek, 2 starting moves, 0 prisoners" in by_names.stdout

    even = semedori(tmp_path, "handicap", "--size", "19", "40", "40.25")
    assert "Even game: nigiri" in even.stdout and "komi 6.5" in even.stdout
    training = semedori(tmp_path, "handicap", "--size", "9", "40", "17")
    assert "Training game" in training.stdout

    unknown = semedori(tmp_path / "home", "handicap", "--size", "9", "Bianka", "Nobody")
    assert unknown.returncode == 1 and unknown.stderr == "semedori: unknown player 'Nobody'\n"


def test_board_check_and_backup(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert semedori(home, "demo", "--end", "2026-11-30").returncode == 0
    board = semedori(home, "board", "--size", "13", "--now", "2026-11-30T20:00")
    assert board.returncode == 0
    assert "13x13" in board.stdout and "9x9" not in board.stdout
    assert "Łucja" in board.stdout and "(guest)" in board.stdout

    assert semedori(home, "check").returncode == 0

    copy = tmp_path / "copy.sqlite3"
    assert semedori(home, "backup", str(copy)).returncode == 0
    with sqlite3.connect(copy) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        original = sqlite3.connect(home / "semedori.sqlite3")
        assert db.execute("SELECT line FROM event").fetchall() == original.execute("SELECT line FROM event").fetchall()
        original.close()


def test_check_fails_when_the_stored_board_was_tampered_with(tmp_path: Path) -> None:
    home = tmp_path / "home"
    semedori(home, "import", str(write_history(tmp_path / "h.jsonl", BIANKA_CZAREK)))
    with sqlite3.connect(home / "semedori.sqlite3") as db:
        db.execute("UPDATE cache SET value = replace(value, '108', '112') WHERE name = 'magnets'")
    result = semedori(home, "check")
    assert result.returncode == 1
    assert "differ from a fresh replay" in result.stderr


def test_demo_needs_an_empty_folder_and_speaks_polish_when_configured(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "semedori.toml").write_text('[club]\nlanguage = "pl"\n', encoding="utf-8")
    assert semedori(home, "demo").returncode == 0
    again = semedori(home, "demo")
    assert again.returncode == 1
    assert "historia nie jest pusta" in again.stderr


def test_a_rule_changed_in_the_settings_replays_the_board(tmp_path: Path) -> None:
    home = tmp_path / "home"
    semedori(home, "import", str(write_history(tmp_path / "h.jsonl", BIANKA_CZAREK)))
    assert "27  Czarek" in semedori(home, "board", "--now", "2026-11-30T20:00").stdout
    settings = (home / "semedori.toml").read_text(encoding="utf-8")
    # With a clear margin of 25 on 9x9, Czarek's win by 21 is an ordinary win: one arrow.
    (home / "semedori.toml").write_text(settings.replace("clear_margin = 15", "clear_margin = 25"), encoding="utf-8")
    assert "26  Czarek" in semedori(home, "board", "--now", "2026-11-30T20:00").stdout
    assert semedori(home, "check").returncode == 0


def test_a_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    history = write_history(tmp_path / "h.jsonl", BIANKA_CZAREK)
    history.write_bytes(b"\xef\xbb\xbf" + history.read_bytes())
    result = semedori(tmp_path / "home", "replay", str(history))
    assert result.returncode == 0, result.stderr


def test_hand_edited_settings_the_history_cannot_take_name_the_settings_file(tmp_path: Path) -> None:
    home = tmp_path / "home"
    draw = {"type": "game", "at": "2026-11-04T19:00", "size": 9, "players": ["Bianka", "Czarek"], "winner": None}
    semedori(home, "import", str(write_history(tmp_path / "h.jsonl", [*BIANKA_CZAREK, draw])))
    settings = (home / "semedori.toml").read_text(encoding="utf-8")
    # At a quarter point per strength Bianka and Czarek would play even, where a draw is impossible.
    edited = settings.replace("points_per_strength = 2", "points_per_strength = 0.25")
    (home / "semedori.toml").write_text(edited, encoding="utf-8")
    result = semedori(home, "board", "--now", "2026-11-30T20:00")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("semedori: configuration semedori.toml: the history cannot be replayed")
    assert "a draw is impossible in an even game" in result.stderr


def test_a_bad_setting_is_said_in_the_clubs_language_else_the_terminals(tmp_path: Path) -> None:
    home = tmp_path / "home"
    draw = {"type": "game", "at": "2026-11-04T19:00", "size": 9, "players": ["Bianka", "Czarek"], "winner": None}
    semedori(home, "import", str(write_history(tmp_path / "h.jsonl", [*BIANKA_CZAREK, draw])))
    settings = (home / "semedori.toml").read_text(encoding="utf-8")
    # A Polish club's hand-edited file the history cannot take: the club's language, the history's reason too.
    polish_club = settings.replace('language = "en"', 'language = "pl"')
    edited = polish_club.replace("points_per_strength = 2", "points_per_strength = 0.25")
    (home / "semedori.toml").write_text(edited, encoding="utf-8")
    result = semedori(home, "board", "--now", "2026-11-30T20:00")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("semedori: konfiguracja semedori.toml: nie da się z nią odtworzyć historii: ")
    assert "configuration" not in result.stderr and "history" not in result.stderr
    # A file too broken to say the club's language: the terminal's.
    (home / "semedori.toml").write_text(settings.replace("guest_losses = 2", "guest_losses = 5"), encoding="utf-8")
    result = semedori(home, "board", "--now", "2026-11-30T20:00", lang="pl_PL.UTF-8")
    assert result.returncode == 1
    assert result.stderr == "semedori: konfiguracja guest_losses: musi wynosić 2 albo 3\n"


def test_a_refusal_is_one_line_in_the_clubs_language_and_exit_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    from kiosk.errors import HistoryError
    from kiosk.terminal import fail

    with pytest.raises(SystemExit) as exited:
        fail(HistoryError("store-not-empty"), "pl")
    assert exited.value.code == 1
    assert capsys.readouterr().err == "semedori: historia nie jest pusta; import zastąpi ją tylko z --replace\n"


def test_the_commands_speak_the_clubs_language(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "semedori.toml").write_text('[club]\nlanguage = "pl"\n', encoding="utf-8")
    assert semedori(home, "board").stdout.splitlines()[-1] == "(jeszcze bez magnesów)"
    imported = semedori(home, "import", str(write_history(tmp_path / "h.jsonl", BIANKA_CZAREK)))
    assert imported.stdout == f"zaimportowano zdarzeń: {len(BIANKA_CZAREK)}\n"
    assert "9x9  (3 magnesy)" in semedori(home, "board", lang="en_GB.UTF-8").stdout  # the club's setting wins


def test_without_a_clubs_setting_the_commands_speak_the_terminals_language(tmp_path: Path) -> None:
    home = tmp_path / "home"
    polish = semedori(home, "handicap", "--size", "13", "34.5", "25", lang="pl_PL.UTF-8").stdout.splitlines()
    assert polish[0] == "13x13: 34.5 przeciw 25, różnica 9.5"
    assert polish[1] == "Białe: 34.5"
    english = semedori(home, "handicap", "--size", "13", "34.5", "25").stdout.splitlines()
    assert english[:2] == ["13x13: 34.5 against 25, difference 9.5", "White: 34.5"]


def test_import_refuses_a_rule_change_dated_before_a_shift_naming_the_line(tmp_path: Path) -> None:
    # docs/rules.md §8: a history file obeys the owner page's limits on rule-change dates.
    history = write_history(
        tmp_path / "club.jsonl",
        [
            {"type": "player", "at": "2026-11-02T19:00", "nick": "Ada", "size": 9, "status": "member", "strength": 20},
            {"type": "shift", "at": "2026-11-05T19:00", "amount": -5},
            {"type": "rules", "at": "2026-11-04T19:00", "top": 50},
        ],
    )
    done = semedori(tmp_path / "kiosk", "import", str(history))
    assert done.returncode != 0
    assert "line 3" in done.stderr and "the last shift or rule change" in done.stderr
    assert "Traceback" not in done.stderr
    assert semedori(tmp_path / "kiosk", "export").stdout == ""  # nothing imported
