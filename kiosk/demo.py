"""A believable demo club, so every view has something to show on a fresh install.

About 30 players (children and adults, guests and members, a few on two sizes), three
months of club evenings, one quick correction and one shift. The same seed and end
date always give the same history, so a demo can be made again. It is the product's one demo club:
``semedori demo`` fills a folder with it (``make run``) and ``semedori render --demo`` draws it. (The
wall's golden pictures and render tests draw fixed test clubs, tests/display/wall_clubs.py.)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from fractions import Fraction

from kiosk.config import Config
from kiosk.events import (
    GUEST,
    MEMBER,
    RESIGNATION,
    Correction,
    Event,
    GamePlayed,
    Margin,
    PlayerAdded,
    Shift,
    dump_line,
)
from kiosk.handicap import handicap_for
from kiosk.replay import Replay
from kiosk.scale import nearest_field

# (nickname, true strength, sizes, joins as): true strength decides who tends to win.
PLAYERS: list[tuple[str, float, tuple[int, ...], str]] = [
    ("Bianka", 36, (13, 9), MEMBER),
    ("Czarek", 27, (13, 9), MEMBER),
    ("Łucja", 44, (13, 19), MEMBER),
    ("Żaneta", 31, (13,), MEMBER),
    ("Grzegorz", 48, (19, 13), MEMBER),
    ("Małgosia", 22, (13,), MEMBER),
    ("Paweł", 40.5, (13,), MEMBER),
    ("Ściborek", 12, (9,), GUEST),
    ("Zosia", 18, (9,), MEMBER),
    ("Jędrek", 25, (13,), MEMBER),
    ("Agnieszka", 33, (13,), MEMBER),
    ("Kuba", 9, (9,), GUEST),
    ("Tymek", 15, (9,), MEMBER),
    ("Oliwia", 20, (9, 13), MEMBER),
    ("Staś", 6, (9,), GUEST),
    ("Hania", 29, (13,), MEMBER),
    ("Mikołaj", 37.5, (13,), MEMBER),
    ("Wojtek", 46, (19,), MEMBER),
    ("Iga", 14, (9,), MEMBER),
    ("Bartłomiej", 42, (19, 13), MEMBER),
    ("Ola", 23, (13,), MEMBER),
    ("Franek", 11, (9,), GUEST),
    ("Różyczka", 17, (9,), MEMBER),
    ("Dawid", 34, (13,), MEMBER),
    ("Krzyś", 28, (13,), GUEST),
    ("Natalia", 38, (13,), MEMBER),
    ("Leszek", 50.5, (19,), MEMBER),
    ("Maja", 8, (9,), MEMBER),
    ("Antoś", 4, (9,), GUEST),
    ("Weronika Ś.", 30.5, (13,), MEMBER),
]

CLUB_EVENINGS = (1, 3)  # Tuesday and Thursday


def history(end: date | None = None, seed: int = 7, config: Config | None = None) -> list[Event]:
    """The demo club's history: three months of evenings up to ``end``."""
    # Long: the demo club's three months in the order they happen (joins, evenings, a correction, a shift).
    config = config or Config()
    rng = random.Random(seed)
    end = end or date.today()
    start = end - timedelta(days=91)
    engine = Replay(config)
    events: list[Event] = []

    def add(event: Event) -> None:
        engine.append(len(events) + 1, event)
        events.append(event)

    def join(index: int, at: datetime) -> None:
        nick, true, sizes, status = PLAYERS[index]
        for size in sizes:
            if status == GUEST and index % 3 == 0:
                add(PlayerAdded(at, nick, size, GUEST, 0))
            elif status == GUEST:
                add(PlayerAdded(at, nick, size, GUEST, kyu=max(1, min(50, 50 - int(true) + 2))))
            else:
                # Members hang near their real strength, a little off: the games sort it out.
                guess = int((true + rng.uniform(-3, 3)) * 2) / 2 if true < 40 else int(true * 4) / 4
                add(PlayerAdded(at, nick, size, MEMBER, _field(guess, config)))

    # Most start on the first evening; the last few join later, one a fortnight.
    joins = {index: start if index < 24 else start + timedelta(days=14 * (index - 23)) for index in range(len(PLAYERS))}
    day = start
    corrected = shifted = False
    while day <= end:
        for index in [i for i, joined in joins.items() if joined <= day]:
            join(index, datetime.combine(day, time(16, 55)))
            del joins[index]
        if day.weekday() in CLUB_EVENINGS:
            _evening(day, rng, engine, add, config)
        if not corrected and day >= start + timedelta(days=40):
            add(
                Correction(
                    datetime.combine(day, time(20, 30)),
                    "Kuba",
                    9,
                    strength=12 * 4,
                    status=MEMBER,
                    with_member="Grzegorz",
                    note="won six in a row: rehung at his real strength",
                )
            )
            corrected = True
        if not shifted and day >= start + timedelta(days=70):
            add(Shift(datetime.combine(day, time(21, 0)), -2 * 4, size=13, note="against slow inflation"))
            shifted = True
        day += timedelta(days=1)
    return events


def _field(value: float, config: Config) -> int:
    return nearest_field(round(value * 4), config.top)


def _evening(day: date, rng: random.Random, engine: Replay, add: Callable[[Event], None], config: Config) -> None:
    present = [p for p in PLAYERS if rng.random() < 0.45]
    at = datetime.combine(day, time(17, 5))
    truth = {nick: true for nick, true, _, _ in PLAYERS}
    for _ in range(rng.randint(5, 10)):
        if len(present) < 2:
            return
        a, b = rng.sample(present, 2)
        common = [s for s in a[2] if s in b[2]]
        if not common:
            continue
        size = rng.choice(common)
        magnets = {m.nick: m for m in engine.board_magnets() if m.size == size}
        if a[0] not in magnets or b[0] not in magnets:
            continue  # not joined yet
        strengths = [magnets[a[0]].strength, magnets[b[0]].strength]
        h = handicap_for(abs(strengths[0] - strengths[1]), config.size_rules[size])
        # The handicap makes up for the board's difference; the real one decides.
        edge = (truth[a[0]] - truth[b[0]]) - (strengths[0] - strengths[1]) / 4
        p_first = 1 / (1 + 10 ** (-edge / 4))
        roll = rng.random()
        if not h.even and 0.48 < roll < 0.52:
            winner, by = None, None
        else:
            winner = a[0] if roll < p_first else b[0]
            by = _margin(rng, size, abs(edge))
        add(GamePlayed(at, size, (a[0], b[0]), winner, by))
        at += timedelta(minutes=rng.randint(12, 35))


def _margin(rng: random.Random, size: int, edge: float) -> Margin:
    roll = rng.random()
    if roll < 0.2:
        return RESIGNATION
    if roll < 0.3:
        return None
    scale = {9: 20, 13: 40, 19: 70}[size]
    points = min(size * size, max(0.5, round(rng.uniform(0.5, scale) * (1 + edge / 10) * 2) / 2))
    return Fraction(points)


def history_lines(end: date | None = None, seed: int = 7) -> list[str]:
    """The demo history as history file lines."""
    return [dump_line(event) for event in history(end, seed)]
