"""History events and the history file's lines (docs/rules.md §7), both ways.

``parse_event`` checks everything a line can say about itself (fields, types, sizes,
fields of the scale, margins); what needs the board (unknown players, a draw in an
even game) is checked by the replay.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import date, datetime
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal, NamedTuple

from kiosk.errors import HistoryError
from kiosk.handicap import SIZES, SizeRules
from kiosk.scale import MAX_DAN, MAX_KYU, Quarters, as_number, is_field, quarters

NICK_LIMIT = 30
RESIGNATION: Literal["resignation"] = "resignation"
GUEST, MEMBER = "guest", "member"
STATUSES = (GUEST, MEMBER)
# The kinds of game (docs/rules.md §4): only a rated game moves magnets. A teaching game, a
# simultaneous, a rengo and an event-only game are kept in the history and move nothing.
RATED = "rated"
GAME_KINDS = (RATED, "teaching", "simultaneous", "rengo", "event")

Margin = Fraction | Literal["resignation"] | None


@dataclass(frozen=True, slots=True)
class PlayerAdded:
    """A new magnet: a guest at 0 or from a grade, or a member at any field."""

    at: datetime
    nick: str
    size: int
    status: str
    strength: Quarters | None = None
    kyu: int | None = None
    dan: int | None = None
    note: str | None = None


class TournamentBoard(NamedTuple):
    """Which event, round and board a game's result was tapped for (docs/events.md)."""

    tournament: int
    round: int
    board: int


class GamePlayed(NamedTuple):
    """A game's result; ``winner`` None is a draw, ``by`` the margin (or resignation), ``kind`` one of GAME_KINDS."""

    # A NamedTuple rather than a frozen dataclass: as immutable, and a history holds
    # tens of thousands of games, where a frozen dataclass's __init__ is five times slower.

    at: datetime
    size: int
    players: tuple[str, str]
    winner: str | None
    by: Margin
    id: int | None = None
    note: str | None = None
    kind: str = RATED
    # The evening event's board it was tapped on (kiosk.tournament): the game and the board's result are one line.
    tournament: TournamentBoard | None = None
    # tiebreak: the handicap played when an event's policy changed the table's (kiosk.event_handicap): starting
    # moves and prisoners, (0, 0) for an even game; None: the table's, as for every other game.
    handicap: tuple[int, int] | None = None

    @property
    def rated(self) -> bool:
        """True for a game that moves magnets (docs/rules.md §4)."""
        return self.kind == RATED


@dataclass(frozen=True, slots=True)
class Correction:
    """A quick correction: rehang a magnet, with the strong member who agreed."""

    at: datetime
    nick: str
    size: int
    strength: Quarters | None = None
    status: str | None = None
    with_member: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Shift:
    """Move every magnet of a size, of all sizes, or of a group by the same amount."""

    at: datetime
    amount: Quarters
    size: int | None = None
    nicks: tuple[str, ...] | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Merge:
    """Two records of one person: the duplicate's history becomes the kept player's."""

    at: datetime
    duplicate: str
    kept: str
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Unmerge:
    """Undo a merge: the duplicate's events are its own again."""

    at: datetime
    duplicate: str
    kept: str
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Void:
    """A past game that did not count; the board is replayed without it."""

    at: datetime
    game: int
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Edit:
    """A past game corrected: it is replayed as ``corrected`` in place of the original."""

    at: datetime
    game: int
    corrected: GamePlayed
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Rename:
    """A player's new nickname, through the whole history."""

    at: datetime
    old: str
    new: str
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Retire:
    """A magnet leaves the wall (it keeps its history; a game brings it back)."""

    at: datetime
    nick: str
    size: int
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Restore:
    """A retired magnet comes back on the wall."""

    at: datetime
    nick: str
    size: int
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Primary:
    """Which magnet gives the player's strength in occasional games."""

    at: datetime
    nick: str
    size: int
    note: str | None = None


@dataclass(frozen=True, slots=True)
class OwnerNote:
    """A note the owner keeps in the history; it moves nothing."""

    at: datetime
    note: str


@dataclass(frozen=True, slots=True)
class RuleChange:
    """The club changed a rule from this date on: games before it keep the rules then in force.

    Only what changed is named: a size's handicap parameters (all three of a size, as the
    owner's page shows them), the guest losses, the top. Nothing named stays as it was.
    """

    at: datetime
    handicap: tuple[SizeRules, ...] = ()
    guest_losses: int | None = None
    top: Quarters | None = None
    note: str | None = None


# --- the evenings' events (kiosk.tournament folds them; docs/events.md, docs/rules.md §7) ---------------
# Kept in a block of their own. None of them moves a magnet: the replay of the board skips them;
# a tap is the game itself (GamePlayed.tournament), its corrections the game's Edit and Void.

TOURNAMENT_FORMATS = ("double-round-robin", "round-robin", "swiss", "accelerated")  # kiosk.tournament.FORMATS
TOURNAMENT_NAME_LIMIT = 60


class TournamentPlayer(NamedTuple):
    """A player of an event as it started: nickname, strength on the event's size (quarters), guest, occasional."""

    nick: str
    strength: Quarters
    guest: bool = False
    occasional: bool = False


class TournamentSeat(NamedTuple):
    """One board of a round as it was paired: ``a`` plays ``b`` (None: ``a`` has the bye)."""

    round: int
    board: int
    a: str
    b: str | None


@dataclass(frozen=True, slots=True)
class TournamentStarted:
    """An event starts: its players (seeded, strongest first, strengths at the start) and its first rounds' pairings."""

    at: datetime
    tournament: int
    evening: date
    size: int
    format: str
    rounds: int
    counts: bool
    players: tuple[TournamentPlayer, ...]
    seats: tuple[TournamentSeat, ...]
    name: str = ""
    note: str | None = None
    # tiebreak: the owner's tie-breaks and places, handicap policy, pairing constraints;
    # each written to the line only when not the default (the default is the behaviour before it existed).
    tiebreaks: tuple[str, ...] | None = None  # None: SOS, SODOS (kiosk.tiebreak.TODAY)
    unique_places: bool = False
    handicap_cap: int | None = None  # at most this many starting moves
    handicap_less: int = 0  # this many starting moves less than the board's table
    even_top: int = 0  # the event's strongest this many play each other even
    avoid: tuple[tuple[str, str], ...] = ()  # pairs not to meet early (siblings, parent and child)
    first_round: str = "adjacent"  # a Swiss's round 1: "adjacent" (1-2, 3-4) or "fold" (strongest vs weakest)
    prize_classes: tuple[Quarters, ...] = ()  # the lowest field of each class prize's class above the first
    # league: late starters' missed rounds, a league across evenings (kiosk/league.py; docs/events.md, "Late
    # arrivals, leagues across evenings, lists in and out"). Written to the line only when not the default.
    late: str = "half"  # each round a late starter missed: "half" (½), "bye" (1, as a bye) or "zero"
    per_evening: int = 0  # a league: its rounds per club evening; 0 is an event of one evening
    absent: str = "zero"  # a league: each round of an evening a player was not there for ("zero", "half", "bye")
    # accel: an accelerated handicap event's cap (kiosk.accelerated): the most starting moves a pairing may give.
    # None for every other format; written only when set, so older histories export byte-identically.
    pairing_cap: int | None = None


@dataclass(frozen=True, slots=True)
class TournamentRound:
    """A Swiss round's pairing, kept as it was made (a later change of the pairing code changes no past event)."""

    at: datetime
    tournament: int
    round: int
    seats: tuple[TournamentSeat, ...]
    note: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentWithdrawal:
    """A player went home: from ``round`` on their games without a result are the opponents' byes."""

    at: datetime
    tournament: int
    nick: str
    round: int
    note: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentClosed:
    """The owner closed the event (its results stay)."""

    at: datetime
    tournament: int
    note: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentReopened:
    """The owner reopened a closed event."""

    at: datetime
    tournament: int
    note: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentLinked:
    """A board's result that an older kiosk kept in its own tables: the history's ``game`` it became, or (an
    event whose results were no games) the ``result`` and ``how`` themselves. Written only when such a database
    is converted on opening."""

    at: datetime
    tournament: int
    round: int
    board: int
    game: int | None = None
    result: str | None = None
    how: str | None = None
    note: str | None = None


# league: late arrivals and returns, a league's evenings, a deleted event, a phone's ask (kiosk/league.py).


@dataclass(frozen=True, slots=True)
class TournamentJoined:
    """A late starter joins the event: plays from ``round`` on (the rounds before it are credited by the event's
    ``late`` setting); strength on the event's size when they joined."""

    at: datetime
    tournament: int
    nick: str
    strength: Quarters
    round: int
    guest: bool = False
    occasional: bool = False
    note: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentReturned:
    """A player who went home is back: paired again from ``round`` on."""

    at: datetime
    tournament: int
    nick: str
    round: int
    note: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentEvening:
    """A league's club evening begins: round ``round`` paired among the players there that night."""

    at: datetime
    tournament: int
    evening: date
    round: int
    seats: tuple[TournamentSeat, ...]
    note: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentDeleted:
    """The owner deleted an event made by mistake: it is gone from every list; its tapped games stay games."""

    at: datetime
    tournament: int
    note: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentAsked:
    """A player's phone asked to join the event (or, for one who went home, to come back); the owner answers."""

    at: datetime
    tournament: int
    nick: str
    note: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentDeclined:
    """The owner said no to a phone's ask."""

    at: datetime
    tournament: int
    nick: str
    note: str | None = None


LEAGUE_EVENTS = (
    TournamentJoined,
    TournamentReturned,
    TournamentEvening,
    TournamentDeleted,
    TournamentAsked,
    TournamentDeclined,
)

TOURNAMENT_EVENTS = (
    TournamentStarted,
    TournamentRound,
    TournamentWithdrawal,
    TournamentClosed,
    TournamentReopened,
    TournamentLinked,
    *LEAGUE_EVENTS,
)


# --- one game, one record: a second phone's "same game" -----------------------


@dataclass(frozen=True, slots=True)
class Confirm:
    """A second phone said "yes, same game": the game stands as confirmed by both players; it moves nothing."""

    at: datetime
    game: int
    note: str | None = None


Event = (
    PlayerAdded
    | GamePlayed
    | Correction
    | Shift
    | Merge
    | Unmerge
    | Void
    | Edit
    | Rename
    | Retire
    | Restore
    | Primary
    | OwnerNote
    | RuleChange
    | TournamentStarted
    | TournamentRound
    | TournamentWithdrawal
    | TournamentClosed
    | TournamentReopened
    | TournamentLinked
    | TournamentJoined
    | TournamentReturned
    | TournamentEvening
    | TournamentDeleted
    | TournamentAsked
    | TournamentDeclined
    | Confirm
)
# Events that rewrite the past (or every name in it): after one the board is replayed whole.
META_EVENTS = (Merge, Unmerge, Void, Edit, Rename)


# --- names ---------------------------------------------------------------------------

_INVISIBLE = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}


def clean_nick(raw: object) -> str:
    """A nickname as stored: NFC, trimmed, inner spaces folded; rejects invisible characters."""
    if not isinstance(raw, str):
        raise HistoryError("bad-nick", limit=NICK_LIMIT)
    return _clean_nick(raw)


@lru_cache(maxsize=8192)  # a club has few nicknames and replay meets each one thousands of times
def _clean_nick(raw: str) -> str:
    nick = " ".join(unicodedata.normalize("NFC", raw).split())
    if any(unicodedata.category(ch) in _INVISIBLE for ch in nick):
        raise HistoryError("invisible-nick")
    if not 1 <= len(nick) <= NICK_LIMIT:
        raise HistoryError("bad-nick", limit=NICK_LIMIT)
    return nick


@lru_cache(maxsize=8192)
def nick_key(nick: str) -> str:
    """What makes two nicknames the same: NFC and case folding (docs/rules.md §2)."""
    return unicodedata.normalize("NFC", nick).casefold()


# --- times and numbers -----------------------------------------------------------------


def parse_at(raw: object) -> datetime:
    """A local club time like ``2026-11-03T19:10`` (no time zone: the club's is implied)."""
    if not isinstance(raw, str) or len(raw) < 16 or raw[10] != "T":
        raise HistoryError("bad-at", value=raw)
    try:
        at = datetime.fromisoformat(raw)
    except ValueError:
        raise HistoryError("bad-at", value=raw) from None
    if at.tzinfo is not None:
        raise HistoryError("bad-at", value=raw)
    return at


def format_at(at: datetime) -> str:
    """The history file's form of a time: minutes, or seconds when it has them."""
    if at.second == 0 and at.microsecond == 0:
        return at.isoformat(timespec="minutes")
    return at.isoformat(timespec="seconds")


def _size(raw: object) -> int:
    if isinstance(raw, bool) or raw not in SIZES:
        raise HistoryError("bad-size", value=raw)
    return int(raw)


def _strength(raw: object) -> Quarters:
    try:
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise ValueError
        q = quarters(raw)
    except (ValueError, OverflowError):
        raise HistoryError("bad-strength", value=raw) from None
    if not is_field(q, top=10**9):
        raise HistoryError("bad-strength", value=raw)
    return q


def _status(raw: object) -> str:
    if raw not in STATUSES:
        raise HistoryError("bad-status", value=raw)
    return str(raw)


def margin_limit(size: int) -> int:
    """The largest believable margin: the whole board's area in points."""
    return size * size


def parse_margin(raw: object, size: int) -> Margin:
    """``by`` of a win: points in halves up to the board's area, ``"resignation"`` or None."""
    if raw is None:
        return None
    if raw == RESIGNATION:
        return RESIGNATION
    if isinstance(raw, bool) or not isinstance(raw, int | float) or raw != raw:
        raise HistoryError("bad-margin", value=raw, limit=margin_limit(size))
    points = _points(raw, size)
    if points is None:
        raise HistoryError("bad-margin", value=raw, limit=margin_limit(size))
    return points


@lru_cache(maxsize=4096)  # margins repeat; Fraction arithmetic costs more than the lookup
def _points(raw: int | float, size: int) -> Fraction | None:
    try:
        points = Fraction(raw)
    except (ValueError, OverflowError):
        return None
    if points <= 0 or points > margin_limit(size) or (points * 2).denominator != 1:
        return None
    return points


def margin_json(by: Margin) -> object:
    """A margin as it stands in the history file."""
    if isinstance(by, Fraction):
        return int(by) if by.denominator == 1 else float(by)
    return by


def parse_kind(raw: object) -> str:
    """A game's kind as a line states it: one of GAME_KINDS (a line without ``kind`` is a rated game)."""
    if not isinstance(raw, str) or raw not in GAME_KINDS:
        raise HistoryError("bad-kind", value=raw)
    return raw


def _kind(raw: dict[str, Any]) -> str:
    return parse_kind(raw["kind"]) if "kind" in raw else RATED


def _note(raw: object) -> str | None:
    if raw is None:
        return None
    if not isinstance(raw, str) or len(raw) > 500:
        raise HistoryError("bad-field", field="note", detail="a text of at most 500 characters")
    return raw


def _int(raw: object, field: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise HistoryError("bad-field", field=field, detail="a whole number")
    return raw


# --- the evenings' events' lines (their own block; see the classes above) -----------------------------

# tiebreak: the start line's optional fields (see TournamentStarted).
TIEBREAK_START_FIELDS = ("tiebreaks", "places", "handicap", "avoid", "first_round", "classes")
TIEBREAK_CRITERIA = ("direct", "sos", "sosos", "sodos", "progress")  # kiosk.tiebreak.CRITERIA
FIRST_ROUNDS = ("adjacent", "fold")
HANDICAP_POLICY_LIMIT = 9  # starting moves: the Russian text gives no more than 9 steps

TOURNAMENT_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "tournament-start": (
        frozenset({"tournament", "evening", "size", "format", "rounds", "counts", "players", "seats"}),
        frozenset(
            {"name", "late", "per_evening", "absent", "pairing_cap", *TIEBREAK_START_FIELDS}
        ),  # league: late, per_evening, absent; accel: pairing_cap
    ),
    "tournament-round": (frozenset({"tournament", "round", "seats"}), frozenset()),
    "tournament-withdraw": (frozenset({"tournament", "nick", "round"}), frozenset()),
    "tournament-close": (frozenset({"tournament"}), frozenset()),
    "tournament-reopen": (frozenset({"tournament"}), frozenset()),
    "tournament-link": (frozenset({"tournament", "round", "board"}), frozenset({"game", "result", "how"})),
    # league: its own lines
    "tournament-join": (frozenset({"tournament", "nick", "strength", "round"}), frozenset({"guest", "occasional"})),
    "tournament-return": (frozenset({"tournament", "nick", "round"}), frozenset()),
    "tournament-evening": (frozenset({"tournament", "evening", "round", "seats"}), frozenset()),
    "tournament-delete": (frozenset({"tournament"}), frozenset()),
    "tournament-ask": (frozenset({"tournament", "nick"}), frozenset()),
    "tournament-decline": (frozenset({"tournament", "nick"}), frozenset()),
}
_TOURNAMENT_RESULTS = ("a", "b", "draw")  # kiosk.tournament.OUTCOMES


def _positive(raw: object, field: str) -> int:
    number = _int(raw, field)
    if number < 1:
        raise HistoryError("bad-field", field=field, detail="a whole number from 1")
    return number


def _tournament_board(raw: dict[str, Any]) -> TournamentBoard | None:
    given = [name for name in ("tournament", "round", "board") if name in raw]
    if not given:
        return None
    if len(given) != 3:
        missing = sorted({"tournament", "round", "board"} - set(given))[0]
        raise HistoryError("missing-field", field=missing)
    return TournamentBoard(*(_positive(raw[name], name) for name in ("tournament", "round", "board")))


def tournament_board_json(board: TournamentBoard) -> dict[str, Any]:
    """A tapped game's event board as its line carries it."""
    return {"tournament": board.tournament, "round": board.round, "board": board.board}


def _seat_list(raw: object, round_number: int | None) -> tuple[TournamentSeat, ...]:
    """Seats as a line lists them: ``[round, board, a, b]`` (a start's) or ``[board, a, b]`` (a round's)."""
    width = 4 if round_number is None else 3
    detail = "a list of [round, board, nick, nick or null]" if width == 4 else "a list of [board, nick, nick or null]"
    if not isinstance(raw, list) or not raw:
        raise HistoryError("bad-field", field="seats", detail=detail)
    seats = []
    for item in raw:
        if not isinstance(item, list) or len(item) != width:
            raise HistoryError("bad-field", field="seats", detail=detail)
        numbers, (a, b) = item[:-2], item[-2:]
        number = round_number if round_number is not None else _positive(numbers[0], "seats")
        board = _positive(numbers[-1], "seats")
        a = clean_nick(a)
        b = None if b is None else clean_nick(b)
        if b is not None and nick_key(a) == nick_key(b):
            raise HistoryError("same-player", nick=a)
        seats.append(TournamentSeat(number, board, a, b))
    if len({(s.round, s.board) for s in seats}) != len(seats):
        raise HistoryError("bad-field", field="seats", detail="each board once a round")
    return tuple(seats)


def _tournament_player(raw: object) -> TournamentPlayer:
    detail = 'a list of {"nick": ..., "strength": ...}'
    allowed = {"nick", "strength", "guest", "occasional"}
    if not isinstance(raw, dict) or not {"nick", "strength"} <= raw.keys() <= allowed:
        raise HistoryError("bad-field", field="players", detail=detail)
    flags = [raw.get(name, False) for name in ("guest", "occasional")]
    if not all(isinstance(flag, bool) for flag in flags):
        raise HistoryError("bad-field", field="players", detail=detail)
    return TournamentPlayer(clean_nick(raw["nick"]), _strength(raw["strength"]), *flags)


def _tournament_start(raw: dict[str, Any], at: datetime, note: str | None) -> TournamentStarted:
    evening = raw["evening"]
    try:
        day = date.fromisoformat(evening) if isinstance(evening, str) and len(evening) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise HistoryError("bad-field", field="evening", detail="a date like 2026-11-02")
    if raw["format"] not in TOURNAMENT_FORMATS:
        raise HistoryError("bad-field", field="format", detail=", ".join(TOURNAMENT_FORMATS))
    if not isinstance(raw["counts"], bool):
        raise HistoryError("bad-field", field="counts", detail="true or false")
    name = raw.get("name", "")
    if not isinstance(name, str) or len(name) > TOURNAMENT_NAME_LIMIT:
        raise HistoryError("bad-field", field="name", detail=f"a text of at most {TOURNAMENT_NAME_LIMIT} characters")
    if not isinstance(raw["players"], list) or len(raw["players"]) < 2:
        raise HistoryError("bad-field", field="players", detail='a list of {"nick": ..., "strength": ...}')
    players = tuple(_tournament_player(p) for p in raw["players"])
    keys = {nick_key(p.nick) for p in players}
    if len(keys) != len(players):
        raise HistoryError("bad-field", field="players", detail="each player once")
    seats = _seat_list(raw["seats"], None)
    _seats_of(seats, keys)
    settings = _tiebreak_settings(raw, keys)
    # accel: the accelerated event's cap, only there (and always there: kiosk.tournament.start_line writes it)
    cap = raw.get("pairing_cap")
    if (cap is None) != (raw["format"] != "accelerated"):
        raise HistoryError("bad-field", field="pairing_cap", detail="a whole number from 1, for an accelerated event")
    if cap is not None:
        cap = _positive(cap, "pairing_cap")
    started = TournamentStarted(
        at,
        _positive(raw["tournament"], "tournament"),
        day,
        _size(raw["size"]),
        raw["format"],
        _positive(raw["rounds"], "rounds"),
        raw["counts"],
        players,
        seats,
        name,
        note,
        **settings,
        pairing_cap=cap,
    )
    return replace(started, **_league_start(raw)) if LEAGUE_START_FIELDS & raw.keys() else started


def _tiebreak_settings(raw: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    """tiebreak: the start line's tie-breaks, places, handicap policy and pairing constraints, checked."""
    # Long: one check per key of the tie-break settings, each refusing with its own reason.
    settings: dict[str, Any] = {}
    if "tiebreaks" in raw:
        chain = raw["tiebreaks"]
        if (
            not isinstance(chain, list)
            or any(name not in TIEBREAK_CRITERIA for name in chain)
            or len(set(chain)) != len(chain)
        ):
            raise HistoryError("bad-field", field="tiebreaks", detail="a list of " + ", ".join(TIEBREAK_CRITERIA))
        settings["tiebreaks"] = tuple(chain)
    if "places" in raw:
        if raw["places"] != "unique":
            raise HistoryError("bad-field", field="places", detail="'unique'")
        settings["unique_places"] = True
    if "handicap" in raw:
        policy = raw["handicap"]
        detail = f'{{"at_most", "less", "even_top"}}: whole numbers, at most {HANDICAP_POLICY_LIMIT} moves'
        if not isinstance(policy, dict) or not policy or not set(policy) <= {"at_most", "less", "even_top"}:
            raise HistoryError("bad-field", field="handicap", detail=detail)
        limits = {"at_most": (1, HANDICAP_POLICY_LIMIT), "less": (1, HANDICAP_POLICY_LIMIT), "even_top": (2, 1000)}
        for name, value in policy.items():
            low, high = limits[name]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise HistoryError("bad-field", field="handicap", detail=detail)
        settings.update(
            handicap_cap=policy.get("at_most"), handicap_less=policy.get("less", 0), even_top=policy.get("even_top", 0)
        )
    if "avoid" in raw:
        detail = "a list of [nick, nick] pairs of the event's players"
        pairs = raw["avoid"]
        if not isinstance(pairs, list) or not pairs:
            raise HistoryError("bad-field", field="avoid", detail=detail)
        found = []
        for pair in pairs:
            if not isinstance(pair, list) or len(pair) != 2:
                raise HistoryError("bad-field", field="avoid", detail=detail)
            a, b = clean_nick(pair[0]), clean_nick(pair[1])
            if nick_key(a) == nick_key(b) or nick_key(a) not in keys or nick_key(b) not in keys:
                raise HistoryError("bad-field", field="avoid", detail=detail)
            found.append((a, b))
        settings["avoid"] = tuple(found)
    if "first_round" in raw:
        if raw["first_round"] not in FIRST_ROUNDS:
            raise HistoryError("bad-field", field="first_round", detail=", ".join(FIRST_ROUNDS))
        settings["first_round"] = raw["first_round"]
    if "classes" in raw:
        bounds = raw["classes"]
        detail = "a list of fields in rising order, each once"
        if not isinstance(bounds, list) or not bounds:
            raise HistoryError("bad-field", field="classes", detail=detail)
        fields = tuple(_strength(b) for b in bounds)
        if list(fields) != sorted(set(fields)) or fields[0] <= 0:
            raise HistoryError("bad-field", field="classes", detail=detail)
        settings["prize_classes"] = fields
    return settings


def _tiebreak_json(event: TournamentStarted) -> dict[str, Any]:
    """tiebreak: the start line's own fields, only those not the default (an old history exports byte-identically)."""
    line: dict[str, Any] = {}
    if event.tiebreaks is not None:
        line["tiebreaks"] = list(event.tiebreaks)
    if event.unique_places:
        line["places"] = "unique"
    policy = {
        name: value
        for name, value in (
            ("at_most", event.handicap_cap),
            ("less", event.handicap_less),
            ("even_top", event.even_top),
        )
        if value
    }
    if policy:
        line["handicap"] = policy
    if event.avoid:
        line["avoid"] = [list(pair) for pair in event.avoid]
    if event.first_round != "adjacent":
        line["first_round"] = event.first_round
    if event.prize_classes:
        line["classes"] = [as_number(q) for q in event.prize_classes]
    return line


def _seats_of(seats: tuple[TournamentSeat, ...], keys: set[str]) -> None:
    """Every seat's players are the event's (known only at the start: a round's are checked by the fold)."""
    for seat in seats:
        for nick in (seat.a, seat.b):
            if nick is not None and nick_key(nick) not in keys:
                raise HistoryError("bad-field", field="seats", detail=f"{nick} is not a player of the event")


def _tournament_round(raw: dict[str, Any], at: datetime, note: str | None) -> TournamentRound:
    number = _positive(raw["round"], "round")
    seats = _seat_list(raw["seats"], number)
    return TournamentRound(at, _positive(raw["tournament"], "tournament"), number, seats, note)


def _tournament_withdraw(raw: dict[str, Any], at: datetime, note: str | None) -> TournamentWithdrawal:
    tournament, number = _positive(raw["tournament"], "tournament"), _positive(raw["round"], "round")
    return TournamentWithdrawal(at, tournament, clean_nick(raw["nick"]), number, note)


def _tournament_close(raw: dict[str, Any], at: datetime, note: str | None) -> TournamentClosed:
    return TournamentClosed(at, _positive(raw["tournament"], "tournament"), note)


def _tournament_reopen(raw: dict[str, Any], at: datetime, note: str | None) -> TournamentReopened:
    return TournamentReopened(at, _positive(raw["tournament"], "tournament"), note)


def _tournament_link(raw: dict[str, Any], at: datetime, note: str | None) -> TournamentLinked:
    game = raw.get("game")
    result, how = raw.get("result"), raw.get("how")
    if (game is None) == (result is None):
        raise HistoryError("bad-field", field="game", detail="a game or a result, one of them")
    if result is not None and result not in _TOURNAMENT_RESULTS:
        raise HistoryError("bad-field", field="result", detail=", ".join(_TOURNAMENT_RESULTS))
    if how is not None and (not isinstance(how, str) or len(how) > 20):
        raise HistoryError("bad-field", field="how", detail="'resignation', points or 'other'")
    return TournamentLinked(
        at,
        _positive(raw["tournament"], "tournament"),
        _positive(raw["round"], "round"),
        _positive(raw["board"], "board"),
        None if game is None else _positive(game, "game"),
        result,
        how,
        note,
    )


# league: a start's own fields and its lines (kiosk/league.py) ----------------------------------------------

CREDITS = ("half", "bye", "zero")  # how a round a player missed counts (kiosk.league)
LEAGUE_START_FIELDS = frozenset({"late", "per_evening", "absent"})
PER_EVENING_LIMIT = 20


def _league_start(raw: dict[str, Any]) -> dict[str, Any]:
    """A start's league fields: how a late starter's and an absent player's rounds count, rounds per evening."""
    fields: dict[str, Any] = {}
    for name in ("late", "absent"):
        if name in raw:
            if raw[name] not in CREDITS:
                raise HistoryError("bad-field", field=name, detail=", ".join(CREDITS))
            fields[name] = raw[name]
    if "per_evening" in raw:
        number = _positive(raw["per_evening"], "per_evening")
        if number > PER_EVENING_LIMIT:
            raise HistoryError("bad-field", field="per_evening", detail=f"a whole number from 1 to {PER_EVENING_LIMIT}")
        fields["per_evening"] = number
    return fields


def _league_start_json(event: TournamentStarted) -> dict[str, Any]:
    line: dict[str, Any] = {}
    if event.late != "half":
        line["late"] = event.late
    if event.per_evening:
        line["per_evening"] = event.per_evening
    if event.absent != "zero":
        line["absent"] = event.absent
    return line


def _tournament_join(raw: dict[str, Any], at: datetime, note: str | None) -> TournamentJoined:
    flags = [raw.get(name, False) for name in ("guest", "occasional")]
    if not all(isinstance(flag, bool) for flag in flags):
        raise HistoryError("bad-field", field="guest", detail="true or false")
    return TournamentJoined(
        at,
        _positive(raw["tournament"], "tournament"),
        clean_nick(raw["nick"]),
        _strength(raw["strength"]),
        _positive(raw["round"], "round"),
        flags[0],
        flags[1],
        note,
    )


def _tournament_return(raw: dict[str, Any], at: datetime, note: str | None) -> TournamentReturned:
    tournament, number = _positive(raw["tournament"], "tournament"), _positive(raw["round"], "round")
    return TournamentReturned(at, tournament, clean_nick(raw["nick"]), number, note)


def _tournament_evening(raw: dict[str, Any], at: datetime, note: str | None) -> TournamentEvening:
    evening = raw["evening"]
    try:
        day = date.fromisoformat(evening) if isinstance(evening, str) and len(evening) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise HistoryError("bad-field", field="evening", detail="a date like 2026-11-02")
    number = _positive(raw["round"], "round")
    return TournamentEvening(
        at, _positive(raw["tournament"], "tournament"), day, number, _seat_list(raw["seats"], number), note
    )


def _tournament_delete(raw: dict[str, Any], at: datetime, note: str | None) -> TournamentDeleted:
    return TournamentDeleted(at, _positive(raw["tournament"], "tournament"), note)


def _tournament_ask(raw: dict[str, Any], at: datetime, note: str | None) -> TournamentAsked:
    return TournamentAsked(at, _positive(raw["tournament"], "tournament"), clean_nick(raw["nick"]), note)


def _tournament_decline(raw: dict[str, Any], at: datetime, note: str | None) -> TournamentDeclined:
    return TournamentDeclined(at, _positive(raw["tournament"], "tournament"), clean_nick(raw["nick"]), note)


def _league_json(event: Any) -> dict[str, Any]:
    """The fields of a league line after ``tournament`` (key order fixed: export is byte-stable)."""
    match event:
        case TournamentJoined():
            line: dict[str, Any] = {"nick": event.nick, "strength": as_number(event.strength), "round": event.round}
            if event.guest:
                line["guest"] = True
            if event.occasional:
                line["occasional"] = True
            return line
        case TournamentReturned():
            return {"nick": event.nick, "round": event.round}
        case TournamentEvening():
            return {
                "evening": event.evening.isoformat(),
                "round": event.round,
                "seats": [[s.board, s.a, s.b] for s in event.seats],
            }
        case TournamentAsked() | TournamentDeclined():
            return {"nick": event.nick}
    return {}


TOURNAMENT_PARSERS: dict[str, Any] = {
    "tournament-start": _tournament_start,
    "tournament-round": _tournament_round,
    "tournament-withdraw": _tournament_withdraw,
    "tournament-close": _tournament_close,
    "tournament-reopen": _tournament_reopen,
    "tournament-link": _tournament_link,
    "tournament-join": _tournament_join,
    "tournament-return": _tournament_return,
    "tournament-evening": _tournament_evening,
    "tournament-delete": _tournament_delete,
    "tournament-ask": _tournament_ask,
    "tournament-decline": _tournament_decline,
}
TOURNAMENT_TYPE_NAMES: dict[type, str] = {
    TournamentStarted: "tournament-start",
    TournamentRound: "tournament-round",
    TournamentWithdrawal: "tournament-withdraw",
    TournamentClosed: "tournament-close",
    TournamentReopened: "tournament-reopen",
    TournamentLinked: "tournament-link",
    TournamentJoined: "tournament-join",
    TournamentReturned: "tournament-return",
    TournamentEvening: "tournament-evening",
    TournamentDeleted: "tournament-delete",
    TournamentAsked: "tournament-ask",
    TournamentDeclined: "tournament-decline",
}


def _player_json(player: TournamentPlayer) -> dict[str, Any]:
    line: dict[str, Any] = {"nick": player.nick, "strength": as_number(player.strength)}
    if player.guest:
        line["guest"] = True
    if player.occasional:
        line["occasional"] = True
    return line


def tournament_json(event: Any) -> dict[str, Any]:
    """The line's fields of an evening's event, after ``type`` and ``at`` (key order fixed: export is byte-stable)."""
    line: dict[str, Any] = {"tournament": event.tournament}
    match event:
        case TournamentStarted():
            line.update(
                evening=event.evening.isoformat(),
                size=event.size,
                format=event.format,
                rounds=event.rounds,
                counts=event.counts,
            )
            if event.name:
                line["name"] = event.name
            line["players"] = [_player_json(p) for p in event.players]
            line["seats"] = [[s.round, s.board, s.a, s.b] for s in event.seats]
            line.update(_tiebreak_json(event))
            line.update(_league_start_json(event))
            if event.pairing_cap is not None:  # accel
                line["pairing_cap"] = event.pairing_cap
        case TournamentRound():
            line.update(round=event.round, seats=[[s.board, s.a, s.b] for s in event.seats])
        case TournamentWithdrawal():
            line.update(nick=event.nick, round=event.round)
        case TournamentLinked():
            line.update(round=event.round, board=event.board)
            if event.game is not None:
                line["game"] = event.game
            else:
                line["result"] = event.result
                if event.how is not None:
                    line["how"] = event.how
        case _ if isinstance(event, LEAGUE_EVENTS):
            line.update(_league_json(event))
    return line


# --- lines -------------------------------------------------------------------------------

_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # type: (required, optional) besides "type", "at" and "note"
    "player": (frozenset({"nick", "size", "status"}), frozenset({"strength", "kyu", "dan"})),
    "game": (
        frozenset({"size", "players", "winner"}),
        frozenset({"by", "id", "kind", "tournament", "round", "board", "handicap"}),
    ),
    "correction": (frozenset({"nick", "size"}), frozenset({"strength", "status", "with"})),
    "shift": (frozenset({"amount"}), frozenset({"size", "nicks"})),
    "merge": (frozenset({"from", "into"}), frozenset()),
    "unmerge": (frozenset({"from", "into"}), frozenset()),
    "void": (frozenset({"game"}), frozenset()),
    "edit": (frozenset({"game", "played", "size", "players", "winner"}), frozenset({"by", "kind", "handicap"})),
    "rename": (frozenset({"from", "to"}), frozenset()),
    "retire": (frozenset({"nick", "size"}), frozenset()),
    "restore": (frozenset({"nick", "size"}), frozenset()),
    "primary": (frozenset({"nick", "size"}), frozenset()),
    "note": (frozenset({"note"}), frozenset()),
    "rules": (frozenset(), frozenset({"handicap", "guest_losses", "top"})),
    **TOURNAMENT_FIELDS,
    "confirm": (frozenset({"game"}), frozenset()),
}
_COMMON = frozenset({"type", "at", "note"})
# type: (required fields, every allowed field), for a quick check of each line
_FIELDS = {kind: (required | {"at"}, required | optional | _COMMON) for kind, (required, optional) in _FIELDS.items()}


def parse_line(text: str | bytes) -> Event:
    """One line of the history file as an event; ``HistoryError`` says what is wrong."""
    try:
        # Decoding first spares json its encoding detection, on every line of a history.
        raw = json.loads(text.decode("utf-8") if isinstance(text, bytes) else text)
    except UnicodeDecodeError:
        raise HistoryError("bad-encoding") from None
    except ValueError as error:
        raise HistoryError("bad-json", detail=str(error).split(":")[0]) from None
    except RecursionError:  # a line of 100,000 nested brackets: no history line is more than 3 deep
        raise HistoryError("too-deep") from None
    return parse_event(raw)


def parse_event(raw: Any) -> Event:
    """An event from the JSON object of a history line."""
    if not isinstance(raw, dict):
        raise HistoryError("not-object")
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise HistoryError("unknown-type", type=kind)
    required, allowed = _FIELDS[kind]
    keys = raw.keys()
    if not keys <= allowed:
        raise HistoryError("unknown-field", field=sorted(keys - allowed)[0])
    if not required <= keys:
        raise HistoryError("missing-field", field=sorted(required - keys)[0])
    at = parse_at(raw["at"])
    note = _note(raw.get("note"))
    event: Event = _PARSERS[kind](raw, at, note)
    return event


def _player(raw: dict[str, Any], at: datetime, note: str | None) -> PlayerAdded:
    status = _status(raw["status"])
    kyu, dan, strength = raw.get("kyu"), raw.get("dan"), raw.get("strength")
    given = [name for name in ("strength", "kyu", "dan") if raw.get(name) is not None]
    if len(given) > 1:
        raise HistoryError("strength-or-grade")
    if kyu is not None and (isinstance(kyu, bool) or not isinstance(kyu, int) or not 1 <= kyu <= MAX_KYU):
        raise HistoryError("bad-grade", value=kyu)
    if dan is not None and (isinstance(dan, bool) or not isinstance(dan, int) or not 1 <= dan <= MAX_DAN):
        raise HistoryError("bad-grade", value=dan)
    if (kyu is not None or dan is not None) and status != GUEST:
        raise HistoryError("member-grade")
    return PlayerAdded(
        at=at,
        nick=clean_nick(raw["nick"]),
        size=_size(raw["size"]),
        status=status,
        strength=_strength(strength) if strength is not None else (0 if not given else None),
        kyu=kyu,
        dan=dan,
        note=note,
    )


def _game_fields(raw: dict[str, Any]) -> tuple[int, tuple[str, str], str | None, Margin]:
    size = _size(raw["size"])
    players = raw["players"]
    if not isinstance(players, list) or len(players) != 2:
        raise HistoryError("bad-players")
    a, b = clean_nick(players[0]), clean_nick(players[1])
    if nick_key(a) == nick_key(b):
        raise HistoryError("same-player", nick=a)
    winner_raw = raw["winner"]
    by = raw.get("by")
    if winner_raw is None:
        if by not in (None, 0):
            raise HistoryError("draw-margin")
        return size, (a, b), None, None
    winner = clean_nick(winner_raw)
    if winner == a or nick_key(winner) == nick_key(a):  # as the history writes it: the player's own spelling
        winner = a
    elif winner == b or nick_key(winner) == nick_key(b):
        winner = b
    else:
        raise HistoryError("bad-winner", nick=winner)
    return size, (a, b), winner, parse_margin(by, size)


def _game(raw: dict[str, Any], at: datetime, note: str | None) -> GamePlayed:
    size, players, winner, by = _game_fields(raw)
    game_id = raw.get("id")
    if game_id is not None:
        game_id = _game_number(game_id, "id")
    return GamePlayed(
        at, size, players, winner, by, game_id, note, _kind(raw), _tournament_board(raw), _played_handicap(raw)
    )


PLAYED_HANDICAP_MOVES = 30  # more starting moves than any event's handicap (the policy caps at 9)


def _played_handicap(raw: dict[str, Any]) -> tuple[int, int] | None:
    """tiebreak: an event game's handicap played (``{"even": true}`` or moves and prisoners); None when absent."""
    if "handicap" not in raw:
        return None
    value = raw["handicap"]
    detail = '{"even": true} or {"even": false, "moves": 1 or more, "prisoners": 0 to 12}'
    if value == {"even": True}:
        return (0, 0)
    if not isinstance(value, dict) or set(value) != {"even", "moves", "prisoners"} or value["even"] is not False:
        raise HistoryError("bad-field", field="handicap", detail=detail)
    moves, prisoners = value["moves"], value["prisoners"]
    for number, low, high in ((moves, 1, PLAYED_HANDICAP_MOVES), (prisoners, 0, 12)):
        if isinstance(number, bool) or not isinstance(number, int) or not low <= number <= high:
            raise HistoryError("bad-field", field="handicap", detail=detail)
    return (moves, prisoners)


def _correction(raw: dict[str, Any], at: datetime, note: str | None) -> Correction:
    strength = raw.get("strength")
    status = raw.get("status")
    if strength is None and status is None:
        raise HistoryError("correction-empty")
    member = raw.get("with")
    return Correction(
        at=at,
        nick=clean_nick(raw["nick"]),
        size=_size(raw["size"]),
        strength=_strength(strength) if strength is not None else None,
        status=_status(status) if status is not None else None,
        with_member=clean_nick(member) if member is not None else None,
        note=note,
    )


def _shift(raw: dict[str, Any], at: datetime, note: str | None) -> Shift:
    amount = raw["amount"]
    try:
        if isinstance(amount, bool) or not isinstance(amount, int | float):
            raise ValueError
        q = quarters(amount)
    except (ValueError, OverflowError):
        raise HistoryError("bad-amount", value=amount) from None
    if q == 0 or abs(q) > 1000:
        raise HistoryError("bad-amount", value=amount)
    size = raw.get("size")
    nicks = raw.get("nicks")
    if nicks is not None:
        if not isinstance(nicks, list) or not nicks:
            raise HistoryError("bad-field", field="nicks", detail="a list of nicknames")
        nicks = tuple(clean_nick(n) for n in nicks)
    return Shift(at, q, _size(size) if size is not None else None, nicks, note)


def _pair(raw: dict[str, Any], first: str, second: str) -> tuple[str, str]:
    a, b = clean_nick(raw[first]), clean_nick(raw[second])
    return a, b


def _merge(raw: dict[str, Any], at: datetime, note: str | None) -> Merge:
    return Merge(at, *_pair(raw, "from", "into"), note=note)


def _unmerge(raw: dict[str, Any], at: datetime, note: str | None) -> Unmerge:
    return Unmerge(at, *_pair(raw, "from", "into"), note=note)


def _rename(raw: dict[str, Any], at: datetime, note: str | None) -> Rename:
    return Rename(at, *_pair(raw, "from", "to"), note=note)


def _game_id(raw: dict[str, Any]) -> int:
    return _game_number(raw["game"], "game")


# The largest game id a history may carry: the store numbers a new game one above the
# highest, so an id near SQLite's 2**63 - 1 would leave no room (every game after it a 500), and
# the API's JSON must stay exact in a phone's JavaScript (2**53). A club records a few thousand.
MOST_GAME_ID = 2**53 - 1


def _game_number(raw: object, field: str) -> int:
    """A game id (a game's own, or the one a void or edit names): a whole number the store can grow from."""
    number = _int(raw, field)
    if not 1 <= number <= MOST_GAME_ID:
        raise HistoryError("bad-game-id", field=field, limit=MOST_GAME_ID)
    return number


def _void(raw: dict[str, Any], at: datetime, note: str | None) -> Void:
    return Void(at, _game_id(raw), note)


def _edit(raw: dict[str, Any], at: datetime, note: str | None) -> Edit:
    size, players, winner, by = _game_fields(raw)
    corrected = GamePlayed(
        parse_at(raw["played"]), size, players, winner, by, kind=_kind(raw), handicap=_played_handicap(raw)
    )
    return Edit(at, _game_id(raw), corrected, note)


def _magnet_action(cls: type) -> Any:
    def parse(raw: dict[str, Any], at: datetime, note: str | None) -> Any:
        return cls(at, clean_nick(raw["nick"]), _size(raw["size"]), note)

    return parse


def _owner_note(raw: dict[str, Any], at: datetime, note: str | None) -> OwnerNote:
    if not note:
        raise HistoryError("bad-field", field="note", detail="a text of at most 500 characters")
    return OwnerNote(at, note)


def _rule_number(raw: object, field: str) -> Fraction:
    if isinstance(raw, bool) or not isinstance(raw, int | float) or raw != raw or raw in (float("inf"), float("-inf")):
        raise HistoryError("bad-field", field=field, detail="a number greater than 0")
    number = Fraction(raw)
    if number <= 0 or number > 1000:
        raise HistoryError("bad-field", field=field, detail="a number greater than 0")
    return number


def _rule_change(raw: dict[str, Any], at: datetime, note: str | None) -> RuleChange:
    """A rule change: the same bounds as semedori.toml's settings (kiosk.config.validate)."""
    if not {"handicap", "guest_losses", "top"} & raw.keys():
        raise HistoryError("rules-empty")
    tables: list[SizeRules] = []
    handicap = raw.get("handicap", {})
    if not isinstance(handicap, dict):
        raise HistoryError("bad-field", field="handicap", detail='sizes to tables, e.g. {"9": {...}}')
    for key in sorted(handicap, key=lambda k: int(k) if str(k).isdecimal() else 0):
        size = int(key) if str(key).isdecimal() else 0
        table = handicap[key]
        if size not in SIZES or not isinstance(table, dict):
            raise HistoryError("bad-size", value=key)
        names = {"points_per_strength", "clear_margin", "training_moves"}
        if table.keys() != names:
            raise HistoryError("bad-field", field=f"handicap.{size}", detail=", ".join(sorted(names)))
        moves = table["training_moves"]
        if isinstance(moves, bool) or not isinstance(moves, int) or not 2 <= moves <= 100:
            raise HistoryError("bad-field", field=f"handicap.{size}.training_moves", detail="a whole number from 2")
        points = _rule_number(table["points_per_strength"], f"handicap.{size}.points_per_strength")
        margin = _rule_number(table["clear_margin"], f"handicap.{size}.clear_margin")
        tables.append(SizeRules(size, points, margin, moves))
    losses = raw.get("guest_losses")
    if losses is not None and (isinstance(losses, bool) or losses not in (2, 3)):
        raise HistoryError("bad-field", field="guest_losses", detail="2 or 3")
    top = raw.get("top")
    top_q: Quarters | None = None
    if top is not None:
        top_q = _strength(top)
        if top_q < 40 * 4:
            raise HistoryError("bad-field", field="top", detail="a field of the scale, 40 or more")
    if not tables and losses is None and top_q is None:
        raise HistoryError("rules-empty")
    return RuleChange(at, tuple(tables), losses, top_q, note)


_PARSERS: dict[str, Any] = {
    "player": _player,
    "game": _game,
    "correction": _correction,
    "shift": _shift,
    "merge": _merge,
    "unmerge": _unmerge,
    "void": _void,
    "edit": _edit,
    "rename": _rename,
    "retire": _magnet_action(Retire),
    "restore": _magnet_action(Restore),
    "primary": _magnet_action(Primary),
    "note": _owner_note,
    "rules": _rule_change,
    **TOURNAMENT_PARSERS,
    "confirm": lambda raw, at, note: Confirm(at, _game_id(raw), note),
}


def parse_history(lines: Iterable[str | bytes]) -> list[tuple[int, Event]]:
    """Parse a history file's lines; blank lines are skipped, errors name the line."""
    return list(iter_history(lines))


def iter_history(lines: Iterable[str | bytes]) -> Iterator[tuple[int, Event]]:
    """``parse_history`` one line at a time: (line number, event)."""
    for number, line in enumerate(lines, start=1):
        if number == 1:
            # A file saved by Notepad starts with a byte order mark; it is not part of the line.
            line = line.removeprefix(b"\xef\xbb\xbf") if isinstance(line, bytes) else line.removeprefix("\ufeff")
        if not line.strip():
            continue
        try:
            yield number, parse_line(line)
        except HistoryError as error:
            raise error.at_line(number) from None


# --- back to lines -------------------------------------------------------------------


def to_json(event: Event) -> dict[str, Any]:
    """The history file's object for an event (key order is fixed: export is byte-stable)."""
    # Long: a dispatch table: one case per kind of history line, its keys in the file's fixed order.
    line: dict[str, Any] = {"type": _TYPE_NAMES[type(event)], "at": format_at(event.at)}
    match event:
        case PlayerAdded():
            line.update(nick=event.nick, size=event.size, status=event.status)
            if event.kyu is not None:
                line["kyu"] = event.kyu
            elif event.dan is not None:
                line["dan"] = event.dan
            else:
                line["strength"] = as_number(event.strength or 0)
        case GamePlayed():
            if event.id is not None:
                line["id"] = event.id
            line.update(_game_json(event))
            if event.tournament is not None:
                line.update(tournament_board_json(event.tournament))
        case Correction():
            line.update(nick=event.nick, size=event.size)
            if event.strength is not None:
                line["strength"] = as_number(event.strength)
            if event.status is not None:
                line["status"] = event.status
            if event.with_member is not None:
                line["with"] = event.with_member
        case Shift():
            line.update(
                amount=as_number(event.amount), size=event.size, nicks=list(event.nicks) if event.nicks else None
            )
        case Merge() | Unmerge():
            line.update({"from": event.duplicate, "into": event.kept})
        case Rename():
            line.update({"from": event.old, "to": event.new})
        case Void() | Confirm():
            line["game"] = event.game
        case Edit():
            line.update(game=event.game, played=format_at(event.corrected.at), **_game_json(event.corrected))
        case Retire() | Restore() | Primary():
            line.update(nick=event.nick, size=event.size)
        case RuleChange():
            if event.handicap:
                line["handicap"] = {
                    str(r.size): {
                        "points_per_strength": _plain(r.points_per_strength),
                        "clear_margin": _plain(r.clear_margin),
                        "training_moves": r.training_moves,
                    }
                    for r in event.handicap
                }
            if event.guest_losses is not None:
                line["guest_losses"] = event.guest_losses
            if event.top is not None:
                line["top"] = as_number(event.top)
    if isinstance(event, TOURNAMENT_EVENTS):
        line.update(tournament_json(event))
    if event.note is not None:
        line["note"] = event.note
    return line


def _plain(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def _game_json(game: GamePlayed) -> dict[str, Any]:
    line = {"size": game.size, "players": list(game.players), "winner": game.winner, "by": margin_json(game.by)}
    if game.kind != RATED:
        # Written only when not rated, so a history of rated games reads and writes as it always did.
        line["kind"] = game.kind
    if game.handicap is not None:  # tiebreak: only an event game whose handicap the event's policy changed
        moves, prisoners = game.handicap
        line["handicap"] = {"even": True} if moves == 0 else {"even": False, "moves": moves, "prisoners": prisoners}
    return line


def dump_line(event: Event) -> str:
    """One history line, UTF-8 text without the newline."""
    return json.dumps(to_json(event), ensure_ascii=False, separators=(", ", ": "))


def kind_of(event: Event) -> str:
    """The ``type`` of an event's history line."""
    return _TYPE_NAMES[type(event)]


_TYPE_NAMES: dict[type, str] = {
    PlayerAdded: "player",
    GamePlayed: "game",
    Correction: "correction",
    Shift: "shift",
    Merge: "merge",
    Unmerge: "unmerge",
    Void: "void",
    Edit: "edit",
    Rename: "rename",
    Retire: "retire",
    Restore: "restore",
    Primary: "primary",
    OwnerNote: "note",
    RuleChange: "rules",
    **TOURNAMENT_TYPE_NAMES,
    Confirm: "confirm",
}
