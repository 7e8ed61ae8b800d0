"""Replay: how a history moves the magnets (docs/rules.md §2, §4, §5, §6, §7)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest
from histories import at, board_of, game, histories, line, magnet, player, strength
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.board import Board
from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.events import Correction, GamePlayed, PlayerAdded, Shift
from kiosk.handicap import handicap_for
from kiosk.replay import Replay, replay
from kiosk.scale import from_grade, is_field, move_arrows, nearest_field, quarters

PROPERTIES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

BIANKA = player("Bianka", 9, "member", 34.5)
CZAREK = player("Czarek", 9, "member", 25)


def czarek_wins_by_21(day: int = 1) -> GamePlayed:
    event = game(9, "Bianka", "Czarek", "Czarek", 21, at(day))
    assert isinstance(event, GamePlayed)
    return event


# --- the club's own example (docs/rules.md §4 and §7) ----------------------------------------


def test_bianka_and_czarek_when_it_is_not_biankas_first_loss_of_the_week() -> None:
    # On Monday Bianka lost an even game to Dorota: her free loss of the week is used.
    dorota = player("Dorota", 9, "member", 34.5)
    monday = game(9, "Bianka", "Dorota", "Dorota", 3, at(0, 30))
    board = board_of(BIANKA, CZAREK, dorota, monday, czarek_wins_by_21(day=1))
    assert board.games[0].moves["Bianka"].why == "free-loss"
    assert strength(board, "Czarek", 9) == 27
    assert strength(board, "Bianka", 9) == 33.5


def test_bianka_and_czarek_when_it_is_biankas_first_loss_of_the_week() -> None:
    board = board_of(BIANKA, CZAREK, czarek_wins_by_21())
    assert strength(board, "Bianka", 9) == 34.5
    assert strength(board, "Czarek", 9) == 27
    assert board.games[0].moves["Bianka"].why == "free-loss"


def test_the_example_game_takes_the_handicap_of_rules_3() -> None:
    board = board_of(BIANKA, CZAREK, czarek_wins_by_21())
    played = board.games[0]
    assert played.white == "Bianka"
    assert (played.handicap.even, played.handicap.moves, played.handicap.prisoners) == (False, 2, 0)
    assert not played.handicap.training


def test_replay_output_has_the_shape_of_rules_7() -> None:
    dorota = player("Dorota", 9, "member", 34.5)
    monday = game(9, "Bianka", "Dorota", "Dorota", 3, at(0, 30))
    board = board_of(BIANKA, CZAREK, dorota, monday, czarek_wins_by_21(day=1))
    output = json.loads(json.dumps(board.to_json()))
    assert output["magnets"] == [
        {"nick": "Dorota", "size": 9, "strength": 35, "status": "member"},
        {"nick": "Bianka", "size": 9, "strength": 33.5, "status": "member"},
        {"nick": "Czarek", "size": 9, "strength": 27, "status": "member"},
    ]
    assert output["games"][0] == {
        "at": "2026-11-02T19:30",
        "size": 9,
        "players": ["Bianka", "Dorota"],
        "white": None,
        "handicap": {"even": True},
        "training": False,
        "moves": {
            "Bianka": {"from": 34.5, "to": 34.5, "why": "free-loss"},
            "Dorota": {"from": 34.5, "to": 35, "why": "win"},
        },
    }
    assert output["games"][1] == {
        "at": "2026-11-03T19:00",
        "size": 9,
        "players": ["Bianka", "Czarek"],
        "white": "Bianka",
        "handicap": {"even": False, "moves": 2, "prisoners": 0},
        "training": False,
        "moves": {
            "Bianka": {"from": 34.5, "to": 33.5, "why": "clear-loss"},
            "Czarek": {"from": 25, "to": 27, "why": "clear-win"},
        },
    }


def test_whole_strengths_print_as_whole_numbers() -> None:
    text = json.dumps(board_of(BIANKA, CZAREK, czarek_wins_by_21()).to_json())
    assert '"strength": 27,' in text and '"strength": 34.5,' in text
    assert "27.0" not in text and '"from": 25,' in text


def test_every_why_is_one_of_rules_7() -> None:
    allowed = {"win", "clear-win", "draw", "loss", "clear-loss", "free-loss", "training", "vs-guest"}
    board = board_of(
        player("Ala", 13, "member", 20),
        player("Gość", 13, "guest", 19),
        player("Ola", 13, "member", 5),
        game(13, "Ala", "Gość", "Gość", None, at(0, 1)),
        game(13, "Ala", "Ola", "Ola", None, at(0, 2)),
        game(13, "Ala", "Ola", None, None, at(0, 3)),
    )
    whys = {move.why for g in board.games for move in g.moves.values()}
    assert whys <= allowed
    assert {"vs-guest", "training", "draw"} <= whys


# --- results (docs/rules.md §4) ---------------------------------------------------------------


def two_members(a: float = 20, b: float = 20, size: int = 13) -> tuple:
    return player("Ala", size, "member", a), player("Ola", size, "member", b)


def after_one_win(by: object, size: int = 13) -> Board:
    # Ola's free loss of the week is used first, so her loss moves her.
    spare = player("Ewa", size, "member", 20)
    used = game(size, "Ola", "Ewa", "Ewa", None, at(0, 1))
    return board_of(*two_members(size=size), spare, used, game(size, "Ala", "Ola", "Ala", by, at(0, 2)))


@pytest.mark.parametrize(
    ("by", "winner_to", "loser_to", "why"),
    [
        (30, 22, 18, "clear-win"),  # exactly the 13x13 margin is clear
        (29.5, 21, 19, "win"),
        (0.5, 21, 19, "win"),
        ("resignation", 22, 18, "clear-win"),
        (None, 21, 19, "win"),  # on time or not measured: an ordinary win
    ],
)
def test_wins_and_losses_on_13x13(by: object, winner_to: int, loser_to: int, why: str) -> None:
    board = after_one_win(by)
    assert strength(board, "Ala", 13) == winner_to
    assert strength(board, "Ola", 13) == loser_to
    assert board.games[-1].moves["Ala"].why == why
    assert board.games[-1].moves["Ola"].why == why.replace("win", "loss")


@pytest.mark.parametrize(("size", "margin"), [(9, 15), (19, 60)])
def test_clear_margin_of_the_other_sizes(size: int, margin: int) -> None:
    assert strength(after_one_win(margin, size), "Ala", size) == 22
    assert strength(after_one_win(margin - 0.5, size), "Ala", size) == 21


def test_a_draw_in_a_handicap_game_moves_nobody() -> None:
    board = board_of(*two_members(20, 22), game(13, "Ala", "Ola", None, None, at(0, 1)))
    assert not board.games[0].handicap.even
    assert [m.why for m in board.games[0].moves.values()] == ["draw", "draw"]
    assert (strength(board, "Ala", 13), strength(board, "Ola", 13)) == (20, 22)


def test_a_draw_in_an_even_game_is_an_error() -> None:
    with pytest.raises(HistoryError) as error:
        board_of(*two_members(20, 21), game(13, "Ala", "Ola", None, 0, at(0, 1)))
    assert error.value.code == "draw-even"
    assert error.value.line == 3


def test_both_moves_start_from_the_strengths_before_the_game() -> None:
    board = board_of(*two_members(29, 30.5), game(13, "Ala", "Ola", "Ala", "resignation", at(0, 1)))
    assert board.games[0].moves["Ala"].before == quarters(29)
    assert strength(board, "Ala", 13) == 30.5  # 29 -> 30 -> 30.5
    assert strength(board, "Ola", 13) == 30.5  # her free loss of the week


def test_arrows_stop_at_0_and_at_the_top() -> None:
    board = board_of(
        player("Ala", 19, "member", 55.75),
        player("Ola", 19, "member", 55.75),
        player("Ewa", 19, "member", 0),
        player("Iza", 19, "member", 0),
        game(19, "Ala", "Ola", "Ala", "resignation", at(0, 1)),
        game(19, "Ewa", "Iza", "Ewa", None, at(0, 2)),  # Iza's free loss
        game(19, "Ewa", "Iza", "Ewa", "resignation", at(0, 3)),
    )
    assert strength(board, "Ala", 19) == 56
    assert strength(board, "Iza", 19) == 0
    assert board.games[-1].moves["Iza"].why == "clear-loss"


# --- training games ------------------------------------------------------------------------


def training_pair() -> tuple:
    # 9x9, difference 22.5: 4 moves, a training game.
    return player("Mistrz", 9, "member", 45.5), player("Uczeń", 9, "member", 23)


def test_in_a_training_game_white_does_not_move_and_the_weaker_moves() -> None:
    board = board_of(*training_pair(), game(9, "Mistrz", "Uczeń", "Uczeń", "resignation", at(0, 1)))
    played = board.games[0]
    assert played.handicap.training and played.white == "Mistrz"
    assert played.moves["Mistrz"].why == "training"
    assert strength(board, "Mistrz", 9) == 45.5
    assert strength(board, "Uczeń", 9) == 25


def test_white_winning_a_training_game_stays_too() -> None:
    board = board_of(
        *training_pair(),
        game(9, "Mistrz", "Uczeń", "Mistrz", None, at(0, 1)),  # Uczeń's free loss
        game(9, "Mistrz", "Uczeń", "Mistrz", None, at(0, 2)),
    )
    assert strength(board, "Mistrz", 9) == 45.5
    assert strength(board, "Uczeń", 9) == 22


def test_losing_a_training_game_as_white_keeps_the_free_loss_for_later() -> None:
    board = board_of(
        *training_pair(),
        player("Rywal", 9, "member", 45.5),
        game(9, "Mistrz", "Uczeń", "Uczeń", None, at(0, 1)),
        game(9, "Mistrz", "Rywal", "Rywal", None, at(0, 2)),
    )
    assert board.games[1].moves["Mistrz"].why == "free-loss"
    assert strength(board, "Mistrz", 9) == 45.5


# --- members and guests ------------------------------------------------------------------


def test_a_member_beaten_by_a_guest_stays_and_the_guest_moves() -> None:
    board = board_of(
        player("Ala", 13, "member", 2), player("Gość", 13, "guest", 0), game(13, "Ala", "Gość", "Gość", 1, at(0, 1))
    )
    assert board.games[0].moves["Ala"].why == "vs-guest"
    assert strength(board, "Ala", 13) == 2
    assert strength(board, "Gość", 13) == 1


def test_a_members_loss_to_a_guest_keeps_the_free_loss_for_later() -> None:
    board = board_of(
        player("Ala", 13, "member", 2),
        player("Gość", 13, "guest", 0),
        player("Ola", 13, "member", 2),
        game(13, "Ala", "Gość", "Gość", None, at(0, 1)),
        game(13, "Ala", "Ola", "Ola", None, at(0, 2)),
        game(13, "Ala", "Ola", "Ola", None, at(0, 3)),
    )
    assert [g.moves["Ala"].why for g in board.games] == ["vs-guest", "free-loss", "loss"]
    assert strength(board, "Ala", 13) == 1


def test_a_member_beating_a_guest_stays_too() -> None:
    board = board_of(
        player("Ala", 13, "member", 2), player("Gość", 13, "guest", 2), game(13, "Ala", "Gość", "Ala", 40, at(0, 1))
    )
    assert strength(board, "Ala", 13) == 2
    assert board.games[0].moves["Gość"].why == "free-loss"


def test_two_guests_both_move() -> None:
    board = board_of(
        player("Gość", 13, "guest", 5),
        player("Gosia", 13, "guest", 5),
        game(13, "Gość", "Gosia", "Gość", None, at(0, 1)),  # Gosia's free loss
        game(13, "Gość", "Gosia", "Gość", "resignation", at(0, 2)),
    )
    assert strength(board, "Gość", 13) == 8
    assert strength(board, "Gosia", 13) == 3


def test_a_guest_with_a_grade_starts_5_arrows_below_it() -> None:
    board = board_of(
        player("Ala", 13, "guest", None, kyu=10),
        player("Ola", 9, "guest", None, kyu=25),
        player("Ewa", 19, "guest", None, dan=1),
        player("Iza", 19, "guest"),
    )
    assert strength(board, "Ala", 13) == 37.5
    assert strength(board, "Ola", 9) == 20
    assert strength(board, "Ewa", 19) == 48.75
    assert strength(board, "Iza", 19) == 0


def guest_losing(times: int, config: Config | None = None) -> Board:
    events = [player("Gość", 13, "guest", 10), player("Ola", 13, "guest", 10)]
    events += [game(13, "Gość", "Ola", "Ola", None, at(0, minute)) for minute in range(1, times + 1)]
    return board_of(*events, config=config)


def test_a_guest_becomes_a_member_after_the_2nd_rated_loss_the_free_one_counts() -> None:
    assert magnet(guest_losing(1), "Gość", 13).status == "guest"
    board = guest_losing(2)
    assert magnet(board, "Gość", 13).status == "member"
    assert strength(board, "Gość", 13) == 9  # the first loss was free
    assert ("member", "Gość") in board.games[-1].milestones


def test_a_club_may_make_guests_members_after_3_losses() -> None:
    config = Config(guest_losses=3)
    assert magnet(guest_losing(2, config), "Gość", 13).status == "guest"
    assert magnet(guest_losing(3, config), "Gość", 13).status == "member"


def test_a_guests_loss_as_white_in_a_training_game_does_not_count() -> None:
    # A guest as White in a training game: the loss moves nothing, so it is not rated.
    board = board_of(
        player("Gość", 9, "guest", 45.5),
        player("Uczeń", 9, "guest", 20),
        game(9, "Gość", "Uczeń", "Uczeń", None, at(0, 1)),
        game(9, "Gość", "Uczeń", "Uczeń", None, at(0, 2)),
    )
    assert magnet(board, "Gość", 9).status == "guest"
    assert magnet(board, "Gość", 9).guest_losses == 0
    assert [g.moves["Gość"].why for g in board.games] == ["training", "training"]


def test_a_draw_is_not_a_loss_for_a_guest() -> None:
    board = board_of(
        player("Gość", 13, "guest", 10),
        player("Ola", 13, "member", 12),
        game(13, "Gość", "Ola", None, None, at(0, 1)),
        game(13, "Gość", "Ola", None, None, at(0, 2)),
    )
    assert magnet(board, "Gość", 13).status == "guest"


def test_the_opponent_sees_the_guest_status_from_before_the_game() -> None:
    # The game that makes Gość a member is still a game against a guest for Ala.
    board = board_of(
        player("Gość", 13, "guest", 10),
        player("Ala", 13, "member", 10),
        player("Ola", 13, "member", 10),
        game(13, "Gość", "Ola", "Ola", None, at(0, 1)),
        game(13, "Gość", "Ala", "Ala", None, at(0, 2)),
        game(13, "Gość", "Ala", "Ala", None, at(0, 3)),
    )
    assert board.games[1].moves["Ala"].why == "vs-guest"
    assert magnet(board, "Gość", 13).status == "member"
    assert board.games[2].moves["Ala"].why == "win"


# --- occasional games ----------------------------------------------------------------------


def test_an_occasional_player_uses_the_primary_magnet_and_it_stays() -> None:
    board = board_of(
        player("Ala", 13, "member", 20),
        player("Ala", 19, "member", 5),
        player("Ola", 9, "member", 10),
        game(9, "Ala", "Ola", "Ola", "resignation", at(0, 1)),
    )
    played = board.games[0]
    # 13x13 is Ala's primary magnet: difference 10 on 9x9 is 13.5 points, 2 moves and 1 prisoner.
    assert played.white == "Ala"
    assert (played.handicap.moves, played.handicap.prisoners) == (2, 1)
    assert list(played.moves) == ["Ola"]
    assert strength(board, "Ola", 9) == 12
    assert (strength(board, "Ala", 13), strength(board, "Ala", 19)) == (20, 5)


def test_the_owner_can_change_the_primary_magnet() -> None:
    board = board_of(
        player("Ala", 13, "member", 20),
        player("Ala", 19, "member", 5),
        player("Ola", 9, "member", 10),
        line("primary", at(0, 1), nick="Ala", size=19),
        game(9, "Ala", "Ola", "Ola", None, at(0, 2)),
    )
    assert board.games[0].white == "Ola"
    assert magnet(board, "Ala", 19).primary and not magnet(board, "Ala", 13).primary


def test_an_occasional_game_of_a_guest_is_still_against_a_guest() -> None:
    board = board_of(
        player("Gość", 13, "guest", 10),
        player("Ola", 9, "member", 10),
        game(9, "Gość", "Ola", "Gość", None, at(0, 1)),
    )
    assert board.games[0].moves["Ola"].why == "vs-guest"


# --- the free first loss of the week -------------------------------------------------------


def losses_of_ala(*days_and_minutes: tuple[int, int], extra: tuple = ()) -> Board:
    events = [*two_members(20, 20), *extra]
    events += [game(13, "Ala", "Ola", "Ola", None, at(d, m)) for d, m in days_and_minutes]
    return board_of(*events)


def test_only_the_first_loss_of_the_week_is_free() -> None:
    board = losses_of_ala((0, 1), (1, 0), (6, 0))
    assert [g.moves["Ala"].why for g in board.games] == ["free-loss", "loss", "loss"]
    assert strength(board, "Ala", 13) == 18


def test_the_week_runs_monday_to_sunday() -> None:
    # Sunday 23:59 and Monday 00:00 are in two weeks; both first losses are free.
    sunday_late = (6, 4 * 60 + 59)  # Monday 19:00 plus 6 days and 4:59
    board = losses_of_ala((0, 1), sunday_late, (7, -19 * 60))
    assert [g.at.strftime("%a %H:%M") for g in board.games] == ["Mon 19:01", "Sun 23:59", "Mon 00:00"]
    assert [g.moves["Ala"].why for g in board.games] == ["free-loss", "loss", "free-loss"]


def test_a_guests_loss_at_zero_counts_towards_membership_but_keeps_the_free_loss() -> None:
    # docs/rules.md §2, §4, §8: at 0 there is nothing to forgive, yet the guest has reached where they stand.
    board = board_of(
        player("Ala", 13, "guest", 0),
        player("Ola", 13, "guest", 0),
        game(13, "Ala", "Ola", "Ola", None, at(0, 1)),  # Ala at 0: no arrow down, 1st rated loss
        game(13, "Ala", "Ola", "Ala", None, at(0, 2)),  # Ala 1; Ola at 0 (1st rated loss)
        game(13, "Ala", "Ola", "Ola", None, at(0, 3)),  # Ala's first loss that can move her: free, 2nd rated
    )
    assert [g.moves["Ala"].why for g in board.games] == ["loss", "win", "free-loss"]
    assert [(g.moves["Ala"].before, g.moves["Ala"].after) for g in board.games] == [(0, 0), (0, 4), (4, 4)]
    assert magnet(board, "Ala", 13).status == "member"
    assert ("member", "Ala") in board.games[2].milestones
    assert magnet(board, "Ola", 13).guest_losses == 1


def test_a_loss_at_zero_does_not_use_up_the_weeks_free_loss() -> None:
    board = board_of(
        player("Ala", 13, "member", 0),
        player("Ola", 13, "member", 0),
        game(13, "Ala", "Ola", "Ola", None, at(0, 1)),  # at 0: stays, the free loss is kept
        game(13, "Ala", "Ola", "Ala", None, at(0, 2)),  # Ala 1
        game(13, "Ala", "Ola", "Ola", None, at(0, 3)),  # still this week's free loss
    )
    assert [g.moves["Ala"].why for g in board.games] == ["loss", "win", "free-loss"]
    assert strength(board, "Ala", 13) == 1
    assert magnet(board, "Ala", 13).free_loss_week == (2026, 45)


def test_a_guests_two_losses_at_zero_make_a_member() -> None:
    board = board_of(
        player("Ala", 13, "guest", 0),
        player("Ola", 13, "member", 5),
        game(13, "Ala", "Ola", "Ola", None, at(0, 1)),
        game(13, "Ala", "Ola", "Ola", "resignation", at(0, 2)),
    )
    assert magnet(board, "Ala", 13).status == "member"
    assert strength(board, "Ala", 13) == 0
    assert [g.moves["Ala"].why for g in board.games] == ["loss", "clear-loss"]


def test_a_clear_loss_uses_the_free_loss_too() -> None:
    board = board_of(*two_members(), game(13, "Ala", "Ola", "Ola", "resignation", at(0, 1)))
    assert board.games[0].moves["Ala"].why == "free-loss"
    assert strength(board, "Ala", 13) == 20
    assert strength(board, "Ola", 13) == 22


def test_the_free_loss_is_kept_per_magnet() -> None:
    board = board_of(
        player("Ala", 13, "member", 20),
        player("Ala", 9, "member", 20),
        player("Ola", 13, "member", 20),
        player("Ola", 9, "member", 20),
        game(13, "Ala", "Ola", "Ola", None, at(0, 1)),
        game(9, "Ala", "Ola", "Ola", None, at(0, 2)),
    )
    assert [g.moves["Ala"].why for g in board.games] == ["free-loss", "free-loss"]


def test_a_game_entered_late_lands_in_its_own_week() -> None:
    # Entered in this order: Tuesday of week 46, then Sunday of week 45 (a day late).
    board = losses_of_ala((8, 0), (6, 0))
    assert [g.at.day for g in board.games] == [8, 10]  # replay order is time order
    assert [g.moves["Ala"].why for g in board.games] == ["free-loss", "free-loss"]
    assert strength(board, "Ala", 13) == 20


def test_a_late_loss_takes_the_free_loss_from_a_later_loss_of_its_week() -> None:
    board = losses_of_ala((2, 0), (1, 0))
    assert [g.moves["Ala"].why for g in board.games] == ["free-loss", "loss"]
    assert strength(board, "Ala", 13) == 19


def test_events_at_the_same_time_apply_in_entry_order() -> None:
    same = at(1)
    board = board_of(
        *two_members(),
        game(13, "Ala", "Ola", "Ola", 1, same),
        game(13, "Ala", "Ola", "Ala", 2, same),
    )
    assert [g.winner for g in board.games] == ["Ola", "Ala"]
    assert [g.id for g in board.games] == [1, 2]


def test_two_players_who_now_play_even_for_the_first_time_are_announced() -> None:
    board = board_of(
        *two_members(20, 22),
        game(13, "Ala", "Ola", "Ala", "resignation", at(0, 1)),  # Ala 22, Ola 22 (her free loss)
        game(13, "Ala", "Ola", "Ala", None, at(0, 2)),
    )
    assert not board.games[0].handicap.even
    assert ("even", "Ala", "Ola") in board.games[0].milestones
    assert board.games[1].handicap.even
    assert not any(m[0] == "even" for m in board.games[1].milestones)


# --- owner actions (docs/rules.md §5) -----------------------------------------------------------


def test_a_correction_rehangs_a_magnet() -> None:
    board = board_of(
        player("Ala", 13, "member", 20),
        line("correction", at(0, 1), nick="Ala", size=13, strength=30.5, **{"with": "Ola"}, note="streak"),
    )
    assert strength(board, "Ala", 13) == 30.5
    assert board.changes[-1].why == "correction"


def test_a_correction_may_set_the_status_alone_or_with_a_strength() -> None:
    board = board_of(
        player("Gość", 13, "guest", 0),
        player("Gosia", 13, "guest", 0),
        line("correction", at(0, 1), nick="Gość", size=13, status="member"),
        line("correction", at(0, 2), nick="Gosia", size=13, status="member", strength=12),
    )
    assert (magnet(board, "Gość", 13).status, strength(board, "Gość", 13)) == ("member", 0)
    assert (magnet(board, "Gosia", 13).status, strength(board, "Gosia", 13)) == ("member", 12)


def test_a_correction_to_a_field_off_the_scale_is_an_error() -> None:
    with pytest.raises(HistoryError) as error:
        board_of(
            player("Ala", 13, "member", 20),
            line("correction", at(0, 1), nick="Ala", size=13, strength=50.25),
            config=Config(top=quarters(50)),
        )
    assert error.value.code == "bad-strength"


def test_a_strength_above_a_lower_top_is_named_as_people_write_it() -> None:
    with pytest.raises(HistoryError) as error:
        board_of(player("Ala", 13, "member", 52), config=Config(top=quarters(50)))
    assert str(error.value) == "line 1: 52 is not a field of the scale"


def test_a_correction_of_a_magnet_that_does_not_exist_is_an_error() -> None:
    with pytest.raises(HistoryError) as error:
        board_of(player("Ala", 13, "member", 20), line("correction", at(0, 1), nick="Ala", size=9, strength=5))
    assert error.value.code == "no-magnet"


def shifted(amount: float, size: int | None = None, nicks: list[str] | None = None) -> Board:
    return board_of(
        player("Ala", 13, "member", 34.5),
        player("Ala", 9, "member", 2),
        player("Ola", 13, "member", 55),
        player("Ewa", 19, "member", 40.25),
        line("shift", at(0, 1), amount=amount, size=size, nicks=nicks),
    )


def test_a_shift_of_one_size_moves_only_that_size() -> None:
    board = shifted(-5, size=13)
    assert strength(board, "Ala", 13) == 30  # 29.5 is no field: the tie goes up
    assert strength(board, "Ola", 13) == 50
    assert (strength(board, "Ala", 9), strength(board, "Ewa", 19)) == (2, 40.25)


def test_a_shift_of_all_sizes_is_clamped_at_0_and_the_top() -> None:
    down, up = shifted(-5), shifted(5)
    assert (strength(down, "Ala", 9), strength(down, "Ewa", 19)) == (0, 35.5)  # 35.25: tie goes up
    assert (strength(up, "Ola", 13), strength(up, "Ala", 13)) == (56, 39.5)


def test_a_shift_of_a_group_moves_only_its_players() -> None:
    board = shifted(-0.25, nicks=["Ala", "Ewa"])
    assert strength(board, "Ala", 13) == 34.5  # 34.25: the tie goes up
    assert strength(board, "Ala", 9) == 2  # 1.75 is nearest to 2
    assert strength(board, "Ewa", 19) == 40
    assert strength(board, "Ola", 13) == 55


def test_a_shift_of_an_unknown_player_is_an_error() -> None:
    with pytest.raises(HistoryError) as error:
        shifted(-5, nicks=["Nikt"])
    assert error.value.code == "unknown-player"


def test_a_merge_makes_the_duplicates_games_the_kept_players() -> None:
    board = board_of(
        player("Ala", 13, "member", 20),
        player("Ala2", 13, "member", 10),
        player("Ola", 13, "member", 20),
        game(13, "Ala2", "Ola", "Ala2", None, at(0, 1)),
        line("merge", at(1), from_="Ala2", into="Ala"),
    )
    # Ala's magnet, created first, stays; the duplicate's game moved it.
    assert [m.nick for m in board.magnets] == ["Ala", "Ola"]
    assert strength(board, "Ala", 13) == 21
    assert board.games[0].players == ("Ala", "Ola")
    assert board.games[0].moves["Ala"].before == quarters(20)


def test_a_merge_keeps_the_earlier_created_magnet_and_the_duplicates_other_sizes() -> None:
    board = board_of(
        player("Ala2", 13, "member", 10, when=at(0, -10)),
        player("Ala", 13, "member", 20),
        player("Ala2", 9, "member", 5),
        line("merge", at(1), from_="Ala2", into="Ala"),
    )
    assert strength(board, "Ala", 13) == 10  # the duplicate's magnet was created earlier
    assert strength(board, "Ala", 9) == 5
    assert board.magnet("Ala2", 13) is None


def test_unmerge_restores_both_players() -> None:
    events = [
        player("Ala", 13, "member", 20),
        player("Ala2", 13, "member", 10),
        player("Ola", 13, "member", 20),
        game(13, "Ala2", "Ola", "Ala2", None, at(0, 1)),
    ]
    before = board_of(*events)
    merged = [*events, line("merge", at(1), from_="Ala2", into="Ala")]
    after = board_of(*merged, line("unmerge", at(2), from_="Ala2", into="Ala"))
    assert after.to_json() == before.to_json()


def test_unmerge_of_players_who_are_not_merged_is_an_error() -> None:
    with pytest.raises(HistoryError) as error:
        board_of(player("Ala", 13), player("Ola", 13), line("unmerge", at(1), from_="Ala", into="Ola"))
    assert error.value.code == "not-merged"


def test_two_players_who_played_each_other_cannot_be_merged() -> None:
    with pytest.raises(HistoryError) as error:
        board_of(
            player("Ala", 13, "member", 20),
            player("Ola", 13, "member", 20),
            game(13, "Ala", "Ola", "Ola", None, at(0, 1)),
            line("merge", at(1), from_="Ola", into="Ala"),
        )
    assert error.value.code == "merge-played"
    assert error.value.line == 4
    assert "Ola and Ala played each other" in str(error.value)


def test_a_player_cannot_be_merged_into_herself() -> None:
    with pytest.raises(HistoryError) as error:
        board_of(player("Ala", 13), line("merge", at(1), from_="ALA", into="Ala"))
    assert error.value.code == "merge-self"


def test_voiding_a_past_game_replays_as_if_it_was_never_played() -> None:
    events = [*two_members(20, 20), player("Ewa", 13, "member", 20)]
    first = game(13, "Ala", "Ola", "Ala", "resignation", at(0, 1))
    later = game(13, "Ala", "Ewa", "Ewa", None, at(0, 2))
    board = board_of(*events, first, later, line("void", at(1), game=1))
    assert board.to_json() == board_of(*events, later).to_json()
    assert [g.id for g in board.games] == [2]
    assert board.games[0].handicap.even  # Ala is back at 20, even with Ewa


def test_editing_a_past_game_replays_everything_after_it() -> None:
    events = [*two_members(20, 20), player("Ewa", 13, "member", 20)]
    first = game(13, "Ala", "Ola", "Ala", "resignation", at(0, 1))
    later = game(13, "Ala", "Ewa", "Ewa", None, at(0, 2))
    edit = line("edit", at(1), game=1, played=at(0, 1), size=13, players=["Ala", "Ola"], winner="Ola", by=None)
    board = board_of(*events, first, later, edit)
    assert board.games[0].id == 1 and board.games[0].winner == "Ola"
    assert strength(board, "Ola", 13) == 21
    assert strength(board, "Ala", 13) == 19  # free loss on the first game, a loss on the second
    assert board.games[1].moves["Ala"].why == "loss"


def test_an_edit_may_move_a_game_to_another_time() -> None:
    events = [*two_members(20, 20)]
    first = game(13, "Ala", "Ola", "Ala", None, at(0, 1))
    second = game(13, "Ala", "Ola", "Ola", None, at(0, 2))
    edit = line("edit", at(1), game=1, played=at(0, 3), size=13, players=["Ala", "Ola"], winner="Ala", by=None)
    board = board_of(*events, first, second, edit)
    assert [g.id for g in board.games] == [2, 1]


def test_voiding_an_unknown_or_voided_game_is_an_error() -> None:
    events = [*two_members(), game(13, "Ala", "Ola", "Ala", None, at(0, 1))]
    with pytest.raises(HistoryError, match="there is no game 7"):
        board_of(*events, line("void", at(1), game=7))
    with pytest.raises(HistoryError) as error:
        board_of(*events, line("void", at(1), game=1), line("void", at(1, 1), game=1))
    assert error.value.code == "game-voided"


def test_a_rename_shows_the_new_name_through_the_whole_history() -> None:
    board = board_of(
        *two_members(),
        game(13, "Ala", "Ola", "Ala", None, at(0, 1)),
        line("rename", at(1), from_="Ala", to="Alicja"),
        game(13, "Alicja", "Ola", "Alicja", None, at(1, 1)),
    )
    assert [g.players for g in board.games] == [("Alicja", "Ola"), ("Alicja", "Ola")]
    assert board.games[0].winner == "Alicja"
    assert "Alicja" in board.games[0].moves
    assert board.magnet("Ala", 13) is None and strength(board, "Alicja", 13) == 22


def test_a_name_on_the_board_always_stands_for_that_magnets_player() -> None:
    # The owner renames the kept player by the duplicate's old name, then undoes the merge.
    board = board_of(
        *two_members(),
        player("Ala2", 9, "member", 5),
        line("merge", at(1), from_="Ala2", into="Ala"),
        line("rename", at(2), from_="Ala2", to="Alka"),
        line("unmerge", at(3), from_="Ala2", into="Ala"),
        game(13, "Alka", "Ola", "Alka", None, at(4)),
    )
    assert [(m.nick, m.size) for m in board.magnets] == [("Ala2", 9), ("Alka", 13), ("Ola", 13)]
    assert board.games[0].moves["Alka"].after == quarters(21)


def test_a_rename_to_a_taken_nickname_is_an_error() -> None:
    with pytest.raises(HistoryError) as error:
        board_of(*two_members(), line("rename", at(1), from_="Ala", to="OLA"))
    assert error.value.code == "nick-taken"


def test_a_renamed_away_nickname_cannot_be_a_new_player() -> None:
    with pytest.raises(HistoryError) as error:
        board_of(player("Ala", 13), line("rename", at(1), from_="Ala", to="Alicja"), player("Ala", 9, when=at(2)))
    assert error.value.code == "nick-renamed"


def test_a_retired_magnet_leaves_the_wall_and_keeps_its_history() -> None:
    events = [*two_members(), game(13, "Ala", "Ola", "Ala", None, at(0, 1)), line("retire", at(1), nick="Ala", size=13)]
    board = board_of(*events)
    assert [m.nick for m in board.on_size(13)] == ["Ola"]
    assert magnet(board, "Ala", 13).retired and strength(board, "Ala", 13) == 21
    assert board.to_json()["magnets"][0] == {
        "nick": "Ala",
        "size": 13,
        "strength": 21,
        "status": "member",
        "retired": True,
    }
    assert len(board.games) == 1
    restored = board_of(*events, line("restore", at(2), nick="Ala", size=13))
    assert [m.nick for m in restored.on_size(13)] == ["Ala", "Ola"]


def test_a_retired_magnet_that_plays_is_back_on_the_wall() -> None:
    board = board_of(
        *two_members(),
        line("retire", at(1), nick="Ala", size=13),
        game(13, "Ala", "Ola", "Ala", None, at(2)),
    )
    assert not magnet(board, "Ala", 13).retired


# --- players and history errors ------------------------------------------------------------


def test_a_second_player_line_for_the_same_magnet_is_ignored() -> None:
    board = board_of(player("Ala", 13, "member", 20), player("ALA", 13, "member", 40, when=at(1)))
    assert [(m.nick, strength(board, m.nick, 13)) for m in board.magnets] == [("Ala", 20)]


def test_nicknames_are_the_same_after_nfc_and_case_folding() -> None:
    composed, decomposed = "Zo\u00eb", "ZO\u0065\u0308"
    board = board_of(
        player(composed, 13, "member", 20),
        player("Ola", 13, "member", 20),
        game(13, decomposed, "Ola", decomposed, None, at(0, 1)),
    )
    assert strength(board, composed, 13) == 21
    assert board.games[0].players == (composed, "Ola")


@pytest.mark.parametrize(
    ("events", "code", "line_number"),
    [
        ([player("Ala", 13), game(13, "Ala", "Nikt", "Ala", None, at(1))], "unknown-player", 2),
        ([player("Ala", 13, strength=57)], "bad-strength", 1),
        ([player("Ala", 13), player("Ola", 13), game(13, "Ala", "Ola", None, None, at(1))], "draw-even", 3),
        # A game before a player joined: the player was not on the board yet (§8).
        (
            [player("Ala", 13), game(13, "Ala", "Ola", "Ala", None, at(1)), player("Ola", 13, when=at(2))],
            "not-on-board-yet",
            2,
        ),
    ],
)
def test_a_history_the_board_cannot_take_is_an_error_naming_the_line(events: list, code: str, line_number: int) -> None:
    with pytest.raises(HistoryError) as error:
        board_of(*events)
    assert error.value.code == code
    assert error.value.line == line_number
    assert str(error.value).startswith(f"line {line_number}: ")


def test_a_game_with_herself_after_a_merge_is_an_error() -> None:
    with pytest.raises(HistoryError) as error:
        board_of(
            player("Ala", 13),
            player("Ala2", 13),
            line("merge", at(1), from_="Ala2", into="Ala"),
            game(13, "Ala", "Ala2", "Ala", None, at(2)),
        )
    assert error.value.code == "same-player"


def test_the_engine_goes_on_from_a_saved_state_like_a_full_replay() -> None:
    events = [*two_members(), player("Gość", 13, "guest", 3)]
    games = [
        game(13, "Ala", "Ola", "Ala", None, at(0, 1)),
        game(13, "Gość", "Ola", "Ola", None, at(0, 2)),
        game(13, "Gość", "Ala", "Ala", 40, at(0, 3)),
    ]
    engine = Replay(Config())
    engine.run(list(enumerate(events, start=1)))
    state = json.loads(json.dumps(engine.state()))
    resumed = Replay.from_state(Config(), state)
    for position, event in enumerate(games, start=len(events) + 1):
        assert resumed.can_append(event, position)
        resumed.append(position, event)
    assert resumed.board_magnets() == replay([*events, *games]).magnets


def test_a_past_event_cannot_be_appended() -> None:
    engine = Replay(Config())
    engine.run(list(enumerate([*two_members(), game(13, "Ala", "Ola", "Ala", None, at(1))], start=1)))
    assert not engine.can_append(game(13, "Ala", "Ola", "Ala", None, at(0, 30)), 4)
    assert not engine.can_append(line("void", at(5), game=1), 4)


# --- properties over random histories --------------------------------------------------------


@PROPERTIES
@given(histories(meta=True))
def test_every_strength_is_a_field(events: list) -> None:
    board = replay(events)
    assert all(is_field(m.strength) for m in board.magnets)
    for played in board.games:
        for move in played.moves.values():
            assert is_field(move.before) and is_field(move.after)
            rated_whys = {"win", "clear-win", "draw", "loss", "clear-loss", "free-loss", "training", "vs-guest"}
            assert move.why in rated_whys or (move.why == "not-rated" and move.before == move.after)


@PROPERTIES
@given(histories(distinct_times=True), st.randoms(use_true_random=False))
def test_replay_does_not_depend_on_the_order_of_entry(events: list, rng: random.Random) -> None:
    shuffled = list(events)
    rng.shuffle(shuffled)
    expected, got = replay(events), replay(shuffled)
    assert got.magnets == expected.magnets
    # Game numbers follow entry order; everything the board shows about a game is the same.
    assert [g.to_json() for g in got.games] == [g.to_json() for g in expected.games]


@PROPERTIES
@given(
    histories(meta=True),
    st.integers(-60, 60).filter(bool),
    st.sampled_from([None, 9, 13, 19]),
    st.booleans(),
)
def test_a_shift_moves_its_group_by_the_same_amount_up_to_rounding(
    events: list, amount: int, size: int | None, whole_club: bool
) -> None:
    before = replay(events)
    nicks = None if whole_club else sorted({m.nick for m in before.magnets})[:2]
    when = max(e.at for e in events)
    shift = Shift(when, amount, size, tuple(nicks) if nicks else None)
    after = replay([*events, shift])

    def by_name(board: Board) -> list:
        return sorted(board.magnets, key=lambda m: (m.nick, m.size))

    for old, new in zip(by_name(before), by_name(after), strict=True):
        assert (old.nick, old.size) == (new.nick, new.size)
        in_group = (size is None or old.size == size) and (nicks is None or old.nick in nicks)
        expected = nearest_field(old.strength + amount) if in_group else old.strength
        assert new.strength == expected


@PROPERTIES
@given(histories(meta=True))
def test_every_move_is_the_arrows_its_why_says(events: list) -> None:
    arrows = {"clear-win": 2, "win": 1, "draw": 0, "loss": -1, "clear-loss": -2}
    for played in replay(events).games:
        for nick, move in played.moves.items():
            assert move.after == move_arrows(move.before, arrows.get(move.why, 0))
            # A game that is not rated moves nobody, whatever else holds (docs/rules.md §4).
            assert (move.why == "not-rated") == (not played.rated)
            if not played.rated:
                continue
            if played.handicap.training and nick == played.white:
                assert move.why == "training"
            if nick == played.winner:
                assert move.why in ("win", "clear-win", "vs-guest", "training")
            elif played.winner is None:
                assert move.why in ("draw", "vs-guest", "training")
            else:
                assert move.why in ("loss", "clear-loss", "free-loss", "vs-guest", "training")


@PROPERTIES
@given(histories())
def test_each_magnet_has_one_free_loss_a_week_and_it_is_the_first_loss(events: list) -> None:
    losses: dict[tuple[str, int, tuple[int, int]], list[str]] = {}
    for played in replay(events).games:
        week = tuple(played.at.isocalendar())[:2]
        for nick, move in played.moves.items():
            # A loss at 0 cannot move the magnet, so it leaves the free loss for later.
            if move.why in ("loss", "clear-loss", "free-loss") and move.before > 0:
                losses.setdefault((nick, played.size, week), []).append(move.why)
    for whys in losses.values():
        assert whys[0] == "free-loss"
        assert whys.count("free-loss") == 1


# --- a plain reading of docs/rules.md §2–§5, as an oracle for the optimised replay ----------------


@dataclass
class _Plain:
    strength: int
    status: str
    losses: int = 0
    free_week: tuple[int, int] | None = None


def plain_replay(events: list, config: Config) -> dict[tuple[str, int], tuple[int, str]]:
    """The magnets a history gives, read from the rules text one event at a time."""
    magnets: dict[tuple[str, int], _Plain] = {}
    primary: dict[str, int] = {}
    order = sorted(range(len(events)), key=lambda i: (events[i].at, i))
    for event in (events[i] for i in order):
        if isinstance(event, PlayerAdded):
            if (event.nick, event.size) not in magnets:
                start = from_grade(event.kyu, event.dan) if event.kyu or event.dan else event.strength or 0
                magnets[event.nick, event.size] = _Plain(start, event.status)
                primary.setdefault(event.nick, event.size)
        elif isinstance(event, Correction):
            magnet = magnets[event.nick, event.size]
            magnet.strength = event.strength if event.strength is not None else magnet.strength
            if event.status == "guest" and magnet.status == "member":
                magnet.losses = 0
            magnet.status = event.status or magnet.status
        elif isinstance(event, Shift):
            for (nick, size), magnet in magnets.items():
                if event.size in (None, size) and (event.nicks is None or nick in event.nicks):
                    magnet.strength = nearest_field(magnet.strength + event.amount)
        elif isinstance(event, GamePlayed):
            plain_game(event, magnets, primary, config)
    return {key: (m.strength, m.status) for key, m in magnets.items()}


def plain_game(game: GamePlayed, magnets: dict, primary: dict, config: Config) -> None:
    if game.kind != "rated":
        return  # a teaching game, a simultaneous, ...: nothing moves, nothing is used up (§4)
    rules = config.size_rules[game.size]
    own = [magnets.get((nick, game.size)) for nick in game.players]
    used = [own[i] or magnets[game.players[i], primary[game.players[i]]] for i in (0, 1)]
    h = handicap_for(abs(used[0].strength - used[1].strength), rules)
    clear = game.by == "resignation" or (game.by is not None and game.by >= rules.clear_margin)
    week = game.at.isocalendar()[:2]
    decided = []
    for i in (0, 1):
        if own[i] is None:
            continue  # an occasional game: this magnet stays
        won = game.winner == game.players[i]
        white = not h.even and used[i].strength > used[1 - i].strength
        arrows, free, rated = (2 if clear else 1) * (1 if won else -1), False, False
        member_vs_guest = own[i].status == "member" and used[1 - i].status == "guest"
        if (h.training and white) or member_vs_guest or game.winner is None:
            arrows = 0
        elif not won:
            rated = True  # a loss at 0 counts towards membership too (§2)
            if own[i].free_week != week and own[i].strength > 0:  # at 0 nothing to forgive
                arrows, free = 0, True
        decided.append((own[i], arrows, free, rated))
    for state, arrows, free, rated in decided:
        state.strength = move_arrows(state.strength, arrows)
        state.free_week = week if free else state.free_week
        if rated and state.status == "guest":
            state.losses += 1
            if state.losses >= config.guest_losses:
                state.status = "member"


@PROPERTIES
@given(histories(max_actions=40), st.sampled_from([2, 3]))
def test_replay_agrees_with_a_plain_reading_of_the_rules(events: list, guest_losses: int) -> None:
    config = Config(guest_losses=guest_losses)
    board = replay(events, config)
    assert {(m.nick, m.size): (m.strength, m.status) for m in board.magnets} == plain_replay(events, config)


@PROPERTIES
@given(histories(meta=True))
def test_every_name_on_the_board_resolves_to_its_own_player(events: list) -> None:
    engine = Replay(Config())
    board = engine.run(list(enumerate(events, start=1)))
    for shown in board.magnets:
        assert engine.display[engine.resolve(shown.nick)] == shown.nick


# --- docs/rules.md §8: where the club's text is silent ------------------------------------------


def test_rules_8_an_occasional_player_counts_with_the_primary_magnets_status() -> None:
    # Ala's primary magnet (13x13) is a member's, her 19x19 one a guest's; she has none on 9x9.
    events = [
        player("Ala", 13, "member", 20),
        player("Ala", 19, "guest", 20),
        player("Ola", 9, "member", 20),
        game(9, "Ala", "Ola", "Ala", None, at(0, 1)),
        line("primary", at(0, 2), nick="Ala", size=19),
        game(9, "Ala", "Ola", "Ala", None, at(0, 3)),
    ]
    board = board_of(*events)
    assert [list(g.moves) for g in board.games] == [["Ola"], ["Ola"]]  # Ala's magnets stay
    assert [g.moves["Ola"].why for g in board.games] == ["free-loss", "vs-guest"]


def test_rules_8_a_grade_above_the_top_counts_as_the_top() -> None:
    board = board_of(player("Ala", 19, "guest", None, dan=8), player("Ola", 19, "guest", None, dan=7))
    assert strength(board, "Ala", 19) == 54.75  # 8 dan -> 57 -> the top 56 -> 5 arrows down
    assert strength(board, "Ola", 19) == 54.75  # 7 dan is the top itself
    lower = board_of(player("Ala", 19, "guest", None, dan=3), config=Config(top=quarters(50)))
    assert strength(lower, "Ala", 19) == 48.75  # 3 dan -> 52 -> this club's top 50 -> 5 arrows down


def test_rules_8_the_first_exception_names_the_why_occasional_then_training_then_vs_guest() -> None:
    board = board_of(
        player("Mistrz", 13, "member", 40),
        player("Gość", 13, "guest", 10),
        player("Obcy", 19, "member", 40),  # no magnet on 13x13: occasional
        game(13, "Mistrz", "Gość", "Gość", None, at(0, 1)),  # training and vs-guest: training
        game(13, "Obcy", "Gość", "Gość", None, at(0, 2)),  # occasional, training and vs-guest
        player("Ewa", 13, "member", 12),
        game(13, "Ewa", "Gość", "Gość", None, at(0, 3)),  # only vs-guest
    )
    assert board.games[0].handicap.training and board.games[0].white == "Mistrz"
    assert board.games[0].moves["Mistrz"].why == "training"
    assert "Obcy" not in board.games[1].moves  # occasional: no move at all
    assert board.games[2].moves["Ewa"].why == "vs-guest"


def test_rules_8_renames_merges_voids_and_edits_apply_in_entry_order_whatever_their_time() -> None:
    events = [
        player("Ala", 13, "member", 20),
        player("Ala2", 13, "member", 10, when=at(0, -10)),
        player("Ola", 13, "member", 20),
        game(13, "Ala2", "Ola", "Ola", None, at(0, 1)),
        # Entered first, dated later: the rename applies before the merge that names "Alicja".
        line("rename", at(3), from_="Ala", to="Alicja"),
        line("merge", at(1), from_="Ala2", into="Alicja"),
        # An edit entered before a void dated earlier: the edit applies, then the void.
        line("edit", at(5), game=1, played=at(0, 1), size=13, players=["Ala2", "Ola"], winner="Ala2", by=None),
        line("void", at(4), game=1),
    ]
    board = board_of(*events)
    assert [(m.nick, m.size) for m in board.magnets if m.size == 13] == [("Ola", 13), ("Alicja", 13)]
    assert board.games == ()
    with pytest.raises(HistoryError) as error:  # the other way round the edit names a voided game
        board_of(*events[:6], events[7], events[6])
    assert error.value.code == "game-voided"


def test_rules_8_a_merge_of_two_opponents_is_refused() -> None:
    events = [
        player("Ala", 13, "member", 20),
        player("Ola", 13, "member", 20),
        game(13, "Ala", "Ola", "Ola", None, at(2)),  # played after the merge's time, entered before it
    ]
    with pytest.raises(HistoryError) as error:
        board_of(*events, line("merge", at(1), from_="Ola", into="Ala"))
    assert error.value.code == "merge-played"
    with pytest.raises(HistoryError) as error:  # and once merged, they cannot play each other
        board_of(*events[:2], line("merge", at(1), from_="Ola", into="Ala"), game(13, "Ala", "Ola", "Ala", None, at(3)))
    assert error.value.code == "same-player"


def test_rules_8_a_shift_moves_retired_magnets_too() -> None:
    board = board_of(
        player("Ala", 13, "member", 20),
        player("Ola", 13, "member", 20),
        line("retire", at(1), nick="Ala", size=13),
        line("shift", at(2), amount=-5, size=13, nicks=None),
    )
    assert magnet(board, "Ala", 13).retired
    assert strength(board, "Ala", 13) == 15
    assert strength(board, "Ola", 13) == 15


def test_rules_8_a_correction_back_to_guest_restarts_the_count_of_rated_losses() -> None:
    events = [
        player("Gość", 13, "guest", 10),
        player("Ola", 13, "guest", 10),
        game(13, "Gość", "Ola", "Ola", None, at(0, 1)),  # Gość: 1 rated loss
        line("correction", at(0, 2), nick="Gość", size=13, status="member"),
        line("correction", at(0, 3), nick="Gość", size=13, status="guest"),  # a guest again: count from 0
        game(13, "Gość", "Ola", "Ola", None, at(0, 4)),
    ]
    board = board_of(*events)
    assert magnet(board, "Gość", 13).status == "guest"
    assert magnet(board, "Gość", 13).guest_losses == 1
    board = board_of(*events, game(13, "Gość", "Ola", "Ola", None, at(0, 5)))
    assert magnet(board, "Gość", 13).status == "member"


def test_rules_8_a_time_a_clock_change_skips_or_repeats_is_taken_and_ordered_as_written() -> None:
    # Warsaw skips 02:00-03:00 on 2026-03-29 and repeats it on 2026-10-25: `at` is the wall clock as written.
    events = [
        player("Ala", 9, "member", 20, when="2026-03-01T19:00"),
        player("Ola", 9, "member", 20, when="2026-03-01T19:00"),
        game(9, "Ala", "Ola", "Ala", "resignation", "2026-03-29T02:40"),  # entered first, a skipped time
        game(9, "Ala", "Ola", "Ola", "resignation", "2026-03-29T02:10"),  # entered second, written earlier
        game(9, "Ala", "Ola", "Ala", "resignation", "2026-10-25T02:30"),  # the repeated hour, twice:
        game(9, "Ala", "Ola", "Ola", "resignation", "2026-10-25T02:30"),  # entry order breaks the tie
    ]
    board = board_of(*events)
    assert [g.at.strftime("%m-%d %H:%M") for g in board.games] == [
        "03-29 02:10",
        "03-29 02:40",
        "10-25 02:30",
        "10-25 02:30",
    ]
    assert [g.winner for g in board.games] == ["Ola", "Ala", "Ala", "Ola"]
    # Ola won first (02:10) and took Ala's free loss of the week; then Ala won at 02:40.
    assert board.games[0].moves["Ala"].why == "free-loss"


def test_rules_8_declared_grades_run_from_50_kyu_to_9_dan_and_9_dan_counts_as_the_top() -> None:
    board = board_of(player("Ala", 19, "guest", None, dan=9), player("Ola", 19, "guest", None, kyu=50))
    assert strength(board, "Ala", 19) == 54.75  # 9 dan -> the top 56 -> 5 arrows down, as 8 dan
    assert strength(board, "Ola", 19) == 0  # 50 kyu -> 0 -> 5 arrows down, clamped at 0
    for grade in ({"dan": 10}, {"kyu": 51}, {"kyu": 0}, {"dan": 0}, {"kyu": 1.5}):
        with pytest.raises(HistoryError) as error:
            player("Ela", 19, "guest", None, **grade)
        assert error.value.code == "bad-grade"


def test_rules_8_a_correction_of_a_guest_to_guest_again_keeps_the_count_of_rated_losses() -> None:
    events = [
        player("Gość", 13, "guest", 10),
        player("Ola", 13, "guest", 10),
        game(13, "Gość", "Ola", "Ola", None, at(0, 1)),  # Gość: 1 rated loss
        line("correction", at(0, 2), nick="Gość", size=13, status="guest", strength=12),  # still a guest
    ]
    board = board_of(*events)
    assert magnet(board, "Gość", 13).guest_losses == 1
    board = board_of(*events, game(13, "Gość", "Ola", "Ola", None, at(0, 3)))
    assert magnet(board, "Gość", 13).status == "member"  # the second rated loss makes a member


def test_rules_8_a_shift_correction_or_game_naming_a_record_merged_later_is_the_kept_players() -> None:
    events = [
        player("Ala", 13, "member", 20),
        player("Ala", 9, "member", 20),
        player("Alka", 19, "member", 20),  # a second record of Ala, merged at the end
        player("Ola", 13, "member", 20),
        line("correction", at(0, 1), nick="Alka", size=13, strength=22),  # names the duplicate: Ala's magnet
        line("shift", at(0, 2), amount=2, nicks=["Alka", "Ola"]),  # a group naming the duplicate
        game(13, "Alka", "Ola", "Alka", "resignation", at(0, 3)),  # Ala won it
        line("merge", at(1), from_="Alka", into="Ala"),
    ]
    board = board_of(*events)
    assert board.games[0].winner == "Ala" and board.games[0].players == ("Ala", "Ola")
    assert board.games[0].moves["Ala"].after > board.games[0].moves["Ala"].before  # her own 13x13 magnet went up
    # The correction set Ala's 13x13 to 22; the group shift moved all of Ala's magnets (9, 13, 19) and Ola's.
    assert strength(board, "Ala", 9) == 22
    assert strength(board, "Ala", 19) == 22
    assert strength(board, "Ola", 13) == 22  # the shift, then her free loss of the week to Ala
    assert strength(board, "Ala", 13) > 24


def test_rules_8_in_a_merge_the_earlier_created_magnet_is_the_one_with_the_earlier_time() -> None:
    # Entered first but dated later: Alka's 13x13 magnet is the later-created one, so Ala's is kept.
    events = [
        player("Alka", 13, "member", 30, when=at(0, 10)),
        player("Ala", 13, "member", 20, when=at(0, 5)),
        line("merge", at(1), from_="Alka", into="Ala"),
    ]
    assert strength(board_of(*events), "Ala", 13) == 20
    tie = [
        player("Alka", 13, "member", 30, when=at(0, 5)),  # the same time: entry order, Alka's is earlier
        player("Ala", 13, "member", 20, when=at(0, 5)),
        line("merge", at(1), from_="Alka", into="Ala"),
    ]
    assert strength(board_of(*tie), "Ala", 13) == 30


def test_rules_8_a_game_before_a_player_was_added_is_an_error_before_their_magnet_an_occasional_game() -> None:
    with pytest.raises(HistoryError) as error:
        board_of(
            player("Ala", 13, "member", 20, when=at(0, 10)),
            player("Ola", 13, "member", 20),
            game(13, "Ala", "Ola", "Ola", None, at(0, 5)),
        )
    assert error.value.code == "not-on-board-yet"
    assert error.value.message("en") == "line 3: 'Ala' was not on the board yet at the game's time"
    board = board_of(
        player("Ala", 9, "member", 20),  # Ala's first magnet is on 9x9
        player("Ola", 13, "member", 20),
        game(13, "Ala", "Ola", "Ala", None, at(0, 5)),  # before Ala's 13x13 magnet existed
        player("Ala", 13, "member", 20, when=at(0, 10)),
    )
    assert "Ala" not in board.games[0].moves  # occasional for Ala
    assert strength(board, "Ala", 13) == 20
