"""What an owner action would do, shown before it is saved: a shift, a merge."""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.board import Magnet
from kiosk.config import Config
from kiosk.events import Event, Merge, Shift, nick_key
from kiosk.replay import Replay
from kiosk.scale import nearest_field


def shift_preview(magnets: Sequence[Magnet], shift: Shift, top: int) -> list[tuple[Magnet, int]]:
    """Every magnet the shift moves, with where it would land (as the replay does it, RULES.md §5)."""
    group = None if shift.nicks is None else {nick_key(n) for n in shift.nicks}
    return [
        (m, nearest_field(m.strength + shift.amount, top))
        for m in magnets
        if (shift.size is None or m.size == shift.size) and (group is None or nick_key(m.nick) in group)
    ]


def merge_preview(history: Sequence[tuple[int, Event]], merge: Merge, config: Config) -> tuple[Magnet, ...]:
    """The kept player's magnets after the merge, by replaying the history with it added."""
    position = (history[-1][0] + 1) if history else 1
    board = Replay(config).run([*history, (position, merge)])
    return board.magnets_of(merge.kept)
