"""The owner's PIN: logging in, logging out, and who counts as the owner.

The PIN is set only at the kiosk (`semedori set-pin`, which the installer runs). With no PIN
hash in semedori.toml (never set, or a failing card left the file empty) the owner pages say
so and accept nothing: the first phone to open them must not choose the PIN.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.wrappers import Response  # what redirect() gives, and flask.Response's base

from web import lockout, sessions
from web.forms import OnceForm, OwnerForm, answers_stale_form
from web.pin import check_pin
from web.redirects import same_site
from web.request_store import get_store

bp = Blueprint("auth", __name__, url_prefix="/owner")

OWNER = "owner"
# The club's phone may lie on the table after the owner is done: the PIN lasts one evening.
OWNER_SECONDS = 8 * 3600


def pin_is_set() -> bool:
    """True when semedori.toml holds the owner PIN's hash: without it nobody is the owner."""
    return bool(get_store().config.owner_pin_hash)


def is_owner() -> bool:
    """True on a phone where the owner typed the PIN this evening, and has not logged out or changed the PIN since."""
    if not pin_is_set():
        return False  # an emptied semedori.toml ends every owner session too
    since = session.get("owner")
    if not (isinstance(since, int | float) and 0 <= time.time() - since < OWNER_SECONDS):
        return False
    generation: object = session.get("owner_generation", 0)  # the signed cookie's, whatever it holds
    return generation == sessions.generation(Path(current_app.config["SEMEDORI_HOME"]))


def owner_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Send a visitor without the owner PIN to the PIN form."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not is_owner():
            session.pop("owner", None)
            return redirect(url_for("auth.login", next=request.path))
        return view(*args, **kwargs)

    return wrapped


def _locked_out(form: OnceForm, folder: Path, address: str) -> bool:
    """True (with the wait on the form) while wrong PINs keep this phone out, even after a restart."""
    wait = lockout.seconds_left(folder, address, time.time())
    if wait > 0:
        form.form_errors.append(_("Too many wrong PINs: try again in %(minutes)d min.", minutes=math.ceil(wait / 60)))
    return wait > 0


@bp.route("/login", methods=["GET", "POST"])
@answers_stale_form
def login() -> Response | str | tuple[str, int]:
    """Ask for the PIN (none set: say how the owner sets it at the kiosk, and take nothing)."""
    store = get_store()
    form = OwnerForm()
    no_pin = not store.config.owner_pin_hash
    if request.method == "GET":
        return render_template("owner/login.html", form=form, no_pin=no_pin)
    if no_pin:
        return render_template("owner/login.html", form=form, no_pin=no_pin), 400
    pin = request.form.get("pin", "")
    address = request.remote_addr or "?"
    folder = Path(current_app.config["SEMEDORI_HOME"])
    if not form.validate_on_submit():
        return render_template("owner/login.html", form=form, no_pin=no_pin), 400
    if lockout.attempt(folder, address, time.time()) > 0:  # locked: the PIN is not even checked
        _locked_out(form, folder, address)
        return render_template("owner/login.html", form=form, no_pin=no_pin), 400
    elif not check_pin(pin, store.config.owner_pin_hash):  # already counted as wrong by attempt()
        form.form_errors.append(_("Wrong PIN. After five wrong tries, wait a minute."))
        _locked_out(form, folder, address)  # and say so when this was one too many
        return render_template("owner/login.html", form=form, no_pin=no_pin), 400
    else:
        lockout.succeeded(folder, address)
    session.clear()
    session["owner"] = time.time()
    session["owner_generation"] = sessions.generation(folder)
    return redirect(same_site(request.args.get("next"), url_for("owner.tools"), prefix="/owner"))


@bp.post("/logout")
def logout() -> Response:
    """Leave the owner tools."""
    if not OwnerForm().validate_on_submit():
        raise CSRFError()  # a forged "leave" button: the friendly page, and the owner stays in
    sessions.end_all(Path(current_app.config["SEMEDORI_HOME"]))  # every owner session, a copied cookie too
    session.pop("owner", None)
    session.pop("owner_generation", None)
    flash(_("You left the owner tools."), "ok")
    return redirect(url_for("pages.board"))


def no_store(response: Response) -> Response:
    """Owner pages are never kept by a browser or a proxy: the back button after logout shows nothing."""
    response.headers["Cache-Control"] = "no-store"
    return response


bp.after_request(no_store)
