"""English and Polish: a chosen language, else the phone's Accept-Language, else the club's."""

from __future__ import annotations

import re

from flask import Flask, redirect, request
from flask_babel import Babel, get_locale
from werkzeug.wrappers import Response

from kiosk import catalogue
from kiosk.config import LANGUAGES
from kiosk.errors import SemedoriError
from web.redirects import same_site

LANGUAGE_COOKIE = "lang"


def select_language() -> str:
    """The language of this request."""
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or club_language()


def club_language() -> str:
    """The club's configured language (the owner's setting)."""
    from web.request_store import get_store

    try:
        return get_store().config.language
    except SemedoriError:
        return "en"


def language() -> str:
    """The current language code, 'en' or 'pl'."""
    return str(get_locale() or "en")


def message(error: SemedoriError) -> str:
    """A core error's message in the user's language, never with a path on the kiosk in it."""
    text = getattr(error, "message", None)
    return without_paths(text(language()) if callable(text) else str(error))


def without_paths(text: str) -> str:
    """``text`` with every absolute path cut to its file name: a phone never learns the kiosk's folders."""
    return re.sub(r"(?<![\w.])(?:/[^\s/:'\"]+)+/([^\s/:'\"]+)", r"\1", text)


def choose(code: str) -> Response:
    """Remember a language picked on the page, and go back where the user was."""
    response = redirect(_back())
    if code in LANGUAGES:
        response.set_cookie(LANGUAGE_COOKIE, code, max_age=365 * 24 * 3600, samesite="Lax", httponly=True)
    return response


def _back() -> str:
    # Only paths on this site: a crafted link must not send a player elsewhere.
    return same_site(request.args.get("next"), "/")


def init_app(app: Flask) -> None:
    """Set up Flask-Babel with the one compiled catalogue, kiosk/translations (kiosk.catalogue)."""
    Babel(app, locale_selector=select_language, default_translation_directories=str(catalogue.FOLDER))
    app.add_url_rule("/language/<code>", "language", choose)
    app.jinja_env.globals["language"] = language
