"""Per-client write limits of `semedori serve`: one phone or script cannot hog the kiosk.

Every write takes the store's one write lock, so a script looping POSTs keeps every
phone waiting. Each address gets a bucket of writes that refills at a steady pace
(``WRITES_PER_MINUTE``, after a burst of ``WRITE_BURST``), and a smaller one for new
players (a phone adds a few guests an evening; a script added 33 a second). A write
over the limit is a 429 with Retry-After, in the phone's language, and saves nothing.
The owner's pages are not limited (they are behind the PIN).

`semedori serve` turns the limits on; the app factory leaves them off (tests post
hundreds of games from one test client).
"""

from __future__ import annotations

import math
import threading
import time

from flask import Flask, current_app, request
from werkzeug.wrappers import Response

WRITE_BURST, WRITES_PER_MINUTE = 20, 60
PLAYER_BURST, PLAYERS_PER_MINUTE = 10, 6
# Endpoints that write for a phone or an API client: (endpoint, is a new player).
WRITES = {
    "api.add_game": False,
    "api.add_player": True,
    "recording.record_game": False,
    "recording.undo": False,
    "recording.add_player": True,
}
MOST_CLIENTS = 10_000  # the buckets kept; full ones are forgotten first


class Buckets:
    """Token buckets by client address: ``burst`` writes at once, refilled at ``per_minute``."""

    def __init__(self, burst: int, per_minute: float) -> None:
        self.burst = burst
        self.per_second = per_minute / 60
        self.tokens: dict[str, tuple[float, float]] = {}  # address: (tokens, when counted)
        self.lock = threading.Lock()

    def _level(self, address: str, now: float) -> float:
        tokens, since = self.tokens.get(address, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - since) * self.per_second)

    def wait(self, address: str, now: float) -> float:
        """Seconds this address must wait before its next write; 0 when it may write now."""
        with self.lock:
            tokens = self._level(address, now)
            return 0.0 if tokens >= 1 else (1 - tokens) / self.per_second

    def take(self, address: str, now: float) -> None:
        """Count one write of this address."""
        with self.lock:
            if len(self.tokens) >= MOST_CLIENTS:
                self.tokens = {a: (t, s) for a, (t, s) in self.tokens.items() if self._level(a, now) < self.burst}
            self.tokens[address] = (self._level(address, now) - 1, now)


def limit_writes() -> Response | None:
    """Before a phone's or API client's write: a 429 when its address wrote too much too fast."""
    limits: tuple[Buckets, Buckets] | None = current_app.extensions.get("semedori-limits")
    if limits is None or request.method != "POST" or request.endpoint not in WRITES:
        return None
    from web.owner import is_owner  # the owner is trusted: the PIN is the limit

    if is_owner() or request.form.get("action") == "preview":  # a preview without JavaScript saves nothing
        return None
    writes, players = limits
    address, now = request.remote_addr or "?", time.monotonic()
    buckets = [writes, players] if WRITES[request.endpoint] else [writes]
    wait = max(bucket.wait(address, now) for bucket in buckets)
    if wait > 0:
        from web.errors import too_many

        return too_many(math.ceil(wait))
    for bucket in buckets:
        bucket.take(address, now)
    return None


def init_app(app: Flask) -> None:
    """Turn the limits on when the app's configuration asks (``WRITE_LIMITS``)."""
    if app.config.get("WRITE_LIMITS"):
        app.extensions["semedori-limits"] = (
            Buckets(WRITE_BURST, app.config.get("WRITES_PER_MINUTE", WRITES_PER_MINUTE)),
            Buckets(PLAYER_BURST, app.config.get("PLAYERS_PER_MINUTE", PLAYERS_PER_MINUTE)),
        )
    app.before_request(limit_writes)
