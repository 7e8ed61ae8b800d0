"""Friendly error pages (and JSON errors under /api): never a bare 500.

Not to be confused with kiosk/errors.py, the errors themselves: this module is how the web shows them.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from flask import Flask, abort, current_app, g, jsonify, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from kiosk.errors import ConfigError, SemedoriError, StoreError
from web.forms import STALE_FORM_VIEWS, stale_form
from web.i18n import message

log = logging.getLogger(__name__)
RETRY_SECONDS = 5


def _wants_json() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


# The API's stable error codes for what is not the core's (the core's errors carry their own).
CODES = {
    400: "bad-request",
    404: "not-found",
    405: "method-not-allowed",
    413: "too-large",
    415: "needs-json",
    500: "internal",
    503: "store-readonly",
}


def _page(status: int, text: str, code: str | None = None) -> tuple[Response | str, int]:
    if _wants_json():
        return jsonify(error={"code": code or CODES.get(status, "error"), "message": text}), status
    return render_template("error.html", status=status, text=text), status


def http_error(error: HTTPException) -> tuple[Response | str, int]:
    """A 404, 405, 413...: the same page, with a plain sentence."""
    texts = {
        400: _("That request was not understood. Please try again."),
        404: _("There is nothing here. Maybe the game was undone or the player renamed."),
        405: _("That does not work here."),
        413: _too_large(),
        415: _("Send JSON with Content-Type: application/json."),
    }
    return _page(error.code or 500, texts.get(error.code or 500, error.description or ""))


def _too_large() -> str:
    """Why a body was refused whole: the API's and a form's cap is 64 KB, the history upload's 32 MB."""
    if _wants_json():
        return _("The request is too large: at most 64 KB.")
    if request.endpoint == "owner.import_history":
        return _("That file is too large.")
    return _("That form is too large (at most 64 KB); nothing was saved.")


def too_many(seconds: int) -> Response:
    """A phone or script that writes too fast: 429 with Retry-After; nothing was saved."""
    text = _(
        "Too many entries from this phone in a short time; nothing was saved. Wait %(seconds)d s and try again.",
        seconds=seconds,
    )
    body, status = _page(429, text)
    response = make_response(body, status)
    response.headers["Retry-After"] = str(seconds)
    return response


def csrf_error(_error: CSRFError) -> ResponseReturnValue:
    """An old or copied form (CSRFProtect refused it before any view ran): nothing was saved.

    A form view (web.forms.answers_stale_form) is then run with ``g.stale_form`` set: its form
    refuses the token too, and the page comes back with what was typed and the reason, as for any
    other problem on the form. Every other view, and the JSON API, gets the plain page.
    """
    view = current_app.view_functions.get(request.endpoint or "")
    if view is None or g.get("stale_form") or f"{view.__module__}.{view.__name__}" not in STALE_FORM_VIEWS:
        return _page(400, stale_form(), "stale-form")
    g.stale_form = True
    try:
        return current_app.make_response(current_app.ensure_sync(view)(**(request.view_args or {})))
    except Exception as error:  # as if the view had raised it itself (a CSRFError again: the plain page above)
        return current_app.handle_user_exception(error)


def store_error(error: StoreError) -> tuple[Response | str, int]:
    """The SD card is full or read-only, or the write lock stayed busy: say so, record nothing."""
    if error.code != "store-busy":  # a busy lock is logged where it happened, as a warning
        log.error("store cannot write: %s", error.detail)
    return _page(503, message(error), error.code)


def retry_after(response: Response) -> Response:
    """Every 503 (busy, full or read-only card) tells a client when to try again."""
    if response.status_code == 503 and "Retry-After" not in response.headers:
        response.headers["Retry-After"] = str(RETRY_SECONDS)
    return response


def config_error(error: ConfigError) -> tuple[Response | str, int]:
    """The settings file cannot be read: the owner's job, said without the kiosk's folders; logged in full."""
    log.error("%s", error)
    return _page(
        503,
        _("The kiosk's settings file (semedori.toml) cannot be read; the club owner should fix it. Nothing was saved."),
    )


def core_error(error: SemedoriError) -> tuple[Response | str, int]:
    """A core error a view did not catch: still a clear message."""
    return _page(400, message(error), getattr(error, "code", None))


def unexpected(error: Exception) -> tuple[Response | str, int]:
    """Our own bug: log it with context, show an apology (status 500 stays honest)."""
    if isinstance(error, HTTPException):
        return http_error(error)
    log.exception("unexpected error on %s %s", request.method, request.path)
    return _page(500, _("Something went wrong on the kiosk; nothing was saved. Please tell the club owner."))


def damaged_text(backup: str | None) -> str:
    """What a phone and the owner read while the database is damaged: no path, only the backup's file name."""
    if backup:
        return _(
            "The kiosk's database is damaged; nothing can be saved. The club owner should restore a backup: "
            "the newest good one is %(backup)s (semedori restore).",
            backup=backup,
        )
    return _(
        "The kiosk's database is damaged; nothing can be saved. The club owner should restore a backup "
        "(semedori restore); none was found in the backups folder."
    )


def damaged_database() -> tuple[Response | str, int] | None:
    """While the database is damaged, every request gets the "restore a backup" page; nothing reads or writes it."""
    damaged = current_app.config.get("DAMAGED")
    if damaged is None or request.endpoint == "static":
        return None
    return _page(503, damaged_text(damaged.get("backup")))


def database_error(error: sqlite3.DatabaseError) -> tuple[Response | str, int]:
    """Damage found while serving (a page of the file went bad): the same page, logged, never a 500."""
    log.error("the database is damaged: %s on %s %s", error, request.method, request.path)
    from kiosk.backup import newest_good_backup

    backup = newest_good_backup(Path(current_app.config["SEMEDORI_HOME"]))
    return _page(503, damaged_text(backup.name if backup else None))


def undecodable_query() -> None:
    """A query string of raw bytes that are not UTF-8 (not %-escapes) is a 400, not a crash in a view."""
    try:
        request.query_string.decode()
    except UnicodeDecodeError:
        request.query_string = b""  # the error page's own links read the query string too
        abort(400)


def init_app(app: Flask) -> None:
    """Register the handlers."""
    # Werkzeug decodes request.args strictly as UTF-8 on first use, inside the view.
    app.before_request(damaged_database)
    app.before_request(undecodable_query)
    app.after_request(retry_after)
    app.register_error_handler(CSRFError, csrf_error)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(StoreError, store_error)
    app.register_error_handler(sqlite3.DatabaseError, database_error)
    app.register_error_handler(ConfigError, config_error)
    app.register_error_handler(SemedoriError, core_error)
    app.register_error_handler(Exception, unexpected)
