"""What a phone typed, checked the same way for the form and the JSON API."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from kiosk.board import Magnet
from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.recording import new_game, new_guest, new_member, nobody_moves, size_for
from kiosk.rules import club_now, starting_field
from kiosk.scale import quarters

NOW = datetime(2026, 11, 3, 20, 0)
BOARD = (Magnet("Bianka", 9, 138, "member"),)


def test_a_game_without_a_time_is_played_now() -> None:
    game = new_game(9, ["Bianka", "Czarek"], "Czarek", 21, None, NOW)
    assert game.at == NOW


def test_a_late_entry_keeps_its_date_but_the_future_is_refused() -> None:
    assert new_game(9, ["Bianka", "Czarek"], "Czarek", 21, "2026-10-01T19:00", NOW).at == datetime(2026, 10, 1, 19)
    assert new_game(9, ["Bianka", "Czarek"], "Czarek", 21, "2026-11-03T20:10", NOW).at.minute == 10  # clock skew
    with pytest.raises(HistoryError) as error:
        new_game(9, ["Bianka", "Czarek"], "Czarek", 21, "2026-11-04T20:00", NOW)
    # The kiosk's clock is named: when it is the one that is wrong, the owner can tell.
    assert "jest w przyszłości: zegar kiosku wskazuje 2026-11-03" in error.value.message("pl")
    assert "kiosk's clock says 2026-11-03" in error.value.message("en")


def test_a_phone_may_date_a_game_only_days_back_days_back() -> None:
    assert new_game(9, ["Bianka", "Czarek"], "Czarek", 21, "2026-10-27T08:00", NOW, days_back=7).at.day == 27
    with pytest.raises(HistoryError) as error:
        new_game(9, ["Bianka", "Czarek"], "Czarek", 21, "2026-10-26T23:59", NOW, days_back=7)
    assert error.value.message("en") == (
        "the date 2026-10-26 23:59 is more than 7 days back; only the club owner can enter older games"
    )
    assert "starsze gry może wpisać tylko właściciel klubu" in error.value.message("pl")


def test_club_time_is_the_clubs_zone() -> None:
    assert club_now(Config(timezone="Europe/Warsaw"), datetime(2026, 11, 3, 18, 0, 30, tzinfo=UTC)) == datetime(
        2026, 11, 3, 19, 0
    )


def test_a_nickname_on_the_board_is_taken_whatever_its_case() -> None:
    with pytest.raises(HistoryError) as error:
        new_guest("BIANKA", 13, NOW, BOARD)
    assert error.value.code == "nick-taken"
    with pytest.raises(HistoryError):
        new_member("bianka", 13, 30, NOW, BOARD)


def test_a_guest_from_a_grade() -> None:
    guest = new_guest("Czarek", 9, NOW, BOARD, kyu=10)
    assert (guest.status, guest.kyu, guest.strength) == ("guest", 10, None)


def test_a_grade_as_typed_that_is_no_grade_is_refused() -> None:
    for typed in ("abc", "", 0, 51):
        with pytest.raises(HistoryError) as error:
            new_guest("Czarek", 9, NOW, BOARD, kyu=typed)
        assert error.value.code == "bad-grade"
    with pytest.raises(HistoryError) as error:
        new_guest("Czarek", 9, NOW, BOARD, dan="x")
    assert error.value.message("pl") == "stopień to od 1 do 50 kyu albo od 1 do 9 dan, nie 'x'"


def test_the_starting_field_of_a_guest_a_graded_guest_and_a_member() -> None:
    config = Config()
    assert starting_field(new_guest("Czarek", 13, NOW, BOARD), config) == 0
    assert starting_field(new_guest("Czarek", 13, NOW, BOARD, kyu=10), config) == quarters(37.5)
    assert starting_field(new_guest("Czarek", 13, NOW, BOARD, dan=1), config) == quarters(48.75)
    assert starting_field(new_member("Czarek", 13, 30.5, NOW, BOARD), config) == quarters(30.5)
    # A lower top takes a strong grade no higher than the top, then five arrows down.
    assert starting_field(new_guest("Czarek", 13, NOW, BOARD, dan=9), Config(top=quarters(50))) == quarters(48.75)


# The size follows the players.
CLUB = (
    Magnet("Ala", 9, 40, "guest", primary=True),
    Magnet("Ola", 9, 20, "guest", primary=True),
    Magnet("Ewa", 13, 120, "member", primary=True),
    Magnet("Ewa", 9, 100, "member"),
    Magnet("Gosia", 13, 122, "member", primary=True),
    Magnet("Gosia", 19, 90, "member"),
)


def test_two_players_go_to_the_size_they_share() -> None:
    assert size_for(CLUB, "Ala", "Ola", 13) == 9
    assert size_for(CLUB, "ala", "OLA", None) == 9
    assert size_for(CLUB, "Ala", "Ewa", 13) == 9  # Ewa's second magnet is on 9x9


def test_a_shared_size_picked_by_hand_or_remembered_stays() -> None:
    assert size_for(CLUB, "Ewa", "Gosia", 13) == 13
    assert size_for(CLUB, "Ewa", "Gosia", 19) == 13  # Ewa has no 19x19 magnet
    assert size_for(CLUB, "Ewa", "Ala", 9) == 9


def test_without_a_shared_size_one_of_them_still_moves() -> None:
    assert size_for(CLUB, "Ala", "Gosia", 19) == 19  # Gosia moves there
    assert size_for(CLUB, "Ala", "Gosia", None) in (9, 13)
    assert size_for(CLUB, "Nobody", "Ghost", 13) == 13  # unknown names: the choice stands


def test_a_size_neither_player_has_moves_nobody() -> None:
    assert nobody_moves(CLUB, 13, "Ala", "Ola")
    assert not nobody_moves(CLUB, 9, "Ala", "Ola")
    assert not nobody_moves(CLUB, 19, "Ala", "Gosia")


def test_a_whole_number_margin_in_an_even_game_is_refused() -> None:
    from kiosk.recording import check_margin

    config = Config()
    even = (Magnet("Ewa", 13, 120, "member", primary=True), Magnet("Gosia", 13, 122, "member", primary=True))
    with pytest.raises(HistoryError) as error:
        check_margin(even, new_game(13, ["Ewa", "Gosia"], "Ewa", 7, None, NOW), config)
    assert error.value.code == "even-margin" and error.value.params["lower"] == "6.5"
    check_margin(even, new_game(13, ["Ewa", "Gosia"], "Ewa", 7.5, None, NOW), config)
    check_margin(even, new_game(13, ["Ewa", "Gosia"], "Ewa", "resignation", None, NOW), config)
    uneven = (Magnet("Ewa", 13, 120, "member", primary=True), Magnet("Ala", 13, 40, "guest", primary=True))
    check_margin(uneven, new_game(13, ["Ewa", "Ala"], "Ewa", 7, None, NOW), config)  # no komi: whole points
