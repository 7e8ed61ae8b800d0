"""The JSON API for integrations: the same core as the pages."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, request
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from kiosk.errors import SemedoriError, excerpt
from kiosk.events import nick_key
from kiosk.handicap import SIZES
from kiosk.pairing import for_entries
from kiosk.recording import new_game, new_guest
from kiosk.scale import as_number
from web.i18n import message
from web.limits import DEEPEST_JSON, json_depth
from web.recording import now
from web.store import get_store

bp = Blueprint("api", __name__, url_prefix="/api")


class BadRequest(Exception):
    """A clear 400 answer."""


@bp.errorhandler(BadRequest)
def bad_request(error: BadRequest) -> tuple[Response, int]:
    """400 with ``{"error": ...}``."""
    return jsonify(error=str(error)), 400


@bp.errorhandler(SemedoriError)
def core_error(error: SemedoriError) -> tuple[Response, int]:
    """A core error in the user's language, as 400 (503 when the store cannot write)."""
    status = 503 if isinstance(error, OSError) else 400
    return jsonify(error=message(error)), status


def _size(raw: str | None, default: int | None = None) -> int:
    if raw is None and default is not None:
        return default
    if raw is None or not raw.isdecimal() or int(raw) not in SIZES:
        raise BadRequest(_("size must be 9, 13 or 19"))
    return int(raw)


def _body() -> dict[str, Any]:
    """The JSON object of a write; only application/json is accepted."""
    if not request.is_json:
        abort(415)
    if json_depth(request.get_data(cache=True)) > DEEPEST_JSON:  # Python's parser would recurse into a 500
        raise BadRequest(_("the JSON is nested too deeply (at most %(depth)d levels)", depth=DEEPEST_JSON))
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadRequest(_("the body must be one JSON object"))
    return body


@bp.get("/board")
def board() -> Response:
    """The magnets of one size, strongest first."""
    size = _size(request.args.get("size"), 13)
    magnets = [m.to_json() for m in get_store().magnets() if m.size == size and not m.retired]
    return jsonify(size=size, magnets=magnets)


@bp.get("/players")
def players() -> Response:
    """Every player with their magnets."""
    found: dict[str, dict[str, Any]] = {}
    for m in get_store().magnets():
        entry = found.setdefault(nick_key(m.nick), {"nick": m.nick, "magnets": []})
        entry["magnets"].append(m.to_json() | {"primary": m.primary})
    return jsonify(players=list(found.values()))


@bp.get("/games")
def games() -> Response:
    """The recent games, newest first."""
    raw = request.args.get("limit", "50")
    if not raw.isdecimal() or not 1 <= int(raw) <= 1000:
        raise BadRequest(_("limit must be a whole number from 1 to 1000"))
    return jsonify(games=[g.to_json(with_id=True) for g in get_store().recent_games(limit=int(raw))])


@bp.get("/handicap")
def handicap() -> Response:
    """The handicap for two players (or two strengths) on a size."""
    size = _size(request.args.get("size"))
    a, b = request.args.get("a", ""), request.args.get("b", "")
    if not a.strip() or not b.strip():
        raise BadRequest(_("give two players: a and b"))
    store = get_store()
    pairing = for_entries(store.magnets(), size, a, b, store.config)  # a core error is a 400 (core_error)
    white, black = pairing.white, pairing.black
    return jsonify(
        size=size,
        players=[side.nick for side in pairing.sides],
        difference=as_number(pairing.difference),
        white=white.nick if white else None,
        black=black.nick if black else None,
        handicap=pairing.handicap.to_json(),
        training=pairing.handicap.training,
    )


@bp.post("/players")
def add_player() -> tuple[Response, int]:
    """Add a guest at 0, or from ``kyu``/``dan``."""
    body = _body()
    unknown = set(body) - {"nick", "size", "kyu", "dan"}
    if unknown:
        raise BadRequest(_("unknown field %(field)s", field=excerpt(sorted(unknown)[0])))
    store = get_store()
    event = new_guest(body.get("nick"), body.get("size", 13), now(), store.magnets(), body.get("kyu"), body.get("dan"))
    # No idempotency key here: a repeated guest is refused as a taken nickname, which changes nothing.
    store.record(event, origin="api")
    magnet = next(m for m in store.magnets() if nick_key(m.nick) == nick_key(event.nick) and m.size == event.size)
    return jsonify(magnet.to_json()), 201


@bp.post("/games")
def add_game() -> tuple[Response, int]:
    """Record a game; the same ``key`` again records nothing and answers the first result."""
    body = _body()
    unknown = set(body) - {"size", "players", "winner", "by", "at", "key"}
    if unknown:
        raise BadRequest(_("unknown field %(field)s", field=excerpt(sorted(unknown)[0])))
    for name in ("size", "players", "winner"):
        if name not in body:
            raise BadRequest(_("missing field %(field)s", field=name))
    key = body.get("key")
    if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= 200):
        raise BadRequest(_("key must be a text of 1 to 200 characters"))
    days_back = get_store().config.days_back  # checked before the write lock is taken (issue 11)
    game = new_game(body["size"], body["players"], body["winner"], body.get("by"), body.get("at"), now(), days_back)
    origin = f"api:{request.remote_addr or '?'}"  # the owner's recent list voids one client's games at once
    recorded = get_store().record(game, key=f"api-game:{key}" if key else None, origin=origin)
    if recorded.game is None:  # the game first recorded with this key was voided since
        raise BadRequest(_("the game recorded with this key was voided"))
    response = jsonify(recorded.game.to_json(with_id=True))
    if not recorded.new:
        response.headers["Idempotent-Replayed"] = "true"
    return response, 201
