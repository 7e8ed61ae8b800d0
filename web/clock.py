"""The kiosk's clock as the web app reads it: the Pi's, or the phones' while the Pi has no internet time.

One ``now()`` for every view (recording, the owner's corrections, tonight's page, the API):
a correction must come after the games it corrects, and all of them follow the same clock
(kiosk/clock.py decides whom to trust; kiosk/clockfile.py keeps what it learned).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from flask import current_app, request

from kiosk import clockfile
from kiosk.clock import ClockState
from kiosk.rules import club_now
from web.request_store import get_store


def now() -> datetime:
    """The club's local time now, by the kiosk's clock (the phones' while the Pi has no NTP)."""
    return club_now(get_store().config, kiosk_utc_now())


def pi_clock() -> datetime:
    """The Pi's own clock (UTC); the browser tests give the app a skewed one."""
    clock: Callable[[], datetime] = current_app.config.get("SEMEDORI_PI_CLOCK", lambda: datetime.now(UTC))
    return clock()


def timesync_flag() -> Path:
    """The file systemd-timesyncd writes once NTP has set the Pi's clock (the browser tests give another)."""
    return Path(current_app.config.get("SEMEDORI_TIMESYNC_FLAG", clockfile.SYNCHRONIZED))


def kiosk_utc_now() -> datetime:
    """The kiosk's time (UTC), read without learning anything."""
    return clockfile.current(Path(current_app.config["SEMEDORI_HOME"]), pi_clock(), timesync_flag())[0]


def kiosk_clock_state() -> ClockState:
    """What the kiosk knows about the time now (for the owner page)."""
    return clockfile.current(Path(current_app.config["SEMEDORI_HOME"]), pi_clock(), timesync_flag())[1]


def hear_phone_clock() -> datetime:
    """Learn from the phone's clock the form carried (hidden field ``phone_clock``); the kiosk's UTC now."""
    folder = Path(current_app.config["SEMEDORI_HOME"])
    return clockfile.heard(
        folder, request.form.get("phone_clock", ""), pi_clock(), timesync_flag(), request.remote_addr or ""
    )
