"""The display tells systemd it is alive: a real datagram socket stands in for systemd."""

from __future__ import annotations

import itertools
import os
import socket
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from display import sdnotify


@pytest.fixture
def systemd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    """A fake service manager: a unix datagram socket named by $NOTIFY_SOCKET."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    yield sock
    sock.close()


def received(sock: socket.socket) -> list[str]:
    """Every message waiting on the socket, in order."""
    messages = []
    sock.setblocking(False)
    try:
        while True:
            messages.append(sock.recv(4096).decode())
    except BlockingIOError:
        pass
    finally:
        sock.settimeout(2)
    return messages


def test_ready_then_watchdog_pings_reach_systemd(systemd: socket.socket) -> None:
    assert sdnotify.ready()
    assert sdnotify.watchdog_ping()
    assert sdnotify.watchdog_ping()
    assert received(systemd) == ["READY=1", "WATCHDOG=1", "WATCHDOG=1"]


def test_ready_can_carry_a_status_line(systemd: socket.socket) -> None:
    sdnotify.ready("showing 13x13")
    sdnotify.status("refreshing the panel")
    assert received(systemd) == ["READY=1\nSTATUS=showing 13x13", "STATUS=refreshing the panel"]


def test_abstract_socket_address(monkeypatch: pytest.MonkeyPatch) -> None:
    # systemd writes an abstract socket as '@name'; the kernel wants a NUL byte first.
    name = f"semedori-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert sdnotify.ready()
        assert sock.recv(4096) == b"READY=1"


def test_outside_systemd_nothing_is_sent_and_nothing_breaks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    assert sdnotify.ready() is False
    assert sdnotify.watchdog_ping() is False
    watchdog = sdnotify.Watchdog()
    assert not watchdog.enabled
    assert watchdog.tick() is False


def test_a_vanished_socket_does_not_stop_the_wall(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    assert sdnotify.watchdog_ping() is False


def test_watchdog_interval_comes_from_systemd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "120000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert sdnotify.watchdog_interval() == 120.0
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert sdnotify.watchdog_interval() == 120.0


def test_watchdog_meant_for_another_process_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "120000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    assert sdnotify.watchdog_interval() is None


@pytest.mark.parametrize("raw", ["", "0", "-5", "soon"])
def test_no_usable_watchdog_interval(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", raw)
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert sdnotify.watchdog_interval() is None


def test_watchdog_pings_at_half_the_interval(systemd: socket.socket, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")  # WatchdogSec=10
    now = [0.0]
    watchdog = sdnotify.Watchdog(clock=lambda: now[0])
    pinged_at = []
    for moment in (0.0, 1.0, 4.9, 5.0, 7.0, 9.9, 10.1, 12.0):
        now[0] = moment
        if watchdog.tick():
            pinged_at.append(moment)
    assert pinged_at == [0.0, 5.0, 10.1]
    assert received(systemd) == ["WATCHDOG=1"] * 3


def test_watchdog_in_a_real_loop_never_lets_systemd_wait_a_whole_interval(
    systemd: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "400000")  # 0.4 s, so the test is quick
    watchdog = sdnotify.Watchdog()
    sdnotify.ready()
    times = []
    end = time.monotonic() + 1.3
    while time.monotonic() < end:
        if watchdog.tick():
            times.append(time.monotonic())
        time.sleep(0.01)
    messages = received(systemd)
    assert messages[0] == "READY=1"
    assert set(messages[1:]) == {"WATCHDOG=1"}
    assert len(messages) - 1 == len(times) >= 4
    gaps = [b - a for a, b in itertools.pairwise(times)]
    # Never more often than half the interval, never as late as the whole interval.
    assert all(0.2 <= gap < 0.4 for gap in gaps)


def test_a_forced_ping_goes_at_once_and_restarts_the_half_interval(systemd: socket.socket) -> None:
    now = [0.0]
    watchdog = sdnotify.Watchdog(interval=10.0, clock=lambda: now[0])
    assert watchdog.tick()
    now[0] = 3.0
    assert watchdog.ping()  # between two long steps: not waiting for half the interval
    now[0] = 7.0
    assert not watchdog.tick()  # 4 s after the forced ping
    now[0] = 8.0
    assert watchdog.tick()
    assert received(systemd) == ["WATCHDOG=1"] * 3
    assert not sdnotify.Watchdog(interval=None).ping()  # no watchdog: nothing sent
