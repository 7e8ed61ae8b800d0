"""Who takes White and what Black gets, before a game (docs/rules.md §3)."""

from __future__ import annotations

import pytest
from histories import at, board_of, line, player

from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.pairing import for_entries, for_players, for_strengths
from kiosk.scale import quarters

CONFIG = Config()


def test_the_calculator_gives_bianka_white_against_czarek() -> None:
    pairing = for_strengths(9, quarters(34.5), quarters(25), CONFIG)
    assert pairing.difference == quarters(9.5)
    assert (pairing.handicap.moves, pairing.handicap.prisoners) == (2, 0)
    assert pairing.white is not None and pairing.white.strength == quarters(34.5)
    assert pairing.black is not None and pairing.black.strength == quarters(25)


def test_the_stronger_takes_white_whichever_is_named_first() -> None:
    pairing = for_strengths(9, quarters(25), quarters(34.5), CONFIG)
    assert pairing.white is pairing.sides[1] and pairing.black is pairing.sides[0]


def test_an_even_game_has_no_white_colours_by_nigiri() -> None:
    pairing = for_strengths(13, quarters(20), quarters(21), CONFIG)
    assert pairing.handicap.even
    assert pairing.white is None and pairing.black is None


def club() -> tuple:
    return (
        player("Bianka", 9, "member", 34.5),
        player("Czarek", 9, "guest", 25),
        player("Ala", 13, "member", 20),
        player("Ala", 19, "member", 5),
    )


def test_two_players_on_their_size() -> None:
    pairing = for_players(board_of(*club()).magnets, 9, "czarek", "Bianka", CONFIG)
    assert pairing.white.nick == "Bianka"  # type: ignore[union-attr]
    assert pairing.black.guest and not pairing.black.occasional  # type: ignore[union-attr]
    assert (pairing.handicap.moves, pairing.handicap.prisoners) == (2, 0)


def test_an_occasional_player_brings_the_primary_magnets_strength() -> None:
    pairing = for_players(board_of(*club()).magnets, 9, "Ala", "Czarek", CONFIG)
    ala = pairing.sides[0]
    assert ala.occasional and ala.strength == quarters(20)  # 13x13 is her primary magnet
    assert pairing.difference == quarters(5)


def test_the_owner_may_change_which_magnet_is_primary() -> None:
    board = board_of(*club(), line("primary", at(1), nick="Ala", size=19))
    pairing = for_players(board.magnets, 9, "Ala", "Czarek", CONFIG)
    assert pairing.sides[0].strength == quarters(5)


def test_a_pairing_needs_two_known_players() -> None:
    magnets = board_of(*club()).magnets
    with pytest.raises(HistoryError) as error:
        for_players(magnets, 9, "Bianka", "Nikt", CONFIG)
    assert error.value.code == "unknown-player"
    with pytest.raises(HistoryError) as error:
        for_players(magnets, 9, "Bianka", "BIANKA", CONFIG)
    assert error.value.code == "same-player"


def test_the_calculator_takes_two_strengths_as_typed_a_decimal_comma_too() -> None:
    pairing = for_entries((), 9, " 34,5 ", "25", CONFIG)
    assert pairing.difference == quarters(9.5)
    assert pairing.white is not None and pairing.white.strength == quarters(34.5)
    assert for_entries((), 19, "40", "40.25", CONFIG).handicap.even


def test_the_calculator_takes_two_players_of_the_board() -> None:
    pairing = for_entries(board_of(*club()).magnets, 9, " czarek ", "Bianka", CONFIG)
    assert [side.nick for side in pairing.sides] == ["Czarek", "Bianka"]
    assert pairing.white is not None and pairing.white.nick == "Bianka"


@pytest.mark.parametrize(
    ("typed", "nearest"),
    [("31.25", "; the nearest fields are 31 and 31.5"), ("31,1", "; the nearest fields are 31 and 31.5")]
    + [(typed, "") for typed in ("-4", "57", "1e9")],  # off the scale: no field is near
)
def test_the_calculator_refuses_a_strength_that_is_no_field_of_the_scale(typed: str, nearest: str) -> None:
    with pytest.raises(HistoryError) as error:
        for_entries((), 13, "30", typed, CONFIG)
    assert error.value.code == "bad-strength"
    assert error.value.message("en") == f"{typed} is not a field of the scale{nearest}"


def test_the_calculator_knows_the_clubs_top() -> None:
    for_entries((), 13, "30", "56", CONFIG)
    with pytest.raises(HistoryError) as error:
        for_entries((), 13, "30", "56", Config(top=quarters(50)))
    assert error.value.code == "bad-strength"


def test_the_calculator_wants_two_strengths_or_two_players() -> None:
    magnets = board_of(*club()).magnets
    with pytest.raises(HistoryError) as error:
        for_entries(magnets, 9, "30", "Bianka", CONFIG)
    assert error.value.code == "strengths-or-nicks"
    assert error.value.message("pl") == "podaj dwie siły albo dwa nicki"
    for a, b, code in [
        ("Bianka", "inf", "unknown-player"),
        ("Bianka", "1/0", "unknown-player"),
        ("Ala", "ALA", "same-player"),
    ]:
        with pytest.raises(HistoryError) as error:
            for_entries(magnets, 9, a, b, CONFIG)
        assert error.value.code == code
