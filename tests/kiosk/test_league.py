"""Late arrivals, returns, leagues across evenings, a deleted event on a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest
from histories import player

from kiosk import league
from kiosk.events import dump_line, parse_line
from kiosk.pairing import side_of
from kiosk.services import league as leagues
from kiosk.services import tournaments as events
from kiosk.store import Store
from kiosk.tournament import A_WINS, ROUND_ROBIN, SWISS, Tournament, event_standings, fold

EVENING = date(2026, 11, 2)
NOW = datetime(2026, 11, 2, 19, 30)


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path) as store:
        for i in range(14):
            store.record(player(f"Gracz{i:02d}", 13, "member", 30 - i))
        yield store


def sides(store: Store, count: int, first: int = 0) -> list:
    return [side_of(store.magnets(), f"Gracz{i:02d}", 13) for i in range(first, first + count)]


def play_round(store: Store, event: Tournament) -> Tournament:
    """Every open board of the round on: the first named wins."""
    number = event.current
    for seat in event.round_seats(number):
        if seat.b is not None and seat.result is None:
            events.record_result(store, event.id, number, seat.board, A_WINS, "resignation", NOW)
    after = events.get(store, event.id)
    assert after is not None
    return after


def score(event: Tournament, nick: str) -> Fraction:
    return next(line.score for line in event_standings(event) if line.nick == nick)


def test_a_late_starter_joins_a_swiss_with_half_a_point_for_each_round_missed(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, 11), counts=True)  # 11 players: a Swiss of 7 rounds
    assert (event.format, event.rounds) == (SWISS, 7)
    event = play_round(club, event)  # round 2 is paired now
    status, after = leagues.join(club, event.id, "Gracz12", NOW)
    assert status == leagues.SAVED and after is not None
    assert after.joined_from("Gracz12") == 3  # two rounds paired without them: they play from round 3
    assert score(after, "Gracz12") == 1  # ½ + ½ for rounds 1 and 2 (the default)
    assert all(s.a != "Gracz12" for s in after.round_seats(2))  # a credit is no board
    after = play_round(club, after)
    assert any("Gracz12" in (s.a, s.b) for s in after.round_seats(3))  # the Swiss pairs them in
    assert after.current == 3


def test_a_join_after_a_third_of_the_rounds_and_in_a_round_robin_is_refused_and_writes_nothing(club: Store) -> None:
    small = events.start(club, EVENING, 13, sides(club, 8), counts=False)
    assert small.format == ROUND_ROBIN
    before = club.history_mark()
    assert leagues.join(club, small.id, "Gracz12", NOW)[0] == leagues.ROUND_ROBIN
    events.close(club, small.id)
    event = events.start(club, EVENING, 13, sides(club, 11), counts=False)
    for _ in range(3):
        event = play_round(club, event)  # 4 rounds paired: more than a third of 7
    before = club.history_mark()
    assert leagues.join(club, event.id, "Gracz12", NOW)[0] == leagues.TOO_LATE
    assert leagues.join(club, event.id, "Gracz01", NOW)[0] == leagues.PLAYING
    assert leagues.join(club, event.id, "Nobody", NOW)[0] == leagues.TOO_LATE  # said before a name is looked up
    assert club.history_mark() == before
    assert league.join_limit(7) == 2 and league.may_join(9, 3) and not league.may_join(9, 4)


def test_the_late_setting_bye_scores_a_point_a_round(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, 11), counts=False)
    start = club.tournament_entries(event.id)[0][1]
    from dataclasses import replace

    line = replace(start, late="bye")
    assert '"late": "bye"' in dump_line(line) and parse_line(dump_line(line)) == line
    folded = fold([(1, line)])[event.id].tournament
    assert folded.late == "bye"


def test_a_player_who_went_home_comes_back_and_the_swiss_pairs_them_again(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, 12), counts=True)
    before = club.history_mark()
    assert leagues.come_back(club, event.id, "Gracz03", NOW)[0] == leagues.NOT_GONE  # never left
    assert leagues.come_back(club, event.id, "Nikt", NOW)[0] == leagues.NOBODY
    assert club.history_mark() == before
    events.withdraw(club, event.id, "Gracz03", NOW)
    event = play_round(club, events.get(club, event.id))  # round 2 paired without Gracz03
    assert all("Gracz03" not in (s.a, s.b) for s in event.round_seats(2))
    status, after = leagues.come_back(club, event.id, "Gracz03", NOW)
    assert status == leagues.SAVED and after is not None
    assert after.withdrawn_from("Gracz03") is None and after.returned == (("Gracz03", 1, 3),)
    after = play_round(club, after)
    assert any("Gracz03" in (s.a, s.b) for s in after.round_seats(3))
    assert [line.withdrawn for line in event_standings(after) if line.nick == "Gracz03"] == [False]


def test_coming_back_in_the_round_they_left_gives_the_game_back(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, 12), counts=True)
    seat = next(s for s in event.round_seats(1) if "Gracz05" in (s.a, s.b))
    events.withdraw(club, event.id, "Gracz05", NOW)  # tapped by mistake
    gone = events.get(club, event.id)
    assert gone is not None and all(s.b is None for s in gone.round_seats(1) if s.board == seat.board)
    status, back = leagues.come_back(club, event.id, "Gracz05", NOW)
    assert status == leagues.SAVED and back is not None
    assert next(s for s in back.round_seats(1) if s.board == seat.board) == seat


def test_a_phone_asks_and_the_owner_confirms_or_declines(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, 11), counts=True)
    assert leagues.ask(club, event.id, "Gracz12", NOW, origin="phone:a")[0] == leagues.SAVED
    assert leagues.ask(club, event.id, "Gracz12", NOW, origin="phone:a")[0] == leagues.ASKED
    assert leagues.ask(club, event.id, "Gracz13", NOW)[0] == leagues.SAVED
    asked = events.get(club, event.id)
    assert asked is not None and asked.asking == ("Gracz12", "Gracz13")
    assert leagues.answer(club, event.id, "Gracz12", True, NOW)[0] == leagues.SAVED
    assert leagues.answer(club, event.id, "Gracz13", False, NOW)[0] == leagues.SAVED
    after = events.get(club, event.id)
    assert after is not None and after.asking == () and after.joined_from("Gracz12") == 2
    assert after.joined_from("Gracz13") is None
    assert leagues.answer(club, event.id, "Gracz13", True, NOW)[0] == leagues.NOBODY  # no ask open any more


def test_a_league_pairs_each_evening_among_those_checked_in_and_carries_the_standings(club: Store) -> None:
    for i in range(10):
        club.check_in(EVENING, f"Gracz{i:02d}")
    event = leagues.start_league(club, EVENING, 13, sides(club, 10), True, "Jesień", 6, 2, absent="half", now=NOW)
    assert event.is_league and event.rounds == 6 and event.format == SWISS
    event = play_round(club, event)  # round 2 of the evening pairs itself
    assert event.made == 2
    event = play_round(club, event)  # two rounds a night: round 3 waits for the next evening
    assert event.made == 2 and not event.finished
    week = EVENING + timedelta(days=7)
    for i in range(2, 10):  # Gracz00 and Gracz01 stay at home
        club.check_in(week, f"Gracz{i:02d}")
    before = {line.nick: line.score for line in event_standings(event)}
    status, event2 = leagues.pair_evening(club, event.id, week, NOW + timedelta(days=7))
    assert status == leagues.SAVED and event2 is not None
    seated = {n for s in event2.round_seats(3) for n in (s.a, s.b) if n}
    assert seated == {f"Gracz{i:02d}" for i in range(2, 10)}
    assert score(event2, "Gracz00") == before["Gracz00"] + Fraction(1, 2)  # absent: ½ by the setting
    assert leagues.pair_evening(club, event.id, week)[0] == leagues.ON_NOW  # round 3 is on
    assert [e.id for e in leagues.evening_events(club, week)] == [event.id]
    assert event2.evenings == ((EVENING, 1), (week, 3))


def test_a_deleted_event_is_gone_and_its_games_stay_games(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, 11), counts=True)
    event = play_round(club, event)
    magnets = {m.nick: m.strength for m in club.magnets()}
    deleted, games = leagues.delete(club, event.id, NOW)
    assert deleted and games == 5
    assert events.get(club, event.id) is None and events.of_evening(club, EVENING) == []
    assert {m.nick: m.strength for m in club.magnets()} == magnets  # the board replays the same
    assert len(club.recent_games(10)) == 5
    assert leagues.delete(club, event.id, NOW) == (False, 0)
    assert events.start(club, EVENING, 13, sides(club, 5), counts=False).id == event.id + 1


def test_a_league_history_exports_imports_and_exports_byte_for_byte_and_checks_clean(
    club: Store, tmp_path: Path
) -> None:
    from kiosk import tournament_store

    for i in range(10):
        club.check_in(EVENING, f"Gracz{i:02d}")
    event = leagues.start_league(club, EVENING, 13, sides(club, 10), True, "Jesień", 4, 1, late="bye", now=NOW)
    event = play_round(club, event)
    week = EVENING + timedelta(days=7)
    for i in range(1, 12):
        club.check_in(week, f"Gracz{i:02d}")
    leagues.join(club, event.id, "Gracz10", NOW + timedelta(days=7))
    leagues.ask(club, event.id, "Gracz11", NOW + timedelta(days=7))
    leagues.answer(club, event.id, "Gracz11", False, NOW + timedelta(days=7))
    assert tournament_store.open_event(club, week) is None  # between evenings the league is not tonight's
    leagues.pair_evening(club, event.id, week, NOW + timedelta(days=7))
    assert tournament_store.open_event(club, week) == events.get(club, event.id)  # the wall's and the phone's
    other = events.start(club, EVENING - timedelta(days=1), 13, sides(club, 5), counts=False)
    leagues.delete(club, other.id, NOW)
    assert tournament_store.check(club) == []
    lines = list(club.export_lines())
    with Store.open(tmp_path / "copy") as copy:
        copy.import_history(lines)
        assert list(copy.export_lines()) == lines
        assert events.get(copy, event.id) == events.get(club, event.id)
        assert events.get(copy, other.id) is None


def test_a_round_robin_player_back_plays_their_games_from_the_round_on(club: Store) -> None:
    event = events.start(club, EVENING, 13, sides(club, 8), counts=True)  # a round-robin of 7 rounds
    assert event.format == ROUND_ROBIN
    event = play_round(club, event)
    events.withdraw(club, event.id, "Gracz02", NOW)  # from round 2: their games become byes
    gone = events.get(club, event.id)
    assert gone is not None and all(s.b != "Gracz02" for s in gone.seats if s.round >= 2)
    gone = play_round(club, gone)  # round 2 played without them: their opponent had the bye
    status, back = leagues.come_back(club, gone.id, "Gracz02", NOW)
    assert status == leagues.SAVED and back is not None and back.returned == (("Gracz02", 2, 3),)
    later = [s for s in back.seats if s.round >= 3 and "Gracz02" in (s.a, s.b)]
    assert len(later) == 5 and all(s.b is not None for s in later)  # rounds 3 to 7 are games again
    assert all("Gracz02" not in (s.a, s.b) or s.b is None for s in back.round_seats(2))


def test_going_home_in_a_league_lasts_the_evening_only(club: Store) -> None:
    for i in range(10):
        club.check_in(EVENING, f"Gracz{i:02d}")
    event = leagues.start_league(club, EVENING, 13, sides(club, 10), True, "Liga", 6, 2, now=NOW)
    events.withdraw(club, event.id, "Gracz04", NOW)
    event = play_round(club, events.get(club, event.id))  # round 2 pairs itself without Gracz04
    assert all("Gracz04" not in (s.a, s.b) for s in event.round_seats(2))
    event = play_round(club, event)
    status, extra = leagues.pair_evening(club, event.id, EVENING, NOW)  # one more round tonight: still gone
    assert status == leagues.SAVED and extra is not None and extra.withdrawn_from("Gracz04") == 1
    assert all("Gracz04" not in (s.a, s.b) for s in extra.round_seats(3))
    event = play_round(club, extra)
    week = EVENING + timedelta(days=7)
    for i in range(10):
        club.check_in(week, f"Gracz{i:02d}")
    status, after = leagues.pair_evening(club, event.id, week, NOW + timedelta(days=7))
    assert status == leagues.SAVED and after is not None
    assert after.withdrawn == () and any("Gracz04" in (s.a, s.b) for s in after.round_seats(after.made))
    assert score(after, "Gracz04") == score(event, "Gracz04")  # the night they left scored nothing more
