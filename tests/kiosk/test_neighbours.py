"""Who hangs near a player: whom they can catch, who shares their field, who is close behind; and the
wall's arrows of the last club evening, which the phone's board shows too."""

from __future__ import annotations

from datetime import datetime, time

from kiosk.board import GameResult, Magnet, Move
from kiosk.handicap import EVEN
from kiosk.neighbours import arrows, near

STARTS, ENDS = time(17, 0), time(3, 0)


def magnet(nick: str, strength: int, size: int = 13) -> Magnet:
    return Magnet(nick, size, strength, "member")


BOARD = [magnet("Ala", 120), magnet("Bolek", 110), magnet("Cyla", 104), magnet("Damian", 100), magnet("Ewa", 100),
         magnet("Franek", 96), magnet("Gosia", 80), magnet("Hubert", 60)]  # fmt: skip


def test_the_nearest_above_and_below_first_and_the_same_field_apart() -> None:
    found = near(BOARD, "damian")  # case aside, as phones type
    assert found is not None and found.me.nick == "Damian"
    assert [m.nick for m in found.ahead] == ["Cyla", "Bolek"]  # the nearest first, two of them
    assert [m.nick for m in found.level] == ["Ewa"]
    assert [m.nick for m in found.behind] == ["Franek", "Gosia"]


def test_the_top_magnet_has_nobody_to_catch_and_a_player_not_on_the_size_is_nowhere() -> None:
    top = near(BOARD, "Ala", count=3)
    assert top is not None and top.ahead == () and [m.nick for m in top.behind] == ["Bolek", "Cyla", "Damian"]
    assert near(BOARD, "Zenon") is None


def game(game_id: int, at: str, moves: dict[str, tuple[int, int]], size: int = 13) -> GameResult:
    players = tuple(moves)
    return GameResult(
        game_id, datetime.fromisoformat(at), size, (players[0], players[1]), players[0], "resignation", None, EVEN,
        {nick: Move(before, after, "") for nick, (before, after) in moves.items()},
    )  # fmt: skip


def test_the_arrows_are_the_moves_of_the_last_evening_with_games_on_the_size() -> None:
    games = [
        game(1, "2026-11-02T19:00", {"Hubert": (56, 60), "Gosia": (84, 80)}),  # the evening before: no arrows now
        game(2, "2026-11-03T19:00", {"Franek": (92, 96), "Ewa": (104, 100)}),
        game(3, "2026-11-04T00:30", {"Ewa": (100, 104), "Damian": (104, 100)}),  # 00:30 is still 3 November's evening
        game(4, "2026-11-05T19:00", {"Ala": (100, 120), "Bolek": (110, 110)}, size=9),  # another size
    ]
    board = [*BOARD[:4], magnet("Ewa", 104), *BOARD[5:]]
    # Ewa went down, then up again to where she started: no arrow; Damian and Franek moved.
    assert arrows(games, board, 13, STARTS, ENDS) == {"Franek": 1, "Damian": -1}
    assert arrows(games, board, 19, STARTS, ENDS) == {}
