"""The month's awards on the owner's pages, and a printable certificate PNG per award.

Thin: the awards are ``kiosk.awards``, the certificate ``display.certificate``, drawn through
web/pictures.py (the web's one door to the wall's pictures, imported only when one is asked for).
"""

from __future__ import annotations

import io
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request, send_file, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from kiosk.awards import (
    KINDS,
    Award,
    Month,
    MonthAwards,
    month_name,
    month_of,
    next_month,
    parse_month,
    previous_month,
    read_month,
    shown_month,
)
from kiosk.config import LANGUAGES
from web.auth import owner_required
from web.clock import now
from web.i18n import language
from web.pictures import certificate_picture
from web.request_store import get_store

bp = Blueprint("awards", __name__, url_prefix="/owner/awards")

PAPERS = ("A5", "A4")


# The awards of recent months, by data folder, month and the store's change counter: a player page
# reads two months, and with a long history that is a few hundred milliseconds on a Pi, between games
# always the same.
_CACHE: dict[tuple[str, Month, int], MonthAwards] = {}
CACHED = 16


def awards_of(month: Month) -> MonthAwards:
    """A month's awards as the store says now (remembered until the next write)."""
    store = get_store()
    key = (current_app.config["SEMEDORI_HOME"], month, store.change_counter())
    found = _CACHE.get(key)
    if found is None:
        found = read_month(store, month)
        if len(_CACHE) >= CACHED:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = found
    return found


def award_names() -> dict[str, str]:
    """Each award's name in the user's language."""
    return {
        "improved": _("Most improved"),
        "games": _("Most games"),
        "opponents": _("Most different opponents"),
        "even": _("First even game with a stronger player"),
    }


def award_detail(award: Award) -> str:
    """What earned an award, in short: ``↑5``, ``12 games``, ``with Piotr``."""
    if award.kind == "improved":
        return f"↑{award.count}"
    if award.kind == "games":
        return ngettext("%(num)d game", "%(num)d games", award.count)
    if award.kind == "opponents":
        return ngettext("%(num)d opponent", "%(num)d opponents", award.count)
    return _("with %(nick)s", nick=award.opponent or "")


def month_text(month: Month) -> str:
    """A month as a person says it, in the user's language: ``November 2026``, ``listopad 2026``."""
    return month_name(month, language())


def month_key(month: Month) -> str:
    """A month as an address writes it: ``2026-11``."""
    return f"{month[0]:04d}-{month[1]:02d}"


def refused(text: str, status: int = 400) -> tuple[str, int]:
    """A clear message on the owner's page; nothing changes."""
    return render_template("error.html", status=status, text=text), status


@bp.get("/")
@owner_required
def month_page() -> Any:
    """A month's awards with a certificate to download for each winner (the month the wall shows by default)."""
    raw = request.args.get("month", "")
    month = parse_month(raw) if raw else shown_month(now())
    if month is None:
        return refused(_("“%(month)s” is not a month: write it as 2026-11.", month=raw[:20]))
    paper = request.args.get("paper", "A5").upper()
    chosen = request.args.get("lang", language())
    if paper not in PAPERS or chosen not in LANGUAGES:
        return refused(_("A certificate is printed in English or Polish, on A5 or A4."))
    awards = awards_of(month)
    current = month_of(now())
    key = month_key(month)
    return render_template(
        "owner/awards.html",
        month=month,
        key=key,
        month_text=month_text(month),
        awards=[(kind, awards.of(kind)) for kind in KINDS],
        names=award_names(),
        detail=award_detail,
        earlier=url_for("awards.month_page", month=month_key(previous_month(month)), paper=paper, lang=chosen),
        later=url_for("awards.month_page", month=month_key(next_month(month)), paper=paper, lang=chosen)
        if month < current
        else None,
        paper=paper,
        chosen=chosen,
        choices=[
            (code, url_for("awards.month_page", month=key, paper=p, lang=code), code == chosen and p == paper, p)
            for p in PAPERS
            for code in LANGUAGES
        ],
    )


@bp.get("/<month_key>/<kind>/<path:nick>.png")
@owner_required
def certificate_png(month_key: str, kind: str, nick: str) -> Any:
    """One award's certificate as a PNG to print: ``?lang=pl&paper=A4`` (default: the club's language, A5)."""
    month = parse_month(month_key)
    if month is None:
        return refused(_("“%(month)s” is not a month: write it as 2026-11.", month=month_key[:20]))
    chosen = request.args.get("lang", get_store().config.language)
    paper = request.args.get("paper", "A5").upper()
    if chosen not in LANGUAGES or paper not in PAPERS:
        return refused(_("A certificate is printed in English or Polish, on A5 or A4."))
    award = awards_of(month).find(kind, nick) if kind in KINDS else None
    if award is None:
        return refused(_("%(nick)s has no such award in %(month)s.", nick=nick[:40], month=month_text(month)), 404)
    buffer = io.BytesIO(certificate_picture(award, get_store().config.club_name, chosen, paper))
    name = f"award-{month_key}-{kind}-{chosen}.png"
    response: Response = send_file(buffer, mimetype="image/png", as_attachment=True, download_name=name)
    return response
