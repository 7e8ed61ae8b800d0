"""A write that waits too long for the lock says "busy, try again", and the kiosk logs it.

Another process (a long replay, the owner's command line) holds the write lock longer
than a phone should wait. On main the phone waited 30 s and then read "storage is full
or read-only", and nothing was logged. Now: 503 with Retry-After, "busy, try again" in
the phone's language, a warning in the log, and the next try after the lock is free works.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from harness import Server, game_body, post_game, request

from kiosk.config import DATABASE_NAME


def test_a_lock_held_too_long_is_busy_try_again_with_retry_after_and_logged(server: Server, club: Path) -> None:
    holder = sqlite3.connect(club / DATABASE_NAME, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # as a long replay in another process would
    try:
        # The English and the Polish phone wait at the same time: each waits the whole busy timeout.
        with ThreadPoolExecutor(2) as phones:
            started = time.monotonic()
            polish = phones.submit(
                request,
                server.host,
                "POST",
                "/api/games",
                json.dumps(game_body(2)).encode(),
                {"Content-Type": "application/json", "Accept-Language": "pl"},
            )
            status, headers, text = post_game(server.host, game_body(1))
            api_seconds = time.monotonic() - started
            polish_status, polish_headers, polish_text = polish.result()
    finally:
        with contextlib.suppress(sqlite3.Error):
            holder.execute("ROLLBACK")
        holder.close()
    print(
        f"\nwrite lock held by another process: {status} after {api_seconds:.1f} s, Retry-After "
        f"{headers.get('Retry-After')}: {text.strip()}\npl: {polish_text.strip()}"
    )
    assert status == polish_status == 503
    assert headers.get("Retry-After") == polish_headers.get("Retry-After") == "5"
    assert "busy" in text and "try again" in text
    error = json.loads(polish_text)["error"]  # {"error": text}, or {"error": {"code", "message"}}
    assert "zajęty" in (error["message"] if isinstance(error, dict) else error)
    assert "full" not in text and "read-only" not in text
    assert api_seconds < 15  # not half a minute
    log = server.log.read_text(errors="replace")
    assert "write lock" in log and "WARNING" in log
    # The lock is free again: the same game goes in.
    assert post_game(server.host, game_body(1))[0] == 201
