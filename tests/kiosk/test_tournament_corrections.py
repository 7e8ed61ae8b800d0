"""The owner corrects an event's board or withdraws a player, on a real SQLite file.

A correction goes through the history's own edit and void, so the board replays exactly as if
the right result had been tapped from the start.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
from histories import player

from kiosk.errors import HistoryError
from kiosk.events import Edit, Void
from kiosk.pairing import side_of
from kiosk.services import tournaments as events
from kiosk.store import SCHEMA_VERSION, Store
from kiosk.tournament import A_WINS, B_WINS, DRAW, SWISS, Seat, event_standings

EVENING = date(2026, 11, 2)
NOW = datetime(2026, 11, 2, 19, 30)
CLUB = [("Ala", 20), ("Łucja", 22), ("Ваня", 10), ("小龍", 11), ("🐉 Smok", 30)]
FIVE = [nick for nick, _ in CLUB]
SWISS_FIELD = FIVE + [f"Gracz{i}" for i in range(8)]


def fill(store: Store) -> Store:
    for nick, strength in CLUB:
        store.record(player(nick, 13, "member", strength))
    for i in range(8):
        store.record(player(f"Gracz{i}", 13, "member", 12 + i))
    return store


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path) as store:
        yield fill(store)


def sides(store: Store, nicks: list[str]) -> list:
    return [side_of(store.magnets(), nick, 13) for nick in nicks]


def strengths(store: Store) -> dict[str, int]:
    return {m.nick: m.strength for m in store.magnets()}


def play_round_one(store: Store, event_id: int, wrong: bool) -> None:
    """Round 1 of the five's double round-robin: board 1 is tapped wrong (or right), board 2 right."""
    event = events.get(store, event_id)
    assert event is not None
    first, second = [s for s in event.round_seats(1) if s.b is not None]
    when = NOW
    if wrong:
        events.record_result(store, event_id, 1, first.board, A_WINS, "resignation", when)
    else:
        events.record_result(store, event_id, 1, first.board, B_WINS, 7.5, when)
    events.record_result(store, event_id, 1, second.board, A_WINS, "other", when + timedelta(minutes=5))


def test_a_corrected_result_replays_the_board_as_if_it_had_been_right_from_the_start(
    club: Store, tmp_path: Path
) -> None:
    event = events.start(club, EVENING, 13, sides(club, FIVE), counts=True)
    play_round_one(club, event.id, wrong=True)
    first = next(s for s in event.round_seats(1) if s.b is not None)
    wrong = strengths(club)
    status, seat = events.correct(club, event.id, 1, first.board, B_WINS, 7.5, NOW + timedelta(hours=1), "owner")
    assert status == events.SAVED and seat is not None and seat.result == B_WINS
    assert events.how_of(club, event.id)[1, first.board] == "7.5"
    assert strengths(club) != wrong
    with Store.open(tmp_path / "right") as right:
        fill(right)
        other = events.start(right, EVENING, 13, sides(right, FIVE), counts=True)
        play_round_one(right, other.id, wrong=False)
        assert strengths(club) == strengths(right)  # the magnets hang where the right taps put them
        assert event_standings(events.get(club, event.id)) == event_standings(events.get(right, other.id))  # type: ignore[arg-type]
    # One game each, the first corrected in place: same id, same time, now Łucja's... whoever b is.
    games = club.games_since(NOW - timedelta(hours=1))
    assert len(games) == 2 and games[0].winner == first.b and games[0].by == 7.5 and games[0].at == NOW
    edits = [e for _, e in club.history_entries() if isinstance(e, Edit)]
    assert len(edits) == 1 and edits[0].game == games[0].id
    assert club.check() == []  # the cached board agrees with a full replay


def test_the_same_correction_twice_and_a_stale_form_change_nothing(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, FIVE), counts=False)
    seat = next(s for s in event.round_seats(1) if s.b is not None)
    events.record_result(club, event.id, 1, seat.board, A_WINS, "resignation", NOW)
    assert events.correct(club, event.id, 1, seat.board, A_WINS, "resignation", NOW)[0] == events.ALREADY
    assert events.fix_count(club, event.id, 1, seat.board) == 0
    assert events.correct(club, event.id, 1, seat.board, DRAW, None, NOW, seen=0)[0] == events.SAVED
    assert events.fix_count(club, event.id, 1, seat.board) == 1
    # A second phone's form, opened before the first correction: refused, the board says the draw.
    status, now = events.correct(club, event.id, 1, seat.board, B_WINS, "other", NOW, seen=0)
    assert status == events.TAKEN and now is not None and now.result == DRAW
    assert events.correct(club, event.id, 1, seat.board, DRAW, None, NOW, seen=0)[0] == events.ALREADY
    [game] = club.games_since(NOW - timedelta(hours=1))
    assert game.winner is None and game.kind == "event"  # an event that does not count stays kind "event"
    assert len([e for _, e in club.history_entries() if isinstance(e, Edit)]) == 1


def test_bad_corrections_change_nothing(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, FIVE), counts=True)
    seat = next(s for s in event.round_seats(1) if s.b is not None)
    bye = next(s for s in event.round_seats(1) if s.b is None)
    assert events.correct(club, event.id, 1, seat.board, A_WINS, "other", NOW)[0] == events.UNDECIDED
    events.record_result(club, event.id, 1, seat.board, A_WINS, "other", NOW)
    before = strengths(club), list(club.history_entries())
    assert events.correct(club, 404, 1, 1, B_WINS, "other", NOW)[0] == events.STALE
    assert events.correct(club, event.id, 1, 99, B_WINS, "other", NOW)[0] == events.STALE
    assert events.correct(club, event.id, 1, bye.board, B_WINS, "other", NOW)[0] == events.STALE
    with pytest.raises(HistoryError):
        events.correct(club, event.id, 1, seat.board, B_WINS, "lots", NOW)
    with pytest.raises(HistoryError):
        events.correct(club, event.id, 1, seat.board, "nobody", "other", NOW)
    assert (strengths(club), list(club.history_entries())) == before
    assert events.get(club, event.id).round_seats(1)[seat.board - 1].result == A_WINS  # type: ignore[union-attr]


def test_a_cleared_board_is_voided_in_the_history_and_can_be_tapped_again(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, FIVE), counts=True)
    seat = next(s for s in event.round_seats(1) if s.b is not None)
    start = strengths(club)
    events.record_result(club, event.id, 1, seat.board, A_WINS, "other", NOW)
    status, cleared = events.correct(club, event.id, 1, seat.board, None, None, NOW)
    assert status == events.SAVED and cleared is not None and cleared.result is None
    assert strengths(club) == start and club.games_since(NOW - timedelta(hours=1)) == []
    assert [type(e) for _, e in club.history_entries()][-1] is Void
    assert events.how_of(club, event.id) == {} and events.game_ids(club, event.id) == {}
    assert events.correct(club, event.id, 1, seat.board, None, None, NOW)[0] == events.ALREADY
    assert events.correct(club, event.id, 1, seat.board, A_WINS, "other", NOW, seen=0)[0] == events.TAKEN
    assert events.correct(club, event.id, 1, seat.board, A_WINS, "other", NOW, seen=1)[0] == events.UNDECIDED
    status, tapped = events.record_result(club, event.id, 1, seat.board, B_WINS, "resignation", NOW)
    assert status == events.SAVED and tapped is not None and tapped.result == B_WINS
    [game] = club.games_since(NOW - timedelta(hours=1))
    assert game.winner == seat.b and events.game_ids(club, event.id) == {(1, seat.board): game.id}
    assert events.record_result(club, event.id, 1, seat.board, B_WINS, "resignation", NOW)[0] == events.ALREADY
    assert club.check() == []


def test_a_swiss_round_corrected_after_the_next_was_paired_keeps_its_pairings(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, SWISS_FIELD), counts=True)
    assert event.format == SWISS
    for seat in event.round_seats(1):
        if seat.b is not None:
            events.record_result(club, event.id, 1, seat.board, A_WINS, "other", NOW)
    paired = events.get(club, event.id)
    assert paired is not None and paired.made == 2
    seat = paired.round_seats(1)[0]
    assert events.correct(club, event.id, 1, seat.board, B_WINS, "other", NOW)[0] == events.SAVED
    after = events.get(club, event.id)
    assert after is not None and after.round_seats(2) == paired.round_seats(2) and after.current == 2
    points = {s.nick: s.score for s in event_standings(after)}
    assert points[seat.b] == 1 and points[seat.a] == 0  # type: ignore[index]


def test_a_withdrawn_player_gets_no_more_games_and_their_results_stay(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, FIVE), counts=True)
    played = next(s for s in event.round_seats(1) if s.b is not None)
    events.record_result(club, event.id, 1, played.board, A_WINS, "other", NOW)
    status, after = events.withdraw(club, event.id, played.b or "")
    assert status == events.SAVED and after is not None and after.withdrawn == ((played.b, 1),)
    assert events.withdraw(club, event.id, (played.b or "").upper())[0] == events.ALREADY
    assert events.withdraw(club, event.id, "Nobody")[0] == events.NOBODY
    assert events.withdraw(club, 404, "Ala")[0] == events.STALE
    assert after.round_seats(1)[played.board - 1].result == A_WINS  # the result in stays
    later = [s for s in after.seats if played.b in (s.a, s.b)]
    assert later == [after.round_seats(1)[played.board - 1]]
    # Their board cannot be cleared (nobody would tap it again); correcting its winner is fine.
    assert events.correct(club, event.id, 1, played.board, None, None, NOW)[0] == events.LEFT
    assert events.correct(club, event.id, 1, played.board, B_WINS, "other", NOW)[0] == events.SAVED
    table = {s.nick: s for s in event_standings(events.get(club, event.id))}  # type: ignore[arg-type]
    assert table[played.b].withdrawn and table[played.b].wins == 1  # type: ignore[index]
    other = next(s for s in after.round_seats(1) if s.b is not None and s.board != played.board)
    assert events.record_result(club, event.id, 1, other.board, A_WINS, "other", NOW)[0] == events.SAVED
    events.close(club, event.id)
    assert events.withdraw(club, event.id, "Ala")[0] == events.STALE
    # A closed event's results can still be put right (its standings and files must be), not cleared.
    assert events.correct(club, event.id, 1, other.board, B_WINS, "other", NOW)[0] == events.SAVED
    assert events.correct(club, event.id, 1, other.board, None, None, NOW)[0] == events.STALE
    assert club.check() == []


def test_withdrawing_the_last_player_on_a_swiss_round_pairs_the_next_round_without_them(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, SWISS_FIELD), counts=False)
    *decided, last = [s for s in event.round_seats(1) if s.b is not None]
    for seat in decided:
        events.record_result(club, event.id, 1, seat.board, B_WINS, "other", NOW)
    assert events.withdraw(club, event.id, last.a)[0] == events.SAVED
    after = events.get(club, event.id)
    assert after is not None and after.made == 2 and after.current == 2
    assert all(last.a not in (s.a, s.b) for s in after.round_seats(2))
    # Their opponent's tap meets the board as it was paired: the phone can say who went home.
    assert events.record_result(club, event.id, 1, last.board, A_WINS, "other", NOW) == (events.LEFT, last)
    assert events.tap_board(club, event.id, 1, last.board) == (events.LEFT, last)
    assert Seat(1, last.board, last.b, None) in after.round_seats(1)  # what the page shows: the other one's bye


def test_phones_correcting_one_board_at_once_record_one_change_that_the_event_agrees_with(
    club: Store, tmp_path: Path
) -> None:
    event = events.start(club, EVENING, 13, sides(club, FIVE), counts=True)
    seat = next(s for s in event.round_seats(1) if s.b is not None)
    events.record_result(club, event.id, 1, seat.board, A_WINS, "other", NOW)
    answers: list[str] = []
    line = threading.Barrier(8)

    def phone(i: int) -> None:
        with Store.open(tmp_path) as own:
            line.wait()
            wish = (B_WINS, "resignation") if i % 2 else (None, None)  # half correct it, half clear it
            answers.append(events.correct(own, event.id, 1, seat.board, *wish, NOW, seen=0)[0])

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 8 and answers.count(events.SAVED) == 1, answers
    changes = [e for _, e in club.history_entries() if isinstance(e, Edit | Void)]
    assert len(changes) == 1 and events.fix_count(club, event.id, 1, seat.board) == 1
    now = events.get(club, event.id).round_seats(1)[seat.board - 1]  # type: ignore[union-attr]
    games = club.games_since(NOW - timedelta(hours=1))
    if isinstance(changes[0], Void):
        assert now.result is None and games == []
    else:
        assert now.result == B_WINS and [g.winner for g in games] == [seat.b]
    assert club.check() == []


def test_a_game_voided_on_the_owners_games_page_opens_its_board_again(club: Store) -> None:
    # The board's result is its game in the history; voided on the games page, the board has none
    # (it used to keep a result its table had and refuse the correction).
    event = events.start(club, EVENING, 13, sides(club, FIVE), counts=True)
    seat = next(s for s in event.round_seats(1) if s.b is not None)
    events.record_result(club, event.id, 1, seat.board, A_WINS, "other", NOW)
    [game_id] = events.game_ids(club, event.id).values()
    club.record(Void(NOW, game_id))  # the owner voided it as a game, outside the event
    before = list(club.history_entries())
    assert events.correct(club, event.id, 1, seat.board, B_WINS, "other", NOW)[0] == events.UNDECIDED
    assert events.correct(club, event.id, 1, seat.board, None, None, NOW)[0] == events.ALREADY
    assert list(club.history_entries()) == before and club.games_since(NOW - timedelta(hours=1)) == []
    assert events.record_result(club, event.id, 1, seat.board, B_WINS, "other", NOW)[0] == events.SAVED


def test_a_backup_with_corrections_and_withdrawals_is_the_kiosks_own(club: Store, tmp_path: Path) -> None:
    from kiosk.backup import schema_differences, verify

    event = events.start(club, EVENING, 13, sides(club, FIVE), counts=True)
    seat = next(s for s in event.round_seats(1) if s.b is not None)
    events.record_result(club, event.id, 1, seat.board, A_WINS, "other", NOW)
    events.correct(club, event.id, 1, seat.board, B_WINS, "other", NOW)
    events.withdraw(club, event.id, "Ala")
    club.backup(tmp_path / "copy.sqlite3")
    assert schema_differences(tmp_path / "copy.sqlite3", SCHEMA_VERSION) == []
    # players, the start, the game, its edit, the withdrawal (all history lines)
    assert verify(tmp_path / "copy.sqlite3", club.config).events == len(CLUB) + 8 + 4
