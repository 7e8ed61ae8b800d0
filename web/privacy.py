"""The owner's privacy page: how the wall and the public pages show players, who is hidden, minors.

The club's default (nickname, initials or short name), each player's own choice, a
"hidden from public pages" flag and a "minor" flag. None of it is history: the store
keeps it in tables of its own (``kiosk.store.Store.privacy``). Bad input comes back
with a message in the owner's language and changes nothing.
"""

from __future__ import annotations

import csv
import io

from flask import Blueprint, Response, flash, redirect, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response as WerkzeugResponse

from kiosk.errors import SemedoriError
from kiosk.events import nick_key
from kiosk.names import resolve
from kiosk.privacy import (
    INITIALS,
    MARKS,
    MINORS_MODES,
    MODES,
    NICK,
    SHORT,
    PlayerPrivacy,
    check_short_name,
    public_labels,
)
from kiosk.rulechanges import parse_day
from kiosk.scale import format_strength
from kiosk.services import settings
from web.auth import no_store, owner_required
from web.clock import now
from web.forms import OwnerForm, answers_stale_form
from web.i18n import language, message
from web.owner import page
from web.request_store import get_store

bp = Blueprint("privacy", __name__, url_prefix="/owner/privacy")
bp.after_request(no_store)

CLUB_DEFAULT = "club"  # a player's choice: as the club shows players


def _mode_names() -> dict[str, str]:
    return {NICK: _("Nickname"), INITIALS: _("Initials"), SHORT: _("Short name (initials where none is set)")}


def _short_name_problem(code: str) -> str:
    return {
        "short-name-long": _("A short name has at most 20 characters."),
        "short-name-control": _("A short name may hold only letters, digits, spaces and signs."),
        "short-name-taken": _("Another player is already shown by that name: choose another short name."),
    }[code]


def _players() -> list[tuple[str, str, PlayerPrivacy]]:
    """Every player once (the board's nickname), with the label the public sees and the owner's settings."""
    store = get_store()
    nicks = sorted({nick_key(m.nick): m.nick for m in store.magnets()}.values(), key=nick_key)
    privacy = store.privacy()
    labels = public_labels(nicks, privacy)
    return [(nick, labels[nick], privacy.of(nick)) for nick in nicks]


def _overview(form: OwnerForm, status: int | None = None) -> tuple[str, int]:
    privacy = get_store().privacy()
    return page(
        "privacy.html",
        form,
        status,
        club_show=privacy.club_show,
        minors_show=privacy.minors_show,
        players=_players(),
        modes=_mode_names(),
    )


@bp.get("/")
@owner_required
def overview() -> tuple[str, int]:
    """The club's default, and every player with their public label and flags."""
    return _overview(OwnerForm())


@bp.post("/club")
@answers_stale_form
@owner_required
def club() -> WerkzeugResponse | tuple[str, int]:
    """Set how the wall and the public pages show players by default."""
    form = OwnerForm()
    if not form.validate_on_submit():
        return _overview(form, 400)
    show = request.form.get("show", "")
    if show not in MODES:
        form.form_errors.append(_("Choose how players are shown: nickname, initials or short name."))
        return _overview(form, 400)
    settings.set_club_privacy(get_store(), show)
    minors = request.form.get("minors", "")
    if minors in MINORS_MODES:
        settings.set_minors_privacy(get_store(), minors)
    flash(_("Players are now shown by: %(how)s.", how=_mode_names()[show]), "ok")
    return redirect(url_for("privacy.overview"))


def _player_page(form: OwnerForm, nick: str, status: int | None = None) -> tuple[str, int]:
    found = next((p for p in _players() if p[0] == nick), None)
    own = found[2] if found else PlayerPrivacy()
    return page(
        "privacy_player.html",
        form,
        status,
        nick=nick,
        label=found[1] if found else "",
        own=own,
        modes=_mode_names(),
        marks=MARKS,
        club_show=get_store().privacy().club_show,
        posted=request.method == "POST",
        sizes=sorted(m.size for m in get_store().magnets() if nick_key(m.nick) == nick_key(nick)),
    )


def _board_nick(typed: str) -> str | None:
    """The board's spelling of a nickname the owner sent (exactly, case and accents aside)."""
    return resolve(typed, [m.nick for m in get_store().magnets()]) if typed.strip() else None


@bp.route("/player", methods=["GET", "POST"])
@answers_stale_form
@owner_required
def player() -> WerkzeugResponse | tuple[str, int]:
    """One player's label, short name, hidden and minor flags."""
    # Long: one owner form with four settings, each checked and refused with what was typed.
    form = OwnerForm()
    typed = (request.values.get("nick") or "")[:200]
    if request.method == "GET" and not typed.strip():
        return redirect(url_for("privacy.overview"))
    nick = _board_nick(typed)
    if nick is None:
        form.form_errors.append(_("There is no player with that nickname."))
        return _overview(form, 404 if request.method == "GET" else 400)
    if request.method == "GET":
        return _player_page(form, nick)
    if not form.validate_on_submit():
        return _player_page(form, nick, 400)
    show = request.form.get("show", "")
    if show not in (CLUB_DEFAULT, *MODES):
        form.form_errors.append(_("Choose how this player is shown."))
        return _player_page(form, nick, 400)
    players = _players()
    try:
        short = check_short_name(
            request.form.get("short_name", ""), nick, [p[0] for p in players], {p[0]: p[1] for p in players}
        )
    except ValueError as error:
        form.form_errors.append(_short_name_problem(str(error)))
        return _player_page(form, nick, 400)
    if show == CLUB_DEFAULT and short:  # a short name typed is meant to be seen, unless initials were chosen
        show = SHORT
    if show == SHORT and not short:
        form.form_errors.append(_("Type the short name, or choose initials."))
        return _player_page(form, nick, 400)
    minor = request.form.get("minor") == "yes"
    consent_typed = request.form.get("consent", "")
    if consent_typed not in ("", "given", "not-given"):
        form.form_errors.append(_("Choose whether a consent was given."))
        return _player_page(form, nick, 400)
    consent = None if not minor or not consent_typed else consent_typed == "given"
    consent_on = ""
    if consent is not None:
        typed_day = (request.form.get("consent_on") or "").strip()[:40]
        try:  # the day it was noted: today unless typed, never in the future
            consent_on = parse_day(typed_day, now().date()).isoformat() if typed_day else now().date().isoformat()
        except SemedoriError as error:
            form.form_errors.append(message(error))
            return _player_page(form, nick, 400)
    mark = request.form.get("mark", "")
    if mark not in ("", *MARKS):
        form.form_errors.append(_("Choose one of the symbols, or none."))
        return _player_page(form, nick, 400)
    chosen = PlayerPrivacy(
        show=None if show == CLUB_DEFAULT else show,
        short_name=short,
        hidden=request.form.get("hidden") == "yes",
        minor=minor,
        consent=consent,
        consent_on=consent_on,
        mark=mark,
    )
    settings.set_player_privacy(get_store(), nick, chosen)
    flash(_("Saved: %(nick)s.", nick=nick), "ok")
    return redirect(url_for("privacy.overview"))


@bp.get("/players.csv")
@owner_required
def export() -> Response:
    """Every player as a spreadsheet: nickname, label, sizes and strengths, hidden; minors only when asked."""
    minors = request.args.get("minors") == "yes"
    store = get_store()
    privacy = store.privacy()
    labels = public_labels([m.nick for m in store.magnets()], privacy)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["nick", "label", "size", "strength", "status", "retired", "hidden", *(["minor"] if minors else [])]
    )
    for m in sorted(store.magnets(), key=lambda m: (nick_key(m.nick), m.size)):
        own = privacy.of(m.nick)
        row = [
            spreadsheet_text(m.nick),
            spreadsheet_text(labels[m.nick]),
            m.size,
            format_strength(m.strength),
            m.status,
            _yes(m.retired),
            _yes(own.hidden),
        ]
        writer.writerow([*row, *([_yes(own.minor)] if minors else [])])
    name = f"semedori-players-{now():%Y-%m-%d}.csv"
    # A byte order mark, so a spreadsheet opens Polish and CJK names in UTF-8.
    return Response(
        "\ufeff" + out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


# A cell a spreadsheet would run as a formula starts with one of these (OWASP "CSV injection"; the
# full-width forms too, which some spreadsheets read as the plain ones).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")


def spreadsheet_text(text: str) -> str:
    """A nickname or label as a cell that is only text: one leading quote before a formula's first sign.

    Spreadsheets hide the quote and show the nickname as typed; the kiosk never reads this file back.
    """
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _yes(flag: bool) -> str:
    return "yes" if flag else ""


@bp.get("/card.png")
@owner_required
def card() -> Response | tuple[str, int]:
    """A player's printable progress card for the season (their label, strength chart, milestones, awards)."""
    from kiosk.awards import month_of, next_month, read_month
    from kiosk.progress import progress, season_start
    from web.pictures import progress_card_picture

    store = get_store()
    nick = _board_nick((request.args.get("nick") or "")[:200])
    raw = request.args.get("size", "")
    magnets = [m for m in store.magnets() if nick is not None and nick_key(m.nick) == nick_key(nick)]
    size = int(raw) if raw.isdecimal() else (magnets[0].size if magnets else 0)
    if nick is None or not any(m.size == size for m in magnets):
        form = OwnerForm()
        form.form_errors.append(_("There is no player with that nickname."))
        return _overview(form, 404)
    at = now()
    month, months = month_of(season_start(at)), []
    while month <= month_of(at):
        months.append(read_month(store, month))
        month = next_month(month)
    labels = public_labels([m.nick for m in store.magnets()], store.privacy())
    found = progress(store.board(with_games=True), nick, size, labels.get(nick, nick), at, months)
    assert found is not None  # the magnet exists (checked above)
    picture = progress_card_picture(found, store.config.club_name, language())
    return Response(
        picture, mimetype="image/png", headers={"Content-Disposition": f'inline; filename="card-{size}.png"'}
    )
