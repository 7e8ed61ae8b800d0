"""Tell systemd the wall is alive: a tiny sd_notify client, no dependency.

Under systemd (``Type=notify``, ``WatchdogSec=``) the service manager hands the
process ``$NOTIFY_SOCKET``, a unix datagram socket. The display says ``READY=1``
once the panel is set up, then ``WATCHDOG=1`` regularly from its main loop. If the
loop hangs (a stuck SPI bus, a refresh that never returns), the pings stop and
systemd restarts the service. Outside systemd every call does nothing, so the same
loop runs on a laptop.

Example::

    from display import sdnotify

    watchdog = sdnotify.Watchdog()
    panel = open_panel()
    sdnotify.ready()
    while True:
        watchdog.tick()        # cheap: sends a ping only every half interval
        refresh_if_changed(panel)
        time.sleep(1)
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable


def _address() -> str | None:
    """The socket address from ``$NOTIFY_SOCKET``; '@' is the abstract namespace."""
    path = os.environ.get("NOTIFY_SOCKET", "")
    if not path:
        return None
    if path.startswith("@"):
        # Linux abstract sockets start with a NUL byte; systemd writes it as '@'.
        return "\0" + path[1:]
    if not path.startswith("/"):
        # systemd also knows vsock addresses (for VMs); a kiosk never gets one.
        return None
    return path


def notify(state: str) -> bool:
    """Send ``state`` (e.g. ``"STATUS=drawing"``) to systemd; False when not under systemd."""
    address = _address()
    if address is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(state.encode("utf-8"))
    except OSError:
        # A lost notification must never stop the wall; systemd will restart us if it matters.
        return False
    return True


def ready(status: str | None = None) -> bool:
    """Say the service has started (``READY=1``), with an optional status line."""
    return notify("READY=1" if status is None else f"READY=1\nSTATUS={status}")


def status(text: str) -> bool:
    """A one-line status shown by ``systemctl status semedori-display``."""
    return notify(f"STATUS={text}")


def stopping() -> bool:
    """Say the service is shutting down on purpose (``STOPPING=1``)."""
    return notify("STOPPING=1")


def watchdog_ping() -> bool:
    """Tell systemd the main loop is alive (``WATCHDOG=1``)."""
    return notify("WATCHDOG=1")


def watchdog_interval() -> float | None:
    """Seconds systemd waits for a ping (``$WATCHDOG_USEC``), or None when there is no watchdog.

    ``$WATCHDOG_PID``, when set, names the process meant to ping; another process (a
    child the display started, say) must not, so it gets None.
    """
    raw_usec = os.environ.get("WATCHDOG_USEC", "")
    raw_pid = os.environ.get("WATCHDOG_PID", "")
    try:
        usec = int(raw_usec)
    except ValueError:
        return None
    if usec <= 0:
        return None
    if raw_pid:
        try:
            if int(raw_pid) != os.getpid():
                return None
        except ValueError:
            return None
    return usec / 1_000_000


class Watchdog:
    """Pings systemd at half its watchdog interval when ``tick()`` is called from the main loop.

    Call ``tick()`` often (every loop turn); it costs a clock read until a ping is due.
    Whatever blocks the loop (a panel refresh) must take less than half the interval,
    or systemd counts the wall as hung.
    """

    def __init__(self, interval: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = watchdog_interval() if interval is None else interval
        self._clock = clock
        self._last: float | None = None

    @property
    def enabled(self) -> bool:
        """True when systemd expects pings from this process."""
        return self.interval is not None

    @property
    def started(self) -> bool:
        """True once the first ping went (the service said READY=1 before it, in the loop)."""
        return self._last is not None

    def ping(self) -> bool:
        """Ping now, whatever the interval: before a long step that, late in the interval, could outlast it."""
        if self.interval is None:
            return False
        self._last = self._clock()
        return watchdog_ping()

    def tick(self) -> bool:
        """Ping when half the interval has passed since the last ping; True when it pinged."""
        if self.interval is None:
            return False
        now = self._clock()
        if self._last is not None and now - self._last < self.interval / 2:
            return False
        self._last = now
        return watchdog_ping()
