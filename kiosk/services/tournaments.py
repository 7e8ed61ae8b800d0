"""The evenings' events' use cases: start, tap, undo a tap, correct, clear, withdraw, close, reopen.

The phone's event page, the API and the owner's pages call these, never the store's writes.
Each one is one transaction of the store (``Store.record_decided``): it reads the event from
the history under the write lock, decides, and appends what it decided; so of eight phones
tapping one board at once the first decides it and every other one finds it decided (the same
result: ALREADY, another: TAKEN). What each writes (docs/events.md):

- start: a ``tournament-start`` line (players seeded with their strengths now, the first rounds);
- a tap: the game itself, naming its event, round and board (rated when the event counts on
  the board, kind ``event`` otherwise), and in the same write the next Swiss round's pairing
  (``tournament-round``) when this result completes a round;
- a phone's undo of its own tap, an owner's clear: the game's ``void``; a correction: its ``edit``;
- a withdrawal (``tournament-withdraw``, with the next Swiss round when it completes the round),
  a close (``tournament-close``) and a reopen (``tournament-reopen``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction

from kiosk.accelerated import ACCELERATED
from kiosk.errors import HistoryError
from kiosk.event_handicap import as_line, is_default
from kiosk.events import (
    Edit,
    Event,
    GamePlayed,
    TournamentBoard,
    TournamentClosed,
    TournamentReopened,
    TournamentWithdrawal,
    Void,
    nick_key,
)
from kiosk.pairing import Side
from kiosk.recording import check_margin
from kiosk.rules import club_now
from kiosk.store import Store
from kiosk.tiebreak import NO_CHOICES, Choices
from kiosk.tournament import (
    ALREADY,
    BYE,
    DRAW,
    LEFT,
    NOBODY,
    NOT_YOURS,
    SAVED,
    STALE,
    SWISS,
    TAKEN,
    TOO_LATE,
    UNDECIDED,
    Folded,
    Seat,
    Tournament,
    board_pairing,
    current_sides,
    event_game,
    fold,
    how_of_margin,
    round_line,
    start_line,
)
from kiosk.tournament_store import (
    board_check,
    fix_count,
    fix_counts,
    folded,
    game_ids,
    get,
    how_of,
    of_evening,
    open_event,
    played_games,
    seat_of,
    tap_board,
)

__all__ = [
    "ALREADY",
    "BYE",
    "LEFT",
    "NOBODY",
    "NOT_YOURS",
    "SAVED",
    "STALE",
    "TAKEN",
    "TOO_LATE",
    "UNDECIDED",
    "close",
    "correct",
    "fix_count",
    "fix_counts",
    "folded",
    "game_ids",
    "get",
    "how_of",
    "of_evening",
    "open_event",
    "played_games",
    "record_result",
    "reopen",
    "start",
    "tap_board",
    "undo",
    "undoable",
    "withdraw",
]

Writes = list[tuple[Event, str | None]]
_LATER = 1 << 62  # where a write being decided stands among the entries (after all of them)


def _now(store: Store, now: datetime | None) -> datetime:
    return now if now is not None else club_now(store.config, datetime.now(UTC))


def start(
    store: Store,
    evening: date,
    size: int,
    sides: Sequence[Side],
    counts: bool,
    name: str = "",
    rounds: int | None = None,
    now: datetime | None = None,
    origin: str | None = None,
    late: str = "half",
    choices: Choices = NO_CHOICES,
    accelerated: bool = False,
) -> Tournament:
    """Start an event of tonight's players (their strengths on ``size`` now): all its first rounds at once.

    ``rounds``: fewer rounds for a Swiss (a short evening); the format's count when None or more.
    ``choices``: the owner's tie-breaks, places, handicap policy and pairing constraints (kiosk.tiebreak).
    ``accelerated``: the owner's accelerated handicap event (kiosk.accelerated; its results never move magnets).
    Refused while another event of the evening is open, and with fewer than four players.
    """
    rules = store.config.size_rules[size] if accelerated else None  # accel
    at = _now(store, now)

    def decide() -> tuple[int, Writes]:
        if open_event(store, evening) is not None:
            raise HistoryError("event-open")
        number = store.highest_tournament() + 1
        line = start_line(number, at, evening, size, sides, counts, name, rounds, choices, rules)
        return number, [(replace(line, late=late) if late != line.late else line, None)]  # league: late starters

    number, _written = store.record_decided(decide, origin)
    started = get(store, number)
    assert started is not None
    return started


def _check_accelerated(store: Store, event: Tournament, seat: Seat, game: GamePlayed) -> None:
    """accel: an accelerated board's result checked by the handicap it is played at (the two event levels').

    A draw needs a handicap game by the levels, and by the magnets too: the history replays every game by the
    magnets and refuses a draw in an even game there. A whole margin is refused only in a game even by the levels.
    """
    played = board_pairing(event, seat, {}, store.config).handicap
    if game.winner is None:
        sides = current_sides(event, store.magnets())
        if played.even or board_pairing(replace(event, format=SWISS), seat, sides, store.config).handicap.even:
            raise HistoryError("draw-even")
        return
    by = game.by
    if played.even and isinstance(by, Fraction) and by.denominator == 1:
        raise HistoryError("even-margin", value=str(by), lower=str(by - 1) + ".5", upper=f"{by}.5")


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

    SAVED: it is in (the game, on the board when the event counts, and the next Swiss round when it
    completes one); ALREADY: the same result was in already (a double tap, or another phone's same
    tap); TAKEN: another result was in already; STALE, BYE or LEFT: a board not open to a tap
    (``tournament_store.board_check``). A bad margin raises ``HistoryError`` and saves nothing.
    """

    def decide() -> tuple[tuple[str, Seat | None], Writes]:
        entries = store.tournament_entries(event_id)
        found = fold(entries).get(event_id)
        refused, seat = board_check(found, round_number, board)
        if refused is not None:
            return (refused, seat), []
        assert found is not None and seat is not None and seat.b is not None
        if seat.result is not None:
            return ((ALREADY if seat.result == outcome else TAKEN), seat), []
        event = found.tournament
        magnets = store.magnets()
        pairing = board_pairing(event, seat, current_sides(event, magnets), store.config)
        if outcome == DRAW and pairing.handicap.even:
            raise HistoryError("draw-even")  # said by the replay too, but an event that does not count has none
        game = event_game(event.size, seat, outcome, by, now, now, counts=event.counts)
        game = game._replace(tournament=TournamentBoard(event_id, round_number, board))
        if not is_default(event.handicap_cap, event.handicap_less, event.even_top):
            # tiebreak: the handicap played under the event's policy goes into the game's line (the replay uses it)
            game = game._replace(handicap=as_line(pairing.handicap))
        if event.format == ACCELERATED:
            _check_accelerated(store, event, seat, game)
        else:
            check_margin(magnets, game, store.config)  # an even game's margin ends in a half, as on the form
        after = fold([*entries, (_LATER, game._replace(id=0))])[event_id].tournament
        writes: Writes = [(game, None)]
        if (next_round := round_line(after, now, store.config.size_rules[event.size])) is not None:
            writes.append((next_round, None))
        return (SAVED, seat_of(after, round_number, board)), writes

    answer, _written = store.record_decided(decide, origin)
    return answer


def undo(
    store: Store,
    event_id: int,
    round_number: int,
    board: int,
    origin: str | None,
    window: timedelta,
    now: datetime | None = None,
) -> tuple[str, Seat | None]:
    """The phone that tapped a board's result takes it back (a wrong tap), within ``window`` of the tap.

    The board's game is voided: it is as if never tapped, and the board can be tapped again (a Swiss keeps
    a round already paired after it). SAVED: undone; ALREADY: the board has no result (undone already);
    NOT_YOURS: another phone tapped it (or the owner corrected it since: only the owner changes it now);
    TOO_LATE: the window has passed; LEFT: a player went home since (nobody would tap it again); STALE: no
    such event or board, or a closed event.
    """
    at = _now(store, now)

    def decide() -> tuple[tuple[str, Seat | None], Writes]:
        found = folded(store, event_id)
        event = found.tournament if found is not None else None
        seat = seat_of(event, round_number, board)
        if found is None or event is None or seat is None or seat.b is None or event.closed:
            return (STALE, seat), []
        key = (round_number, board)
        if seat.result is None or key not in found.games:
            return (ALREADY, seat), []
        entry = store.game_entry(found.games[key])
        if origin is None or entry is None or entry.origin != origin or key in found.corrected:
            return (NOT_YOURS, seat), []
        if datetime.now(UTC) - entry.entered > window:
            return (TOO_LATE, seat), []
        if any(event.withdrawn_from(n) is not None for n in (seat.a, seat.b)):
            return (LEFT, seat), []
        note = f"event {event_id}, round {round_number}, board {board}: undone by the phone that tapped it"
        return (SAVED, seat._replace(result=None)), [(Void(at.replace(microsecond=0), found.games[key], note), None)]

    answer, _written = store.record_decided(decide, origin)
    return answer


def undoable(store: Store, found: Folded, origin: str | None, window: timedelta) -> dict[tuple[int, int], datetime]:
    """The boards this phone may still take back, with when its undo ends (UTC): tapped by ``origin``, not
    corrected since, within ``window``."""
    if origin is None:
        return {}
    boards = {}
    for key, game_id in found.games.items():
        entry = store.game_entry(game_id)
        if entry is not None and entry.origin == origin and key not in found.corrected:
            ends = entry.entered + window
            if ends > datetime.now(UTC):
                boards[key] = ends
    return boards


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

    The board's game is corrected through the history's own lines, so the board replays exactly as if
    the right result had been tapped: an ``Edit`` (same time, same kind) or, to clear it, a ``Void``; a
    cleared board can then be tapped again. A Swiss keeps the rounds already paired after it; only the
    standings change.

    ``seen``: how many corrections the owner's form saw (``fix_count``); when another phone corrected the
    board since, nothing is saved: ALREADY if the board now says what was asked (a clear of a board
    without a result too), else TAKEN. SAVED: done. UNDECIDED: no result to correct yet (tap it). LEFT:
    a board with a player who went home cannot be cleared (nobody would tap it again). STALE: no such
    event or board, a closed event's board to clear, or a result an older kiosk kept without a game. A
    bad margin or a draw in an even game raises ``HistoryError`` and saves nothing.
    """
    # Long: the docstring names each answer; the body is one decide() that the unit of work (record_decided) runs whole,
    # checks and the line to write together.

    def decide() -> tuple[tuple[str, Seat | None], Writes]:
        found = folded(store, event_id)
        event = found.tournament if found is not None else None
        seat = seat_of(event, round_number, board)
        if found is None or event is None or seat is None or seat.b is None:
            return (STALE, seat), []
        key = (round_number, board)
        fixes = found.fixes.get(key, 0)
        if seat.result is None:
            if outcome is None:
                return (ALREADY, seat), []  # cleared already (another phone's clear got in first)
            return ((TAKEN if seen is not None and seen != fixes else UNDECIDED), seat), []
        played = found.games.get(key)
        original = store.game(played) if played is not None else None
        wanted_how = None
        game = None
        if outcome is not None:
            at = original.at if original is not None else now
            game = event_game(event.size, seat, outcome, by, at, max(at, now), counts=event.counts)
            if original is not None:
                game = game._replace(kind=original.kind)
                if not is_default(event.handicap_cap, event.handicap_less, event.even_top):
                    game = game._replace(handicap=as_line(original.handicap))  # tiebreak: as it was played
                if outcome == DRAW and original.handicap.even:
                    raise HistoryError("draw-even")
            if event.format == ACCELERATED:
                _check_accelerated(store, event, seat, game)
            else:
                check_margin(store.magnets(), game, store.config)
            wanted_how = how_of_margin(outcome, game.by)
        asked = seat.result == outcome and (outcome is None or found.how.get(key) == wanted_how)
        if seen is not None and seen != fixes:
            return ((ALREADY if asked else TAKEN), seat), []
        if asked:
            return (ALREADY, seat), []
        if outcome is None and event.closed:
            return (STALE, seat), []
        if outcome is None and any(event.withdrawn_from(n) is not None for n in (seat.a, seat.b)):
            return (LEFT, seat), []
        if played is None or original is None:
            return (STALE, seat), []  # an older kiosk's result kept without a game: nothing to correct
        note = f"event {event_id}, round {round_number}, board {board}: corrected by the owner"
        stamp = now.replace(microsecond=0)
        line: Event = Void(stamp, played, note=note) if game is None else Edit(stamp, played, game, note=note)
        return (SAVED, seat._replace(result=outcome)), [(line, None)]

    answer, _written = store.record_decided(decide, origin)
    return answer


def withdraw(
    store: Store, event_id: int, nick: str, now: datetime | None = None, origin: str | None = None
) -> tuple[str, Tournament | None]:
    """The owner withdraws a player who went home, from the round being played on (``with_withdrawals``).

    SAVED: done (a Swiss whose round this completes pairs its next round in the same write);
    ALREADY: withdrawn before; NOBODY: not a player of the event; STALE: no such event, or it
    is closed or over.
    """
    at = _now(store, now)

    def decide() -> tuple[tuple[str, Tournament | None], Writes]:
        entries = store.tournament_entries(event_id)
        found = fold(entries).get(event_id)
        event = found.tournament if found is not None else None
        if event is None or event.closed or event.finished:
            return (STALE, event), []
        player = next((p for p in event.players if nick_key(p.nick) == nick_key(nick)), None)
        if player is None:
            return (NOBODY, event), []
        if event.withdrawn_from(player.nick) is not None:
            return (ALREADY, event), []
        line = TournamentWithdrawal(at, event_id, player.nick, event.current)
        after = fold([*entries, (_LATER, line)])[event_id].tournament
        writes: Writes = [(line, None)]
        if (pairing := round_line(after, at, store.config.size_rules[event.size])) is not None:
            writes.append((pairing, None))
            after = fold([*entries, (_LATER, line), (_LATER + 1, pairing)])[event_id].tournament
        return (SAVED, after), writes

    answer, _written = store.record_decided(decide, origin)
    return answer


def close(store: Store, event_id: int, now: datetime | None = None, origin: str | None = None) -> bool:
    """The owner closes an event (its results stay); False when it was closed already or is unknown."""
    at = _now(store, now)

    def decide() -> tuple[bool, Writes]:
        event = get(store, event_id)
        if event is None or event.closed:
            return False, []
        return True, [(TournamentClosed(at, event_id), None)]

    closed, _written = store.record_decided(decide, origin)
    return closed


def reopen(store: Store, event_id: int, now: datetime | None = None, origin: str | None = None) -> str:
    """The owner reopens a closed event. SAVED; ALREADY: it is open; STALE: no such event. Refused
    (``HistoryError`` "event-open") while another event of its evening is open."""
    at = _now(store, now)

    def decide() -> tuple[str, Writes]:
        event = get(store, event_id)
        if event is None:
            return STALE, []
        if not event.closed:
            return ALREADY, []
        if open_event(store, event.evening) is not None:
            raise HistoryError("event-open")
        return SAVED, [(TournamentReopened(at, event_id), None)]

    status, _written = store.record_decided(decide, origin)
    return status
