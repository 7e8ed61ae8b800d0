"""An idle-connection flood against the real `semedori serve` (what the Pi runs).

300 sockets each send half a request header and then nothing. A phone's board page and a
game post must still be answered in under a second; the half-open sockets are cut off after
a short idle timeout; one address cannot hold more than its share of connections.

Everything stays on the loopback: the flood comes from other 127.x.y.z addresses (all of
127/8 is this machine on Linux), the phone from 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import time
from collections.abc import Iterator

import pytest
from harness import Server, game_body

SOCKETS = 300
HALF_HEADER = b"GET / HTTP/1.1\r\nHost: kiosk\r\nUser-Agent: slow"


def timed(host: str, method: str, path: str, body: bytes | None = None) -> tuple[int, float]:
    """Status and seconds of one phone request from 127.0.0.1 (given up after 5 s: the test stays bounded)."""
    started = time.monotonic()
    connection = http.client.HTTPConnection(host, timeout=5)
    headers = {"Content-Type": "application/json"} if body else {}
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, time.monotonic() - started
    except (TimeoutError, OSError, http.client.HTTPException):
        return 0, time.monotonic() - started
    finally:
        connection.close()


@contextlib.contextmanager
def half_headers(port: int, addresses: list[str]) -> Iterator[list[socket.socket]]:
    """One socket per address in ``addresses``, each having sent half a request header."""
    opened: list[socket.socket] = []
    try:
        for address in addresses:
            sock = socket.socket()
            sock.settimeout(5)
            sock.bind((address, 0))
            with contextlib.suppress(OSError):  # a server that limits accepting may refuse some
                sock.connect(("127.0.0.1", port))
                sock.sendall(HALF_HEADER)
            opened.append(sock)
        time.sleep(0.5)  # the server has seen them all
        yield opened
    finally:
        for sock in opened:
            sock.close()


def closed_by_server(sock: socket.socket) -> bool:
    """True when the server has hung up on this socket (end of stream or a reset)."""
    sock.setblocking(False)
    try:
        return sock.recv(1024) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def phone_is_answered(server: Server, n: int) -> list[tuple[str, int, float]]:
    """The board page and a game post, timed."""
    answers = []
    status, seconds = timed(server.host, "GET", "/")
    answers.append(("GET /", status, seconds))
    status, seconds = timed(server.host, "POST", "/api/games", json.dumps(game_body(n)).encode())
    answers.append(("POST /api/games", status, seconds))
    return answers


@pytest.fixture
def flood_server(club) -> Iterator[Server]:  # type: ignore[no-untyped-def]
    running = Server(club, threads=4, limits=True).start()  # `semedori serve` as the Pi runs it
    try:
        yield running
    finally:
        running.stop()


def test_300_half_header_sockets_from_many_addresses_leave_the_phone_answered_within_a_second(
    flood_server: Server,
) -> None:
    # 30 addresses with 10 sockets each: under any per-address limit, so only the server-wide limit matters.
    addresses = [f"127.0.1.{1 + n % 30}" for n in range(SOCKETS)]
    with half_headers(flood_server.port, addresses) as flood:
        answers = phone_is_answered(flood_server, 1)
        print(f"\n300 half-header sockets from 30 addresses: {answers}")
        assert [(what, status) for what, status, _ in answers] == [("GET /", 200), ("POST /api/games", 201)]
        assert max(seconds for _, _, seconds in answers) < 1.0
        # Idle and slow clients are cut off after a short timeout (not waitress's two minutes).
        started = time.monotonic()
        while time.monotonic() - started < 30 and not all(closed_by_server(s) for s in flood):
            time.sleep(0.5)
        cut = sum(closed_by_server(s) for s in flood)
        print(f"cut off by the server after {time.monotonic() - started:.1f} s: {cut} of {SOCKETS}")
        assert cut == SOCKETS
    assert flood_server.errors_logged() == []


def test_one_address_holding_300_sockets_gets_only_its_share_and_the_phone_is_answered(flood_server: Server) -> None:
    with half_headers(flood_server.port, ["127.0.0.2"] * SOCKETS) as flood:
        answers = phone_is_answered(flood_server, 2)
        print(f"\n300 half-header sockets from one address: {answers}")
        assert [(what, status) for what, status, _ in answers] == [("GET /", 200), ("POST /api/games", 201)]
        assert max(seconds for _, _, seconds in answers) < 1.0
        held = SOCKETS - sum(closed_by_server(s) for s in flood)
        print(f"sockets the server keeps for that address: {held}")
        assert held <= 48
