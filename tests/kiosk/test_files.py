"""Files written whole or not at all (kiosk/files.py), on real files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kiosk.files import replace_atomically, write_atomically


def test_a_file_is_replaced_whole_and_nothing_is_left_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "semedori.toml"
    path.write_text("old")
    write_atomically(path, "nowa wartość ✓")
    assert path.read_text(encoding="utf-8") == "nowa wartość ✓"
    write_atomically(path, b"\x00bytes")
    assert path.read_bytes() == b"\x00bytes"
    assert [p.name for p in tmp_path.iterdir()] == ["semedori.toml"]


def test_a_secret_is_made_for_the_kiosk_only_and_a_plain_file_as_the_umask_says(tmp_path: Path) -> None:
    write_atomically(tmp_path / "web-secret", "k", mode=0o600)
    assert stat.S_IMODE((tmp_path / "web-secret").stat().st_mode) == 0o600
    umask = os.umask(0o022)
    try:
        write_atomically(tmp_path / "plain", "p")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "plain").stat().st_mode) == 0o644


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "picture.png"
    path.write_bytes(b"old picture")

    def half_written(into: Path) -> None:
        into.write_bytes(b"half")
        raise OSError("card full")

    with pytest.raises(OSError, match="card full"):
        replace_atomically(path, half_written)
    assert path.read_bytes() == b"old picture"
    assert [p.name for p in tmp_path.iterdir()] == ["picture.png"]


def test_a_named_temporary_is_used_and_synced_writes_call_fsync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    seen: list[Path] = []
    replace_atomically(
        tmp_path / "copy.sqlite3",
        lambda into: (seen.append(into), into.write_bytes(b"db"))[1],
        temporary=tmp_path / "copy.sqlite3.tmp",
    )
    assert seen == [tmp_path / "copy.sqlite3.tmp"] and (tmp_path / "copy.sqlite3").read_bytes() == b"db"
    assert len(synced) == 1
    write_atomically(tmp_path / "clock.json", "{}", sync=False)  # a cache of the moment: no fsync
    assert len(synced) == 1
    write_atomically(tmp_path / "pin-failures.json", "{}")
    assert len(synced) == 2
