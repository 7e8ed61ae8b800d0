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
from web.recording import me_nick


def my_nick() -> str | None:
    """This phone's player (the board's nickname), once per request; None when the phone never said."""
    if "my_nick" not in g:
        try:
            g.my_nick = me_nick()
        except (SemedoriError, OSError):  # a card that cannot be read: nobody, and the page still shows
            g.my_nick = None
    found: str | None = g.my_nick
    return found


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
    """A name as this phone shows it: its own player by their nickname, everyone else as the page gives them."""
    nick = my_nick()
    return nick if nick is not None and is_me(name) else name


def mark(name: str) -> str:
    """The owner's symbol for the player a label (or nickname) names; "" when none."""
    try:
        return public.names().mark(name)
    except (SemedoriError, OSError):
        return ""
