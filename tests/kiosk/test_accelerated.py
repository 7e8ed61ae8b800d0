"""The accelerated handicap event: levels that climb with streaks, pairing, the FUS coefficient.

The worked example of docs/events.md is read here and replayed number by number: each
round's pairing, the levels and handicaps shown, and the final standings. Then the rules one
by one, and the event through the store: started, tapped round by round as the phones do,
exported and imported back byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest
from histories import player

from kiosk import accelerated
from kiosk.accelerated import ACCELERATED, climb, gain, level_standings, lifted, pair_round
from kiosk.errors import HistoryError
from kiosk.events import dump_line, parse_line
from kiosk.handicap import DEFAULT_SIZE_RULES, EVEN, Handicap, handicap_for
from kiosk.pairing import Side, side_of
from kiosk.scale import quarters
from kiosk.services import tournaments as events
from kiosk.store import Store
from kiosk.tournament import A_WINS, B_WINS, DRAW, Seat, accelerated_standings, board_pairing, start_line

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "events.md").read_text(encoding="utf-8")
RULES13 = DEFAULT_SIZE_RULES[13]
EVENING = date(2026, 11, 2)
NOW = datetime(2026, 11, 2, 19, 0)


def table(name: str) -> list[list[str]]:
    """The rows of the table after ``<!-- checked: NAME -->`` in docs/events.md (no header, no rule)."""
    marker = f"<!-- checked: {name} -->"
    assert DOCS.count(marker) == 1
    rows = []
    for line in DOCS.split(marker, 1)[1].strip().splitlines():
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    assert len(rows) > 2
    return rows[2:]


def number(text: str) -> int:
    """Quarters of a number as the page writes it (``29``, ``−6``)."""
    return quarters(Fraction(text.replace("−", "-")))


def handicap_text(h: Handicap) -> str:
    if h.even:
        return "even"
    moves = f"{h.moves} move{'s' if h.moves != 1 else ''}"
    return f"{moves}, {h.prisoners} prisoner{'s' if h.prisoners != 1 else ''}"


def example_players() -> list[Side]:
    """The example's players: the standings' start column (strengths at the start)."""
    return [Side(row[1], number(row[2]), False, False) for row in table("accelerated-standings")]


def test_the_worked_example_pairs_levels_and_handicaps_as_the_page_says() -> None:
    players = example_players()
    rows = table("accelerated-rounds")
    rounds = max(int(r[0]) for r in rows)
    assert rounds == 5
    seats: list[Seat] = []
    for number_ in range(1, rounds + 1):
        shown = [r for r in rows if int(r[0]) == number_]
        pairs = pair_round(players, seats, number_, rounds, RULES13, accelerated.default_cap(RULES13))
        levels = climb(players, seats, rounds).level
        assert len(pairs) == len(shown)
        for board, (pair, row) in enumerate(zip(pairs, shown, strict=True), start=1):
            assert pair.b is not None
            high, high_level = row[2].rsplit(" ", 1)
            low, low_level = row[3].rsplit(" ", 1)
            assert (int(row[1]), pair.a.nick, pair.b.nick) == (board, high, low), f"round {number_}"
            assert (levels[pair.a.nick.casefold()], levels[pair.b.nick.casefold()]) == (
                number(high_level),
                number(low_level),
            )
            difference = number(high_level) - number(low_level)
            assert handicap_text(handicap_for(difference, RULES13)) == row[4]
            seats.append(Seat(number_, board, high, low, A_WINS if row[5] == high else B_WINS))
    table_now = level_standings(players, seats, rounds)
    expected = table("accelerated-standings")
    assert [[str(s.place), s.nick, s.strength, s.level, s.coefficient, f"{s.wins}–{s.losses}"] for s in table_now] == [
        [r[0], r[1], number(r[2]), number(r[3]), number(r[4]), r[5]] for r in expected
    ]


def test_a_win_gains_the_streak_but_at_most_the_rounds_left_plus_one() -> None:
    # The FUS text: five wins in a five-round event give 1 + 2 + 3 + 2 + 1 = 9.
    assert [gain(streak, streak, 5) for streak in range(1, 6)] == [1, 2, 3, 2, 1]
    # A streak begun after a loss starts at 1 again.
    assert gain(1, 4, 12) == 1


def test_a_level_climbs_in_the_boards_own_arrows_and_past_the_top() -> None:
    assert lifted(quarters(29), 2) == quarters(Fraction(61, 2))  # 29 -> 30 -> 30.5
    assert lifted(quarters(39), 3) == quarters(Fraction(161, 4))  # 39.5, 40, 40.25
    assert lifted(quarters(56), 2) == quarters(Fraction(113, 2))  # an event level is no magnet: 56.5


def test_a_loss_and_a_draw_end_the_streak_a_bye_keeps_it() -> None:
    players = [Side(n, quarters(10), False, False) for n in ("A", "B", "C")]
    seats = [Seat(1, 1, "A", "B", A_WINS), Seat(1, 2, "C", None)]
    seats += [Seat(2, 1, "A", "C", A_WINS), Seat(2, 2, "B", None)]
    seats += [Seat(3, 1, "A", None), Seat(3, 2, "B", "C", DRAW)]
    seats += [Seat(4, 1, "A", "B", A_WINS)]
    now = climb(players, seats, 6)
    # A: wins of streak 1, 2, (a bye: streak kept), 3 -> 10 + 1 + 2 + 3 = 16; B and C: the draw moves nothing.
    assert now.level == {"a": quarters(16), "b": quarters(10), "c": quarters(10)}
    assert now.streak == {"a": 3, "b": 0, "c": 0}


def test_the_coefficient_follows_the_fus_example() -> None:
    # A gave B a difference of 3 levels; at the end they are equal: A gets +3, B -3.
    players = [Side("A", quarters(13), False, False), Side("B", quarters(10), False, False)]
    players += [Side("C", quarters(5), False, False), Side("D", quarters(5), False, False)]
    seats = [Seat(1, 1, "A", "B", B_WINS), Seat(1, 2, "C", "D", A_WINS)]
    seats += [Seat(2, 1, "B", "C", A_WINS), Seat(2, 2, "A", "D", B_WINS)]
    # B: 10 -> 11 -> 13 (streak 2, 3 rounds: gain min(2, 2)); A stays 13.
    lines = {s.nick: s for s in level_standings(players, seats, 3)}
    assert (lines["A"].level, lines["B"].level) == (quarters(13), quarters(13))
    # A's game with B: (13 - 13) - (10 - 13) = +3; with D: D at 5 + 1 = 6 then 5 -> (6 - 13) - (5 - 13) = +1.
    assert lines["A"].coefficient == quarters(3) + quarters(1)
    # B's game with A: -3; with C: C at 6 then and now, B 11 then, 13 now: (6 - 13) - (6 - 11) = -2.
    assert lines["B"].coefficient == -quarters(3) - quarters(2)
    # Equal levels: the coefficient decides (A above B), not the order of the list.
    assert [s.nick for s in level_standings(players, seats, 3)][:2] == ["A", "B"]


def test_pairing_takes_the_nearest_level_never_a_rematch_nor_above_the_cap() -> None:
    strengths = {"Top": 30, "Near": 29, "Mid": 27, "Low": 26, "Far": 3, "Farther": 2}
    players = [Side(n, quarters(s), False, False) for n, s in strengths.items()]
    pairs = pair_round(players, [], 1, 3, RULES13, 5)
    assert [(p.a.nick, p.b.nick if p.b else None) for p in pairs] == [
        ("Top", "Near"),
        ("Mid", "Low"),
        ("Far", "Farther"),
    ]
    # Round 2 without the far pair: no rematch, so Top (30.5 now) takes Mid (28), Near (29) takes Low (26).
    four = players[:4]
    seats = [Seat(1, 1, "Top", "Near", A_WINS), Seat(1, 2, "Mid", "Low", A_WINS)]
    again = pair_round(four, seats, 2, 3, RULES13, 5)
    assert [(p.a.nick, p.b.nick if p.b else None) for p in again] == [("Top", "Mid"), ("Near", "Low")]
    # Far and Farther have met, and every other player is more than the cap (5 moves: 14 strength) away:
    # both sit out the round (a bye each, the level stays); the others play as before.
    seats.append(Seat(1, 3, "Far", "Farther", A_WINS))
    third = pair_round(players, seats, 2, 3, RULES13, 5)
    assert [(p.a.nick, p.b.nick if p.b else None) for p in third] == [
        ("Top", "Mid"),
        ("Near", "Low"),
        ("Far", None),
        ("Farther", None),
    ]
    with pytest.raises(HistoryError) as refused:
        pair_round(players, seats, 2, 3, RULES13, 5, sit_outs=False)
    assert refused.value.code == "event-no-pairing"


def test_the_bye_goes_to_the_lowest_level_without_one() -> None:
    players = [Side(n, quarters(s), False, False) for n, s in (("A", 20), ("B", 19), ("C", 18), ("D", 17), ("E", 16))]
    pairs = pair_round(players, [], 1, 3, RULES13, 5)
    assert (pairs[-1].a.nick, pairs[-1].b) == ("E", None)
    seats = [Seat(1, i, p.a.nick, p.b.nick if p.b else None, A_WINS) for i, p in enumerate(pairs, start=1)]
    second = pair_round(players, seats, 2, 3, RULES13, 5)
    assert second[-1].b is None and second[-1].a.nick == "D"  # E had it; D is now the lowest level


def test_the_cap_is_the_row_below_a_training_game() -> None:
    assert {size: accelerated.default_cap(rules) for size, rules in DEFAULT_SIZE_RULES.items()} == {9: 3, 13: 5, 19: 7}
    widest = accelerated.largest_difference(RULES13, 5)
    assert handicap_for(widest, RULES13).moves == 5
    assert handicap_for(widest + 1, RULES13).moves == 6
    assert handicap_for(0, RULES13) == EVEN


def test_a_first_round_too_far_apart_is_refused_at_the_start() -> None:
    sides = [Side(n, quarters(s), False, False) for n, s in (("A", 40), ("B", 39), ("C", 38), ("Kid", 0))]
    with pytest.raises(HistoryError) as refused:
        start_line(1, NOW, EVENING, 13, sides, False, "", None, accelerated_rules=RULES13)
    assert refused.value.code == "accelerated-too-far"


# --- through the store --------------------------------------------------------------------------------


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path) as store:
        for row in table("accelerated-standings"):
            store.record(player(row[1], 13, "member", float(Fraction(row[2].replace("−", "-")))))
        yield store


def test_the_worked_example_played_through_the_phones_taps(club: Store, tmp_path: Path) -> None:
    sides = [side_of(club.magnets(), row[1], 13) for row in table("accelerated-standings")]
    event = events.start(club, EVENING, 13, sides, True, "FUS", 5, NOW, accelerated=True)
    assert (event.format, event.rounds, event.counts, event.pairing_cap) == (ACCELERATED, 5, False, 5)
    for minute, row in enumerate(table("accelerated-rounds"), start=1):
        current = events.get(club, event.id)
        assert current is not None
        round_number, board = int(row[0]), int(row[1])
        seat = next(s for s in current.round_seats(round_number) if s.board == board)
        assert (seat.a, seat.b) == (row[2].rsplit(" ", 1)[0], row[3].rsplit(" ", 1)[0])
        # The handicap the phone shows: the levels' (not the magnets', which the event never moves).
        assert handicap_text(board_pairing(current, seat, {}, club.config).handicap) == row[4]
        outcome = A_WINS if row[5] == seat.a else B_WINS
        status, _seat = events.record_result(
            club, event.id, round_number, board, outcome, "resignation", NOW + timedelta(minutes=minute)
        )
        assert status == events.SAVED
    done = events.get(club, event.id)
    assert done is not None and done.finished
    shown = [(s.nick, s.level, s.coefficient) for s in accelerated_standings(done)]
    assert shown == [(r[1], number(r[3]), number(r[4])) for r in table("accelerated-standings")]
    # Nothing moved on the board: an accelerated event's games are kind "event".
    assert {m.nick: m.strength for m in club.magnets()} == {s.nick: s.strength for s in sides}
    # Export -> import -> export is byte-identical, the start's format and cap included.
    lines = list(club.export_lines())
    start = next(line for line in lines if '"tournament-start"' in line)
    assert '"format": "accelerated"' in start and start.endswith('"pairing_cap": 5}')
    assert [dump_line(parse_line(line)) for line in lines] == lines


def test_a_draw_in_a_game_even_by_the_levels_is_refused_and_nothing_is_saved(club: Store) -> None:
    nicks = ["Ewa", "Franek", "Gosia", "Henio"]  # Ewa 18 - Franek 17: even by the levels
    sides = [side_of(club.magnets(), nick, 13) for nick in nicks]
    event = events.start(club, EVENING, 13, sides, False, "", 3, NOW, accelerated=True)
    before = list(club.export_lines())
    with pytest.raises(HistoryError) as refused:
        events.record_result(club, event.id, 1, 1, DRAW, None, NOW + timedelta(minutes=5))
    assert refused.value.code == "draw-even"
    assert list(club.export_lines()) == before


def test_an_old_history_without_the_field_reads_and_writes_back_unchanged() -> None:
    line = (
        '{"type": "tournament-start", "at": "2026-11-09T18:30", "tournament": 1, "evening": "2026-11-09", "size": 13, '
        '"format": "swiss", "rounds": 3, "counts": true, "players": [{"nick": "A", "strength": 30}, '
        '{"nick": "B", "strength": 20}], "seats": [[1, 1, "A", "B"]]}'
    )
    assert dump_line(parse_line(line)) == line
    # The cap belongs to an accelerated start, and an accelerated start has one: either alone is refused.
    for bad in (line.replace('"B"]]}', '"B"]], "pairing_cap": 5}'), line.replace('"swiss"', '"accelerated"')):
        with pytest.raises(HistoryError):
            parse_line(bad)
    accelerated_line = line.replace('"swiss"', '"accelerated"').replace('"B"]]}', '"B"]], "pairing_cap": 5}')
    assert dump_line(parse_line(accelerated_line)) == accelerated_line


def test_a_corrected_result_counts_as_if_right_from_the_start_and_a_player_going_home_leaves_a_bye(
    club: Store,
) -> None:
    nicks = ["Ala", "Bartek", "Celina", "Darek", "Ewa", "Franek"]  # 24, 22, 21, 19, 18, 17
    sides = [side_of(club.magnets(), nick, 13) for nick in nicks]
    event = events.start(club, EVENING, 13, sides, False, "", 4, NOW, accelerated=True)
    for minute, board in enumerate((1, 2, 3), start=1):  # round 1: the higher level wins every board
        events.record_result(club, event.id, 1, board, A_WINS, "resignation", NOW + timedelta(minutes=minute))
    paired = events.get(club, event.id)
    assert paired is not None and paired.current == 2
    levels = {s.nick: s.level for s in accelerated_standings(paired)}
    assert (levels["Ala"], levels["Bartek"]) == (quarters(25), quarters(22))
    # The owner corrects board 1 of round 1: Bartek won. Levels (and the handicaps of round 2) follow it;
    # round 2's pairing, made with what was known, stays.
    status, _seat = events.correct(club, event.id, 1, 1, B_WINS, "resignation", NOW + timedelta(minutes=9))
    assert status == events.SAVED
    corrected = events.get(club, event.id)
    assert corrected is not None and corrected.round_seats(2) == paired.round_seats(2)
    levels = {s.nick: s.level for s in accelerated_standings(corrected)}
    assert (levels["Ala"], levels["Bartek"]) == (quarters(24), quarters(23))
    # Darek goes home in round 2: his opponent sits out instead, and the level of a bye stays.
    before = {s.nick: s.level for s in accelerated_standings(corrected)}
    status, after = events.withdraw(club, event.id, "Darek", NOW + timedelta(minutes=12))
    assert status == events.SAVED and after is not None
    bye = next(s for s in after.round_seats(2) if s.b is None)
    assert bye.a != "Darek"
    lines = {s.nick: s for s in accelerated_standings(after)}
    assert lines["Darek"].withdrawn and lines[bye.a].level == before[bye.a] and lines[bye.a].byes == 1
