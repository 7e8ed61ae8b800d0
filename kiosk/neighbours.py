"""Who hangs near a player on the board: whom they can catch, who is close behind, and the arrows.

A phone that said "That's me" opens the board at its player's field: the magnets just above
(the ones a win or two could catch), those on the same field, and the ones just below. The
arrows are the wall's: how each magnet moved in the last club evening with games on the size
(``kiosk.evening``), so the phone and the wall show the same ↑ and ↓. Pure: the caller reads
the magnets and games.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import time

from kiosk.board import GameResult, Magnet
from kiosk.evening import evening_of
from kiosk.events import nick_key
from kiosk.scale import Quarters

# The wall reads the latest this many games and the week's (display.wall): its arrows, and the phone's, come from them.
WALL_GAMES = 30
NEAR = 2  # magnets named on each side: enough to aim at, few enough to read in a glance


@dataclass(frozen=True, slots=True)
class Near:
    """A player's magnet on one size and its neighbours, nearest first."""

    me: Magnet
    ahead: tuple[Magnet, ...]  # hanging higher: the nearest first
    level: tuple[Magnet, ...]  # on the same field
    behind: tuple[Magnet, ...]  # hanging lower: the nearest first


def near(magnets: Sequence[Magnet], nick: str, count: int = NEAR) -> Near | None:
    """The player's magnet among ``magnets`` (one size, as they hang) and its neighbours; None when not there."""
    key = nick_key(nick)
    me = next((m for m in magnets if nick_key(m.nick) == key), None)
    if me is None:
        return None
    others = [m for m in magnets if nick_key(m.nick) != key]
    ahead = sorted((m for m in others if m.strength > me.strength), key=lambda m: (m.strength, nick_key(m.nick)))
    behind = sorted((m for m in others if m.strength < me.strength), key=lambda m: (-m.strength, nick_key(m.nick)))
    level = sorted((m for m in others if m.strength == me.strength), key=lambda m: nick_key(m.nick))
    return Near(me, tuple(ahead[:count]), tuple(level), tuple(behind[:count]))


def arrows(
    games: Iterable[GameResult], magnets: Iterable[Magnet], size: int, starts: time, ends: time
) -> dict[str, int]:
    """The magnets of a size that moved in the last club evening with games on it: +1 up, -1 down (↑ and ↓).

    The evening is the club's (kiosk.evening: 17:00 to 03:00 by default, so a game at 00:30
    belongs to the evening before) of the last game on this size; a magnet's place before it
    is where its first move of that evening started. Keys are the magnets' names as given.
    """
    on_size = {g.id: g for g in games if g.size == size}
    if not on_size:
        return {}
    evenings = {game_id: evening_of(g.at, starts, ends) for game_id, g in on_size.items()}
    evening = max(evenings.values())
    before: dict[str, Quarters] = {}
    for game in sorted((g for g in on_size.values() if evenings[g.id] == evening), key=lambda g: (g.at, g.id)):
        for name, move in game.moves.items():
            before.setdefault(name, move.before)
    found = {}
    for magnet in magnets:
        if magnet.size == size and magnet.nick in before and magnet.strength != before[magnet.nick]:
            found[magnet.nick] = 1 if magnet.strength > before[magnet.nick] else -1
    return found
