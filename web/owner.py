"""The owner's tools, behind the owner PIN."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from web.forms import OnceForm
from web.pin import check_pin, hash_pin, valid_pin
from web.store import get_store

bp = Blueprint("owner", __name__, url_prefix="/owner")

# Wrong PINs per client address: after five, wait a minute (a 4-digit PIN is short).
_failures: dict[str, list[float]] = {}
MAX_FAILURES, LOCK_SECONDS = 5, 60


def owner_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Send a visitor without the owner PIN to the PIN form."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not session.get("owner"):
            return redirect(url_for("owner.login", next=request.path))
        return view(*args, **kwargs)

    return wrapped


def _locked(address: str) -> bool:
    recent = [t for t in _failures.get(address, []) if time.monotonic() - t < LOCK_SECONDS]
    _failures[address] = recent
    return len(recent) >= MAX_FAILURES


class PinForm(OnceForm):
    """The PIN, typed on a keypad."""


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | str | tuple[str, int]:
    """Ask for the PIN; at first start, set it."""
    store = get_store()
    form = PinForm()
    first = not store.config.owner_pin_hash
    if request.method == "GET":
        return render_template("owner/login.html", form=form, first=first)
    pin = request.form.get("pin", "")
    address = request.remote_addr or "?"
    if not form.validate_on_submit():
        return render_template("owner/login.html", form=form, first=first), 400
    if first:
        if not valid_pin(pin) or pin != request.form.get("again", ""):
            form.form_errors.append(_("The PIN is 4 to 12 digits, typed the same twice."))
            return render_template("owner/login.html", form=form, first=first), 400
        store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(pin)))
    elif _locked(address) or not check_pin(pin, store.config.owner_pin_hash):
        _failures.setdefault(address, []).append(time.monotonic())
        form.form_errors.append(_("Wrong PIN. After five wrong tries, wait a minute."))
        return render_template("owner/login.html", form=form, first=first), 400
    session.clear()
    session["owner"] = True
    target = request.args.get("next", "")
    return redirect(target if target.startswith("/owner") else url_for("owner.tools"))


@bp.post("/logout")
def logout() -> Response:
    """Leave the owner tools."""
    session.pop("owner", None)
    flash(_("You left the owner tools."), "ok")
    return redirect(url_for("pages.board"))


@bp.get("/")
@owner_required
def tools() -> str:
    """The owner's menu."""
    return render_template("owner/tools.html", form=OnceForm())
