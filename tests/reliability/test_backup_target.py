"""A backup onto the live database (or its -wal/-shm) is refused, and so is such a restore source.

On main, `semedori backup DATA/semedori.sqlite3` was accepted while `semedori serve` ran:
posts after it got 500 "malformed", and after a restart games were missing. Here the
command refuses with one clear line, the file is untouched, and every later game is kept.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from harness import Server, assert_nothing_lost, post_game, semedori_command

from kiosk.config import DATABASE_NAME


def semedori(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the `semedori` command on the data folder, as the owner would over SSH."""
    environment = {**os.environ, "SEMEDORI_HOME": str(home)}
    return subprocess.run(
        [semedori_command(), *args], env=environment, capture_output=True, text=True, timeout=120, check=False
    )


def live_names(home: Path) -> list[str]:
    """Every way to name the live database or its WAL family."""
    database = home / DATABASE_NAME
    link = home.parent / "link-to-live.sqlite3"
    link.symlink_to(database)
    hard = home.parent / "hard-link.sqlite3"
    os.link(database, hard)
    return [
        str(database),
        str(home / f"{DATABASE_NAME}-wal"),
        str(home / f"{DATABASE_NAME}-shm"),
        str(home / f"{DATABASE_NAME}-journal"),
        str(home / ".." / home.name / DATABASE_NAME),  # the same file by another path
        str(link),
        str(hard),
    ]


def test_a_backup_onto_the_live_database_is_refused_and_no_game_is_lost(server: Server, club: Path) -> None:
    acknowledged = []
    for n in range(20):
        status, _, _ = post_game(
            server.host, {"size": 13, "players": ["Ala", "Bartek"], "winner": "Ala", "key": f"a{n}"}
        )
        assert status == 201
        acknowledged.append(f"api-game:127.0.0.1:a{n}")
    answers = []
    for target in live_names(club):
        finished = semedori(club, "backup", target)
        answers.append((target, finished.returncode, finished.stderr.strip()))
        # Games keep coming in between, as on a club evening.
        for n in range(15):
            key = f"{len(answers)}-{n}"
            status, _, text = post_game(
                server.host, {"size": 13, "players": ["Celina", "Darek"], "winner": "Darek", "key": key}
            )
            assert status == 201, text
            acknowledged.append(f"api-game:127.0.0.1:{key}")
    for target, code, stderr in answers:
        print(f"\nsemedori backup {target}: exit {code}: {stderr}")
    assert [code for _, code, _ in answers] == [1] * len(answers)
    for _, _, stderr in answers:
        assert "Traceback" not in stderr
        assert "live database" in stderr
    server.stop()
    server.start()  # after a restart, every acknowledged game is still there
    assert post_game(server.host, {"size": 13, "players": ["Ala", "Darek"], "winner": "Ala", "key": "last"})[0] == 201
    acknowledged.append("api-game:127.0.0.1:last")
    server.stop()
    counts = assert_nothing_lost(club, acknowledged)
    assert len(counts) == len(acknowledged) == 20 + 15 * len(answers) + 1
    assert server.errors_logged() == []
    checked = semedori(club, "check")
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_a_restore_from_the_live_database_or_its_wal_family_is_refused(club: Path, suffix: str) -> None:
    source = club / f"{DATABASE_NAME}{suffix}"
    if not source.exists():
        source.write_bytes(b"")  # a -wal or -shm left by a running kiosk
    before = (club / DATABASE_NAME).read_bytes()
    finished = semedori(club, "restore", str(source))
    print(f"\nsemedori restore {source.name}: exit {finished.returncode}: {finished.stderr.strip()}")
    assert finished.returncode == 1
    assert "Traceback" not in finished.stderr
    assert "the kiosk's own database" in finished.stderr
    assert (club / DATABASE_NAME).read_bytes() == before
    assert not list(club.glob("semedori-before-restore-*"))
