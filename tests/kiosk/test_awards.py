"""The month's awards (kiosk/awards.py, docs/rules.md §8) on a constructed month in Warsaw time."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from histories import board_of, game, player

from kiosk.awards import (
    FIRST_EVEN,
    MOST_GAMES,
    MOST_IMPROVED,
    MOST_OPPONENTS,
    Award,
    month_awards,
    month_of,
    parse_month,
    read_month,
    shown_month,
)
from kiosk.board import Board
from kiosk.config import Config
from kiosk.events import Event, dump_line
from kiosk.rules import club_now
from kiosk.store import Store

NOVEMBER = (2026, 11)


def history() -> list[Event]:
    """Six members on 13x13 and a month of games; the games on either side of November sit minutes from it."""
    events = [
        player(nick, 13, "member", strength, when="2026-10-01T18:00")
        for nick, strength in [
            ("Ola", 20),
            ("Kuba", 20),
            ("Ewa", 21),
            ("Jan", 25),
            ("Zosia", 10),
            ("Piotr", 30),
            ("Iza", 29),
        ]
    ]
    events += [
        # October: Ola's and Kuba's first even games with a stronger player (Ewa 21, Ola 21).
        game(13, "Ola", "Ewa", "Ola", None, "2026-10-20T19:00"),
        game(13, "Kuba", "Ola", "Ola", None, "2026-10-31T23:50"),
        # November.
        game(13, "Kuba", "Ewa", "Kuba", "resignation", "2026-11-02T19:00"),  # even, Ewa stronger: not his first
        game(13, "Ola", "Kuba", "Kuba", None, "2026-11-02T20:00"),  # even, 22 and 22: nobody stronger
        game(13, "Zosia", "Jan", "Zosia", "resignation", "2026-11-03T19:00"),  # a training game: Zosia ↑2
        game(13, "Zosia", "Piotr", "Zosia", None, "2026-11-04T19:00"),  # ↑1
        game(13, "Zosia", "Ola", "Zosia", None, "2026-11-05T19:00"),  # ↑1
        game(13, "Jan", "Piotr", "Jan", "resignation", "2026-11-10T19:00"),  # Jan ↑2
        game(13, "Jan", "Ola", "Ola", "resignation", "2026-11-11T19:00"),  # Ola ↑2, Jan's loss is free
        game(13, "Jan", "Kuba", "Jan", None, "2026-11-12T19:00"),  # Jan ↑1
        game(13, "Iza", "Piotr", "Piotr", None, "2026-11-20T19:00"),  # Iza's first even game with a stronger one
        game(13, "Zosia", "Ola", "Zosia", None, "2026-11-30T23:30"),  # the last half hour of November: ↑1
        # December, ten minutes in (still 30 November in UTC).
        game(13, "Kuba", "Ola", "Kuba", "resignation", "2026-12-01T00:10"),
    ]
    return events


@pytest.fixture(scope="module")
def board() -> Board:
    return board_of(*history())


def test_each_award_of_the_month(board: Board) -> None:
    awards = month_awards(NOVEMBER, board.games, board.games)
    assert awards.of(MOST_IMPROVED) == (Award(MOST_IMPROVED, NOVEMBER, "Zosia", 5),)
    assert awards.of(MOST_OPPONENTS) == (Award(MOST_OPPONENTS, NOVEMBER, "Jan", 4),)  # Zosia met Ola twice: 3
    first = awards.of(FIRST_EVEN)
    assert first == (Award(FIRST_EVEN, NOVEMBER, "Iza", 1, opponent="Piotr", at=datetime(2026, 11, 20, 19, 0)),)
    assert [a.kind for a in awards.for_player("zosia")] == [MOST_IMPROVED, MOST_GAMES]


def test_a_tie_shares_the_award_and_the_month_ends_at_midnight_club_time(board: Board) -> None:
    # Ola played 31 Oct 23:50, four times in November (the last at 23:30 on the 30th) and 1 Dec 00:10:
    # a boundary an hour off (UTC) would count five or three.
    games = month_awards(NOVEMBER, board.games, board.games).of(MOST_GAMES)
    assert [(a.nick, a.count) for a in games] == [("Jan", 4), ("Ola", 4), ("Zosia", 4)]


def test_only_the_first_even_game_with_a_stronger_player_ever_counts(board: Board) -> None:
    # Kuba's even game with the stronger Ewa in November is not his first (31 October, against Ola) ...
    with_history = month_awards(NOVEMBER, board.games, board.games)
    assert with_history.find(FIRST_EVEN, "Kuba") is None
    # ... which only the earlier games tell.
    without = month_awards(NOVEMBER, board.games)
    assert without.find(FIRST_EVEN, "Kuba") == Award(FIRST_EVEN, NOVEMBER, "Kuba", 1, "Ewa", datetime(2026, 11, 2, 19))
    october = month_awards((2026, 10), board.games, board.games)
    assert [(a.nick, a.opponent) for a in october.of(FIRST_EVEN)] == [("Kuba", "Ola"), ("Ola", "Ewa")]


def test_no_award_below_its_minimum() -> None:
    events = [
        player("Ola", 13, "member", 20, when="2026-10-01T18:00"),
        player("Kuba", 13, "member", 25, when="2026-10-01T18:00"),
        game(13, "Ola", "Kuba", "Kuba", None, "2026-11-03T19:00"),
    ]
    board = board_of(*events)
    awards = month_awards(NOVEMBER, board.games, board.games)
    # One game: nobody played "the most" (two games at least); Kuba's win is one arrow up, enough to improve.
    assert awards.of(MOST_GAMES) == () and awards.of(MOST_OPPONENTS) == ()
    assert awards.of(MOST_IMPROVED) == (Award(MOST_IMPROVED, NOVEMBER, "Kuba", 1),)
    assert awards.of(FIRST_EVEN) == ()  # a handicap game, not even
    assert month_awards((2026, 12), board.games, board.games).awards == ()  # a month without games: no award


def test_net_arrows_a_climb_and_a_fall_cancel() -> None:
    events = [player(n, 13, "member", 20, when="2026-10-01T18:00") for n in ("Ola", "Kuba")]
    events += [
        game(13, "Ola", "Kuba", "Ola", None, "2026-11-03T19:00"),  # Ola ↑1, Kuba free loss
        game(13, "Ola", "Kuba", "Kuba", None, "2026-11-04T19:00"),  # Kuba ↑1, Ola free loss
        game(13, "Ola", "Kuba", "Kuba", None, "2026-11-05T19:00"),
    ]  # Kuba ↑1, Ola ↓1
    board = board_of(*events)
    awards = month_awards(NOVEMBER, board.games)
    assert awards.of(MOST_IMPROVED) == (Award(MOST_IMPROVED, NOVEMBER, "Kuba", 2),)


def test_the_month_is_the_clubs_in_warsaw_time_and_the_wall_keeps_the_last_one_for_a_week() -> None:
    config = Config()  # Europe/Warsaw
    late = club_now(config, datetime(2026, 11, 30, 23, 30, tzinfo=UTC))  # 00:30 on 1 December in Warsaw
    assert month_of(late) == (2026, 12)
    assert month_of(club_now(config, datetime(2026, 11, 30, 22, 59, tzinfo=UTC))) == NOVEMBER
    assert shown_month(late) == NOVEMBER  # the first week of December still shows November's final awards
    assert shown_month(datetime(2026, 12, 7, 23, 59)) == NOVEMBER
    assert shown_month(datetime(2026, 12, 8, 0, 0)) == (2026, 12)
    assert shown_month(datetime(2027, 1, 3, 12, 0)) == (2026, 12)


def test_months_typed_in_an_address() -> None:
    assert parse_month("2026-11") == NOVEMBER
    for bad in ("2026-13", "2026-1", "26-11", "november", "", "2026-00", "２０２６-11"):
        assert parse_month(bad) is None


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path) as opened:
        opened.import_history(dump_line(event) for event in history())
        yield opened


def test_read_through_the_store_the_same_awards(store: Store, board: Board) -> None:
    assert read_month(store, NOVEMBER) == month_awards(NOVEMBER, board.games, board.games)
    assert read_month(store, (2026, 10)).of(FIRST_EVEN) == month_awards((2026, 10), board.games).of(FIRST_EVEN)


def test_the_earlier_games_are_read_a_page_at_a_time_to_the_same_awards(
    store: Store, board: Board, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kiosk.awards

    monkeypatch.setattr(kiosk.awards, "EARLIER_PAGE", 1)  # Kuba's October game is two pages back
    assert read_month(store, NOVEMBER) == month_awards(NOVEMBER, board.games, board.games)


def test_a_teaching_game_counts_among_the_games_but_is_not_a_first_even_game() -> None:
    events = [
        player("Ola", 13, "member", 20, when="2026-10-01T18:00"),
        player("Kuba", 13, "member", 21, when="2026-10-01T18:00"),
        game(13, "Ola", "Kuba", "Kuba", None, "2026-11-03T19:00", kind="teaching"),  # even, Kuba stronger
        game(13, "Ola", "Kuba", "Ola", None, "2026-11-04T19:00", kind="teaching"),
    ]
    awards = month_awards(NOVEMBER, board_of(*events).games)
    assert awards.of(FIRST_EVEN) == ()
    assert [a.nick for a in awards.of(MOST_GAMES)] == ["Kuba", "Ola"]  # every game played at the club
    same_game_rated = game(13, "Ola", "Kuba", "Kuba", None, "2026-11-03T19:00")
    rated = month_awards(NOVEMBER, board_of(*events[:2], same_game_rated).games)
    assert rated.find(FIRST_EVEN, "Ola") is not None  # the same game rated is the milestone
