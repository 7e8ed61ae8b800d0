"""The owner's tools, behind the owner PIN: every action is a history event with origin "owner"."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import format_timedelta, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError

from kiosk import clockfile, wallstatus
from kiosk.backup import spare_copies
from kiosk.clock import EARLIEST, LATEST, TOLERANCE
from kiosk.config import DATABASE_NAME
from kiosk.copies import free_space, megabytes
from kiosk.errors import ConfigError, SemedoriError
from kiosk.events import Event, Merge, Shift, Unmerge, format_at, margin_json, nick_key, parse_event
from kiosk.names import duplicate_pairs, resolve
from kiosk.previews import merge_preview, shift_preview
from kiosk.privacy import check_new_nick
from kiosk.recording import new_member
from kiosk.rules import club_now
from kiosk.scale import decimal_mark, decimal_point
from kiosk.services import history
from kiosk.services.settings import change_settings
from web import attention, problems, public
from web.auth import OWNER, no_store, owner_required
from web.clock import kiosk_clock_state, kiosk_utc_now, now, pi_clock, timesync_flag
from web.forms import GameForm, OnceForm, OwnerForm, answers_stale_form, one_time_token
from web.i18n import language, message
from web.recording import game_fields
from web.request_store import get_store
from web.words import audit_line, privacy_line, system_note

bp = Blueprint("owner", __name__, url_prefix="/owner")

MERGE_SUGGESTIONS = 100

bp.after_request(no_store)


def page(template: str, form: OnceForm, status: int | None = None, **context: Any) -> tuple[str, int]:
    """An owner page with what was typed kept; 400 when it comes back with errors."""
    if status is None:
        status = 400 if form.errors else 200
    form.fresh()
    values = request.form if request.method == "POST" else request.args  # a suggested pair arrives as a link
    return render_template(f"owner/{template}", form=form, values=values, **context), status


# Each owner form's fields in the page's order, as the page names them, and which field a core error is about
#: the message names the field, the field is marked and tied to it. A nickname's error goes to the
# field that holds the nickname it names.
_SIZE = _l("Board size")
OWNER_FIELDS: dict[str, dict[str, Any]] = {
    "correction.html": {
        "nick": _l("Player"),
        "size": _SIZE,
        "strength": _l("New strength (empty: keep)"),
        "status": _l("Status"),
        "with": _l("Strong member who agreed (required)"),
    },
    "member.html": {"nick": _l("Nickname"), "size": _SIZE, "strength": _l("Strength (a field of the board)")},
    "magnets.html": {"nick": _l("Player"), "to": _l("New nickname")},
    "merge.html": {"from": _l("Duplicate (disappears)"), "into": _l("Kept player")},
    "shift.html": {
        "amount": _l("Amount (e.g. -5)"),
        "size": _SIZE,
        "nicks": _l("The group: nicknames, separated by commas"),
    },
    "clock.html": {"at": _l("Date and time (club time)")},
    "import.html": {"history": _l("History file"), "replace": _l("Replace the history")},
    "game.html": {
        "size": _SIZE,
        "a": _l("Player 1"),
        "b": _l("Player 2"),
        "winner": _l("Who won"),
        "by": _l("How the game ended"),
        "points": _l("Points"),
        "played": _l("Played at"),
        "kind": _l("Kind of game"),
    },
    "settings.html": {
        "club_name": _l("Club name"),
        "timezone": _l("Time zone"),
        "language": _l("Language of the club"),
        "guest_losses": _l("A guest becomes a member after this many losses"),
        "sleeper_weeks": _l("Weeks unplayed before a magnet rests off the wall (0: never)"),
        "form_url": _l("The form address shown on the wall"),
    },
}
OWNER_CODES = {
    "bad-strength": "strength",
    "correction-empty": "strength",
    "bad-status": "status",
    "bad-size": "size",
    "no-magnet": "size",
    "bad-amount": "amount",
    "merge-self": "into",
    "merge-played": "into",
    "not-merged": "from",
    "nick-taken": "to",
} | {code: ("played" if field == "at" else field) for code, field in problems.GAME_CODES.items()}
NICK_FIELDS = ("nick", "to", "from", "into", "with", "a", "b")


def refused(form: OnceForm, error: Exception, template: str, **context: Any) -> tuple[str, int]:
    """The owner page again as typed, saying why nothing was saved, beside the field it is about when there is one."""
    text = message(error) if isinstance(error, SemedoriError) else str(error)
    fields = OWNER_FIELDS.get(template, {})
    field: str | None = None
    if isinstance(error, problems.FieldError):
        field = error.field
    elif isinstance(error, ConfigError):
        field = error.setting
    elif isinstance(error, SemedoriError):
        nicks = {name: request.form.get(name) for name in NICK_FIELDS if name in fields}
        field = problems.field_of(error, OWNER_CODES, nicks)
    if field in fields:
        if isinstance(error, SemedoriError) and getattr(error, "code", "") == "bad-nick":
            text = problems.nick_problem(request.form.get(field)) or text
        form.problems = {field: problems.named(fields[field], text)}
        g.problems = form.problems
    else:
        form.form_errors.append(text)
    return page(template, form, 400, **context)


def save(line: dict[str, Any], form: OnceForm, done: str) -> Event:
    """Check a history line in the core and record it as the owner's action; HistoryError if it is wrong."""
    note = (request.form.get("note") or "").strip()
    event = history.record_line(
        get_store(), {**line, **({"note": note} if note else {})}, now(), form.once_key("owner"), OWNER
    )
    flash(done, "ok")
    return event


def _number(raw: str | None) -> float | str | None:
    """A number as typed (a decimal comma is fine); the text itself when it is not one."""
    text = decimal_point(raw)
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return text
    return int(value) if value.is_integer() else value


def _size(raw: str | None) -> int | str | None:
    text = (raw or "").strip()
    return int(text) if text.isdecimal() else (text or None)


@bp.get("/")
@owner_required
def tools() -> str:
    """The owner's menu, and whether the kiosk's clock can be trusted."""
    wall = wallstatus.read(Path(current_app.config["SEMEDORI_HOME"]))  # the wall's word on its panel
    from web.pictures import mounting_advice

    return render_template(
        "owner/tools.html",
        form=OwnerForm(),
        clock=clock_sentence(),
        no_panel=wall is not None,
        card=card_note(),
        mounting=mounting_advice(language()),  # the orientation that needs fewer pages
        attention=attention.items(),
    )


# Below this the owner's menu warns: a month of games and a night's backup fit, with room to spare.
CARD_LOW = 32 * 1_000_000


def card_note() -> dict[str, Any] | None:
    """When the card is (nearly) full: its free space, and the backups that can go (oldest first)."""
    folder = Path(current_app.config["SEMEDORI_HOME"])
    try:
        free = free_space(folder)
        database = (folder / DATABASE_NAME).stat().st_size
    except OSError:
        return None
    if free >= max(CARD_LOW, 2 * database):
        return None
    said = language()
    spare = [{"name": path.name, "size": megabytes(size, said)} for path, size in spare_copies(folder)]
    free_mb = megabytes(free, said)
    if free < database:  # tonight's backup cannot be written, nor perhaps a game
        text = _("The card is full: free space %(free)s MB.", free=free_mb)
    else:
        text = _("The card is nearly full: free space %(free)s MB.", free=free_mb)
    return {"text": text, "spare": spare}


def clock_sentence() -> str:
    """When the kiosk's clock was last trusted, and by whom (kiosk/clock.py)."""
    state = kiosk_clock_state()
    if state.trusted_at is None:
        return _(
            "The clock has not been checked yet: the Pi has no internet time, and no phone has sent a result "
            "since it started. Games are stamped by the Pi's own clock."
        )
    at = club_now(get_store().config, state.trusted_at).strftime("%Y-%m-%d %H:%M")
    if state.trusted_by == "ntp":
        return _("The clock was last checked against internet time at %(at)s.", at=at)
    if state.trusted_by == "owner":
        return _("The Pi has no internet time: the owner set the clock by hand at %(at)s.", at=at)
    return _(
        "The Pi has no internet time: the clock was last set from the players' phones at %(at)s "
        "(the Pi's own clock was %(skew)s off).",
        at=at,
        skew=format_timedelta(abs(state.skew), threshold=1.5),
    )


# --- magnets --------------------------------------------------------------------------------


@bp.route("/correction", methods=["GET", "POST"])
@answers_stale_form
@owner_required
def correction() -> Any:
    """Quick correction: rehang a magnet on the field of the player's real strength."""
    form = OwnerForm()
    if request.method == "POST" and form.validate_on_submit():
        line: dict[str, Any] = {
            "type": "correction",
            "nick": request.form.get("nick", ""),
            "size": _size(request.form.get("size")),
        }
        if _number(request.form.get("strength")) is not None:
            line["strength"] = _number(request.form.get("strength"))
        if request.form.get("status") in ("guest", "member"):
            line["status"] = request.form["status"]
        member = (request.form.get("with") or "").strip()
        try:
            if not member:
                raise problems.FieldError("with", _("name the strong member who agreed to the correction."))
            line["with"] = member
            event = save(line, form, _("Quick correction saved."))
        except (SemedoriError, ValueError) as error:
            return refused(form, error, "correction.html", magnets=get_store().magnets())
        # The player's page shows the magnet on its new field (not the Rename list).
        nick = str(getattr(event, "nick", line["nick"]))
        board = next((m.nick for m in get_store().magnets() if nick_key(m.nick) == nick_key(nick)), nick)
        return redirect(url_for("pages.player", nick=board))
    return page("correction.html", form, magnets=get_store().magnets())


@bp.get("/magnets")
@owner_required
def magnets() -> tuple[str, int]:
    """Every magnet, retired ones too: rename, retire, restore."""
    return page("magnets.html", OwnerForm(), magnets=get_store().magnets())


@bp.post("/magnets/<action>")
@answers_stale_form
@owner_required
def magnet_action(action: str) -> Any:
    """Rename a player, or retire or restore a magnet."""
    form = OwnerForm()
    if action not in ("rename", "retire", "restore"):
        abort(400)
    if not form.validate_on_submit():
        return page("magnets.html", form, 400, magnets=get_store().magnets())
    nick = request.form.get("nick", "")
    if action == "rename":
        line: dict[str, Any] = {"type": "rename", "from": nick, "to": request.form.get("to", "")}
        done = _("Renamed.")
    else:
        line = {"type": action, "nick": nick, "size": _size(request.form.get("size"))}
        done = _("Retired: the magnet leaves the wall.") if action == "retire" else _("Restored on the wall.")
    try:
        save(line, form, done)
    except SemedoriError as error:
        return refused(form, error, "magnets.html", magnets=get_store().magnets())
    return redirect(url_for("owner.magnets"))


@bp.route("/member", methods=["GET", "POST"])
@answers_stale_form
@owner_required
def member() -> Any:
    """Add a member at any field (moving a paper board over)."""
    form = OwnerForm()
    if request.method == "POST" and form.validate_on_submit():
        store = get_store()
        try:
            strength = _number(request.form.get("strength"))
            event = new_member(
                request.form.get("nick", ""),
                _size(request.form.get("size")),
                strength if strength is not None else 0,
                now(),
                store.magnets(),
            )
            # Another player's label would move to the newcomer; a look-alike the owner adds deliberately.
            check_new_nick(event.nick, public.names(), deliberate=True)
            history.record_event(store, event, form.once_key("owner"), OWNER)
        except SemedoriError as error:
            return refused(form, error, "member.html")
        flash(_("%(nick)s is on the board.", nick=event.nick), "ok")
        return redirect(url_for("pages.player", nick=event.nick))
    return page("member.html", form)


# --- shift and merge --------------------------------------------------------------------------


def _shift_line() -> dict[str, Any]:
    scope = request.form.get("scope", "all")
    nicks = [n.strip() for n in (request.form.get("nicks") or "").split(",") if n.strip()]
    return {
        "type": "shift",
        "amount": _number(request.form.get("amount")),
        "size": _size(request.form.get("size")) if scope == "size" else None,
        "nicks": (nicks or [""]) if scope == "group" else None,
    }


@bp.route("/shift", methods=["GET", "POST"])
@answers_stale_form
@owner_required
def shift() -> Any:
    """Shift all magnets, one size, or a group: preview every magnet before → after, then save."""
    form = OwnerForm()
    if request.method == "GET" or not form.validate_on_submit():
        return page("shift.html", form, 200 if request.method == "GET" else 400, preview=None)
    store = get_store()
    try:
        line = _shift_line()
        event = parse_event({"at": format_at(now()), **line})
        assert isinstance(event, Shift)
        fingerprint = repr(line)
        if request.form.get("confirmed") != fingerprint:
            preview = shift_preview(store.history_entries(), event, store.file_config)
            return page("shift.html", form, preview=preview, fingerprint=fingerprint)
        save(line, form, _("Shift saved."))
    except SemedoriError as error:
        return refused(form, error, "shift.html", preview=None)
    return redirect(url_for("owner.audit"))


@bp.route("/merge", methods=["GET", "POST"])
@answers_stale_form
@owner_required
def merge() -> Any:
    """Merge duplicates: suggested pairs, a preview of the kept player's magnets, then save."""
    form = OwnerForm()
    store = get_store()
    # The first 100 suggestions: 3,000 guests named "Gość 1"... are 600,000 similar pairs.
    pairs = duplicate_pairs({m.nick for m in store.magnets()}, limit=MERGE_SUGGESTIONS)
    context: dict[str, Any] = {"pairs": pairs, "merges": store.merges(), "preview": None}
    if request.method == "GET" or not form.validate_on_submit():
        return page("merge.html", form, 200 if request.method == "GET" else 400, **context)
    # The players' nicknames as the board spells them, not as typed ("hela" is Hela): the history and the
    # audit log name the players.
    nicks = [m.nick for m in store.magnets()]
    typed = {key: request.form.get(key, "") for key in ("from", "into")}
    line = {"type": "merge", **{key: resolve(value, nicks) or value for key, value in typed.items()}}
    try:
        event = parse_event({"at": format_at(now()), **line})
        assert isinstance(event, Merge)
        fingerprint = repr(line)
        if request.form.get("confirmed") != fingerprint:
            preview = merge_preview(store.history_entries(), event, store.file_config)
            return page("merge.html", form, **{**context, "preview": preview, "fingerprint": fingerprint})
        save(line, form, _("Merged. You can undo it below."))
    except SemedoriError as error:
        return refused(form, error, "merge.html", **context)
    return redirect(url_for("owner.merge"))


@bp.post("/unmerge")
@owner_required
def unmerge() -> Any:
    """Undo a merge: the duplicate's history is its own again."""
    form = OwnerForm()
    if not form.validate_on_submit():
        raise CSRFError()  # one tap, nothing typed: the friendly page
    line = {"type": "unmerge", "from": request.form.get("from", ""), "into": request.form.get("into", "")}
    try:
        event = save(line, form, _("The merge was undone."))
        assert isinstance(event, Unmerge)
    except SemedoriError as error:
        flash(message(error), "error")
    return redirect(url_for("owner.merge"))


# --- games ------------------------------------------------------------------------------------


@bp.route("/games/<int:game_id>", methods=["GET", "POST"])
@answers_stale_form
@owner_required
def game(game_id: int) -> Any:
    """Void (after a confirmation) or edit any game; the board is replayed. A voided game can be counted again."""
    # Long: a view's one form with its several answers (void asked, confirmed, an edit saved or refused).
    store = get_store()
    result = store.game(game_id)
    if result is None:
        return voided(game_id)
    form = OwnerForm()
    if request.method == "GET":
        values = {
            "size": str(result.size),
            "a": result.players[0],
            "b": result.players[1],
            "winner": "draw" if result.winner is None else ("a" if result.winner == result.players[0] else "b"),
            # The phone form's buttons: how it ended, and the points when by points.
            "by": "" if result.winner is None else _how(result.by),
            "points": _margin_text(result.by) if _how(result.by) == "points" else "",
            "played": result.at.strftime("%Y-%m-%dT%H:%M"),
            "kind": result.kind,
        }
        form.fresh()
        return render_template("owner/game.html", form=form, game=result, values=values, confirm=False)
    if not form.validate_on_submit():
        return render_template("owner/game.html", form=form.fresh(), game=result, values=request.form), 400
    try:
        action = request.form.get("action")
        if action == "void":  # the first tap only asks: a void moves magnets back
            form.once.data = one_time_token()
            return render_template("owner/game.html", form=form, game=result, values=request.form, confirm=True)
        if action == "void-confirmed":
            save({"type": "void", "game": game_id}, form, _("The game was voided; the board was replayed."))
            return redirect(url_for("owner.game", game_id=game_id))
        # The result is read as the phone form reads it (the same buttons, the same words, any language).
        edited = GameForm(formdata=request.form, meta={"csrf": False})
        found = problems.game_problems(edited)
        if found:  # what is missing, in the form's order, each beside its field
            form.problems = g.problems = {("played" if k == "at" else k): v for k, v in found.items()}
            return render_template("owner/game.html", form=form.fresh(), game=result, values=request.form), 400
        typed = game_fields(edited)
        line = {
            "type": "edit",
            "game": game_id,
            "played": request.form.get("played", ""),
            "size": _size(request.form.get("size")),
            "players": typed["players"],
            "winner": typed["winner"],
            "by": typed["by"],
            # The edit restates the whole game, its kind too; a form without one keeps the game's kind.
            "kind": request.form.get("kind") or result.kind,
        }
        entry = store.game_entry(game_id)
        if entry is not None and "handicap" in entry.line:
            # An event's game played with its policy's handicap: corrected, it is still the game played.
            line["handicap"] = result.handicap.to_json()
        save(line, form, _("The game was corrected; the board was replayed."))
    except (SemedoriError, ValueError) as error:
        return refused(form, error, "game.html", game=result, confirm=False)
    return redirect(url_for("recording.game", game_id=game_id))


def _how(by: Any) -> str:
    """How a won game ended, as the phone form's buttons say it: by points, by resignation, on time or other."""
    if by == "resignation":
        return "resignation"
    return "other" if by is None else "points"


def _margin_text(by: Any) -> str:
    """A margin as the owner's edit form shows it: points with the language's decimal sign, or "resignation"."""
    if by is None:
        return ""
    text = str(margin_json(by))
    return decimal_mark(text, language())


def voided(game_id: int) -> Any:
    """A voided game: what it was, and a button that counts it again (as a new game at the same time)."""
    entry = get_store().game_entry(game_id)
    if entry is None:
        abort(404)
    form = OwnerForm()
    if request.method == "POST" and form.validate_on_submit() and request.form.get("action") == "restore":
        line = {k: v for k, v in entry.line.items() if k not in ("id", "note")}
        line["note"] = f"counted again after the void of game {game_id}"
        try:
            event = parse_event(line)
            recorded = history.record_event(get_store(), event, form.once_key("owner"), OWNER)
        except SemedoriError as error:
            form.form_errors.append(message(error))
        else:
            if recorded.game is not None:
                flash(_("The void was undone: the game counts again."), "ok")
                return redirect(url_for("recording.game", game_id=recorded.game.id))
    return render_template("owner/voided.html", form=form.fresh(), line=entry.line, game_id=game_id)


@bp.get("/games")
@owner_required
def games() -> Any:
    """The owner's way into games: the games list, with its filters, where each game can be opened."""
    filters: dict[str, Any] = request.args.to_dict()  # the first of each, as ** of the MultiDict gave
    return redirect(url_for("pages.games", **filters))


# --- settings, files and the audit log -----------------------------------------------------------


@bp.route("/settings", methods=["GET", "POST"])
@answers_stale_form
@owner_required
def settings() -> Any:
    """Club name, time zone, language, guest losses, the form address shown on the wall."""
    store = get_store()
    form = OwnerForm()
    if request.method == "POST" and form.validate_on_submit():
        try:
            change_settings(store, request.form, now(), key=form.once_key("owner"), origin=OWNER)
        except (ConfigError, SemedoriError) as error:
            return refused(form, error, "settings.html", config=store.config)
        flash(_("Settings saved."), "ok")
        return redirect(url_for("owner.settings"))
    return page("settings.html", form, config=store.config)


@bp.get("/export")
@owner_required
def export() -> Response:
    """The history file (one JSON line per event), for a spreadsheet or another kiosk."""
    text = "".join(line + "\n" for line in get_store().export_lines())
    name = f"semedori-history-{now():%Y-%m-%d}.jsonl"
    return Response(
        text, mimetype="application/x-ndjson", headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


@bp.route("/import", methods=["GET", "POST"])
@answers_stale_form
@owner_required
def import_history() -> Any:
    """Replace the whole history with a history file; all or nothing."""
    form = OwnerForm()
    if request.method == "POST" and form.validate_on_submit():
        upload = request.files.get("history")
        try:
            if upload is None or not upload.filename:
                raise problems.FieldError("history", _("choose a history file."))
            if request.form.get("replace") != "yes":
                raise problems.FieldError("replace", _("tick the box: importing replaces the whole history."))
            # The upload is read one line at a time: a big history is never held whole.
            note = f"history imported from {upload.filename}: {{count}} events, the old history replaced"
            count = history.import_file(get_store(), upload.stream, replace=True, note=note, at=now(), origin=OWNER)
        except (SemedoriError, ValueError) as error:
            return refused(form, error, "import.html")
        flash(
            ngettext(
                "Imported %(num)d event; the board was replayed.",
                "Imported %(num)d events; the board was replayed.",
                count,
            ),
            "ok",
        )
        return redirect(url_for("owner.audit"))
    return page("import.html", form)


@bp.get("/backup")
@owner_required
def backup() -> Response:
    """A consistent copy of the database, made with SQLite's backup API."""
    name = f"semedori-{now():%Y-%m-%d-%H%M}.sqlite3"
    with tempfile.TemporaryDirectory(prefix="semedori-backup-") as folder:
        path = Path(folder) / name
        get_store().backup(path)
        data = path.read_bytes()  # a club's history is a few megabytes: simplest to send from memory
    return Response(
        data, mimetype="application/vnd.sqlite3", headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


@bp.get("/audit")
@owner_required
def audit() -> str:
    """Every owner action, newest first: what, when it was entered, and the note."""
    store = get_store()
    entries = [e for e in store.entries(limit=2000) if e.origin == OWNER or e.line["type"] not in ("game", "player")]
    config = store.config

    def club_time(moment: datetime) -> str:
        return club_now(config, moment).strftime("%Y-%m-%d %H:%M")

    said = [(e.entered, e.line, audit_line(e, club_time(e.entered))) for e in entries[:500]]
    # Privacy changes are kept beside the history, never in it (the history file is shared): listed in their turn.
    said += [
        (at, {"type": "privacy"}, privacy_line(nick, what, club_time(at))) for at, nick, what in store.privacy_changes()
    ]
    said.sort(key=lambda item: item[0], reverse=True)
    shown = [(line, text) for _at, line, text in said[:500]]
    return render_template("owner/audit.html", entries=shown, form=OwnerForm(), system_note=system_note)


# --- the kiosk's clock -------------------------------------------------------------


def _club_time(moment: datetime) -> str:
    """A UTC moment as the club reads it: 2026-11-30 19:00."""
    return club_now(get_store().config, moment).strftime("%Y-%m-%d %H:%M")


def _apart(offset: timedelta) -> str:
    """How far a clock is from the Pi's own, in the owner's words."""
    if abs(offset) < TOLERANCE:
        return _("the same")
    span = format_timedelta(abs(offset), threshold=1.5)
    return _("%(span)s ahead", span=span) if offset > timedelta(0) else _("%(span)s behind", span=span)


def _typed_time(raw: str | None) -> datetime | None:
    """A time typed in the club's zone (as a datetime-local field sends it), as UTC; None when it is not one."""
    try:
        typed = datetime.strptime((raw or "").strip(), "%Y-%m-%dT%H:%M")
    except ValueError:
        return None
    moment = typed.replace(tzinfo=get_store().config.zone).astimezone(UTC)
    return moment if EARLIEST <= moment < LATEST else None


def _clock_context() -> dict[str, Any]:
    """What the clock page shows: the two clocks, what the phones said and from which address."""
    state = kiosk_clock_state()
    pi = pi_clock()
    told = kiosk_utc_now()
    suggested = pi + state.pending if state.pending is not None else told
    return {
        "sentence": clock_sentence(),
        "pi": _club_time(pi),
        "kiosk": _club_time(told),
        "ntp": timesync_flag().exists(),
        "readings": [
            {"source": r.source or "?", "phone": _club_time(r.phone), "apart": _apart(r.offset)}
            for r in reversed(state.readings)
        ],
        "pending": _club_time(suggested) if state.pending is not None else None,
        "suggested": club_now(get_store().config, suggested).strftime("%Y-%m-%dT%H:%M"),
        "typed": None,
    }


@bp.route("/clock", methods=["GET", "POST"])
@answers_stale_form
@owner_required
def clock_page() -> Any:
    """What the kiosk's clock heard and from whom; the owner may set the time by hand (after a confirmation)."""
    form = OwnerForm()
    context = _clock_context()
    if request.method == "GET" or not form.validate_on_submit():
        return page("clock.html", form, 200 if request.method == "GET" else 400, **context)
    typed_raw = (request.form.get("at") or "").strip()
    typed = _typed_time(typed_raw)
    try:
        if context["ntp"]:
            raise ValueError(_("The Pi has internet time: its clock needs no setting."))
        if typed is None:
            raise problems.FieldError("at", _("type the date and the time, e.g. 2026-11-30 19:00."))
        if request.form.get("confirmed") != typed_raw:  # the first tap only shows what would change
            return page("clock.html", form, **{**context, "typed": _club_time(typed), "confirm": typed_raw})
        before = context["kiosk"]
        clockfile.set_by_owner(Path(current_app.config["SEMEDORI_HOME"]), typed, pi_clock(), timesync_flag())
        note = f"the kiosk's clock set by hand from {before} to {_club_time(typed)}"
        save({"type": "note", "note": note}, form, _("The kiosk's clock is set."))
    except (SemedoriError, ValueError) as error:
        return refused(form, error, "clock.html", **context)
    except OSError:
        return refused(
            form,
            ValueError(_("The card cannot keep the clock's setting (full or read-only).")),
            "clock.html",
            **context,
        )
    return redirect(url_for("owner.clock_page"))
