"""Replay: the board as a pure function of the history (RULES.md §6).

Two passes. The first walks the events in the order they were entered and settles
what rewrites the whole history: who is who (renames, merges) and which games count
(voids, edits). The second applies the rest in the order of the time they happened,
entry order breaking ties. ``Replay`` keeps its state in plain dicts so the store can
save it and append one game at the end without replaying everything.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, MutableSet, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from kiosk.board import Board, Change, GameResult, Magnet, Move, sort_magnets
from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.events import (
    GUEST,
    MEMBER,
    Correction,
    Edit,
    Event,
    GamePlayed,
    Merge,
    OwnerNote,
    PlayerAdded,
    Primary,
    Rename,
    Restore,
    Retire,
    Shift,
    Unmerge,
    Void,
    nick_key,
)
from kiosk.handicap import EVEN, Handicap, handicap_for
from kiosk.rules import is_clear, result_for, verdict
from kiosk.scale import from_grade, is_field, move_arrows, nearest_field

Entry = tuple[int, Event]  # (position in entry order, event)


@dataclass(slots=True)
class _MagnetState:
    size: int
    strength: int
    status: str
    created: tuple[str, int]
    retired: bool = False
    guest_losses: int = 0
    free_week: tuple[int, int] | None = None


@dataclass(slots=True)
class _PlayerState:
    magnets: dict[int, _MagnetState]
    primary: int


class Replay:
    """The replay engine: feed it entries, read the board."""

    def __init__(self, config: Config, even_pairs: MutableSet[tuple[str, str, int]] | None = None) -> None:
        self.config = config
        self.aliases: dict[str, str] = {}  # every name's key -> its identity
        self.merged: dict[str, str] = {}  # a duplicate's identity -> the kept identity
        self.display: dict[str, str] = {}  # identity -> the nickname shown now
        self.players: dict[str, _PlayerState] = {}
        # Pairs that have played even at least once (for "now even for the first time").
        # It grows with every pair that ever played, so the store keeps it in a table of
        # its own rather than in the saved state; any set-like object will do here.
        self.even_pairs = even_pairs if even_pairs is not None else set()
        self.cursor: tuple[str, int] = ("", 0)
        self.next_game_id = 1
        self._handicaps: dict[tuple[int, int], Handicap] = {}
        self._weeks: dict[date, tuple[int, int]] = {}
        self.games: list[GameResult] = []
        self.changes: list[Change] = []

    # --- the whole history ------------------------------------------------------------

    def run(self, entries: Sequence[Entry]) -> Board:
        """Replay a whole history given in entry order; ``HistoryError`` names the line."""
        with without_cycle_collector():
            return self._run(entries)

    def _run(self, entries: Sequence[Entry]) -> Board:
        timeline: list[tuple[datetime, int, Event]] = []
        game_index: dict[int, int] = {}  # game id -> index in timeline
        voided: set[int] = set()
        for position, event in number_games(entries):
            try:
                self._settle(position, event, timeline, game_index, voided)
            except HistoryError as error:
                raise error.at_line(position) from None
        kept = [item for i, item in enumerate(timeline) if i not in voided]
        kept.sort(key=lambda item: (item[0], item[1]))
        for _at, position, event in kept:
            try:
                self.apply(position, event)
            except HistoryError as error:
                raise error.at_line(position) from None
        return self.board()

    def _settle(
        self,
        position: int,
        event: Event,
        timeline: list[tuple[datetime, int, Event]],
        game_index: dict[int, int],
        voided: set[int],
    ) -> None:
        """First pass: names, game ids, voids and edits, in entry order."""
        match event:
            case GamePlayed():
                if event.id in game_index:
                    raise HistoryError("duplicate-id", game=event.id)
                game_index[event.id] = len(timeline)  # type: ignore[index]
                timeline.append((event.at, position, event))
            case Void() | Edit():
                index = game_index.get(event.game)
                if index is None:
                    raise HistoryError("unknown-game", game=event.game)
                if index in voided:
                    raise HistoryError("game-voided", game=event.game)
                if isinstance(event, Void):
                    voided.add(index)
                else:
                    original_position = timeline[index][1]
                    c = event.corrected
                    fixed = GamePlayed(c.at, c.size, c.players, c.winner, c.by, event.game, timeline[index][2].note)
                    timeline[index] = (c.at, original_position, fixed)
            case Rename():
                self._rename(event)
            case Merge():
                self._merge(event, [t[2] for i, t in enumerate(timeline) if i not in voided])
            case Unmerge():
                self._unmerge(event)
            case PlayerAdded():
                self.register(event.nick)
                timeline.append((event.at, position, event))
            case _:
                timeline.append((event.at, position, event))

    def register(self, nick: str) -> None:
        """Know a player's nickname; a name renamed away cannot come back as someone new."""
        key = nick_key(nick)
        identity = self.aliases.get(key)
        if identity is None:
            self.aliases[key] = key
            self.display[key] = nick
        elif nick_key(self.display[identity]) != key and identity not in self.merged:
            raise HistoryError("nick-renamed", nick=nick)

    def resolve(self, nick: str) -> str:
        """The identity a nickname stands for now, after renames and merges."""
        identity = self.aliases.get(nick_key(nick))
        if identity is None:
            raise HistoryError("unknown-player", nick=nick)
        while identity in self.merged:
            identity = self.merged[identity]
        return identity

    def _rename(self, event: Rename) -> None:
        identity = self.resolve(event.old)
        other = self.aliases.get(nick_key(event.new))
        if other is not None and self._root(other) != identity:
            raise HistoryError("nick-taken", nick=event.new)
        self.aliases[nick_key(event.new)] = self.aliases[nick_key(event.old)]
        self.display[identity] = event.new

    def _root(self, identity: str) -> str:
        while identity in self.merged:
            identity = self.merged[identity]
        return identity

    def _merge(self, event: Merge, games: Iterable[Event]) -> None:
        duplicate, kept = self.resolve(event.duplicate), self.resolve(event.kept)
        if duplicate == kept:
            raise HistoryError("merge-self")
        for game in games:
            if isinstance(game, GamePlayed):
                pair = {self._root(self.aliases.get(nick_key(n), "")) for n in game.players}
                if pair == {duplicate, kept}:
                    raise HistoryError("merge-played", a=event.duplicate, b=event.kept)
        self.merged[duplicate] = kept

    def _unmerge(self, event: Unmerge) -> None:
        kept = self.resolve(event.kept)
        identity = self.aliases.get(nick_key(event.duplicate))
        if identity is None:
            raise HistoryError("unknown-player", nick=event.duplicate)
        while identity in self.merged:
            if self._root(self.merged[identity]) == kept:
                del self.merged[identity]
                return
            identity = self.merged[identity]
        raise HistoryError("not-merged", a=event.duplicate, b=event.kept)

    # --- one event in time order -------------------------------------------------------

    def can_append(self, event: Event, position: int) -> bool:
        """True when ``event`` comes after everything applied, so no replay is needed."""
        if isinstance(event, Merge | Unmerge | Void | Edit | Rename):
            return False
        return (event.at.isoformat(), position) > self.cursor

    def apply(self, position: int, event: Event) -> GameResult | None:
        """Apply one timeline event; the game's result when it is a game."""
        result = None
        match event:
            case GamePlayed():
                if event.id is None:
                    event = replace(event, id=self.next_game_id)
                self.next_game_id = max(self.next_game_id, event.id + 1)  # type: ignore[operator]
                result = self._game(event)
            case PlayerAdded():
                self._player(event)
            case Correction():
                self._correction(event)
            case Shift():
                self._shift(event)
            case Retire() | Restore():
                self._magnet(event.nick, event.size).retired = isinstance(event, Retire)
            case Primary():
                identity = self.resolve(event.nick)
                self._magnet(event.nick, event.size)
                self.players[identity].primary = event.size
            case OwnerNote():
                pass
        self.cursor = (event.at.isoformat(), position)
        return result

    def append(self, position: int, event: Event) -> GameResult | None:
        """Apply an event entered after everything else (see ``can_append``)."""
        if isinstance(event, PlayerAdded):
            self.register(event.nick)
        return self.apply(position, event)

    def _player(self, event: PlayerAdded) -> None:
        identity = self.resolve(event.nick)
        top = self.config.top
        if event.kyu is not None or event.dan is not None:
            strength = from_grade(event.kyu, event.dan, top)
        else:
            strength = event.strength or 0
            if not is_field(strength, top):
                raise HistoryError("bad-strength", value=strength / 4)
        player = self.players.get(identity)
        if player is None:
            player = self.players[identity] = _PlayerState({}, event.size)
        elif event.size in player.magnets:
            return  # RULES.md §7: a second line for the same magnet is ignored
        player.magnets[event.size] = _MagnetState(event.size, strength, event.status, (event.at.isoformat(), 0))
        self.changes.append(Change(event.at, identity, event.size, None, strength, "joined"))

    def _magnet(self, nick: str, size: int) -> _MagnetState:
        identity = self.resolve(nick)
        player = self.players.get(identity)
        if player is None:
            raise HistoryError("unknown-player", nick=nick)
        magnet = player.magnets.get(size)
        if magnet is None:
            raise HistoryError("no-magnet", nick=nick, size=size)
        return magnet

    def _correction(self, event: Correction) -> None:
        magnet = self._magnet(event.nick, event.size)
        before = magnet.strength
        if event.strength is not None:
            if not is_field(event.strength, self.config.top):
                raise HistoryError("bad-strength", value=event.strength / 4)
            magnet.strength = event.strength
        if event.status is not None:
            if event.status == GUEST and magnet.status != GUEST:
                magnet.guest_losses = 0
            magnet.status = event.status
        self.changes.append(
            Change(event.at, self.resolve(event.nick), event.size, before, magnet.strength, "correction")
        )

    def _shift(self, event: Shift) -> None:
        group = None if event.nicks is None else {self.resolve(n) for n in event.nicks}
        for n in event.nicks or ():
            if self.resolve(n) not in self.players:
                raise HistoryError("unknown-player", nick=n)
        for identity, player in self.players.items():
            if group is not None and identity not in group:
                continue
            for magnet in player.magnets.values():
                if event.size is None or magnet.size == event.size:
                    before = magnet.strength
                    magnet.strength = nearest_field(before + event.amount, self.config.top)
                    self.changes.append(Change(event.at, identity, magnet.size, before, magnet.strength, "shift"))

    def _game(self, game: GamePlayed) -> GameResult:
        size = game.size
        rules = self.config.size_rules[size]
        ids = [self.resolve(n) for n in game.players]
        if ids[0] == ids[1]:
            raise HistoryError("same-player", nick=game.players[0])
        players = [self.players.get(i) for i in ids]
        for nick, player in zip(game.players, players, strict=True):
            if player is None:
                raise HistoryError("unknown-player", nick=nick)
        # The magnet on the game's size, else the primary one as an approximation (§3).
        used = [p.magnets.get(size) or p.magnets[p.primary] for p in players]  # type: ignore[union-attr]
        a, b = used[0].strength, used[1].strength
        h = self._handicap(size, abs(a - b))
        white = None if h.even else (0 if a > b else 1)
        winner = None if game.winner is None else ids.index(self.resolve(game.winner))
        if winner is None and h.even:
            raise HistoryError("draw-even")
        clear = is_clear(game.by, rules.clear_margin)
        week = self._week(game.at)
        names = [self.display[i] for i in ids]
        moves: dict[str, Move] = {}
        updates = []
        for side in (0, 1):
            magnet = players[side].magnets.get(size)  # type: ignore[union-attr]
            if magnet is None:
                continue  # an occasional game: this magnet stays (§4.1)
            won = None if winner is None else winner == side
            v = verdict(
                result_for(won, clear),
                h,
                white == side,  # is White
                magnet.status == MEMBER,
                used[1 - side].status == GUEST,  # the opponent is a guest
                magnet.free_week != week,  # this week's free loss is unused
            )
            after = move_arrows(magnet.strength, v.arrows, self.config.top)
            moves[names[side]] = Move(magnet.strength, after, v.why)
            updates.append((magnet, after, v))
        milestones: list[tuple[str, ...]] = []
        for magnet, after, v in updates:
            magnet.strength = after
            magnet.retired = False  # a retired magnet that plays is back on the wall
            if v.uses_free_loss:
                magnet.free_week = week
            if v.rated_loss and magnet.status == GUEST:
                magnet.guest_losses += 1
                if magnet.guest_losses >= self.config.guest_losses:
                    magnet.status = MEMBER
                    milestones.append(("member", self.display[self._owner_of(magnet)]))
        milestones[:0] = self._now_even(ids, size, h.even, rules, names)
        return self._record(game, names, white, winner, h, moves, milestones)

    def _week(self, at: datetime) -> tuple[int, int]:
        day = at.date()
        week = self._weeks.get(day)
        if week is None:
            iso = day.isocalendar()
            week = self._weeks[day] = (iso[0], iso[1])
        return week

    def _handicap(self, size: int, difference: int) -> Handicap:
        # Replay asks for the same few differences again and again; hashing the size's
        # Fraction parameters each time would cost more than the rule itself.
        key = (size, difference)
        found = self._handicaps.get(key)
        if found is None:
            found = self._handicaps[key] = handicap_for(difference, self.config.size_rules[size])
        return found

    def _now_even(
        self, ids: list[str], size: int, was_even: bool, rules: Any, names: list[str]
    ) -> list[tuple[str, ...]]:
        magnets = [self.players[i].magnets.get(size) for i in ids]
        if magnets[0] is None or magnets[1] is None:
            return []
        pair = (min(ids), max(ids), size)
        is_even = self._handicap(size, abs(magnets[0].strength - magnets[1].strength)) is EVEN
        if was_even or not is_even or pair in self.even_pairs:
            if was_even or is_even:
                self.even_pairs.add(pair)
            return []
        self.even_pairs.add(pair)
        return [("even", names[0], names[1])]

    def _owner_of(self, magnet: _MagnetState) -> str:
        return next(i for i, p in self.players.items() if any(m is magnet for m in p.magnets.values()))

    def _record(
        self,
        game: GamePlayed,
        names: list[str],
        white: int | None,
        winner: int | None,
        h: Any,
        moves: dict[str, Move],
        milestones: list[tuple[str, ...]],
    ) -> GameResult:
        result = GameResult(
            id=game.id or 0,
            at=game.at,
            size=game.size,
            players=(names[0], names[1]),
            winner=None if winner is None else names[winner],
            by=game.by,
            white=None if white is None else names[white],
            handicap=h,
            moves=moves,
            milestones=tuple(milestones),
        )
        self.games.append(result)
        return result

    # --- reading the board ----------------------------------------------------------------

    def board(self) -> Board:
        """The board now: magnets in board order, games in replay order."""
        changes = tuple(
            Change(c.at, self.display[self._root(c.nick)], c.size, c.before, c.after, c.why) for c in self.changes
        )
        return Board(self.board_magnets(), tuple(self.games), changes)

    def board_magnets(self) -> tuple[Magnet, ...]:
        """The magnets now, in board order."""
        magnets = []
        for identity, player in self.players.items():
            for size, m in player.magnets.items():
                magnets.append(
                    Magnet(
                        nick=self.display[identity],
                        size=size,
                        strength=m.strength,
                        status=m.status,
                        retired=m.retired,
                        primary=size == player.primary,
                        guest_losses=m.guest_losses,
                        free_loss_week=m.free_week,
                    )
                )
        return sort_magnets(magnets)

    # --- saving the state between appends -------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything needed to go on appending, as JSON-able data (games are kept apart)."""
        return {
            "aliases": self.aliases,
            "merged": self.merged,
            "display": self.display,
            "players": {
                identity: {
                    "primary": p.primary,
                    "magnets": [
                        [
                            m.size,
                            m.strength,
                            m.status,
                            list(m.created),
                            m.retired,
                            m.guest_losses,
                            list(m.free_week) if m.free_week else None,
                        ]
                        for m in p.magnets.values()
                    ],
                }
                for identity, p in self.players.items()
            },
            "cursor": list(self.cursor),
            "next_game_id": self.next_game_id,
        }

    @classmethod
    def from_state(
        cls, config: Config, state: dict[str, Any], even_pairs: MutableSet[tuple[str, str, int]] | None = None
    ) -> Replay:
        """An engine that goes on from a saved state (its games list starts empty)."""
        engine = cls(config, even_pairs)
        engine.aliases = dict(state["aliases"])
        engine.merged = dict(state["merged"])
        engine.display = dict(state["display"])
        for identity, p in state["players"].items():
            magnets = {}
            for size, strength, status, created, retired, losses, week in p["magnets"]:
                magnets[size] = _MagnetState(
                    size, strength, status, tuple(created), retired, losses, tuple(week) if week else None
                )  # type: ignore[arg-type]
            engine.players[identity] = _PlayerState(magnets, p["primary"])
        engine.cursor = tuple(state["cursor"])  # type: ignore[assignment]
        engine.next_game_id = state["next_game_id"]
        return engine


@contextmanager
def without_cycle_collector() -> Iterator[None]:
    """Pause the cyclic garbage collector while a history is parsed and replayed.

    Replay makes a great many small objects and no reference cycles: the collector
    would only scan them over and over (it doubled the time of a 50,000-game replay).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def number_games(entries: Iterable[Entry]) -> list[Entry]:
    """The entries with every game given an id: its own, else one more than the highest so far."""
    numbered: list[Entry] = []
    highest = 0
    for position, event in entries:
        if isinstance(event, GamePlayed):
            if event.id is None:
                event = GamePlayed(event.at, event.size, event.players, event.winner, event.by, highest + 1, event.note)
            highest = max(highest, event.id)  # type: ignore[type-var]
        numbered.append((position, event))
    return numbered


def replay(entries: Iterable[Event] | Sequence[Entry], config: Config | None = None) -> Board:
    """The board of a history given in entry order (events, or (position, event) pairs)."""
    numbered = [item if isinstance(item, tuple) else (i, item) for i, item in enumerate(entries, start=1)]
    return Replay(config or Config()).run(numbered)
