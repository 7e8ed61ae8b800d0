"""A player's strength over time as a small inline SVG, drawn on the server (no JavaScript)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from html import escape

from kiosk.board import Change, GameResult
from kiosk.events import nick_key
from kiosk.scale import format_strength

WIDTH, HEIGHT, PAD = 320, 140, 24


def history(nick: str, size: int, games: Sequence[GameResult], changes: Sequence[Change]) -> list[tuple[datetime, int]]:
    """Where one magnet hung after each game, join, correction and shift, in time order."""
    key = nick_key(nick)
    points = [(c.at, 0, c.after) for c in changes if c.size == size]
    for game in games:
        if game.size != size:
            continue
        for name, move in game.moves.items():
            if nick_key(name) == key:
                points.append((game.at, 1, move.after))
    points.sort(key=lambda p: (p[0], p[1]))
    return [(at, strength) for at, _, strength in points]


def svg(points: Sequence[tuple[datetime, int]], label: str) -> str:
    """The chart: a line through the strengths (one step per change), lowest and highest on the left, dates below."""
    if not points:
        return ""
    low = min(s for _, s in points)
    high = max(s for _, s in points)
    span = max(high - low, 4)
    step = (WIDTH - 2 * PAD) / max(len(points) - 1, 1)

    def y(strength: int) -> float:
        return HEIGHT - PAD - (strength - low) * (HEIGHT - 2 * PAD) / span

    line = " ".join(f"{PAD + i * step:.1f},{y(s):.1f}" for i, (_, s) in enumerate(points))
    last_x, last_y = PAD + (len(points) - 1) * step, y(points[-1][1])
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}">'
        f"<title>{escape(label)}</title>"
        f'<line x1="{PAD}" y1="{y(low):.1f}" x2="{WIDTH - 4}" y2="{y(low):.1f}" class="grid"/>'
        f'<line x1="{PAD}" y1="{y(high):.1f}" x2="{WIDTH - 4}" y2="{y(high):.1f}" class="grid"/>'
        f'<text x="2" y="{y(high) + 4:.1f}">{format_strength(high)}</text>'
        f'<text x="2" y="{y(low) + 4:.1f}">{format_strength(low)}</text>'
        f'<polyline points="{line}" class="line"/>'
        f'<circle cx="{last_x:.1f}" cy="{last_y:.1f}" r="4" class="dot"/>'
        f'<text x="{PAD}" y="{HEIGHT - 4}">{points[0][0]:%Y-%m-%d}</text>'
        f'<text x="{WIDTH - 4}" y="{HEIGHT - 4}" text-anchor="end">{points[-1][0]:%Y-%m-%d}</text>'
        "</svg>"
    )
