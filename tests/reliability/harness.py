"""The reliability tests' tools: a small club, a real `semedori serve` in its own
process (so it can be killed like a Pi losing power), plain HTTP clients, and the checks
that nothing acknowledged was lost."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import http.client
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from kiosk.config import DATABASE_NAME
from kiosk.store import Store

HERE = Path(__file__).resolve().parent

# Four members on 13x13: every pairing is a valid game with a winner (no draws needed).
PLAYERS = ["Ala", "Bartek", "Celina", "Darek"]
CLUB = [
    {"type": "player", "at": f"2026-01-01T10:0{n}", "nick": nick, "size": 13, "status": "member", "strength": s}
    for n, (nick, s) in enumerate(zip(PLAYERS, [20, 22, 25, 28], strict=True))
]


def semedori_command() -> str:
    """The installed `semedori` console script of this interpreter's environment."""
    beside = Path(sys.executable).with_name("semedori")
    found = str(beside) if beside.exists() else shutil.which("semedori")
    assert found, "the `semedori` command is not installed (pip install -e .)"
    return found


def make_club(folder: Path) -> Path:
    """A data folder holding the four members; returns it."""
    with Store.open(folder) as store:
        store.import_history([json.dumps(line) for line in CLUB])
    return folder


def imported_once(folder: Path, lines: list[str]) -> Path:
    """A data folder holding these history lines: imported once per machine, then copied (a 50,000-game club
    takes seconds to import on a quiet machine and most of a minute on a busy one).

    The copy is keyed by the lines and by the core's source, so a change to either imports afresh;
    a lock makes two test processes wanting it at once import it once.
    """
    code = hashlib.sha256()
    for path in sorted((HERE.parents[1] / "kiosk").rglob("*.py")):
        code.update(path.read_bytes())
    key = hashlib.sha256("\n".join(lines).encode() + code.digest()).hexdigest()[:20]
    kept = Path(tempfile.gettempdir()) / f"semedori-test-club-{key}"
    with open(f"{kept}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (kept / DATABASE_NAME).exists():
            building = Path(tempfile.mkdtemp(prefix=f"{kept.name}-", dir=kept.parent))
            with Store.open(building) as store:
                store.import_history(lines)
            building.rename(kept)  # whole or not at all: a build cut short leaves only its scratch folder
    shutil.copytree(kept, folder)
    return folder


def game_body(index: int, key: str | None = None) -> dict[str, Any]:
    """A valid game of the club for the JSON API, the same for the same index."""
    rng = random.Random(index)
    a, b = rng.sample(PLAYERS, 2)
    body: dict[str, Any] = {"size": 13, "players": [a, b], "winner": rng.choice([a, b])}
    body["by"] = rng.choice(["resignation", None, rng.randrange(1, 40) + 0.5])
    if key is not None:
        body["key"] = key
    return body


# --- the real server ------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`semedori serve` on 127.0.0.1 in its own process, on a data folder."""

    def __init__(self, home: Path, threads: int = 8, limits: bool = False, ready: int = 200) -> None:
        self.home = home
        self.ready = ready  # the status of GET /api/board that says it is up (503 on a damaged database)
        self.threads = threads
        # The load and crash tests post hundreds of games from one address: without the
        # per-client write limit unless a test is about it (then `serve`'s own defaults).
        self.limits = limits
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.log = home.parent / "serve.log"

    @property
    def host(self) -> str:
        """host:port, for http.client."""
        return f"127.0.0.1:{self.port}"

    def start(self) -> Server:
        """Start the server and wait until it answers."""
        self.port = free_port()
        command = [semedori_command(), "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        if not self.limits:
            command += ["--writes-per-minute", "0"]
        environment = {**os.environ, "SEMEDORI_HOME": str(self.home)}
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [*command, "--threads", str(self.threads)], env=environment, stdout=log, stderr=log
            )
        return self.answering(lambda: self.process is not None and self.process.poll() is not None)

    def answering(self, stopped: Callable[[], bool]) -> Server:
        """Wait until the server answers (``stopped``: whether its process has ended meanwhile)."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if stopped():
                raise AssertionError(f"semedori serve stopped: {self.log.read_text(errors='replace')[-2000:]}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                status, _, _ = request(self.host, "GET", "/api/board?size=13")
                if status == self.ready:
                    return self
            time.sleep(0.02)
        raise AssertionError("semedori serve did not answer within 30 s")

    def errors_logged(self) -> list[str]:
        """The log's errors and tracebacks (waitress's queue-depth warnings under load are fine)."""
        lines = self.log.read_text(errors="replace").splitlines() if self.log.exists() else []
        return [line for line in lines if line.startswith(("ERROR", "CRITICAL", "Traceback"))]

    def kill(self) -> None:
        """SIGKILL: the server dies mid-work, as on a power cut."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        """A polite stop (SIGTERM), then SIGKILL if it does not go."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


# --- HTTP as a phone or an integration sends it ----------------------------------------------


def request(
    host: str, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, http.client.HTTPMessage, str]:
    """One request on a fresh connection: status, headers and body text."""
    connection = http.client.HTTPConnection(host, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.headers, response.read().decode()
    finally:
        connection.close()


def post_game(host: str, body: dict[str, Any]) -> tuple[int, http.client.HTTPMessage, str]:
    """POST /api/games with a JSON body."""
    return request(host, "POST", "/api/games", json.dumps(body).encode(), {"Content-Type": "application/json"})


class Phone:
    """A phone's browser without the browser: keeps its cookies, does not follow redirects."""

    def __init__(self, host: str) -> None:
        self.host = host
        self.cookies: dict[str, str] = {}
        self.lock = threading.Lock()  # a double tap sends from two threads at once

    def send(self, method: str, path: str, fields: dict[str, str] | None = None) -> tuple[int, str, str]:
        """Status, Location header and page text of one request."""
        with self.lock:
            cookies = dict(self.cookies)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
        body = None
        if fields is not None:
            body = urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        status, answer, text = request(self.host, method, path, body, headers)
        for line in answer.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(line).items():
                with self.lock:
                    self.cookies[name] = morsel.value
        return status, answer.get("Location", ""), text


# --- nothing lost -------------------------------------------------------------------------------


def key_counts(home: Path) -> dict[str, int]:
    """How many history entries carry each idempotency key."""
    with contextlib.closing(sqlite3.connect(home / DATABASE_NAME, timeout=30)) as db:
        return dict(db.execute("SELECT key, count(*) FROM event WHERE key IS NOT NULL GROUP BY key"))


def integrity(home: Path) -> list[str]:
    """PRAGMA integrity_check on a connection of its own (the first to open after a crash)."""
    with contextlib.closing(sqlite3.connect(home / DATABASE_NAME, timeout=30)) as db:
        return [row[0] for row in db.execute("PRAGMA integrity_check")]


def assert_nothing_lost(home: Path, acknowledged: Iterable[str]) -> dict[str, int]:
    """The file is sound, every acknowledged key is in the history once, and the board is a fresh replay."""
    assert integrity(home) == ["ok"]
    counts = key_counts(home)
    lost = [key for key in acknowledged if counts.get(key) != 1]
    assert lost == [], f"acknowledged but not in the history exactly once: {lost[:10]}"
    with Store.open(home) as store:
        assert store.check() == []
        games = store.db.execute("SELECT count(*) FROM event WHERE type = 'game'").fetchone()[0]
        keyed = store.db.execute("SELECT count(*) FROM event WHERE type = 'game' AND key IS NOT NULL").fetchone()[0]
    assert games == keyed == len(counts), "a game without its key, or a key twice"
    return counts
