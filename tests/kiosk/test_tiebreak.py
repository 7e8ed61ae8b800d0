"""Tie-breaks and places: the owner's chain, byes by the EGF rule, unique places, "why above me"."""

from __future__ import annotations

import json
import random
from datetime import date, datetime
from fractions import Fraction

import pytest

from kiosk.errors import HistoryError
from kiosk.events import dump_line, nick_key, parse_line
from kiosk.pairing import Side
from kiosk.tiebreak import (
    DIRECT,
    OPENGOTHA,
    PROGRESS,
    SCORE,
    SHARED,
    SODOS,
    SOS,
    SOSOS,
    STRENGTH,
    TODAY,
    Choices,
    chain_from,
    rank,
    why_above,
)
from kiosk.tournament import A_WINS, B_WINS, DRAW, Seat, first_rounds, fold, format_for, standings, start_line

# The Turkish text's complaint: "the player I met and beat in round 1 has my score and my SOS, why is he above me?"
# Five players of a small Swiss-like evening; Ela beat Ada in round 1, both end on 2 points.
ADA, ELA, OLA, ULA, IZA = (
    Side(n, q, False, False) for n, q in (("Ada", 120), ("Ela", 100), ("Ola", 110), ("Ula", 90), ("Iza", 80))
)
SEATS = [
    Seat(1, 1, "Ada", "Ela", B_WINS),  # Ela beats Ada
    Seat(1, 2, "Ola", "Ula", A_WINS),
    Seat(1, 3, "Iza", None),  # Iza's bye
    Seat(2, 1, "Ada", "Iza", A_WINS),
    Seat(2, 2, "Ola", "Ela", A_WINS),
    Seat(2, 3, "Ula", None),
    Seat(3, 1, "Ada", "Ula", A_WINS),
    Seat(3, 2, "Ela", "Iza", A_WINS),
    Seat(3, 3, "Ola", None),
]
FIELD = [ADA, OLA, ELA, ULA, IZA]  # seeding order (strongest first)


def test_the_numbers_by_hand() -> None:
    # Scores: Ada 2 (r2, r3), Ela 2 (r1, r3), Ola 3 (r1, r2, bye r3), Ula 1 (bye r2), Iza 1 (bye r1).
    # SOS (a bye adds 0): Ada = Ela + Iza + Ula = 4, Ela = Ada + Ola + Iza = 6, Ola = Ula + Ela = 3,
    # Ula = Ola + Ada = 5, Iza = Ada + Ela = 4. SOSOS: Ada = 6 + 4 + 5 = 15, Ela = 4 + 3 + 4 = 11.
    # Progress (score after each round, summed): Ada 0 + 1 + 2 = 3, Ela 1 + 1 + 2 = 4, Ola 1 + 2 + 3 = 6, Iza 3.
    table = {s.nick: s for s in standings(FIELD, SEATS, (SOS, SOSOS, SODOS, PROGRESS))}
    assert {n: (s.score, s.sos, s.sosos, s.progress) for n, s in table.items()} == {
        "Ola": (3, 3, 11, 6),
        "Ada": (2, 4, 15, 3),
        "Ela": (2, 6, 11, 4),
        "Ula": (1, 5, 7, 2),
        "Iza": (1, 4, 10, 3),
    }
    assert table["Ela"].sodos == 2 + 1  # beat Ada (2) and Iza (1)
    assert table["Ela"].values == (2, 6, 11, 3, 4)


def test_the_owners_chain_decides_the_order() -> None:
    by_sos = [s.nick for s in standings(FIELD, SEATS, (SOS,))]
    assert by_sos == ["Ola", "Ela", "Ada", "Ula", "Iza"]
    by_sosos = [s.nick for s in standings(FIELD, SEATS, (SOSOS,))]
    assert by_sosos == ["Ola", "Ada", "Ela", "Iza", "Ula"]
    # Direct encounter first: Ela beat Ada, so she is above whatever SOSOS says.
    by_direct = [s.nick for s in standings(FIELD, SEATS, (DIRECT, SOSOS))]
    assert by_direct[1:3] == ["Ela", "Ada"]
    # Progress rewards the early win: Ela (4) above Ada (3).
    assert [s.nick for s in standings(FIELD, SEATS, (PROGRESS,))][1:3] == ["Ela", "Ada"]


def test_direct_encounter_decides_only_when_all_the_equals_have_met() -> None:
    # Ula and Iza are equal on 1 point and never met: direct encounter leaves them equal, the next criterion decides.
    table = standings(FIELD, SEATS, (DIRECT, SOS))
    line = {s.nick: s for s in table}
    assert line["Ula"].values[1] == line["Iza"].values[1] == 0
    assert [s.nick for s in table][3:] == ["Ula", "Iza"]  # SOS 5 against 4


def test_equals_share_a_place_unless_the_ceremony_needs_unique_places() -> None:
    shared = standings(FIELD, SEATS, ())
    assert [(s.place, s.nick) for s in shared] == [(1, "Ola"), (2, "Ada"), (2, "Ela"), (4, "Ula"), (4, "Iza")]
    unique = standings(FIELD, SEATS, (), unique=True)
    # The stated end of the chain: the stronger at the start first (Ada 120 above Ela 100, Ula 90 above Iza 80).
    assert [(s.place, s.nick) for s in unique] == [(1, "Ola"), (2, "Ada"), (3, "Ela"), (4, "Ula"), (5, "Iza")]
    twins = [Side("Bob", 100, False, False), Side("Al", 100, False, False)]
    seats = [Seat(1, 1, "Bob", "Al", DRAW)]
    # Equal strengths too: the nickname in alphabetical order (the seeding's order), never a lot.
    assert [(s.place, s.nick) for s in standings(twins, seats, (SOS,), unique=True)] == [(1, "Al"), (2, "Bob")]


def test_why_is_she_above_me_shows_the_numbers_that_decided_it() -> None:
    chain = (SOS, SOSOS)
    ranked = {r.key: r for r in rank([(p.nick, p.strength) for p in FIELD], SEATS, 4, chain)}
    strengths = {nick_key(p.nick): p.strength for p in FIELD}
    steps, decided = why_above(ranked["ela"], ranked["ada"], chain, strengths)
    assert decided == SOS
    assert [(s.name, s.upper, s.lower) for s in steps] == [(SCORE, 2, 2), (SOS, 6, 4)]
    steps, decided = why_above(ranked["ola"], ranked["ela"], chain, strengths)
    assert decided == SCORE and len(steps) == 1
    shared = {r.key: r for r in rank([(p.nick, p.strength) for p in FIELD], SEATS, 4, ())}
    assert why_above(shared["ada"], shared["ela"], (), strengths)[1] == SHARED
    unique = {r.key: r for r in rank([(p.nick, p.strength) for p in FIELD], SEATS, 4, (), unique=True)}
    steps, decided = why_above(unique["ada"], unique["ela"], (), strengths)
    assert decided == STRENGTH and (steps[-1].upper, steps[-1].lower) == (120, 100)


def _independent(players: list[Side], seats: list[Seat]) -> dict[str, tuple[Fraction, ...]]:
    """Score, SOS, SOSOS, SODOS and progress the long way: a table of each player's result per round."""
    rounds = max(s.round for s in seats)
    result: dict[str, dict[int, tuple[str | None, Fraction]]] = {p.nick: {} for p in players}
    for s in seats:
        if s.b is None:
            result[s.a][s.round] = (None, Fraction(1))
        elif s.result is not None:
            mine = Fraction(1) if s.result == A_WINS else Fraction(0) if s.result == B_WINS else Fraction(1, 2)
            result[s.a][s.round] = (s.b, mine)
            result[s.b][s.round] = (s.a, 1 - mine)
    score = {n: sum((p for _o, p in r.values()), Fraction(0)) for n, r in result.items()}
    sos = {n: sum((score[o] for o, _p in r.values() if o is not None), Fraction(0)) for n, r in result.items()}
    out = {}
    for n, r in result.items():
        sosos = sum((sos[o] for o, _p in r.values() if o is not None), Fraction(0))
        sodos = sum((score[o] * p for o, p in r.values() if o is not None), Fraction(0))
        progress = sum(
            (sum((r[k][1] for k in range(1, j + 1) if k in r), Fraction(0)) for j in range(1, rounds + 1)), Fraction(0)
        )
        out[n] = (score[n], sos[n], sosos, sodos, progress)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_the_numbers_match_an_independent_computation(seed: int) -> None:
    chance = random.Random(seed)
    count = chance.choice([5, 7, 9, 12])
    field = [Side(f"p{i}", 160 - 4 * i, False, False) for i in range(count)]
    seats = [
        s if s.b is None else s._replace(result=chance.choice([A_WINS, B_WINS, DRAW]))
        for s in first_rounds(format_for(count), field)
    ]
    expected = _independent(field, seats)
    for line in standings(field, seats, (SOS, SOSOS, SODOS, PROGRESS)):
        assert (line.score, line.sos, line.sosos, line.sodos, line.progress) == expected[line.nick]
    ordered = [expected[s.nick] for s in standings(field, seats, (SOS, SOSOS, SODOS, PROGRESS))]
    assert ordered == sorted(ordered, reverse=True)


def test_a_bad_chain_is_refused() -> None:
    assert chain_from(["direct", "sos"]) == (DIRECT, SOS)
    for bad in (["sos", "sos"], ["buchholz"]):
        with pytest.raises(HistoryError) as caught:
            chain_from(bad)
        assert caught.value.code == "bad-tiebreaks"


def _start(choices: Choices) -> str:
    sides = [Side(f"p{i}", 160 - 8 * i, False, False) for i in range(12)]
    line = start_line(1, datetime(2026, 12, 1, 18, 30), date(2026, 12, 1), 13, sides, True, "", None, choices)
    return dump_line(line)


def test_the_owners_choices_are_history_and_an_old_start_line_stays_byte_identical() -> None:
    plain = _start(Choices())
    for word in ("tiebreaks", "places", "avoid", "first_round", '"handicap"'):
        assert word not in plain  # an event without choices writes its line as before the owner's choices
    assert dump_line(parse_line(plain)) == plain
    chosen = _start(Choices(tiebreaks=OPENGOTHA, unique_places=True))
    raw = json.loads(chosen)
    assert raw["tiebreaks"] == ["sos", "sosos"] and raw["places"] == "unique"
    event = parse_line(chosen)
    assert dump_line(event) == chosen
    folded = fold([(1, event)])[1].tournament
    assert folded.tiebreaks == OPENGOTHA and folded.unique_places
    assert fold([(1, parse_line(plain))])[1].tournament.tiebreaks == TODAY  # SOS, SODOS as the event was shown
    everything = Choices(
        tiebreaks=(DIRECT, SOS),
        handicap_cap=4,
        handicap_less=1,
        even_top=3,
        avoid=(("p1", "p2"),),
        first_round="fold",
    )
    full = _start(everything)
    raw = json.loads(full)
    assert raw["handicap"] == {"at_most": 4, "less": 1, "even_top": 3}
    assert raw["avoid"] == [["p1", "p2"]] and raw["first_round"] == "fold"
    assert dump_line(parse_line(full)) == full
    event = fold([(1, parse_line(full))])[1].tournament
    assert (event.handicap_cap, event.handicap_less, event.even_top, event.first_round) == (4, 1, 3, "fold")
    assert event.avoid == (("p1", "p2"),)


@pytest.mark.parametrize(
    "field",
    [
        '"tiebreaks": ["sos", "sos"]',
        '"tiebreaks": ["lottery"]',
        '"places": "shared"',
        '"tiebreaks": "sos"',
        '"handicap": {"at_most": 0}',
        '"handicap": {"less": true}',
        '"handicap": {}',
        '"avoid": [["p1", "nobody"]]',
        '"avoid": [["p1", "p1"]]',
        '"first_round": "snake"',
    ],
)
def test_a_start_line_with_bad_choices_is_refused(field: str) -> None:
    line = _start(Choices())
    with pytest.raises(HistoryError) as caught:
        parse_line(line[:-1] + ", " + field + "}")
    assert caught.value.code == "bad-field"
