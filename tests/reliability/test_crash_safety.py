"""Crash safety: a process recording games is killed (SIGKILL) at random moments, hundreds of
times. After each kill the file is sound, every game that was acknowledged is in the history
exactly once, and the board equals a fresh replay. The game in flight at the kill is sent
again afterwards, as a phone that got no answer would, and is recorded once."""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from itertools import count
from pathlib import Path

from form_fields import hidden_fields
from harness import CLUB, HERE, Phone, Server, assert_nothing_lost, free_port, game_body, integrity, make_club

from kiosk.config import DATABASE_NAME
from kiosk.store import Store

# How many kills: enough that each way of breaking crash safety tried on this code fails the test
# many times over. A write split into two transactions, a game acknowledged one write before its
# commit, and a re-sent game recorded again were each caught within the first 12 kills of the
# store (10 runs each) and the first 4 of the server (5 runs each); 200 and 40 kills once took a
# minute on a quiet 2-core machine and three on a busy one.
STORE_KILLS = 60
KILLS_PER_CLUB = 20
SERVER_KILLS = 20
FIRST_START_KILLS = 30


class Recorder:
    """recorder.py: forks a child that records through the store until it is killed."""

    def __init__(self, logs: Path) -> None:
        self.log = logs / "recorder.log"
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, str(HERE / "recorder.py")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log
            )
        assert self.line() == "ready"

    def line(self) -> str:
        """The next line the recorder or its child wrote."""
        assert self.process.stdout is not None
        text = self.process.stdout.readline().decode()
        assert text, f"the recorder stopped: {self.log.read_text(errors='replace')[-2000:]}"
        return text.strip()

    def run_and_kill(self, folder: Path, what: str, delay: float, after_first_ack: bool = True) -> list[int]:
        """Start a child (``what``: the first game to record, or ``new``); SIGKILL it ``delay`` s after
        its first acknowledgement (or after its start); the numbers it acknowledged."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{folder} {what}\n".encode())
        self.process.stdin.flush()
        acknowledged: list[int] = []
        pid = None
        while pid is None or (after_first_ack and not acknowledged):
            word, number = self.line().split()
            # A child that fails before its first acknowledgement must fail the test, not leave it waiting.
            assert word != "done", f"the child stopped by itself: {self.log.read_text(errors='replace')[-2000:]}"
            if word == "ack":
                acknowledged.append(int(number))
            else:
                pid = int(number)
        time.sleep(delay)
        os.kill(pid, signal.SIGKILL)
        while True:
            word, number = self.line().split()
            if word == "done":
                status = int(number)
                break
            acknowledged.append(int(number))
        died = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        assert died, f"the child stopped by itself: {self.log.read_text(errors='replace')[-2000:]}"
        return acknowledged

    def close(self) -> None:
        """End the recorder (its stdin closes, its loop ends)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)
        self.process.stdout.close()


class ServerForks:
    """server_forks.py: forks `semedori serve` on a folder, again after every kill, without a new interpreter."""

    def __init__(self, logs: Path) -> None:
        self.log = logs / "server-forks.log"
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, str(HERE / "server_forks.py")],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
            )
        assert self.line() == "ready"

    def line(self) -> str:
        """The next line the forking process wrote."""
        assert self.process.stdout is not None
        text = self.process.stdout.readline().decode()
        assert text, f"the forking process stopped: {self.log.read_text(errors='replace')[-2000:]}"
        return text.strip()

    def fork(self, server: Server) -> int:
        """Start `semedori serve` for this server's folder, port and log; its pid."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{server.home} {server.port} {server.log} {server.threads}\n".encode())
        self.process.stdin.flush()
        word, pid = self.line().split()
        assert word == "pid"
        return int(pid)

    def reaped(self) -> int:
        """The wait status of the child that ended."""
        word, status = self.line().split()
        assert word == "done"
        return int(status)

    def close(self) -> None:
        """End the forking process (its stdin closes, its loop ends)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)
        self.process.stdout.close()


class ForkedServer(Server):
    """`semedori serve` as a child of ServerForks: started, SIGKILLed and stopped like the harness's Server."""

    def __init__(self, home: Path, forks: ServerForks) -> None:
        super().__init__(home)
        self.forks = forks
        self.pid: int | None = None

    def start(self) -> ForkedServer:
        self.port = free_port()
        self.pid = self.forks.fork(self)
        pid = self.pid

        def stopped() -> bool:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:  # the forking process has reaped it: it ended
                return True
            return False

        self.answering(stopped)
        return self

    def kill(self) -> None:
        assert self.pid is not None
        os.kill(self.pid, signal.SIGKILL)
        status = self.forks.reaped()
        self.pid = None
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, "the server stopped by itself"

    def stop(self) -> None:
        if self.pid is None:
            return
        os.kill(self.pid, signal.SIGTERM)
        self.forks.reaped()
        self.pid = None


def test_sigkill_of_a_process_recording_through_the_store_loses_no_acknowledged_game(tmp_path: Path) -> None:
    rng = random.Random(20261130)
    acknowledged = in_flight_kept = in_history = 0
    started = time.monotonic()
    recorder = Recorder(tmp_path)
    try:
        for club_number in range(STORE_KILLS // KILLS_PER_CLUB):
            # A fresh club now and then keeps the history short, so the checks after each kill stay quick.
            club = make_club(tmp_path / f"club-{club_number}")
            answered: list[str] = []
            next_game = 0
            for _ in range(KILLS_PER_CLUB):
                games = recorder.run_and_kill(club, str(next_game), rng.uniform(0.005, 0.060))
                assert games == list(range(next_game, next_game + len(games)))
                answered += [f"crash-{n}" for n in games]
                next_game += len(games)
                counts = assert_nothing_lost(club, answered)
                # The game in flight at the kill is either wholly in the history or not at all;
                # the next child sends it again (same key), and it must still be there once.
                in_flight_kept += counts.get(f"crash-{next_game}", 0)
            acknowledged += len(answered)
            in_history += len(assert_nothing_lost(club, answered))
    finally:
        recorder.close()
    seconds = time.monotonic() - started
    print(
        f"\nstore: {STORE_KILLS} kills, {acknowledged} acknowledged games checked after every kill, "
        f"{in_history} games in the history, {in_flight_kept} in the history though killed before "
        f"the answer (sent again, recorded once), 0 lost, {seconds:.1f} s"
    )


def test_sigkill_during_the_first_start_leaves_a_kiosk_that_starts_with_all_or_nothing(tmp_path: Path) -> None:
    rng = random.Random(20261202)
    outcomes = {"empty": 0, "whole club": 0}
    recorder = Recorder(tmp_path)
    try:
        for n in range(FIRST_START_KILLS):
            folder = tmp_path / f"new-{n}"
            imported = recorder.run_and_kill(folder, "new", rng.uniform(0.0, 0.030), after_first_ack=False)
            if (folder / DATABASE_NAME).exists():
                assert integrity(folder) == ["ok"]
            with Store.open(folder) as store:  # the kiosk starts again on what the kill left
                assert store.check() == []
                players = len(list(store.export_lines()))
                assert players in (0, len(CLUB)), "the club's import was cut in half"
                assert players == len(CLUB) or not imported, "an acknowledged import is gone"
                if players == 0:  # the organiser imports again, and it works
                    store.import_history([json.dumps(line) for line in CLUB])
                    assert store.check() == []
            outcomes["whole club" if players else "empty"] += 1
    finally:
        recorder.close()
    print(f"\nfirst start: {FIRST_START_KILLS} kills, {outcomes}")


def post_until_refused(host: str, client: int, start: int, answered: list[tuple[int, bool]], wrong: list[str]) -> None:
    """Post games with keys ``server-CLIENT-N`` from ``start`` until the server is gone; note each 201."""
    connection = http.client.HTTPConnection(host, timeout=30)
    try:
        for n in count(start):
            body = json.dumps(game_body(n, key=f"server-{client}-{n}")).encode()
            try:
                connection.request("POST", "/api/games", body=body, headers={"Content-Type": "application/json"})
                response = connection.getresponse()
                text = response.read().decode()
            except (OSError, http.client.HTTPException):
                return  # killed: no answer, so nothing was acknowledged
            if response.status != 201 or "id" not in json.loads(text):
                wrong.append(f"{response.status} {text}")
                return
            answered.append((n, response.headers.get("Idempotent-Replayed") == "true"))
    finally:
        connection.close()


def test_sigkill_of_the_web_server_loses_no_game_it_answered_201(tmp_path: Path) -> None:
    rng = random.Random(20261201)
    acknowledged = resent_and_replayed = in_history = 0
    started = time.monotonic()
    forks = ServerForks(tmp_path)
    try:
        for club_number in range(SERVER_KILLS // KILLS_PER_CLUB):
            club = make_club(tmp_path / f"club-{club_number}")
            answered, replayed = kill_the_server_again_and_again(club, KILLS_PER_CLUB, rng, forks)
            acknowledged += len(answered)
            resent_and_replayed += replayed
            in_history += len(assert_nothing_lost(club, answered))
    finally:
        forks.close()
    seconds = time.monotonic() - started
    print(
        f"\nserver: {SERVER_KILLS} kills, {acknowledged} games answered 201 checked after every restart, "
        f"{in_history} games in the history, {resent_and_replayed} re-sent after a kill and found already "
        f"recorded (recorded once), 0 lost, {seconds:.1f} s"
    )


def kill_the_server_again_and_again(
    club: Path, kills: int, rng: random.Random, forks: ServerForks
) -> tuple[list[str], int]:
    """Two clients post while the server is SIGKILLed, restarted and checked; the keys answered 201."""
    clients = (0, 1)
    next_game = dict.fromkeys(clients, 0)
    acknowledged: list[str] = []
    wrong: list[str] = []
    resent_and_replayed = 0
    server = ForkedServer(club, forks).start()
    try:
        for _ in range(kills):
            answered: dict[int, list[tuple[int, bool]]] = {c: [] for c in clients}
            posting = [
                threading.Thread(target=post_until_refused, args=(server.host, c, next_game[c], answered[c], wrong))
                for c in clients
            ]
            for thread in posting:
                thread.start()
            while not all(answered.values()) and all(t.is_alive() for t in posting):  # kill while recording
                time.sleep(0.002)
            time.sleep(rng.uniform(0.0, 0.15))
            server.kill()
            for thread in posting:
                thread.join(timeout=30)
            assert wrong == [], "only a 201 may answer a valid game"
            for c in clients:
                games = [n for n, _ in answered[c]]
                assert games == list(range(next_game[c], next_game[c] + len(games)))
                acknowledged += [f"api-game:127.0.0.1:server-{c}-{n}" for n in games]
                resent_and_replayed += sum(replayed for _, replayed in answered[c])
                next_game[c] += len(games)  # the game in flight is sent again after the restart
            server = ForkedServer(club, forks).start()  # a fresh server on the same data folder
            assert_nothing_lost(club, acknowledged)
    finally:
        server.stop()
    assert server.errors_logged() == []
    return acknowledged, resent_and_replayed


def test_a_web_secret_left_empty_by_a_crash_does_not_break_the_forms(club: Path) -> None:
    # The kiosk makes its signing key on the first start; a kill or power cut between
    # creating the file and writing it leaves it empty. The next start must still save games.
    (club / "web-secret").write_text("")
    server = Server(club).start()
    try:
        phone = Phone(server.host)
        status, _, page = phone.send("GET", "/new?size=13&a=Ala&b=Bartek")
        assert status == 200
        form = hidden_fields(page) | {"size": "13", "a": "Ala", "b": "Bartek", "winner": "a", "by": "resignation"}
        status, location, _ = phone.send("POST", "/new", form | {"action": "save"})
        assert status == 302 and location.startswith("/games/")
    finally:
        server.stop()
    assert len((club / "web-secret").read_text().strip()) == 64
    assert_nothing_lost(club, [f"form:{phone.cookies['phone']}:{form['once']}"])  # the phone's own key
