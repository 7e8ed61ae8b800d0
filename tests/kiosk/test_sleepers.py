"""Sleepers: a magnet unplayed for the sleeper weeks rests off the wall, by the kiosk's clock (kiosk/sleepers.py)."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from histories import board_of, game, line, magnet, player

from kiosk.board import board_json_text
from kiosk.config import Config, load, save
from kiosk.errors import ConfigError
from kiosk.events import parse_event
from kiosk.sleepers import hanging, hangs, resting_since, sizes_hanging
from kiosk.store import Store

WEEKS = 12
JOINED = "2026-06-01T18:00"  # a Monday
HISTORY = (
    player("Ala", 13, strength=20, when=JOINED),
    player("Bolek", 13, strength=20, when=JOINED),
    player("Cyryl", 13, strength=20, when=JOINED),
    player("Cyryl", 9, strength=12, when=JOINED),
    game(13, "Ala", "Bolek", "Ala", when="2026-06-08T19:00"),
    game(13, "Ala", "Cyryl", "Cyryl", when="2026-09-07T19:00"),
)


def test_the_replay_keeps_when_each_magnet_last_played() -> None:
    board = board_of(*HISTORY)
    assert magnet(board, "Bolek", 13).active == datetime(2026, 6, 8, 19, 0)
    assert magnet(board, "Ala", 13).active == datetime(2026, 9, 7, 19, 0)
    # A game on 13x13 is not a game of Cyryl's 9x9 magnet: that one last did something when it joined.
    assert magnet(board, "Cyryl", 9).active == datetime(2026, 6, 1, 18, 0)


def test_a_magnet_rests_exactly_n_weeks_after_its_last_game() -> None:
    bolek = magnet(board_of(*HISTORY), "Bolek", 13)
    leaves = datetime(2026, 6, 8, 19, 0) + timedelta(weeks=WEEKS)  # 2026-08-31 19:00
    assert resting_since(bolek, leaves - timedelta(minutes=1), WEEKS) is None
    assert hangs(bolek, leaves - timedelta(minutes=1), WEEKS)
    assert resting_since(bolek, leaves, WEEKS) == leaves
    assert resting_since(bolek, datetime(2026, 12, 1), WEEKS) == leaves
    assert not hangs(bolek, leaves, WEEKS)
    # 0 weeks is off; without a clock nothing rests either.
    assert resting_since(bolek, datetime(2030, 1, 1), 0) is None
    assert resting_since(bolek, None, WEEKS) is None


def test_the_wall_leaves_out_sleepers_and_retired_magnets_in_one_place() -> None:
    retired = line("retire", "2026-09-08T18:00", nick="Ala", size=13)
    board = board_of(*HISTORY, retired)
    now = datetime(2026, 11, 20, 19, 0)  # Bolek unplayed since June, Cyryl's 9x9 magnet since joining
    assert [m.nick for m in hanging(board.magnets, now, WEEKS, 13)] == ["Cyryl"]
    assert [m.nick for m in board.on_size(13, now=now, weeks=WEEKS)] == ["Cyryl"]
    assert sizes_hanging(board.magnets, now, WEEKS) == (13,)
    # Off: everyone but the retired magnet hangs, as before sleepers existed.
    assert sorted(m.nick for m in hanging(board.magnets, now, 0, 13)) == ["Bolek", "Cyryl"]
    assert [m.nick for m in board.on_size(13, include_retired=True)] == ["Ala", "Cyryl", "Bolek"]
    assert resting_since(magnet(board, "Ala", 13), now, WEEKS) is None  # retired, not a sleeper


def test_a_sleeper_keeps_its_field_and_comes_back_with_its_next_game() -> None:
    late = game(13, "Bolek", "Cyryl", "Bolek", when="2026-12-02T19:00")
    before = board_of(*HISTORY)
    after = board_of(*HISTORY, late)
    assert magnet(before, "Bolek", 13).strength == 20 * 4  # resting moved nothing
    assert not hangs(magnet(before, "Bolek", 13), datetime(2026, 12, 2, 18, 0), WEEKS)
    bolek = magnet(after, "Bolek", 13)
    assert bolek.strength == 21 * 4  # the game counted as any other
    assert hangs(bolek, datetime(2026, 12, 2, 20, 0), WEEKS)


def test_sleepers_do_not_change_the_replay() -> None:
    text = board_json_text(board_of(*HISTORY))
    assert "active" not in text
    strengths = {(m["nick"], m["size"]): m["strength"] for m in json.loads(text)["magnets"]}
    assert strengths == {("Ala", 13): 21, ("Cyryl", 13): 21, ("Bolek", 13): 20, ("Cyryl", 9): 12}


def test_a_correction_or_a_restore_hangs_a_magnet_back() -> None:
    corrected = line("correction", "2026-11-30T18:00", nick="Bolek", size=13, strength=22, **{"with": "Ala"})
    restored = line("restore", "2026-11-30T18:00", nick="Cyryl", size=9)
    board = board_of(*HISTORY, corrected, restored)
    now = datetime(2026, 12, 1)
    assert hangs(magnet(board, "Bolek", 13), now, WEEKS)
    assert hangs(magnet(board, "Cyryl", 9), now, WEEKS)


def test_the_store_keeps_the_last_activity_and_replays_an_older_cache_once(tmp_path: Path) -> None:
    lines = [json.dumps(raw) for raw in _raw_lines()]
    with Store.open(tmp_path) as store:
        store.import_history(lines)
        assert {m.nick: m.active for m in store.magnets() if m.size == 13}["Bolek"] == datetime(2026, 6, 8, 19, 0)
        assert store.check() == []
    # A store written before sleepers: magnets and state without the last activity, the old fingerprint.
    db = sqlite3.connect(tmp_path / "semedori.sqlite3")
    magnets = [m[:8] for m in json.loads(db.execute("SELECT value FROM cache WHERE name = 'magnets'").fetchone()[0])]
    rules = json.loads(db.execute("SELECT value FROM cache WHERE name = 'rules'").fetchone()[0])
    del rules["active"]
    db.execute("UPDATE cache SET value = ? WHERE name = 'magnets'", (json.dumps(magnets),))
    db.execute("UPDATE cache SET value = ? WHERE name = 'rules'", (json.dumps(rules, sort_keys=True),))
    db.commit()
    db.close()
    with Store.open(tmp_path) as store:
        assert {m.nick: m.active for m in store.magnets() if m.size == 13}["Bolek"] == datetime(2026, 6, 8, 19, 0)
        assert store.check() == []


def _raw_lines() -> list[dict[str, object]]:
    return [
        {"type": "player", "at": JOINED, "nick": n, "size": 13, "status": "member", "strength": 20}
        for n in ("Ala", "Bolek", "Cyryl")
    ] + [{"type": "game", "at": "2026-06-08T19:00", "size": 13, "players": ["Ala", "Bolek"], "winner": "Ala"}]


def test_the_setting_is_read_saved_and_checked(tmp_path: Path) -> None:
    assert Config().sleeper_weeks == 12
    save(tmp_path, Config().with_changes(sleeper_weeks=0))
    assert "sleeper_weeks = 0" in (tmp_path / "semedori.toml").read_text(encoding="utf-8")
    assert load(tmp_path).sleeper_weeks == 0
    with pytest.raises(ConfigError, match="sleeper_weeks"):
        Config().with_changes(sleeper_weeks=-1)
    (tmp_path / "semedori.toml").write_text('[club]\nsleeper_weeks = "many"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="sleeper_weeks"):
        load(tmp_path)


def test_semedori_board_leaves_out_sleepers_at_the_given_time(tmp_path: Path) -> None:
    from test_cli import semedori, write_history

    home = tmp_path / "home"
    later = {"type": "game", "at": "2026-08-20T19:00", "size": 13, "players": ["Ala", "Cyryl"], "winner": "Ala"}
    # The club plays on: its evening of 31 August has a game when Bolek's twelve weeks are up.
    on = {"type": "game", "at": "2026-08-31T19:00", "size": 13, "players": ["Ala", "Cyryl"], "winner": "Cyryl"}
    history = write_history(tmp_path / "h.jsonl", [*_raw_lines(), later, on])
    assert semedori(home, "import", str(history)).returncode == 0
    before = semedori(home, "board", "--now", "2026-08-31T18:59")
    assert before.returncode == 0 and "Bolek" in before.stdout
    after = semedori(home, "board", "--now", "2026-08-31T19:00")  # 12 weeks after Bolek's game
    assert "Bolek" not in after.stdout and "Ala" in after.stdout
    bad = semedori(home, "board", "--now", "yesterday")
    assert bad.returncode == 1 and bad.stderr.startswith("semedori: ") and "Traceback" not in bad.stderr


def test_the_clubs_own_break_puts_nobody_to_rest_and_a_checked_in_player_hangs_at_once() -> None:
    """After a summer with no games the wall was empty; an imported paper board dated months back too."""
    from kiosk.sleepers import resting

    board = board_of(*(parse_event(raw) for raw in _raw_lines()))  # Ala and Bolek played on 8 June, nobody since
    autumn = datetime(2026, 11, 20, 19, 0)  # twenty weeks later
    assert [m.nick for m in hanging(board.magnets, autumn, WEEKS, 13)] == ["Ala", "Bolek", "Cyryl"]
    back = [
        *_raw_lines(),
        {"type": "game", "at": "2026-11-19T19:00", "size": 13, "players": ["Ala", "Cyryl"], "winner": "Ala"},
    ]
    board = board_of(*(parse_event(raw) for raw in back))  # the club plays again: Bolek's twelve weeks are up
    assert [m.nick for m in hanging(board.magnets, autumn, WEEKS, 13)] == ["Ala", "Cyryl"]
    assert [m.nick for m in resting(board.magnets, autumn, WEEKS, 13)] == ["Bolek"]
    here = hanging(board.magnets, autumn, WEEKS, 13, here={"Bolek"})  # he checks in for tonight: back at once
    assert [m.nick for m in here] == ["Ala", "Bolek", "Cyryl"]
    assert resting(board.magnets, autumn, WEEKS, 13, here={"Bolek"}) == ()
