"""An event's handicap policy: capped, reduced, top group even; the board moves as played."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest
from histories import game, player

from kiosk.errors import HistoryError
from kiosk.event_handicap import check_policy, played
from kiosk.events import dump_line, parse_line
from kiosk.handicap import DEFAULT_SIZE_RULES, EVEN, Handicap, handicap_for
from kiosk.pairing import side_of
from kiosk.services import tournaments as events
from kiosk.store import Store
from kiosk.tiebreak import Choices
from kiosk.tournament import A_WINS, B_WINS, DRAW, played_boards

EVENING = date(2026, 11, 2)
NOW = datetime(2026, 11, 2, 19, 30)
RULES = DEFAULT_SIZE_RULES[13]


def test_the_policy_by_hand() -> None:
    table = Handicap(False, 8, 3, True)  # 13x13, a difference of 20: 8 moves and 3 prisoners, a training game
    assert played(table, RULES, None, 0, False) == table
    assert played(table, RULES, 3, 0, False) == Handicap(False, 3, 0, False)  # at most 3 moves, no prisoners
    assert played(table, RULES, None, 2, False) == Handicap(False, 6, 3, True)  # two moves less: still training
    assert played(table, RULES, None, 3, False) == Handicap(False, 5, 3, False)
    assert played(Handicap(False, 1, 5), RULES, None, 1, False) == EVEN  # less than nothing is an even game
    assert played(Handicap(False, 2, 5), RULES, None, 1, False) == Handicap(False, 1, 5)
    assert played(table, RULES, 3, 1, True) == EVEN  # two of the top group play even
    assert played(table, RULES, 6, 1, False) == Handicap(False, 6, 0, True)  # 7 moves less one, capped at 6


@pytest.mark.parametrize(("cap", "less", "top"), [(0, 0, 0), (10, 0, 0), (None, -1, 0), (None, 10, 0), (None, 0, 1)])
def test_a_bad_policy_is_refused(cap: int | None, less: int, top: int) -> None:
    with pytest.raises(HistoryError) as caught:
        check_policy(cap, less, top)
    assert caught.value.code == "bad-handicap-policy"


# Smok (30) against Ala (10) on 13x13 is a training game by the table (8 moves): Smok, White, does not move.
FOUR = [("Smok", 30), ("Ala", 10), ("Ola", 27), ("Ula", 11)]


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path) as store:
        for nick, strength in FOUR:
            store.record(player(nick, 13, "member", strength))
        # Smok's free loss of the week is used up before the event (a game against Ola at 19:10).
        store.record(game(13, "Smok", "Ola", "Ola", None, when="2026-11-02T19:10"))
        yield store


def _start(store: Store, choices: Choices) -> tuple[int, int, int]:
    sides = [side_of(store.magnets(), nick, 13) for nick, _s in FOUR]
    event = events.start(store, EVENING, 13, sides, counts=True, now=NOW, choices=choices)
    seat = next(s for s in event.seats if {s.a, s.b} == {"Smok", "Ala"})
    return event.id, seat.round, seat.board


def _strength(store: Store, nick: str) -> int:
    return next(m.strength for m in store.magnets() if m.nick == nick and m.size == 13)


def test_without_a_policy_the_table_is_played_and_smok_does_not_move(club: Store) -> None:
    number, round_number, board = _start(club, Choices())
    before = _strength(club, "Smok")
    later = datetime(2026, 11, 2, 21)
    assert events.record_result(club, number, round_number, board, B_WINS, "resignation", later)[0] == "saved"
    assert _strength(club, "Smok") == before  # training: the stronger player stays
    tapped = json.loads(list(club.export_lines())[-1])
    assert "handicap" not in tapped  # the table's handicap: the game's line as before the owner's choices


def test_a_capped_handicap_is_shown_played_and_kept_and_the_board_moves_as_played(club: Store) -> None:
    number, round_number, board = _start(club, Choices(handicap_cap=3))
    assert round_number == 1
    event = events.get(club, number)
    assert event is not None
    seats = event.round_seats(round_number)
    shown = next(b for b in played_boards(event, club.magnets(), {}, club.config, seats) if b.seat.board == board)
    assert shown.handicap == Handicap(False, 3, 0, False)  # the phone, the API and the wall: what is played
    assert handicap_for(abs(120 - 40), RULES).training  # the table's would have been a training game
    before = {nick: _strength(club, nick) for nick in ("Smok", "Ala")}
    later = datetime(2026, 11, 2, 21)
    assert events.record_result(club, number, round_number, board, B_WINS, "resignation", later)[0] == "saved"
    # Played with 3 moves it is no training game: Smok moves down as after any clear loss, Ala up.
    assert _strength(club, "Smok") < before["Smok"] and _strength(club, "Ala") > before["Ala"]
    lines = list(club.export_lines())
    tapped = json.loads(lines[-1])
    assert tapped["type"] == "game" and tapped["handicap"] == {"even": False, "moves": 3, "prisoners": 0}
    assert dump_line(parse_line(lines[-1])) == lines[-1]  # export -> import -> export: the same bytes
    decided = events.get(club, number)
    assert decided is not None
    games = events.played_games(club, number, decided.round_seats(round_number))
    again = next(
        b for b in played_boards(decided, club.magnets(), games, club.config, decided.round_seats(round_number))
    )
    assert again.handicap is not None
    # The owner's correction keeps the handicap played.
    fixed = events.correct(club, number, round_number, board, A_WINS, "resignation", later)
    assert fixed[0] == "saved"
    edit = json.loads(list(club.export_lines())[-1])
    assert edit["type"] == "edit" and edit["handicap"] == {"even": False, "moves": 3, "prisoners": 0}


def test_the_top_group_plays_even_and_cannot_draw(club: Store) -> None:
    sides = [side_of(club.magnets(), nick, 13) for nick, _s in FOUR]
    # The top group of four here is everyone: Smok and Ala, 20 apart, play even in round 1.
    event = events.start(club, EVENING, 13, sides, counts=True, now=NOW, choices=Choices(even_top=4))
    seat = next(s for s in event.round_seats(1) if {s.a, s.b} == {"Smok", "Ala"})
    boards = played_boards(event, club.magnets(), {}, club.config, event.round_seats(1))
    top = next(b for b in boards if b.seat.board == seat.board)
    assert top.handicap == EVEN and top.white is None  # nigiri
    two = events.start(club, date(2026, 11, 3), 13, sides, counts=True, now=NOW, choices=Choices(even_top=2))
    mixed = played_boards(two, club.magnets(), {}, club.config, two.round_seats(1))
    assert all(not b.handicap.even for b in mixed if b.handicap is not None)  # Smok and Ola meet later
    with pytest.raises(HistoryError) as caught:
        events.record_result(club, event.id, seat.round, seat.board, DRAW, None, datetime(2026, 11, 2, 21))
    assert caught.value.code == "draw-even"


def test_the_replay_moves_the_magnets_as_the_handicap_played_says() -> None:
    from histories import board_of, line

    table = [player("Smok", 13, "member", 30), player("Ala", 13, "member", 10)]
    won = {"size": 13, "players": ["Smok", "Ala"], "winner": "Ala", "by": "resignation"}
    full = board_of(*table, line("game", "2026-11-02T20:00", **won))
    assert full.games[0].moves["Smok"].why == "training"  # the table's 8 moves: Smok, White, stays
    capped = {**won, "handicap": {"even": False, "moves": 3, "prisoners": 0}}
    played_three = board_of(*table, line("game", "2026-11-02T20:00", **capped))
    assert played_three.games[0].handicap == Handicap(False, 3, 0, False)
    assert played_three.games[0].moves["Smok"].why != "training"  # played with 3 moves: no training game
    even = {**won, "winner": None, "by": None, "handicap": {"even": True}}
    with pytest.raises(HistoryError) as caught:
        board_of(*table, line("game", "2026-11-02T20:00", **even))
    assert caught.value.code == "draw-even"  # played even, it cannot be a draw
