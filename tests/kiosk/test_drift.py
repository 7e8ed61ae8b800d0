"""Drift on synthetic clubs with known inflation and known group offsets (kiosk/drift.py)."""

from __future__ import annotations

import json
from datetime import datetime
from fractions import Fraction

from drift_clubs import GROUP_A, GROUP_B, OFFSET, inflating_club, stamp, two_groups
from histories import board_of, game, line, player

from kiosk.config import Config
from kiosk.drift import (
    by_month,
    gains,
    groups,
    report,
    result_error,
    unmatched,
    whole_strengths,
)
from kiosk.events import Shift, parse_event, parse_history

END_OF_MARCH = datetime(2026, 3, 31, 23, 0)


def history(lines: list[dict[str, object]]) -> list[tuple[int, object]]:
    return parse_history([json.dumps(raw, ensure_ascii=False) for raw in lines])  # type: ignore[return-value]


def test_a_free_loss_arrow_a_week_raises_the_mean_by_one_a_week() -> None:
    made = report(history(inflating_club(10)), Config(), END_OF_MARCH)
    months = made.drift.months[13]
    # Four Mondays in January, four in February, two in March (the last on 9 March).
    assert [(m.month, m.count, m.mean, m.median) for m in months] == [
        ("2026-01", 4, 14, 14),
        ("2026-02", 4, 18, 18),
        ("2026-03", 4, 20, 20),
    ]
    g = made.drift.gains[13]
    assert (g.since, g.games, g.players) == (None, 40, 4)
    assert g.arrows == {"free-loss": 40, "training": 0, "vs-guest": 0, "occasional": 0, "edge": 0}
    assert g.strength == 40 and g.mean_rise == 10
    assert g.amount == -10 * 4  # the shift that takes the ten weeks back
    # The preview is the shift preview's: every magnet from 20 back to 10.
    assert sorted((m.nick, m.strength, after) for m, after in made.size_previews[13]) == [
        (nick, 80, 40) for nick in ("Ala", "Bolek", "Cyryl", "Dorota")
    ]


def test_after_a_shift_only_the_games_since_count() -> None:
    lines = inflating_club(10)
    lines.append({"type": "shift", "at": "2026-03-10T12:00", "amount": -10, "size": 13, "nicks": None})
    made = report(history(lines), Config(), END_OF_MARCH)
    assert made.drift.gains[13].games == 0 and made.drift.gains[13].amount == 0
    assert made.drift.months[13][-1].mean == 10
    assert 13 not in made.size_previews
    # Two more weeks after the shift: two arrows a magnet, a shift of -2 suggested.
    more = inflating_club(12)[-8:]
    made = report(history([*lines, *more]), Config(), END_OF_MARCH)
    g = made.drift.gains[13]
    assert (g.since, g.games, g.arrows["free-loss"], g.amount) == (datetime(2026, 3, 10, 12), 8, 8, -2 * 4)
    # A group's shift is not the size's: it does not restart the count.
    group = {"type": "shift", "at": "2026-03-30T12:00", "amount": 1, "size": 13, "nicks": ["Ala"]}
    assert report(history([*lines, *more, group]), Config(), END_OF_MARCH).drift.gains[13].games == 8


def test_shifts_are_suggested_in_whole_strengths() -> None:
    assert whole_strengths(Fraction(49, 10)) == 20
    assert whole_strengths(Fraction(5, 2)) == 8  # a half goes toward no shift
    assert whole_strengths(Fraction(-26, 10)) == -12
    assert whole_strengths(Fraction(2, 5)) == 0


def test_each_unmatched_arrow_is_put_down_to_its_cause() -> None:
    board = board_of(
        player("Ewa", 13, strength=30),
        player("Olek", 13, strength=15),
        player("Gosia", 13, strength=14),
        player("Gość", 13, status="guest", strength=12),
        player("Iza", 13, strength=29),
        player("Zero", 13, strength=0),
        player("Jeden", 13, strength=1),
        player("Hania", 9, strength=20),
        game(13, "Ewa", "Olek", "Olek", 5, when="2026-11-02T19:00"),  # a training game: only Olek moves
        game(13, "Gosia", "Gość", "Gość", 3, when="2026-11-02T19:10"),  # a member against a guest
        game(13, "Olek", "Gosia", "Gosia", 3, when="2026-11-02T19:20"),  # Olek's free loss
        game(13, "Olek", "Gosia", "Gosia", 40, when="2026-11-04T19:00"),  # 2 arrows each way: matched
        game(13, "Ewa", "Iza", "Iza", 3, when="2026-11-04T19:10"),  # Ewa's free loss
        game(13, "Ewa", "Iza", "Iza", 40, when="2026-11-04T19:20"),  # matched arrows: Ewa -2, Iza +1 (from 30)
        game(13, "Hania", "Olek", "Hania", None, when="2026-11-04T19:30"),  # Hania has no 13x13 magnet
        game(13, "Zero", "Jeden", "Jeden", 2, when="2026-11-04T19:40"),  # no arrow down from 0
    )
    found = [unmatched(g) for g in board.games]
    assert found == [
        ("training", 1),
        ("vs-guest", 1),
        ("free-loss", 1),
        (None, 0),
        ("free-loss", 1),
        (None, 0),
        ("occasional", -1),
        ("edge", 1),
    ]
    g = gains(board, 13, [], datetime(2026, 11, 30))
    assert g.arrows == {"free-loss": 2, "training": 1, "vs-guest": 1, "occasional": -1, "edge": 1}
    # Arrows of different worth on both sides of 30 count in the strength: Ewa -2, Iza +1.
    assert g.strength == 1 + 1 + 1 + 0 + 1 - 1 - 1 + 1
    assert g.players == 7


def test_two_isolated_groups_with_a_known_offset() -> None:
    now = datetime(2026, 11, 30, 12, 0)
    made = report(history(two_groups()), Config(), now)
    found = made.drift.groups[13]
    assert [(g.number, sorted(g.nicks), g.inside, g.outside) for g in found] == [
        (1, sorted(GROUP_A), 18, 3),
        (2, sorted(GROUP_B), 9, 3),
    ]
    (gap,) = made.drift.gaps
    assert (gap.first.number, gap.second.number, gap.games, gap.measured) == (1, 2, 3, 3)
    assert gap.error == -OFFSET  # group A played 5 strengths below group B, as constructed
    assert gap.shifted is not None and gap.shifted.number == 2 and gap.amount == OFFSET * 4  # the smaller group
    (preview,) = made.gap_previews
    assert sorted(m.nick for m, _after in preview) == sorted(GROUP_B)
    assert all(after == m.strength + OFFSET * 4 for m, after in preview)


def test_groups_leave_the_window_after_half_a_year() -> None:
    late = datetime(2027, 6, 30)
    assert groups(board_of(*[parse_event(raw) for raw in two_groups()]), 13, late) == ()


def test_the_result_error_of_the_clubs_own_example() -> None:
    # Bianka (34.5) gives Czarek (25) 2 moves on 9x9: need 12.5, t 13, White's expected margin -0.5.
    board = board_of(
        player("Bianka", 9, strength=34.5),
        player("Czarek", 9, strength=25),
        game(9, "Bianka", "Czarek", "Czarek", 21, when="2026-11-03T19:10"),
        game(9, "Bianka", "Czarek", "Czarek", "resignation", when="2026-11-03T19:40"),
        game(9, "Bianka", "Czarek", "Bianka", None, when="2026-11-03T20:10"),
    )
    first, resigned, unmeasured = board.games
    assert result_error(first, "Czarek", Config()) == Fraction(41, 4)  # (21 - 0.5) / 2
    assert result_error(first, "Bianka", Config()) == Fraction(-41, 4)
    # Czarek then 27, Bianka 33.5: d 6.5, need 6.5, t 7: 1 move, 7 prisoners, White expected 13 - 6.5 - 7.
    assert result_error(resigned, "Czarek", Config()) == (15 - Fraction(1, 2)) / 2  # resignation: the clear margin
    assert result_error(unmeasured, "Bianka", Config()) is None


def test_an_even_game_expects_the_stronger_to_win_by_the_difference_in_points() -> None:
    board = board_of(
        player("Ola", 19, strength=40),
        player("Ula", 19, strength=40.25),
        game(19, "Ola", "Ula", "Ula", 3.5, when="2026-11-03T19:10"),
    )
    # d 0.25 on 19x19 is 3.25 points: Ula was expected to win by 3.25 and won by 3.5.
    assert result_error(board.games[0], "Ula", Config()) == Fraction(1, 4) / 13


def test_months_without_games_keep_the_last_strengths_and_nothing_before_the_first_magnet() -> None:
    board = board_of(player("Ala", 9, strength=3, when="2026-01-20T18:00"), line("note", "2026-02-01T10:00", note="x"))
    months = by_month(board, 9, datetime(2026, 3, 2))
    assert [(m.month, m.count, m.mean) for m in months] == [("2026-01", 1, 3), ("2026-02", 1, 3), ("2026-03", 1, 3)]
    assert by_month(board, 13, datetime(2026, 3, 2)) == ()
    assert stamp(datetime(2026, 1, 5, 18)) == "2026-01-05T18:00"


def test_a_shift_later_than_now_is_not_the_last_shift() -> None:
    later = Shift(datetime(2027, 1, 1), -4, 13)
    assert gains(board_of(*[parse_event(r) for r in inflating_club(2)]), 13, [later], END_OF_MARCH).games == 8


def test_players_tied_together_but_not_apart_from_the_club_are_no_group() -> None:
    lines = two_groups()
    met = set(zip(GROUP_A, GROUP_B, strict=False))
    visits = [(a, b) for a in GROUP_A for b in GROUP_B if (a, b) not in met]  # one game for every other A-B pair
    for number, (a, b) in enumerate(visits):
        at = f"2026-11-{number + 1:02d}T20:00"
        lines.append({"type": "game", "at": at, "size": 13, "players": [a, b], "winner": a, "by": 3})
    made = report(history(lines), Config(), datetime(2026, 11, 30, 12, 0))
    assert made.drift.groups[13] == () and made.drift.gaps == ()
