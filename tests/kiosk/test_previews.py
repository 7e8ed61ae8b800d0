"""Previews of owner actions match what the replay then does."""

from __future__ import annotations

from datetime import datetime

import pytest

from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.events import GamePlayed, Merge, PlayerAdded, Rename, Shift
from kiosk.previews import merge_preview, shift_preview
from kiosk.replay import replay

AT = datetime(2026, 11, 3, 19, 0)
CLUB = [
    (1, PlayerAdded(AT, "Bianka", 9, "member", 138)),
    (2, PlayerAdded(AT, "Czarek", 9, "member", 100)),
    (3, PlayerAdded(AT, "Ewa", 13, "member", 120)),
]


def test_a_shift_lands_on_the_nearest_field_ties_upward() -> None:
    moved = shift_preview(CLUB, Shift(AT, -20, size=9), Config())
    assert [(m.nick, after) for m, after in moved] == [("Bianka", 120), ("Czarek", 80)]  # 29.5 rounds up to 30


def test_a_shift_of_a_group_moves_only_the_group() -> None:
    moved = shift_preview(CLUB, Shift(AT, 4, nicks=("ewa",)), Config())
    assert [(m.nick, after) for m, after in moved] == [("Ewa", 124)]  # 30 + 1 = 31, a field


def test_a_shift_of_a_group_knows_players_by_the_names_the_replay_knows() -> None:
    history = [*CLUB, (4, Rename(AT, "Ewa", "Ewka")), (5, Merge(AT, "Czarek", "Bianka"))]
    moved = shift_preview(history, Shift(AT, 4, nicks=("Ewa", "Czarek")), Config())
    assert [(m.nick, m.size, after) for m, after in moved] == [("Bianka", 9, 142), ("Ewka", 13, 124)]
    with pytest.raises(HistoryError) as error:
        shift_preview(history, Shift(AT, 4, nicks=("Ewka", "Nikt")), Config())
    assert error.value.code == "unknown-player"


def test_the_merge_preview_is_the_board_the_replay_gives() -> None:
    history = [
        (1, PlayerAdded(AT, "Bianka", 9, "member", 138)),
        (2, PlayerAdded(AT, "Bianca", 13, "guest", 0)),
        (3, PlayerAdded(AT, "Czarek", 13, "member", 100)),
        (4, GamePlayed(AT, 13, ("Bianca", "Czarek"), "Bianca", 3)),
    ]
    merge = Merge(AT, "Bianca", "Bianka")
    preview = merge_preview(history, merge, Config())
    assert preview == replay([*history, (5, merge)]).magnets_of("Bianka")
    assert [(m.size, m.strength) for m in preview] == [(9, 138), (13, 4)]
