"""Who takes White and what Black gets, before a game (RULES.md §3)."""

from __future__ import annotations

import pytest
from histories import at, board_of, line, player

from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.pairing import for_players, for_strengths
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
