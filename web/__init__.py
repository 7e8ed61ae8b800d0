"""The phone web app: record games, see the board, owner tools.

Views are thin: they read a form or JSON, hand it to the ranking core (``kiosk``),
write through the store and redirect. Rules never live here.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from flask import Flask, Response
from flask_wtf.csrf import CSRFProtect
from werkzeug.routing import IntegerConverter, Map

from kiosk.config import data_folder
from kiosk.files import write_atomically
from kiosk.handicap import SIZES
from kiosk.scale import to_grade
from web.forms import KIND_CHOICES, one_time_token

csrf = CSRFProtect()

# Scripts, styles and pictures only from the kiosk itself, nothing inline (a nickname
# that smuggles in markup cannot run), no framing (no click-jacking of the owner tools),
# and forms post only here.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


# SQLite's largest INTEGER. Werkzeug's <int:...> takes a number of any length, and SQLite would
# then raise OverflowError (a 500) on a pasted or mistyped /games/99999999999999999999999.
SQLITE_MAX_INTEGER = 2**63 - 1


class StoreInteger(IntegerConverter):
    """``<int:...>`` for the whole app: a number the store cannot hold matches no page, an ordinary 404."""

    def __init__(
        self, map: Map, fixed_digits: int = 0, min: int | None = None, max: int | None = None, signed: bool = False
    ) -> None:
        limit = SQLITE_MAX_INTEGER if max is None or max > SQLITE_MAX_INTEGER else max
        super().__init__(map, fixed_digits=fixed_digits, min=min, max=limit, signed=signed)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The app factory; ``test_config`` may set SEMEDORI_HOME to a temporary data folder."""
    app = Flask(__name__)
    _configure(app, test_config)
    _register(app)
    app.jinja_env.globals.update(_template_globals())
    app.after_request(private_headers)
    return app


def _configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    """The app's settings, the data folder made, and the key that signs its cookies."""
    app.config.from_mapping(
        SEMEDORI_HOME=str(data_folder()),
        WTF_CSRF_TIME_LIMIT=None,  # a form left open on a phone during a long game must still post
        MAX_CONTENT_LENGTH=32 * 1024 * 1024,  # the history file is the largest upload (~130 bytes a game)
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        STORE_PER_THREAD=False,  # `semedori serve` keeps one store per thread (see web.request_store)
    )
    if test_config:
        app.config.update(test_config)
    folder = Path(app.config["SEMEDORI_HOME"])
    folder.mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(folder)


def _register(app: Flask) -> None:
    """The extensions and hooks, in the order they must see a request, then every page's blueprint."""
    # Long: the extensions and blueprints listed in the order they must see a request.
    # Imported here, not at the top: each blueprint imports ``csrf`` from this module.
    from web import (
        api,
        auth,
        awards,
        drift,
        error_pages,
        event,
        event_choices,
        hosts,
        i18n,
        limits,
        owner,
        pages,
        pictures,
        privacy,
        recent,
        recording,
        request_store,
        tonight,
    )
    from web.fairness import bp as fairness_bp  # does the handicap table fit this club
    from web.league import bp as league_bp  # late starters, returns, leagues, the archive, rosters
    from web.matches import bp as matches_bp  # matches with other clubs, the club rating
    from web.rules_history import bp as rules_history_bp  # dated rule changes, the board as of a day

    app.url_map.converters["int"] = StoreInteger  # before any blueprint adds its rules
    i18n.init_app(app)
    request_store.init_app(app)
    error_pages.init_app(app)
    hosts.init_app(app)  # before the limits: a request for another site's name is not counted, only refused
    limits.init_app(app)
    # After the checks above: a request for another name, a too-large body or a phone writing too fast
    # is refused as such; then every POST without its CSRF token (web.error_pages.csrf_error answers it).
    csrf.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(recording.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(owner.bp)
    app.register_blueprint(rules_history_bp)
    app.register_blueprint(recent.bp)
    app.register_blueprint(pictures.bp)
    app.register_blueprint(tonight.bp)
    app.register_blueprint(event.bp)
    app.register_blueprint(event_choices.bp)
    app.register_blueprint(league_bp)
    app.register_blueprint(awards.bp)
    app.register_blueprint(drift.bp)
    app.register_blueprint(privacy.bp)
    app.register_blueprint(fairness_bp)
    app.register_blueprint(matches_bp)
    # Every POST is checked for its CSRF token. Only the JSON API's views are exempt (a cross-site
    # form cannot send JSON); a form view that gives a stale form back with what was typed says so
    # with @answers_stale_form (web/forms.py). tests/web/test_web_security.py names each.


def _template_globals() -> dict[str, Any]:
    """The club's words and lists every template may use."""
    from web import me, problems, public, tonight, words

    return {
        "why": words.why,
        "handicap_line": words.handicap_line,
        "komi": words.komi_text,
        "colours_line": words.colours_line,
        "training_line": words.training_line,
        "kind_name": words.kind_name,
        "not_rated_line": words.not_rated_line,
        "milestone": words.milestone,
        "result_line": words.result_line,
        "strength": words.strength,
        "grade": to_grade,
        "one_time_token": one_time_token,
        "kind_choices": [(choice.value, choice.label) for choice in KIND_CHOICES],
        "has_page": public.has_page,
        "board_sizes": SIZES,
        # "That's me": the owner's symbol beside a label, this phone's own player by name, and their pair tonight
        "mark": me.mark,
        "is_me": me.is_me,
        "shown_name": me.shown_name,
        "my_pair": tonight.my_pair,
        # A form's problems beside their fields: the marks, and the message each field names.
        "tie": problems.tie,
        "field_attrs": problems.attrs,
        "field_problem": problems.message_of,
        "tie_here": problems.tie_here,
        "problem_here": problems.message_here,
    }


def private_headers(response: Response) -> Response:
    """On every response: nicknames only, no search engine lists them, no framing, nothing inline."""
    response.headers["X-Robots-Tag"] = "noindex, nofollow"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Frame-Options"] = "DENY"  # frame-ancestors for browsers older than CSP 2
    return response


def _secret_key(folder: Path) -> str:
    """The key that signs sessions and CSRF tokens, made once per data folder."""
    path = folder / "web-secret"
    secret = path.read_text().strip() if path.exists() else ""
    if secret:
        return secret
    # Missing, or left empty by a crash or power cut while it was written (every form would
    # fail without a key): write it whole and synced beside, then move it in at once.
    write_atomically(path, secrets.token_hex(32), mode=0o600)
    return path.read_text().strip()
