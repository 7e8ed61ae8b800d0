"""The owner's drift page: how the club's numbers moved, suggested shifts, returners and streaks (kiosk/drift.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from fractions import Fraction
from html import escape
from typing import Any

from flask import Blueprint, current_app, g, render_template, request
from flask_babel import gettext as _

from kiosk.board import Magnet
from kiosk.drift import WINDOW_WEEKS, Month, Report, report
from kiosk.drift_text import number
from kiosk.flags import Flag, away_weeks, flags
from kiosk.handicap import size_from
from kiosk.scale import as_number
from kiosk.sleepers import latest_activity, resting_since
from web.auth import owner_required
from web.clock import now
from web.forms import OwnerForm
from web.i18n import language
from web.request_store import get_store

bp = Blueprint("drift", __name__, url_prefix="/owner")

SHOWN_MONTHS = 12  # the table's latest months; the chart draws them all
SHOWN_PREVIEW = 12  # a preview's first magnets; the shift page previews them all
CACHED_REPORTS = 4
WIDTH, HEIGHT, LEFT, RIGHT, PAD = 340, 150, 36, 12, 22


def decimal(value: Fraction, signed: bool = False) -> str:
    """A mean, a median or an error as the owner reads it, as `semedori drift` writes it (kiosk.drift_text)."""
    return number(value, signed, language())


def amount_text(amount: int) -> str:
    """A shift as typed into the shift form: −5, +5."""
    return decimal(Fraction(amount, 4), signed=True)


def month_chart(months: Sequence[Month], label: str) -> str:
    """The mean (solid) and the median (dashed) by month as a small inline SVG, drawn here (no JavaScript)."""
    if not months:
        return ""
    values = [m.mean for m in months] + [m.median for m in months]
    low, high = min(values), max(values)
    span = max(high - low, Fraction(2))
    floor = low - (span - (high - low)) / 2
    right = WIDTH - RIGHT
    step = (right - LEFT) / max(len(months) - 1, 1)

    def x(index: int) -> float:
        return LEFT + index * step if len(months) > 1 else (LEFT + right) / 2

    def y(value: Fraction) -> float:
        return float(HEIGHT - PAD - (value - floor) * (HEIGHT - 2 * PAD) / span)

    mean = " ".join(f"{x(i):.1f},{y(m.mean):.1f}" for i, m in enumerate(months))
    median = " ".join(f"{x(i):.1f},{y(m.median):.1f}" for i, m in enumerate(months))
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}">'
        f"<title>{escape(label)}</title>"
        f'<line x1="{LEFT}" y1="{y(high):.1f}" x2="{right}" y2="{y(high):.1f}" class="grid"/>'
        f'<line x1="{LEFT}" y1="{y(low):.1f}" x2="{right}" y2="{y(low):.1f}" class="grid"/>'
        f'<text x="2" y="{y(high) + 4:.1f}">{decimal(high)}</text>'
        f'<text x="2" y="{y(low) + 4:.1f}">{decimal(low)}</text>'
        f'<polyline points="{median}" fill="none" stroke="#888" stroke-width="2" stroke-dasharray="5 4"/>'
        f'<polyline points="{mean}" class="line"/>'
        f'<text x="{LEFT}" y="{HEIGHT - 4}">{escape(months[0].month)}</text>'
        f'<text x="{right}" y="{HEIGHT - 4}" text-anchor="end">{escape(months[-1].month)}</text>'
        "</svg>"
    )


@bp.app_template_global()
def resting(magnet: Magnet) -> datetime | None:
    """When a magnet went to rest off the wall (kiosk.sleepers), for the owner's magnet list; None while it hangs."""
    if "semedori_now" not in g:
        g.semedori_now = now()  # one reading of the kiosk's clock per page
    store = get_store()
    return resting_since(magnet, g.semedori_now, store.config.sleeper_weeks, latest_activity(store.magnets()))


def _report(at: datetime) -> tuple[Report, list[Flag]]:
    """The report of the history now; kept until the history changes (a replay of a long history takes a while)."""
    store = get_store()
    # One report an hour at most while nothing is entered: the groups' window and the flags move with the days.
    key = (store.folder, store.change_counter(), at.date(), at.hour, repr(store.config))
    cache: dict[tuple[object, ...], tuple[Report, list[Flag]]] = current_app.extensions.setdefault("semedori_drift", {})
    if key not in cache:
        made = report(store.history_entries(), store.config, at)
        if len(cache) >= CACHED_REPORTS:
            cache.pop(next(iter(cache)))
        cache[key] = (made, flags(made.board, at, away_weeks(store.config.sleeper_weeks)))
    return cache[key]


@bp.get("/drift")
@owner_required
def drift() -> tuple[str, int]:
    """Drift by month, unmatched arrows and the suggested shift per size, groups, returners and streaks."""
    raw = request.args.get("size", "").strip()
    problem = ""
    chosen = size_from(raw) if raw else None
    if raw and chosen is None:
        problem = _("There is no board size %(size)s: choose 9, 13 or 19.", size=raw[:10])
    at = now()
    made, found = _report(at)
    sizes = [s for s in made.drift.months if chosen is None or s == chosen]
    charts = {
        s: month_chart(made.drift.months[s], _("Mean and median strength on %(size)dx%(size)d by month", size=s))
        for s in sizes
    }
    context: dict[str, Any] = {
        "made": made,
        "drift": made.drift,
        "sizes": sizes,
        "chosen": chosen,
        "charts": charts,
        "flags": [f for f in found if chosen is None or f.magnet.size == chosen],
        "problem": problem,
        "at": at,
        "window": WINDOW_WEEKS,
        "shown_months": SHOWN_MONTHS,
        "shown_preview": SHOWN_PREVIEW,
        "decimal": decimal,
        "amount_text": amount_text,
        "as_number": as_number,
        "form": OwnerForm(),
    }
    return render_template("owner/drift.html", **context), 400 if problem else 200
