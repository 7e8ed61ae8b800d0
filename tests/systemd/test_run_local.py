"""`make run`: the web app and the wall together on a laptop, stopped together by Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from deployment import SYSTEMD

RUN_LOCAL = SYSTEMD / "run-local.sh"

# Stands in for `semedori`: records how it was called, then runs until stopped.
FAKE_SEMEDORI = """#!/usr/bin/env bash
echo "$*" >> "$SEMEDORI_HOME/calls"
case $1 in
demo) echo '{"type": "note"}' > "$SEMEDORI_HOME/semedori.sqlite3" ;;
export) cat "$SEMEDORI_HOME/semedori.sqlite3" 2>/dev/null ;;
serve) [ -n "$BROKEN_WEB" ] && exit 3; echo $$ > "$SEMEDORI_HOME/serve.pid"; exec sleep 60 ;;
*) echo $$ > "$SEMEDORI_HOME/$1.pid"; exec sleep 60 ;;
esac
"""


def test_dry_run_says_what_it_would_start(tmp_path: Path) -> None:
    env = {**os.environ, "SEMEDORI_HOME": str(tmp_path / "demo")}
    out = subprocess.run(["bash", str(RUN_LOCAL), "--dry-run"], capture_output=True, text=True, env=env, check=True)
    assert f"data folder: {tmp_path / 'demo'}" in out.stdout
    assert "serve --host 127.0.0.1 --port 8080" in out.stdout
    assert "display --panel png" in out.stdout
    assert "Open http://127.0.0.1:8080" in out.stdout
    assert not (tmp_path / "demo").exists()


def alive(pid: int) -> bool:
    """Still running (a zombie waiting to be reaped has stopped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


# The stand-in programs start and stop at once, so nothing here takes time of its own: each wait
# lasts as long as the script needs on a busy machine, bounded only by a hung script (a minute).
HUNG = 60.0


def wait_for(condition: Callable[[], bool], run: subprocess.Popen[str] | subprocess.Popen[bytes] | None = None) -> None:
    """Wait until ``condition`` holds; fail after HUNG seconds, or at once if ``run`` (the script) ended first."""
    deadline = time.monotonic() + HUNG
    while time.monotonic() < deadline:
        if condition():
            return
        ended = run is not None and run.poll() is not None
        assert not ended or condition(), f"run-local.sh ended (status {run and run.returncode}) before it was so"
        time.sleep(0.05)
    raise AssertionError(f"run-local.sh hung: not so after {HUNG:.0f} s")


def stop_if_hung(run: subprocess.Popen[str] | subprocess.Popen[bytes]) -> None:
    """A failing test must not hang the run: end the script after HUNG seconds whatever happens."""
    import threading

    timer = threading.Timer(HUNG, lambda: run.poll() is None and run.kill())
    timer.daemon = True
    timer.start()


def test_starts_both_on_the_demo_club_and_ctrl_c_stops_both(tmp_path: Path) -> None:
    fake = tmp_path / "semedori"
    fake.write_text(FAKE_SEMEDORI)
    fake.chmod(0o755)
    home = tmp_path / "demo"
    env = {**os.environ, "SEMEDORI_HOME": str(home), "SEMEDORI": str(fake)}
    with subprocess.Popen(["bash", str(RUN_LOCAL)], stdout=subprocess.PIPE, text=True, env=env) as run:
        stop_if_hung(run)
        wait_for(lambda: (home / "serve.pid").exists() and (home / "display.pid").exists(), run)
        pids = [int((home / f"{name}.pid").read_text()) for name in ("serve", "display")]
        assert all(alive(pid) for pid in pids)
        calls = (home / "calls").read_text().splitlines()
        assert calls[:2] == ["export", "demo"]
        assert sorted(calls[2:]) == ["display --panel png", "serve --host 127.0.0.1 --port 8080"]

        assert run.stdout is not None
        assert run.stdout.readline().strip() == "Open http://127.0.0.1:8080"

        run.send_signal(signal.SIGINT)  # what Ctrl-C sends
        assert run.wait(timeout=HUNG) == 0
        wait_for(lambda: not any(alive(pid) for pid in pids))
        assert "stopping" in run.stdout.read()


def test_an_existing_club_is_not_replaced_by_the_demo(tmp_path: Path) -> None:
    fake = tmp_path / "semedori"
    fake.write_text(FAKE_SEMEDORI)
    fake.chmod(0o755)
    home = tmp_path / "club"
    home.mkdir()
    (home / "semedori.sqlite3").write_bytes(b'{"type": "note", "note": "our club"}')
    env = {**os.environ, "SEMEDORI_HOME": str(home), "SEMEDORI": str(fake)}
    with subprocess.Popen(["bash", str(RUN_LOCAL)], stdout=subprocess.DEVNULL, env=env) as run:
        stop_if_hung(run)
        wait_for(lambda: (home / "serve.pid").exists() and (home / "display.pid").exists(), run)
        run.send_signal(signal.SIGTERM)
        run.wait(timeout=HUNG)
    assert (home / "calls").read_text().splitlines()[0] == "export"
    assert "demo" not in (home / "calls").read_text().splitlines()
    assert b"our club" in (home / "semedori.sqlite3").read_bytes()


def test_when_the_web_app_fails_the_wall_is_stopped_too(tmp_path: Path) -> None:
    fake = tmp_path / "semedori"
    fake.write_text(FAKE_SEMEDORI)
    fake.chmod(0o755)
    home = tmp_path / "demo"
    env = {**os.environ, "SEMEDORI_HOME": str(home), "SEMEDORI": str(fake), "BROKEN_WEB": "1"}
    with subprocess.Popen(["bash", str(RUN_LOCAL)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env) as run:
        stop_if_hung(run)
        assert run.wait(timeout=HUNG) == 3
        assert run.stderr is not None
        assert "stopped by itself (exit status 3)" in run.stderr.read().decode()
    wall = int((home / "display.pid").read_text()) if (home / "display.pid").exists() else None
    assert wall is None or not alive(wall)


def test_it_names_the_addresses_a_phone_can_open_and_the_exact_set_pin_command(tmp_path: Path) -> None:
    env = {**os.environ, "SEMEDORI_HOME": str(tmp_path / "demo"), "HOST": "0.0.0.0"}
    out = subprocess.run(["bash", str(RUN_LOCAL), "--dry-run"], capture_output=True, text=True, env=env, check=True)
    assert "serve --host 0.0.0.0 --port 8080" in out.stdout
    assert "Open http://127.0.0.1:8080" in out.stdout
    own = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    for ip in (ip for ip in own if ":" not in ip):
        assert f"On a phone on the same Wi-Fi, open http://{ip}:8080" in out.stdout
    pin = next(line for line in out.stdout.splitlines() if line.startswith("Owner PIN for this club: "))
    command = pin.removeprefix("Owner PIN for this club: ")
    assert command == f"SEMEDORI_HOME={tmp_path / 'demo'} {SYSTEMD.parent / '.venv/bin/semedori'} set-pin"
    # Typed as printed (from any folder), it sets the PIN of exactly that club.
    subprocess.run(f"{command} --pin 2468", shell=True, check=True, cwd=tmp_path, capture_output=True)
    from kiosk.store import Store

    with Store.open(tmp_path / "demo") as store:
        assert store.config.owner_pin_hash
    local = subprocess.run(
        ["bash", str(RUN_LOCAL), "--dry-run"],
        capture_output=True,
        text=True,
        check=True,
        env={**env, "HOST": "127.0.0.1"},
    )
    assert "for a phone on the same Wi-Fi: make run HOST=0.0.0.0" in local.stdout
