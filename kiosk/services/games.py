"""Games: record one, undo it, confirm a second phone's copy, record it again, add a guest.

The phone's form (web/recording.py), the API (web/api.py) and the CLI come through here, so
a game is checked, named and written the same way wherever it was typed. One game, one
record: a game whose pair, size and result match one recorded minutes ago from another
phone is not written but answered with that game (``Duplicate``), and the phone asks its
players "Is this the same game?". The check runs under the same write lock as the write
(``Store.record_unless``): two phones saving the same game at the same moment give one game
and one question, never two games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from kiosk.board import GameResult
from kiosk.errors import HistoryError, SemedoriError
from kiosk.events import GUEST, RATED, Confirm, Edit, GamePlayed, PlayerAdded, Retire, Void, nick_key
from kiosk.privacy import PublicNames, check_new_nick
from kiosk.recording import check_margin, new_game, new_guest, same_game
from kiosk.rules import UNDO_MINUTES  # the one undo window of every face (a game, an event's result)
from kiosk.store import Entry, Recorded, Store

# A game a phone records after "No, we played again" says so in the history, so the owner's
# lists do not flag it as a likely copy: ``played again, not game 12``.
AGAIN_NOTE = "played again, not game {game}"
UNDONE_NOTE = "undone on the phone that recorded it"
GUEST_UNDONE_NOTE = "added for game {game}, which was undone"


@dataclass(frozen=True)
class Typed:
    """A game as a phone or an API client typed it: names as typed (labels too), the rest for the core to check."""

    size: Any
    players: Any
    winner: Any
    by: Any
    at: Any = None
    kind: Any = RATED


@dataclass(frozen=True)
class Duplicate:
    """The game another phone recorded minutes ago that this one looks like; nothing was written.

    ``same``: the same result (winner, margin, kind) — the phone asks "Is this the same game?".
    Otherwise the two results are shown side by side until one of the players says which is right.
    """

    game: GameResult
    entry: Entry
    mine: GamePlayed
    same: bool


@dataclass(frozen=True)
class Reused:
    """A form's or a client's key sent again with another game: nothing was written.

    A key brings back the game it first brought (a double tap, a retry); the same key with
    another result is no retry but a changed form sent again, and the change must be said,
    not dropped (the IETF idempotency-key draft: 422). ``game`` is the game the key first brought.
    """

    game: GameResult


Names = Callable[[str], str | None]  # how a face turns a typed name into the board's nickname (labels)


def game_from(
    store: Store, typed: Typed, now: datetime, names: Names | None = None, days_back: int | None = None
) -> GamePlayed:
    """The game as the history would keep it, checked: names to nicknames, its date, its margin (komi)."""
    players, winner = typed.players, typed.winner
    if names is not None:
        if isinstance(players, list | tuple):
            players = [(names(p) or p) if isinstance(p, str) else p for p in players]
        if isinstance(winner, str):
            winner = names(winner) or winner
    game = new_game(typed.size, players, winner, typed.by, typed.at, now, days_back, typed.kind)
    check_margin(store.magnets(), game, store.config)  # komi 6.5: an even game's margin ends in a half
    return game


def same_result(game: GameResult | GamePlayed, other: GameResult | GamePlayed) -> bool:
    """True when two games of one pair say the same: the same winner (or both a draw), margin and kind."""
    winner = nick_key(game.winner) if game.winner else None
    theirs = nick_key(other.winner) if other.winner else None
    return winner == theirs and game.by == other.by and game.kind == other.kind


def likely_duplicate(store: Store, game: GamePlayed, origin: str | None, utc_now: datetime) -> Duplicate | None:
    """The game of the same pair and size another phone recorded in the club's window, if any (the newest).

    One with the same result comes first: that one is the question "Is this the same game?".
    """
    found = recorded_elsewhere(store, game.size, game.players[0], game.players[1], origin, utc_now)
    if not found:
        return None
    for result, entry in found:
        if same_result(result, game):
            return Duplicate(result, entry, game, same=True)
    result, entry = found[0]
    return Duplicate(result, entry, game, same=False)


def recorded_elsewhere(
    store: Store, size: int, a: str, b: str, origin: str | None, utc_now: datetime
) -> list[tuple[GameResult, Entry]]:
    """The standing games of this pair on this size another phone entered in the club's window, newest first.

    The form shows the newest as a hint while the pair is typed ("was just recorded on another
    phone"), before anyone taps Save.
    """
    minutes = store.config.same_game_minutes
    if minutes <= 0:
        return []
    since = utc_now - timedelta(minutes=minutes)
    # Another phone, API client or the owner: an entry that names no origin was written by a script
    # (the store's own callers, tests), and an import is the club's past, flagged on the owner's lists.
    return [
        (result, entry)
        for result, entry in store.games_of_pair(size, a, b, since)
        if entry.origin not in (origin, None, "import")
    ]


def record_game(
    store: Store,
    typed: Typed,
    now: datetime,
    origin: str | None,
    key: str | None = None,
    names: Names | None = None,
    days_back: int | None = None,
    again: bool = False,
    utc_now: datetime | None = None,
    with_time: bool = True,
) -> Recorded | Duplicate | Reused:
    """Record a game, unless another phone recorded it minutes ago (then that game, and nothing is written).

    ``now`` is the club's time (the game's default time and the limit of its date), ``utc_now``
    the moment for the window (the history's entry times are UTC). ``again``: the players
    said "No, we played again": the game is recorded, saying which game it is not. A ``key``
    recorded before answers its first game when this is the same game (its time too, with
    ``with_time``: a client that sends no time has each try dated as it arrives), else ``Reused``.
    """
    game = game_from(store, typed, now, names, days_back)
    moment = utc_now or datetime.now(UTC)
    if again:
        earlier = likely_duplicate(store, game, origin, moment)
        if earlier is not None:
            game = game._replace(note=AGAIN_NOTE.format(game=earlier.game.id))
        outcome: Recorded | Duplicate = store.record(game, key=key, origin=origin)
    else:
        outcome = store.record_unless(
            game, lambda: likely_duplicate(store, game, origin, moment), key=key, origin=origin
        )
    first = outcome.game if isinstance(outcome, Recorded) and not outcome.new else None
    if first is not None and not same_game(first, game, with_time=with_time):
        return Reused(first)
    return outcome


def confirm_game(store: Store, game_id: int, now: datetime, origin: str | None, key: str | None = None) -> Recorded:
    """ "Yes, same game": nothing is added to the board; the game stands as confirmed by both players."""
    entry = store.game_entry(game_id)
    if entry is None or store.game(game_id) is None:
        raise HistoryError("unknown-game", game=game_id)
    if origin is not None and entry.origin == origin:
        raise HistoryError("confirm-own", game=game_id)
    recorded = store.record(Confirm(now, game_id), key=key, origin=origin)
    return replace(recorded, game=store.game(game_id))  # the answer is the game confirmed


def correct_to_mine(
    store: Store,
    game_id: int,
    typed: Typed,
    now: datetime,
    origin: str | None,
    key: str | None = None,
    names: Names | None = None,
    days_back: int | None = None,
) -> Recorded:
    """ "Mine is right": the other phone's game is edited into this phone's result (one game, as this phone saw it)."""
    mine = game_from(store, typed, now, names, days_back)
    if store.game(game_id) is None:
        raise HistoryError("unknown-game", game=game_id)
    note = "corrected by the other player's phone"
    return store.record(Edit(now, game_id, mine._replace(id=None, note=None), note), key=key, origin=origin)


def undo_minutes_left(store: Store, game_id: int, origin: str | None, utc_now: datetime) -> int:
    """Whole minutes (rounded up) this phone may still undo the game; 0 when it may not."""
    entry = store.game_entry(game_id)
    if entry is None or origin is None or entry.origin != origin or store.game(game_id) is None:
        return 0
    left = entry.entered + timedelta(minutes=UNDO_MINUTES) - utc_now
    return max(0, -(-int(left.total_seconds()) // 60))


def undo_game(
    store: Store,
    game_id: int,
    now: datetime,
    origin: str | None,
    key: str | None = None,
    utc_now: datetime | None = None,
) -> list[str]:
    """Take back a game this phone recorded, and the guests its form added for it; the guests' nicknames.

    A guest this phone added shortly before the game, whose only game it was, leaves with the
    undo: their magnet is retired (kept in the history as added and retired), so the wall, the
    board and tonight's lists forget them, and the form coming back filled in still records them
    again (a game brings a retired magnet back).
    """
    moment = utc_now or datetime.now(UTC)
    if not undo_minutes_left(store, game_id, origin, moment):
        raise HistoryError("undo-refused", minutes=UNDO_MINUTES)
    game = store.game(game_id)
    entry = store.game_entry(game_id)
    assert game is not None and entry is not None  # undo_minutes_left found both
    guests = _guests_added_for(store, game, entry)
    store.record(Void(now, game_id, note=UNDONE_NOTE), key=key, origin=origin)
    for nick in guests:
        retire = Retire(now, nick, game.size, note=GUEST_UNDONE_NOTE.format(game=game_id))
        store.record(retire, key=f"{key}:retire:{nick_key(nick)}" if key else None, origin=origin)
    return guests


def _guests_added_for(store: Store, game: GameResult, entry: Entry) -> list[str]:
    """The game's players this phone added as guests within the undo window before it, with no other game."""
    keys = {nick_key(n): n for n in game.players}
    since = entry.entered - timedelta(minutes=UNDO_MINUTES)
    found = []
    for added in store.entries(limit=50, types=["player"]):
        line = added.line
        key = nick_key(line.get("nick", ""))
        if (
            key in keys
            and added.origin == entry.origin
            and since <= added.entered <= entry.entered
            and line.get("status") == GUEST
            and line.get("size") == game.size
            and not [g for g in store.games_page(limit=2, nick=keys[key]) if g.id != game.id]
            and keys[key] not in found
        ):
            found.append(keys[key])
    return found


def add_guest(
    store: Store,
    nick: Any,
    size: Any,
    now: datetime,
    origin: str | None,
    key: str | None = None,
    kyu: Any = None,
    dan: Any = None,
    shown: PublicNames | None = None,
    deliberate: bool = False,
) -> tuple[PlayerAdded, Recorded]:
    """Add a guest at 0 or from a declared grade; a nickname on the board already is refused.

    ``shown``: the names the public sees (labels, hidden children); with them a nickname that is
    another player's label or looks like another player's nickname is refused too.
    """
    event = check_guest(store, nick, size, now, kyu, dan, shown=shown, deliberate=deliberate)
    return event, store.record(event, key=key, origin=origin)


def check_guest(
    store: Store,
    nick: Any,
    size: Any,
    now: datetime,
    kyu: Any = None,
    dan: Any = None,
    shown: PublicNames | None = None,
    deliberate: bool = False,
) -> PlayerAdded:
    """The guest as it would be added, checked, without writing (the form shows the field first).

    Labels, look-alikes and hidden children are checked first (``kiosk.privacy.check_new_nick``):
    "taken" would confirm that a hidden child is a member. ``deliberate``: the owner, who may add a
    look-alike on purpose.
    """
    if shown is not None:
        check_new_nick(nick, shown, deliberate=deliberate)
    return new_guest(nick, size, now, store.magnets(), kyu, dan)


def likely_copies(entries: Sequence[tuple[int, Entry]], minutes: int) -> dict[int, int]:
    """Standing games that look like a copy of an earlier one: game id → the earlier game's id.

    ``entries``: (game id, its history entry) of standing games, any order. A copy has the same
    pair, size and result as an earlier game, and was played or entered within ``minutes`` of it
    (an imported copy was entered with the rest of the file, so its time of play tells). A game
    recorded after "No, we played again" says so (``AGAIN_NOTE``) and is no copy; neither is one
    confirmed as the same game, which was never recorded twice.
    """
    if minutes <= 0:
        return {}
    window = timedelta(minutes=minutes)
    seen: dict[tuple[Any, ...], list[tuple[int, datetime, datetime]]] = {}
    copies: dict[int, int] = {}
    for game_id, entry in sorted(entries, key=lambda item: item[1].seq):
        line = entry.line
        players = line.get("players") or []
        winner = line.get("winner")
        same = (
            line.get("size"),
            frozenset(nick_key(str(p)) for p in players),
            nick_key(winner) if isinstance(winner, str) else None,
            line.get("by"),
            line.get("kind", RATED),
        )
        played = datetime.fromisoformat(str(line.get("at")))
        earlier = seen.setdefault(same, [])
        again = str(line.get("note") or "").startswith(AGAIN_NOTE.split("{")[0])
        for other_id, other_played, other_entered in earlier:
            close = abs(played - other_played) <= window or abs(entry.entered - other_entered) <= window
            if close and not again:
                copies[game_id] = other_id
                break
        earlier.append((game_id, played, entry.entered))
    return copies


class PartlyVoided(Exception):
    """A batch void stopped by an error: how many games it voided before, and the error."""

    def __init__(self, voided: int, error: SemedoriError) -> None:
        super().__init__(str(error))
        self.voided = voided
        self.error = error


def void_batch(
    store: Store, game_ids: Sequence[int], now: datetime, origin: str | None, note: str, key: str | None = None
) -> int:
    """Void each of these games (one void event each, the owner's batch of one origin's games); how many.

    ``PartlyVoided`` says how many were voided when one could not be (the rest stand).
    """
    voided = 0
    for game_id in game_ids:
        try:
            store.record(Void(now, game_id, note=note[:500]), key=f"{key}:{game_id}" if key else None, origin=origin)
        except SemedoriError as error:
            raise PartlyVoided(voided, error) from None
        voided += 1
    return voided
