"""The SD card is full, for real: the data folder on a small tmpfs mounted for the test.

On main a nightly backup on a full card ended in a traceback and left
``semedori-DATE.sqlite3.tmp`` and its journal on the card for good (so every game after was
a 503); the rotation deleted old copies only after writing the new one; and the owner's
right PIN was a 500 (the wrong-PIN count was written before the PIN was checked). Now a
failed backup removes what it wrote and says why in one line, the rotation makes room
first, and the owner gets in and reads "the card is full: free space N MB, these backups
can go".

Needs root to mount the tmpfs (the kiosk's test machines run as root); elsewhere it is skipped, saying why.
"""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import CLUB, PLAYERS, Phone, Server, semedori_command

from kiosk.backup import BACKUPS_FOLDER
from kiosk.config import DATABASE_NAME
from kiosk.store import Store
from web.pin import hash_pin

PIN = "2468"
CARD_BYTES = 16 * 1024 * 1024


@pytest.fixture
def card(tmp_path: Path) -> Iterator[Path]:
    """A 16 MB card: a tmpfs mounted on a folder of the test, unmounted after."""
    mount = tmp_path / "card"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs (a full card for real) needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={CARD_BYTES}", "tmpfs", str(mount)], check=False)
    if done.returncode != 0:
        pytest.skip("this machine cannot mount a tmpfs (a full card for real)")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def club_of_games(home: Path, games: int) -> Path:
    """The four members and ``games`` games: a database of about 1 MB for 2,000 games."""
    lines = [json.dumps(line) for line in CLUB]
    for n in range(games):
        a, b = PLAYERS[n % 4], PLAYERS[(n + 1 + n // 4) % 4]
        if a == b:
            b = PLAYERS[(n + 2) % 4]
        day, minute = divmod(n, 600)
        at = f"2026-{2 + day // 28:02d}-{1 + day % 28:02d}T{10 + minute // 60:02d}:{minute % 60:02d}"
        lines.append(json.dumps({"type": "game", "at": at, "size": 13, "players": [a, b], "winner": a}))
    with Store.open(home) as store:
        store.import_history(lines)
        store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN)))
    return home


def fill(card: Path, leave: int = 0) -> Path:
    """Fill the card, leaving about ``leave`` bytes free; the filler file, to delete later."""
    filler = card / "filler"
    with open(filler, "ab", buffering=0) as file:
        for chunk in (1 << 20, 1 << 16, 1 << 12, 512):
            while True:
                try:
                    file.write(b"\0" * chunk)
                except OSError as error:
                    assert error.errno == errno.ENOSPC
                    break
    if leave:
        os.truncate(filler, max(0, filler.stat().st_size - leave))
    return filler


def semedori(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "SEMEDORI_HOME": str(home)}
    return subprocess.run([semedori_command(), *args], env=environment, capture_output=True, text=True, check=False)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if ".tmp" in p.name or p.name.endswith("-journal"))


def test_a_backup_on_a_full_card_leaves_nothing_behind_and_says_why(card: Path) -> None:
    home = club_of_games(card / "data", 2000)
    size = (home / DATABASE_NAME).stat().st_size
    fill(card, leave=size // 2)
    # A copy by hand starts writing and runs out of room half way.
    done = semedori(home, "backup", str(card / "copy.sqlite3"))
    print(f"\nbackup on a full card: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    print(f"left on the card: {leftovers(card)}")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "the card is full" in done.stderr and "MB free" in done.stderr
    assert leftovers(card) == [] and not (card / "copy.sqlite3").exists()
    # The nightly backup counts first and does not even start.
    done = semedori(home, "backup-nightly")
    print(f"backup-nightly on a full card: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    assert done.returncode == 1 and "Traceback" not in done.stderr and "the card is full" in done.stderr
    assert leftovers(card) == []
    assert list((home / BACKUPS_FOLDER).iterdir()) == []


def test_the_rotation_makes_room_before_the_copy(card: Path) -> None:
    home = club_of_games(card / "data", 2000)
    backups = home / BACKUPS_FOLDER
    backups.mkdir()
    for day in ("2026-11-01", "2026-11-02"):
        with Store.open(home) as store:
            store.backup(backups / f"semedori-{day}.sqlite3")
    size = (home / DATABASE_NAME).stat().st_size
    fill(card, leave=size // 2)  # not enough for a copy, unless the oldest goes first
    done = semedori(home, "backup-nightly", "--keep", "2")
    print(f"\nbackup-nightly --keep 2 on a nearly full card: exit {done.returncode}: {done.stdout.strip()}")
    assert done.returncode == 0, done.stderr
    names = sorted(p.name for p in backups.iterdir())
    assert names[0] == "semedori-2026-11-02.sqlite3" and len(names) == 2 and leftovers(card) == []


def test_the_owner_gets_in_on_a_full_card_and_reads_what_can_go(card: Path, tmp_path: Path) -> None:
    home = club_of_games(card / "data", 300)
    backups = home / BACKUPS_FOLDER
    backups.mkdir()
    for day in ("2026-11-01", "2026-11-02", "2026-11-03"):
        with Store.open(home) as store:
            store.backup(backups / f"semedori-{day}.sqlite3")
    server = Server(home)
    server.log = tmp_path / "serve.log"  # the server's own log is not on the full card
    server.start()
    try:
        fill(card)
        owner = Phone(server.host)
        page = owner.send("GET", "/owner/login")[2]
        form = dict(re.findall(r'name="(csrf_token|once)"[^>]*value="([^"]*)"', page))
        status, _, _ = owner.send("POST", "/owner/login", {**form, "pin": PIN})
        print(f"\nthe owner's right PIN on a full card: {status}")
        assert status == 302
        status, _, tools = owner.send("GET", "/owner/")
        assert status == 200 and "The card is full: free space 0.0 MB." in tools
        assert "semedori-2026-11-01.sqlite3" in tools and "semedori-2026-11-02.sqlite3" in tools
        assert "semedori-2026-11-03.sqlite3" not in tools  # the newest backup stays
        owner.cookies["lang"] = "pl"
        assert "Karta jest pełna: wolne miejsce 0,0 MB." in owner.send("GET", "/owner/")[2]
        assert server.errors_logged() == []
    finally:
        server.stop()
