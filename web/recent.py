"""The owner's "recently entered" games: entry order, origin, late entries flagged, a batch voided at once.

The games list shows games by when they were played, so a game dated two months back
lands where nobody looks. Here the owner sees what was *entered* lately, newest first,
with who entered it (a phone, an API client, an import, the owner) and a flag on games
entered long after they were played; one tap voids every standing game of one origin in
the list.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from kiosk.services import games
from kiosk.store import Entry
from web.auth import OWNER, no_store, owner_required
from web.clock import now as kiosk_now
from web.forms import OwnerForm, answers_stale_form
from web.i18n import message
from web.request_store import get_store

bp = Blueprint("recent", __name__, url_prefix="/owner/recent")

SHOWN = 200  # game entries listed
LATE = timedelta(days=1)  # entered this long after it was played: flagged


@dataclass(frozen=True)
class Recent:
    """One entered game as the owner's list shows it."""

    game_id: int
    played: datetime  # club time
    entered: datetime  # club time
    players: list[str]
    winner: str | None
    origin: str
    standing: bool  # not voided since
    late: timedelta | None  # how long after it was played it was entered, when that is long
    copy_of: int | None = None  # a standing game that looks like a copy of this earlier one


def origin_label(origin: str | None) -> str:
    """Who entered a game, in the owner's words (a phone by the start of its random cookie)."""
    kind, _sep, detail = (origin or "").partition(":")
    if kind == "phone":
        return _("phone %(id)s", id=detail[:6])
    if kind == "api":
        return _("API client %(address)s", address=detail) if detail else _("API client")
    return {"import": _("import"), "owner": _("owner"), "cli": _("command line")}.get(kind, origin or "?")


def recent_games() -> list[Recent]:
    """The latest game entries, newest entry first."""
    store = get_store()
    zone = store.config.zone
    found = []
    standing: list[tuple[int, Entry]] = []
    for entry in store.entries(limit=SHOWN, types=["game"]):
        game_id = entry.line["id"]  # the store writes every game's line with its id (imports too)
        played = datetime.fromisoformat(entry.line["at"])
        entered = entry.entered.astimezone(zone).replace(tzinfo=None)
        late = entered - played
        if store.game(game_id) is not None:
            standing.append((game_id, entry))
        found.append(
            Recent(
                game_id=game_id,
                played=played,
                entered=entered,
                players=list(entry.line.get("players", [])),
                winner=entry.line.get("winner"),
                origin=entry.origin or "?",
                standing=store.game(game_id) is not None,
                late=late if late >= LATE and entry.origin != "import" else None,  # an import is late by nature
            )
        )
    copies = games.likely_copies(standing, store.config.same_game_minutes)
    return [replace(g, copy_of=copies.get(g.game_id)) for g in found]


bp.after_request(no_store)


@bp.get("/")
@owner_required
def recent() -> tuple[str, int]:
    """The list, with one "void these" button per origin that has standing games in it."""
    return _page(OwnerForm())


def _page(form: OwnerForm, status: int = 200, confirm: dict[str, object] | None = None) -> tuple[str, int]:
    games = recent_games()
    batches: dict[str, int] = {}
    for game in games:
        if game.standing:
            batches[game.origin] = batches.get(game.origin, 0) + 1
    form.fresh()
    page = render_template(
        "owner/recent.html",
        games=games,
        batches=batches,
        form=form,
        label=origin_label,
        late_days=late_days,
        confirm=confirm,
    )
    return page, status


def late_days(late: timedelta) -> int:
    """Whole days of a late entry."""
    return late.days


@bp.post("/void")
@answers_stale_form
@owner_required
def void_batch() -> Response | tuple[str, int]:
    """Void every standing game of one origin in the list (one void event each, in the history)."""
    form = OwnerForm()
    origin = request.form.get("origin", "")
    if not form.validate_on_submit():  # the form says why (a stale or forged token), nothing is voided
        return _page(form, 400)
    doomed = [g.game_id for g in recent_games() if g.standing and g.origin == origin]
    # The first tap only asks: the owner types how many games go, so 99 games never go by one tap.
    typed = (request.form.get("count") or "").strip()[:20]
    if not doomed:  # voided meanwhile (or never there): nothing to ask
        flash(_("No game from %(origin)s is left to void.", origin=origin_label(origin)), "ok")
        return redirect(url_for("recent.recent"))
    if typed != str(len(doomed)):
        confirm: dict[str, object] = {"origin": origin, "count": len(doomed), "typed": typed}
        if typed:
            form.problems = {
                "count": ngettext(
                    "Number of games: %(typed)s is not the number. %(num)d game from %(origin)s would be voided: "
                    "type %(num)d to void it.",
                    "Number of games: %(typed)s is not the number. %(num)d games from %(origin)s would be voided: "
                    "type %(num)d to void them.",
                    len(doomed),
                    typed=typed,
                    origin=origin_label(origin),
                )
            }
        form.once.data = None  # a fresh token for the confirming tap: this one saved nothing
        return _page(form, 400 if typed else 200, confirm=confirm)
    store = get_store()
    now = kiosk_now()  # the phones' time while the Pi has no internet time, as for every write
    key = form.once_key("owner")
    voided = 0
    try:
        voided = games.void_batch(store, doomed, now, OWNER, f"voided with the other games of {origin}", key)
    except games.PartlyVoided as stopped:
        voided = stopped.voided
        flash(message(stopped.error), "error")
    done = ngettext(
        "%(num)d game from %(origin)s was voided; the board was replayed.",
        "%(num)d games from %(origin)s were voided; the board was replayed.",
        voided,
        origin=origin_label(origin),
    )
    flash(done, "ok")
    return redirect(url_for("recent.recent"))
