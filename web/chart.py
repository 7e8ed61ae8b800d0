"""A player's strength over time as a small inline SVG, drawn on the server (no JavaScript)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from html import escape

from kiosk.board import Change, GameResult
from kiosk.events import nick_key
from kiosk.scale import format_strength

WIDTH, HEIGHT, PAD = 340, 150, 24
LEFT, RIGHT = 36, 52  # room for the field labels: lowest/highest on the left, the current one on the right


def history(nick: str, size: int, games: Sequence[GameResult], changes: Sequence[Change]) -> list[tuple[datetime, int]]:
    """Where one magnet hung after each game, join, correction and shift, in time order."""
    key = nick_key(nick)
    points = [(c.at, 0, c.after) for c in changes if c.size == size]
    for game in games:
        if game.size != size or not game.rated:
            continue  # a teaching game, a simultaneous, ... moved nothing and says little of strength
        for name, move in game.moves.items():
            if nick_key(name) == key:
                points.append((game.at, 1, move.after))
    points.sort(key=lambda p: (p[0], p[1]))
    return [(at, strength) for at, _, strength in points]


def svg(
    points: Sequence[tuple[datetime, int]],
    label: str,
    until: datetime | None = None,
    fmt: Callable[[int], str] = format_strength,
) -> str:
    """The chart: steps through time (a magnet stays on its field until it moves), the current field labelled.

    The x axis is time, from the first point to ``until`` (now), so a busy evening and a quiet month
    look like what they were; lowest and highest fields on the left, dates below.
    """
    if not points:
        return ""
    low = min(s for _, s in points)
    high = max(s for _, s in points)
    span = max(high - low, 4)
    floor = low - (span - (high - low)) / 2  # a flat or small history sits in the middle, not on the floor
    start = points[0][0]
    end = max(until or points[-1][0], points[-1][0])
    seconds = max((end - start).total_seconds(), 1.0)
    right = WIDTH - RIGHT

    def x(at: datetime) -> float:
        return LEFT + (at - start).total_seconds() / seconds * (right - LEFT)

    def y(strength: int) -> float:
        return HEIGHT - PAD - (strength - floor) * (HEIGHT - 2 * PAD) / span

    path = [f"M{x(points[0][0]):.1f},{y(points[0][1]):.1f}"]
    for at, strength in points[1:]:
        path.append(f"H{x(at):.1f}V{y(strength):.1f}")
    path.append(f"H{right:.1f}")
    now_value = points[-1][1]
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}">'
        f"<title>{escape(label)}</title>"
        f'<line x1="{LEFT}" y1="{y(low):.1f}" x2="{right}" y2="{y(low):.1f}" class="grid"/>'
        f'<line x1="{LEFT}" y1="{y(high):.1f}" x2="{right}" y2="{y(high):.1f}" class="grid"/>'
        f'<text x="2" y="{y(high) + 4:.1f}">{fmt(high)}</text>'
        f'<text x="2" y="{y(low) + 4:.1f}">{fmt(low)}</text>'
        f'<path d="{" ".join(path)}" class="line"/>'
        f'<circle cx="{right:.1f}" cy="{y(now_value):.1f}" r="4" class="dot"/>'
        f'<text x="{right + 6:.1f}" y="{y(now_value) + 5:.1f}" class="now">{fmt(now_value)}</text>'
        f'<text x="{LEFT}" y="{HEIGHT - 4}">{start:%Y-%m-%d}</text>'
        f'<text x="{right}" y="{HEIGHT - 4}" text-anchor="end">{end:%Y-%m-%d}</text>'
        "</svg>"
    )
