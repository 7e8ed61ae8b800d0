"""A player who goes home mid-event: later games become the opponents' byes; a Swiss pairs them no more."""

from __future__ import annotations

import random
from datetime import date
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.config import Config
from kiosk.events import nick_key
from kiosk.pairing import Side
from kiosk.tournament import (
    A_WINS,
    B_WINS,
    DRAW,
    ROUND_ROBIN,
    SWISS,
    Seat,
    Tournament,
    event_standings,
    first_rounds,
    format_for,
    next_round,
    rounds_for,
    to_h9,
    to_opengotha,
    with_withdrawals,
)

CONFIG = Config()


def field(count: int) -> list[Side]:
    return [Side(f"p{i:02d}", 200 - 4 * i, False, False) for i in range(count)]


def event_of(sides: list[Side], raw: list[Seat], withdrawn: tuple[tuple[str, int], ...] = ()) -> Tournament:
    event_format = format_for(len(sides))
    return Tournament(
        1,
        date(2026, 11, 30),
        13,
        event_format,
        rounds_for(event_format, len(sides)),
        True,
        tuple(sides),
        with_withdrawals(raw, withdrawn),
        withdrawn=withdrawn,
    )


def test_a_later_game_without_a_result_becomes_the_opponents_bye_and_a_result_in_stays() -> None:
    raw = [
        Seat(1, 1, "Ala", "Ola", A_WINS),  # played before Ala went home: stays
        Seat(2, 1, "Ala", "Ula"),  # not played: Ula's bye
        Seat(2, 2, "Ola", "Ewa", B_WINS),  # nothing to do with Ala
        Seat(3, 1, "Ewa", "Ala"),  # not played: Ewa's bye, on the same board
        Seat(3, 2, "Ula", "Ola"),
        Seat(4, 1, "Ala", None),  # Ala's own bye after leaving: dropped
        Seat(4, 2, "Ala", "Ola", B_WINS),  # a result typed in anyway stays
    ]
    assert with_withdrawals(raw, [("ala", 2)]) == (
        raw[0],
        Seat(2, 1, "Ula", None),
        raw[2],
        Seat(3, 1, "Ewa", None),
        raw[4],
        raw[6],
    )
    assert with_withdrawals(raw, []) == tuple(raw)
    # Two who both went home: their game is not played and nobody gets its point.
    assert with_withdrawals([Seat(2, 1, "Ala", "Ula")], [("Ala", 2), ("Ula", 1)]) == ()


def test_the_bye_of_the_round_a_player_leaves_in_keeps_its_point() -> None:
    """Gosia has round 1's bye of a five-player double round-robin and goes home during round 1: her point stays."""
    nicks = ["Gosia", "Ala", "Bożena", "Celina", "Dorota"]
    sides = [Side(nick, 200 - 10 * i, False, False) for i, nick in enumerate(nicks)]
    raw = list(first_rounds(format_for(5), sides))
    byes = [s.round for s in raw if s.b is None and s.a == "Gosia"]
    assert byes[0] == 1 and len(byes) == 2  # one bye in each half of the double round-robin
    event = event_of(sides, raw, (("Gosia", 1),))
    assert Seat(1, 3, "Gosia", None) in event.seats  # this round's bye: a point already in
    assert [s.round for s in event.seats if s.b is None and s.a == "Gosia"] == [1]  # the later one: gone
    table = {line.nick: line for line in event_standings(event)}
    assert table["Gosia"].withdrawn and table["Gosia"].byes == 1 and table["Gosia"].score == 1


def test_a_round_robin_gives_every_remaining_player_the_same_point_against_the_one_who_left() -> None:
    sides = field(7)  # a single round-robin: 7 rounds, a bye each
    raw = list(first_rounds(ROUND_ROBIN, sides))
    # Round 1 is played (the stronger player always wins), then p06 goes home during round 2.
    raw = [s._replace(result=A_WINS) if s.round == 1 and s.b is not None else s for s in raw]
    event = event_of(sides, raw, (("p06", 2),))
    assert event.current == 2 and event.withdrawn_from("P06") == 2 and "p06" not in [p.nick for p in event.active]
    later = [s for s in event.seats if s.round >= 2]
    assert all("p06" not in (s.a, s.b) for s in later)
    # Every game of the others is left; each of them either met p06 in round 1 or gets a bye for it.
    for side in sides[:6]:
        byes = [s.round for s in event.seats if s.b is None and s.a == side.nick]
        met_p06 = any({s.a, s.b} == {side.nick, "p06"} for s in event.seats if s.round == 1)
        assert len(byes) == (1 if met_p06 else 2), side.nick
    # Everyone wins the rest: the one who left keeps round 1's result, no loss they did not play.
    done = [s if s.b is None or s.result else s._replace(result=B_WINS) for s in event.seats]
    table = {s.nick: s for s in event_standings(Tournament(**{**_fields(event), "seats": tuple(done)}))}
    assert table["p06"].withdrawn and not table["p00"].withdrawn
    assert table["p06"].games + table["p06"].byes <= 1
    assert sum(s.score for s in table.values()) == Fraction(len([s for s in done if s.round <= 7]))


def test_a_withdrawal_that_finishes_the_round_lets_a_swiss_pair_the_next_without_them() -> None:
    sides = field(12)
    raw = list(first_rounds(SWISS, sides))
    *decided, last = raw
    raw = [s._replace(result=B_WINS) for s in decided] + [last]
    assert next_round(event_of(sides, raw)) == []  # the last board is still on
    event = event_of(sides, raw, ((last.b or "", 1),))
    assert event.is_done(1) and event.round_seats(1)[-1] == Seat(1, last.board, last.a, None)
    second = next_round(event)
    assert second and all(last.b not in (s.a, s.b) for s in second)
    assert sum(s.b is None for s in second) == 1  # eleven left: one bye


def test_everyone_gone_but_one_ends_a_swiss() -> None:
    sides = field(11)
    raw = [s._replace(result=A_WINS) if s.b else s for s in first_rounds(SWISS, sides)]
    gone = tuple((side.nick, 2) for side in sides[1:])
    assert next_round(event_of(sides, raw, gone)) == []


def test_the_exports_leave_out_the_rounds_after_a_player_left() -> None:
    sides = field(4)
    raw = list(first_rounds(format_for(4), sides))
    raw = [s._replace(result=A_WINS) if s.round == 1 else s for s in raw]
    event = event_of(sides, raw, (("p03", 2),))
    players = {p.get("name"): p.get("participating") for p in _opengotha_players(event)}
    assert players["p03"] == "100000" and players["p00"] == "111111"
    lines = [line for line in to_h9(event, CONFIG).splitlines() if not line.startswith(";")]
    assert len(lines) == 4


def _opengotha_players(event: Tournament) -> list:
    from xml.etree import ElementTree

    return ElementTree.fromstring(to_opengotha(event, CONFIG).split("\n", 1)[1]).findall("Players/Player")


def _fields(event: Tournament) -> dict[str, object]:
    return {name: getattr(event, name) for name in Tournament.__slots__}


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=11, max_value=30),
    st.integers(min_value=0, max_value=10_000),
    st.lists(st.integers(min_value=0, max_value=29), max_size=8),
)
def test_a_swiss_with_withdrawals_never_repeats_a_pair_nor_pairs_one_who_left(
    count: int, seed: int, leaving: list[int]
) -> None:
    """Players go home at random rounds, some with their game of that round decided, some not."""
    chance = random.Random(seed)
    sides = [Side(f"gracz {i} ŁЖ小", chance.randrange(0, 200), i % 4 == 0, False) for i in range(count)]
    raw = list(first_rounds(SWISS, sides))
    withdrawn: list[tuple[str, int]] = []
    plan = [sides[i % count].nick for i in leaving]
    rounds = rounds_for(SWISS, count)
    for number in range(1, rounds + 1):
        event = event_of(sides, raw, tuple(withdrawn))
        on = [s for s in event.round_seats(number) if s.b is not None]
        half = len(on) // 2
        decided = {(s.round, s.board): chance.choice([A_WINS, B_WINS, DRAW]) for s in on[:half]}
        raw = [s._replace(result=decided.get((s.round, s.board), s.result)) for s in raw]
        if plan and chance.random() < 0.5:  # someone goes home during this round
            nick = plan.pop()
            if all(nick_key(nick) != nick_key(n) for n, _r in withdrawn):
                withdrawn.append((nick, number))
        event = event_of(sides, raw, tuple(withdrawn))
        rest = {(s.round, s.board): chance.choice([A_WINS, B_WINS]) for s in event.round_seats(number) if s.b}
        raw = [s._replace(result=s.result or rest.get((s.round, s.board))) for s in raw]
        event = event_of(sides, raw, tuple(withdrawn))
        assert event.is_done(number)
        added = next_round(event)
        if not added:
            break
        raw += added
        gone_before = {nick_key(n) for n, r in withdrawn}
        assert not gone_before & {nick_key(n) for s in added for n in (s.a, s.b) if n}  # never pairs one who left
        in_round = [nick_key(n) for s in added for n in (s.a, s.b) if n]
        assert len(in_round) == len(set(in_round)) == len(event.active)
    event = event_of(sides, raw, tuple(withdrawn))
    pairs = [frozenset((nick_key(s.a), nick_key(s.b))) for s in event.seats if s.b is not None]
    assert len(pairs) == len(set(pairs))  # never a repeat pairing
    for nick, left in withdrawn:
        # Only results in: games decided, and the bye of the round they left in (a point already theirs).
        assert all(
            s.result or (s.b is None and s.round == left) for s in event.seats if s.round >= left and nick in (s.a, s.b)
        )
