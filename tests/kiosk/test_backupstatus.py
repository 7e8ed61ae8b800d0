"""The nightly backup says when it failed, for the owner's home; a stopped timer is seen too."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk import backupstatus
from kiosk.backup import backup_nightly_command
from kiosk.store import Store


@pytest.fixture
def club(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    with Store.open(folder) as store:
        store.import_history(
            ['{"type":"player","at":"2026-11-01T10:00","nick":"Ala","size":9,"status":"member","strength":5}']
        )
    return folder


def test_a_failed_backup_is_kept_until_one_works(club: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMEDORI_HOME", str(club))
    blocked = tmp_path / "usb"
    blocked.write_text("a file where the folder of backups should be")
    result = CliRunner().invoke(backup_nightly_command, ["--to", str(blocked / "backups")])
    assert result.exit_code == 1
    failure = backupstatus.read(club)
    assert failure is not None and failure.reason["en"] and failure.reason["pl"]
    assert datetime.now(UTC) - failure.at < timedelta(minutes=5)
    assert CliRunner().invoke(backup_nightly_command, ["--to", str(tmp_path / "good")]).exit_code == 0
    assert backupstatus.read(club) is None


def test_a_nightly_copy_older_than_two_days_is_overdue(tmp_path: Path) -> None:
    now = datetime.now(UTC)
    assert backupstatus.overdue(tmp_path / "none", now) is None  # no backup folder yet: a fresh kiosk
    copy = tmp_path / "semedori-2026-11-01.sqlite3"
    copy.write_bytes(b"x")
    assert backupstatus.overdue(tmp_path, now) is None
    old = (now - timedelta(hours=49)).timestamp()
    os.utime(copy, (old, old))
    assert backupstatus.overdue(tmp_path, now) is not None
