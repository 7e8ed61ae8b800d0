"""The forms: fields as typed, with CSRF and a one-time token; the core does the checking."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, TypeVar

from flask import g
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, HiddenField, RadioField, StringField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # new in WTForms 3.3; types-WTForms is 3.2's
from wtforms.validators import ValidationError

from kiosk.events import GAME_KINDS, RATED
from kiosk.handicap import SIZES


def one_time_token() -> str:
    """A fresh token for one form: used as the idempotency key, so a double tap saves once."""
    return secrets.token_urlsafe(16)


# The kinds of game as the phone names them; the kinds themselves are the core's (a kind without a label fails here).
KIND_LABELS = {
    RATED: _l("Rated game: the magnets move"),
    "teaching": _l("Teaching game"),
    "simultaneous": _l("Simultaneous (one against several)"),
    "rengo": _l("Rengo (pair go)"),
    "event": _l("Event game, not for the board"),
}
KIND_CHOICES = [SelectChoice(kind, KIND_LABELS[kind]) for kind in GAME_KINDS]
SIZE_CHOICES = [SelectChoice(str(size), f"{size}×{size}") for size in SIZES]


# A token is 22 characters (``one_time_token``); it is kept as the history's idempotency key, so
# a longer one is no token of ours and is refused (a 25 MB token grew the card by 71 MB).
LONGEST_TOKEN = 64


View = TypeVar("View", bound=Callable[..., Any])

# The views that answer a request CSRFProtect refused with their own form (web.error_pages runs them).
STALE_FORM_VIEWS: set[str] = set()


def answers_stale_form(view: View) -> View:
    """Mark a form view: when its CSRF token is missing or stale, the form comes back with what was typed.

    CSRFProtect still refuses the request before the view runs; web.error_pages.csrf_error then runs
    the view with ``g.stale_form`` set, so that its form (a ``PostForm``) refuses too and the
    view answers as it does for any other problem. A view without the mark gets the plain stale page.
    """
    STALE_FORM_VIEWS.add(f"{view.__module__}.{view.__name__}")
    return view


class PostForm(FlaskForm):
    """A form posted from one of our pages: its CSRF token is checked, and refused again after CSRFProtect did."""

    def validate_csrf_token(self, field: Field) -> None:
        """While a refused request is answered by its view (``g.stale_form``), the token is bad whatever it says.

        CSRFProtect may refuse a token the form alone would take (a missing Referer over HTTPS).
        """
        if g.get("stale_form") and not field.errors:
            raise ValidationError(stale_form())


class OnceForm(PostForm):
    """A form that records something: CSRF, plus a token that makes a repeat harmless."""

    once = HiddenField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # What is wrong, field by field (web/problems.py): named, marked and tied to its field on the page.
        self.problems: dict[str, str] = {}

    def validate(self, extra_validators: Any = None) -> bool:
        """The fields, and a one-time token no longer than ours: a longer one says why nothing was saved."""
        valid = bool(super().validate(extra_validators))
        if len(self.once.data or "") > LONGEST_TOKEN:
            self.form_errors.append(stale_form())
            return False
        return valid

    def fresh(self) -> OnceForm:
        """Give the form a new one-time token (a new form on the page)."""
        if not self.once.data:
            self.once.data = one_time_token()
        return self

    def once_key(self, scope: str) -> str | None:
        """The idempotency key of the form's one-time token (``form:…``, ``owner:…``); none without a token.

        Forms sent without their token must not all share one key such as ``form:None``: each
        would be answered with the first one's result while nothing new was saved.
        """
        return f"{scope}:{self.once.data}" if self.once.data else None


def stale_form() -> str:
    """Why a form without a valid CSRF token saved nothing."""
    return _("This form is too old or was not sent from this site; nothing was saved. Please try again.")


class GameForm(OnceForm):
    """A game's result as entered at the table."""

    size = RadioField(_l("Board size"), choices=SIZE_CHOICES, default="13", validate_choice=False)
    a = StringField(_l("Player 1"))
    b = StringField(_l("Player 2"))
    winner = RadioField(
        _l("Who won?"),
        choices=[SelectChoice("a", "1"), SelectChoice("b", "2"), SelectChoice("draw", _l("Draw"))],
        validate_choice=False,
    )
    by = RadioField(
        _l("How?"),
        choices=[
            SelectChoice("points", _l("By points")),
            SelectChoice("resignation", _l("By resignation")),
            SelectChoice("other", _l("On time / other")),
        ],
        validate_choice=False,  # no default: a forgotten tap must not record a wrong margin
    )
    points = StringField(_l("Points"))
    at = StringField(_l("Played at"))
    me = BooleanField(_l("That's me: remember on this phone"))
    # Under "Not a rated game?": rated is the default, so the usual game costs no tap here.
    kind = RadioField(_l("What kind of game?"), choices=KIND_CHOICES, default=RATED, validate_choice=False)


class PlayerForm(OnceForm):
    """A new guest: at zero, or from a declared kyu/dan grade."""

    nick = StringField(_l("Nickname"))
    size = RadioField(_l("Board size"), choices=SIZE_CHOICES, default="13", validate_choice=False)
    start = RadioField(
        _l("Start"),
        choices=[
            SelectChoice("zero", _l("At 0")),
            SelectChoice("kyu", _l("From kyu")),
            SelectChoice("dan", _l("From dan")),
        ],
        default="zero",
        validate_choice=False,
    )
    grade = StringField(_l("Grade"))
    confirmed = HiddenField()
    back = HiddenField()  # the game form to return to, when the guest was added from it


class ActionForm(OnceForm):
    """A button that changes something (undo, owner actions without fields)."""


class OwnerForm(OnceForm):
    """An owner's form: a missing, forged or old CSRF token is said on the form, which keeps what was typed."""

    def validate(self, extra_validators: Any = None) -> bool:
        """Check the CSRF token (and the fields); a bad token adds the reason to the form's errors."""
        valid = bool(super().validate(extra_validators))
        token = getattr(self, "csrf_token", None)  # absent when an app turns CSRF off
        if token is not None and token.errors and stale_form() not in self.form_errors:
            self.form_errors.append(stale_form())
        return valid
