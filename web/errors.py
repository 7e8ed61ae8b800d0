"""Friendly error pages (and JSON errors under /api): never a bare 500."""

from __future__ import annotations

import logging

from flask import Flask, abort, jsonify, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from kiosk.errors import SemedoriError, StoreError
from web.i18n import message

log = logging.getLogger(__name__)


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
        413: _("That file is too large."),
        415: _("Send JSON with Content-Type: application/json."),
    }
    return _page(error.code or 500, texts.get(error.code or 500, error.description or ""))


def csrf_error(_error: CSRFError) -> tuple[Response | str, int]:
    """An old or copied form: nothing was saved."""
    text = _("This form is too old or was not sent from this site; nothing was saved. Please try again.")
    return _page(400, text, "stale-form")


def store_error(error: StoreError) -> tuple[Response | str, int]:
    """The SD card is full or read-only: say so, record nothing."""
    log.error("store cannot write: %s", error.detail)
    return _page(503, message(error), error.code)


def core_error(error: SemedoriError) -> tuple[Response | str, int]:
    """A core error a view did not catch: still a clear message."""
    return _page(400, message(error), getattr(error, "code", None))


def unexpected(error: Exception) -> tuple[Response | str, int]:
    """Our own bug: log it with context, show an apology (status 500 stays honest)."""
    if isinstance(error, HTTPException):
        return http_error(error)
    log.exception("unexpected error on %s %s", request.method, request.path)
    return _page(500, _("Something went wrong on the kiosk; nothing was saved. Please tell the club owner."))


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
    app.before_request(undecodable_query)
    app.register_error_handler(CSRFError, csrf_error)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(StoreError, store_error)
    app.register_error_handler(SemedoriError, core_error)
    app.register_error_handler(Exception, unexpected)
