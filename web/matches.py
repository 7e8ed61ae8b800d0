"""The owner's page of matches with other clubs: import the other club's match file, the club rating.

The view reads the upload and the code and calls kiosk.services.calibration; the suggested shift
opens the shift page with its amount filled in, where the owner previews and saves it (never here).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from kiosk import calibration_text
from kiosk.calibration import MatchError, club_rating
from kiosk.errors import SemedoriError
from kiosk.services.calibration import import_match, kept
from web.auth import owner_required
from web.forms import OwnerForm
from web.i18n import language, message
from web.owner import page
from web.request_store import get_store

bp = Blueprint("matches", __name__, url_prefix="/owner")


def _context() -> dict[str, Any]:
    store = get_store()
    return {"met": club_rating(kept(store), store.config), "text": calibration_text, "lang": language(), "result": None}


@bp.route("/matches", methods=["GET", "POST"])
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
