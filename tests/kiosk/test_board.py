"""The board a history produces: magnets by size, strongest first (docs/rules.md §7)."""

from __future__ import annotations

import json

from histories import at, board_of, game, histories, line, player
from hypothesis import HealthCheck, given, settings

from kiosk.board import Magnet, board_json_text, climbers, sort_magnets
from kiosk.replay import replay
from kiosk.scale import quarters


def club() -> tuple:
    return (
        player("ola", 13, "member", 20),
        player("Ala", 13, "member", 20),
        player("Ewa", 13, "member", 33.5),
        player("Ala", 9, "member", 12, when=at(0, 1)),
        player("Gość", 19, "guest", 0),
    )


def test_the_wall_shows_a_size_strongest_first_then_by_name() -> None:
    board = board_of(*club())
    assert [m.nick for m in board.on_size(13)] == ["Ewa", "Ala", "ola"]
    assert [m.nick for m in board.on_size(9)] == ["Ala"]
    assert [(m.size, m.nick) for m in board.magnets][:2] == [(9, "Ala"), (13, "Ewa")]


def test_retired_magnets_leave_the_wall_but_not_the_board() -> None:
    board = board_of(*club(), line("retire", at(1), nick="Ewa", size=13))
    assert [m.nick for m in board.on_size(13)] == ["Ala", "ola"]
    assert [m.nick for m in board.on_size(13, include_retired=True)] == ["Ewa", "Ala", "ola"]


def test_a_players_magnets_primary_first_found_by_any_case() -> None:
    board = board_of(*club())
    assert [(m.size, m.primary) for m in board.magnets_of("ALA")] == [(13, True), (9, False)]
    found = board.magnet("ala", 9)
    assert found is not None and found.strength == quarters(12)
    assert board.magnet("Ala", 19) is None
    assert board.magnets_of("Nikt") == ()


def test_a_guests_magnet_knows_it_is_a_guest() -> None:
    board = board_of(*club())
    guest = board.magnet("Gość", 19)
    assert guest is not None and guest.guest
    assert not board.magnet("Ala", 13).guest  # type: ignore[union-attr]


def test_a_magnet_knows_whether_its_free_loss_is_used() -> None:
    board = board_of(*club(), game(13, "Ala", "ola", "ola", None, at(0, 5)))
    ala = board.magnet("Ala", 13)
    assert ala is not None
    assert not ala.free_loss_unused((2026, 45))
    assert ala.free_loss_unused((2026, 46))


def test_a_game_with_its_number_winner_and_margin() -> None:
    board = board_of(*club(), game(13, "Ala", "ola", "ola", 30, at(0, 5)), game(13, "Ala", "ola", "Ala", None, at(1)))
    first, second = (g.to_json(with_id=True) for g in board.games)
    assert (first["id"], first["winner"], first["by"]) == (1, "ola", 30)
    assert (second["id"], second["winner"], second["by"]) == (2, "Ala", None)
    assert "id" not in board.games[0].to_json()


def test_sorting_ignores_case_between_equal_strengths() -> None:
    magnets = [Magnet("bob", 13, 80, "member"), Magnet("Ala", 13, 80, "member"), Magnet("Cyd", 9, 0, "guest")]
    assert [m.nick for m in sort_magnets(magnets)] == ["Cyd", "Ala", "bob"]


def test_the_replay_text_is_the_json_of_the_board_even_for_odd_names() -> None:
    board = board_of(
        player('Ala "As"', 13, "member", 20),
        player("Żaneta\\", 13, "member", 33.5),
        game(13, 'Ala "As"', "Żaneta\\", 'Ala "As"', "resignation", at(1)),
    )
    text = board_json_text(board)
    assert text == json.dumps(board.to_json(), ensure_ascii=False)
    assert json.loads(text)["games"][0]["players"] == ['Ala "As"', "Żaneta\\"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories(meta=True))
def test_the_replay_text_is_the_json_of_the_board(events: list) -> None:
    board = replay(events)
    assert board_json_text(board) == json.dumps(board.to_json(), ensure_ascii=False)


def test_a_game_knows_its_loser() -> None:
    board = board_of(*club(), game(13, "Ala", "Ewa", "Ewa", "resignation"), game(13, "ola", "Ala", "ola", 3))
    assert [g.loser for g in board.games] == ["Ala", "Ala"]
    assert board.games[0]._replace(winner=None).loser is None  # a draw has no loser


def test_the_biggest_climbers_climbed_the_most_arrows_not_the_most_quarters() -> None:
    board = board_of(
        player("Ala", 13, "member", 20),
        player("Bo", 13, "member", 20),
        player("Ola", 13, "member", 45),
        player("Ewa", 13, "member", 45),
        game(13, "Ala", "Bo", "Ala", "resignation", when=at(0, 60)),
        game(13, "Ola", "Ewa", "Ola", "resignation", when=at(0, 61)),
        game(13, "Ola", "Ewa", "Ola", "resignation", when=at(0, 62)),
    )
    # Ala rose two arrows of a whole strength (2), Ola four arrows of a quarter (1).
    assert climbers(board.games) == [("Ola", 13, 4), ("Ala", 13, 2)]


def test_a_correction_between_games_is_not_climbing() -> None:
    board = board_of(
        player("Ala", 13, "member", 20),
        player("Bo", 13, "member", 20),
        game(13, "Ala", "Bo", "Bo", "resignation", when=at(0, 60)),
        line("correction", at(0, 61), nick="Ala", size=13, strength=30),
        game(13, "Ala", "Bo", "Ala", "resignation", when=at(0, 62)),
    )
    assert climbers(board.games) == [("Ala", 13, 2), ("Bo", 13, 2)]  # Ala: 20 → 30 by hand, then two arrows
