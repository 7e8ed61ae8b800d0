"""The phone that said "That's me": its player by name on their own phone, and the owner's symbols.

Only this phone's own player is shown by nickname, and only to this phone (the cookie names
them: ``web.recording.me_nick``); everyone else stays their public label. A label on a page may
carry the symbol the owner gave its player (``kiosk.privacy.MARKS``), so a child tells "M.² ★"
from "M.² ♥" without either name being told.
"""

from __future__ import annotations

from flask import g

from kiosk.errors import SemedoriError
from kiosk.events import nick_key
from web import public
from web.recording import Me, me_claim


def claim() -> Me:
    """Who this phone said it is, once per request (nobody when the card cannot be read)."""
    if "my_claim" not in g:
        try:
            g.my_claim = me_claim()
        except (SemedoriError, OSError):  # a card that cannot be read: nobody, and the page still shows
            g.my_claim = Me(None)
    found: Me = g.my_claim
    return found


def my_nick() -> str | None:
    """This phone's player (the board's nickname); None when the phone never said."""
    return claim().nick


def may_see_hidden_self() -> bool:
    """True when a hidden player's own place and page may show on this phone: the kiosk signed its "That's me".

    An unsigned or made-up cookie must not open a hidden child's page to whoever sets it.
    """
    return claim().signed


def my_label() -> str:
    """This phone's player by the label the public sees; empty when the phone never said."""
    nick = my_nick()
    return public.names().label(nick) if nick is not None else ""


def is_me(name: str) -> bool:
    """True when a label (or nickname) on a page is this phone's own player."""
    nick = my_nick()
    if nick is None or not name:
        return False
    key = nick_key(name)
    return key in (nick_key(nick), nick_key(my_label()))


def shown_name(name: str) -> str:
    """A name as this phone shows it: its own player by their nickname, everyone else as the page gives them.

    Only where the phone typed that nickname itself (or its cookie spells it): the name shown back is one
    this phone already knew, so a phone that merely claimed a label learns no nickname from it.
    """
    found = claim()
    return found.nick if found.nick is not None and found.knows_nick and is_me(name) else name


def mark(name: str) -> str:
    """The owner's symbol for the player a label (or nickname) names; "" when none."""
    try:
        return public.names().mark(name)
    except (SemedoriError, OSError):
        return ""
