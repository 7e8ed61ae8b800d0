"""Synthetic clubs whose true points per strength is known: the fairness audit's tests (kiosk, CLI, web) and bench.

Every player has a hidden true strength; each game's margin is drawn from the model the audit
fits (docs/fairness.md): the weaker player's margin is what the handicap gave (from the board's
difference, by the club's table) minus the planted points per strength times the true
difference, plus normal noise. Seeded, so every run draws the same club.
"""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from kiosk.config import Config
from kiosk.events import parse_event
from kiosk.fairness import points_given
from kiosk.handicap import handicap_for
from kiosk.replay import Replay
from kiosk.scale import QUARTERS

START = datetime(2022, 1, 3, 18, 0)  # a Monday, long enough ago for 3,000 games at 20 an evening
SPREAD = {9: 10.0, 13: 16.0, 19: 30.0}  # the noise of one game's margin, in points


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def planted_club(
    planted: float,
    size: int = 9,
    players: int = 60,
    games: int = 3000,
    seed: int = 26,
    rehang: bool = True,
    config: Config | None = None,
) -> list[dict[str, Any]]:
    """A club of ``players`` members on ``size`` whose games follow the points per strength ``planted``.

    With ``rehang`` the owner hangs both magnets back on their true fields after every game (a quick
    correction), so the board's difference at every game is the true one; without it the magnets move by
    the rules, as in a real club, and the board's numbers are only near the truth.
    """
    rng = random.Random(seed)
    rules = (config or Config()).size_rules[size]
    clear = float(rules.clear_margin)
    spread = SPREAD[size]
    top = {9: 29, 13: 29, 19: 29}[size]
    true = {f"P{n:03d}": rng.randint(0, top) for n in range(players)}
    board: dict[str, float] = {nick: float(s) for nick, s in true.items()}
    lines: list[dict[str, Any]] = [
        {"type": "player", "at": stamp(START), "nick": nick, "size": size, "status": "member", "strength": s}
        for nick, s in true.items()
    ]
    nicks = sorted(true)
    engine = Replay(config or Config())  # without rehanging, the real rules move the magnets between games
    if not rehang:
        for position, line in enumerate(lines, start=1):
            engine.append(position, parse_event(line))
    moment = START + timedelta(minutes=5)
    for number in range(games):
        if number and number % 20 == 0:
            moment += timedelta(days=7) - timedelta(minutes=3 * 20)  # next week's evening
        a, b = rng.sample(nicks, 2)
        weaker, stronger = (a, b) if board[a] <= board[b] else (b, a)
        q = round((board[stronger] - board[weaker]) * QUARTERS)
        handicap = handicap_for(q, rules)
        truth = true[stronger] - true[weaker]
        margin = float(points_given(handicap)) - planted * truth + rng.gauss(0.0, spread)
        margin = math.floor(margin) + 0.5 if handicap.even else round(margin)  # komi 6.5: no draw in an even game
        line: dict[str, Any] = {"type": "game", "at": stamp(moment), "size": size, "players": [a, b]}
        if margin == 0:
            line["winner"] = None
        else:
            line["winner"] = weaker if margin > 0 else stronger
            if abs(margin) >= clear and rng.random() < 0.4:
                line["by"] = "resignation"
            elif rng.random() < 0.1:
                pass  # a win nobody measured
            else:
                line["by"] = abs(margin)
        lines.append(line)
        if not rehang:
            played = engine.append(len(lines), parse_event(line))
            assert played is not None
            for nick, move in played.moves.items():
                board[nick] = move.after / QUARTERS
        moment += timedelta(minutes=3)
        if rehang:
            for nick in (a, b):
                lines.append(
                    {"type": "correction", "at": stamp(moment), "nick": nick, "size": size, "strength": true[nick]}
                )
    return lines


def exact(value: float) -> Fraction:
    return Fraction(value).limit_denominator(4)
