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
    engine.run(history)
    position = (history[-1][0] + 1) if history else 1
    return shift_preview_after(engine, position, shift)


def shift_preview_after(engine: Replay, position: int, shift: Shift) -> list[tuple[Magnet, int]]:
    """``shift_preview`` on an engine that has replayed the history already; ``engine`` itself is left as it was.

    The drift report previews several shifts of one replayed history this way (kiosk/drift.py).
    """
    before = engine.board_magnets()
    copy = Replay.from_state(engine.config, engine.state())
    # The replay names the group (old names, merged duplicates) and refuses an unknown player.
    copy.append(position, shift)
    after = {(copy.display[c.nick], c.size): c.after for c in copy.changes}
    return [(m, after[m.nick, m.size]) for m in before if (m.nick, m.size) in after]


def merge_preview(history: Sequence[tuple[int, Event]], merge: Merge, config: Config) -> tuple[Magnet, ...]:
    """The kept player's magnets after the merge, by replaying the history with it added."""
    position = (history[-1][0] + 1) if history else 1
    board = Replay(config).run([*history, (position, merge)])
    return board.magnets_of(merge.kept)
