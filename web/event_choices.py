"""The owner's choices for an event on the phone: the start form's folded part, read and
checked; the standings' "why is she above me"; the prizes and their certificates.

Thin: the rules are ``kiosk.tiebreak``, ``kiosk.event_handicap``, ``kiosk.event_pairing`` and
``kiosk.event_prizes``; this module only reads what was typed and says it in the phone's words.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

from flask import Blueprint, request, send_file
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from kiosk.event_handicap import LIMIT, is_default
from kiosk.event_pairing import FOLD
from kiosk.event_prizes import KINDS, PLACE, WINS, Prize, class_grades, prizes
from kiosk.events import nick_key
from kiosk.scale import decimal_mark, format_strength, quarters, typed_number
from kiosk.services import tournaments
from kiosk.tiebreak import (
    CRITERIA,
    DIRECT,
    OPENGOTHA,
    PROGRESS,
    SCORE,
    SHARED,
    SODOS,
    SOS,
    SOSOS,
    STRENGTH,
    Choices,
    Ranked,
    Step,
    rank,
    why_above,
)
from kiosk.tournament import Standing, Tournament, points, reached
from web.auth import owner_required
from web.awards import refused
from web.i18n import language
from web.request_store import get_store

bp = Blueprint("event_choices", __name__)

CHAIN_SELECTS = 4  # the start form's "then" selects
AVOID_ROWS = 3  # pairs not to meet early, on the form
LANGUAGES = ("en", "pl")
PAPERS = ("A5", "A4")


def criterion_names() -> dict[str, str]:
    """Each criterion as the phone names it (the short name stays the tournament world's: SOS, SODOS)."""
    return {
        SCORE: _("Points"),
        DIRECT: _("Direct encounter"),
        SOS: "SOS",
        SOSOS: "SOSOS",
        SODOS: "SODOS",
        PROGRESS: _("Progressive score"),
    }


def criterion_short() -> dict[str, str]:
    """Each criterion's column head in the standings (a phone's table has no room for the words)."""
    return {**criterion_names(), DIRECT: _("Dir."), PROGRESS: _("Prog.")}


def criterion_help() -> dict[str, str]:
    return {
        DIRECT: _("the points in the games among the players still equal (only when they have all met)"),
        SOS: _("the sum of the opponents’ points"),
        SOSOS: _("the sum of the opponents’ SOS"),
        SODOS: _("the sum of the points of the opponents beaten"),
        PROGRESS: _("the points after each round, added up: an early win counts more"),
    }


def default_chain() -> tuple[str, ...]:
    """What the start form offers: OpenGotha's Swiss default."""
    return OPENGOTHA


def _whole(text: str, least: int, most: int) -> int | str | None:
    """A whole number typed in a box: None when empty, the number, or "bad"."""
    text = text.strip()
    if not text:
        return None
    if not text.isdecimal() or len(text) > 4 or not least <= int(text) <= most:
        return "bad"
    return int(text)


def choices_from(form: MultiDict[str, str], players: Sequence[str]) -> Choices | str:
    """The owner's choices from the start form, or what is wrong with them (said kindly; nothing is started)."""
    asked = [form.get(f"tiebreak-{i}") for i in range(1, CHAIN_SELECTS + 1)]
    chain = [name for name in asked if name]
    if any(name not in CRITERIA for name in chain) or len(set(chain)) != len(chain):
        return _("Choose each tie-break at most once.")
    # A form without the selects at all (an older page, a script) keeps the chain events had before (SOS, SODOS).
    tiebreaks = None if all(name is None for name in asked) else tuple(chain)
    cap = _whole(form.get("handicap-cap", ""), 1, LIMIT)
    less = _whole(form.get("handicap-less", ""), 1, LIMIT)
    top = _whole(form.get("even-top", ""), 2, 999)
    if "bad" in (cap, less, top):
        return _(
            "The handicap: at most 1 to %(limit)d starting moves, 1 to %(limit)d moves less, and the strongest 2 or "
            "more playing even. Leave a box empty for the board's handicap.",
            limit=LIMIT,
        )
    keys = {nick_key(n): n for n in players}
    avoid: list[tuple[str, str]] = []
    for row in range(1, AVOID_ROWS + 1):
        a, b = form.get(f"avoid-{row}-a", ""), form.get(f"avoid-{row}-b", "")
        if not a and not b:
            continue
        if not a or not b or nick_key(a) == nick_key(b) or nick_key(a) not in keys or nick_key(b) not in keys:
            return _("A pair that should not meet early is two different players who play in the event.")
        pair = frozenset((nick_key(a), nick_key(b)))
        if any(frozenset((nick_key(x), nick_key(y))) == pair for x, y in avoid):
            return _("A pair that should not meet early is two different players who play in the event.")
        avoid.append((keys[nick_key(a)], keys[nick_key(b)]))
    bounds: list[int] = []
    for word in form.get("classes", "").replace(";", " ").split():
        number = typed_number(word)
        try:
            if number is None:
                raise ValueError
            bounds.append(quarters(number))
        except ValueError:
            return _("Class prizes: type the fields where a class begins, smallest first, e.g. 20 30.")
    if bounds != sorted(set(bounds)) or any(q <= 0 for q in bounds) or len(bounds) > 5:
        return _("Class prizes: type the fields where a class begins, smallest first, e.g. 20 30.")
    return Choices(
        tiebreaks=tiebreaks,
        unique_places=form.get("unique") == "yes",
        handicap_cap=cap if isinstance(cap, int) else None,
        handicap_less=less if isinstance(less, int) else 0,
        even_top=top if isinstance(top, int) else 0,
        avoid=tuple(avoid),
        first_round=FOLD if form.get("first-round") == FOLD else "adjacent",
        prize_classes=tuple(bounds),
    )


def policy_text(event: Tournament) -> str:
    """The event's handicap policy in a sentence (empty: the board's full handicap)."""
    if is_default(event.handicap_cap, event.handicap_less, event.even_top):
        return ""
    parts = []
    if event.handicap_less:
        parts.append(
            ngettext(
                "%(num)d starting move less than the board's table",
                "%(num)d starting moves less than the board's table",
                event.handicap_less,
            )
        )
    if event.handicap_cap:
        parts.append(ngettext("at most %(num)d starting move", "at most %(num)d starting moves", event.handicap_cap))
    if event.even_top:
        parts.append(_("the strongest %(num)d play each other even", num=event.even_top))
    return _("Handicap: %(rules)s.", rules="; ".join(parts))


@dataclass(frozen=True, slots=True)
class Why:
    """One standings line's "why is she above me": the line above, the steps, what decided."""

    upper: str
    lower: str
    steps: tuple[tuple[str, str, str, bool], ...]  # name, upper's number, lower's number, decided here
    decided: str  # a sentence


def _number(step: Step) -> tuple[str, str]:
    if step.name == STRENGTH:
        return _strength_text(step.upper), _strength_text(step.lower)
    return _points_text(step.upper), _points_text(step.lower)


def _strength_text(value: Fraction | int | None) -> str:
    return format_strength(value) if isinstance(value, int) else ""


def _points_text(value: Fraction | int | None) -> str:
    return points(Fraction(value)) if value is not None else ""


def why_lines(event: Tournament, table: Sequence[Standing], shown: Mapping[str, str]) -> list[Why | None]:
    """For each line of ``table``: why the line above it is above it, with the numbers (None for the first)."""
    seats = list(event.seats)
    ranked = rank(
        [(p.nick, p.strength) for p in event.players], seats, reached(seats), event.tiebreaks, event.unique_places
    )
    by_key = {r.key: r for r in ranked}
    strengths = {nick_key(p.nick): p.strength for p in event.players}
    names = criterion_names()
    out: list[Why | None] = [None] if table else []
    for above, line in pairwise(table):
        upper: Ranked = by_key[nick_key(above.nick)]
        lower: Ranked = by_key[nick_key(line.nick)]
        steps, decided = why_above(upper, lower, event.tiebreaks, strengths)
        rows = []
        for step in steps:
            first, second = _number(step)
            label = _("Strength at the start") if step.name == STRENGTH else names[step.name]
            rows.append((label, first, second, step is steps[-1] and decided != SHARED))
        a, b = shown.get(nick_key(above.nick), above.nick), shown.get(nick_key(line.nick), line.nick)
        if decided == SHARED:
            sentence = _("%(a)s and %(b)s are equal on everything: they share the place.", a=a, b=b)
        elif decided == STRENGTH:
            sentence = _("Equal on everything: the stronger at the start goes first (unique places).")
        else:
            sentence = _("%(what)s decided.", what=names[decided])
        out.append(Why(a, b, tuple(rows), sentence))
    return out


def prize_list(event: Tournament, table: Sequence[Standing]) -> list[tuple[Prize, str]]:
    """The event's prizes with what each is for, in the phone's words."""
    said = []
    for prize in prizes(table, event.prize_classes):
        said.append((prize, prize_name(prize)))
    return said


def prize_name(prize: Prize, written: str | None = None) -> str:
    """A prize as the page and its certificate name it (``written``: the language of its numbers, else the phone's)."""
    if prize.kind == PLACE:
        return _("Place %(place)d", place=prize.place)
    if prize.kind == WINS:
        return _("The most wins (%(num)d)", num=prize.wins)
    first, last = class_grades(prize.low, prize.high)

    def field(q: int) -> str:
        return decimal_mark(format_strength(q), written or language())

    if prize.low is None and prize.high is not None:
        return _("Best below field %(high)s (%(grade)s and weaker)", high=field(prize.high), grade=last)
    if prize.low is not None and prize.high is None:
        return _("Best from field %(low)s (%(grade)s and stronger)", low=field(prize.low), grade=first)
    assert prize.low is not None and prize.high is not None
    return _(
        "Best of fields %(low)s to %(top)s (%(first)s to %(last)s)",
        low=field(prize.low),
        top=field(prize.high - 1),
        first=first,
        last=last,
    )


@bp.get("/event/<int:event_id>/certificate/<kind>/<path:nick>.png")
@owner_required
def certificate_png(event_id: int, kind: str, nick: str) -> object:
    """One prize's certificate as a PNG to print: ``?lang=pl&paper=A4`` (default: the club's language, A5)."""
    from web.pictures import event_certificate_picture

    store = get_store()
    event = tournaments.get(store, event_id)
    chosen = request.args.get("lang", store.config.language)
    paper = request.args.get("paper", "A5").upper()
    if chosen not in LANGUAGES or paper not in PAPERS:
        return refused(_("A certificate is printed in English or Polish, on A5 or A4."))
    if event is None or kind not in KINDS:
        return refused(_("There is no such prize in this event."), 404)
    from kiosk.tournament import event_standings

    table = event_standings(event)
    found = next(
        (p for p in prizes(table, event.prize_classes) if p.kind == kind and nick_key(p.nick) == nick_key(nick)),
        None,
    )
    if found is None:
        return refused(_("There is no such prize in this event."), 404)
    title = _certificate_title(found, chosen)
    name = event.name or _("Event %(number)d", number=event.id)
    # A class prize's grades go on the line below its title, with the event's name: a sheet's title line is short.
    title, _open, grades = title.partition(" (")
    reason = f"{grades.rstrip(')')} · {name}" if grades else name
    picture = event_certificate_picture(
        title, found.nick, reason, event.evening.isoformat(), store.config.club_name, chosen, paper
    )
    return send_file(
        io.BytesIO(picture), mimetype="image/png", as_attachment=True, download_name=f"event-{event.id}-{kind}.png"
    )


def _certificate_title(prize: Prize, language: str) -> str:
    """The prize's name in the certificate's language (which may not be the phone's)."""
    from flask_babel import force_locale

    with force_locale(language):
        return prize_name(prize, language)
