"""The evenings' events read from the history: no tables of their own.

An event's start, rounds, withdrawals, closes and reopens are history lines, each board's
result the game tapped on it, and its corrections that game's Edit or Void
(``kiosk.tournament.fold``). This module asks the store for an event's lines
(``Store.tournament_entries``, an index away) and folds them; every write is a use case of
``kiosk.services.tournaments``. Nothing here runs SQL or writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from kiosk.board import GameResult
from kiosk.events import TournamentStarted
from kiosk.store import Store
from kiosk.tournament import BYE, LEFT, STALE, Folded, Seat, Tournament, fold

# A page reads one event several times (its boards, how each ended, the corrections, the games): folded once
# per history. The key holds the store's folder and its history mark, which every write changes.
_FOLDED: dict[tuple[str, int, tuple[int, int]], Folded | None] = {}
_KEPT = 32


def folded(store: Store, event_id: int) -> Folded | None:
    """One event with what its forms need (game ids, how each board ended, corrections); None when unknown."""
    key = (str(store.folder), event_id, store.history_mark())
    if key in _FOLDED:
        return _FOLDED[key]
    found = fold(store.tournament_entries(event_id)).get(event_id)
    if len(_FOLDED) >= _KEPT:
        _FOLDED.pop(next(iter(_FOLDED)))
    _FOLDED[key] = found
    return found


def get(store: Store, event_id: int) -> Tournament | None:
    """One event with its players and every seat so far; None when there is no such event."""
    found = folded(store, event_id)
    return found.tournament if found is not None else None


def of_evening(store: Store, evening: date) -> list[Tournament]:
    """The events of an evening, the latest first (and a league whose evening it was)."""
    numbers = [e.tournament for _seq, e in store.tournament_starts(evening) if isinstance(e, TournamentStarted)]
    numbers += [
        e.tournament for _seq, e in store.tournament_starts() if isinstance(e, TournamentStarted) and e.per_evening
    ]
    events = (get(store, number) for number in sorted(set(numbers), reverse=True))
    return [e for e in events if e is not None and (e.evening == evening or any(d == evening for d, _r in e.evenings))]


def open_event(store: Store, evening: date) -> Tournament | None:
    """The evening's event that is still open (there is at most one)."""
    return next((e for e in of_evening(store, evening) if not e.closed), None)


def game_ids(store: Store, event_id: int) -> dict[tuple[int, int], int]:
    """The history's game of each decided board, by (round, board)."""
    found = folded(store, event_id)
    return dict(found.games) if found is not None else {}


def played_games(store: Store, event_id: int, seats: Iterable[Seat]) -> dict[tuple[int, int], GameResult]:
    """The history's game of each of ``seats`` that has one (decided, in an event that counts), by (round, board):
    what ``kiosk.tournament.played_boards`` shows such a board's handicap from."""
    ids = game_ids(store, event_id)
    games = {}
    for seat in seats:
        where = (seat.round, seat.board)
        if where in ids and (game := store.game(ids[where])) is not None:
            games[where] = game
    return games


def how_of(store: Store, event_id: int) -> dict[tuple[int, int], str]:
    """How each decided board ended ('resignation', the margin in points, 'other'), by (round, board)."""
    found = folded(store, event_id)
    return dict(found.how) if found is not None else {}


def fix_count(store: Store, event_id: int, round_number: int, board: int) -> int:
    """How many times a board's result was corrected, cleared or undone (the correction forms carry it)."""
    return fix_counts(store, event_id).get((round_number, board), 0)


def fix_counts(store: Store, event_id: int) -> dict[tuple[int, int], int]:
    """``fix_count`` of every corrected board of an event, by (round, board); boards never corrected are left out."""
    found = folded(store, event_id)
    return dict(found.fixes) if found is not None else {}


def board_check(found: Folded | None, round_number: int, board: int) -> tuple[str | None, Seat | None]:
    """What a result tap on a board meets before its result matters (THE check, for the phone and the API).

    (None, the seat): a board of two players in a round that is on (or decided: the tap answers ALREADY or
    TAKEN). Else: STALE (no such event or board, a closed event, a later round of a round-robin not yet on),
    BYE (a player's bye: nothing to enter), or LEFT with the board as it was paired, both players in it (one
    of them went home, so it became the other's bye).
    """
    event = found.tournament if found is not None else None
    seat = seat_of(event, round_number, board)
    if found is None or event is None or seat is None or event.closed:
        return STALE, seat
    if seat.b is None:
        paired = seat_of_seats(found.paired, round_number, board)
        if paired is not None and paired.b is not None:
            return LEFT, paired
        return BYE, seat
    if seat.result is None and round_number > event.current:  # a later round of a round-robin: finish this one
        return STALE, seat
    return None, seat


def tap_board(store: Store, event_id: int, round_number: int, board: int) -> tuple[str | None, Seat | None]:
    """``board_check`` of an event as the history has it now."""
    return board_check(folded(store, event_id), round_number, board)


def seat_of(event: Tournament | None, round_number: int, board: int) -> Seat | None:
    """One board of an event as it is played (withdrawals made byes)."""
    return None if event is None else seat_of_seats(event.seats, round_number, board)


def seat_of_seats(seats: Iterable[Seat], round_number: int, board: int) -> Seat | None:
    return next((s for s in seats if s.round == round_number and s.board == board), None)


def check(store: Store) -> list[str]:
    """``semedori check`` for the events: the whole history folded agrees with each event read through the index,
    and every event's lines are ones the fold takes (a tap on a board of its own, a round made once)."""
    problems: list[str] = []
    whole = fold(store.history_entries(), problems)
    for number, event in sorted(whole.items()):
        read = folded(store, number)
        if read is None or read.tournament != event.tournament or dict(read.games) != dict(event.games):
            problems.append(f"event {number} read from its lines differs from the whole history folded")
    return problems
