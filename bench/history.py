"""A large, valid, deterministic club history for the benchmarks."""

from __future__ import annotations

import dataclasses
import random
from datetime import datetime, timedelta
from fractions import Fraction
from pathlib import Path

from kiosk.config import Config
from kiosk.events import GUEST, MEMBER, RESIGNATION, Event, GamePlayed, PlayerAdded, dump_line, parse_line
from kiosk.handicap import handicap_for
from kiosk.replay import Replay
from kiosk.scale import fields


def big_history(games: int, players: int = 120, seed: int = 1) -> list[Event]:
    """``games`` games among ``players`` players on 9/13/19, a few minutes apart."""
    rng = random.Random(seed)
    config = Config()
    engine = Replay(config)
    at = datetime(2020, 1, 7, 17, 0)
    events: list[Event] = []
    scale = fields(config.top)
    nicks = [f"Gracz{n:03d}" for n in range(players)]
    for n, nick in enumerate(nicks):
        size = (9, 13, 19)[n % 3]
        status = GUEST if n % 5 == 0 else MEMBER
        event = PlayerAdded(at, nick, size, status, 0 if status == GUEST else rng.choice(scale[:100]))
        engine.append(len(events) + 1, event)
        events.append(event)
    sizes = {nick: (9, 13, 19)[n % 3] for n, nick in enumerate(nicks)}
    for _ in range(games):
        at += timedelta(minutes=rng.randint(3, 240))
        a, b = rng.sample(nicks, 2)
        size = sizes[a]
        strength = {m.nick: m.strength for m in engine.board_magnets()}
        even = handicap_for(abs(strength[a] - strength[b]), config.size_rules[size]).even
        roll = rng.random()
        if roll < 0.03 and not even:
            winner, by = None, None
        else:
            winner = a if roll < 0.5 else b
            by = rng.choice([RESIGNATION, None, Fraction(rng.randint(1, 120), 2)])
        # With its id, as `semedori export` writes every game.
        event = GamePlayed(at, size, (a, b), winner, by, len(events) - players + 1)
        engine.append(len(events) + 1, event)
        events.append(event)
    return events


def history_file(games: int, folder: Path) -> Path:
    """The history as a file, made once and kept in ``folder``."""
    path = folder / f"history-{games}-with-ids.jsonl"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(dump_line(e) + "\n" for e in big_history(games)), encoding="utf-8")
    return path


def recent_history_file(games: int, folder: Path, now: datetime) -> Path:
    """The same history moved by whole weeks so that its last game lies in the week before ``now``.

    Whole weeks keep every weekday and time, so every week's free losses, and so the
    whole board, stay as they were; a game dated "30 minutes ago" then lands at the end.
    """
    events = [parse_line(text) for text in history_file(games, folder).read_text(encoding="utf-8").splitlines()]
    weeks = (now - timedelta(hours=1) - events[-1].at) // timedelta(weeks=1)
    path = folder / f"history-{games}-ending-{(events[-1].at + timedelta(weeks=weeks)):%Y%m%d}.jsonl"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        moved = [
            e._replace(at=e.at + timedelta(weeks=weeks))
            if isinstance(e, GamePlayed)
            else dataclasses.replace(e, at=e.at + timedelta(weeks=weeks))
            for e in events
        ]
        path.write_text("".join(dump_line(e) + "\n" for e in moved), encoding="utf-8")
    return path
