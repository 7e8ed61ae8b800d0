"""`semedori serve` on a damaged database says "restore a backup", writes nothing, never 500.

Three faults of a dying SD card, each after a nightly backup was taken: the file cut to 0
bytes, cut to half, and one 4 KB page in the middle overwritten. On main: an empty board
served (and `check` said ok), a traceback at start, 500s on /games and POST /api/games.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from damage import damage
from harness import CLUB, Server, game_body, post_game, request, semedori_command

from kiosk.backup import backup_nightly, newest_good_backup, quick_check
from kiosk.config import DATABASE_NAME
from kiosk.store import Store


@pytest.fixture
def backed_up(club: Path) -> Path:
    """The club with 1,500 games (a file of many pages) and last night's backup."""
    lines = [json.dumps(line) for line in CLUB]
    for n in range(1500):
        at = f"2026-02-{1 + n // 60:02d}T{10 + n % 60 // 6:02d}:{n % 6 * 10:02d}"
        lines.append(json.dumps({"type": "game", "at": at, **game_body(n)}))
    with Store.open(club) as store:
        store.import_history(lines, replace_history=True)
    backup_nightly(club)
    return club


@pytest.fixture(params=["empty", "half", "page"])
def damaged(request: pytest.FixtureRequest, backed_up: Path) -> Iterator[tuple[str, Server]]:
    damage(backed_up, request.param)
    running = Server(backed_up, ready=503).start()
    try:
        yield request.param, running
    finally:
        running.stop()


def test_a_damaged_database_at_start_says_restore_a_backup_and_never_500(damaged: tuple[str, Server]) -> None:
    how, server = damaged
    home = server.home
    newest = next((home / "backups").glob("semedori-*.sqlite3")).name
    before = (home / DATABASE_NAME).read_bytes()
    answers = {}
    for method, path in [
        ("GET", "/"),
        ("GET", "/games"),
        ("GET", "/owner/login"),
        ("GET", "/board.png"),
        ("GET", "/api/board?size=13"),
        ("GET", "/players/Ala"),
    ]:
        status, _, text = request(server.host, method, path, headers={"Accept-Language": "en"})
        answers[path] = (status, text)
    status, _, text = post_game(server.host, game_body(1))
    answers["POST /api/games"] = (status, text)
    status, _, polish = request(server.host, "GET", "/", headers={"Accept-Language": "pl"})
    print(f"\n{how}: " + ", ".join(f"{path} {status}" for path, (status, _) in answers.items()))
    print(json.loads(answers["POST /api/games"][1]))
    assert {path: status for path, (status, _) in answers.items()} == dict.fromkeys(answers, 503)
    for path, (_, text) in answers.items():
        assert "restore a backup" in text, path
        assert newest in text, path
        assert str(home) not in text, path  # the backup's name, never a path on the kiosk
    assert "przywróci" in polish
    assert (home / DATABASE_NAME).read_bytes() == before  # nothing was written into the damaged file
    log = server.log.read_text(errors="replace")
    assert "damaged" in log and f"semedori restore {home / 'backups' / newest}" in log
    assert "Traceback" not in log


def test_a_new_kiosk_with_an_empty_file_and_no_backup_starts_fresh(tmp_path: Path) -> None:
    # What a first start cut short leaves behind: no backup yet, so it is a new kiosk, not damage.
    home = tmp_path / "data"
    home.mkdir()
    (home / DATABASE_NAME).write_bytes(b"")
    assert quick_check(home) is None


@pytest.mark.parametrize("how", ["empty", "half", "page"])
def test_check_says_the_database_is_damaged_and_names_the_backup(backed_up: Path, how: str) -> None:
    # On main `semedori check` said "ok" on the emptied file (and made it a new, empty club).
    damage(backed_up, how)
    environment = {**os.environ, "SEMEDORI_HOME": str(backed_up)}
    finished = subprocess.run(
        [semedori_command(), "check"], env=environment, capture_output=True, text=True, check=False, timeout=120
    )
    print(f"\n{how}: {finished.stderr.strip()}")
    assert finished.returncode == 1
    assert "damaged" in finished.stderr and "semedori restore" in finished.stderr
    assert "Traceback" not in finished.stderr


def test_check_says_it_in_polish_for_a_polish_club(backed_up: Path) -> None:
    # On main the damage was told in English only, whatever the club's language.
    (backed_up / "semedori.toml").write_text('[club]\nlanguage = "pl"\n', encoding="utf-8")
    newest = newest_good_backup(backed_up)
    assert newest is not None
    damage(backed_up, "half")
    environment = {**os.environ, "SEMEDORI_HOME": str(backed_up)}
    finished = subprocess.run(
        [semedori_command(), "check"], env=environment, capture_output=True, text=True, check=False, timeout=120
    )
    assert finished.returncode == 1
    assert "baza danych jest uszkodzona" in finished.stderr
    assert f"przywróć kopię zapasową: semedori restore {newest}" in finished.stderr
    for backup in (backed_up / "backups").iterdir():
        backup.write_bytes(b"not a database")
    finished = subprocess.run(
        [semedori_command(), "check"], env=environment, capture_output=True, text=True, check=False, timeout=120
    )
    assert finished.returncode == 1
    assert "w DATA/backups nie ma dobrej kopii zapasowej" in finished.stderr
