"""A slow trickle against the real `semedori serve`, on the loopback only.

On main a connection sending one byte every few seconds stayed past the 10 s idle cut for
good, and 21 addresses × 48 such connections reached waitress's limit of 1,000: every
honest phone then timed out. Now a request's whole head must arrive within HEAD_SECONDS
(its body then at BODY_BYTES_PER_SECOND), and at most HALF_OPEN connections may wait for a
whole request at once (the longest waiting is closed for a new one), so phones are answered
while the attacker trickles, and reconnects.

Every loop here is bounded in time; the attacker's sockets all close at the end.
"""

from __future__ import annotations

import contextlib
import http.client
import select
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from harness import Server

from web.serving import BODY_BYTES_PER_SECOND, CLEANUP_SECONDS, HEAD_SECONDS, PER_CLIENT

ATTACKERS = [f"127.0.{20 + n // 200}.{1 + n % 200}" for n in range(21)]
START = b"GET /api/board?size=13 HTTP/1.1\r\nHost: localhost\r\nX-Slow: "


class Trickle:
    """Connections from many addresses, each sending one byte every ``every`` seconds and reopened when closed."""

    def __init__(self, port: int, addresses: list[str], per_address: int, every: float, seconds: float) -> None:
        self.port, self.every, self.seconds = port, every, seconds
        self.slots = [address for address in addresses for _ in range(per_address)]
        self.sockets: list[socket.socket | None] = [None] * len(self.slots)
        self.closed_by_server = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self, slot: int) -> None:
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((self.slots[slot], 0))
        with contextlib.suppress(BlockingIOError, OSError):
            sock.connect(("127.0.0.1", self.port))
        self.sockets[slot] = sock

    def _run(self) -> None:
        deadline = time.monotonic() + self.seconds
        for slot in range(len(self.slots)):
            self._open(slot)
        first = True
        while time.monotonic() < deadline and not self.stop.is_set():
            for slot, sock in enumerate(self.sockets):
                try:
                    assert sock is not None
                    sock.send(START if first else b"a")
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:  # the server closed it: the attacker opens another at once
                    self.closed_by_server += 1
                    if sock is not None:
                        sock.close()
                    self._open(slot)
            first = False
            self.stop.wait(self.every)

    def __enter__(self) -> Trickle:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join(timeout=30)
        for sock in self.sockets:
            if sock is not None:
                sock.close()


def phone_answered(server: Server, timeout: float = 3.0) -> bool:
    """One phone opens the board (from 127.0.0.1) and is answered within ``timeout`` seconds."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        connection.request("GET", "/api/board?size=13")
        return connection.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def cut_after(sock: socket.socket, byte: bytes, bound: float) -> float | None:
    """Send one byte a second (never idle) until the server closes the socket: the seconds it took, or None."""
    started = time.monotonic()
    with contextlib.closing(sock):
        while time.monotonic() - started < bound:
            try:
                sock.sendall(byte)
                readable, _, _ = select.select([sock], [], [], 1)
                if readable and sock.recv(1) == b"":  # the server closed it
                    return time.monotonic() - started
            except OSError:
                return time.monotonic() - started
    return None


def test_a_trickled_head_and_a_trickled_body_are_cut_off_at_their_deadlines(server: Server) -> None:
    # Both trickle at once, from addresses of their own: neither deadline depends on the other connection,
    # and the test waits for the longer one only.
    head = socket.create_connection(("127.0.0.1", server.port), timeout=2, source_address=("127.0.19.1", 0))
    head.sendall(START)
    with ThreadPoolExecutor(1) as other:
        head_cut = other.submit(cut_after, head, b"a", HEAD_SECONDS + CLEANUP_SECONDS + 10)
        body = socket.create_connection(("127.0.0.1", server.port), timeout=2, source_address=("127.0.19.2", 0))
        length = 64 * 1024  # a whole head at once, then a 64 KB body a byte a second: allowed 10 + 4 s
        body.sendall(b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n")
        body.sendall(f"Content-Length: {length}\r\n\r\n{{".encode())
        allowed = HEAD_SECONDS + length / BODY_BYTES_PER_SECOND
        body_cut = cut_after(body, b" ", allowed + CLEANUP_SECONDS + 10)
        cut = head_cut.result()
    print(f"\na head trickled a byte a second was cut after {cut} s")
    print(f"a body trickled a byte a second was cut after {body_cut} s (allowed {allowed} s)")
    assert cut is not None and HEAD_SECONDS - 1 <= cut <= HEAD_SECONDS + 2 * CLEANUP_SECONDS + 1
    assert body_cut is not None and allowed - 1 <= body_cut <= allowed + 2 * CLEANUP_SECONDS + 1


def test_phones_are_answered_while_21_addresses_trickle_48_connections_each(server: Server) -> None:
    assert phone_answered(server)
    seconds = HEAD_SECONDS + 8
    with Trickle(server.port, ATTACKERS, PER_CLIENT, every=2, seconds=seconds) as trickle:
        time.sleep(2)  # the attacker's 1,008 connections are open
        tries = []
        until = time.monotonic() + seconds - 3
        while time.monotonic() < until:
            tries.append(phone_answered(server))
            time.sleep(0.25)
    answered = sum(tries)
    print(
        f"\nwhile 21 addresses trickled {len(trickle.slots)} connections: phones answered {answered} of {len(tries)}; "
        f"the server closed {trickle.closed_by_server} of the attacker's"
    )
    assert answered >= 0.9 * len(tries)
    assert trickle.closed_by_server > 0
    assert phone_answered(server)  # and afterwards, as always
