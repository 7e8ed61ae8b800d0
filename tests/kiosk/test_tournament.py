"""Small events: formats by turnout, Berger tables, the Swiss, standings, exports."""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import date, datetime
from fractions import Fraction
from xml.etree import ElementTree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.events import GamePlayed, nick_key
from kiosk.pairing import Side
from kiosk.scale import fields
from kiosk.tournament import (
    A_WINS,
    B_WINS,
    DOUBLE_ROUND_ROBIN,
    DRAW,
    ROUND_ROBIN,
    SWISS,
    PlayedBoard,
    Seat,
    Tournament,
    berger,
    board_pairing,
    current_sides,
    egd_grade,
    event_game,
    event_standings,
    first_rounds,
    format_for,
    next_round,
    planned_rounds,
    played_boards,
    points,
    rounds_for,
    standings,
    swiss_round,
    swiss_rounds,
    to_h9,
    to_opengotha,
)

CONFIG = Config()
NAMES = ["Łucja", "Жора", "小林", "Zoë 🐉", "Ala", "Ola", "Ula", "Bartek", "Czarek", "Dawid", "Ewa", "Franek"]


def players(count: int, seed: int = 0) -> list[Side]:
    chance = random.Random(seed)
    names = [NAMES[i] if i < len(NAMES) else f"gracz-{i}" for i in range(count)]
    return [Side(name, chance.choice(fields()), i % 5 == 0, False) for i, name in enumerate(names)]


def with_results(seats: list[Seat], chance: random.Random) -> list[Seat]:
    return [s if s.b is None else s._replace(result=chance.choice([A_WINS, B_WINS, A_WINS, DRAW])) for s in seats]


def play_out(field: list[Side], seed: int) -> list[Seat]:
    """A whole event with random results, as the store would run it: each round after the last is done."""
    chance = random.Random(seed)
    event_format = format_for(len(field))
    event = Tournament(
        1, date(2026, 11, 30), 13, event_format, rounds_for(event_format, len(field)), True, tuple(field), ()
    )
    seats = first_rounds(event_format, field)
    if event_format != SWISS:
        return with_results(seats, chance)
    while True:
        event = Tournament(**{**_fields(event), "seats": (*event.seats, *with_results(seats, chance))})
        seats = next_round(event)
        if not seats:
            return list(event.seats)


def _fields(event: Tournament) -> dict[str, object]:
    return {name: getattr(event, name) for name in Tournament.__slots__}


def check_rounds(seats: list[Seat], count: int) -> None:
    """Each round: every player exactly once (playing or on the bye), boards numbered 1.., at most one bye."""
    by_round: dict[int, list[Seat]] = {}
    for seat in seats:
        by_round.setdefault(seat.round, []).append(seat)
    assert sorted(by_round) == list(range(1, len(by_round) + 1))
    for number, round_seats in by_round.items():
        nicks = [nick_key(n) for s in round_seats for n in (s.a, s.b) if n is not None]
        assert len(nicks) == len(set(nicks)) == count, number
        assert [s.board for s in round_seats] == list(range(1, len(round_seats) + 1))
        assert sum(s.b is None for s in round_seats) == count % 2


# --- formats and round counts -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "expected", "rounds"),
    [
        (4, DOUBLE_ROUND_ROBIN, 6),
        (5, DOUBLE_ROUND_ROBIN, 10),
        (6, DOUBLE_ROUND_ROBIN, 10),
        (7, ROUND_ROBIN, 7),
        (10, ROUND_ROBIN, 9),
        (11, SWISS, 7),
        (12, SWISS, 8),
        (16, SWISS, 9),
        (40, SWISS, 11),
        (60, SWISS, 12),
    ],
)
def test_the_format_follows_the_turnout(count: int, expected: str, rounds: int) -> None:
    assert format_for(count) == expected
    assert rounds_for(expected, count) == rounds


def test_fewer_than_four_players_is_no_event() -> None:
    with pytest.raises(HistoryError) as error:
        format_for(3)
    assert error.value.message("pl") == "turniej potrzebuje co najmniej 4 graczy; jest 3"


@given(st.integers(min_value=11, max_value=300))
def test_swiss_rounds_are_about_2_log2_n_plus_1_rounded_down(count: int) -> None:
    import math

    assert swiss_rounds(count) == min(count - 1, math.floor(2 * math.log2(count)) + 1)


def test_the_berger_table_of_six_is_fides() -> None:
    # 1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1 (numbers from 1)
    expected = [
        [(1, 6), (2, 5), (3, 4)],
        [(4, 6), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(5, 6), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]
    table = [[tuple(sorted((a + 1, b + 1 if b is not None else 0))) for a, b in r] for r in berger(6)]
    assert table == [[tuple(sorted(p)) for p in r] for r in expected]


# --- property tests: round-robins ------------------------------------------------------------------


@given(st.integers(min_value=4, max_value=10), st.integers(min_value=0, max_value=1000))
def test_a_round_robin_pairs_everyone_once_per_cycle(count: int, seed: int) -> None:
    field = players(count, seed)
    event_format = format_for(count)
    seats = first_rounds(event_format, field)
    cycles = 2 if event_format == DOUBLE_ROUND_ROBIN else 1
    assert max(s.round for s in seats) == rounds_for(event_format, count)
    check_rounds(seats, count)
    meetings = Counter(frozenset((nick_key(s.a), nick_key(s.b))) for s in seats if s.b is not None)
    assert len(meetings) == count * (count - 1) // 2  # every pair meets ...
    assert set(meetings.values()) == {cycles}  # ... once per cycle, never more
    half = rounds_for(event_format, count) // cycles
    first_cycle = Counter(frozenset((s.a, s.b)) for s in seats if s.b is not None and s.round <= half)
    assert set(first_cycle.values()) == {1}  # no repeat pairing within a cycle
    byes = Counter(s.a for s in seats if s.b is None)
    assert byes == (Counter({p.nick: cycles for p in field}) if count % 2 else Counter())


# --- property tests: the Swiss ----------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=11, max_value=41), st.integers(min_value=0, max_value=10_000))
def test_a_swiss_never_repeats_a_pairing_and_plays_all_its_rounds(count: int, seed: int) -> None:
    field = players(count, seed)
    seats = play_out(field, seed)
    check_rounds(seats, count)
    assert max(s.round for s in seats) == swiss_rounds(count)
    pairs = [frozenset((nick_key(s.a), nick_key(s.b))) for s in seats if s.b is not None]
    assert len(pairs) == len(set(pairs))  # never a repeat pairing
    byes = [s.a for s in seats if s.b is None]
    assert len(byes) == len(set(byes))  # a bye only to a player without one


def test_the_first_swiss_round_pairs_by_club_strength() -> None:
    field = [Side(f"p{i:02d}", 200 - 4 * i, False, False) for i in range(12)]
    seats = swiss_round(list(reversed(field)), [], 1)
    assert [(s.a, s.b) for s in seats] == [(f"p{i:02d}", f"p{i + 1:02d}") for i in range(0, 12, 2)]


def test_later_swiss_rounds_pair_by_score_then_strength_and_the_bye_goes_to_the_lowest_score() -> None:
    field = [Side(f"p{i:02d}", 200 - 4 * i, False, False) for i in range(11)]
    first = swiss_round(field, [], 1)
    assert first[-1] == Seat(1, 6, "p10", None)  # the weakest sits out first
    # The weaker player of every pair wins: scores 1 for p01, p03, ..., p09 and the bye p10.
    played = [s if s.b is None else s._replace(result=B_WINS) for s in first]
    second = swiss_round(field, played, 2)
    winners = ["p01", "p03", "p05", "p07", "p09", "p10"]
    assert [(s.a, s.b) for s in second[:3]] == [("p01", "p03"), ("p05", "p07"), ("p09", "p10")]
    assert second[-1] == Seat(2, 6, "p08", None)  # lowest score without a bye, the weakest of them
    assert not {s.a for s in second[3:5]} & set(winners)


def test_a_swiss_that_runs_out_of_opponents_says_so() -> None:
    field = [Side(f"p{i}", 40, False, False) for i in range(4)]
    everyone = [Seat(1, 1, "p0", "p1", A_WINS), Seat(1, 2, "p2", "p3", A_WINS)]
    everyone += [Seat(2, 1, "p0", "p2", A_WINS), Seat(2, 2, "p1", "p3", A_WINS)]
    everyone += [Seat(3, 1, "p0", "p3", A_WINS), Seat(3, 2, "p1", "p2", A_WINS)]
    with pytest.raises(HistoryError, match="round 4 cannot be paired without a rematch"):
        swiss_round(field, everyone, 4)


# --- handicaps -------------------------------------------------------------------------------------


def test_every_board_is_a_handicap_game_by_the_boards_table_the_stronger_player_white() -> None:
    bianka, czarek = Side("Bianka", 138, False, False), Side("Czarek", 100, False, False)  # 34.5 and 25 on 9x9
    event = Tournament(1, date(2026, 11, 30), 9, DOUBLE_ROUND_ROBIN, 6, True, (bianka, czarek), ())
    pairing = board_pairing(event, Seat(1, 1, "Czarek", "Bianka"), {"bianka": bianka, "czarek": czarek}, CONFIG)
    assert pairing.white is not None and pairing.white.nick == "Bianka"
    assert (pairing.handicap.moves, pairing.handicap.prisoners) == (2, 0)  # docs/rules.md §4's example
    close = {"bianka": bianka, "czarek": Side("Czarek", 136, False, False)}  # 34.5 and 34: an even game
    even = board_pairing(event, Seat(1, 1, "Bianka", "Czarek"), close, CONFIG)
    assert even.handicap.even and even.white is None


def test_an_event_game_is_an_ordinary_game_line() -> None:
    seat = Seat(2, 1, "Bianka", "Czarek")
    now = datetime(2026, 11, 30, 19, 30)
    game = event_game(9, seat, B_WINS, "resignation", now, now)
    assert game == GamePlayed(now, 9, ("Bianka", "Czarek"), "Czarek", "resignation")
    assert event_game(9, seat, DRAW, "resignation", now, now).by is None
    assert event_game(9, seat, A_WINS, 12.5, now, now).by == Fraction(25, 2)
    with pytest.raises(HistoryError):
        event_game(9, seat, "maybe", None, now, now)
    with pytest.raises(HistoryError):
        event_game(9, Seat(2, 2, "Ala", None), A_WINS, None, now, now)


# --- standings ------------------------------------------------------------------------------------


def test_standings_score_then_sos_then_sodos_and_equals_share_a_place() -> None:
    a, b, c, d = (Side(n, q, False, False) for n, q in (("A", 160), ("B", 150), ("C", 140), ("D", 130)))
    seats = [
        Seat(1, 1, "A", "B", A_WINS),
        Seat(1, 2, "C", "D", B_WINS),
        Seat(2, 1, "A", "D", B_WINS),
        Seat(2, 2, "B", "C", DRAW),
    ]
    # Scores: A 1, B 1/2, C 1/2, D 2.  SOS: A = B + D = 5/2, B = A + C = 3/2, C = B + D = 5/2, D = C + A = 3/2.
    table = standings([a, b, c, d], seats)
    assert [(s.place, s.nick, s.score, s.sos, s.sodos) for s in table] == [
        (1, "D", 2, Fraction(3, 2), Fraction(3, 2)),
        (2, "A", 1, Fraction(5, 2), Fraction(1, 2)),
        (3, "C", Fraction(1, 2), Fraction(5, 2), Fraction(1, 4)),
        (4, "B", Fraction(1, 2), Fraction(3, 2), Fraction(1, 4)),
    ]
    assert (table[0].wins, table[0].draws, table[0].losses) == (2, 0, 0)
    tied = standings([a, b], [Seat(1, 1, "A", "B", DRAW)])
    assert [(s.place, s.nick) for s in tied] == [(1, "A"), (1, "B")]
    assert points(Fraction(5, 2)) == "2½" and points(Fraction(1, 2)) == "½" and points(Fraction(3)) == "3"


def test_a_bye_scores_a_win_and_adds_nothing_to_sos() -> None:
    a, b, c = (Side(n, q, False, False) for n, q in (("A", 160), ("B", 150), ("C", 140)))
    table = standings([a, b, c], [Seat(1, 1, "A", "B", A_WINS), Seat(1, 2, "C", None)])
    assert {s.nick: (s.score, s.sos, s.byes) for s in table} == {"A": (1, 0, 0), "B": (0, 1, 0), "C": (1, 0, 1)}


# --- exports --------------------------------------------------------------------------------------


def finished_event(count: int = 5, seed: int = 3) -> Tournament:
    field = players(count, seed)
    event_format = format_for(count)
    seats = play_out(field, seed)
    return Tournament(
        7,
        date(2026, 11, 30),
        13,
        event_format,
        rounds_for(event_format, count),
        True,
        tuple(field),
        tuple(seats),
        name="Turniej listopadowy",
    )


H9_LINE = re.compile(r"^(\d+) (\S+) (\d{1,2}[kd]) PL Semd( (0[+-]|\d+[+=-](/[wb]\d+)?))+$")


@pytest.mark.parametrize("count", [5, 8, 13])
def test_the_h9_file_has_one_line_per_player_in_the_egd_format(count: int) -> None:
    event = finished_event(count)
    text = to_h9(event, CONFIG)
    lines = [line for line in text.splitlines() if line and not line.startswith(";")]
    assert len(lines) == count
    table = event_standings(event)
    for place, (line, standing) in enumerate(zip(lines, table, strict=True), start=1):
        match = H9_LINE.match(line)
        assert match, line
        assert int(match.group(1)) == place
        assert match.group(3) == egd_grade(next(p for p in event.players if p.nick == standing.nick).strength)
        results = line.split(" ")[5:]
        assert len(results) == event.made  # one entry per round
        wins = sum(r.startswith("0+") or re.match(r"^[1-9]\d*\+", r) is not None for r in results)
        draws = sum("=" in r for r in results)
        assert Fraction(wins) + Fraction(draws, 2) == standing.score
    assert "; EV[Turniej listopadowy]" in text and "; DT[2026-11-30,2026-11-30]" in text


def test_h9_opponents_and_colours_agree_both_ways() -> None:
    event = finished_event(6)
    lines = [line.split(" ") for line in to_h9(event, CONFIG).splitlines() if line and not line.startswith(";")]
    for place, line in enumerate(lines, start=1):
        for number, entry in enumerate(line[5:]):
            opponent, symbol, colour = re.match(r"^(\d+)([+=-])(?:/([wb])\d+)?$", entry).groups()  # type: ignore[union-attr]
            back = lines[int(opponent) - 1][5 + number]
            assert back.startswith(f"{place}{ {'+': '-', '-': '+', '=': '='}[symbol] }".replace(" ", ""))
            if colour:
                assert f"/{'b' if colour == 'w' else 'w'}" in back


def test_egd_grades_come_from_the_boards_conversion() -> None:
    assert egd_grade(160) == "10k" and egd_grade(196) == "1k" and egd_grade(200) == "1d" and egd_grade(0) == "50k"


def test_the_opengotha_file_parses_and_names_every_game() -> None:
    event = finished_event(7)
    root = ElementTree.fromstring(to_opengotha(event, CONFIG).encode())
    assert root.tag == "Tournament"
    players_ = root.findall("Players/Player")
    assert sorted(p.get("name") for p in players_) == sorted(p.nick for p in event.players)
    keys = {p.get("name"): "".join((p.get("name") or "").split()).upper() for p in players_}
    games = root.findall("Games/Game")
    assert len(games) == sum(s.b is not None for s in event.seats)
    byes = root.findall("ByePlayer/ByePlayer")
    assert len(byes) == sum(s.b is None for s in event.seats) == 7  # one each: 7 players, 7 rounds
    strengths = {p.nick: p.strength for p in event.players}
    for game, seat in zip(games, [s for s in event.seats if s.b is not None], strict=True):
        assert game.get("roundNumber") == str(seat.round) and game.get("tableNumber") == str(seat.board)
        assert {game.get("whitePlayer"), game.get("blackPlayer")} == {keys[seat.a], keys[seat.b]}
        winner = {A_WINS: seat.a, B_WINS: seat.b, DRAW: None}[seat.result]
        expected = {
            None: "RESULT_EQUAL",
            seat.a: "RESULT_WHITEWINS" if game.get("whitePlayer") == keys[seat.a] else "RESULT_BLACKWINS",
            seat.b: "RESULT_WHITEWINS" if game.get("whitePlayer") == keys[seat.b] else "RESULT_BLACKWINS",
        }[winner]
        assert game.get("result") == expected
        if game.get("knownColor") == "true":  # a handicap game: White is the stronger player
            white = next(n for n, k in keys.items() if k == game.get("whitePlayer"))
            black = next(n for n, k in keys.items() if k == game.get("blackPlayer"))
            assert strengths[white] > strengths[black]
    general = root.find("TournamentParameterSet/GeneralParameterSet")
    assert general is not None and general.get("numberOfRounds") == "7" and general.get("size") == "13"


def test_an_event_is_finished_when_its_last_round_is_played() -> None:
    field = players(4, 1)
    seats = first_rounds(DOUBLE_ROUND_ROBIN, field)
    event = Tournament(1, date(2026, 11, 30), 13, DOUBLE_ROUND_ROBIN, 6, True, tuple(field), tuple(seats))
    assert (event.current, event.finished) == (1, False)
    played = Tournament(**{**_fields(event), "seats": tuple(with_results(seats, random.Random(1)))})
    assert (played.current, played.finished) == (6, True)
    half = Tournament(
        **{**_fields(event), "seats": tuple(s._replace(result=DRAW) if s.round <= 3 else s for s in seats)}
    )
    assert (half.current, half.finished) == (4, False)


def test_planned_rounds_and_the_boards_of_the_current_round() -> None:
    assert planned_rounds(SWISS, 40) == 11 and planned_rounds(SWISS, 40, 7) == 7 and planned_rounds(SWISS, 40, 0) == 1
    assert planned_rounds(SWISS, 40, 99) == 11 and planned_rounds(ROUND_ROBIN, 8, 3) == 7
    from kiosk.board import Magnet

    magnets = [Magnet(n, 9, q, "member") for n, q in (("A", 138), ("B", 100), ("C", 92), ("D", 48), ("E", 40))]
    field = [Side(m.nick, m.strength, False, False) for m in magnets]
    event = Tournament(
        1,
        date(2026, 11, 30),
        9,
        DOUBLE_ROUND_ROBIN,
        10,
        True,
        tuple(field),
        tuple(first_rounds(DOUBLE_ROUND_ROBIN, field)),
    )
    shown = played_boards(event, magnets, {}, CONFIG)  # nothing played yet: every board from the magnets now
    assert [(b.seat.a, b.seat.b, b.handicap is None) for b in shown] == [
        (s.a, s.b, s.b is None) for s in event.round_seats(1)
    ]
    for board in shown:
        if board.seat.b is not None:
            sides = {k.lower(): v for k, v in zip("ABCDE", field, strict=True)}
            assert board.handicap == board_pairing(event, board.seat, sides, CONFIG).handicap


def test_a_decided_board_shows_the_handicap_it_was_played_with_and_a_board_on_the_one_from_the_magnets_now() -> None:
    """THE rule the phone, the API and the wall share (``played_boards``): the magnets move after a game, so the
    handicap from the board now would be wrong for a board already played."""
    from kiosk.board import GameResult, Magnet
    from kiosk.handicap import Handicap

    magnets = [Magnet(n, 9, q, "member") for n, q in (("A", 138), ("B", 100), ("C", 92), ("D", 48), ("E", 40))]
    field = [Side(m.nick, m.strength, False, False) for m in magnets]
    seats = first_rounds(DOUBLE_ROUND_ROBIN, field)
    first, second, bye = seats[0], seats[1], next(s for s in seats if s.round == 1 and s.b is None)
    assert first.b is not None and second.b is not None and first.round == second.round == 1
    # Board 1 is decided, its history game played when the weaker one had grown (so White was the other one);
    # board 2 is still on.
    decided = [s._replace(result=A_WINS) if s == first else s for s in seats]
    event = Tournament(1, date(2026, 11, 30), 9, DOUBLE_ROUND_ROBIN, 10, True, tuple(field), tuple(decided))
    then = Handicap(False, 1, 1)
    game = GameResult(7, datetime(2026, 11, 30, 19), 9, (first.a, first.b), first.a, None, first.b, then, {})
    shown = {b.seat.board: b for b in played_boards(event, magnets, {(1, first.board): game}, CONFIG)}
    assert sorted(shown) == [s.board for s in event.round_seats(1)]
    assert (shown[first.board].white, shown[first.board].black, shown[first.board].handicap) == (first.b, first.a, then)
    sides = current_sides(event, magnets)
    for seat in (second, first._replace(result=A_WINS)):
        pairing = board_pairing(event, seat, sides, CONFIG)  # the handicap from the magnets now
        assert pairing is not None and pairing.white is not None and pairing.black is not None
        expected = PlayedBoard(seat, pairing.white.nick, pairing.black.nick, pairing.handicap)
        if seat == second:  # a board on: the handicap from the magnets now
            assert shown[seat.board] == expected and pairing.handicap != then
        else:  # decided without a game (an event that does not count on the board): the magnets now, too
            assert played_boards(event, magnets, {}, CONFIG)[0] == expected and pairing.handicap != then
    assert shown[bye.board] == PlayedBoard(bye, None, None, None)
    later = next(s for s in seats if s.round == 2 and s.b is not None)
    assert [b.seat for b in played_boards(event, magnets, {}, CONFIG, [later])] == [later]  # any seats on asking
