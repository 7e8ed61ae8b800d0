"""The JSON API described in OpenAPI 3.1 (served at /api/openapi.json; the tests check real answers against it)."""

from __future__ import annotations

from typing import Any

from kiosk.events import GAME_KINDS, RATED
from kiosk.handicap import SIZES
from kiosk.rules import WHYS
from kiosk.tournament import FORMATS, OUTCOMES

# Sizes as a query string carries them.
SIZE_TEXTS = {"enum": [str(size) for size in SIZES]}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], text: str) -> dict[str, Any]:
    return {"description": text, "content": {"application/json": {"schema": schema}}}


ERROR = _json(_ref("Error"), "Bad input or no such thing; nothing changed.")
NUMBER = {"type": "number"}
KIND_MEANS = (
    "rated moves magnets; teaching, simultaneous, rengo and event games are kept in the history "
    "but move no magnet (every move's why is not-rated), use no free loss and do not count towards membership."
)
KIND = {"enum": list(GAME_KINDS), "description": KIND_MEANS}
NEXT = {"type": ["string", "null"], "description": "The link to the following page; null on the last page."}
MARGIN = {"oneOf": [NUMBER, {"const": "resignation"}, {"type": "null"}]}
WHOLE = {"type": "integer", "minimum": 1}

SCHEMAS_ERROR_BODY: dict[str, Any] = {
    "type": "object",
    "required": ["code", "message"],
    "additionalProperties": False,
    "properties": {
        "code": {"type": "string", "description": "Stable, e.g. unknown-player, bad-limit, not-found."},
        "message": {"type": "string", "description": "In the language of Accept-Language."},
    },
}

SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "additionalProperties": False,
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message"],
                "additionalProperties": False,
                "properties": {
                    "code": {"type": "string", "description": "Stable, e.g. unknown-player, bad-limit, not-found."},
                    "message": {"type": "string", "description": "In the language of Accept-Language."},
                },
            }
        },
    },
    "Magnet": {
        "type": "object",
        "required": ["nick", "size", "strength", "status"],
        "properties": {
            "nick": {"type": "string", "description": "The player's public label (the nickname unless hidden)."},
            "size": {"enum": list(SIZES)},
            "strength": NUMBER,
            "status": {"enum": ["guest", "member"]},
            "retired": {"type": "boolean"},
            "primary": {"type": "boolean"},
        },
        "additionalProperties": False,
    },
    "Handicap": {
        "type": "object",
        "required": ["even"],
        "properties": {"even": {"type": "boolean"}, "moves": {"type": "integer"}, "prisoners": {"type": "integer"}},
        "additionalProperties": False,
    },
    "Move": {
        "type": "object",
        "required": ["from", "to", "why"],
        "properties": {"from": NUMBER, "to": NUMBER, "why": {"enum": list(WHYS)}},
        "additionalProperties": False,
    },
    "Game": {
        "type": "object",
        "required": ["id", "at", "size", "players", "white", "handicap", "training", "moves", "winner", "by"],
        "properties": {
            "id": {"type": "integer"},
            "at": {"type": "string", "description": "Club time, like 2026-11-03T19:10."},
            "size": {"enum": list(SIZES)},
            "players": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2},
            "white": {"type": ["string", "null"]},
            "handicap": _ref("Handicap"),
            "training": {"type": "boolean"},
            "kind": {**KIND, "description": "Only for a game that is not rated (absent: rated). " + KIND_MEANS},
            "moves": {"type": "object", "additionalProperties": _ref("Move")},
            "winner": {"type": ["string", "null"], "description": "null for a draw."},
            "by": {"oneOf": [NUMBER, {"const": "resignation"}, {"type": "null"}]},
        },
        "additionalProperties": False,
    },
    "Player": {
        "type": "object",
        "required": ["nick", "magnets"],
        "properties": {"nick": {"type": "string"}, "magnets": {"type": "array", "items": _ref("Magnet")}},
        "additionalProperties": False,
    },
    "PlayerWithGames": {
        "type": "object",
        "required": ["nick", "magnets", "games", "next"],
        "properties": {
            "nick": {"type": "string"},
            "magnets": {"type": "array", "items": _ref("Magnet")},
            "games": {"type": "array", "items": _ref("Game")},
            "next": NEXT,
        },
        "additionalProperties": False,
    },
    "GamesPage": {
        "type": "object",
        "required": ["games", "next"],
        "properties": {"games": {"type": "array", "items": _ref("Game")}, "next": NEXT},
        "additionalProperties": False,
    },
    "PlayersPage": {
        "type": "object",
        "required": ["players", "next"],
        "properties": {"players": {"type": "array", "items": _ref("Player")}, "next": NEXT},
        "additionalProperties": False,
    },
    "Board": {
        "type": "object",
        "required": ["size", "magnets"],
        "properties": {"size": {"enum": list(SIZES)}, "magnets": {"type": "array", "items": _ref("Magnet")}},
        "additionalProperties": False,
    },
    "Pairing": {
        "type": "object",
        "required": ["size", "players", "difference", "white", "black", "handicap", "training"],
        "properties": {
            "size": {"enum": list(SIZES)},
            "players": {"type": "array", "items": {"type": "string"}},
            "difference": NUMBER,
            "white": {"type": ["string", "null"]},
            "black": {"type": ["string", "null"]},
            "handicap": _ref("Handicap"),
            "training": {"type": "boolean"},
        },
        "additionalProperties": False,
    },
    "NewGame": {
        "type": "object",
        "required": ["size", "players", "winner"],
        "properties": {
            "size": {"enum": list(SIZES)},
            "players": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2},
            "winner": {"type": ["string", "null"]},
            "by": {"oneOf": [NUMBER, {"const": "resignation"}, {"type": "null"}]},
            "at": {"type": "string"},
            "key": {
                "type": "string",
                "description": (
                    "Idempotency key, this client's own (by its address): the same key with the same game again "
                    "records nothing and answers the first result; with another game it is a 422."
                ),
            },
            "kind": {**KIND, "default": RATED},
            "again": {
                "type": "boolean",
                "default": False,
                "description": "True when the players played this pair again: no likely-duplicate question.",
            },
        },
        "additionalProperties": False,
    },
    "LikelyDuplicate": {
        "type": "object",
        "description": "Another phone or client recorded this pair on this size minutes ago; nothing was saved.",
        "required": ["error", "game", "same_result", "entered"],
        "properties": {
            "error": SCHEMAS_ERROR_BODY,
            "game": _ref("Game"),
            "same_result": {"type": "boolean", "description": "The same winner, margin and kind as the one sent."},
            "entered": {"type": "string", "description": "When the game was recorded (UTC, ISO 8601)."},
        },
        "additionalProperties": False,
    },
    "EventBoard": {
        "type": "object",
        "description": "One board of the round being played; a bye has one player and no handicap.",
        "required": ["round", "board", "players", "bye", "result"],
        "properties": {
            "round": WHOLE,
            "board": WHOLE,
            "players": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2},
            "bye": {"type": "boolean", "description": "The player sits out this round: it counts as a win (1 point)."},
            "result": {
                "enum": [*OUTCOMES, None],
                "description": "a: the first player won, b: the second, draw; null while the game is on.",
            },
            "white": {"type": ["string", "null"], "description": "Who takes White; null in an even game (nigiri)."},
            "black": {"type": ["string", "null"]},
            "handicap": {
                **_ref("Handicap"),
                "description": "As played for a decided board, from the board now for a game still on.",
            },
            "training": {"type": "boolean"},
            "winner": {"type": ["string", "null"], "description": "null for a draw and while the game is on."},
            "by": {**MARGIN, "description": "Points, resignation, or null (on time, otherwise, a draw)."},
        },
        "additionalProperties": False,
    },
    "Standing": {
        "type": "object",
        "required": [
            "place",
            "nick",
            "strength",
            "score",
            "sos",
            "sodos",
            "wins",
            "draws",
            "losses",
            "byes",
            "withdrawn",
        ],
        "properties": {
            "place": WHOLE,
            "nick": {"type": "string"},
            "strength": {**NUMBER, "description": "On the event's size, at its start."},
            "score": {**NUMBER, "description": "A win 1, a draw 0.5, a bye 1."},
            "sos": {**NUMBER, "description": "The sum of the opponents' scores (the first tie-break)."},
            "sodos": {**NUMBER, "description": "The sum of the scores of the opponents beaten (the second)."},
            "wins": {"type": "integer"},
            "draws": {"type": "integer"},
            "losses": {"type": "integer"},
            "byes": {"type": "integer"},
            "withdrawn": {"type": "boolean", "description": "Went home mid-event: plays no more games in it."},
            "sosos": {**NUMBER, "description": "The sum of the opponents' SOS."},
            "progress": {**NUMBER, "description": "The score after each round, added up."},
            "values": {
                "type": "array",
                "items": NUMBER,
                "description": "What the order used: the score, then each tie-break of the event's chain.",
            },
        },
        "additionalProperties": False,
    },
    "Event": {
        "type": "object",
        "description": "A small event of a club evening: its format follows the turnout, every game has the "
        "board's handicap. A player who went home plays no more games: each unplayed game of theirs is the "
        "opponent's bye.",
        "required": [
            "id",
            "name",
            "evening",
            "size",
            "format",
            "rounds",
            "round",
            "counts",
            "closed",
            "finished",
            "players",
            "withdrawn",
            "boards",
            "standings",
        ],
        "properties": {
            "id": WHOLE,
            "name": {"type": "string"},
            "evening": {"type": "string", "format": "date", "description": "The club evening it belongs to."},
            "size": {"enum": list(SIZES)},
            "format": {"enum": list(FORMATS)},
            "rounds": WHOLE,
            "round": {**WHOLE, "description": "The round being played (the last one once all are played)."},
            "counts": {"type": "boolean", "description": "Its results are rated games that move magnets."},
            "closed": {"type": "boolean"},
            "finished": {"type": "boolean"},
            "players": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["nick", "strength"],
                    "properties": {"nick": {"type": "string"}, "strength": NUMBER},
                    "additionalProperties": False,
                },
            },
            "withdrawn": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["nick", "from_round"],
                    "properties": {"nick": {"type": "string"}, "from_round": WHOLE},
                    "additionalProperties": False,
                },
            },
            "boards": {"type": "array", "items": _ref("EventBoard")},
            "standings": {"type": "array", "items": _ref("Standing")},
            "tiebreaks": {
                "type": "array",
                "items": {"enum": ["direct", "sos", "sosos", "sodos", "progress"]},
                "description": "The owner's chain after the score (docs/events.md); byes add 0 to SOS (EGF).",
            },
            "unique_places": {"type": "boolean", "description": "Still equal: the stronger at the start above."},
            "handicap_policy": {
                "type": "object",
                "description": "Starting moves at most (null: no cap) and less, and how many strongest play even.",
                "properties": {
                    "at_most": {"type": ["integer", "null"]},
                    "less": {"type": "integer"},
                    "even_top": {"type": "integer"},
                },
                "additionalProperties": False,
            },
            "first_round": {"enum": ["adjacent", "fold"]},
            "prizes": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["kind", "nick", "place"],
                    "properties": {
                        "kind": {"enum": ["place", "class", "wins"]},
                        "nick": {"type": "string"},
                        "place": WHOLE,
                        "low": {"type": ["number", "null"], "description": "A class's lowest field (null: none)."},
                        "high": {"type": ["number", "null"], "description": "The next class's lowest field."},
                        "wins": {"type": "integer"},
                    },
                    "additionalProperties": False,
                },
            },
            # accel: an accelerated event's standings by event level (docs/events.md)
            "levels": {
                "type": "array",
                "description": "An accelerated event only: its standings by event level, in quarters as numbers.",
                "items": {
                    "type": "object",
                    "required": ["place", "nick", "strength", "level", "rise", "fus", "wins", "draws", "losses"],
                    "properties": {
                        "place": WHOLE,
                        "nick": {"type": "string"},
                        "strength": NUMBER,
                        "level": NUMBER,
                        "rise": NUMBER,
                        "fus": NUMBER,
                        "wins": {"type": "integer"},
                        "draws": {"type": "integer"},
                        "losses": {"type": "integer"},
                        "byes": {"type": "integer"},
                        "withdrawn": {"type": "boolean"},
                    },
                    "additionalProperties": False,
                },
            },
        },
        "additionalProperties": False,
    },
    "EventResult": {
        "type": "object",
        "description": "One board's result, as one tap on a phone.",
        "required": ["round", "board", "winner"],
        "properties": {
            "round": WHOLE,
            "board": WHOLE,
            "winner": {"type": ["string", "null"], "description": "One of the board's two players; null: a draw."},
            "by": {**MARGIN, "description": "Points, resignation, or null (on time or otherwise)."},
        },
        "additionalProperties": False,
    },
    "NewGuest": {
        "type": "object",
        "required": ["nick"],
        "properties": {
            "nick": {"type": "string"},
            "size": {"enum": list(SIZES)},
            "kyu": {"type": "integer"},
            "dan": {"type": "integer"},
        },
        "additionalProperties": False,
    },
}


def _query(name: str, schema: dict[str, Any], text: str, required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": required, "schema": schema, "description": text}


LIMIT = _query("limit", {"type": "integer", "minimum": 1, "maximum": 1000}, "Items per page.")
EVENT_ID = {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
LOCATION = {"Location": {"schema": {"type": "string"}, "description": "Where the new thing can be read."}}


def description() -> dict[str, Any]:
    """The OpenAPI 3.1 document."""
    # Long: one literal document (the API's OpenAPI description), read beside docs/api.md.
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Semedori Board",
            "version": "1",
            "description": 'A Go club\'s strength board. Errors are {"error": {"code", "message"}}; codes are stable. '
            "Players are named by their public label: the nickname, or initials or a short name where the club "
            "shows those; players hidden from public pages are not listed, and games name them by label.",
        },
        "paths": {
            "/api/board": {
                "get": {
                    "summary": "The magnets of one size, strongest first",
                    "parameters": [_query("size", SIZE_TEXTS, "Board size (13 when left out).")],
                    "responses": {"200": _json(_ref("Board"), "The board."), "400": ERROR},
                }
            },
            "/api/players": {
                "get": {
                    "summary": "Every player with their magnets, by nickname",
                    "parameters": [LIMIT, _query("after", {"type": "string"}, "Cursor: the last nickname seen.")],
                    "responses": {"200": _json(_ref("PlayersPage"), "A page of players."), "400": ERROR},
                },
                "post": {
                    "summary": "Add a guest at 0, or from a kyu/dan grade",
                    "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("NewGuest")}}},
                    "responses": {
                        "201": {**_json(_ref("Magnet"), "The new magnet."), "headers": LOCATION},
                        "400": ERROR,
                        "415": ERROR,
                    },
                },
            },
            "/api/players/{nick}": {
                "get": {
                    "summary": "One player: magnets and the latest games",
                    "parameters": [{"name": "nick", "in": "path", "required": True, "schema": {"type": "string"}}],
                    "responses": {"200": _json(_ref("PlayerWithGames"), "The player."), "404": ERROR},
                }
            },
            "/api/games": {
                "get": {
                    "summary": "Games, newest first, a page at a time",
                    "parameters": [
                        LIMIT,
                        _query("before", {"type": "integer"}, "Cursor: the games after this game id."),
                        _query("player", {"type": "string"}, "Only this player's games."),
                        _query("since", {"type": "string", "format": "date"}, "Played on or after this day."),
                        _query("until", {"type": "string", "format": "date"}, "Played on or before this day."),
                    ],
                    "responses": {"200": _json(_ref("GamesPage"), "A page of games."), "400": ERROR},
                },
                "post": {
                    "summary": "Record a game",
                    "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("NewGame")}}},
                    "responses": {
                        "201": {**_json(_ref("Game"), "The game and how both magnets moved."), "headers": LOCATION},
                        "400": ERROR,
                        "409": _json(
                            _ref("LikelyDuplicate"),
                            "likely-duplicate: the same pair on the same size was recorded minutes ago by another "
                            "phone or client (the club's same_game_minutes); that game is in the answer. Send it "
                            'again with "again": true if it was another game.',
                        ),
                        "415": ERROR,
                        "422": ERROR,
                        "503": ERROR,
                    },
                },
            },
            "/api/games/{id}": {
                "get": {
                    "summary": "One game",
                    "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}],
                    "responses": {"200": _json(_ref("Game"), "The game."), "404": ERROR},
                }
            },
            "/api/events/tonight": {
                "get": {
                    "summary": "Tonight's event: the open one, else the evening's latest",
                    "responses": {"200": _json(_ref("Event"), "The event."), "404": ERROR},
                }
            },
            "/api/events/{id}": {
                "get": {
                    "summary": "One event: the current round's boards with handicaps and results, the standings",
                    "parameters": [EVENT_ID],
                    "responses": {"200": _json(_ref("Event"), "The event."), "404": ERROR},
                }
            },
            "/api/events/{id}/results": {
                "post": {
                    "summary": "Record a board's result (the same result again saves nothing)",
                    "parameters": [EVENT_ID],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref("EventResult")}},
                    },
                    "responses": {
                        "201": {**_json(_ref("Event"), "Saved: the event as it now stands."), "headers": LOCATION},
                        "200": {
                            **_json(_ref("Event"), "The same result was in already; nothing saved."),
                            "headers": LOCATION,
                        },
                        "400": ERROR,
                        "404": ERROR,
                        "409": _json(
                            _ref("Error"),
                            "result-taken: the board has another result (the owner corrects it; of phones "
                            "tapping one board at once the first decides, every other result is this 409); "
                            "not-open: no such board on now, or the event is closed; "
                            "bye: the board is a player's bye (nothing to enter); "
                            "went-home: one of its players went home, so it is the other's bye.",
                        ),
                        "415": ERROR,
                        "503": ERROR,
                    },
                }
            },
            "/api/handicap": {
                "get": {
                    "summary": "The handicap between two players, or two strengths",
                    "parameters": [
                        _query("size", SIZE_TEXTS, "Board size.", True),
                        _query("a", {"type": "string"}, "A nickname or a strength.", True),
                        _query("b", {"type": "string"}, "A nickname or a strength.", True),
                    ],
                    "responses": {"200": _json(_ref("Pairing"), "Who takes White, and what Black gets."), "400": ERROR},
                }
            },
        },
        "components": {"schemas": SCHEMAS},
    }
