"""The owner's fairness page: does the handicap table fit this club (kiosk/fairness.py), and its suggested rule change.

The page reads the audit; a suggestion is previewed (which cells of the table change, what it
would move now) and saved only when the owner confirms it, through kiosk.services.fairness.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from fractions import Fraction
from html import escape
from typing import Any

from flask import Blueprint, current_app, flash, redirect, request, url_for
from flask_babel import gettext as _

from kiosk import fairness_text
from kiosk.errors import SemedoriError
from kiosk.events import RuleChange, dump_line, parse_event
from kiosk.fairness import Audit, Row, report, suggestion_for
from kiosk.handicap import SizeRules, handicap_for, size_from, table
from kiosk.rulechanges import describe
from kiosk.scale import QUARTERS, typed_number
from kiosk.services.fairness import save_suggestion
from web.auth import OWNER, owner_required
from web.clock import now
from web.forms import OwnerForm, answers_stale_form
from web.i18n import language, message
from web.owner import page
from web.request_store import get_store

bp = Blueprint("fairness", __name__, url_prefix="/owner")

CACHED_AUDITS = 4
WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 360, 190, 40, 10, 14, 34


def rows_chart(rows: Sequence[Row], label: str, lang: str) -> str:
    """The weaker player's win rate by handicap row, each with its interval, around the 50 % line (inline SVG).

    A row with too few games is a hollow ring without a bar: it is there, and it proves nothing.
    """
    if not rows:
        return ""
    right = WIDTH - RIGHT
    step = (right - LEFT) / len(rows)

    def x(index: int) -> float:
        return LEFT + step * (index + 0.5)

    def y(rate: float) -> float:
        return TOP + (1 - rate) * (HEIGHT - TOP - BOTTOM)

    parts = [
        f'<svg class="chart fairness" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}">',
        f"<title>{escape(label)}</title>",
    ]
    for rate in (0.0, 0.25, 0.75, 1.0):
        parts.append(f'<line x1="{LEFT}" y1="{y(rate):.1f}" x2="{right}" y2="{y(rate):.1f}" class="grid"/>')
        parts.append(f'<text x="{LEFT - 4}" y="{y(rate) + 4:.1f}" text-anchor="end">{round(rate * 100)}%</text>')
    parts.append(
        f'<line x1="{LEFT}" y1="{y(0.5):.1f}" x2="{right}" y2="{y(0.5):.1f}" class="aim" '
        'stroke="#444" stroke-width="1.5" stroke-dasharray="6 4"/>'
    )
    parts.append(f'<text x="{LEFT - 4}" y="{y(0.5) + 4:.1f}" text-anchor="end">50%</text>')
    for index, row in enumerate(rows):
        cx = x(index)
        name = "=" if row.moves == 0 else str(row.moves)
        parts.append(f'<text x="{cx:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{name}</text>')
        parts.append(
            f'<text x="{cx:.1f}" y="{HEIGHT - BOTTOM + 28}" text-anchor="middle" class="small">{row.games}</text>'
        )
        if row.rate is None:
            rate = float(row.wins) / row.games
            parts.append(f'<circle cx="{cx:.1f}" cy="{y(rate):.1f}" r="4" fill="none" stroke="#999" class="few"/>')
            continue
        fair = row.rate.holds(0.5)
        colour = "#2a7d2a" if fair else "#b3261e"
        tip = f"{fairness_text.row_name(row.moves, lang)}: {fairness_text.row_rate(row, lang)}"
        parts.append(
            f'<g class="{"fair" if fair else "unfair"}"><title>{escape(tip)}</title>'
            f'<line x1="{cx:.1f}" y1="{y(row.rate.high):.1f}" x2="{cx:.1f}" y2="{y(row.rate.low):.1f}" '
            f'stroke="{colour}" stroke-width="3"/>'
            f'<circle cx="{cx:.1f}" cy="{y(row.rate.value):.1f}" r="5" fill="{colour}"/></g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _audit(at: datetime) -> Audit:
    """The audit of the history now; kept until the history changes (50,000 games take a moment)."""
    store = get_store()
    key = (store.folder, store.change_counter(), at.date(), repr(store.config))
    cache: dict[tuple[object, ...], Audit] = current_app.extensions.setdefault("semedori_fairness", {})
    if key not in cache:
        made = report(store.board(with_games=True).games, store.file_config, store.rule_changes(), at)
        if len(cache) >= CACHED_AUDITS:
            cache.pop(next(iter(cache)))
        cache[key] = made
    return cache[key]


def changed_cells(old: SizeRules, new: SizeRules, lang: str, shown: int = 8) -> list[tuple[str, str, str]]:
    """Some whole differences whose handicap the change alters: (difference, before, after), up to the training row.

    At most ``shown`` of them, evenly spread: enough to see which way and how much the table moves.
    """
    from web.words import handicap_line

    cells = table(new, new.training_moves)
    last = max(cells[-1].highest // QUARTERS, 1) if cells else 1
    step = max(1, -(-last // shown))
    rows = []
    for difference in range(step, last + 1, step):
        before, after = handicap_for(difference * QUARTERS, old), handicap_for(difference * QUARTERS, new)
        if before != after:
            rows.append((fairness_text.figure(difference, lang), handicap_line(before), handicap_line(after)))
    return rows


def _suggestion(size: int, typed: str) -> RuleChange:
    """The rule change of ``size``'s constant to ``typed`` from now on (to the minute), checked by the core."""
    rules = get_store().config.size_rules[size]
    number = typed_number(typed[:20], signed=True)
    # what is not a number goes to the core as typed, which refuses it in its own words
    value: float | int | str = typed[:20] if number is None else int(number) if number.is_integer() else number
    at = suggestion_for(rules, Fraction(1), now()).at
    raw = {
        "type": "rules",
        "at": at.isoformat(timespec="minutes"),
        "handicap": {
            str(size): {
                "points_per_strength": value,
                "clear_margin": int(rules.clear_margin)
                if rules.clear_margin.denominator == 1
                else float(rules.clear_margin),
                "training_moves": rules.training_moves,
            }
        },
        "note": _("fairness audit"),
    }
    typed_change = parse_event(raw)  # the core checks the number with its own messages
    assert isinstance(typed_change, RuleChange)
    return typed_change


@bp.route("/fairness", methods=["GET", "POST"])
@answers_stale_form
@owner_required
def fairness() -> Any:
    """Wins by handicap row with their intervals, the points per strength the games say, a suggested rule change."""
    # Long: a view's one form with its several answers (the page, a bad size, a refused form, the rule saved).
    form = OwnerForm()
    lang = language()
    raw = (request.values.get("size") or "").strip()
    chosen = size_from(raw) if raw else None
    problem = ""
    if raw and chosen is None:
        problem = _("There is no board size %(size)s: choose 9, 13 or 19.", size=raw[:10])
    at = now()
    made = _audit(at)
    context: dict[str, Any] = {
        "made": made,
        "sizes": [s for s in made.sizes if chosen is None or s.size == chosen],
        "chosen": chosen,
        "problem": problem,
        "at": at,
        "text": fairness_text,
        "lang": lang,
        "charts": {
            s.size: rows_chart(
                s.rows, _("Wins of the weaker player by handicap row on %(size)dx%(size)d", size=s.size), lang
            )
            for s in made.sizes
        },
        "preview": None,
    }
    if request.method == "GET" or problem:
        return page("fairness.html", form, 400 if problem else 200, **context)
    if not form.validate_on_submit() or chosen is None:
        return page("fairness.html", form, 400, **context)
    store = get_store()
    try:
        change = _suggestion(chosen, request.form.get("points") or "")
        fingerprint = dump_line(change)
        if request.form.get("confirmed") != fingerprint:
            current = {(m.nick, m.size): m for m in store.magnets()}
            moved = [
                (current[m.nick, m.size], m)
                for m in store.preview_rule_change(change)
                if (m.nick, m.size) in current
                and (m.strength, m.status) != (current[m.nick, m.size].strength, current[m.nick, m.size].status)
            ]
            old = store.config.size_rules[chosen]
            context["preview"] = {
                "size": chosen,
                "change": change,
                "lines": describe(change, lang),
                "cells": changed_cells(old, change.handicap[0], lang),
                "moved": moved,
                "fingerprint": fingerprint,
                "points": request.form.get("points"),
            }
            return page("fairness.html", form, **context)
        save_suggestion(store, change, now(), form.once_key("owner"), OWNER)
    except SemedoriError as error:
        form.form_errors.append(message(error))
        return page("fairness.html", form, 400, **context)
    flash(_("Rule change saved: games from %(at)s on follow the new rules.", at=f"{change.at:%Y-%m-%d %H:%M}"), "ok")
    return redirect(url_for("fairness.fairness", size=chosen))
