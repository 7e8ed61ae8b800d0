"""The owner's rule changes and the board as of a day, behind the owner PIN.

A rule change is a dated ``rules`` event of the history (kiosk.rulechanges): the views
only read the form, let the core check it, and record it.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Blueprint, flash, redirect, request, url_for
from flask_babel import gettext as _

from kiosk.bands import bands, grouped
from kiosk.config import Config
from kiosk.errors import SemedoriError
from kiosk.events import RuleChange, format_at, parse_at, parse_event
from kiosk.handicap import SIZES
from kiosk.rulechanges import Dated, describe, parse_day, timeline
from kiosk.scale import as_number, decimal_point, typed_number
from kiosk.services.settings import change_rules
from web.auth import OWNER, owner_required
from web.clock import now
from web.forms import OwnerForm, answers_stale_form
from web.i18n import language, message
from web.owner import page
from web.request_store import get_store

bp = Blueprint("rules_history", __name__, url_prefix="/owner")

PARAMETERS = ("points_per_strength", "clear_margin", "training_moves")


def _number(raw: str | None) -> float | str:
    """A number as typed (a decimal comma is fine); the text itself when it is not one (the core says why)."""
    value = typed_number(raw, signed=True)
    if value is None:
        return decimal_point(raw)
    return int(value) if value.is_integer() else value


def _typed_rules() -> dict[str, Any]:
    """The form's values, as a history line's fields (every rule, as typed)."""
    handicap = {
        str(size): {name: _number(request.form.get(f"h{size}_{name}")) for name in PARAMETERS} for size in SIZES
    }
    losses = (request.form.get("guest_losses") or "").strip()
    return {
        "handicap": handicap,
        "guest_losses": int(losses) if losses.isdecimal() else losses,
        "top": _number(request.form.get("top")),
    }


def _form_values(config: Config) -> dict[str, str]:
    """The form filled with the rules in force now."""
    values = {"guest_losses": str(config.guest_losses), "top": f"{as_number(config.top):g}"}
    for size, rules in config.size_rules.items():
        for name in PARAMETERS:
            values[f"h{size}_{name}"] = f"{float(getattr(rules, name)):g}"
    return values


@bp.app_template_global()
def past_rule_changes() -> list[tuple[Dated, list[str]]]:
    """The club's rule changes, newest first, each in the reader's words (the settings page lists them too)."""
    store = get_store()
    return [(d, describe(d.change, language())) for d in reversed(timeline(store.file_config, store.rule_changes()))]


def _context() -> dict[str, Any]:
    store = get_store()
    earliest = store.last_shift_or_rule_change()
    return {
        "config": store.config,
        "changes": past_rule_changes(),
        "earliest": format_at(earliest) if earliest else "",
        "latest": format_at(now().replace(second=0, microsecond=0)),
        "beginning": store.file_config,
        "preview": None,
    }


@bp.route("/rules", methods=["GET", "POST"])
@answers_stale_form
@owner_required
def rules() -> Any:
    """The rules in force now, a form to change them from a date, and every past change with its date."""
    form = OwnerForm()
    if request.method == "GET":
        return page("rules.html", form, defaults=_form_values(get_store().config), **_context())
    if not form.validate_on_submit():
        return page("rules.html", form, 400, defaults={}, **_context())
    store = get_store()
    try:
        moment = now()
        typed_at = (request.form.get("at") or "").strip()
        at = parse_at(typed_at) if typed_at else moment.replace(second=0, microsecond=0)
        note = (request.form.get("note") or "").strip()
        raw = {"type": "rules", "at": format_at(at), **_typed_rules(), **({"note": note} if note else {})}
        typed = parse_event(raw)  # the core checks every number, with its own messages
        assert isinstance(typed, RuleChange)
        confirmed = request.form.get("confirmed")
        preview = change_rules(store, typed, moment, confirmed, key=form.once_key("owner"), origin=OWNER)
        if preview is not None:
            # First what it would move, as the shift page does; saved only when confirmed.
            lines = describe(preview.change, language())
            context = {**_context(), "preview": preview.moved, "fingerprint": preview.fingerprint, "lines": lines}
            return page("rules.html", form, defaults={}, **context)
    except SemedoriError as error:
        form.form_errors.append(message(error))
        return page("rules.html", form, 400, defaults={}, **_context())
    flash(_("Rule change saved: games from %(at)s on follow the new rules.", at=f"{at:%Y-%m-%d %H:%M}"), "ok")
    return redirect(url_for("rules_history.rules"))


@bp.get("/board")
@owner_required
def board_at() -> Any:
    """The board as it stood at the end of a chosen day, one size at a time."""
    from web.pages import chosen_size

    store = get_store()
    form = OwnerForm()
    today = now().date()
    typed = request.args.get("at", "")
    day: date | None = None
    error = None
    if typed:
        try:
            day = parse_day(typed[:40], today)
        except SemedoriError as refused:
            error = message(refused)
    context: dict[str, Any] = {"today": today.isoformat(), "typed": typed[:40], "error": error, "day": day}
    if day is None:
        return page("board_at.html", form, 400 if error else 200, **context)
    magnets, in_force = store.board_at(day)
    size = chosen_size(magnets)
    on_size = tuple(m for m in magnets if m.size == size and not m.retired)
    context.update(
        size=size,
        count=len(on_size),
        columns=grouped(on_size, bands(in_force.top)),
        in_force=in_force,
    )
    return page("board_at.html", form, **context)
