"""Late arrivals, returns, leagues across evenings, a deleted event: the use cases.

The owner's event page, the player's phone and the CLI call these, never the store's writes.
Each is one transaction (``Store.record_decided``): it folds the event from the history under the
write lock, decides by ``kiosk.league``'s rules and appends one line (docs/events.md, "Late
arrivals, leagues across evenings, lists in and out"):

- join: ``tournament-join`` (a late starter, from the next round paired);
- come back: ``tournament-return`` (one who went home, from the round ``kiosk.league.return_round`` says);
- a phone's ask: ``tournament-ask``, the owner's yes is the join or return itself, the owner's no
  ``tournament-decline``;
- a league: its start (a ``tournament-start`` with ``per_evening``), each evening's first round
  (``tournament-evening``, paired among the players checked in that night);
- delete: ``tournament-delete`` (its tapped games stay games: they were played).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, date, datetime
from typing import NamedTuple

from kiosk import league
from kiosk.errors import HistoryError
from kiosk.events import (
    Event,
    TournamentAsked,
    TournamentDeclined,
    TournamentDeleted,
    TournamentEvening,
    TournamentJoined,
    TournamentReturned,
    TournamentSeat,
    nick_key,
)
from kiosk.pairing import Side, side_of
from kiosk.recording import new_guest, new_member
from kiosk.roster import RosterRow
from kiosk.rules import club_now
from kiosk.scale import as_number, from_grade
from kiosk.store import Store
from kiosk.tournament import (
    ALREADY,
    MIN_PLAYERS,
    NOBODY,
    SAVED,
    STALE,
    SWISS,
    TOO_LATE,
    Standing,
    Tournament,
    event_standings,
    fold,
    round_line,
    seeded,
    start_line,
    swiss_round,
)
from kiosk.tournament_store import folded, get, of_evening, open_event

__all__ = [
    "ALREADY",
    "ASKED",
    "FEW",
    "NOBODY",
    "NOT_GONE",
    "NOT_LEAGUE",
    "NO_PAIRING",
    "ON_NOW",
    "PLAYING",
    "ROUND_ROBIN",
    "SAVED",
    "STALE",
    "TOO_LATE",
    "Imported",
    "answer",
    "archive",
    "ask",
    "come_back",
    "delete",
    "evening_events",
    "import_roster",
    "join",
    "join_check",
    "of_player",
    "pair_evening",
    "return_check",
    "start_league",
    "tonight_league",
]

# What a join, a return or an ask met besides kiosk.tournament's answers: ROUND_ROBIN a round-robin takes nobody
# late; NOT_GONE a return of a player who never went home; PLAYING a join of one already in the event; ASKED the
# phone asked already (the owner has not answered yet); NOT_LEAGUE a league's evening for an event of one evening;
# ON_NOW the round being played is not over (finish it first); NO_PAIRING everyone here has met already.
ROUND_ROBIN, NOT_GONE, PLAYING, ASKED = "round-robin", "not-gone", "playing", "asked"
NOT_LEAGUE, ON_NOW, NO_PAIRING, FEW = "not-league", "on-now", "no-pairing", "few"

Writes = list[tuple[Event, str | None]]
_LATER = 1 << 62


def _now(store: Store, now: datetime | None) -> datetime:
    return (now if now is not None else club_now(store.config, datetime.now(UTC))).replace(microsecond=0)


def _player(event: Tournament, nick: str) -> Side | None:
    return next((p for p in event.players if nick_key(p.nick) == nick_key(nick)), None)


def join_check(event: Tournament | None, nick: str) -> str | None:
    """Why ``nick`` cannot join ``event`` now (None: they can): STALE closed or over, PLAYING in it already (or
    NOT_GONE's opposite: went home, so it is a return), ROUND_ROBIN, TOO_LATE more than a third of the rounds."""
    if event is None or event.closed or (event.finished and not event.is_league):
        return STALE
    if _player(event, nick) is not None:
        return PLAYING
    if event.format != SWISS:
        return ROUND_ROBIN
    if event.made >= event.rounds or not league.may_join(event.rounds, event.made):
        return TOO_LATE
    return None


def return_check(event: Tournament | None, nick: str) -> str | None:
    """Why ``nick`` cannot come back to ``event`` now (None: they can): STALE closed or over, NOBODY not a player
    of it, NOT_GONE never went home, TOO_LATE no round left to play."""
    if event is None or event.closed or (event.finished and not event.is_league):
        return STALE
    player = _player(event, nick)
    if player is None:
        return NOBODY
    if event.withdrawn_from(player.nick) is None:
        return NOT_GONE
    if _back(event, player.nick) > event.rounds:
        return TOO_LATE
    return None


def _back(event: Tournament, nick: str) -> int:
    left = event.withdrawn_from(nick)
    assert left is not None
    return league.return_round(event.format == SWISS, left, event.made, event.current, not event.is_done(left))


def join(
    store: Store, event_id: int, nick: str, now: datetime | None = None, origin: str | None = None
) -> tuple[str, Tournament | None]:
    """The owner lets a late starter join (a magnet of the event's size): SAVED, or why not (``join_check``;
    NOBODY: no such player on the board's size)."""
    at = _now(store, now)

    def decide() -> tuple[tuple[str, Tournament | None], Writes]:
        entries = store.tournament_entries(event_id)
        found = fold(entries).get(event_id)
        event = found.tournament if found is not None else None
        if (refused := join_check(event, nick)) is not None:
            return (refused, event), []
        assert event is not None
        try:
            side = side_of(store.magnets(), nick, event.size)
        except HistoryError:
            return (NOBODY, event), []
        line = TournamentJoined(at, event_id, side.nick, side.strength, event.made + 1, side.guest, side.occasional)
        return _written(entries, event_id, line)

    answer, _done = store.record_decided(decide, origin)
    return answer


def come_back(
    store: Store, event_id: int, nick: str, now: datetime | None = None, origin: str | None = None
) -> tuple[str, Tournament | None]:
    """The owner brings back a player who went home: SAVED, or why not (``return_check``)."""
    at = _now(store, now)

    def decide() -> tuple[tuple[str, Tournament | None], Writes]:
        entries = store.tournament_entries(event_id)
        found = fold(entries).get(event_id)
        event = found.tournament if found is not None else None
        if (refused := return_check(event, nick)) is not None:
            return (refused, event), []
        assert event is not None
        player = _player(event, nick)
        assert player is not None
        return _written(entries, event_id, TournamentReturned(at, event_id, player.nick, _back(event, player.nick)))

    answer, _done = store.record_decided(decide, origin)
    return answer


def _written(entries: list[tuple[int, Event]], event_id: int, line: Event) -> tuple[tuple[str, Tournament], Writes]:
    """The line, and the next Swiss round when the round on is done and waited for a pairing (a join making a
    Swiss of one left possible again)."""
    after = fold([*entries, (_LATER, line)])[event_id].tournament
    writes: Writes = [(line, None)]
    if (pairing := round_line(after, line.at)) is not None:
        writes.append((pairing, None))
        after = fold([*entries, (_LATER, line), (_LATER + 1, pairing)])[event_id].tournament
    return (SAVED, after), writes


def ask(
    store: Store, event_id: int, nick: str, now: datetime | None = None, origin: str | None = None
) -> tuple[str, Tournament | None]:
    """A player's phone asks to join (or, for one who went home, to come back); the owner answers on the event
    page. SAVED: asked; ASKED: asked before; else why it could not be (``join_check``, ``return_check``; NOBODY:
    no such player on the board's size)."""
    at = _now(store, now)

    def decide() -> tuple[tuple[str, Tournament | None], Writes]:
        event = get(store, event_id)
        player = _player(event, nick) if event is not None else None
        refused = return_check(event, nick) if player is not None else join_check(event, nick)
        if refused == NOT_GONE:
            refused = PLAYING  # a phone asking for one who plays: "you play already" (the owner's return: "never left")
        if refused is not None:
            return (refused, event), []
        assert event is not None
        if player is None:
            try:
                player = side_of(store.magnets(), nick, event.size)
            except HistoryError:
                return (NOBODY, event), []
        if any(nick_key(n) == nick_key(player.nick) for n in event.asking):
            return (ASKED, event), []
        return (SAVED, event), [(TournamentAsked(at, event_id, player.nick), None)]

    answer, _done = store.record_decided(decide, origin)
    return answer


def answer(
    store: Store, event_id: int, nick: str, yes: bool, now: datetime | None = None, origin: str | None = None
) -> tuple[str, Tournament | None]:
    """The owner answers a phone's ask: yes is the join (or the return) itself, no a ``tournament-decline``.
    NOBODY: nobody asked under that name."""
    event = get(store, event_id)
    asked = next((n for n in (event.asking if event else ()) if nick_key(n) == nick_key(nick)), None)
    if event is None or asked is None:
        return NOBODY, event
    if yes:
        if _player(event, asked) is not None:
            return come_back(store, event_id, asked, now, origin)
        return join(store, event_id, asked, now, origin)
    at = _now(store, now)

    def decide() -> tuple[tuple[str, Tournament | None], Writes]:
        current = get(store, event_id)
        if current is None or all(nick_key(n) != nick_key(asked) for n in current.asking):
            return (ALREADY, current), []
        return (SAVED, current), [(TournamentDeclined(at, event_id, asked), None)]

    said, _done = store.record_decided(decide, origin)
    return said


def delete(store: Store, event_id: int, now: datetime | None = None, origin: str | None = None) -> tuple[bool, int]:
    """The owner deletes an event made by mistake: (deleted, how many of its boards had a tapped game, which stay
    as the games they are: played, and on the board when the event counted). False: no such event."""
    at = _now(store, now)

    def decide() -> tuple[tuple[bool, int], Writes]:
        found = folded(store, event_id)
        if found is None:
            return (False, 0), []
        return (True, len(found.games)), [(TournamentDeleted(at, event_id), None)]

    said, _done = store.record_decided(decide, origin)
    return said


def start_league(
    store: Store,
    evening: date,
    size: int,
    sides: Sequence[Side],
    counts: bool,
    name: str,
    rounds: int,
    per_evening: int,
    absent: str = league.ZERO,
    late: str = league.HALF,
    now: datetime | None = None,
    origin: str | None = None,
) -> Tournament:
    """Start a league of tonight's players: a Swiss of ``rounds`` rounds, ``per_evening`` of them each club evening
    (the next evenings' first rounds: ``evening``). Refused (``HistoryError``) as an event's start is."""
    at = _now(store, now)
    if absent not in league.CREDITS or late not in league.CREDITS:
        raise HistoryError("bad-field", field="absent", detail=", ".join(league.CREDITS))
    if len(sides) < MIN_PLAYERS:
        raise HistoryError("event-too-small", value=len(sides), limit=MIN_PLAYERS)

    def decide() -> tuple[int, Writes]:
        if open_event(store, evening) is not None:
            raise HistoryError("event-open")
        number = store.highest_tournament() + 1
        line = start_line(number, at, evening, size, sides, counts, name, None)
        seats = swiss_round(seeded(sides), [], 1)
        line = replace(
            line,
            format=SWISS,
            rounds=max(1, min(rounds, 99)),
            seats=tuple(TournamentSeat(s.round, s.board, s.a, s.b) for s in seats),
            per_evening=max(1, min(per_evening, 20)),
            absent=absent,
            late=late,
        )
        return number, [(line, None)]

    number, _done = store.record_decided(decide, origin)
    started = get(store, number)
    assert started is not None
    return started


def pair_evening(
    store: Store, event_id: int, evening: date, now: datetime | None = None, origin: str | None = None
) -> tuple[str, Tournament | None]:
    """A league's club evening begins: its next round paired among the league's players checked in tonight
    (``tournament-evening``). SAVED; NOT_LEAGUE; STALE closed, or its rounds are all played; ON_NOW the round
    being played is not over; FEW fewer than two of its players here; NO_PAIRING everyone here has met."""
    at = _now(store, now)

    def decide() -> tuple[tuple[str, Tournament | None], Writes]:
        event = get(store, event_id)
        if event is None or event.closed or event.made >= event.rounds:
            return (STALE, event), []
        if not event.is_league:
            return (NOT_LEAGUE, event), []
        if not event.is_done(event.made):
            return (ON_NOW, event), []
        other = open_event(store, evening)
        if other is not None and other.id != event_id:
            raise HistoryError("event-open")
        here = {nick_key(n) for n in store.checked_in(evening)}
        same_night = event.evenings[-1][0] == evening
        present = [
            p
            for p in event.players
            if nick_key(p.nick) in here and not (same_night and event.withdrawn_from(p.nick) is not None)
        ]
        if len(present) < 2:
            return (FEW, event), []
        number = event.made + 1
        try:
            seats = swiss_round(present, event.seats, number)
        except HistoryError:
            return (NO_PAIRING, event), []
        line = TournamentEvening(
            at, event_id, evening, number, tuple(TournamentSeat(s.round, s.board, s.a, s.b) for s in seats)
        )
        return (SAVED, event), [(line, None)]

    said, _done = store.record_decided(decide, origin)
    return said[0], get(store, event_id)


def tonight_league(store: Store, evening: date) -> list[Tournament]:
    """The open leagues a club evening may play: those begun on or before it (the latest first)."""
    found = []
    for _seq, line in store.tournament_starts():
        number = getattr(line, "tournament", None)
        if getattr(line, "per_evening", 0) and number is not None and line.at.date() <= evening:
            event = get(store, number)
            if event is not None and not event.closed and event not in found:
                found.append(event)
    return sorted(found, key=lambda e: -e.id)


def evening_events(store: Store, evening: date) -> list[Tournament]:
    """The events of an evening, the leagues that played on it too (``tournament_store.of_evening``)."""
    return of_evening(store, evening)


# --- lists in: a roster into tonight's list, for an event's start --------------------------


class Imported(NamedTuple):
    """What a roster's import did: players new on the board, players checked in tonight, and those whose magnet
    hangs elsewhere than the list says (nick, the board's strength, the list's): the board's stays."""

    added: tuple[str, ...]
    checked_in: tuple[str, ...]
    elsewhere: tuple[tuple[str, int, int], ...]


def import_roster(
    store: Store,
    evening: date,
    rows: Sequence[RosterRow],
    now: datetime | None = None,
    origin: str | None = None,
) -> Imported:
    """A checked roster (``kiosk.roster``) onto tonight's list, so the event's start has its players ticked: a
    nickname new on its size comes in as a guest from its grade, or as a member at the field given (one
    transaction: all or nothing); a magnet already there keeps its field (the board is the club's truth)."""
    at = _now(store, now)

    def decide() -> tuple[tuple[list[str], list[tuple[str, int, int]]], Writes]:
        magnets = store.magnets()
        writes: Writes = []
        added: list[str] = []
        elsewhere: list[tuple[str, int, int]] = []
        for row in rows:
            try:
                side = side_of(magnets, row.nick, row.size)
            except HistoryError:
                side = None
            if side is not None:
                wanted = row.strength if row.strength is not None else from_grade(row.kyu, row.dan)
                if row.strength is not None and wanted != side.strength:
                    elsewhere.append((side.nick, side.strength, wanted))
                continue
            if row.strength is None:
                line = new_guest(row.nick, row.size, at, magnets, row.kyu, row.dan)
            else:
                line = new_member(row.nick, row.size, as_number(row.strength), at, magnets)
            writes.append((line, None))
            added.append(line.nick)
        return (added, elsewhere), writes

    (added, elsewhere), _done = store.record_decided(decide, origin)
    magnets = store.magnets()
    here = []
    for row in rows:
        try:
            nick = side_of(magnets, row.nick, row.size).nick
        except HistoryError:
            continue
        store.check_in(evening, nick, origin)
        here.append(nick)
    return Imported(tuple(added), tuple(here), tuple(elsewhere))


# --- the archive, and each player's events ---------------------------------------------------------------


# The archive folded once per history (every player page reads it): the store's folder and its history mark.
_ARCHIVE: dict[tuple[str, tuple[int, int]], list[Tournament]] = {}


def archive(store: Store) -> list[Tournament]:
    """Every event there is (a deleted one is none), the latest first: the archive page."""
    key = (str(store.folder), store.history_mark())
    if key not in _ARCHIVE:
        numbers = sorted({getattr(line, "tournament", 0) for _seq, line in store.tournament_starts()}, reverse=True)
        events = [get(store, number) for number in numbers]  # each an index away (tournament_store.folded)
        _ARCHIVE.clear()
        _ARCHIVE[key] = [event for event in events if event is not None]
    return list(_ARCHIVE[key])


def of_player(store: Store, nick: str) -> list[tuple[Tournament, Standing]]:
    """The events a player played in, the latest first, with their line of the standings."""
    key = nick_key(nick)
    found = []
    for event in archive(store):
        line = next((s for s in event_standings(event) if nick_key(s.nick) == key), None)
        if line is not None:
            found.append((event, line))
    return found
