"""The JSON API for integrations: the same core as the pages."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from flask import Blueprint, abort, jsonify, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from kiosk.accelerated import ACCELERATED
from kiosk.errors import SemedoriError, excerpt
from kiosk.evening import club_evening
from kiosk.events import RATED, nick_key
from kiosk.handicap import SIZES
from kiosk.pairing import for_entries
from kiosk.scale import as_number
from kiosk.services import games as recording
from kiosk.services import tournaments
from kiosk.sleepers import hanging
from kiosk.tournament import (
    A_WINS,
    B_WINS,
    DRAW,
    Seat,
    Standing,
    Tournament,
    accelerated_standings,
    event_standings,
    played_boards,
)
from web import csrf, public
from web.clock import now
from web.i18n import message
from web.limits import DEEPEST_JSON, json_depth
from web.openapi import description
from web.request_store import get_store

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_PAGE = 1000


class BadRequest(Exception):
    """A clear 400 answer with a stable code."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


def error_body(code: str, text: str) -> Response:
    """The one error shape of the API: ``{"error": {"code", "message"}}``; the code never changes."""
    return jsonify(error={"code": code, "message": text})


@bp.errorhandler(BadRequest)
def bad_request(error: BadRequest) -> tuple[Response, int]:
    """400 with the error's code."""
    return error_body(error.code, str(error)), 400


@bp.errorhandler(SemedoriError)
def core_error(error: SemedoriError) -> tuple[Response, int]:
    """A core error in the user's language, as 400 (503 when the store cannot write); its code is the core's."""
    status = 503 if isinstance(error, OSError) else 400
    return error_body(getattr(error, "code", "bad-request"), message(public.relabelled(error))), status


def _size(raw: str | None, default: int | None = None) -> int:
    if raw is None and default is not None:
        return default
    if raw is None or not raw.isdecimal() or int(raw) not in SIZES:
        raise BadRequest("bad-size", _("size must be 9, 13 or 19"))
    return int(raw)


def _limit(default: int = 50) -> int:
    raw = request.args.get("limit", str(default))
    if not raw.isdecimal() or not 1 <= int(raw) <= MAX_PAGE:
        raise BadRequest("bad-limit", _("limit must be a whole number from 1 to %(most)d", most=MAX_PAGE))
    return int(raw)


def _day(name: str) -> datetime | None:
    raw = request.args.get(name)
    if raw is None:
        return None
    try:
        return datetime.strptime(raw, "%Y-%m-%d")
    except ValueError:
        raise BadRequest("bad-date", _("%(name)s must be a date like 2026-11-03", name=name)) from None


def _body() -> dict[str, Any]:
    """The JSON object of a write; only application/json is accepted."""
    if not request.is_json:
        abort(415)
    if json_depth(request.get_data(cache=True)) > DEEPEST_JSON:  # Python's parser would recurse into a 500
        raise BadRequest("too-deep", _("the JSON is nested too deeply (at most %(depth)d levels)", depth=DEEPEST_JSON))
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadRequest("not-object", _("the body must be one JSON object"))
    return body


@bp.get("")
@bp.get("/")
def index() -> Response:
    """Where things are: the description of the API, and its lists."""
    return jsonify(
        openapi=url_for("api.openapi"),
        board=url_for("api.board"),
        players=url_for("api.players"),
        games=url_for("api.games"),
        event=url_for("api.tonight_event"),
    )


@bp.get("/openapi.json")
def openapi() -> Response:
    """The API described in OpenAPI 3.1."""
    return jsonify(description())


@bp.get("/board")
def board() -> Response:
    """The magnets of one size, strongest first."""
    size = _size(request.args.get("size"), 13)
    store = get_store()
    on_size = hanging(store.magnets(), now(), store.config.sleeper_weeks, size)
    magnets = [m.to_json() for m in public.listed(list(on_size))]  # labels; hidden players left off
    return jsonify(size=size, magnets=magnets)


def _players() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for m in public.listed(get_store().magnets()):
        entry = found.setdefault(nick_key(m.nick), {"nick": m.nick, "magnets": []})
        entry["magnets"].append(m.to_json() | {"primary": m.primary})
    return found


@bp.get("/players")
def players() -> Response:
    """Every player with their magnets, by nickname, a page at a time (``after`` a nickname)."""
    limit = _limit(MAX_PAGE)
    after = nick_key(request.args.get("after", ""))
    ordered = sorted(_players().items())
    page = [player for key, player in ordered if key > after][: limit + 1]
    more = len(page) > limit
    page = page[:limit]
    following = url_for("api.players", limit=limit, after=page[-1]["nick"]) if more and page else None
    return jsonify(players=page, next=following)


@bp.get("/players/<path:nick>")
def player(nick: str) -> Response | tuple[Response, int]:
    """One player: magnets, and their games a page at a time."""
    meant = public.visible(public.nick_for(nick))  # a label, or a whole nickname
    found = _players().get(nick_key(public.names().label(meant))) if meant else None
    if found is None or meant is None:
        return error_body("unknown-player", _("There is no player with that nickname.")), 404
    limit = 20
    games = public.games(get_store().games_page(limit=limit + 1, nick=meant))
    following = (
        url_for("api.games", limit=limit, player=found["nick"], before=games[limit - 1].id)
        if len(games) > limit
        else None
    )
    return jsonify(**found, games=[g.to_json(with_id=True) for g in games[:limit]], next=following)


@bp.get("/games")
def games() -> Response:
    """Games, newest first, a page at a time: ``next`` is the link to the page after, or null."""
    limit = _limit()
    raw = request.args.get("before")
    if raw is not None and not raw.isdecimal():
        raise BadRequest("bad-cursor", _("before must be a game id"))
    before = int(raw) if raw is not None else None
    typed, since, until = request.args.get("player"), _day("since"), _day("until")
    nick = public.visible(public.nick_for(typed)) if typed is not None else None
    if typed is not None and nick is None:  # no such player (or one the public pages do not show)
        return jsonify(games=[], next=None)
    store = get_store()
    if before is not None and store.game(before) is None:
        raise BadRequest("bad-cursor", _("before must be the id of a game that counts"))
    until_next = until + timedelta(days=1) if until else None  # "until" names the last day, which counts
    found = store.games_page(limit=limit + 1, before=before, nick=nick, since=since, until=until_next)
    following = None
    if len(found) > limit:
        query: dict[str, Any] = {k: v for k, v in request.args.items() if k in ("player", "since", "until")}
        following = url_for("api.games", limit=limit, before=found[limit - 1].id, **query)
    return jsonify(games=[g.to_json(with_id=True) for g in public.games(found[:limit])], next=following)


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> tuple[Response, int]:
    """One game as in the replay output, with its id, winner and margin."""
    found = get_store().game(game_id)
    if found is None:
        return error_body("unknown-game", _("There is no such game, or it was voided.")), 404
    return jsonify(public.names().game(found).to_json(with_id=True)), 200


@bp.get("/handicap")
def handicap() -> Response:
    """The handicap for two players (or two strengths) on a size."""
    size = _size(request.args.get("size"))
    a, b = request.args.get("a", ""), request.args.get("b", "")
    if not a.strip() or not b.strip():
        raise BadRequest("missing-players", _("give two players: a and b"))
    store = get_store()
    a, b = public.label_of(a), public.label_of(b)
    pairing = for_entries(public.magnets(), size, a, b, store.config)  # a core error is a 400 (core_error)
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
@csrf.exempt  # JSON only (415 otherwise), which a cross-site form cannot send
def add_player() -> tuple[Response, int]:
    """Add a guest at 0, or from ``kyu``/``dan``."""
    body = _body()
    unknown = set(body) - {"nick", "size", "kyu", "dan"}
    if unknown:
        raise BadRequest("unknown-field", _("unknown field %(field)s", field=excerpt(sorted(unknown)[0])))
    store = get_store()
    # No idempotency key here: a repeated guest is refused as a taken nickname, which changes nothing.
    # Labels, look-alikes and hidden children are refused first, as on the phone.
    event, _recorded = recording.add_guest(
        store,
        body.get("nick"),
        body.get("size", 13),
        now(),
        "api",
        kyu=body.get("kyu"),
        dan=body.get("dan"),
        shown=public.names(),
    )
    magnet = next(m for m in store.magnets() if nick_key(m.nick) == nick_key(event.nick) and m.size == event.size)
    response = jsonify(magnet.to_json())
    response.headers["Location"] = url_for("api.player", nick=magnet.nick)
    return response, 201


@bp.post("/games")
@csrf.exempt  # JSON only (415 otherwise), which a cross-site form cannot send
def add_game() -> tuple[Response, int]:
    """Record a game; the same ``key`` again records nothing and answers the first result.

    A game another phone or client recorded minutes ago (same pair, size and result, or the
    same pair with another result) is answered 409 ``likely-duplicate`` with that game, and
    nothing is saved, unless the client says ``"again": true``.
    """
    # Long: the JSON body's checks, each with its own error code, before the one use case.
    body = _body()
    unknown = set(body) - {"size", "players", "winner", "by", "at", "key", "kind", "again"}
    if unknown:
        raise BadRequest("unknown-field", _("unknown field %(field)s", field=excerpt(sorted(unknown)[0])))
    for name in ("size", "players", "winner"):
        if name not in body:
            raise BadRequest("missing-field", _("missing field %(field)s", field=name))
    key = body.get("key")
    if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= 200):
        raise BadRequest("bad-key", _("key must be a text of 1 to 200 characters"))
    again = body.get("again", False)
    if not isinstance(again, bool):
        raise BadRequest("bad-again", _("again must be true or false"))
    # absent kind: a rated game; null or an unknown word is refused by the core
    typed = recording.Typed(
        body["size"], body["players"], body["winner"], body.get("by"), body.get("at"), body.get("kind", RATED)
    )
    client = request.remote_addr or "?"
    origin = f"api:{client}"  # the owner's recent list voids one client's games at once
    store = get_store()
    # A label ("A.K.", a short name) names its player, exactly: anything else goes to the core as sent,
    # which refuses invisible characters rather than folding them away. The date is checked before
    # the write lock is taken.
    recorded = recording.record_game(
        store,
        typed,
        now(),
        origin,
        key=f"api-game:{client}:{key}" if key else None,  # a key is the client's own
        names=public.names().nick_of_label,
        days_back=store.config.days_back,
        again=again,
        with_time="at" in body,  # without a time each try is dated when it arrives
    )
    if isinstance(recorded, recording.Duplicate):
        return _likely_duplicate(recorded)
    if isinstance(recorded, recording.Reused):  # the same key with another body (the IETF idempotency-key draft)
        text = _("this key was already used for another game; nothing was saved. Send a new key for a new game")
        return error_body("key-reused", text), 422
    if recorded.game is None:  # the game first recorded with this key was voided since
        raise BadRequest("key-voided", _("the game recorded with this key was voided"))
    response = jsonify(public.names().game(recorded.game).to_json(with_id=True))
    response.headers["Location"] = url_for("api.game", game_id=recorded.game.id)
    if not recorded.new:
        response.headers["Idempotent-Replayed"] = "true"
    return response, 201


def _likely_duplicate(duplicate: recording.Duplicate) -> tuple[Response, int]:
    """409: the game recorded minutes ago that this one looks like; nothing was saved."""
    existing = public.names().game(duplicate.game)
    a, b = existing.players
    if duplicate.same:
        text = _(
            "%(a)s – %(b)s was just recorded with the same result. Send again: true if you played again.", a=a, b=b
        )
    else:
        text = _(
            "%(a)s – %(b)s was just recorded with another result. Send again: true if it was another game.", a=a, b=b
        )
    body = {
        "error": {"code": "likely-duplicate", "message": text},
        "game": existing.to_json(with_id=True),
        "same_result": duplicate.same,
        "entered": duplicate.entry.entered.isoformat(timespec="seconds"),
    }
    response = jsonify(body)
    response.headers["Location"] = url_for("api.game", game_id=existing.id)
    return response, 409


# --- tonight's small event --------------------------------------------------------------

EVENT_FIELDS = {"round", "board", "winner", "by"}


def _event_json(event: Tournament) -> dict[str, Any]:
    """An event as the API shows it: the current round's boards with handicaps and results, the standings.

    Players are named by their public labels, as on a player's phone. A decided board's handicap is
    as it was played (the history's game), a board still on has it from the board now.
    """
    # Long: one JSON document (an event's boards and standings) written out field by field, read beside docs/api.md.
    label = public.names().label
    store = get_store()
    how = tournaments.how_of(store, event.id)
    seats = event.round_seats(event.current)
    games = tournaments.played_games(store, event.id, seats)
    boards = []
    for seat, white, black, handicap in played_boards(event, store.magnets(), games, store.config, seats):
        board: dict[str, Any] = {
            "round": seat.round,
            "board": seat.board,
            "players": [label(n) for n in (seat.a, seat.b) if n is not None],
            "bye": seat.b is None,
            "result": seat.result,
        }
        if seat.b is not None and handicap is not None:
            winner = {A_WINS: seat.a, B_WINS: seat.b}.get(seat.result or "")
            ended = how.get((seat.round, seat.board))
            board |= {
                "white": label(white) if white else None,
                "black": label(black) if black else None,
                "handicap": handicap.to_json(),
                "training": handicap.training,
                "winner": label(winner) if winner else None,
                "by": None if ended in (None, "other") else ("resignation" if ended == "resignation" else float(ended)),
            }
        boards.append(board)
    table = event_standings(event)
    standings = [
        {
            "place": line.place,
            "nick": label(line.nick),
            "strength": as_number(line.strength),
            "score": float(line.score),
            "sos": float(line.sos),
            "sodos": float(line.sodos),
            "wins": line.wins,
            "draws": line.draws,
            "losses": line.losses,
            "byes": line.byes,
            "withdrawn": line.withdrawn,
            # the other tie-breaks, and the values the order used (the score, then the event's chain)
            "sosos": float(line.sosos),
            "progress": float(line.progress),
            "values": [float(v) for v in line.values],
        }
        for line in table
    ]
    found: dict[str, object] = {
        "id": event.id,
        "name": event.name,
        "evening": event.evening.isoformat(),
        "size": event.size,
        "format": event.format,
        "rounds": event.rounds,
        "round": event.current,
        "counts": event.counts,
        "closed": event.closed,
        "finished": event.finished,
        "players": [{"nick": label(p.nick), "strength": as_number(p.strength)} for p in event.players],
        "withdrawn": [{"nick": label(nick), "from_round": number} for nick, number in event.withdrawn],
        "boards": boards,
        "standings": standings,
        **_choices_json(event, table, label),
    }
    if event.format == ACCELERATED:  # accel: the standings by event level
        found["levels"] = [
            {
                "place": line.place,
                "nick": label(line.nick),
                "strength": as_number(line.strength),
                "level": as_number(line.level),
                "rise": as_number(line.climbed),
                "fus": as_number(line.coefficient),
                "wins": line.wins,
                "draws": line.draws,
                "losses": line.losses,
                "byes": line.byes,
                "withdrawn": line.withdrawn,
            }
            for line in accelerated_standings(event)
        ]
    return found


def _choices_json(event: Tournament, table: Sequence[Standing], label: Callable[[str], str]) -> dict[str, Any]:
    """the event's tie-breaks, places, handicap policy and prizes as the API shows them."""
    from kiosk.event_prizes import prizes

    return {
        "tiebreaks": list(event.tiebreaks),
        "unique_places": event.unique_places,
        "handicap_policy": {"at_most": event.handicap_cap, "less": event.handicap_less, "even_top": event.even_top},
        "first_round": event.first_round,
        "prizes": [
            {
                "kind": prize.kind,
                "nick": label(prize.nick),
                "place": prize.place,
                "low": None if prize.low is None else as_number(prize.low),
                "high": None if prize.high is None else as_number(prize.high),
                "wins": prize.wins,
            }
            for prize in prizes(table, event.prize_classes)
        ],
    }


def _no_event(event_id: int | None = None) -> tuple[Response, int]:
    if event_id is None:
        return error_body("no-event", _("There is no event tonight yet.")), 404
    return error_body("unknown-event", _("That event is not there any more.")), 404


@bp.get("/events/tonight")
def tonight_event() -> tuple[Response, int]:
    """Tonight's event: the open one, else the latest of the evening (club time)."""
    store = get_store()
    evening = club_evening(store.config, now())[0]
    event = tournaments.open_event(store, evening) or next(iter(tournaments.of_evening(store, evening)), None)
    if event is None:
        return _no_event()
    return jsonify(_event_json(event)), 200


@bp.get("/events/<int:event_id>")
def event(event_id: int) -> tuple[Response, int]:
    """One event by its id."""
    found = tournaments.get(get_store(), event_id)
    if found is None:
        return _no_event(event_id)
    return jsonify(_event_json(found)), 200


def _not_open(refused: str | None, seat: Seat | None, event: Tournament) -> tuple[Response, int]:
    """A tap on a board the core does not open to it (``tournament_store.tap_board``), in the API's words."""
    if refused == tournaments.BYE:
        return error_body("bye", _("That board is a bye: nobody plays on it this round, so there is no result.")), 409
    if refused == tournaments.LEFT and seat is not None:
        gone = next((n for n in (seat.a, seat.b) if n is not None and event.withdrawn_from(n) is not None), None)
        if gone is not None:
            stays = seat.b if gone == seat.a else seat.a
            label = public.names().label
            said = _("%(nick)s went home: %(other)s has the bye.", nick=label(gone), other=label(stays or ""))
            return error_body("went-home", said), 409
    return error_body("not-open", _("That round is over, or the event was closed. Here is what is on now.")), 409


@bp.post("/events/<int:event_id>/results")
@csrf.exempt  # JSON only (415 otherwise), which a cross-site form cannot send
def event_result(event_id: int) -> tuple[Response, int]:
    """A board's result, as one tap on a phone: the same tap again saves nothing (200), another result is a 409."""
    # Long: the JSON body's checks, each with its own error code, before the one use case.
    body = _body()
    unknown = set(body) - EVENT_FIELDS
    if unknown:
        raise BadRequest("unknown-field", _("unknown field %(field)s", field=excerpt(sorted(unknown)[0])))
    for name in ("round", "board", "winner"):
        if name not in body:
            raise BadRequest("missing-field", _("missing field %(field)s", field=name))
    round_number, board = body["round"], body["board"]
    if not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 999_999 for n in (round_number, board)):
        raise BadRequest("bad-board", _("round and board must be whole numbers from 1"))
    store = get_store()
    found = tournaments.get(store, event_id)
    if found is None:
        return _no_event(event_id)
    refused, seat = tournaments.tap_board(store, event_id, round_number, board)
    if refused is not None or seat is None or seat.b is None:
        return _not_open(refused, seat, found)
    winner = body["winner"]
    outcome: str | None
    if winner is None:
        outcome = DRAW
    else:
        named = public.names().nick_of_label(winner) or winner if isinstance(winner, str) else None
        keys = {nick_key(seat.a): A_WINS, nick_key(seat.b): B_WINS}
        outcome = keys.get(nick_key(named)) if isinstance(named, str) else None
        if outcome is None:
            text = _("winner must be one of the board's two players, or null for a draw")
            raise BadRequest("bad-winner", text)
    by = body.get("by")
    if outcome == DRAW:
        by = None
    elif by is None:
        by = "other"  # no margin: on time or otherwise, as the phone's "on time / other"
    elif isinstance(by, bool) or not isinstance(by, int | float | str):
        raise BadRequest("bad-margin", _('by must be the points, "resignation" or null'))
    origin = f"api:{request.remote_addr or '?'}"
    status, tapped = tournaments.record_result(store, event_id, round_number, board, outcome, by, now(), origin=origin)
    answer = tournaments.get(store, event_id)
    assert answer is not None
    if status == tournaments.TAKEN:
        return error_body("result-taken", _("This game already has a result. If that is wrong, tell the owner.")), 409
    if status not in (tournaments.SAVED, tournaments.ALREADY):  # the board closed while this tap was on its way
        return _not_open(status, tapped, answer)
    response = jsonify(_event_json(answer))
    response.headers["Location"] = url_for("api.event", event_id=event_id)
    if status == tournaments.ALREADY:
        response.headers["Idempotent-Replayed"] = "true"
        return response, 200
    return response, 201
