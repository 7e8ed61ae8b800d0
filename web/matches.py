"""The owner's page of matches with other clubs: import the other club's match file, the club rating.

The view reads the upload and the code and calls kiosk.services.calibration; the suggested shift
opens the shift page with its amount filled in, where the owner previews and saves it (never here).
The host club writes the match file here too (``export``), from the evening's games typed one a line
or the sheet file of ``semedori match export``: the same ``export_match`` as the command line.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, Response
from flask_babel import gettext as _

from kiosk import calibration_text
from kiosk.calibration import MatchError, club_rating
from kiosk.errors import HistoryError, SemedoriError
from kiosk.services.calibration import export_match, import_match, kept
from web.auth import owner_required
from web.clock import now as kiosk_now
from web.forms import OwnerForm, answers_stale_form
from web.i18n import language, message
from web.owner import page
from web.request_store import get_store

bp = Blueprint("matches", __name__, url_prefix="/owner")


def _context() -> dict[str, Any]:
    store = get_store()
    return {
        "met": club_rating(kept(store), store.config),
        "text": calibration_text,
        "lang": language(),
        "result": None,
        "exporting": False,
    }


@bp.route("/matches", methods=["GET", "POST"])
@answers_stale_form
@owner_required
def matches() -> Any:
    """The club rating (our offset against each club met) and the form to import a match file."""
    from flask import request

    form = OwnerForm()
    if request.method == "GET":
        return page("matches.html", form, **_context())
    if not form.validate_on_submit():
        return page("matches.html", form, 400, **_context())
    upload = request.files.get("match")
    code = (request.form.get("code") or "")[:80]
    try:
        if upload is None or not upload.filename:
            raise MatchError("match-not-json")
        raw = upload.stream.read(2_000_001)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise MatchError("match-not-json") from None
        found, offsets = import_match(get_store(), text, code)
    except SemedoriError as error:
        form.form_errors.append(message(error))
        return page("matches.html", form, 400, **_context())
    context = _context()
    context["result"] = (found, offsets)
    return page("matches.html", form, **context)


# --- writing the match file (the host club, after the evening) -----------------------------------------

SHEET_LIMIT = 500_000  # characters of a sheet: an evening's games are a few kilobytes
# A game typed one a line: when; board; our player; theirs; their strength; who won; how (docs/calibration.md).
_FIELDS = ("at", "size", "home", "away", "away_strength", "winner", "by")
_WINNERS = {"home": "home", "away": "away", "draw": None, "nasz": "home", "ich": "away", "remis": None}


def sheet_lines(text: str) -> list[dict[str, object]]:
    """The sheet's games: JSON lines as ``semedori match export`` reads them, or lines of seven fields split by
    ";" (``2026-11-28 18:00; 13; Ala; Kuba; 20; home; resignation``), the way an owner types them on a phone.

    A line that is neither is refused naming it (``match-bad-game``); nothing is written then.
    """
    games: list[dict[str, object]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        number = len(games) + 1
        if line.startswith("{"):
            try:
                parsed = json.loads(line)
            except ValueError:
                detail = HistoryError("bad-json", detail=line[:40])
                raise MatchError("match-bad-game", number=number, detail=detail) from None
            games.append(parsed if isinstance(parsed, dict) else {})
            continue
        parts = [part.strip() for part in line.split(";")]
        if len(parts) not in (6, 7):
            detail = HistoryError("bad-json", detail="; ".join(_FIELDS))
            raise MatchError("match-bad-game", number=number, detail=detail)
        at, size, home, away, strength, winner, *how = parts
        said = winner.casefold()
        if said not in _WINNERS:
            raise MatchError("match-bad-game", number=number, detail=HistoryError("bad-winner", nick=winner))
        by: object = how[0] if how and how[0] else None
        if isinstance(by, str) and re.fullmatch(r"[0-9]+([.,][0-9]+)?", by):
            by = float(by.replace(",", "."))
        elif isinstance(by, str) and by.casefold() in ("resignation", "poddanie"):
            by = "resignation"
        games.append(
            {
                "at": at.replace(" ", "T", 1),
                "size": int(size) if size.isdecimal() else size,
                "home": home,
                "away": away,
                "away_strength": _number(strength),
                "winner": _WINNERS[said],
                "by": by,
            }
        )
    return games


def _number(text: str) -> object:
    """A typed strength as a number when it is one ("20", "33,5"); else the text, for the core to refuse."""
    if re.fullmatch(r"[0-9]+([.,][0-9]+)?", text):
        value = float(text.replace(",", "."))
        return int(value) if value.is_integer() else value
    return text


@bp.post("/matches/export")
@answers_stale_form
@owner_required
def export() -> Any:
    """The match file of the evening's games, as a download; a bad sheet comes back said, nothing written."""
    from flask import request

    form = OwnerForm()
    if not form.validate_on_submit():  # a stale token: the sheet comes back as typed, an evening's games not retyped
        return page("matches.html", form, 400, **{**_context(), "exporting": True})
    other = (request.form.get("other") or "").strip()[:80]
    code = (request.form.get("code") or "")[:80]
    text = (request.form.get("sheet") or "")[:SHEET_LIMIT]
    upload = request.files.get("sheetfile")
    try:
        if upload is not None and upload.filename:
            try:
                text = upload.stream.read(SHEET_LIMIT + 1).decode("utf-8")
            except UnicodeDecodeError:
                raise MatchError("match-not-json") from None
        if not other:
            form.form_errors.append(_("Type the name of the club you played."))
            return page("matches.html", form, 400, **{**_context(), "exporting": True})
        if len(text) > SHEET_LIMIT:
            raise MatchError("match-too-large")
        games = sheet_lines(text)
        if not games:
            raise MatchError("match-empty")
        written = export_match(get_store(), games, other, code)
    except SemedoriError as error:
        form.form_errors.append(message(error))
        return page("matches.html", form, 400, **{**_context(), "exporting": True})
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", other).strip("-")[:40] or "club"
    response = Response(written, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="match-{name}-{kiosk_now().date().isoformat()}.json"'
    )
    return response
