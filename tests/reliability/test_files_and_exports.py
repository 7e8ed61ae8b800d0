"""Files and exports: what the owner's commands and downloads write and read.

Each runs the real `semedori` command on a real data folder (or the real app for the
owner's downloads), as the owner would over SSH.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import sqlite3
import subprocess
import time
from datetime import date
from pathlib import Path

import pytest
from club_days import on_the_club_clock
from harness import CLUB, Server, post_game, semedori_command

from kiosk.config import DATABASE_NAME
from kiosk.store import Store
from kiosk.tournament import Seat, to_h9
from web import create_app
from web.pin import hash_pin


def semedori(home: Path, *args: str, language: str = "en") -> subprocess.CompletedProcess[str]:
    """Run the `semedori` command on the data folder."""
    environment = {**os.environ, "SEMEDORI_HOME": str(home), "LANGUAGE": language, "LC_ALL": "C.UTF-8"}
    return subprocess.run(
        [semedori_command(), *args], env=environment, capture_output=True, text=True, timeout=120, check=False
    )


def history_file(folder: Path, name: str, lines: list[dict[str, object] | str]) -> Path:
    path = folder / name
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


def game(at: str, game_id: int | None = None) -> dict[str, object]:
    line: dict[str, object] = {"type": "game", "at": at, "size": 13, "players": ["Ala", "Bartek"], "winner": "Ala"}
    if game_id is not None:
        line["id"] = game_id
    return line


# --- item 10: cells a spreadsheet would run, and a ';' in the .h9 -----------------------------------

FORMULAS = ['=HYPERLINK("http://x.pl")', "+SUM(1+1)", "@SUM(1,2)", "-2+3", "=1+1 Kowalski"]


def owners_pin(store: Store) -> None:
    """The owner's PIN set, as `semedori set-pin` does: without one nobody is the owner."""
    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin("2468")))


def test_players_csv_never_starts_a_cell_with_a_formula(tmp_path: Path) -> None:
    home = tmp_path / "data"
    lines = [*CLUB]
    for n, nick in enumerate(FORMULAS):
        lines.append({"type": "player", "at": f"2026-01-02T10:0{n}", "nick": nick, "size": 13, "status": "guest"})
    with Store.open(home) as store:
        store.import_history([json.dumps(line) for line in lines])
        owners_pin(store)
    app = create_app(on_the_club_clock({"SEMEDORI_HOME": str(home), "TESTING": True}))
    owner = app.test_client()
    with owner.session_transaction() as session:
        session["owner"] = time.time() - 60
    answer = owner.get("/owner/privacy/players.csv")
    assert answer.status_code == 200
    rows = list(csv.reader(io.StringIO(answer.get_data(as_text=True).lstrip("\ufeff"))))
    cells = [cell for row in rows[1:] for cell in row[:2]]  # nickname and label
    running = [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert running == []  # main: 10 cells (5 nicknames, 5 labels) start with = + - @
    # The nickname is still there to read, after the one quote a spreadsheet hides.
    assert {cell.removeprefix("'") for cell in cells} >= set(FORMULAS)


def test_a_semicolon_in_a_nickname_keeps_its_h9_line_whole() -> None:
    from kiosk import tournament
    from kiosk.config import Config
    from kiosk.pairing import Side

    players = (Side("Ala;Celina", 20 * 4, False, False), Side("Bartek", 22 * 4, False, False))
    event = (getattr(tournament, "Tournament", None) or tournament.Event)(  # renamed from Event in the same round
        id=1,
        name="Wieczór",
        evening=date(2026, 11, 3),
        size=13,
        format=tournament.ROUND_ROBIN,
        rounds=1,
        counts=True,
        players=players,
        seats=(Seat(1, 1, "Ala;Celina", "Bartek", "a"),),
    )
    text = to_h9(event, Config())
    player_lines = [line for line in text.splitlines() if line and not line.startswith(";")]
    assert len(player_lines) == 2
    assert all(";" not in line for line in player_lines)  # main: "1 Ala;Celina ..." — the rest a comment


# --- item 11: game ids the store cannot grow from ---------------------------------------------------


@pytest.mark.parametrize("game_id", [2**63 - 1, 2**63, 10**30])
def test_a_game_id_the_store_cannot_grow_from_is_refused_by_import_restore_and_check(
    tmp_path: Path, game_id: int
) -> None:
    home = tmp_path / "data"
    history = history_file(tmp_path, "history.jsonl", [*CLUB, game("2026-01-05T18:00", game_id)])
    imported = semedori(home, "import", str(history))
    assert imported.returncode == 1  # main: 0 for 2**63-1 (then every new game a 500), a traceback for 2**63
    assert "Traceback" not in imported.stderr
    assert "line 5" in imported.stderr and "id" in imported.stderr
    with Store.open(home) as store:
        assert store.is_empty()

    # A backup whose history carries it (written behind the store's back): restore and check refuse it.
    other = tmp_path / "other"
    with Store.open(other) as store:
        store.import_history([json.dumps(line) for line in [*CLUB, game("2026-01-05T18:00", 7)]])
    with contextlib.closing(sqlite3.connect(other / DATABASE_NAME)) as db:
        line = json.dumps(game("2026-01-05T18:00", game_id))
        db.execute("UPDATE event SET line = ?, game_id = ? WHERE type = 'game'", (line, str(game_id)))
        db.commit()
    checked = semedori(other, "check")
    assert checked.returncode == 1 and "Traceback" not in checked.stderr
    assert "game id" in checked.stderr  # the id itself is named, not only the cache that differs
    restored = semedori(home, "restore", str(other / DATABASE_NAME))
    assert restored.returncode == 1 and "Traceback" not in restored.stderr  # main: 2**63-1 restored (exit 0)
    assert "game id" in restored.stderr
    assert semedori(home, "check").returncode == 0


def test_below_the_bound_the_next_game_goes_in_and_at_it_a_game_is_refused_not_a_500(
    tmp_path: Path, server: Server, club: Path
) -> None:
    """Ids go up to 2**53 - 1 (exact in a phone's JavaScript): the next game takes the next id; past it, a 400."""
    server.stop()
    history = history_file(tmp_path, "history.jsonl", [*CLUB, game("2026-01-05T18:00", 2**53 - 2)])
    assert semedori(club, "import", "--replace", str(history)).returncode == 0
    server.start()
    status, _, text = post_game(server.host, {"size": 13, "players": ["Ala", "Bartek"], "winner": "Ala"})
    assert status == 201, text
    assert json.loads(text)["id"] == 2**53 - 1
    status, _, text = post_game(server.host, {"size": 13, "players": ["Ala", "Bartek"], "winner": "Ala"})
    assert status == 400 and "game id" in text  # main: a 500 (OverflowError) once past 2**63 - 1
    assert server.errors_logged() == []


# --- item 12: export (and every command that writes a file) refuses the live database ----------------


def live_names(home: Path) -> list[str]:
    database = home / DATABASE_NAME
    link = home.parent / "link-to-live.png"
    link.symlink_to(database)
    hard = home.parent / "hard-link.png"
    os.link(database, hard)
    return [
        str(database),
        str(home / f"{DATABASE_NAME}-wal"),
        str(home / f"{DATABASE_NAME}-shm"),
        str(home / ".." / home.name / DATABASE_NAME),
        str(link),
        str(hard),
    ]


def test_export_and_render_never_write_onto_the_live_database(club: Path) -> None:
    with Store.open(club) as store:  # a WAL and its index beside the file, as while the kiosk runs
        store.db.execute("PRAGMA journal_mode=WAL")
        before = (club / DATABASE_NAME).read_bytes()
        refused = []
        for target in live_names(club):
            for command in (["export", "--out", target], ["render", "--out", target]):
                done = semedori(club, *command)
                refused.append((command[0], target, done.returncode, done.stderr.strip()))
        for command, target, code, stderr in refused:
            print(f"\nsemedori {command} --out {target}: exit {code}: {stderr[-120:]}")
        wrote = [(c, t) for c, t, code, _ in refused if code == 0]
        assert wrote == []  # main: export exit 0 onto all 6, the database overwritten with JSON
        for _, _, _, stderr in refused:
            assert "Traceback" not in stderr
            assert "live database" in stderr
        assert (club / DATABASE_NAME).read_bytes() == before
    assert semedori(club, "check").returncode == 0
    # An honest export still works.
    out = club.parent / "history.jsonl"
    assert semedori(club, "export", "--out", str(out)).returncode == 0
    assert len(out.read_text().splitlines()) == len(CLUB)


# --- item 13: a deeply nested line, a huge shown_offset --------------------------------------------------

DEEP = '{"type": "note", "at": "2026-01-03T10:00", "note": ' + "[" * 100_000 + "]" * 100_000 + "}"


def test_a_deeply_nested_history_line_is_refused_with_its_line_number(tmp_path: Path) -> None:
    home = tmp_path / "data"
    history = history_file(tmp_path, "deep.jsonl", [*CLUB, DEEP])
    for command in (["replay", str(history)], ["import", str(history)]):
        done = semedori(home, *command)
        assert done.returncode == 1, command
        assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr  # main: both
        assert "line 5" in done.stderr and "nested too deeply" in done.stderr
    polish = semedori(tmp_path / "no-club-yet", "replay", str(history), language="pl")
    assert "Traceback" not in polish.stderr and "wiersz 5" in polish.stderr

    # A backup whose history holds such a line: restore refuses it, in one line.
    other = tmp_path / "other"
    with Store.open(other) as store:
        store.import_history([json.dumps(line) for line in CLUB])
    with contextlib.closing(sqlite3.connect(other / DATABASE_NAME)) as db:
        # An older kiosk's backup: it had no index reading the lines' JSON (which refuses such a line itself).
        db.execute("DROP INDEX IF EXISTS event_tournament")
        db.execute("UPDATE event SET line = ? WHERE seq = 4", (DEEP,))
        db.commit()
    restored = semedori(home, "restore", str(other / DATABASE_NAME))
    assert restored.returncode == 1 and "Traceback" not in restored.stderr  # main: a RecursionError traceback


def test_the_owners_web_import_of_a_deep_line_is_a_clear_refusal(club: Path, tmp_path: Path) -> None:
    with Store.open(club) as store:
        owners_pin(store)
    app = create_app(on_the_club_clock({"SEMEDORI_HOME": str(club), "TESTING": True, "WTF_CSRF_ENABLED": False}))
    owner = app.test_client()
    with owner.session_transaction() as session:
        session["owner"] = time.time() - 60
    upload = (io.BytesIO(("\n".join([*(json.dumps(line) for line in CLUB), DEEP]) + "\n").encode()), "deep.jsonl")
    answer = owner.post("/owner/import", data={"history": upload, "replace": "yes"}, content_type="multipart/form-data")
    assert answer.status_code == 400  # main: 500
    assert "nested too deeply" in answer.get_data(as_text=True)


def test_a_huge_shown_offset_on_the_game_form_is_no_500(club: Path) -> None:
    app = create_app(on_the_club_clock({"SEMEDORI_HOME": str(club), "TESTING": True, "WTF_CSRF_ENABLED": False}))
    phone = app.test_client()
    at = "2026-01-05T18:00"
    form = {"size": "13", "a": "Ala", "b": "Bartek", "winner": "a", "by": "resignation", "at": at, "shown_at": at}
    for offset in ("9" * 400, "-" + "9" * 30, "99999999999999"):
        answer = phone.post("/new", data={**form, "shown_offset": offset, "once": f"o{len(offset)}"})
        assert answer.status_code < 500, offset  # main: 500 (OverflowError)
