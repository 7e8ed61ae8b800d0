"""The small events' tables (issue 13), beside the store's history in the same SQLite file.

Not history: an event is a sheet of pairings and results for one evening. Results that
count on the board are also recorded as ordinary games through ``Store.record``; the
event's tables keep which game each result became. The tables are made on first use
(as tonight's check-in tables are), so a database of any schema version takes them, and
every write is one transaction of the store's (``Store._write``: BEGIN IMMEDIATE).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime
from typing import Any

from kiosk.board import GameResult
from kiosk.errors import HistoryError
from kiosk.events import Edit, Margin, Void, nick_key
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
    with_withdrawals,
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
);
CREATE TABLE IF NOT EXISTS tournament_fix (  -- the owner's corrections of a board, numbered from 1
    tournament INTEGER NOT NULL REFERENCES tournament (id),
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    number INTEGER NOT NULL,
    result TEXT,                      -- the board's result after it, NULL: cleared, to be tapped again
    how TEXT,
    game_id INTEGER,                  -- the history's game it corrected or voided
    at TEXT NOT NULL,                 -- UTC
    origin TEXT,
    PRIMARY KEY (tournament, round, board, number)
);
CREATE TABLE IF NOT EXISTS tournament_withdrawal (  -- players who went home mid-event
    tournament INTEGER NOT NULL REFERENCES tournament (id),
    nick_key TEXT NOT NULL,
    round INTEGER NOT NULL,           -- the first round they miss
    at TEXT NOT NULL,                 -- UTC
    PRIMARY KEY (tournament, nick_key)
)
"""

# What a result tap did (the phone says it kindly).
SAVED, ALREADY, TAKEN, STALE = "saved", "already", "taken", "stale"
# What else an owner's correction or withdrawal may meet: a board without a result yet, a board
# that cannot be cleared (a player went home: nobody will tap it again), a nickname not in the event.
UNDECIDED, LEFT, NOBODY = "undecided", "left", "nobody"
# A tap on a bye: nobody plays there, so there is no result to enter (LEFT: the opponent went home, see tap_board).
BYE = "bye"


def _tables(store: Store) -> None:
    for statement in EVENT_TABLES.split(";"):
        if statement.strip():
            store.db.execute(statement)


def _has_tables(store: Store, name: str = "tournament_game") -> bool:
    return store.db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone() is not None


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
    withdrawn: tuple[tuple[str, int], ...] = ()
    if _has_tables(store, "tournament_withdrawal"):  # made with the event tables since withdrawals exist
        rows = store.db.execute(
            "SELECT p.nick, w.round FROM tournament_withdrawal w JOIN tournament_player p"
            " ON p.tournament = w.tournament AND p.nick_key = w.nick_key WHERE w.tournament = ? ORDER BY p.seed",
            (identifier,),
        )
        withdrawn = tuple((nick, number) for nick, number in rows)
        seats = with_withdrawals(seats, withdrawn)
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
        withdrawn=withdrawn,
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
    """How each decided board ended ('resignation', points, 'other'), by (round, board)."""
    if not _has_tables(store):
        return {}
    rows = store.db.execute(
        "SELECT round, board, how FROM tournament_game WHERE tournament = ? AND how IS NOT NULL", (event_id,)
    )
    return {(r, b): how for r, b, how in rows}


def tap_board(store: Store, event_id: int, round_number: int, board: int) -> tuple[str | None, Seat | None]:
    """What a result tap on a board meets before its result matters (THE check, for the phone and the API).

    (None, the seat): a board of two players in a round that is on (or decided: ``record_result`` answers
    ALREADY or TAKEN). Else: STALE (no such event or board, a closed event, a later round of a round-robin
    not yet on), BYE (a player's bye: nothing to enter), or LEFT with the board as it was paired, both
    players in it (one of them went home, so it became the other's bye).
    """
    event = get(store, event_id)
    seat = _seat(event, round_number, board)
    if event is None or seat is None or event.closed:
        return STALE, seat
    if seat.b is None:
        paired = store.db.execute(
            "SELECT a, b FROM tournament_game WHERE tournament = ? AND round = ? AND board = ?",
            (event_id, round_number, board),
        ).fetchone()
        if paired is not None and paired[1] is not None:
            return LEFT, Seat(round_number, board, paired[0], paired[1])
        return BYE, seat
    if seat.result is None and round_number > event.current:  # a later round of a round-robin: finish this one
        return STALE, seat
    return None, seat


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
    already (a double tap); TAKEN: another result was in already; STALE, BYE or LEFT: a board
    not open to a tap (``tap_board``). A bad margin raises ``HistoryError`` and saves nothing.
    Repeating a tap after a power cut between the two writes is safe: the game's key makes the
    history record it once.
    """
    refused, seat = tap_board(store, event_id, round_number, board)
    if refused is not None:
        return refused, seat
    event = get(store, event_id)
    assert event is not None and seat is not None and seat.b is not None
    if seat.result is not None:
        return (ALREADY if seat.result == outcome else TAKEN), seat
    magnets = store.magnets()
    if outcome == DRAW and board_pairing(event, seat, current_sides(event, magnets), store.config).handicap.even:
        raise HistoryError("draw-even")  # said by the replay too, but an event that does not count has none
    game = event_game(event.size, seat, outcome, by, now, now, counts=event.counts)
    check_margin(magnets, game, store.config)  # an even game's margin ends in a half, as on the form
    game_id = None
    fixes = fix_count(store, event_id, round_number, board)  # a board the owner cleared is tapped under a new key
    key = f"event:{event_id}:{round_number}:{board}" + (f":{fixes}" if fixes else "")
    # Counted or not, the game goes into the history; an event that does not count records kind "event".
    recorded = store.record(game, key=key, origin=origin)
    if not recorded.new and recorded.game is None:  # the owner cleared this board while this tap was on its way
        return STALE, seat
    if recorded.game is not None:
        game_id = recorded.game.id
        # The history's game is the truth: a second phone's tap that raced this one gets its result.
        outcome = _outcome_of(seat, recorded.game.winner)
    how = _how(outcome, game.by)
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


def _how(outcome: str | None, by: Margin) -> str | None:
    """How a board ended as the event's table keeps it (from the history game's margin); a draw (and no result)
    has none."""
    if outcome is None or outcome == DRAW:
        return None
    if by is None:
        return "other"
    if by == "resignation":
        return "resignation"
    return f"{float(by):g}"


def _outcome_of(seat: Seat, winner: str | None) -> str:
    return DRAW if winner is None else (A_WINS if nick_key(winner) == nick_key(seat.a) else B_WINS)


def fix_count(store: Store, event_id: int, round_number: int, board: int) -> int:
    """How many times the owner corrected a board (the correction forms carry it: a stale one is refused)."""
    if not _has_tables(store, "tournament_fix"):
        return 0
    row = store.db.execute(
        "SELECT coalesce(max(number), 0) FROM tournament_fix WHERE tournament = ? AND round = ? AND board = ?",
        (event_id, round_number, board),
    ).fetchone()
    return int(row[0])


def fix_counts(store: Store, event_id: int) -> dict[tuple[int, int], int]:
    """``fix_count`` of every corrected board of an event, by (round, board); boards never corrected are left out."""
    if not _has_tables(store, "tournament_fix"):
        return {}
    rows = store.db.execute(
        "SELECT round, board, max(number) FROM tournament_fix WHERE tournament = ? GROUP BY round, board", (event_id,)
    )
    return {(r, b): int(n) for r, b, n in rows}


def correct(
    store: Store,
    event_id: int,
    round_number: int,
    board: int,
    outcome: str | None,
    by: object,
    now: datetime,
    origin: str | None = None,
    seen: int | None = None,
) -> tuple[str, Seat | None]:
    """The owner corrects a decided board (a wrong tap): another winner or how, or ``outcome`` None to clear it.

    The history's game of the board is corrected through the store's own paths, so the board
    replays exactly as if the right result had been tapped: an ``Edit`` (same time, same kind)
    or, to clear it, a ``Void``; a cleared board can then be tapped again. A Swiss keeps the
    rounds already paired after it; only the standings change.

    ``seen``: how many corrections the owner's form saw (``fix_count``); when another phone
    corrected the board since, nothing is saved: ALREADY if the board now says what was
    asked (a clear of a board without a result too), else TAKEN. SAVED: done. UNDECIDED: no
    result to correct yet (tap it). LEFT: a
    board with a player who went home cannot be cleared (nobody would tap it again). STALE:
    no such event or board, or a closed event's board to clear. A bad margin or a draw in
    an even game raises ``HistoryError`` and saves nothing.
    """
    event = get(store, event_id)
    seat = _seat(event, round_number, board)
    if event is None or seat is None or seat.b is None:
        return STALE, seat
    fixes = fix_count(store, event_id, round_number, board)
    if seat.result is None:
        if outcome is None:
            return ALREADY, seat  # cleared already (another phone's clear got in first)
        return (TAKEN if seen is not None and seen != fixes else UNDECIDED), seat
    wanted_how = None
    game = None
    played = game_ids(store, event_id).get((round_number, board))
    original = store.game(played) if played is not None else None
    if outcome is not None:
        at = original.at if original is not None else now
        game = event_game(event.size, seat, outcome, by, at, max(at, now), counts=event.counts)
        if original is not None:
            game = game._replace(kind=original.kind)
            if outcome == DRAW and original.handicap.even:
                raise HistoryError("draw-even")
        check_margin(store.magnets(), game, store.config)
        wanted_how = _how(outcome, game.by)

    def asked(now_seat: Seat | None) -> bool:
        if now_seat is None or now_seat.result != outcome:
            return False
        return outcome is None or how_of(store, event_id).get((round_number, board)) == wanted_how

    if seen is not None and seen != fixes:
        return (ALREADY if asked(seat) else TAKEN), seat
    if asked(seat):
        return ALREADY, seat
    if outcome is None and event.closed:
        return STALE, seat
    if outcome is None and any(event.withdrawn_from(n) is not None for n in (seat.a, seat.b)):
        return LEFT, seat
    key = f"event:{event_id}:{round_number}:{board}:fix:{fixes}"  # two phones correcting at once: one change
    note = f"event {event_id}, round {round_number}, board {board}: corrected by the owner"
    stamp = now.replace(microsecond=0)
    mine = True  # this call's change is the one the history keeps
    if played is not None:
        if original is None:
            ours = store.db.execute("SELECT 1 FROM event WHERE key = ?", (key,)).fetchone() is not None
            if not ours and game is not None:
                raise HistoryError("game-voided", game=played)  # voided on the owner's games page: not ours to redo
            mine = not ours  # ours: another phone's clear of this very board got in first; else only the table
        elif game is None:
            mine = store.record(Void(stamp, played, note=note), key=key, origin=origin).new
        else:
            mine = store.record(Edit(stamp, played, game, note=note), key=key, origin=origin).new
    with store._write():
        _tables(store)
        saved = fix_count(store, event_id, round_number, board) == fixes
        if saved:
            # The history is the truth: when another phone's correction raced this one, the table takes its result.
            truth = store.game(played) if played is not None else None
            if played is None:
                result, how = outcome, wanted_how
            elif truth is None:
                result, how = None, None
            else:
                result = _outcome_of(seat, truth.winner)
                how = _how(result, truth.by)
            kept = played if result is not None else None
            store.db.execute(
                "UPDATE tournament_game SET result = ?, how = ?, game_id = ?, at = CASE WHEN ? IS NULL THEN NULL"
                " ELSE at END WHERE tournament = ? AND round = ? AND board = ?",
                (result, how, kept, result, event_id, round_number, board),
            )
            store.db.execute(
                "INSERT INTO tournament_fix VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    event_id,
                    round_number,
                    board,
                    fixes + 1,
                    result,
                    how,
                    played,
                    datetime.now(UTC).isoformat(timespec="seconds"),
                    origin,
                ),
            )
    after = _seat(get(store, event_id), round_number, board)
    if asked(after):
        return (SAVED if mine and (saved or played is not None) else ALREADY), after
    return TAKEN, after


def withdraw(store: Store, event_id: int, nick: str) -> tuple[str, Event | None]:
    """The owner withdraws a player who went home, from the round being played on (``with_withdrawals``).

    SAVED: done (a Swiss whose round this completes pairs its next round in the same write);
    ALREADY: withdrawn before; NOBODY: not a player of the event; STALE: no such event, or it
    is closed or over.
    """
    event = get(store, event_id)
    if event is None or event.closed or event.finished:
        return STALE, event
    player = next((p for p in event.players if nick_key(p.nick) == nick_key(nick)), None)
    if player is None:
        return NOBODY, event
    with store._write():
        _tables(store)
        cursor = store.db.execute(
            "INSERT OR IGNORE INTO tournament_withdrawal VALUES (?, ?, ?, ?)",
            (event_id, nick_key(player.nick), event.current, datetime.now(UTC).isoformat(timespec="seconds")),
        )
        saved = cursor.rowcount == 1
        if saved:
            updated = get(store, event_id)
            assert updated is not None
            _insert_seats(store, event_id, next_round(updated))  # the round may be done now: pair the next one
    return (SAVED if saved else ALREADY), get(store, event_id)


def _seat(event: Event | None, round_number: int, board: int) -> Seat | None:
    if event is None:
        return None
    return next((s for s in event.seats if s.round == round_number and s.board == board), None)
