"""The web app under waitress in a thread of the test's process, as `semedori serve` runs it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from waitress import wasyncore
from waitress.server import BaseWSGIServer, create_server

from web.serving import guard, settings


@contextmanager
def served_app(app: Any, threads: int = 4) -> Iterator[BaseWSGIServer]:
    """Serve ``app`` on 127.0.0.1 (a free port: ``server.effective_port``) until the block ends.

    The end closes every connection too, not only the listening socket: a browser's idle
    keep-alive connection otherwise kept waitress's loop running, and each test's teardown
    waited five seconds for a thread that would not stop.
    """
    # The kiosk's own adjustments and guard (web/serving.py), with poll(), not select(): closing the
    # server while its loop waits makes select() fail with EBADF there; poll() reports the descriptor.
    sockets: dict[int, Any] = {}
    server = create_server(app, map=sockets, host="127.0.0.1", port=0, **settings(threads))
    assert isinstance(server, BaseWSGIServer)  # one address: one server, not a multi-socket one
    guard(server)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.task_dispatcher.shutdown()
        # Closed in the loop's own thread (the trigger runs it there), so no socket closes under its poll.
        server.trigger.pull_trigger(lambda: wasyncore.close_all(sockets))
        thread.join(timeout=30)
        assert not thread.is_alive(), "waitress's loop did not stop"
