"""The SQLite store: history, cached board, checks and copies (docs/rules.md §6, docs/design.md)."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import replace
from datetime import datetime
from fractions import Fraction
from pathlib import Path

import pytest
from histories import at, game, histories, is_meta, line, player
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.config import DATABASE_NAME, Config
from kiosk.errors import HistoryError, StoreError
from kiosk.events import GamePlayed, PlayerAdded, dump_line
from kiosk.handicap import DEFAULT_SIZE_RULES, SizeRules
from kiosk.replay import replay
from kiosk.scale import as_number, quarters
from kiosk.store import SCHEMA_VERSION, Store

PROPERTIES = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path) as opened:
        yield opened


@pytest.fixture
def club(store: Store) -> Store:
    """A store with Bianka and Czarek on 9x9 (docs/rules.md §4)."""
    store.record(player("Bianka", 9, "member", 34.5))
    store.record(player("Czarek", 9, "member", 25))
    return store


def strength(store: Store, nick: str, size: int) -> int | float:
    found = store.board().magnet(nick, size)
    assert found is not None
    return as_number(found.strength)


def history_size(store: Store) -> int:
    return len(store.history_entries())


# --- opening ----------------------------------------------------------------------------


def test_the_database_is_wal_with_full_sync_and_a_schema_version(store: Store) -> None:
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_reopened_store_keeps_the_history_and_board(tmp_path: Path) -> None:
    with Store.open(tmp_path) as first:
        first.record(player("Ala", 13, "member", 20))
    with Store.open(tmp_path) as again:
        assert [m.nick for m in again.magnets()] == ["Ala"]
        assert again.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert again.check() == []


def test_a_database_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    with Store.open(tmp_path) as first:
        first.db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError) as error:
        Store.open(tmp_path)
    assert error.value.code == "store-newer"
    assert "newer version" in str(error.value)


def test_the_web_and_the_wall_may_open_a_new_data_folder_at_the_same_moment(tmp_path: Path) -> None:
    # Both services start at boot; on the first boot the folder is empty.
    for attempt in range(10):
        folder = tmp_path / str(attempt)
        barrier = threading.Barrier(2)
        errors: list[Exception] = []

        def open_store(folder: Path = folder, barrier: threading.Barrier = barrier, errors: list = errors) -> None:
            barrier.wait()
            try:
                Store.open(folder).close()
            except StoreError as error:
                errors.append(error)

        threads = [threading.Thread(target=open_store) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        with Store.open(folder) as opened:
            assert opened.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert opened.check() == []


def test_a_data_folder_that_cannot_hold_the_database_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / DATABASE_NAME).mkdir()  # something in the way of the database file
    with pytest.raises(StoreError) as error:
        Store.open(tmp_path)
    assert isinstance(error.value, OSError)
    assert "nothing was recorded" in str(error.value)
    assert error.value.message("pl") != error.value.message("en")


def test_a_new_store_is_empty(store: Store) -> None:
    assert store.is_empty()
    assert store.magnets() == ()
    assert store.check() == []


# --- recording ---------------------------------------------------------------------------


def test_recording_the_example_game_moves_the_magnets(club: Store) -> None:
    recorded = club.record(game(9, "Bianka", "Czarek", "Czarek", 21, at(1)))
    assert recorded.new and recorded.game is not None
    assert recorded.game.id == 1
    assert recorded.game.moves["Czarek"].after == quarters(27)
    assert strength(club, "Czarek", 9) == 27
    assert strength(club, "Bianka", 9) == 34.5  # her first loss of the week
    assert club.check() == []


def test_games_get_numbers_in_entry_order(club: Store) -> None:
    first = club.record(game(9, "Bianka", "Czarek", "Czarek", 1, at(2)))
    second = club.record(game(9, "Bianka", "Czarek", "Czarek", 1, at(1)))  # a late entry
    assert (first.game.id, second.game.id) == (1, 2)  # type: ignore[union-attr]
    assert [g.id for g in club.board(with_games=True).games] == [2, 1]


def test_the_same_key_twice_records_one_event_and_answers_the_first_result(club: Store) -> None:
    first = club.record(game(9, "Bianka", "Czarek", "Czarek", 21, at(1)), key="phone-1/42")
    again = club.record(game(9, "Bianka", "Czarek", "Czarek", 21, at(1)), key="phone-1/42")
    assert not again.new
    assert (again.seq, again.game) == (first.seq, first.game)
    assert history_size(club) == 3
    assert strength(club, "Czarek", 9) == 27
    other = club.record(game(9, "Bianka", "Czarek", "Czarek", 21, at(1, 1)), key="phone-1/43")
    assert other.new and history_size(club) == 4


def test_a_key_is_remembered_after_the_store_is_opened_again(tmp_path: Path) -> None:
    with Store.open(tmp_path) as first:
        first.record(player("Ala", 13, "member", 20), key="k1")
    with Store.open(tmp_path) as again:
        assert not again.record(player("Ala", 13, "member", 20), key="k1").new
        assert history_size(again) == 1


def test_a_late_game_replays_everything_and_lands_in_order(club: Store) -> None:
    club.record(player("Dorota", 9, "member", 34.5))
    club.record(game(9, "Bianka", "Czarek", "Czarek", 21, at(1)))  # Tuesday: her free loss
    # Entered afterwards: Bianka lost to Dorota on Monday. That was her free loss.
    late = club.record(game(9, "Bianka", "Dorota", "Dorota", 3, at(0, 30)))
    assert late.game is not None and late.game.moves["Bianka"].why == "free-loss"
    games = club.board(with_games=True).games
    assert [g.at for g in games] == sorted(g.at for g in games)
    assert games[1].moves["Bianka"].why == "clear-loss"
    assert strength(club, "Bianka", 9) == 33.5
    assert strength(club, "Czarek", 9) == 27
    assert club.check() == []


def test_a_late_game_in_another_week_uses_that_weeks_free_loss(club: Store) -> None:
    club.record(game(9, "Bianka", "Czarek", "Czarek", None, at(8)))  # week 46, free
    club.record(game(9, "Bianka", "Czarek", "Czarek", None, at(6)))  # week 45, entered late
    assert [g.moves["Bianka"].why for g in club.board(with_games=True).games] == ["free-loss", "free-loss"]
    assert strength(club, "Bianka", 9) == 34.5


def test_a_time_with_microseconds_is_kept_as_the_history_keeps_it(store: Store) -> None:
    # A phone's "now" has microseconds; the history line keeps seconds. The board must
    # be the one the history gives, or the check fails after every game.
    store.record(PlayerAdded(datetime(2026, 11, 2, 19, 0, 0, 1), "Ala", 13, "member", quarters(20)))
    store.record(PlayerAdded(datetime(2026, 11, 2, 19, 0, 0, 2), "Ola", 13, "member", quarters(20)))
    recorded = store.record(GamePlayed(datetime(2026, 11, 2, 19, 5, 7, 123456), 13, ("Ala", "Ola"), "Ala", None))
    assert recorded.game is not None and recorded.game.at == datetime(2026, 11, 2, 19, 5, 7)
    assert store.check() == []


def test_a_nickname_is_stored_as_the_history_keeps_it(store: Store) -> None:
    store.record(PlayerAdded(datetime(2026, 11, 2, 19, 0), "  Ala  ", 13, "member", quarters(20)))
    store.record(player("Ola", 13, "member", 20))
    store.record(game(13, "Ala", "Ola", "Ala", None, at(1)))
    assert [m.nick for m in store.magnets()] == ["Ala", "Ola"]
    assert store.check() == []


@pytest.mark.parametrize(
    ("event", "code"),
    [
        (game(9, "Bianka", "Nikt", "Bianka", None, at(1)), "unknown-player"),
        (game(9, "Bianka", "Czarek", None, None, at(1)), "draw-even"),
        (PlayerAdded(datetime(2026, 11, 2, 20, 0), "Ewa", 9, "member", quarters(29.5)), "bad-strength"),
        (PlayerAdded(datetime(2026, 11, 2, 20, 0), "Ewa", 9, "member", quarters(57)), "bad-strength"),
        (GamePlayed(datetime(2026, 11, 3, 19, 0), 9, ("Bianka", "BIANKA"), "Bianka", None), "same-player"),
        (line("correction", at(1), nick="Czarek", size=13, strength=20), "no-magnet"),
        (line("void", at(1), game=3), "unknown-game"),
    ],
)
def test_a_bad_event_is_an_error_and_writes_nothing(club: Store, event: object, code: str) -> None:
    club.record(game(9, "Bianka", "Czarek", "Bianka", 3, at(0, 30)))
    # Czarek is rehung at 34.5, even with Bianka (35 after her win): a draw is impossible.
    club.record(line("correction", at(0, 40), nick="Czarek", size=9, strength=34.5))
    before = (history_size(club), club.change_counter(), club.board(with_games=True))
    with pytest.raises(HistoryError) as error:
        club.record(event)  # type: ignore[arg-type]
    assert error.value.code == code
    assert error.value.message("en") and error.value.message("pl") != error.value.message("en")
    assert (history_size(club), club.change_counter(), club.board(with_games=True)) == before
    assert club.check() == []


def test_an_error_message_says_what_is_wrong(club: Store) -> None:
    with pytest.raises(HistoryError, match="unknown player 'Nikt'"):
        club.record(game(9, "Bianka", "Nikt", "Bianka", None, at(1)))
    club.record(line("correction", at(0, 40), nick="Czarek", size=9, strength=34.5))
    with pytest.raises(HistoryError, match=r"a draw is impossible in an even game \(komi 6.5\)"):
        club.record(game(9, "Bianka", "Czarek", None, None, at(1)))


def test_a_draw_in_a_handicap_game_is_recorded(club: Store) -> None:
    recorded = club.record(game(9, "Bianka", "Czarek", None, 0, at(1)))
    assert recorded.game is not None and recorded.game.winner is None
    assert (strength(club, "Bianka", 9), strength(club, "Czarek", 9)) == (34.5, 25)


def test_the_change_counter_grows_with_every_write(club: Store) -> None:
    before = club.change_counter()
    club.record(game(9, "Bianka", "Czarek", "Czarek", None, at(1)))
    assert club.change_counter() == before + 1
    club.record(line("void", at(2), game=1))
    assert club.change_counter() == before + 2


# --- the cached board and the check ---------------------------------------------------------


def played_club(store: Store) -> Store:
    for event in (
        player("Bianka", 9, "member", 34.5),
        player("Czarek", 9, "member", 25),
        game(9, "Bianka", "Czarek", "Czarek", 21, at(1)),
    ):
        store.record(event)
    return store


@pytest.mark.parametrize(
    ("sql", "problem"),
    [
        ("UPDATE cache SET value = replace(value, '108', '112') WHERE name = 'magnets'", "stored magnets"),
        ("UPDATE outcome SET result = replace(result, 'clear-win', 'win')", "stored games"),
        ("DELETE FROM outcome", "stored games"),
        ("UPDATE cache SET value = replace(value, '108', '112') WHERE name = 'state'", "replay state"),
    ],
)
def test_the_check_finds_a_tampered_cache(store: Store, sql: str, problem: str) -> None:
    played_club(store)
    assert store.check() == []
    store.db.execute(sql)
    problems = store.check()
    assert len(problems) == 1 and problem in problems[0]
    store.rebuild()
    assert store.check() == []


def test_a_change_of_rules_replays_the_board(store: Store) -> None:
    played_club(store)
    store.save_config(Config().with_changes(size_rules={**Config().size_rules, 9: _clear_margin_9(25)}))
    assert store.check() == []
    assert strength(store, "Czarek", 9) == 26  # a win by 21 is no longer clear on 9x9


def test_a_rule_changed_behind_the_stores_back_is_seen_by_the_check_and_on_opening(store: Store) -> None:
    played_club(store)
    store.config = Config().with_changes(size_rules={**Config().size_rules, 9: _clear_margin_9(25)})
    assert store.check() != []
    store.rebuild()
    assert store.check() == []
    assert strength(store, "Czarek", 9) == 26


def _clear_margin_9(margin: int) -> SizeRules:
    return replace(DEFAULT_SIZE_RULES[9], clear_margin=Fraction(margin))


# --- import, export and backups ------------------------------------------------------------

HISTORY = [
    '{"type": "player", "at": "2026-11-02T19:00", "nick": "Bianka", "size": 9, "status": "member", "strength": 34.5}',
    '{"type": "player", "at": "2026-11-02T19:00", "nick": "Czarek", "size": 9, "status": "member", "strength": 25}',
    '{"type": "player", "at": "2026-11-02T19:00", "nick": "Gość", "size": 9, "status": "guest", "kyu": 10}',
    "",
    '{"type": "game", "at": "2026-11-03T19:10", "size": 9, "players": ["Bianka", "Czarek"], "winner": "Czarek", '
    '"by": 21, "note": "the club\'s example"}',
    '{"type": "correction", "at": "2026-11-04T19:00", "nick": "Gość", "size": 9, "status": "member"}',
    '{"type": "shift", "at": "2026-11-05T19:00", "amount": -1, "size": null, "nicks": null}',
]


def test_import_then_export_gives_the_history_back(store: Store) -> None:
    assert store.import_history(HISTORY) == 6
    assert store.check() == []
    assert strength(store, "Czarek", 9) == 26  # 27, shifted by -1
    assert strength(store, "Bianka", 9) == 33.5  # her first loss of the week was free; then -1
    assert strength(store, "Gość", 9) == 36.5  # 10 kyu: 37.5, then -1
    exported = list(store.export_lines())
    assert len(exported) == 6
    assert json.loads(exported[3]) == {**json.loads(HISTORY[4]), "id": 1}


def test_import_takes_lines_with_windows_line_ends_and_as_bytes(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    path.write_bytes("\r\n".join(HISTORY).encode("utf-8") + b"\r\n")
    assert store.import_history(path.read_bytes().splitlines()) == 6
    with Store.open(tmp_path / "other") as other:
        with path.open(encoding="utf-8", newline="") as lines:
            assert other.import_history(lines) == 6
        assert other.magnets() == store.magnets()


def test_import_is_all_or_nothing_a_bad_line_5_is_named(store: Store) -> None:
    bad = [*HISTORY[:4], HISTORY[4].replace('"size": 9', '"size": 10'), *HISTORY[5:]]
    with pytest.raises(HistoryError) as error:
        store.import_history(bad)
    assert error.value.line == 5
    assert str(error.value).startswith("line 5: the board size must be 9, 13 or 19")
    assert error.value.message("pl").startswith("wiersz 5: ")
    assert store.is_empty() and store.magnets() == ()


@pytest.mark.parametrize(
    ("replacement", "code"),
    [
        ('"players": ["Bianka", "Nikt"], "winner": "Nikt"', "unknown-player"),
        ('"players": ["Bianka", "Bianka"], "winner": "Bianka"', "same-player"),
        ('"players": ["Bianka", "Czarek"], "winner": "Czarek", "by": 21, "colour": "white"', "unknown-field"),
    ],
)
def test_import_names_the_line_of_an_error_the_board_finds(store: Store, replacement: str, code: str) -> None:
    bad = [*HISTORY[:4], HISTORY[4].replace('"players": ["Bianka", "Czarek"], "winner": "Czarek"', replacement)]
    with pytest.raises(HistoryError) as error:
        store.import_history(bad)
    assert (error.value.code, error.value.line) == (code, 5)
    assert store.is_empty()


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ('{"type": "player", "at": "2026-13-02T19:00", "nick": "A", "size": 9, "status": "guest"}', "bad-at"),
        ("not json", "bad-json"),
        (b'{"type": "caf\xe9"}', "bad-encoding"),
        ("[1, 2]", "not-object"),
    ],
)
def test_import_of_a_line_that_is_not_an_event(store: Store, text: str | bytes, code: str) -> None:
    with pytest.raises(HistoryError) as error:
        store.import_history([HISTORY[0], text])
    assert (error.value.code, error.value.line) == (code, 2)
    assert store.is_empty()


def test_import_into_a_store_with_a_history_needs_replace(store: Store) -> None:
    store.record(player("Ala", 13, "member", 20))
    with pytest.raises(HistoryError) as error:
        store.import_history(HISTORY)
    assert error.value.code == "store-not-empty"
    assert [m.nick for m in store.magnets()] == ["Ala"]
    store.import_history(HISTORY, replace_history=True)
    assert sorted(m.nick for m in store.magnets()) == ["Bianka", "Czarek", "Gość"]
    assert store.check() == []


def test_a_bad_replacement_history_leaves_the_old_one(store: Store) -> None:
    store.import_history(HISTORY)
    before = (list(store.export_lines()), store.magnets(), store.change_counter())
    bad = [*HISTORY[:4], HISTORY[4].replace("2026-11-03T19:10", "2026-11-31T19:10")]
    with pytest.raises(HistoryError) as error:
        store.import_history(bad, replace_history=True)
    assert (error.value.code, error.value.line) == ("bad-at", 5)
    assert (list(store.export_lines()), store.magnets(), store.change_counter()) == before


def test_a_backup_opens_passes_the_integrity_check_and_has_the_same_history(store: Store, tmp_path: Path) -> None:
    store.import_history(HISTORY)
    copy = tmp_path / "copy" / DATABASE_NAME
    copy.parent.mkdir()
    store.backup(copy)
    with sqlite3.connect(copy) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    with Store.open(copy.parent) as restored:
        assert list(restored.export_lines()) == list(store.export_lines())
        assert restored.magnets() == store.magnets()
        assert restored.check() == []


def test_a_backup_makes_its_missing_folder_and_is_synced_with_it(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first backup before an upgrade goes to a backups folder no nightly backup made yet.
    store.import_history(HISTORY)
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(descriptor: int) -> None:
        synced.append(os.fstat(descriptor).st_ino)
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)
    copy = tmp_path / "backups" / "before-upgrade" / DATABASE_NAME
    store.backup(copy)
    # A copy counts once it is on the card: the file, and its folder after the rename.
    assert copy.stat().st_ino in synced and copy.parent.stat().st_ino in synced
    assert sorted(p.name for p in copy.parent.iterdir()) == [DATABASE_NAME]
    with Store.open(copy.parent) as restored:
        assert list(restored.export_lines()) == list(store.export_lines())


# --- reading -------------------------------------------------------------------------------


def test_games_of_a_player_newest_first_and_since_a_time(club: Store) -> None:
    club.record(player("Dorota", 9, "member", 30))
    club.record(game(9, "Bianka", "Czarek", "Czarek", None, at(1)))
    club.record(game(9, "Dorota", "Czarek", "Dorota", None, at(2)))
    club.record(game(9, "Bianka", "Dorota", "Bianka", None, at(3)))
    assert [g.id for g in club.recent_games()] == [3, 2, 1]
    assert [g.id for g in club.recent_games(nick="CZAREK")] == [2, 1]
    assert [g.id for g in club.games_since(datetime.fromisoformat(at(2)))] == [2, 3]
    assert club.game(2) is not None and club.game(2).winner == "Dorota"  # type: ignore[union-attr]
    entry = club.game_entry(2)
    assert entry is not None and entry.line["players"] == ["Dorota", "Czarek"]


def test_a_voided_game_is_gone_from_the_board(club: Store) -> None:
    club.record(game(9, "Bianka", "Czarek", "Czarek", 21, at(1)))
    club.record(line("void", at(2), game=1, note="entered twice"))
    assert club.game(1) is None
    assert strength(club, "Czarek", 9) == 25
    assert club.game_entry(1) is not None  # the history keeps it
    assert club.check() == []


def test_a_renamed_players_games_are_found_by_the_new_name(club: Store) -> None:
    club.record(game(9, "Bianka", "Czarek", "Czarek", 21, at(1)))
    club.record(line("rename", at(2), from_="Czarek", to="Cezary"))
    assert [g.players for g in club.recent_games(nick="Cezary")] == [("Bianka", "Cezary")]
    assert [m.nick for m in club.magnets()] == ["Bianka", "Cezary"]
    assert club.check() == []


def test_changes_of_a_player(club: Store) -> None:
    club.record(line("correction", at(1), nick="Czarek", size=9, strength=30))
    club.record(line("shift", at(2), amount=-1, size=9, nicks=None))
    changes = club.changes_of("Czarek")
    assert [(c.why, c.before, c.after) for c in changes] == [
        ("joined", None, quarters(25)),
        ("correction", quarters(25), quarters(30)),
        ("shift", quarters(30), quarters(29)),
    ]


def test_the_merges_in_force_follow_renames_chains_and_unmerges(club: Store) -> None:
    club.record(player("Bianca", 13, "guest", 0))
    club.record(line("merge", at(1), from_="Bianca", into="Bianka"))
    assert club.merges() == [("Bianca", "Bianka")]  # the nickname as typed, not its key
    club.record(line("rename", at(2), from_="Bianka", to="Bea"))
    assert club.merges() == [("Bianca", "Bea")]
    club.record(line("merge", at(3), from_="Bea", into="Czarek"))  # a chain: Bianca → Bea → Czarek
    assert club.merges() == [("Bianca", "Czarek"), ("Bea", "Czarek")]
    club.record(line("unmerge", at(4), from_="Bianca", into="Czarek"))  # a pair shown undoes its merge
    assert club.merges() == [("Bea", "Czarek")]
    assert ("Bianca", 13) in [(m.nick, m.size) for m in club.magnets()]
    club.record(line("unmerge", at(5), from_="Bea", into="Czarek"))
    assert club.merges() == []
    assert club.check() == []


def test_the_owners_audit_log_is_newest_first(club: Store) -> None:
    club.record(game(9, "Bianka", "Czarek", "Czarek", 21, at(1)), origin="phone-7")
    entries = club.entries(limit=2)
    assert [e.line["type"] for e in entries] == ["game", "player"]
    assert entries[0].origin == "phone-7"
    assert [e.line["nick"] for e in club.entries(types=["player"])] == ["Czarek", "Bianka"]


# --- properties over random histories --------------------------------------------------------


@PROPERTIES
@given(histories(max_actions=20, meta=True), st.randoms(use_true_random=False), st.booleans())
def test_recording_one_by_one_equals_a_full_replay(events: list, rng: random.Random, shuffle: bool) -> None:
    # Shuffled, games, corrections and shifts come in late and replay everything; in
    # time order each one is appended to the cached board. Voids, edits, renames and
    # merges always replay everything; they come last, as the owner's later fixes.
    players = [e for e in events if isinstance(e, PlayerAdded)]
    plain = [e for e in events if not isinstance(e, PlayerAdded) and not is_meta(e)]
    if shuffle:
        rng.shuffle(players)
        rng.shuffle(plain)
        events = players + plain + [e for e in events if is_meta(e)]
    expected = replay(events)
    with tempfile.TemporaryDirectory() as folder, Store.open(Path(folder)) as store:
        for event in events:
            store.record(event)
        assert store.check() == []
        assert store.magnets() == expected.magnets
        stored_games = store.board(with_games=True).games
        assert [g.to_json(with_id=True) for g in stored_games] == [g.to_json(with_id=True) for g in expected.games]


@PROPERTIES
@given(histories(max_actions=15, meta=True))
def test_export_import_export_is_byte_identical(events: list) -> None:
    # The first store takes the history as a file too (one transaction: recording one by
    # one is the property above); its export numbers the games, as every export does.
    with tempfile.TemporaryDirectory() as folder:
        with Store.open(Path(folder) / "a") as first:
            first.import_history(dump_line(event) for event in events)
            exported = list(first.export_lines())
            board = first.magnets()
        assert board == replay(events).magnets
        with Store.open(Path(folder) / "b") as second:
            second.import_history(exported)
            assert list(second.export_lines()) == exported
            assert second.magnets() == board
            assert second.check() == []


@pytest.mark.parametrize(
    ("events", "changes"),
    [
        # A member above the new top.
        ([player("Ala", 13, "member", 52)], {"top": quarters(50)}),
        # A draw in a handicap game that the new points per strength make even.
        (
            [player("Ala", 13, "member", 40), player("Ola", 13, "member", 41.25), game(13, "Ala", "Ola", None, 0)],
            {
                "size_rules": {
                    **Config().size_rules,
                    13: replace(DEFAULT_SIZE_RULES[13], points_per_strength=Fraction(4)),
                }
            },
        ),
    ],
)
def test_a_setting_the_history_cannot_take_is_refused_and_changes_nothing(
    tmp_path: Path, events: list, changes: dict
) -> None:
    with Store.open(tmp_path) as store:
        for event in events:
            store.record(event)
        before = (store.config, store.magnets(), list(store.export_lines()))
        with pytest.raises(HistoryError):
            store.save_config(store.config.with_changes(**changes))
        assert (store.config, store.magnets(), list(store.export_lines())) == before
        assert store.check() == []
    with Store.open(tmp_path) as again:  # the kiosk still starts
        assert again.config == before[0]
        assert again.magnets() == before[1]


# --- checkpoints: a late result replays only what it changes ------------------------------------


def a_week_of_games(store: Store, every: int = 2) -> Store:
    """Bianka and Czarek's week, with a checkpoint after every ``every`` games."""
    store.checkpoint_every = every
    store.record(player("Bianka", 9, "member", 34.5))
    store.record(player("Czarek", 9, "member", 25))
    for day in range(7):
        store.record(game(9, "Bianka", "Czarek", ("Bianka", "Czarek")[day % 2], None, at(day)))
    return store


def statements_of(store: Store, work: Callable[[], object]) -> list[str]:
    """The SQL statements the store runs for ``work``."""
    seen: list[str] = []
    store.db.set_trace_callback(seen.append)
    try:
        work()
    finally:
        store.db.set_trace_callback(None)
    return seen


def whole_replay(statements: list[str]) -> bool:
    """True when the statements rewrote every cached game (the whole-history path)."""
    return any(s.strip() == "DELETE FROM outcome" for s in statements)


def test_a_late_game_replays_from_the_last_checkpoint_and_rewrites_only_what_follows(store: Store) -> None:
    a_week_of_games(store)
    early = list(store.db.execute("SELECT id, at FROM change WHERE at < ? ORDER BY id", (at(4) + ":00",)))
    kept = list(store.db.execute("SELECT at, seq, state FROM checkpoint WHERE at < ?", (at(4) + ":00",)))
    assert len(kept) >= 2
    late = game(9, "Bianka", "Czarek", "Czarek", "resignation", at(5, 30))  # Saturday, entered on Sunday
    statements = statements_of(store, lambda: store.record(late))
    assert not whole_replay(statements)
    assert list(store.db.execute("SELECT id, at FROM change WHERE at < ? ORDER BY id", (at(4) + ":00",))) == early
    assert list(store.db.execute("SELECT at, seq, state FROM checkpoint WHERE at < ?", (at(4) + ":00",))) == kept
    games = store.board(with_games=True).games
    assert [g.at for g in games] == sorted(g.at for g in games)
    assert games[-2].moves["Bianka"].why == "clear-loss"  # after Saturday's result Sunday's loss is not free
    assert store.check() == []


def test_a_void_and_an_edit_of_this_weeks_game_replay_from_a_checkpoint(store: Store) -> None:
    a_week_of_games(store)
    last = store.recent_games(1)[0]
    before_void = store.magnets()
    assert not whole_replay(statements_of(store, lambda: store.record(line("void", at(7), game=last.id))))
    assert store.game(last.id) is None
    assert store.magnets() != before_void
    assert store.check() == []
    second = store.recent_games(1)[0]
    edit = line(
        "edit", at(7, 1), game=second.id, played=at(5, 10), size=9, players=["Bianka", "Czarek"], winner="Czarek"
    )
    assert not whole_replay(statements_of(store, lambda: store.record(edit)))
    assert store.game(second.id).winner == "Czarek"  # type: ignore[union-attr]
    assert store.check() == []


def test_a_rename_or_a_merge_still_replays_the_whole_history(store: Store) -> None:
    a_week_of_games(store)
    assert whole_replay(statements_of(store, lambda: store.record(line("rename", at(8), from_="Czarek", to="Cezary"))))
    assert store.check() == []


def test_a_late_game_before_the_first_checkpoint_replays_the_whole_history(store: Store) -> None:
    a_week_of_games(store, every=3)
    statements = statements_of(store, lambda: store.record(game(9, "Bianka", "Czarek", "Czarek", None, at(0, 1))))
    assert whole_replay(statements)
    assert store.check() == []


def test_a_late_game_the_history_cannot_take_is_refused_and_changes_nothing(store: Store) -> None:
    a_week_of_games(store)
    before = (store.magnets(), history_size(store))
    with pytest.raises(HistoryError) as error:
        store.record(game(9, "Bianka", "Zosia", "Bianka", None, at(5, 30)))
    assert error.value.code == "unknown-player"
    assert (store.magnets(), history_size(store)) == before
    assert store.check() == []


@pytest.mark.parametrize(
    ("sql", "problem"),
    [
        ("UPDATE checkpoint SET state = (SELECT state FROM checkpoint ORDER BY at LIMIT 1)", "checkpoint"),
        ("UPDATE change SET after = after + 4 WHERE id = (SELECT max(id) FROM change)", "stored changes"),
        ("DELETE FROM even_pair", "stored even pairs"),
    ],
)
def test_the_check_finds_a_tampered_checkpoint_change_or_even_pair(store: Store, sql: str, problem: str) -> None:
    store.checkpoint_every = 1
    played_club(store)
    store.record(line("correction", at(2), nick="Czarek", size=9, strength=25))
    store.record(player("Ewa", 9, "member", 34.5))
    store.record(game(9, "Bianka", "Ewa", "Ewa", None, at(3)))  # an even pair
    assert store.check() == []
    store.db.execute(sql)
    problems = store.check()
    assert len(problems) == 1 and problem in problems[0]
    store.rebuild()
    assert store.check() == []


def test_a_store_of_schema_version_1_upgrades_itself_and_replays_once(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(Store, "checkpoint_every", 2)
    with Store.open(tmp_path) as old:
        a_week_of_games(old)
        board = old.board(with_games=True)
        # Back to the first schema, as a kiosk of the previous release left it.
        for statement in (
            "DROP TABLE checkpoint",
            "DROP INDEX change_order",
            "DROP INDEX even_pair_order",
            "DROP INDEX event_order",
            "ALTER TABLE change DROP COLUMN seq",
            "ALTER TABLE even_pair DROP COLUMN at",
            "ALTER TABLE even_pair DROP COLUMN seq",
            "PRAGMA user_version=1",
        ):
            old.db.execute(statement)
    with Store.open(tmp_path) as upgraded:
        assert upgraded.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
        assert upgraded.db.execute("SELECT count(*) FROM checkpoint").fetchone()[0] > 0
        assert upgraded.board(with_games=True) == board
        assert upgraded.check() == []
        upgraded.record(game(9, "Bianka", "Czarek", "Czarek", None, at(5, 30)))
        assert upgraded.check() == []


SETTINGS = [
    {"guest_losses": 3},
    {"guest_losses": 2},
    {"size_rules": {**DEFAULT_SIZE_RULES, 9: replace(DEFAULT_SIZE_RULES[9], clear_margin=Fraction(25))}},
    {"size_rules": DEFAULT_SIZE_RULES},
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    histories(max_actions=30, meta=True),
    st.randoms(use_true_random=False),
    st.integers(1, 3),
    st.lists(st.tuples(st.integers(0, 40), st.sampled_from(range(len(SETTINGS)))), max_size=3),
)
def test_any_sequence_of_writes_leaves_the_store_equal_to_a_fresh_replay(
    events: list, rng: random.Random, every: int, changes: list[tuple[int, int]]
) -> None:
    # Appends, past-dated entries (a shuffled history is full of them), voids, edits,
    # renames, merges and setting changes in between, with a checkpoint every few games.
    players = [e for e in events if isinstance(e, PlayerAdded)]
    plain = [e for e in events if not isinstance(e, PlayerAdded) and not is_meta(e)]
    rng.shuffle(plain)
    writes: list[object] = [*players, *plain, *[e for e in events if is_meta(e)]]
    for position, setting in sorted(changes, reverse=True):
        writes.insert(min(position, len(writes)), SETTINGS[setting])
    recorded: list = []
    with tempfile.TemporaryDirectory() as folder, Store.open(Path(folder)) as store:
        store.checkpoint_every = every
        for write in writes:
            if isinstance(write, dict):
                with suppress(HistoryError):  # a setting the history cannot take is refused
                    store.save_config(store.config.with_changes(**write))
            else:
                store.record(write)
                recorded.append(write)
            assert store.check() == []
        expected = replay(recorded, store.config)
        assert store.magnets() == expected.magnets
        stored_games = store.board(with_games=True).games
        assert [g.to_json(with_id=True) for g in stored_games] == [g.to_json(with_id=True) for g in expected.games]


# --- import: streamed, checked and replayed beside the store, copied in one short transaction --------


def test_an_import_reads_and_replays_the_file_without_holding_the_write_lock(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store, Store.open(tmp_path) as phone:
        phone.db.execute("PRAGMA busy_timeout=0")  # a write lock held elsewhere would fail at once
        phone.record(player("Ala", 13, "member", 20))
        phone.record(player("Ola", 13, "member", 20))
        recorded: list[int] = []

        def lines() -> Iterator[str]:
            yield dump_line(player("Bianka", 9, "member", 34.5))
            recorded.append(phone.record(game(13, "Ala", "Ola", "Ola", None, at(0, 1))).seq)  # mid-import
            yield dump_line(player("Czarek", 9, "member", 25))
            yield dump_line(game(9, "Bianka", "Czarek", "Czarek", 21, at(1)))

        assert store.import_history(lines(), replace_history=True) == 3
        assert recorded
        assert [m.nick for m in store.magnets()] == ["Bianka", "Czarek"]
        assert store.check() == []
        assert list(tmp_path.glob("semedori-import-*")) == []


def test_a_failed_import_leaves_no_scratch_file_and_names_the_line_after_blank_lines(store: Store) -> None:
    played_club(store)
    before = list(store.export_lines())
    lines = [dump_line(player("Ala", 13)), "", dump_line(player("Ola", 13)), "", json.dumps({"type": "game"})]
    with pytest.raises(HistoryError) as error:
        store.import_history(lines, replace_history=True)
    assert error.value.line == 5
    duplicate = [dump_line(player("Ala", 13)), dump_line(player("Ola", 13))]
    with_id_7 = [
        dump_line(game(13, "Ala", "Ola", "Ala", None, at(0, n))).replace('"size"', '"id": 7, "size"') for n in (1, 2)
    ]
    duplicate += with_id_7
    with pytest.raises(HistoryError) as error:
        store.import_history(duplicate, replace_history=True)
    assert (error.value.code, error.value.line) == ("duplicate-id", 4)
    assert list(store.export_lines()) == before
    assert list(store.folder.glob("semedori-import-*")) == []
    assert store.check() == []


def test_a_game_far_in_the_past_takes_the_whole_replay_which_streams(store: Store) -> None:
    a_week_of_games(store)
    store.partial_limit = 2  # more games than this after the checkpoint: the whole replay
    statements = statements_of(store, lambda: store.record(game(9, "Bianka", "Czarek", "Czarek", None, at(2, 30))))
    assert whole_replay(statements)
    assert store.check() == []


def test_a_write_that_waits_past_the_timeout_says_the_kiosk_is_busy_and_records_nothing(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store, Store.open(tmp_path) as other:
        store.record(player("Ala", 13))
        other.db.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        store.db.execute("PRAGMA busy_timeout=50")
        with pytest.raises(StoreError) as error:
            store.record(player("Ola", 13))
        other.db.execute("ROLLBACK")
        assert error.value.code == "store-busy"
        assert "busy" in error.value.message("en") and "zajęty" in error.value.message("pl")
        assert history_size(store) == 1


def test_games_come_in_pages_that_new_games_do_not_shift(tmp_path) -> None:
    import json as _json
    from datetime import datetime as _dt

    lines = [
        {"type": "player", "at": "2026-11-01T10:00", "nick": n, "size": 9, "status": "member", "strength": 20}
        for n in ("Ala", "Ola", "Ela")
    ]
    lines += [
        {
            "type": "game",
            "at": f"2026-11-0{d}T18:00",
            "size": 9,
            "players": ["Ala", p],
            "winner": "Ala",
            "by": "resignation",
        }
        for d, p in zip(range(2, 8), ["Ola", "Ela"] * 3, strict=True)
    ]
    with Store.open(tmp_path / "club") as store:
        store.import_history([_json.dumps(line) for line in lines])
        first = store.games_page(limit=4)
        assert [g.at.day for g in first] == [7, 6, 5, 4]
        rest = store.games_page(limit=4, before=first[-1].id)
        assert [g.at.day for g in rest] == [3, 2]
        assert [g.at.day for g in store.games_page(nick="ela")] == [7, 5, 3]
        assert [g.at.day for g in store.games_page(since=_dt(2026, 11, 3), until=_dt(2026, 11, 5))] == [4, 3]
        assert store.games_page(before=999) == []


def test_a_game_before_a_player_joined_is_refused_without_waiting_for_the_write_lock(tmp_path: Path) -> None:
    """A script looping such posts must not hold the lock the phones need."""
    from kiosk.events import parse_line

    def event(data: dict[str, object]):  # type: ignore[no-untyped-def]
        return parse_line(json.dumps(data))

    with Store.open(tmp_path, busy_seconds=0.5) as opened:
        for nick, joined in (("Ola", "2026-11-01T18:00"), ("Nowy", "2026-11-20T18:00")):
            opened.record(
                event({"type": "player", "at": joined, "nick": nick, "size": 13, "status": "member", "strength": 20})
            )
        early = {"type": "game", "at": "2026-11-10T19:00", "size": 13, "players": ["Ola", "Nowy"], "winner": "Nowy"}
        holder = sqlite3.connect(tmp_path / DATABASE_NAME, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process writes (a backup, an import's copy)
        try:
            with pytest.raises(HistoryError) as refused:
                opened.record(event(early))
            assert refused.value.code == "not-on-board-yet"
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert opened.check() == []
        assert opened.recent_games() == []
        opened.record(event({**early, "at": "2026-11-21T19:00"}))  # after both joined: taken
        assert len(opened.recent_games()) == 1


def test_a_cache_of_the_previous_layout_is_replayed_afresh_on_opening(tmp_path: Path) -> None:
    with Store.open(tmp_path) as first:
        played_club(first)
        board = first.board(with_games=True)
        # What the previous release cached: each magnet's state also held when it was created,
        # and the rules' fingerprint had no layout.
        state = json.loads(first.db.execute("SELECT value FROM cache WHERE name = 'state'").fetchone()[0])
        for p in state["players"].values():
            p["magnets"] = [[*m[:3], ["2026-11-02T18:00:00", 0], *m[3:]] for m in p["magnets"]]
        old_rules = json.loads(first.db.execute("SELECT value FROM cache WHERE name = 'rules'").fetchone()[0])
        del old_rules["layout"]
        first.db.execute("UPDATE cache SET value = ? WHERE name = 'state'", (json.dumps(state),))
        first.db.execute("UPDATE cache SET value = ? WHERE name = 'rules'", (json.dumps(old_rules, sort_keys=True),))
    with Store.open(tmp_path) as again:
        assert again.check() == []
        assert again.board(with_games=True) == board
        again.record(game(9, "Bianka", "Czarek", "Bianka", 3.5, at(2)))  # an engine resumes from the new state
        assert again.check() == []
