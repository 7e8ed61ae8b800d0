"""The small events' tables on a real SQLite file: start, one-tap results, the Swiss's next round, close."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
from histories import player

from kiosk.config import DATABASE_NAME
from kiosk.errors import HistoryError
from kiosk.pairing import side_of
from kiosk.services import tournaments as events
from kiosk.store import SCHEMA_VERSION, Store
from kiosk.tournament import A_WINS, B_WINS, DOUBLE_ROUND_ROBIN, DRAW, SWISS, event_standings

EVENING = date(2026, 11, 2)
NOW = datetime(2026, 11, 2, 19, 30)
CLUB = [("Ala", 20), ("Łucja", 22), ("Ваня", 10), ("小龍", 11), ("🐉 Smok", 30)]


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path) as store:
        for nick, strength in CLUB:
            store.record(player(nick, 13, "member", strength))
        for i in range(8):
            store.record(player(f"Gracz{i}", 13, "member", 12 + i))
        yield store


def sides(store: Store, nicks: list[str]) -> list:
    return [side_of(store.magnets(), nick, 13) for nick in nicks]


FIVE = [nick for nick, _ in CLUB]


def test_the_tables_come_on_first_use_without_a_schema_bump(club: Store, tmp_path: Path) -> None:
    assert events.of_evening(club, EVENING) == [] and events.get(club, 1) is None
    event = events.start(club, EVENING, 13, sides(club, FIVE), counts=True, name="  Listopad  ")
    assert (event.format, event.rounds, event.name, event.counts) == (DOUBLE_ROUND_ROBIN, 10, "Listopad", True)
    assert event.players[0].nick == "🐉 Smok"  # seeded by strength
    assert len(event.seats) == 10 * 3  # all rounds of a round-robin at once: two games and a bye each
    db = sqlite3.connect(tmp_path / DATABASE_NAME)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()
    assert events.open_event(club, EVENING) == event
    assert events.open_event(club, EVENING + timedelta(days=1)) is None


def test_one_open_event_per_evening_and_the_owner_closes_it(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, FIVE), counts=False)
    with pytest.raises(HistoryError, match="still open"):
        events.start(club, EVENING, 13, sides(club, FIVE), counts=False)
    assert events.close(club, event.id) is True
    assert events.close(club, event.id) is False
    assert events.open_event(club, EVENING) is None
    second = events.start(club, EVENING, 13, sides(club, FIVE[:4]), counts=False)
    assert [e.id for e in events.of_evening(club, EVENING)] == [second.id, event.id]
    with pytest.raises(HistoryError, match="at least 4 players"):
        events.start(club, EVENING + timedelta(days=1), 13, sides(club, FIVE[:3]), counts=False)


def test_a_counting_result_is_an_ordinary_game_on_the_board_and_a_double_tap_saves_once(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, FIVE), counts=True)
    seat = event.round_seats(1)[0]
    before = {m.nick: m.strength for m in club.magnets()}
    status, saved = events.record_result(club, event.id, 1, seat.board, B_WINS, "resignation", NOW, origin="phone:x")
    assert status == events.SAVED and saved is not None and saved.result == B_WINS
    games = club.recent_games(5)
    assert len(games) == 1 and games[0].winner == seat.b and games[0].by == "resignation"
    assert {m.nick: m.strength for m in club.magnets()} != before  # the magnets moved
    again = events.record_result(club, event.id, 1, seat.board, B_WINS, "resignation", NOW)
    assert again[0] == events.ALREADY and len(club.recent_games(5)) == 1
    other = events.record_result(club, event.id, 1, seat.board, A_WINS, "other", NOW)
    assert other[0] == events.TAKEN and len(club.recent_games(5)) == 1
    assert events.how_of(club, event.id) == {(1, seat.board): "resignation"}


def test_a_result_that_does_not_count_is_an_event_game_that_moves_no_magnet(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, FIVE), counts=False)
    seat = event.round_seats(1)[0]
    before = {m.nick: m.strength for m in club.magnets()}
    assert events.record_result(club, event.id, 1, seat.board, DRAW, None, NOW)[0] == events.SAVED
    [game] = club.recent_games(5)
    assert game.kind == "event"
    assert {m.nick: m.strength for m in club.magnets()} == before
    table = event_standings(events.get(club, event.id))  # type: ignore[arg-type]
    assert sorted(s.score for s in table if s.draws) == [0.5, 0.5]


def test_stale_and_bad_taps_change_nothing(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, FIVE), counts=True)
    assert events.record_result(club, event.id, 9, 1, A_WINS, "other", NOW)[0] == events.STALE  # a later round
    assert events.record_result(club, event.id, 1, 99, A_WINS, "other", NOW)[0] == events.STALE
    assert events.record_result(club, 404, 1, 1, A_WINS, "other", NOW)[0] == events.STALE
    bye = next(s for s in event.round_seats(1) if s.b is None)
    assert events.record_result(club, event.id, 1, bye.board, A_WINS, "other", NOW) == (events.BYE, bye)  # nobody plays
    with pytest.raises(HistoryError):
        events.record_result(club, event.id, 1, 1, A_WINS, "lots", NOW)
    with pytest.raises(HistoryError):
        events.record_result(club, event.id, 1, 1, "nobody", "other", NOW)
    events.close(club, event.id)
    assert events.record_result(club, event.id, 1, 1, A_WINS, "other", NOW)[0] == events.STALE
    assert club.recent_games(5) == [] and all(s.result is None for s in events.get(club, event.id).seats)  # type: ignore[union-attr]


def test_the_last_result_of_a_swiss_round_pairs_the_next_round(club: Store) -> None:
    nicks = FIVE + [f"Gracz{i}" for i in range(8)]
    event = events.start(club, EVENING, 13, sides(club, nicks), counts=True)
    assert (event.format, event.rounds, event.made) == (SWISS, 8, 1)
    first = event.round_seats(1)
    for seat in first[:-2]:
        events.record_result(club, event.id, 1, seat.board, A_WINS, 12.5, NOW)
    assert events.get(club, event.id).made == 1  # type: ignore[union-attr]
    events.record_result(club, event.id, 1, first[-2].board, B_WINS, "other", NOW)
    after = events.get(club, event.id)
    assert after is not None and after.made == 2 and after.current == 2
    assert len(after.round_seats(2)) == 7 and after.round_seats(2)[-1].b is None
    assert after.round_seats(2)[-1].a != first[-1].a  # the bye goes to someone else
    assert len(club.recent_games(20)) == 6


def test_a_backup_with_an_event_and_check_ins_can_be_restored(club: Store, tmp_path: Path) -> None:
    from kiosk.backup import verify

    club.check_in(EVENING, "Ala")
    events.start(club, EVENING, 13, sides(club, FIVE), counts=False)
    club.backup(tmp_path / "copy.sqlite3")
    summary = verify(tmp_path / "copy.sqlite3", club.config)
    assert summary.events == len(CLUB) + 8 + 1  # the event's start is a history line
    with Store.open(_restored(tmp_path / "copy.sqlite3")) as restored:
        assert events.open_event(restored, EVENING) == events.open_event(club, EVENING) is not None


def _restored(copy: Path) -> Path:
    folder = copy.parent / "restored"
    folder.mkdir()
    (folder / DATABASE_NAME).write_bytes(copy.read_bytes())
    return folder


def test_an_owner_may_give_a_swiss_fewer_rounds_and_it_ends_after_them(club: Store) -> None:
    nicks = FIVE + [f"Gracz{i}" for i in range(8)]
    event = events.start(club, EVENING, 13, sides(club, nicks), counts=False, rounds=2)
    assert (event.format, event.rounds) == (SWISS, 2)
    for number in (1, 2):
        for seat in events.get(club, event.id).round_seats(number):  # type: ignore[union-attr]
            if seat.b is not None:
                events.record_result(club, event.id, number, seat.board, A_WINS, "other", NOW)
    done = events.get(club, event.id)
    assert done is not None and done.made == 2 and done.finished
    events.close(club, event.id)
    robin = events.start(club, EVENING, 13, sides(club, FIVE), counts=False, rounds=2)
    assert robin.rounds == 10  # a round-robin plays all its rounds


def test_sixteen_phones_tapping_one_board_at_once_record_one_game_that_the_event_agrees_with(
    club: Store, tmp_path: Path
) -> None:
    import threading

    event = events.start(club, EVENING, 13, sides(club, FIVE), counts=True)
    seat = event.round_seats(1)[0]
    answers: list[str] = []
    start_line = threading.Barrier(16)

    def phone(i: int) -> None:
        with Store.open(tmp_path) as own:
            start_line.wait()
            outcome = A_WINS if i % 2 else B_WINS
            answers.append(events.record_result(own, event.id, 1, seat.board, outcome, "resignation", NOW)[0])

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers.count(events.SAVED) == 1 and len(answers) == 16
    games = club.games_since(NOW - timedelta(hours=1))
    assert len(games) == 1
    decided = events.get(club, event.id).round_seats(1)[0]  # type: ignore[union-attr]
    assert (seat.a if decided.result == A_WINS else seat.b) == games[0].winner
