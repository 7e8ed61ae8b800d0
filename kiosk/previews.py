"""What an owner action would do, shown before it is saved: a shift, a merge."""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.board import Magnet
from kiosk.config import Config
from kiosk.events import Event, Merge, Shift
from kiosk.replay import Replay


def shift_preview(history: Sequence[tuple[int, Event]], shift: Shift, config: Config) -> list[tuple[Magnet, int]]:
    """Every magnet the shift moves, with where it would land, by letting the replay apply it after the history."""
    engine = Replay(config)
    before = engine.run(history).magnets
    moved = len(engine.changes)
    position = (history[-1][0] + 1) if history else 1
    # The replay names the group (old names, merged duplicates) and refuses an unknown player.
    engine.append(position, shift)
    after = {(engine.display[c.nick], c.size): c.after for c in engine.changes[moved:]}
    return [(m, after[m.nick, m.size]) for m in before if (m.nick, m.size) in after]


def merge_preview(history: Sequence[tuple[int, Event]], merge: Merge, config: Config) -> tuple[Magnet, ...]:
    """The kept player's magnets after the merge, by replaying the history with it added."""
    position = (history[-1][0] + 1) if history else 1
    board = Replay(config).run([*history, (position, merge)])
    return board.magnets_of(merge.kept)
