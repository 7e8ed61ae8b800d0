"""What is wrong with a form, field by field.

Every message names its field ("Player 1: …"), the field is marked (``aria-invalid``) and tied
to its message (``aria-describedby``), and the form's summary at the top (``role="alert"``,
read out by a screen reader) lists the messages in the form's order, each a link to its field.
A message says what would be accepted. The checks of what was typed are the core's; this
module only says which field a core error belongs to, and checks what a form left empty.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from markupsafe import Markup, escape

from kiosk.errors import HistoryError, SemedoriError
from kiosk.events import NICK_LIMIT, clean_nick, nick_key

# The game form's fields in the order a phone shows them, with the names a message gives them.
GAME_FIELDS = {
    "a": _l("Player 1"),
    "b": _l("Player 2"),
    "size": _l("Board size"),
    "winner": _l("Who won"),
    "by": _l("How the game ended"),
    "points": _l("Points"),
    "at": _l("Played at"),
    "kind": _l("Kind of game"),
}

# Which field of the game form a core error is about (a nickname's error: the field that holds it).
GAME_CODES = {
    "bad-size": "size",
    "no-magnet": "size",
    "bad-winner": "winner",
    "draw-even": "winner",
    "draw-margin": "points",
    "bad-margin": "points",
    "even-margin": "points",
    "bad-at": "at",
    "future-at": "at",
    "too-old": "at",
    "not-on-board-yet": "at",
    "bad-kind": "kind",
    "same-player": "b",
}
NICK_CODES = {"bad-nick", "invisible-nick", "unknown-player", "nick-taken", "nick-unavailable", "nick-looks-like"}
NICK_CODES |= {"nick-renamed", "nick-is-label"}


class Problems(dict[str, str]):
    """Messages keyed by the field they belong to, in the order they were found (the form's order)."""

    def say(self, field: str, name: object, text: str) -> None:
        """Add the message of ``field`` (its first one stays: one message per field), named by ``name``."""
        self.setdefault(field, named(name, text))


def in_order(found: Mapping[str, str], fields: Mapping[str, object]) -> dict[str, str]:
    """The problems in the order of the form's fields (the summary reads as the form does)."""
    order = list(fields)
    return dict(sorted(found.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order)))


def named(name: object, text: str) -> str:
    """A message that names its field: "Player 1: type a nickname …"."""
    return _("%(field)s: %(problem)s", field=str(name), problem=text)


def letters(text: str) -> int:
    """How many letters a nickname has, as the core counts them (NFC, inner spaces folded)."""
    return len(" ".join(unicodedata.normalize("NFC", text).split()))


def nick_problem(typed: str | None) -> str | None:
    """What is wrong with a typed nickname before the board is asked (empty, too long, invisible letters)."""
    count = letters(typed or "")
    if count == 0:
        return _("type a nickname (1 to %(limit)d letters).", limit=NICK_LIMIT)
    if count > NICK_LIMIT:
        return ngettext(
            "the nickname is too long (%(num)d letter; at most %(limit)d).",
            "the nickname is too long (%(num)d letters; at most %(limit)d).",
            count,
            limit=NICK_LIMIT,
        )
    try:
        clean_nick(typed)
    except HistoryError:
        return _("the nickname has an invisible character. Type it again with plain letters.")
    return None


def game_problems(form: Any, say_error: Callable[[SemedoriError], str] | None = None) -> Problems:
    """What a game form left out or got wrong before the core is asked, in the form's order."""
    problems = Problems()
    for field in ("a", "b"):
        problem = nick_problem(getattr(form, field).data)
        if problem:
            problems.say(field, GAME_FIELDS[field], problem)
    winner = form.winner.data or ""
    if winner not in ("a", "b", "draw"):
        problems.say("winner", GAME_FIELDS["winner"], _("tap one of the two players, or Draw."))
    elif winner != "draw":
        by = form.by.data or ""
        if by not in ("points", "resignation", "other"):
            problems.say("by", GAME_FIELDS["by"], _("tap By points, By resignation, or On time / other."))
        elif by == "points" and not (form.points.data or "").strip():
            problems.say("points", GAME_FIELDS["points"], _("type the points, like 7 or 7.5."))
    return problems


def field_of(error: SemedoriError, codes: Mapping[str, str], nicks: Mapping[str, str | None]) -> str | None:
    """The field a core error is about: by its code, or the nickname field that holds what it names."""
    code = getattr(error, "code", "")
    params = getattr(error, "params", {})
    if code in NICK_CODES:
        said = nick_key(str(params.get("nick", "")).strip())
        for field, typed in nicks.items():
            if said and nick_key(" ".join((typed or "").split())) == said:
                return field
        for field, typed in nicks.items():  # an error that names nobody: the first field that is wrong
            if nick_problem(typed):
                return field
        if code == "unknown-player" and isinstance(error, HistoryError) and error.line is not None:
            return codes.get("not-on-board-yet")
    return codes.get(code)


def tie(problems: Mapping[str, str], field: str) -> Markup:
    """The attributes that mark a field with a problem and tie it to its message; nothing when it has none."""
    if field not in problems:
        return Markup("")
    return Markup(f' aria-invalid="true" aria-describedby="{escape(field)}-problem"')


def attrs(problems: Mapping[str, str], field: str) -> dict[str, str]:
    """The same attributes as keywords, for a WTForms field: ``form.a(**attrs(problems, "a"))``."""
    if field not in problems:
        return {}
    return {"aria-invalid": "true", "aria-describedby": f"{field}-problem"}


def message_of(problems: Mapping[str, str], field: str) -> Markup:
    """The message beside its field, with the id the field's ``aria-describedby`` names; nothing when none."""
    if field not in problems:
        return Markup("")
    return Markup(f'<span class="field-problem" id="{escape(field)}-problem">{escape(problems[field])}</span>')


class FieldError(ValueError):
    """A problem a view finds with one field before the core is asked ("Name the strong member …")."""

    def __init__(self, field: str, text: str) -> None:
        super().__init__(text)
        self.field = field


def here() -> dict[str, str]:
    """The problems of the form this request shows (set by the view), for macros that see no context."""
    from flask import g

    found: dict[str, str] = g.get("problems", {})
    return found


def tie_here(field: str) -> Markup:
    """``tie`` for the form this request shows."""
    return tie(here(), field)


def message_here(field: str) -> Markup:
    """``message_of`` for the form this request shows."""
    return message_of(here(), field)
