"""Previews of owner actions match what the replay then does."""

from __future__ import annotations

from datetime import datetime

from kiosk.board import Magnet
from kiosk.config import Config
from kiosk.events import GamePlayed, Merge, PlayerAdded, Shift
from kiosk.previews import merge_preview, shift_preview
from kiosk.replay import replay

AT = datetime(2026, 11, 3, 19, 0)
CLUB = (Magnet("Bianka", 9, 138, "member"), Magnet("Czarek", 9, 100, "member"), Magnet("Ewa", 13, 120, "member"))


def test_a_shift_lands_on_the_nearest_field_ties_upward() -> None:
    moved = shift_preview(CLUB, Shift(AT, -20, size=9), top=224)
    assert [(m.nick, after) for m, after in moved] == [("Bianka", 120), ("Czarek", 80)]  # 29.5 rounds up to 30


def test_a_shift_of_a_group_moves_only_the_group() -> None:
    moved = shift_preview(CLUB, Shift(AT, 4, nicks=("ewa",)), top=224)
    assert [(m.nick, after) for m, after in moved] == [("Ewa", 124)]  # 30 + 1 = 31, a field


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
