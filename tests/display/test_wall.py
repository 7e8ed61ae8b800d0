"""What the wall reads: the QR code's address, the latest results, the week's games, the handicap rows."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from display.render import handicap_rows, result_line
from display.wall import WallData, from_board
from kiosk.board import Board
from kiosk.config import Config
from kiosk.events import parse_line
from kiosk.handicap import SIZES
from kiosk.replay import replay

NOW = datetime(2026, 11, 26, 20, 0)  # a Thursday evening


def board_of(*games: dict[str, Any]) -> Board:
    """Ola, Kuba and Ewa on 13x13, and the games given."""
    lines = [
        {"type": "player", "at": "2026-11-02T18:00", "nick": nick, "size": 13, "status": "member", "strength": 20}
        for nick in ("Ola", "Kuba", "Ewa")
    ]
    return replay([parse_line(json.dumps(line)) for line in [*lines, *games]])


def game(at: str, winner: str, loser: str, by: object = "resignation") -> dict[str, Any]:
    """A 13x13 game line."""
    return {"type": "game", "at": at, "size": 13, "players": [winner, loser], "winner": winner, "by": by}


def test_the_qr_code_holds_an_address_not_a_placeholder() -> None:
    data = from_board(board_of(), Config(form_url="http://{ip}:8080"), NOW)
    assert "{ip}" not in data.form_url and data.form_url.startswith("http://") and data.form_url.endswith(":8080")


def test_the_latest_results_are_newest_first_and_games_at_one_minute_keep_their_order() -> None:
    board = board_of(
        game("2026-11-24T19:00", "Ola", "Kuba"),
        game("2026-11-24T19:00", "Ewa", "Ola"),
        game("2026-11-23T19:00", "Kuba", "Ewa"),
    )
    recent = from_board(board, Config(), NOW).recent
    assert [(g.winner, g.loser) for g in recent] == [("Ewa", "Ola"), ("Ola", "Kuba"), ("Kuba", "Ewa")]


def test_the_week_holds_every_game_since_monday_as_the_store_gives_them() -> None:
    board = board_of(
        game("2026-11-22T19:00", "Ola", "Kuba"),
        game("2026-11-24T19:00", "Ewa", "Ola"),
        game("2026-11-26T21:00", "Kuba", "Ewa"),
    )  # entered later than the wall's "now"
    week = from_board(board, Config(), NOW).week
    assert [g.winner for g in week] == ["Ewa", "Kuba"]


def test_a_result_line_says_who_lost_and_by_how_much() -> None:
    board = board_of(
        game("2026-11-24T19:00", "Ola", "Kuba", 3.5),
        game("2026-11-24T19:01", "Kuba", "Ola", 3),
        game("2026-11-24T19:02", "Ewa", "Kuba"),
    )
    assert [result_line(g, "en") for g in board.games] == [
        "Ola beat Kuba +3.5",
        "Kuba beat Ola +3",
        "Ewa beat Kuba (R)",
    ]


def test_only_the_training_row_of_the_compact_table_is_open_ended() -> None:
    data = WallData()
    for size in SIZES:
        rows = handicap_rows(data, size)
        open_ended = [span for span, _ in rows if span.endswith("+")]
        assert len(open_ended) == 1 and rows[-1][0] in open_ended
