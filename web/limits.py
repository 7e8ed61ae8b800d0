"""Per-client write limits of `semedori serve`: one phone or script cannot hog the kiosk.

Every write takes the store's one write lock, so a script looping POSTs keeps every
phone waiting. Each address gets a bucket of writes that refills at a steady pace
(``WRITES_PER_MINUTE``, after a burst of ``WRITE_BURST``), and a smaller one for new
players (a phone adds a few guests an evening; a script added 33 a second). A write
over the limit is a 429 with Retry-After, in the phone's language, and saves nothing.

Every request that may write (POST, PUT, PATCH, DELETE) is counted, whichever route it
is for (check-in, the events' taps and the add-guest preview had been left
out): a route added later is limited the day it is added, and
``tests/web/test_web_limits.py`` walks the app's routes to prove it. Only two kinds of
POST save nothing and are not counted: the game form's "show the handicap" without
JavaScript, and the add-guest form's first step, which only shows the field. The
owner is not limited (the PIN is the limit).

`semedori serve` turns the limits on; the app factory leaves them off (tests post
hundreds of games from one test client).
"""

from __future__ import annotations

import contextlib
import math
import threading
import time

from flask import Flask, abort, current_app, request
from werkzeug.wrappers import Response

WRITE_BURST, WRITES_PER_MINUTE = 20, 60
PLAYER_BURST, PLAYERS_PER_MINUTE = 10, 6
WRITING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Endpoints that add a player: they count in the smaller bucket of new players too.
NEW_PLAYERS = frozenset({"api.add_player", "recording.add_player"})
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


def saves_nothing() -> bool:
    """True for the two POSTs that only show something: they cost no write."""
    if request.endpoint == "recording.record_game":
        return request.form.get("action") == "preview"  # the handicap without JavaScript; nothing saved
    if request.endpoint == "recording.add_player":
        # The first step shows the field the guest would start on; only a form that comes back
        # with that confirmation can save (web.recording.add_player), and it is counted.
        return not request.form.get("confirmed")
    return False


def limit_writes() -> Response | None:
    """Before any write from a phone or an API client: a 429 when its address wrote too much too fast."""
    limits: tuple[Buckets, Buckets] | None = current_app.extensions.get("semedori-limits")
    if limits is None or request.method not in WRITING or saves_nothing():
        return None
    from web.auth import is_owner  # the owner is trusted: the PIN is the limit

    if is_owner():
        return None
    writes, players = limits
    address, now = request.remote_addr or "?", time.monotonic()
    buckets = [writes, players] if request.endpoint in NEW_PLAYERS else [writes]
    wait = max(bucket.wait(address, now) for bucket in buckets)
    if wait > 0:
        from web.error_pages import too_many

        return too_many(math.ceil(wait))
    for bucket in buckets:
        bucket.take(address, now)
    return None


API_BODY_BYTES = 64 * 1024  # a game or a player is under 1 KB; only the owner's history upload is large
FORM_BODY_BYTES = 64 * 1024  # the longest form (the owner's settings) is under 4 KB
DEEPEST_JSON = 8  # a game's body is 2 levels deep
# Where a body may be large: the owner's history upload (MAX_CONTENT_LENGTH, web/__init__.py).
LARGE_BODIES = frozenset({"owner.import_history"})


def limit_body() -> None:
    """Bodies are small: a larger one is a 413 before it is read (the API's and the forms' alike).

    Everything a phone sends may end up on the card (a token becomes a history key), so no
    form but the owner's history upload may be larger than a form needs.
    """
    if request.method not in WRITING or request.endpoint in LARGE_BODIES:
        return
    most = API_BODY_BYTES if request.path.startswith("/api/") else FORM_BODY_BYTES
    if request.content_length is not None and request.content_length > most:
        abort(413)
    with contextlib.suppress(AttributeError):  # Flask 3.1: a chunked body is cut off when read, too
        request.max_content_length = most


def json_depth(data: bytes) -> int:
    """How deeply ``[`` and ``{`` nest in a JSON text (outside strings), without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


def init_app(app: Flask) -> None:
    """Turn the limits on when the app's configuration asks (``WRITE_LIMITS``)."""
    if app.config.get("WRITE_LIMITS"):
        app.extensions["semedori-limits"] = (
            Buckets(app.config.get("WRITE_BURST", WRITE_BURST), app.config.get("WRITES_PER_MINUTE", WRITES_PER_MINUTE)),
            Buckets(PLAYER_BURST, app.config.get("PLAYERS_PER_MINUTE", PLAYERS_PER_MINUTE)),
        )
    app.before_request(limit_body)
    app.before_request(limit_writes)
