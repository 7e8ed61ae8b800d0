"""Nightly backups and `semedori restore`, on real SQLite files."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk import config as configuration
from kiosk.backup import (
    RestoreError,
    backup_nightly,
    backup_nightly_command,
    backup_rotate,
    restore,
    restore_command,
    verify,
)
from kiosk.events import parse_line
from kiosk.store import SCHEMA_VERSION, Store

PLAYERS = [
    '{"type": "player", "at": "2026-11-01T18:00", "nick": "Bianka", "size": 9, "status": "member", "strength": 34.5}',
    '{"type": "player", "at": "2026-11-01T18:05", "nick": "Czarek", "size": 9, "status": "member", "strength": 25}',
]
FIRST_GAME = (
    '{"type": "game", "at": "2026-11-03T19:10", "size": 9, "players": ["Bianka", "Czarek"],'
    ' "winner": "Czarek", "by": 21}'
)
SECOND_GAME = (
    '{"type": "game", "at": "2026-11-10T19:10", "size": 9, "players": ["Bianka", "Czarek"],'
    ' "winner": "Bianka", "by": 3}'
)


def record(folder: Path, *lines: str) -> None:
    with Store.open(folder) as store:
        for line in lines:
            store.record(parse_line(line), origin="test")


def games(folder: Path) -> int:
    with Store.open(folder) as store:
        return len(store.recent_games())


def strengths(folder: Path) -> dict[str, int]:
    with Store.open(folder) as store:
        return {m.nick: m.strength for m in store.magnets()}


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """A kiosk's data folder with two players and one game."""
    folder = tmp_path / "data"
    record(folder, *PLAYERS, FIRST_GAME)
    return folder


def backup_of(folder: Path, path: Path) -> Path:
    with Store.open(folder) as store:
        store.backup(path)
    return path


def test_restore_brings_back_the_board_of_the_backup(club: Path, tmp_path: Path) -> None:
    saved = backup_of(club, tmp_path / "monday.sqlite3")
    board_at_backup = strengths(club)
    record(club, SECOND_GAME)
    assert games(club) == 2

    restored = restore(saved, club)

    assert games(club) == 1
    assert strengths(club) == board_at_backup
    assert restored.summary.events == 3 and restored.summary.games == 1
    assert restored.summary.last == "2026-11-03T19:10"
    # Nothing is lost: the database it replaced is kept next to it, second game and all.
    assert restored.safety is not None and restored.safety.parent == club
    check = tmp_path / "check"
    restore(restored.safety, check)
    assert games(check) == 2


def test_restore_ignores_the_write_ahead_log_of_a_crashed_kiosk(club: Path, tmp_path: Path) -> None:
    saved = backup_of(club, tmp_path / "monday.sqlite3")
    # The web process records a game and dies (power cut) before SQLite folds its -wal file in.
    code = (
        "import os, sys; from pathlib import Path; from kiosk.store import Store; from kiosk.events import parse_line\n"
        "store = Store.open(Path(sys.argv[1])); store.record(parse_line(sys.argv[2])); os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", code, str(club), SECOND_GAME], check=True)
    assert (club / (configuration.DATABASE_NAME + "-wal")).stat().st_size > 0

    restored = restore(saved, club)

    # A stale -wal applied to the restored file would corrupt it or bring the game back.
    assert games(club) == 1
    with Store.open(club) as store:
        assert store.check() == []
    assert restored.safety is not None
    check = tmp_path / "check"
    restore(restored.safety, check)
    assert games(check) == 2  # the crashed kiosk's last game is in the safety copy


def test_restore_moves_an_orphaned_write_ahead_log_aside(club: Path, tmp_path: Path) -> None:
    saved = backup_of(club, tmp_path / "monday.sqlite3")
    database = club / configuration.DATABASE_NAME
    orphan = database.with_name(database.name + "-wal")
    orphan.write_bytes(b"left over from a database someone deleted")
    database.unlink()

    restored = restore(saved, club)

    assert restored.safety is None
    assert not orphan.exists()
    assert games(club) == 1


def test_restore_refuses_while_the_kiosk_has_the_database_open(club: Path, tmp_path: Path) -> None:
    saved = backup_of(club, tmp_path / "monday.sqlite3")
    record(club, SECOND_GAME)
    with Store.open(club) as running_web, pytest.raises(RestoreError) as refused:
        restore(saved, club)
    assert refused.value.code == "in-use"
    assert "systemctl stop" in str(refused.value)
    assert games(club) == 2
    assert sorted(p.name for p in club.iterdir() if p.suffix == ".sqlite3") == [configuration.DATABASE_NAME]
    assert running_web is not None


def damage(path: Path) -> None:
    """Overwrite the middle of a database file, as a failing SD card would."""
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) >= 3 * page
    data[page : 3 * page] = b"\x55" * (2 * page)
    path.write_bytes(bytes(data))


def raw_sql(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    for statement in statements:
        db.execute(statement)
    db.close()


def assert_refused(club: Path, backup: Path, code: str) -> None:
    before = strengths(club), games(club)
    files = sorted(p.name for p in club.iterdir())
    with pytest.raises(RestoreError) as refused:
        restore(backup, club)
    assert refused.value.code == code
    assert (strengths(club), games(club)) == before
    assert sorted(p.name for p in club.iterdir()) == files  # not even a safety copy


def test_a_damaged_backup_is_refused_and_nothing_changes(club: Path, tmp_path: Path) -> None:
    saved = backup_of(club, tmp_path / "monday.sqlite3")
    damage(saved)
    assert_refused(club, saved, "damaged")


def test_a_file_that_is_not_a_database_is_refused(club: Path, tmp_path: Path) -> None:
    photo = tmp_path / "board.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0" + b"not a database" * 400)
    assert_refused(club, photo, "not-a-database")


def test_another_programs_database_is_refused(club: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite3"
    raw_sql(other, "CREATE TABLE photo (id INTEGER PRIMARY KEY)", "PRAGMA user_version=1")
    assert_refused(club, other, "not-semedori")


def test_a_backup_from_a_newer_version_is_refused(club: Path, tmp_path: Path) -> None:
    saved = backup_of(club, tmp_path / "future.sqlite3")
    raw_sql(saved, f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    assert_refused(club, saved, "newer")


def test_a_backup_whose_history_does_not_replay_is_refused(club: Path, tmp_path: Path) -> None:
    saved = backup_of(club, tmp_path / "odd.sqlite3")
    line = FIRST_GAME.replace("Bianka", "Nobody")
    raw_sql(saved, f"INSERT INTO event (type, at, line, entered) VALUES ('game', '2026-11-04T19:00', '{line}', 'x')")
    assert_refused(club, saved, "damaged")


def test_a_missing_backup_and_the_kiosks_own_file_are_refused(club: Path, tmp_path: Path) -> None:
    assert_refused(club, tmp_path / "nowhere.sqlite3", "missing")
    assert_refused(club, club / configuration.DATABASE_NAME, "same-file")


def test_a_restored_board_always_equals_a_fresh_replay(club: Path, tmp_path: Path) -> None:
    saved = backup_of(club, tmp_path / "monday.sqlite3")
    board = strengths(club)
    # A copy whose cached magnets disagree with its history (say, made under other settings).
    raw_sql(saved, "UPDATE cache SET value = '[]' WHERE name = 'magnets'")
    restore(saved, club)
    assert strengths(club) == board
    with Store.open(club) as store:
        assert store.check() == []


def test_a_restore_replays_the_cache_once_after_its_check(
    club: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = backup_of(club, tmp_path / "monday.sqlite3")
    raw_sql(saved, "UPDATE cache SET value = '[]' WHERE name = 'magnets'")
    rebuilds: list[Path] = []
    real_rebuild = Store.rebuild

    def rebuild(store: Store) -> None:
        rebuilds.append(store.folder)
        real_rebuild(store)

    monkeypatch.setattr(Store, "rebuild", rebuild)
    restore(saved, club)
    assert rebuilds == [club / ".restoring"]  # once, on the staged copy, before the swap
    assert not (club / ".restoring").exists()


def live_state(club: Path) -> tuple[object, ...]:
    """The kiosk's database byte for byte, and the folder's files."""
    return (club / configuration.DATABASE_NAME).read_bytes(), sorted(p.name for p in club.iterdir())


def test_a_backup_with_a_trigger_that_drops_phone_games_is_refused(club: Path, tmp_path: Path) -> None:
    # On main this was restored, and every game a phone sent afterwards vanished.
    saved = backup_of(club, tmp_path / "trap.sqlite3")
    raw_sql(
        saved,
        "CREATE TRIGGER drop_games AFTER INSERT ON event WHEN NEW.origin LIKE 'phone:%' "
        "BEGIN DELETE FROM event WHERE seq = NEW.seq; END",
    )
    before = live_state(club)
    with pytest.raises(RestoreError) as refused:
        restore(saved, club)
    print(f"\n{refused.value.message('en')}")
    assert refused.value.code == "schema"
    assert "trigger drop_games is not the kiosk's" in refused.value.message("en")
    assert "nic nie zmieniono" in refused.value.message("pl")
    assert live_state(club) == before


@pytest.mark.parametrize(
    ("change", "what"),
    [
        ("CREATE VIEW board AS SELECT * FROM event", "view board is not the kiosk's"),
        ("CREATE INDEX extra ON event (at)", "index extra is not the kiosk's"),
        ("CREATE TABLE spy (x)", "table spy is not the kiosk's"),
        ("DROP INDEX outcome_order", "index outcome_order is missing"),
    ],
)
def test_a_backup_whose_schema_is_not_exactly_the_kiosks_is_refused(
    club: Path, tmp_path: Path, change: str, what: str
) -> None:
    saved = backup_of(club, tmp_path / "odd-schema.sqlite3")
    raw_sql(saved, change)
    before = live_state(club)
    with pytest.raises(RestoreError) as refused:
        restore(saved, club)
    assert refused.value.code == "schema" and what in refused.value.message("en")
    assert live_state(club) == before


def test_a_backup_whose_game_has_no_game_id_is_refused_before_the_swap(club: Path, tmp_path: Path) -> None:
    # On main this swapped the database in, then ended in a KeyError traceback.
    saved = backup_of(club, tmp_path / "no-id.sqlite3")
    raw_sql(saved, "UPDATE event SET game_id = NULL WHERE type = 'game'")
    before = live_state(club)
    with pytest.raises(RestoreError) as refused:
        restore(saved, club)
    print(f"\n{refused.value.message('en')}")
    assert refused.value.code == "damaged"
    assert live_state(club) == before
    assert games(club) == 1
    finished = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "restore", str(saved), "--folder", str(club)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert finished.returncode == 1 and "Traceback" not in finished.stderr, finished.stderr


def test_verify_describes_a_good_backup_without_changing_it(club: Path, tmp_path: Path) -> None:
    saved = backup_of(club, tmp_path / "monday.sqlite3")
    before = saved.read_bytes()
    summary = verify(saved)
    assert (summary.events, summary.games, summary.last) == (3, 1, "2026-11-03T19:10")
    assert saved.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "monday.sqlite3"]


# --- nightly backups ---------------------------------------------------------------------


def test_nightly_backup_writes_todays_checked_copy(club: Path) -> None:
    path, removed = backup_nightly(club)
    today = datetime.now(configuration.load(club).zone)
    assert path == club / "backups" / f"semedori-{today:%Y-%m-%d}.sqlite3"
    assert removed == []
    assert verify(path).games == 1
    # Twice in one day (a manual run after the timer) leaves one copy: the newer.
    record(club, SECOND_GAME)
    again, _ = backup_nightly(club)
    assert again == path
    assert verify(path).games == 2
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_rotation_keeps_the_newest_fourteen_and_nothing_else_is_touched(tmp_path: Path) -> None:
    days = [f"semedori-2026-{month:02d}-{day:02d}.sqlite3" for month in (10, 11) for day in range(1, 13)]
    for name in days:
        (tmp_path / name).write_bytes(b"")
    by_hand = ["semedori-before-upgrade-20261101-1200.sqlite3", "club-export.jsonl", "semedori-2026-11-30.sqlite3.tmp"]
    for name in by_hand:
        (tmp_path / name).write_bytes(b"")

    removed = backup_rotate(tmp_path)

    assert sorted(p.name for p in removed) == sorted(days)[:-14]
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(sorted(days)[-14:] + by_hand)
    assert backup_rotate(tmp_path) == []


def test_rotation_runs_after_the_backup(club: Path, tmp_path: Path) -> None:
    to = tmp_path / "usb"
    to.mkdir()
    for day in range(1, 6):
        (to / f"semedori-2020-01-{day:02d}.sqlite3").write_bytes(b"")
    path, removed = backup_nightly(club, to, keep=3)
    assert [p.name for p in removed] == [
        "semedori-2020-01-01.sqlite3",
        "semedori-2020-01-02.sqlite3",
        "semedori-2020-01-03.sqlite3",
    ]
    assert sorted(p.name for p in to.iterdir()) == [
        "semedori-2020-01-04.sqlite3",
        "semedori-2020-01-05.sqlite3",
        path.name,
    ]


# --- the commands ---------------------------------------------------------------------------


def test_restore_command_says_what_it_restored(club: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved = backup_of(club, tmp_path / "monday.sqlite3")
    record(club, SECOND_GAME)
    monkeypatch.setenv("SEMEDORI_HOME", str(club))
    result = CliRunner().invoke(restore_command, [str(saved)])
    assert result.exit_code == 0, result.output
    assert "3 events, 1 games, the last on 2026-11-03T19:10" in result.output
    assert "semedori-before-restore-" in result.output
    assert games(club) == 1


def test_restore_command_refuses_in_the_clubs_language(
    club: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Store.open(club) as store:
        store.save_config(store.config.with_changes(language="pl"))
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("hello")
    monkeypatch.setenv("SEMEDORI_HOME", str(club))
    result = CliRunner().invoke(restore_command, [str(junk)])
    assert result.exit_code == 1
    assert "to nie kopia Semedori" in result.output
    assert "Traceback" not in result.output
    assert games(club) == 1


def test_backup_nightly_command(club: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMEDORI_HOME", str(club))
    result = CliRunner().invoke(backup_nightly_command, ["--to", str(tmp_path / "usb"), "--keep", "2"])
    assert result.exit_code == 0, result.output
    written = list((tmp_path / "usb").iterdir())
    assert len(written) == 1 and str(written[0]) in result.output
    assert verify(written[0]).events == 3


def test_every_command_has_help_text() -> None:
    for command in (restore_command, backup_nightly_command):
        result = CliRunner().invoke(command, ["--help"])
        assert result.exit_code == 0
        assert command.help and len(command.help) > 20


def test_nightly_backups_belong_to_the_kiosk_user(club: Path) -> None:
    path, _ = backup_nightly(club)
    assert path.stat().st_uid == os.stat(club).st_uid
