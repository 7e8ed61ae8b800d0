"""How one magnet moves after a game (docs/rules.md §4), as pure functions."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from kiosk.handicap import EVEN, Handicap
from kiosk.rules import ARROWS, WHYS, Verdict, is_clear, magnet_used, result_for, verdict, white_of

TRAINING = Handicap(even=False, moves=4, prisoners=0, training=True)
HANDICAP = Handicap(even=False, moves=2, prisoners=0)


@pytest.mark.parametrize(
    ("result", "arrows"), [("clear-win", 2), ("win", 1), ("draw", 0), ("loss", -1), ("clear-loss", -2)]
)
def test_a_member_moves_by_the_arrows_of_each_result(result: str, arrows: int) -> None:
    # Two members, a handicap game, the week's free loss already used (docs/rules.md §4).
    moved = verdict(result, HANDICAP, is_white=False, is_member=True, opponent_is_guest=False, free_loss_unused=False)
    assert (moved.arrows, moved.why) == (arrows, result)


@pytest.mark.parametrize(
    ("by", "clear"),
    [
        ("resignation", True),
        (Fraction(30), True),  # exactly the margin is clear
        (Fraction(61, 2), True),
        (Fraction(59, 2), False),
        (Fraction(1, 2), False),
        (None, False),  # on time, or not measured: an ordinary win
    ],
)
def test_clear_result_on_13x13(by: object, clear: bool) -> None:
    assert is_clear(by, Fraction(30)) is clear  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("won", "clear", "result"),
    [(True, True, "clear-win"), (True, False, "win"), (False, True, "clear-loss"), (False, False, "loss")],
)
def test_result_for_a_player(won: bool, clear: bool, result: str) -> None:
    assert result_for(won, clear) == result


def test_a_draw_is_a_draw_whatever_the_margin_says() -> None:
    assert result_for(None, True) == "draw"
    assert verdict("draw", HANDICAP, False, True, False, True) == Verdict(0, "draw")


def test_the_first_loss_of_the_week_is_free_clear_losses_too() -> None:
    for result in ("loss", "clear-loss"):
        v = verdict(result, EVEN, is_white=False, is_member=True, opponent_is_guest=False, free_loss_unused=True)
        assert v == Verdict(0, "free-loss", uses_free_loss=True, rated_loss=True)


def test_a_win_does_not_use_the_free_loss() -> None:
    v = verdict("clear-win", EVEN, is_white=False, is_member=True, opponent_is_guest=False, free_loss_unused=True)
    assert v == Verdict(2, "clear-win")


def test_white_in_a_training_game_does_not_move_nor_use_the_free_loss() -> None:
    for result in ("clear-win", "loss", "clear-loss"):
        v = verdict(result, TRAINING, is_white=True, is_member=True, opponent_is_guest=False, free_loss_unused=True)
        assert v == Verdict(0, "training")


def test_black_in_a_training_game_moves_as_usual() -> None:
    v = verdict("clear-win", TRAINING, is_white=False, is_member=True, opponent_is_guest=False, free_loss_unused=True)
    assert v == Verdict(2, "clear-win")


def test_a_member_against_a_guest_does_not_move_nor_use_the_free_loss() -> None:
    v = verdict("loss", HANDICAP, is_white=False, is_member=True, opponent_is_guest=True, free_loss_unused=True)
    assert v == Verdict(0, "vs-guest")


def test_a_guest_against_a_guest_moves() -> None:
    v = verdict("loss", EVEN, is_white=False, is_member=False, opponent_is_guest=True, free_loss_unused=False)
    assert v == Verdict(-1, "loss", rated_loss=True)


def test_the_clubs_week_runs_monday_to_sunday_in_iso_weeks() -> None:
    from datetime import datetime

    from kiosk.rules import week_of, week_start

    sunday, monday = datetime(2027, 1, 3, 23, 59), datetime(2027, 1, 4, 0, 0)
    assert week_of(datetime(2026, 12, 31, 19, 0)) == week_of(sunday) == (2026, 53)
    assert week_of(monday) == (2027, 1)
    assert week_start(sunday) == datetime(2026, 12, 28, 0, 0)
    assert week_start(monday) == monday


def test_a_loss_at_zero_is_rated_but_keeps_the_free_loss() -> None:
    for result in ("loss", "clear-loss"):
        v = verdict(result, EVEN, False, False, False, free_loss_unused=True, at_floor=True)
        assert v == Verdict(0, result, uses_free_loss=False, rated_loss=True)


def test_whys_lists_every_reason_a_verdict_gives_and_no_other() -> None:
    given = {
        verdict(result, handicap, *flags).why
        for result in ARROWS
        for handicap in (EVEN, Handicap(False, 3, 0, training=True))
        for flags in itertools.product((False, True), repeat=6)
    }
    assert given == set(WHYS)


def test_the_stronger_player_takes_white_in_a_handicap_game_and_nobody_in_an_even_one() -> None:
    two_moves = Handicap(False, 2)
    assert white_of(40, 36, two_moves) == 0
    assert white_of(36, 40, two_moves) == 1
    assert white_of(40, 36, EVEN) is None


def test_a_game_on_another_size_goes_by_the_primary_magnet() -> None:
    magnets = {9: "nine", 13: "thirteen"}
    assert magnet_used(magnets.get(9), magnets, primary=13) == "nine"
    assert magnet_used(magnets.get(19), magnets, primary=13) == "thirteen"
