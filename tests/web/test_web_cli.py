"""`semedori serve` under waitress, and `semedori set-pin`."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from click.testing import CliRunner
from club_days import on_the_club_clock

from kiosk.store import Store
from web import create_app
from web.cli import serve_command, set_pin_command
from web.pin import check_pin


def free_port() -> int:
    """A port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_serve_answers_phones_on_every_port_asked(home: Path) -> None:
    ports = [free_port(), free_port()]
    command = [sys.executable, "-c", "from web.cli import serve_command; serve_command()", "--host", "127.0.0.1"]
    for port in ports:
        command += ["--port", str(port)]
    env = {"SEMEDORI_HOME": str(home), "PATH": "/usr/bin:/bin"}
    with subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as server:
        try:
            for port in ports:
                page = ""
                for _ in range(100):
                    try:
                        with urllib.request.urlopen(f"http://127.0.0.1:{port}/?size=9", timeout=2) as response:
                            page = response.read().decode()
                        break
                    except OSError:
                        time.sleep(0.1)
                assert "Bianka" in page, server.stderr.read() if server.poll() is not None else "no answer"
        finally:
            server.terminate()
            server.wait(timeout=10)
        assert "no owner PIN yet" in (server.stderr.read() if server.stderr else "")


def test_set_pin_stores_only_a_hash_that_the_owner_page_accepts(hidden, home: Path) -> None:
    result = CliRunner().invoke(set_pin_command, input="4711\n4711\n", env={"SEMEDORI_HOME": str(home)})
    assert result.exit_code == 0, result.output
    with Store.open(home) as store:
        stored = store.config.owner_pin_hash
    assert "4711" not in stored and check_pin("4711", stored)
    assert "4711" not in (home / "semedori.toml").read_text()
    client = create_app(on_the_club_clock({"SEMEDORI_HOME": str(home)})).test_client()

    fields = hidden(client.get("/owner/login").get_data(as_text=True))
    assert client.post("/owner/login", data={**fields, "pin": "4711"}).status_code == 302


def test_set_pin_refuses_a_short_pin(home: Path) -> None:
    result = CliRunner().invoke(set_pin_command, ["--pin", "12"], env={"SEMEDORI_HOME": str(home)})
    assert result.exit_code == 1
    assert "4 to 12 digits" in result.output


def test_every_command_has_help() -> None:
    for command in (serve_command, set_pin_command):
        result = CliRunner().invoke(command, ["--help"])
        assert result.exit_code == 0 and command.help
