"""Recording at the table: a new game, its confirmation, undo, and adding a guest."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.wrappers import Response

from kiosk import clockfile
from kiosk.clock import TOLERANCE, ClockState
from kiosk.errors import SemedoriError, StoreError
from kiosk.events import Void, nick_key
from kiosk.names import similar
from kiosk.pairing import Pairing, for_players
from kiosk.recording import club_now, new_game, new_guest, starting_field
from web.forms import ActionForm, GameForm, OnceForm, PlayerForm
from web.i18n import message
from web.owner import is_owner
from web.store import get_store

bp = Blueprint("recording", __name__)

PHONE_COOKIE = "phone"
UNDO_MINUTES = 10


# --- the phone that recorded a game ---------------------------------------------------


def phone_origin() -> str:
    """This phone's origin mark for the history (a random cookie, not a person)."""
    token = request.cookies.get(PHONE_COOKIE, "")
    if len(token) < 16 or not token.isascii():
        token = g.setdefault("new_phone", secrets.token_urlsafe(16))
    return f"phone:{token}"


def remember_phone(response: Response) -> Response:
    """Give a phone its cookie the first time it records something."""
    token = g.get("new_phone")
    if token:
        response.set_cookie(PHONE_COOKIE, token, max_age=365 * 24 * 3600, httponly=True, samesite="Lax")
    return response


def undo_minutes_left(game_id: int) -> int:
    """Minutes this phone may still undo the game; 0 when it may not."""
    entry = get_store().game_entry(game_id)
    if entry is None or request.cookies.get(PHONE_COOKIE) is None or entry.origin != phone_origin():
        return 0
    left = entry.entered + timedelta(minutes=UNDO_MINUTES) - datetime.now(UTC)
    return max(0, -(-int(left.total_seconds()) // 60))


def stale_form() -> str:
    """Why a form without a valid CSRF token saved nothing."""
    return _("This form is too old or was not sent from this site; nothing was saved. Please try again.")


def form_key(form: OnceForm) -> str | None:
    """The idempotency key of a form; none when it came without its one-time token.

    A shared key such as ``form:None`` would make every such form a repeat of the first one,
    answered with that first result while nothing new was saved.
    """
    return f"form:{form.once.data}" if form.once.data else None


def now() -> datetime:
    """The club's local time now, by the kiosk's clock (the phones' while the Pi has no NTP)."""
    return club_now(get_store().config, kiosk_utc_now())


# --- the kiosk's clock: the Pi's, or the phones' while the Pi has no internet time ----------


def pi_clock() -> datetime:
    """The Pi's own clock (UTC); the browser tests give the app a skewed one."""
    return current_app.config.get("SEMEDORI_PI_CLOCK", lambda: datetime.now(UTC))()


def _timesync_flag() -> Path:
    return Path(current_app.config.get("SEMEDORI_TIMESYNC_FLAG", clockfile.SYNCHRONIZED))


def kiosk_utc_now() -> datetime:
    """The kiosk's time (UTC), read without learning anything."""
    return clockfile.current(Path(current_app.config["SEMEDORI_HOME"]), pi_clock(), _timesync_flag())[0]


def kiosk_clock_state() -> ClockState:
    """What the kiosk knows about the time now (for the owner page)."""
    return clockfile.current(Path(current_app.config["SEMEDORI_HOME"]), pi_clock(), _timesync_flag())[1]


def hear_phone_clock() -> datetime:
    """Learn from the phone's clock the form carried (hidden field ``phone_clock``); the kiosk's UTC now."""
    folder = Path(current_app.config["SEMEDORI_HOME"])
    return clockfile.heard(folder, request.form.get("phone_clock", ""), pi_clock(), _timesync_flag())


def corrected_at(at: str | None, utc_now: datetime) -> str | None:
    """The form's time, moved by what the clock learned since the form was shown.

    A time left as the form showed it was the kiosk's clock at that moment; if the phones have
    since shown that clock wrong (a Pi nine days behind), the game moves with the correction.
    A time the player typed is theirs and stays.
    """
    shown, offset_then = request.form.get("shown_at", ""), request.form.get("shown_offset", "")
    if not at or at != shown or not offset_then.lstrip("-").isdecimal():
        return at
    state = clockfile.load(Path(current_app.config["SEMEDORI_HOME"]))
    learned = state.offset - timedelta(seconds=int(offset_then))
    if abs(learned) <= TOLERANCE:
        return at
    # The form shows whole minutes: a correction of 9 days less 3 s must not make 18:59 of 19:00.
    learned = timedelta(minutes=round(learned.total_seconds() / 60))
    try:
        moved = datetime.fromisoformat(at) + learned
    except ValueError:
        return at
    return min(moved, club_now(get_store().config, utc_now)).strftime("%Y-%m-%dT%H:%M")


@bp.app_context_processor
def _clock_offset() -> dict[str, Any]:
    def clock_offset() -> int:
        """The clock's offset as the form is shown, for corrected_at when it comes back."""
        return int(clockfile.load(Path(current_app.config["SEMEDORI_HOME"])).offset.total_seconds())

    return {"clock_offset": clock_offset}


# --- a new game --------------------------------------------------------------------------


def preview(size: str | None, a: str | None, b: str | None) -> tuple[Pairing | None, str]:
    """The handicap of the pairing typed so far, or why there is none yet."""
    if not a or not b or size not in ("9", "13", "19"):
        return None, ""
    try:
        return for_players(get_store().magnets(), int(size), a, b, get_store().config), ""
    except SemedoriError as error:
        return None, message(error)


def game_fields(form: GameForm) -> dict[str, Any]:
    """The form's fields as the core's game line: winner nick or None, margin, time."""
    a, b = (form.a.data or "").strip(), (form.b.data or "").strip()
    choice = form.winner.data or ""
    if choice not in ("a", "b", "draw"):
        raise ValueError(_("Choose who won, or draw."))
    winner = {"a": a, "b": b, "draw": None}[choice]
    by: object = None
    if winner is not None and form.by.data == "resignation":
        by = "resignation"
    elif winner is not None and form.by.data == "points":
        by = _points(form.points.data or "")
    size = int(form.size.data) if (form.size.data or "").isdecimal() else form.size.data
    return {"size": size, "players": [a, b], "winner": winner, "by": by, "at": (form.at.data or "").strip() or None}


def _points(raw: str) -> float | str:
    """The typed margin as a number (a decimal comma too); other text goes on as typed, for the core to refuse."""
    text = raw.strip().replace(",", ".")
    if not text:
        raise ValueError(_("Type the margin in points, or pick resignation."))
    try:
        return float(text)
    except ValueError:
        return raw


@bp.get("/new")
def new() -> str:
    """The new-game form, with the handicap of the pairing when both players are known."""
    form = GameForm(formdata=request.args if request.args else None)
    form.fresh()
    if not form.at.data:
        form.at.data = now().strftime("%Y-%m-%dT%H:%M")
    pairing, problem = preview(form.size.data, form.a.data, form.b.data)
    return render_template("new_game.html", form=form, pairing=pairing, problem=problem, nicks=_nicks())


@bp.post("/new")
def record_game() -> Response | tuple[str, int]:
    """Save a game and show how both magnets moved (Post/Redirect/Get)."""
    form = GameForm()
    if request.form.get("action") == "preview":  # without JavaScript: show the handicap, save nothing
        pairing, problem = preview(form.size.data, form.a.data, form.b.data)
        return render_template("new_game.html", form=form, pairing=pairing, problem=problem, nicks=_nicks()), 200
    status = 400
    if form.validate_on_submit():
        try:
            fields = game_fields(form)
            utc_now = hear_phone_clock()
            at = corrected_at(fields["at"], utc_now)
            game = new_game(fields["size"], fields["players"], fields["winner"], fields["by"], at,
                            club_now(get_store().config, utc_now))
            recorded = get_store().record(game, key=form_key(form), origin=phone_origin())
        except (SemedoriError, ValueError) as error:
            form.form_errors.append(message(error) if isinstance(error, SemedoriError) else str(error))
            status = 503 if isinstance(error, StoreError) else 400  # a full card is the kiosk's fault
        else:
            if recorded.game is None:  # this very form was saved, then the game undone: start afresh
                flash(_("That game was undone. To record it again, fill in a new form."), "error")
                return redirect(url_for("recording.new", size=form.size.data, a=form.a.data, b=form.b.data))
            return remember_phone(redirect(url_for("recording.game", game_id=recorded.game.id, saved=1)))
    elif form.csrf_token.errors:
        form.form_errors.append(stale_form())
    pairing, problem = preview(form.size.data, form.a.data, form.b.data)
    page = render_template("new_game.html", form=form, pairing=pairing, problem=problem, nicks=_nicks())
    return page, status


@bp.get("/new/handicap")
def handicap_preview() -> str:
    """The handicap box alone, for the form's script to drop in as players are typed."""
    pairing, problem = preview(request.args.get("size"), request.args.get("a"), request.args.get("b"))
    return render_template("handicap_box.html", pairing=pairing, problem=problem)


def _nicks() -> list[str]:
    """Every nickname on the board, for the type-ahead list."""
    seen: dict[str, str] = {}
    try:
        magnets = get_store().magnets()
    except StoreError:  # a card that cannot even be opened: the form still comes back as typed
        magnets = ()
    for magnet in magnets:
        seen.setdefault(nick_key(magnet.nick), magnet.nick)
    return sorted(seen.values(), key=nick_key)


# --- the confirmation and undo ---------------------------------------------------------------


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> str:
    """One game: handicap, result, each magnet's move and why; undo for the phone that saved it."""
    result = get_store().game(game_id)
    if result is None:
        abort(404)
    minutes = undo_minutes_left(game_id)
    form = ActionForm().fresh() if minutes else None
    saved = request.args.get("saved") == "1"
    owner = is_owner()
    return render_template("game.html", game=result, undo_minutes=minutes, form=form, saved=saved, owner=owner)


@bp.post("/games/<int:game_id>/undo")
def undo(game_id: int) -> Response:
    """Take back a game this phone recorded in the last ten minutes."""
    form = ActionForm()
    if not form.validate_on_submit():
        raise CSRFError()  # one tap, nothing typed: the friendly "too old, nothing was saved" page
    store = get_store()
    if store.game(game_id) is not None:
        if not undo_minutes_left(game_id):
            flash(_("Only the phone that recorded a game can undo it, and only for 10 minutes."), "error")
            return redirect(url_for("recording.game", game_id=game_id))
        store.record(
            Void(now(), game_id, note="undone on the phone that recorded it"),
            key=form_key(form),
            origin=phone_origin(),
        )
    flash(_("The game was undone; the board is as it was before."), "ok")
    return redirect(url_for("pages.games"))


# --- a new player -------------------------------------------------------------------------------


def grade_of(form: PlayerForm) -> dict[str, int | str]:
    """The declared grade as ``{"kyu": n}`` or ``{"dan": n}``; empty for a guest at 0."""
    if form.start.data not in ("kyu", "dan"):
        return {}
    raw = (form.grade.data or "").strip()
    # Text that is no whole number goes on as typed: the core refuses it as a bad grade.
    return {form.start.data: int(raw) if raw.isdecimal() else raw}


def just_added_here(nick: str) -> bool:
    """True when this phone added this nickname in the last two minutes."""
    key = nick_key(" ".join(nick.split()))
    recent = datetime.now(UTC) - timedelta(minutes=2)
    return (
        any(
            nick_key(entry.line.get("nick", "")) == key and entry.origin == phone_origin() and entry.entered > recent
            for entry in get_store().entries(limit=20, types=["player"])
        )
        and request.cookies.get(PHONE_COOKIE) is not None
    )


@bp.route("/players/new", methods=["GET", "POST"])
def add_player() -> Response | str | tuple[str, int]:
    """Add a guest: check the nickname and grade, show the field and similar names, then save."""
    form = PlayerForm()
    store = get_store()
    if request.method == "GET":
        form.fresh()
        return render_template("add_player.html", form=form, checked=None, similar=[])
    if not form.validate_on_submit():
        form.form_errors.append(stale_form())
        return render_template("add_player.html", form=form, checked=None, similar=[]), 400
    magnets = store.magnets()
    try:
        grade = grade_of(form)
        size = int(form.size.data) if (form.size.data or "").isdecimal() else form.size.data
        event = new_guest(form.nick.data, size, now(), magnets, **grade)
    except SemedoriError as error:
        if just_added_here(form.nick.data or ""):  # a double tap on Save: the first tap added the guest
            return redirect(url_for("pages.player", nick=(form.nick.data or "").strip()))
        form.form_errors.append(message(error))
        return render_template("add_player.html", form=form, checked=None, similar=[]), 400
    field = starting_field(event, store.config)
    lookalikes = similar(event.nick, {m.nick for m in magnets})
    # Saved only when the same nickname, size and start were shown (and checked) first.
    fingerprint = f"{event.nick}|{event.size}|{event.kyu}|{event.dan}"
    if form.confirmed.data != fingerprint:
        form.confirmed.data = fingerprint
        return render_template("add_player.html", form=form, checked=event, field=field, similar=lookalikes)
    try:
        store.record(event, key=form_key(form), origin=phone_origin())
    except SemedoriError as error:
        form.form_errors.append(message(error))
        status = 503 if isinstance(error, StoreError) else 400
        return render_template("add_player.html", form=form, checked=None, similar=[]), status
    flash(_("%(nick)s is on the board.", nick=event.nick), "ok")
    return remember_phone(redirect(url_for("pages.player", nick=event.nick)))
