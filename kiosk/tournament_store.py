"""The small events' tables (issue 13), beside the store's history in the same SQLite file.

Not history: an event is a sheet of pairings and results for one evening. Results that
count on the board are also recorded as ordinary games through ``Store.record``; the
event's tables keep which game each result became. The tables are made on first use
(as tonight's check-in tables are), so a database of any schema version takes them, and
every write is one transaction of the store's (``Store._write``: BEGIN IMMEDIATE).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

from kiosk.errors import HistoryError
from kiosk.events import nick_key
from kiosk.pairing import Side
from kiosk.recording import check_margin
from kiosk.store import Store
from kiosk.tournament import (
    A_WINS,
    B_WINS,
    DRAW,
    Event,
    Seat,
    board_pairing,
    current_sides,
    event_game,
    first_rounds,
    format_for,
    next_round,
    planned_rounds,
)

NAME_LIMIT = 60

EVENT_TABLES = """
CREATE TABLE IF NOT EXISTS tournament (
    id INTEGER PRIMARY KEY,
    evening TEXT NOT NULL,            -- the evening it belongs to, club time (kiosk.evening)
    size INTEGER NOT NULL,
    format TEXT NOT NULL,             -- kiosk.tournament.FORMATS
    rounds INTEGER NOT NULL,
    counts INTEGER NOT NULL,          -- 1: its results are recorded as ordinary games on the board
    name TEXT NOT NULL,
    started TEXT NOT NULL,            -- UTC
    closed TEXT                       -- UTC, once the owner closed it
);
CREATE TABLE IF NOT EXISTS tournament_player (
    tournament INTEGER NOT NULL REFERENCES tournament (id),
    seed INTEGER NOT NULL,            -- 1 is the strongest at the start
    nick_key TEXT NOT NULL,
    nick TEXT NOT NULL,
    strength INTEGER NOT NULL,        -- quarters, on the event's size, at the start
    guest INTEGER NOT NULL,
    occasional INTEGER NOT NULL,
    PRIMARY KEY (tournament, nick_key)
);
CREATE TABLE IF NOT EXISTS tournament_game (
    tournament INTEGER NOT NULL REFERENCES tournament (id),
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    a TEXT NOT NULL,
    b TEXT,                           -- NULL: a has the bye
    result TEXT,                      -- 'a', 'b', 'draw', or NULL while the game is on
    how TEXT,                         -- 'resignation', the margin in points, or 'other'
    game_id INTEGER,                  -- the history's game, when the event counts on the board
    at TEXT,                          -- when the result was entered, club time
    PRIMARY KEY (tournament, round, board)
)
"""

# What a result tap did (the phone says it kindly).
SAVED, ALREADY, TAKEN, STALE = "saved", "already", "taken", "stale"


def _tables(store: Store) -> None:
    for statement in EVENT_TABLES.split(";"):
        if statement.strip():
            store.db.execute(statement)


def _has_tables(store: Store) -> bool:
    return store.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'tournament_game'").fetchone() is not None


def start(
    store: Store,
    evening: date,
    size: int,
    sides: Sequence[Side],
    counts: bool,
    name: str = "",
    rounds: int | None = None,
) -> Event:
    """Start an event of tonight's players (their strengths on ``size`` now): all its first rounds at once.

    ``rounds``: fewer rounds for a Swiss (a short evening); the format's count when None or more.
    Refused while another event of the evening is open, and with fewer than four players.
    """
    keys = [nick_key(s.nick) for s in sides]
    if len(set(keys)) != len(keys):
        raise HistoryError("named-twice", nick=next(s.nick for s in sides if keys.count(nick_key(s.nick)) > 1))
    event_format = format_for(len(sides))
    seats = first_rounds(event_format, sides)
    name = " ".join(name.split())[:NAME_LIMIT]
    with store._write():
        _tables(store)
        if store.db.execute(
            "SELECT 1 FROM tournament WHERE evening = ? AND closed IS NULL", (evening.isoformat(),)
        ).fetchone():
            raise HistoryError("event-open")
        cursor = store.db.execute(
            "INSERT INTO tournament (evening, size, format, rounds, counts, name, started)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                evening.isoformat(),
                size,
                event_format,
                planned_rounds(event_format, len(sides), rounds),
                int(counts),
                name,
                datetime.now(UTC).isoformat(timespec="seconds"),
            ),
        )
        event_id = cursor.lastrowid
        ordered = sorted(sides, key=lambda s: (-s.strength, nick_key(s.nick)))
        store.db.executemany(
            "INSERT INTO tournament_player VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (event_id, seed, nick_key(s.nick), s.nick, s.strength, int(s.guest), int(s.occasional))
                for seed, s in enumerate(ordered, start=1)
            ],
        )
        _insert_seats(store, event_id, seats)
    found = get(store, event_id or 0)
    assert found is not None
    return found


def _insert_seats(store: Store, event_id: Any, seats: Sequence[Seat]) -> None:
    store.db.executemany(
        "INSERT INTO tournament_game (tournament, round, board, a, b) VALUES (?, ?, ?, ?, ?)",
        [(event_id, s.round, s.board, s.a, s.b) for s in seats],
    )


def get(store: Store, event_id: int) -> Event | None:
    """One event with its players and every seat so far; None when there is no such event."""
    if not _has_tables(store):
        return None
    row = store.db.execute(
        "SELECT id, evening, size, format, rounds, counts, name, closed FROM tournament WHERE id = ?", (event_id,)
    ).fetchone()
    if row is None:
        return None
    identifier, evening, size, event_format, rounds, counts, name, closed = row
    players = tuple(
        Side(nick, strength, bool(guest), bool(occasional))
        for nick, strength, guest, occasional in store.db.execute(
            "SELECT nick, strength, guest, occasional FROM tournament_player WHERE tournament = ? ORDER BY seed",
            (identifier,),
        )
    )
    seats = tuple(
        Seat(*seat)
        for seat in store.db.execute(
            "SELECT round, board, a, b, result FROM tournament_game WHERE tournament = ? ORDER BY round, board",
            (identifier,),
        )
    )
    return Event(
        identifier,
        date.fromisoformat(evening),
        size,
        event_format,
        rounds,
        bool(counts),
        players,
        seats,
        name=name,
        closed=closed is not None,
    )


def of_evening(store: Store, evening: date) -> list[Event]:
    """The events of an evening, the latest first."""
    if not _has_tables(store):
        return []
    rows = store.db.execute("SELECT id FROM tournament WHERE evening = ? ORDER BY id DESC", (evening.isoformat(),))
    return [event for (identifier,) in rows.fetchall() if (event := get(store, identifier)) is not None]


def open_event(store: Store, evening: date) -> Event | None:
    """The evening's event that is still open (there is at most one)."""
    return next((e for e in of_evening(store, evening) if not e.closed), None)


def close(store: Store, event_id: int) -> bool:
    """The owner closes an event (its results stay); False when it was closed already or is unknown."""
    if not _has_tables(store):
        return False
    with store._write():
        cursor = store.db.execute(
            "UPDATE tournament SET closed = ? WHERE id = ? AND closed IS NULL",
            (datetime.now(UTC).isoformat(timespec="seconds"), event_id),
        )
        return cursor.rowcount == 1


def game_ids(store: Store, event_id: int) -> dict[tuple[int, int], int]:
    """The history's game of each decided board of an event that counts, by (round, board)."""
    if not _has_tables(store):
        return {}
    rows = store.db.execute(
        "SELECT round, board, game_id FROM tournament_game WHERE tournament = ? AND game_id IS NOT NULL", (event_id,)
    )
    return {(r, b): game_id for r, b, game_id in rows}


def how_of(store: Store, event_id: int) -> dict[tuple[int, int], str]:
    """How each decided board ended ('resignation', points, 'other'), by (round, board)."""
    if not _has_tables(store):
        return {}
    rows = store.db.execute(
        "SELECT round, board, how FROM tournament_game WHERE tournament = ? AND how IS NOT NULL", (event_id,)
    )
    return {(r, b): how for r, b, how in rows}


def record_result(
    store: Store,
    event_id: int,
    round_number: int,
    board: int,
    outcome: str,
    by: object,
    now: datetime,
    origin: str | None = None,
) -> tuple[str, Seat | None]:
    """A board's result, tapped on a phone: (what happened, the seat as it now stands).

    SAVED: it is in (and on the board when the event counts); ALREADY: the same result was in
    already (a double tap); TAKEN: another result was in already; STALE: no such open board.
    A bad margin raises ``HistoryError`` and saves nothing. Repeating a tap after a power cut
    between the two writes is safe: the game's key makes the history record it once.
    """
    event = get(store, event_id)
    seat = _seat(event, round_number, board)
    if event is None or seat is None or seat.b is None or event.closed:
        return STALE, seat
    if seat.result is not None:
        return (ALREADY if seat.result == outcome else TAKEN), seat
    if round_number > event.current:  # a later round of a round-robin: finish this one first
        return STALE, seat
    magnets = store.magnets()
    if outcome == DRAW and board_pairing(event, seat, current_sides(event, magnets), store.config).handicap.even:
        raise HistoryError("draw-even")  # said by the replay too, but an event that does not count has none
    game = event_game(event.size, seat, outcome, by, now, now, counts=event.counts)
    check_margin(magnets, game, store.config)  # an even game's margin ends in a half, as on the form
    game_id = None
    # Counted or not, the game goes into the history; an event that does not count records kind "event".
    recorded = store.record(game, key=f"event:{event_id}:{round_number}:{board}", origin=origin)
    if recorded.game is not None:
        game_id = recorded.game.id
        # The history's game is the truth: a second phone's tap that raced this one gets its result.
        winner = recorded.game.winner
        outcome = DRAW if winner is None else (A_WINS if nick_key(winner) == nick_key(seat.a) else B_WINS)
    how: str | None = None  # a draw has no "how"
    if outcome != DRAW:
        how = "resignation" if game.by == "resignation" else ("other" if game.by is None else f"{float(game.by):g}")
    with store._write():
        cursor = store.db.execute(
            "UPDATE tournament_game SET result = ?, how = ?, game_id = ?, at = ? "
            "WHERE tournament = ? AND round = ? AND board = ? AND result IS NULL",
            (outcome, how, game_id, now.isoformat(timespec="minutes"), event_id, round_number, board),
        )
        saved = cursor.rowcount == 1
        if saved:
            updated = get(store, event_id)
            assert updated is not None
            _insert_seats(store, event_id, next_round(updated))  # the next Swiss round, once this one is done
    event = get(store, event_id)
    seat = _seat(event, round_number, board)
    if saved:
        return SAVED, seat
    return (ALREADY if seat is not None and seat.result == outcome else TAKEN), seat


def _seat(event: Event | None, round_number: int, board: int) -> Seat | None:
    if event is None:
        return None
    return next((s for s in event.seats if s.round == round_number and s.board == board), None)
