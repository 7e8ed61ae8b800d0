"""The public face of the players on the phone pages and the API: labels, and who is hidden.

The labels are ``kiosk.privacy``'s, read once per request. Public views pass everything
they show through here; the owner's pages read the store directly and see every nickname.
"""

from __future__ import annotations

from dataclasses import replace

from flask import g, request

from kiosk.board import Change, GameResult, Magnet
from kiosk.errors import SemedoriError
from kiosk.events import nick_key
from kiosk.privacy import PublicNames, public_names
from web.request_store import get_store


def names() -> PublicNames:
    """This request's public labels, made on first use."""
    if "public_names" not in g:
        store = get_store()
        g.public_names = public_names([m.nick for m in store.magnets()], store.privacy())
    found: PublicNames = g.public_names
    return found


def magnets() -> tuple[Magnet, ...]:
    """Every magnet under its label, hidden players too (a handicap, a pairing, a game need them)."""
    shown = names()
    return tuple(shown.magnet(m) for m in get_store().magnets())


def listed(found: tuple[Magnet, ...] | list[Magnet]) -> tuple[Magnet, ...]:
    """The magnets a public list shows: hidden players left out, the others under their labels."""
    return names().shown(found)


def games(found: list[GameResult]) -> list[GameResult]:
    """Games with every name replaced by its label."""
    shown = names()
    return [shown.game(game) for game in found]


def changes(found: list[Change]) -> list[Change]:
    """Joins, corrections and shifts under the player's label."""
    shown = names()
    return [replace(change, nick=shown.label(change.nick)) for change in found]


def nick_for(typed: str) -> str | None:
    """The board's nickname a phone means by a label or a whole nickname; None when none."""
    return names().nick_for(typed)


def label_of(typed: str) -> str:
    """What a phone typed, as the public label when it names a player (else as typed)."""
    nick = nick_for(typed)
    return names().label(nick) if nick is not None else typed


def visible(nick: str | None) -> str | None:
    """A board nickname the public pages may show a page of, or None for a hidden (or no) player."""
    return nick if nick is not None and not names().hidden(nick) else None


def relabelled(error: SemedoriError) -> SemedoriError:
    """A core error whose names (a player not yet on the board that day, ...) are the public labels.

    A name the phone typed itself stays as typed: "the nickname … is taken" must not answer
    a typed nickname with the label it stands for.
    """
    params = getattr(error, "params", None)
    if isinstance(params, dict) and params:
        try:
            labels = names().labels
        except (SemedoriError, OSError):  # the store itself failed: the error says so, with no names in it
            return error
        typed = _typed()
        for key, value in params.items():
            label = labels.get(nick_key(value)) if isinstance(value, str) else None
            if label is not None and nick_key(label) != nick_key(value) and nick_key(value) not in typed:
                params[key] = label
    return error


def _typed() -> set[str]:
    """Every text this request sent (query, form, JSON strings), by nick key."""
    found = [*request.args.values(), *request.form.values()]
    body = request.get_json(silent=True) if request.is_json else None
    if isinstance(body, dict):
        for value in body.values():
            found += [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]
    return {nick_key(" ".join(text.split())) for text in found}


def has_page(name: str) -> bool:
    """True when a name on a page (a label, or a nickname on the owner's pages) links to a public player page."""
    try:
        shown = names()
    except (SemedoriError, OSError):
        return True
    nick = shown.owners.get(nick_key(name), name)
    return not shown.hidden(nick)
