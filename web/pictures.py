"""The pictures the web serves, drawn by display/: ``/board.png`` (the wall's picture, by the same
renderer as the panel) and the award certificates' PNGs (for web/awards.py).

The one module of the web that reaches display/ (tests/test_boundaries.py); not to be confused
with display/wall.py, the data a wall render reads.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from flask import Blueprint, Response, current_app, request

from kiosk.errors import ConfigError
from kiosk.handicap import SIZES
from web.clock import now
from web.request_store import get_store

if TYPE_CHECKING:
    from kiosk.awards import Award
    from kiosk.progress import Progress

bp = Blueprint("pictures", __name__)

CACHED_PICTURES = 12


@bp.get("/board.png")
def board_png() -> Response:
    """The wall's board page of one size, as the panel would show it now."""
    from display.profiles import PROFILES
    from display.render import render
    from display.settings import parse
    from display.wall import View, from_source

    store = get_store()
    raw = request.args.get("size", "13")
    size = int(raw) if raw.isdecimal() and int(raw) in SIZES else 13
    try:
        settings = parse(dict(store.config.extra.get("display", {})))
    except ConfigError:
        settings = parse({})
    profile = PROFILES.get(settings.panel, PROFILES["png"])  # "auto" is only known on the Pi itself
    # Drawing takes longer than a page: keep the last pictures until the history changes.
    key = (store.folder, store.change_counter(), size, store.config.language, profile.name, settings.orientation)
    cache: dict[tuple[object, ...], bytes] = current_app.extensions.setdefault("semedori_wall", {})
    if key not in cache:
        data = from_source(store, now())  # the kiosk's clock, as the wall's own (display/cli.py)
        picture = render(data, View("board", size), profile, settings.orientation)
        buffer = io.BytesIO()
        picture.save(buffer, format="PNG")
        if len(cache) >= CACHED_PICTURES:
            cache.pop(next(iter(cache)))
        cache[key] = buffer.getvalue()
    return Response(cache[key], mimetype="image/png", headers={"Cache-Control": "no-cache"})


def mounting_advice(language: str) -> list[str]:
    """Which way to mount the wall's panel for this club, in the phone's language (display/advice.py); kept until
    the history changes, as the board's picture is. A panel found only on the Pi ("auto") is advised as the 7.3"."""
    from display.advice import advice
    from display.profiles import PROFILES
    from display.settings import parse
    from display.wall import from_source

    store = get_store()
    try:
        settings = parse(dict(store.config.extra.get("display", {})))
    except ConfigError:
        settings = parse({})
    profile = PROFILES.get(settings.panel) if settings.panel in PROFILES and settings.panel != "png" else None
    profile = profile or PROFILES["impression-7.3"]
    key = ("advice", store.folder, store.change_counter(), language, profile.name, settings.orientation)
    cache: dict[tuple[object, ...], list[str]] = current_app.extensions.setdefault("semedori_advice", {})
    if key not in cache:
        data = from_source(store, now())
        if len(cache) >= CACHED_PICTURES:
            cache.pop(next(iter(cache)))
        cache[key] = advice(data, profile, settings.orientation, language)
    return cache[key]


def certificate_picture(award: Award, club_name: str, language: str, paper: str) -> bytes:
    """One award's certificate as PNG bytes at 300 dpi (display.certificate; Pillow loaded only now)."""
    from display.certificate import certificate

    buffer = io.BytesIO()
    certificate(award, club_name, language, paper).save(buffer, "PNG", dpi=(300, 300))
    return buffer.getvalue()


def event_certificate_picture(
    title: str, nick: str, event_name: str, evening: str, club_name: str, language: str, paper: str
) -> bytes:
    """An event prize's certificate as PNG bytes at 300 dpi (display.certificate; Pillow loaded only now)."""
    from display.certificate import event_certificate

    buffer = io.BytesIO()
    event_certificate(title, nick, event_name, evening, club_name, language, paper).save(buffer, "PNG", dpi=(300, 300))
    return buffer.getvalue()


def progress_card_picture(card: Progress, club_name: str, language: str) -> bytes:
    """A child's progress card as PNG bytes at 300 dpi (display.progress_card; Pillow loaded only now)."""
    from display.progress_card import progress_card

    buffer = io.BytesIO()
    progress_card(card, club_name, language).save(buffer, "PNG", dpi=(300, 300))
    return buffer.getvalue()
