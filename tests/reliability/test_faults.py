"""Faults of the machine, not of the phone: a full card, a read-only card, a backup taken
mid-write, a panel that throws or hangs. The phone gets a clear answer, and nothing
acknowledged is ever lost.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from club_days import days_back_for, on_the_club_clock
from flask.testing import FlaskClient
from PIL import Image

import web.request_store
from display.panels import PanelError, PanelTimeoutError
from display.profiles import profile
from display.refresh import Wall, picture_hash
from display.render import render
from display.settings import DisplaySettings
from display.wall import View, from_source
from kiosk.backup import restore
from kiosk.events import parse_line
from kiosk.store import Store
from web import create_app

NICKS = ["Ala", "Bolek", "Celina", "Darek"]


def make_club(folder: Path) -> Path:
    """Four members on 9x9 whose every pairing may end with either one winning."""
    with Store.open(folder) as store:
        for n, nick in enumerate(NICKS):
            line = {
                "type": "player",
                "at": "2026-11-01T10:00",
                "nick": nick,
                "size": 9,
                "status": "member",
                "strength": 20 + n,
            }
            store.record(parse_line(json.dumps(line)))
        # Phones may date games back to the club's start (Nov 2026) from the app's clock (1 December), and nobody
        # rests: all hang.
        store.save_config(store.config.with_changes(days_back=days_back_for([line]), sleeper_weeks=0))
    return folder


def game_form(i: int) -> dict[str, str]:
    """The i-th game as a phone fills in the form (CSRF is off in these tests; the one-time token is set)."""
    a, b = NICKS[i % 4], NICKS[(i + 1) % 4]
    return {
        "size": "9",
        "a": a,
        "b": b,
        "winner": "ab"[i % 2],
        "by": "points",
        "points": f"{i % 20 + 0.5}",
        "at": f"2026-11-{10 + i % 15:02d}T19:{i % 60:02d}",
        "once": f"game-{i}",
    }


def game_event(i: int) -> object:
    """The i-th game as a history event."""
    a, b = NICKS[i % 4], NICKS[(i + 1) % 4]
    line = {
        "type": "game",
        "at": f"2026-11-{10 + i % 15:02d}T19:{i % 60:02d}",
        "size": 9,
        "players": [a, b],
        "winner": a if i % 2 else b,
        "by": "resignation",
    }
    return parse_line(json.dumps(line))


def stored_keys(folder: Path) -> list[str]:
    """The idempotency keys in the history, in entry order, without the phone they belong to.

    A form's key is ``form:<phone cookie>:<token>`` once the phone has its cookie;
    these tests name the tokens.
    """
    with Store.open(folder) as store:
        rows = store.db.execute("SELECT key FROM event WHERE key IS NOT NULL ORDER BY seq")
        return [re.sub(r"^form:[^:]+:", "form:", key) for (key,) in rows]


# --- a full card ------------------------------------------------------------------------------------


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[tuple[FlaskClient, Path]]:
    """The web app as `semedori serve` runs it (one store per thread), on a club's data folder."""
    folder = make_club(tmp_path / "data")
    app = create_app(
        on_the_club_clock(
            {"SEMEDORI_HOME": str(folder), "TESTING": True, "WTF_CSRF_ENABLED": False, "STORE_PER_THREAD": True}
        )
    )
    yield app.test_client(), folder
    kept = getattr(web.request_store._threads, "stores", {}).pop(folder, None)
    if kept:
        kept[0].close()


def fill_the_card(folder: Path) -> None:
    """Let the web's own SQLite connection grow no more: the next new page is a real SQLITE_FULL."""
    store = web.request_store._threads.stores[folder][0]
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    assert store.db.execute(f"PRAGMA max_page_count={pages}").fetchone()[0] == pages


def free_the_card(folder: Path) -> None:
    """The owner made room: the connection may grow again."""
    web.request_store._threads.stores[folder][0].db.execute("PRAGMA max_page_count=1073741823")


def until_refused(send, saved: list[str], key_of) -> tuple[int, object]:
    """Send the i-th request until one is refused (games fit into pages already there until one
    needs a new page); acknowledged ones go into ``saved``. The refused index and response."""
    for i in range(200):
        response = send(i)
        if response.status_code not in (201, 302):
            return i, response
        saved.append(key_of(i))
    raise AssertionError("the card never filled up")


def test_a_full_card_says_cannot_save_keeps_the_form_and_loses_no_earlier_game(
    kiosk: tuple[FlaskClient, Path],
) -> None:
    phone, folder = kiosk
    saved: list[str] = []
    for i in range(3):
        assert phone.post("/new", data=game_form(i)).status_code == 302
        saved.append(f"form:game-{i}")
    fill_the_card(folder)

    def form(i: int) -> object:
        return phone.post("/new", data=game_form(i + 3), headers={"Accept-Language": "pl"})

    refused, response = until_refused(form, saved, lambda i: f"form:game-{i + 3}")
    page = response.get_data(as_text=True)
    assert response.status_code == 503
    assert "kiosk nie może teraz zapisać" in page  # the phone's language
    typed = game_form(refused + 3)
    for field in ("a", "b", "points", "at"):
        assert f'value="{typed[field]}"' in page, field
    english = phone.post("/new", data=typed)
    assert english.status_code == 503
    assert "cannot save right now" in english.get_data(as_text=True)

    def api(i: int) -> object:
        # "again": the phone just recorded Ala – Bolek, and without it the API asks first (409).
        game = {"size": 9, "players": ["Ala", "Bolek"], "winner": "Ala", "key": f"k{i}", "again": True}
        return phone.post("/api/games", json=game)

    _, response = until_refused(api, saved, lambda i: f"api-game:127.0.0.1:k{i}")
    assert response.status_code == 503
    assert "cannot save" in response.get_json()["error"]["message"]

    def guest(i: int) -> object:
        fields = {"nick": f"Ewa {i}", "size": "9", "start": "zero", "once": f"guest-{i}"}
        return phone.post("/players/new", data={**fields, "confirmed": f"Ewa {i}|9|None|None"})

    refused, response = until_refused(guest, saved, lambda i: f"form:guest-{i}")
    assert response.status_code == 503
    assert f'value="Ewa {refused}"' in response.get_data(as_text=True)

    assert stored_keys(folder) == saved  # every acknowledged write, and nothing half-written
    with Store.open(folder) as store:
        assert store.check() == []
        games = [key for key in saved if "game" in key]
        assert len(store.recent_games(limit=1000)) == len(games)

    free_the_card(folder)
    again = phone.post("/new", data=typed)
    assert again.status_code == 302
    assert stored_keys(folder) == [*saved, typed["once"].join(("form:", ""))]


# --- a read-only card ----------------------------------------------------------------------------------

READ_ONLY_SCRIPT = textwrap.dedent(
    """
    import json, subprocess, sys
    from pathlib import Path
    from web import create_app  # before tests/ is on the path: its tests/web folder would stand in for the package

    sys.path[:0] = [sys.argv[3], str(Path(sys.argv[3]).parent)]  # and tests/, as pytest has it (club_days)
    from club_days import on_the_club_clock
    from test_faults import game_form, make_club

    root, view = Path(sys.argv[1]), Path(sys.argv[2])
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(root)], check=True)
    folder = make_club(root / "data")
    test_mode = {"TESTING": True, "WTF_CSRF_ENABLED": False}
    phone = create_app(on_the_club_clock({"SEMEDORI_HOME": str(folder), **test_mode})).test_client()
    first = phone.post("/new", data=game_form(0)).status_code
    # The card turns read-only (as a worn SD card does): the kiosk now sees the folder read-only.
    view.mkdir()
    subprocess.run(["mount", "--bind", str(folder), str(view)], check=True)
    subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], check=True)
    phone = create_app(on_the_club_clock({"SEMEDORI_HOME": str(view), **test_mode})).test_client()
    form = phone.post("/new", data=game_form(1))
    api = phone.post("/api/games", json={"size": 9, "players": ["Ala", "Bolek"], "winner": "Ala"})
    page = phone.get("/")
    from kiosk.store import Store
    with Store.open(folder) as store:  # the card as it was: what did it keep?
        kept = [key for (key,) in store.db.execute("SELECT key FROM event WHERE key IS NOT NULL ORDER BY seq")]
        problems = store.check()
    print(json.dumps({"kept": kept, "problems": problems, "first": first, "form": form.status_code,
                      "form_text": form.get_data(as_text=True),
                      "api": api.status_code, "api_text": api.get_data(as_text=True), "board": page.status_code}))
    """
)


def test_a_read_only_card_says_cannot_save_and_keeps_every_earlier_game(tmp_path: Path) -> None:
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("a read-only mount needs root and unshare")
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "true"], capture_output=True)
    if probe.returncode:
        pytest.skip(f"no private mount namespace here: {probe.stderr.decode().strip()}")
    root, view = tmp_path / "card", tmp_path / "view"
    root.mkdir()
    (tmp_path / "run.py").write_text(READ_ONLY_SCRIPT)
    ran = subprocess.run(
        [
            "unshare",
            "-m",
            "--propagation",
            "private",
            sys.executable,
            "-W",
            "error",
            str(tmp_path / "run.py"),
            str(root),
            str(view),
            str(Path(__file__).parent),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    seen = json.loads(ran.stdout.strip().splitlines()[-1])
    assert seen["first"] == 302
    assert seen["form"] == 503
    assert "cannot save right now" in seen["form_text"]
    for field, value in game_form(1).items():
        if field in ("a", "b", "points", "at"):
            assert f'value="{value}"' in seen["form_text"], field
    assert seen["kept"] == ["form:game-0"]
    assert seen["problems"] == []
    assert seen["api"] == 503
    assert "cannot save" in json.loads(seen["api_text"])["error"]["message"]
    assert seen["board"] in (200, 503)  # the board shows, or says plainly that the kiosk cannot read its card


# --- a backup taken while games are written ------------------------------------------------------------


def test_backups_taken_while_games_are_written_pass_the_checks_and_restore(tmp_path: Path) -> None:
    folder = make_club(tmp_path / "data")
    acknowledged: list[str] = []
    failures: list[BaseException] = []
    done = threading.Event()

    def writer() -> None:
        try:
            with Store.open(folder) as store:
                for i in range(400):
                    store.record(game_event(i), key=f"writer-{i}")
                    acknowledged.append(f"writer-{i}")
                    if done.is_set():
                        break
        except BaseException as error:  # reported below: a thread's failure must fail the test
            failures.append(error)

    thread = threading.Thread(target=writer)
    thread.start()
    copies: list[tuple[Path, int]] = []
    with Store.open(folder) as store:
        for n in range(6):
            while len(acknowledged) < 10 * (n + 1) and thread.is_alive():
                time.sleep(0.002)
            before = len(acknowledged)
            path = tmp_path / f"backup-{n}.sqlite3"
            if n == 5:  # the command an owner types
                command = [str(Path(sys.executable).with_name("semedori")), "backup", str(path)]
                ran = subprocess.run(command, env={**os.environ, "SEMEDORI_HOME": str(folder)}, capture_output=True)
                assert ran.returncode == 0, ran.stderr
            else:
                store.backup(path)
            copies.append((path, before))
    done.set()
    thread.join()
    assert failures == []
    assert len({before for _, before in copies}) == len(copies), "every backup met a different moment"

    for n, (path, before) in enumerate(copies):
        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        fresh = tmp_path / f"restored-{n}"
        restored = restore(path, fresh)
        keys = stored_keys(fresh)
        assert keys[:before] == acknowledged[:before], "a game acknowledged before the backup is missing"
        assert keys == acknowledged[: len(keys)], "a backup is a moment of the history, in order, with no gaps"
        assert restored.summary.games == len(keys)
        with Store.open(fresh) as copy:
            assert copy.check() == []
            assert len(copy.recent_games(limit=1000)) == len(keys)
    assert stored_keys(folder) == acknowledged  # and the live history lost nothing either


# --- a panel that throws or hangs ---------------------------------------------------------------------


class TroubledPanel:
    """A panel whose first refresh hangs (the BUSY line never clears), then fails twice, then works."""

    def __init__(self) -> None:
        self.profile = profile("impression-7.3")
        self.release = threading.Event()
        self.hanging = threading.Event()
        self.attempts: list[float] = []
        self.shown: list[Image.Image] = []

    def show(self, image: Image.Image) -> None:
        self.attempts.append(time.monotonic())
        if len(self.attempts) == 1:
            self.hanging.set()
            self.release.wait(30)
            raise PanelTimeoutError("the panel's BUSY line did not clear")
        if len(self.attempts) <= 3:
            raise PanelError("SPI transfer failed")
        self.shown.append(image)


class Display(threading.Thread):
    """The wall's process, as a thread: its own store connection, its own loop."""

    def __init__(self, folder: Path, panel: TroubledPanel, settings: DisplaySettings, once: bool = False) -> None:
        super().__init__()
        self.folder, self.panel, self.settings, self.once = folder, panel, settings, once
        self.stop = threading.Event()
        self.wall: Wall | None = None
        self.ready = threading.Event()

    def run(self) -> None:
        with Store.open(self.folder) as store:
            self.wall = Wall(store, self.panel, self.settings, now=lambda: MOMENT)
            self.ready.set()
            if self.once:
                self.wall.refresh()
            else:
                self.wall.run(self.stop)

    def finish(self) -> Wall:
        """Stop the loop and wait for it; the wall as it ended."""
        self.panel.release.set()
        self.stop.set()
        if self.wall:
            self.wall.wake.set()
        self.join(30)
        assert not self.is_alive()
        assert self.wall is not None
        return self.wall


MOMENT = datetime(2026, 11, 30, 19, 0)
QUICK = DisplaySettings(debounce=0, min_interval=0, poll=0.01, retry_after=0.1, quiet_from=None, quiet_until=None)


def test_a_panel_that_hangs_then_fails_is_retried_while_phones_keep_recording(tmp_path: Path) -> None:
    folder = make_club(tmp_path / "data")
    panel = TroubledPanel()
    display = Display(folder, panel, QUICK)
    display.start()
    try:
        assert panel.hanging.wait(30)
        phone = create_app(
            on_the_club_clock({"SEMEDORI_HOME": str(folder), "TESTING": True, "WTF_CSRF_ENABLED": False})
        ).test_client()
        slowest = 0.0
        for i in range(12):  # the wall is stuck in its refresh the whole time
            started = time.monotonic()
            assert phone.post("/new", data=game_form(i)).status_code == 302
            slowest = max(slowest, time.monotonic() - started)
        assert slowest < 2.0, "recording waited for the panel"
        assert len(panel.attempts) == 1 and not panel.shown
        panel.release.set()
        deadline = time.monotonic() + 20
        while not panel.shown and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        wall = display.finish()
    assert len(panel.attempts) == 4 and len(panel.shown) == 1
    gaps = [later - earlier for earlier, later in zip(panel.attempts[1:], panel.attempts[2:], strict=False)]
    assert gaps[0] >= 0.2 - 0.02 and gaps[1] >= 0.4 - 0.02, f"no backoff between retries: {gaps}"
    assert wall.failures == 0
    with Store.open(folder) as store:
        data = from_source(store, MOMENT)
        board = render(data, View("board", 9), panel.profile)
        assert len(store.recent_games(limit=100)) == 12
    assert picture_hash(panel.shown[-1]) == picture_hash(board)  # the wall shows all twelve games
    assert stored_keys(folder) == [f"form:game-{i}" for i in range(12)]


def test_the_wall_never_blocks_a_write_even_mid_refresh(tmp_path: Path) -> None:
    # The display only reads: a refresh that hangs holds no lock that a phone's write waits for.
    folder = make_club(tmp_path / "data")
    panel = TroubledPanel()
    display = Display(folder, panel, QUICK, once=True)
    display.start()
    try:
        assert panel.hanging.wait(30)
        with Store.open(folder) as phone_store:
            started = time.monotonic()
            phone_store.record(game_event(0), key="during-refresh")
            assert time.monotonic() - started < 1.0
    finally:
        wall = display.finish()
    assert wall.failures == 1  # the hang counts as a failure, to be retried
    assert wall.retry_at > 0
    assert stored_keys(folder) == ["during-refresh"]
