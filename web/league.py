"""Late arrivals, returns, leagues, the archive, a deleted event and a roster import.

Thin like web/event.py, whose page it answers on: each POST checks its form's CSRF token itself,
calls one use case of ``kiosk.services.league`` and redirects, or shows the event page again with
the reason (English or Polish, by the phone). The rules are ``kiosk.league``'s, the lists'
``kiosk.roster``'s.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response as WerkzeugResponse
from wtforms import HiddenField, StringField

from kiosk import league
from kiosk.errors import HistoryError, SemedoriError, StoreError
from kiosk.events import nick_key
from kiosk.roster import from_csv, from_opengotha
from kiosk.services import league as leagues
from kiosk.services import tournaments
from kiosk.tournament import Tournament
from web import public
from web.auth import OWNER, owner_required
from web.clock import now as kiosk_now
from web.event import _evening, _page, _size, format_name
from web.forms import PostForm, answers_stale_form, stale_form
from web.i18n import message
from web.recording import phone_origin, remember_phone
from web.request_store import get_store
from web.words import player_message, strength

bp = Blueprint("league", __name__)

FILE_LIMIT = 1_000_000  # bytes of an uploaded list read at all (a club's roster is a few kilobytes)


class PlayerForm(PostForm):
    """A player of an event: who joins, comes back, or whose ask the owner answers (``answer``: yes or no)."""

    player = StringField()
    answer = HiddenField()


class SureForm(PostForm):
    """An owner's step that asks first (``sure``: the owner said yes)."""

    sure = HiddenField()


def _refusal(status: str, nick: str, event: Tournament | None) -> str:
    """Why a join, a return or an ask could not be, in the reader's words."""
    if status == leagues.TOO_LATE and event is not None:
        return _(
            "Too late to join: %(nick)s could miss at most %(most)d of the %(rounds)d rounds, and %(made)d are paired.",
            nick=nick,
            most=league.join_limit(event.rounds),
            rounds=event.rounds,
            made=event.made,
        )
    if status == leagues.ROUND_ROBIN:
        return _("A round-robin takes nobody late: its rounds were all made at the start.")
    if status == leagues.PLAYING:
        return _("%(nick)s plays in this event already.", nick=nick)
    if status == leagues.NOT_GONE:
        return _("%(nick)s never went home: nothing to come back from.", nick=nick)
    if status == leagues.NOBODY:
        return _("Nobody called %(nick)s is on this board size. Check the nickname.", nick=nick)
    if status == leagues.ASKED:
        return _("You asked already: the owner will answer on the event page.")
    return _("This event is over or closed: nobody can join or come back now.")


def _event_or_gone(event_id: int) -> Tournament | None:
    return tournaments.get(get_store(), event_id)


def _said(error: SemedoriError) -> tuple[str, int]:
    return player_message(error), 503 if isinstance(error, StoreError) else 400


@bp.post("/event/<int:event_id>/join")
@answers_stale_form
@owner_required
def join(event_id: int) -> WerkzeugResponse | tuple[str, int]:
    """The owner lets a late starter join (from the next round paired; the rounds missed by the event's setting)."""
    return _player_step(
        event_id,
        leagues.join,
        lambda nick, number: _("%(nick)s joined: they play from round %(round)d.", nick=nick, round=number),
    )


@bp.post("/event/<int:event_id>/return")
@answers_stale_form
@owner_required
def come_back(event_id: int) -> WerkzeugResponse | tuple[str, int]:
    """The owner brings back a player who went home."""
    return _player_step(
        event_id,
        leagues.come_back,
        lambda nick, number: _("%(nick)s is back: they play again from round %(round)d.", nick=nick, round=number),
    )


def _checked(event_id: int, form: FlaskForm) -> Tournament | tuple[str, int]:
    """The event a step of this page is for, or the page that says why not: a stale form, an event deleted since.

    Every step checks both first, in this order, and writes nothing when either fails.
    """
    event = _event_or_gone(event_id)
    if not form.validate_on_submit():
        return _page(event, 400, stale_form())
    if event is None:
        return _page(None, 404, _("That event is not there any more."))
    return event


Step = Callable[..., tuple[str, Tournament | None]]


def _player_step(event_id: int, step: Step, saved: Callable[[str, int], str]) -> WerkzeugResponse | tuple[str, int]:
    form = PlayerForm()
    event = _checked(event_id, form)
    if not isinstance(event, Tournament):
        return event
    nick = (form.player.data or "").strip()[:100]
    try:
        status, after = step(get_store(), event_id, nick, kiosk_now(), origin=OWNER)
    except SemedoriError as error:
        return _page(event, _said(error)[1], _said(error)[0])
    if status != leagues.SAVED or after is None:
        return _page(event, 400, _refusal(status, nick, event))
    flash(saved(_spelled(after, nick), _first_round(after, nick)), "ok")
    return redirect(url_for("event.show", event_id=event_id, _anchor="standings"))


def _spelled(event: Tournament, nick: str) -> str:
    return next((p.nick for p in event.players if nick_key(p.nick) == nick_key(nick)), nick)


def _first_round(event: Tournament, nick: str) -> int:
    key = nick_key(nick)
    back = [number for name, _left, number in event.returned if nick_key(name) == key]
    return back[-1] if back else (event.joined_from(nick) or event.current)


@bp.post("/event/<int:event_id>/ask")
@answers_stale_form
def ask(event_id: int) -> WerkzeugResponse | tuple[str, int]:
    """A player's phone asks to join the event late, or to come back after going home; the owner confirms."""
    form = PlayerForm()
    event = _checked(event_id, form)
    if not isinstance(event, Tournament):
        return event
    typed = (form.player.data or "").strip()[:100]
    nick = public.visible(public.nick_for(typed)) if typed else None
    if nick is None:  # a stranger's name and a hidden child's are the same answer
        return _page(event, 400, _("Nobody called %(nick)s is on this board size. Check the nickname.", nick=typed))
    try:
        status, _after = leagues.ask(get_store(), event_id, nick, kiosk_now(), origin=phone_origin())
    except SemedoriError as error:
        return _page(event, _said(error)[1], _said(error)[0])
    shown = public.label_of(nick)
    if status != leagues.SAVED:
        return _page(event, 400, _refusal(status, shown, event))
    flash(_("Asked: the owner will confirm, %(nick)s. Then you are paired from the next round.", nick=shown), "ok")
    return remember_phone(redirect(url_for("event.show", event_id=event_id, _anchor="late")))


@bp.post("/event/<int:event_id>/answer")
@answers_stale_form
@owner_required
def answer(event_id: int) -> WerkzeugResponse | tuple[str, int]:
    """The owner answers a phone's ask: yes (the join or return itself) or no."""
    form = PlayerForm()
    event = _checked(event_id, form)
    if not isinstance(event, Tournament):
        return event
    if form.answer.data not in ("yes", "no"):
        return _page(event, 400, stale_form())
    nick = (form.player.data or "").strip()[:100]
    yes = form.answer.data == "yes"
    try:
        status, after = leagues.answer(get_store(), event_id, nick, yes, kiosk_now(), origin=OWNER)
    except SemedoriError as error:
        return _page(event, _said(error)[1], _said(error)[0])
    if status == leagues.NOBODY:
        return _page(event, 400, _("Nobody is asking under that name any more."))
    if status not in (leagues.SAVED, leagues.ALREADY) or after is None:
        return _page(event, 400, _refusal(status, nick, event))
    if yes:
        flash(_("%(nick)s is in: they play from round %(round)d.", nick=nick, round=_first_round(after, nick)), "ok")
    else:
        flash(_("You said no to %(nick)s.", nick=nick), "ok")
    return redirect(url_for("event.show", event_id=event_id, _anchor="late"))


@bp.post("/event/<int:event_id>/delete")
@answers_stale_form
@owner_required
def delete(event_id: int) -> WerkzeugResponse | tuple[str, int]:
    """The owner deletes an event made by mistake, after a confirm; its tapped games stay games."""
    store = get_store()
    form = SureForm()
    event = _checked(event_id, form)
    if not isinstance(event, Tournament):
        return event
    if form.sure.data != "yes":
        found = tournaments.folded(store, event_id)
        games = len(found.games) if found is not None else 0
        return render_template("event/delete.html", event=event, games=games, form=SureForm()), 200
    try:
        leagues.delete(store, event_id, kiosk_now(), origin=OWNER)
    except SemedoriError as error:
        return _page(event, _said(error)[1], _said(error)[0])
    flash(_("The event was deleted. Its games stay in the games list."), "ok")
    return redirect(url_for("league.archive"))


@bp.post("/event/<int:event_id>/evening")
@answers_stale_form
@owner_required
def evening(event_id: int) -> WerkzeugResponse | tuple[str, int]:
    """The owner begins tonight's rounds of a league: its next round, paired among its players checked in."""
    store = get_store()
    form = SureForm()
    event = _checked(event_id, form)
    if not isinstance(event, Tournament):
        return event
    try:
        status, after = leagues.pair_evening(store, event_id, _evening(), kiosk_now(), origin=OWNER)
    except SemedoriError as error:
        if isinstance(error, HistoryError) and error.code == "event-open":
            return _page(event, 409, _("Tonight's event is still open. Close it before starting a new one."))
        return _page(event, _said(error)[1], _said(error)[0])
    if status == leagues.SAVED and after is not None:
        flash(_("Round %(round)d is paired among tonight's players.", round=after.made), "ok")
        return redirect(url_for("event.show", event_id=event_id, _anchor="boards"))
    problems = {
        leagues.ON_NOW: _("Round %(round)d is still being played: finish it first.", round=event.current),
        leagues.FEW: _("Fewer than two of the league's players have checked in tonight."),
        leagues.NO_PAIRING: _("Everyone here tonight has already played each other in this league."),
        leagues.NOT_LEAGUE: _("This event is for one evening only."),
    }
    return _page(event, 400, problems.get(status, _("This event is over or closed: nobody can join or come back now.")))


@bp.get("/events")
def archive() -> str:
    """Every event there is, the latest first: the club's archive."""
    events = leagues.archive(get_store())
    return render_template("event/archive.html", events=events, format_name=format_name)


@bp.post("/event/roster")
@answers_stale_form
@owner_required
def roster() -> WerkzeugResponse | tuple[str, int]:
    """The owner brings a list of players (a CSV roster, or an OpenGotha file) onto tonight's list for the start."""
    form = SureForm()
    if not form.validate_on_submit():
        return _page(None, 400, stale_form())
    upload = request.files.get("roster")
    raw = upload.read(FILE_LIMIT + 1) if upload is not None else b""
    size = _size()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = "\x00"  # refused below, as any file that is no list
    try:
        if len(raw) > FILE_LIMIT:
            raise HistoryError("roster-not-csv")
        rows = from_opengotha(text, size) if text.lstrip().startswith("<") else from_csv(text, size)
        done = leagues.import_roster(get_store(), _evening(), rows, kiosk_now(), origin=OWNER)
    except SemedoriError as error:
        said, status = message(error), 503 if isinstance(error, StoreError) else 400  # a list's line number stays
        return _page(None, status, _("Nothing was imported: %(problem)s", problem=said))
    flash(
        _(
            "%(here)d players are on tonight's list (%(new)d new on the board). Tick who plays, then start.",
            here=len(get_store().checked_in(_evening())),
            new=len(done.added),
        ),
        "ok",
    )
    for nick, board, listed in done.elsewhere:
        flash(
            _(
                "%(nick)s hangs at %(board)s on the board, not %(listed)s: the board's field stays.",
                nick=nick,
                board=strength(board),
                listed=strength(listed),
            ),
            "info",
        )
    return redirect(url_for("event.tonight_event", size=size, _anchor="start"))
