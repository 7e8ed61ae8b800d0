"""Only the kiosk's own names and addresses are served: no DNS rebinding.

A web page a player happens to visit can point a name of its own at the kiosk's address and
then script the kiosk from the player's browser, as if it were the same site: reading the
pages, posting games. Its requests carry that page's name in the Host header, so the kiosk
answers only to its own: ``semedori.local`` and the Pi's name, the host of the QR code's
``form_url``, ``localhost``, and any address of this machine (an address, unlike a name, cannot
be rebound). A club that reaches the board by another name lists it in semedori.toml::

    [web]
    hosts = ["board.example.org"]
"""

from __future__ import annotations

import ipaddress
import socket
import sqlite3
from functools import lru_cache
from urllib.parse import urlsplit

from flask import Flask, request
from flask_babel import gettext as _
from werkzeug.wrappers import Response  # what the error pages give, and flask.Response's base

from kiosk.config import Config
from kiosk.errors import SemedoriError
from web.error_pages import _page
from web.request_store import get_store

NAMES = ("semedori.local", "localhost")


def host_name(header: str) -> str:
    """The name or address of a Host header, without its port, in lower case ("" when there is none)."""
    text = header.strip().lower()
    if text.startswith("["):  # [::1]:8080
        return text[1 : text.find("]")] if "]" in text else ""
    name = text.rsplit(":", 1)[0] if text.count(":") == 1 else text
    return name.rstrip(".")


def own_names(config: Config) -> set[str]:
    """The names this kiosk answers to: its own, the form's, and those the club added."""
    machine = socket.gethostname().lower()
    names = {*NAMES, machine, f"{machine}.local"}
    form = urlsplit(config.form_url).hostname
    if form and "{ip}" not in form:
        names.add(form.lower())
    web = config.extra.get("web", {})
    added = web.get("hosts", []) if isinstance(web, dict) else []
    if isinstance(added, list):
        names.update(host_name(name) for name in added if isinstance(name, str))
    return names


@lru_cache(maxsize=64)
def is_own_address(text: str) -> bool:
    """True for an address of this machine (any of its interfaces): only such an address can be bound."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return False
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((str(address), 0))
    except OSError:
        return False
    return True


def is_served(header: str, config: Config) -> bool:
    """True when a request for this Host is the kiosk's own."""
    name = host_name(header)
    return bool(name) and (name in own_names(config) or is_own_address(name))


def init_app(app: Flask) -> None:
    """Refuse, before any view runs, a request addressed to a name that is not the kiosk's."""

    @app.before_request
    def _own_host() -> tuple[Response | str, int] | None:
        try:
            config = get_store().config
        except (SemedoriError, OSError, sqlite3.DatabaseError):  # a damaged store has its own page
            config = Config()
        if is_served(request.headers.get("Host", ""), config):
            return None
        return _page(
            400,
            _(
                "This board answers only at its own address (such as http://semedori.local). "
                "Open it from the QR code on the wall."
            ),
            "unknown-host",
        )
