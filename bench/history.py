"""A large, valid, deterministic club history for the benchmarks."""

from __future__ import annotations

import dataclasses
import random
from datetime import datetime, timedelta
from fractions import Fraction
from pathlib import Path

from kiosk.config import Config
from kiosk.events import (
    GUEST,
    MEMBER,
    RESIGNATION,
    Correction,
    Event,
    GamePlayed,
    PlayerAdded,
    Shift,
    dump_line,
    parse_line,
)
from kiosk.handicap import handicap_for
from kiosk.replay import Replay
from kiosk.scale import fields


def big_history(games: int, players: int = 120, seed: int = 1, corrections: int = 0, shifts: int = 0) -> list[Event]:
    """``games`` games among ``players`` players on 9/13/19, a few minutes apart.

    With ``corrections`` quick corrections (a magnet rehung on another field, now and then
    a guest made a member) and ``shifts`` shifts (all sizes, one size, or a named group,
    up or down a field or two) spread evenly among the games: what a rename, merge or
    rule change then replays in a club that has run for years.
    """
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
    # Game numbers after which a correction or a shift comes (a different random stream, so
    # the games of a history without them are the same as before).
    fixes = random.Random(seed + 1)
    correcting = {round((n + 1) * games / (corrections + 1)) for n in range(corrections)}
    shifting = {round((n + 0.5) * games / shifts) for n in range(shifts)} if shifts else set()
    for number in range(games):
        at += timedelta(minutes=rng.randint(3, 240))
        if number in correcting:
            nick = fixes.choice(nicks)
            member = MEMBER if fixes.random() < 0.2 else None
            fix = Correction(at, nick, sizes[nick], fixes.choice(scale[8:100]), member, note="quick correction")
            engine.append(len(events) + 1, fix)
            events.append(fix)
            at += timedelta(minutes=1)
        if number in shifting:
            amount = fixes.choice((-8, -4, 4, 8))
            size = fixes.choice((None, 9, 13, 19))
            group = tuple(fixes.sample(nicks, 10)) if fixes.random() < 0.2 else None
            shift = Shift(at, amount, None if group else size, group, note="shift")
            engine.append(len(events) + 1, shift)
            events.append(shift)
            at += timedelta(minutes=1)
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
        event = GamePlayed(at, size, (a, b), winner, by, number + 1)
        engine.append(len(events) + 1, event)
        events.append(event)
    return events


def history_file(games: int, folder: Path, corrections: int = 0, shifts: int = 0) -> Path:
    """The history as a file, made once and kept in ``folder``."""
    fixed = f"-{corrections}-corrections-{shifts}-shifts" if corrections or shifts else ""
    path = folder / f"history-{games}{fixed}-with-ids.jsonl"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        events = big_history(games, corrections=corrections, shifts=shifts)
        path.write_text("".join(dump_line(e) + "\n" for e in events), encoding="utf-8")
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
