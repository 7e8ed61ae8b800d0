"""`sudo semedori restore ...` on the Pi: the wall and the web stop, the copy is restored, both start again."""

from __future__ import annotations

import getpass
import os
import subprocess
import sys
from pathlib import Path

import pytest
from deployment import SYSTEMD

from kiosk.events import parse_line
from kiosk.store import Store

ADMIN = SYSTEMD / "semedori-admin.sh"
PLAYER = '{{"type": "player", "at": "2026-11-01T18:00", "nick": "{}", "size": 13, "status": "guest", "strength": 0}}'

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the wrapper runs as root, like `sudo semedori` on the Pi")


@pytest.fixture
def pi(tmp_path: Path) -> dict[str, str]:
    """The wrapper's world: a data folder, the real restore behind a stand-in program, a stand-in systemctl."""
    log = tmp_path / "log"
    program = tmp_path / "semedori"
    program.write_text(
        "#!/bin/sh\n"
        f'echo "semedori $*" >> {log}\n'
        f"exec {sys.executable} -c "
        "'import sys; from kiosk.backup import restore_command; restore_command(sys.argv[2:], prog_name=\"semedori\")'"
        ' "$@"\n'
    )
    systemctl = tmp_path / "systemctl"
    systemctl.write_text(f'#!/bin/sh\necho "systemctl $*" >> {log}\n')
    for script in (program, systemctl):
        script.chmod(0o755)
    data = tmp_path / "data"
    with Store.open(data) as store:
        store.record(parse_line(PLAYER.format("Ada")))
        store.backup(tmp_path / "monday.sqlite3")
        store.record(parse_line(PLAYER.format("Bo")))
    return {
        **os.environ,
        "SEMEDORI_PROGRAM": str(program),
        "SEMEDORI_DATA": str(data),
        "SEMEDORI_USER": getpass.getuser(),
        "SEMEDORI_SYSTEMCTL": str(systemctl),
        "LOG": str(log),
    }


def admin(env: dict[str, str], *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(ADMIN), *map(str, args)], capture_output=True, text=True, env=env, timeout=60)


def calls(env: dict[str, str]) -> list[str]:
    log = Path(env["LOG"])
    return log.read_text().splitlines() if log.exists() else []


def nicks(env: dict[str, str]) -> list[str]:
    with Store.open(Path(env["SEMEDORI_DATA"])) as store:
        return [m.nick for m in store.magnets()]


STOP = "systemctl stop semedori-web.service semedori-display.service"
START = "systemctl start semedori-web.service semedori-display.service"


def test_restore_stops_the_kiosk_restores_and_starts_it_again(pi: dict[str, str], tmp_path: Path) -> None:
    backup = tmp_path / "monday.sqlite3"
    result = admin(pi, "restore", backup)
    assert result.returncode == 0, result.stderr
    assert calls(pi) == [STOP, f"semedori restore {backup}", START]
    assert "restored" in result.stdout
    assert nicks(pi) == ["Ada"]


def test_a_refused_restore_still_starts_the_kiosk_again(pi: dict[str, str], tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("not a backup")
    result = admin(pi, "restore", junk)
    assert result.returncode == 1
    assert "not a Semedori backup" in result.stderr
    assert calls(pi) == [STOP, f"semedori restore {junk}", START]
    assert sorted(nicks(pi)) == ["Ada", "Bo"]


def test_a_missing_file_stops_nothing(pi: dict[str, str], tmp_path: Path) -> None:
    result = admin(pi, "restore", tmp_path / "nowhere.sqlite3")
    assert result.returncode == 1
    assert "there is no backup file" in result.stderr
    assert calls(pi) == []


def test_other_commands_run_as_they_are(pi: dict[str, str]) -> None:
    admin(pi, "set-pin")
    assert calls(pi) == ["semedori set-pin"]


def test_a_copy_brought_in_leaves_a_backups_folder_the_nightly_backup_can_write(
    pi: dict[str, str], tmp_path: Path
) -> None:
    # A stand-in runuser that cannot read the backup, like the service user and a copy on a USB stick.
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    runuser = bin_folder / "runuser"
    runuser.write_text("#!/bin/sh\nexit 1\n")
    runuser.chmod(0o755)
    env = {**pi, "PATH": f"{bin_folder}:{pi['PATH']}"}
    result = admin(env, "restore", tmp_path / "monday.sqlite3")
    assert result.returncode == 0, result.stderr
    backups = Path(pi["SEMEDORI_DATA"]) / "backups"
    assert backups.stat().st_mode & 0o777 == 0o750
    assert [p.name.startswith("restore-") for p in backups.iterdir()] == [True]
    assert nicks(pi) == ["Ada"]


def test_import_from_a_home_folder_the_service_user_cannot_read(pi: dict[str, str], tmp_path: Path) -> None:
    """`sudo semedori import /home/club/club.jsonl` with the home 0700: the wrapper reads it for the service user."""
    home = tmp_path / "home" / "club"
    home.mkdir(parents=True)
    home.chmod(0o700)
    with Store.open(Path(pi["SEMEDORI_DATA"])) as store:
        (home / "club.jsonl").write_text("".join(f"{line}\n" for line in store.export_lines()))
    # The real `semedori` (kiosk.cli) behind the wrapper; a stand-in runuser for which the home is closed,
    # as it is for the user semedori on the Pi.
    log = Path(pi["LOG"])
    program = tmp_path / "semedori-cli"
    program.write_text(
        f'#!/bin/sh\necho "semedori $*" >> {log}\n'
        f"exec {sys.executable} -c 'import sys; from kiosk.cli import main; main(sys.argv[1:], prog_name=\"semedori\")'"
        ' "$@"\n'
    )
    program.chmod(0o755)
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    runuser = bin_folder / "runuser"
    # Called as `runuser -u USER -- test -r FILE` ($6 the file) or `runuser -u USER -- COMMAND...`.
    runuser.write_text(f'#!/bin/sh\ncase "$6" in {home}/*) exit 1 ;; esac\nshift 3\nexec "$@"\n')
    runuser.chmod(0o755)
    new_data = tmp_path / "new-card"  # an empty history on a new card, as the guide's "moving to a new Pi"
    Store.open(new_data).close()
    env = {**pi, "SEMEDORI_PROGRAM": str(program), "SEMEDORI_DATA": str(new_data), "PATH": f"{bin_folder}:{pi['PATH']}"}
    result = admin(env, "import", home / "club.jsonl")
    assert result.returncode == 0, result.stderr
    assert "imported 2 events" in result.stdout
    (called,) = calls(env)
    assert called.startswith(f"semedori import {new_data}/backups/import-")  # the copy the service user can read
    assert not list((new_data / "backups").glob("import-*"))  # and no copy left behind
    assert nicks({**env}) == ["Ada", "Bo"]


def test_import_of_a_missing_file_says_so(pi: dict[str, str], tmp_path: Path) -> None:
    result = admin(pi, "import", tmp_path / "nowhere.jsonl")
    assert result.returncode == 1
    assert "there is no history file" in result.stderr
    assert calls(pi) == []


@pytest.mark.parametrize("answers", [True, False])
def test_wall_check_restarts_the_wall_only_when_a_panel_answers(
    pi: dict[str, str], tmp_path: Path, answers: bool
) -> None:
    """`sudo semedori-admin wall-check`: the check runs as the service user; a panel found restarts the wall."""
    log = Path(pi["LOG"])
    program = tmp_path / "semedori-check"
    program.write_text(f'#!/bin/sh\necho "semedori $*" >> {log}\nexit {0 if answers else 1}\n')
    program.chmod(0o755)
    result = admin({**pi, "SEMEDORI_PROGRAM": str(program)}, "wall-check")
    assert result.returncode == (0 if answers else 1)
    restart = ["systemctl restart semedori-display.service"] if answers else []
    assert calls(pi) == ["semedori wall-check", *restart]
    assert ("The wall was restarted" in result.stdout) == answers
