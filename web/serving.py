"""waitress as `semedori serve` runs it: settings that keep phones answered under a flood.

waitress's defaults suit a server behind a proxy, not a Pi on a club Wi-Fi: 100
connections in all, and a silent client kept for two minutes. A teenager's script that
opens 110 sockets and sends half a header would shut every phone out. Here:

- the server takes up to ``CONNECTIONS`` connections (a socket that sends nothing costs
  only a file descriptor until the request is whole; waitress queues no thread for it),
  and watches them with poll() rather than select(), which stops at 1,024 descriptors;
- a connection silent for ``IDLE_SECONDS`` is closed (checked every ``CLEANUP_SECONDS``);
- one address may hold at most ``PER_CLIENT`` connections: the next ones are closed at
  once, so a single machine cannot take the whole server's share;
- a request's whole head (its first line and headers) must arrive within ``HEAD_SECONDS``
  of its first byte, and its body at ``BODY_BYTES_PER_SECOND`` on average after that: a
  slow trickle (one byte every 4 s) no longer passes the idle cut forever;
- at most ``HALF_OPEN`` connections may wait for a request to arrive whole at once, well
  below the server's limit: the next one closes the one that has waited longest (a
  phone's request arrives in milliseconds, a trickle's never), so 21 addresses × 48
  trickling connections no longer reach the limit and shut every phone out.
"""

from __future__ import annotations

import logging
import resource
import threading
import time
import types
from collections import Counter
from typing import Any, ClassVar

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import BaseWSGIServer, create_server

log = logging.getLogger(__name__)

CONNECTIONS = 1000
PER_CLIENT = 48  # a browser opens about 6 per site; several phones (or the load test's 33) behind one address fit
IDLE_SECONDS = 10  # a phone on bad Wi-Fi still sends something every few seconds
CLEANUP_SECONDS = 2
REQUEST_HEADER_BYTES = 32 * 1024  # a phone's header is well under 2 KB
REQUEST_BODY_BYTES = 32 * 1024 * 1024  # the history upload is the largest body (see MAX_CONTENT_LENGTH)
HEAD_SECONDS = 10  # a phone's head is one packet; on bad Wi-Fi a few seconds at worst
BODY_BYTES_PER_SECOND = 16 * 1024  # the slowest upload taken: a 1 MB history file in a minute on bad Wi-Fi
BODY_SECONDS = 120  # a chunked body (no length said) must arrive whole within this
HALF_OPEN = 200  # connections waiting for a request at once: 16 phones × 6 sockets with room to spare


class TimedParser(HTTPRequestParser):
    """waitress's request parser, knowing when the request's first byte arrived (the clock of the head deadline)."""

    def __init__(self, adj: Any) -> None:
        super().__init__(adj)
        self.started = time.monotonic()


def waiting_since(channel: Any) -> float | None:
    """When a connection began waiting for a whole request (a monotonic time); None while it has one."""
    if channel.requests or channel.will_close or channel.close_when_flushed:
        return None
    request = channel.request
    if request is None:  # nothing sent yet, or between two requests: since its last byte (waitress keeps wall time)
        return time.monotonic() - (time.time() - float(channel.last_activity))
    return None if request.completed else float(getattr(request, "started", 0.0))


def too_slow(request: Any, now: float) -> bool:
    """True when a request still arriving is past its deadline: the head's, then the body's by its length."""
    if request is None or request.completed:
        return False
    started = float(getattr(request, "started", now))
    if not request.headers_finished:
        return now - started > HEAD_SECONDS
    body = BODY_SECONDS if request.chunked else request.content_length / BODY_BYTES_PER_SECOND
    return now - started > HEAD_SECONDS + body


class ClientChannel(HTTPChannel):
    """A waitress connection that counts towards its address's share, and towards the connections awaiting a head."""

    parser_class = TimedParser
    held: ClassVar[Counter[str]] = Counter()
    refused: ClassVar[Counter[str]] = Counter()
    evicted: ClassVar[int] = 0
    _lock = threading.Lock()

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
        self._client = str(addr[0]) if isinstance(addr, tuple) else str(addr)
        with self._lock:
            self.held[self._client] += 1
            over = self.held[self._client] > PER_CLIENT
        if not over:
            _make_room(server)  # in the server's loop thread, as every other look at its channels
        self._counted = True
        super().__init__(server, sock, addr, adj, map)
        if over:
            with self._lock:
                self.refused[self._client] += 1
                first = self.refused[self._client] == 1
            if first:  # once per address, so a flood does not flood the log too
                log.warning("more than %d connections from %s: closing the extra ones", PER_CLIENT, self._client)
            self.close()

    def del_channel(self, map: Any = None) -> None:
        """Give the address its share back when the connection goes (once, however it goes)."""
        super().del_channel(map)
        if getattr(self, "_counted", False):
            self._counted = False
            with self._lock:
                self.held[self._client] -= 1
                if self.held[self._client] <= 0:
                    del self.held[self._client]
                    self.refused.pop(self._client, None)


def _make_room(server: Any) -> None:
    """Before a new connection counts: close the longest-waiting ones while HALF_OPEN await a whole request."""
    waiting = []
    for channel in list(server.active_channels.values()):
        since = waiting_since(channel)
        if since is not None:
            waiting.append((since, id(channel), channel))
    if len(waiting) < HALF_OPEN:
        return
    waiting.sort(key=lambda each: each[:2])
    for _, _, channel in waiting[: len(waiting) - HALF_OPEN + 1]:
        channel.will_close = True  # closed by the loop at its next turn
        ClientChannel.evicted += 1
        if ClientChannel.evicted == 1:
            log.warning("more than %d connections wait for a whole request: closing the longest waiting", HALF_OPEN)


def _maintenance(server: Any, now: float) -> None:
    """waitress's idle cut, and the deadlines: a request that has not arrived whole in time is closed."""
    BaseWSGIServer.maintenance(server, now)  # type: ignore[arg-type]  # types-waitress says int; waitress passes time.time()
    steady = time.monotonic()
    for channel in list(server.active_channels.values()):
        if too_slow(channel.request, steady):
            channel.will_close = True


def settings(threads: int) -> dict[str, Any]:
    """The waitress adjustments `semedori serve` uses."""
    return {
        "threads": threads,
        "connection_limit": CONNECTIONS,
        "channel_timeout": IDLE_SECONDS,
        "cleanup_interval": CLEANUP_SECONDS,
        "asyncore_use_poll": True,
        "max_request_header_size": REQUEST_HEADER_BYTES,
        "max_request_body_size": REQUEST_BODY_BYTES,
        "ident": "semedori",
    }


def _enough_descriptors() -> None:
    """Raise the soft limit of open files to what the connection limit needs (Debian's default is 1,024)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = CONNECTIONS + 200  # the database, logs, the listening sockets
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def guard(server: BaseWSGIServer) -> None:
    """Give a waitress server the kiosk's connections: shares per address, the head deadline, the half-open cap."""
    server.channel_class = ClientChannel
    # waitress has no hook for its idle cut: this one server's maintenance is replaced.
    server.maintenance = types.MethodType(_maintenance, server)  # type: ignore[method-assign]  # see above


def serve(app: Any, listen: str, threads: int) -> None:
    """Serve ``app`` until stopped."""
    _enough_descriptors()
    sockets: dict[int, Any] = {}
    server = create_server(app, map=sockets, listen=listen, **settings(threads))
    for each in sockets.values():
        if isinstance(each, BaseWSGIServer):
            guard(each)
    server.print_listen("Serving on http://{}:{}")
    server.run()
