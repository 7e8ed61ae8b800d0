"""Replay: the board as a pure function of the history (docs/rules.md §6).

Two passes. The first walks the events in the order they were entered and settles
what rewrites the whole history: who is who (renames, merges) and which games count
(voids, edits). The second applies the rest in the order of the time they happened,
entry order breaking ties. ``Replay`` keeps its state in plain dicts so the store can
save it and append one game at the end without replaying everything.
"""

from __future__ import annotations

import gc
import heapq
from collections.abc import Callable, Iterable, Iterator, MutableSet, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from kiosk.board import Board, Change, GameResult, Magnet, Move, sort_magnets
from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.event_handicap import played_handicap
from kiosk.events import (
    GUEST,
    MEMBER,
    RATED,
    TOURNAMENT_EVENTS,  # their own block, as in kiosk.events
    Confirm,
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
    RuleChange,
    Shift,
    Unmerge,
    Void,
    nick_key,
)
from kiosk.handicap import EVEN, Handicap, handicap_for
from kiosk.rulechanges import rules_json, same_rules, with_change, with_rules_json
from kiosk.rules import Verdict, is_clear, magnet_used, result_for, starting_field, verdict_of, week_of, white_of
from kiosk.scale import as_number, is_field, move_arrows, nearest_field

Entry = tuple[int, Event]  # (position in entry order, event)
SPARSE_EVERY = 1024


@dataclass(slots=True)
class _MagnetState:
    size: int
    strength: int
    status: str
    retired: bool = False
    guest_losses: int = 0
    free_week: tuple[int, int] | None = None
    active: datetime | None = None  # the last game on its size, joining, correction or restore (sleepers)


@dataclass(slots=True)
class _PlayerState:
    magnets: dict[int, _MagnetState]
    primary: int


class Replay:
    """The replay engine: feed it entries, read the board."""

    def __init__(self, config: Config, even_pairs: MutableSet[tuple[str, str, int]] | None = None) -> None:
        # ``base`` holds the rules in force from the beginning; ``config`` the rules in force
        # at the event being applied (a ``rules`` event of the timeline changes them).
        self.base = config
        self.config = config
        self.aliases: dict[str, str] = {}  # every name's key -> its identity
        self.merged: dict[str, str] = {}  # a duplicate's identity -> the kept identity
        self.display: dict[str, str] = {}  # identity -> the nickname shown now
        self.players: dict[str, _PlayerState] = {}
        # Pairs that have played even at least once (for "now even for the first time").
        # It grows with every pair that ever played, so the store keeps it in a table of
        # its own rather than in the saved state; any set-like object will do here.
        self.even_pairs = even_pairs if even_pairs is not None else set()
        self.cursor: tuple[datetime, int] = (datetime.min, 0)  # the last event applied
        self.next_game_id = 1
        self._handicaps: dict[tuple[int, int], Handicap] = {}
        self._weeks: dict[date, tuple[int, int]] = {}
        self.games: list[GameResult] = []
        self.changes: list[Change] = []
        # Beside ``changes`` and ``even_pairs``: the entry number of the event that made each
        # change, and when each pair first played even, so the store can cut its cache at a
        # checkpoint and replay only what follows it.
        self.change_seqs: list[int] = []
        self.even_added: list[tuple[tuple[str, str, int], tuple[datetime, int]]] = []
        self.applying: tuple[datetime, int] = self.cursor
        # Checkpoints of the state, taken after every ``checkpoint_every`` games (0: none).
        self.checkpoint_every = 0
        self.checkpoints: list[dict[str, Any]] = []
        self._since_checkpoint = 0
        # Far in the past late results are rare: the first ``sparse_games`` games take a
        # checkpoint only every ``SPARSE_EVERY`` games (each one costs a snapshot).
        self.sparse_games = 0
        self._games_applied = 0
        # States asked for at given cursors (a check compares stored checkpoints with them).
        self.snapshot_at: set[tuple[datetime, int]] = set()
        self.snapshots: dict[tuple[datetime, int], dict[str, Any]] = {}

    # --- the whole history ------------------------------------------------------------

    def run(self, entries: Iterable[Entry], until: datetime | None = None) -> Board:
        """Replay a whole history given in entry order; ``HistoryError`` names the line.

        With ``until``, the timeline stops before that time: the board as it stood then
        (names, voids and edits as the whole history settles them).
        """
        with without_cycle_collector():
            self._run(entries, until)
            return self.board()

    def run_history(self, entries: Iterable[Entry]) -> None:
        """Replay a whole history like ``run``, without making the board.

        ``games`` and ``checkpoints`` may then be sinks (anything with ``append``) that
        write them away, so a long history's results need not all be held at once.
        """
        with without_cycle_collector():
            self._run(entries)

    def run_streamed(
        self,
        settling: Iterable[Entry],
        timeline: Iterable[Entry],
        entered_before: Callable[[int, int], int | None],
        games_before: Callable[[int], Iterable[GamePlayed]],
    ) -> None:
        """The same two passes as ``run`` over a history read as streams (as the store keeps it).

        ``settling`` gives the players, renames, merges, unmerges, voids and edits in entry
        order; ``timeline`` the players, games and other timeline events in time order
        (entry order breaking ties). ``entered_before(game, position)`` is the entry
        number of a game entered before ``position`` (None when there is none), and
        ``games_before(position)`` the games entered before it, for a merge's check. Only
        voids and edits are held, so a long history is never held whole.
        """
        # Long: the two passes of ``run`` over streams, kept side by side so they stay the same passes.
        voided: set[int] = set()
        edited: dict[int, tuple[datetime, int, GamePlayed]] = {}  # game id -> the corrected game in the timeline

        def earlier_games(position: int) -> Iterator[GamePlayed]:
            for game in games_before(position):
                if game.id not in voided:
                    yield edited[game.id][2] if game.id in edited else game

        with without_cycle_collector():
            for position, event in settling:
                try:
                    match event:
                        case PlayerAdded():
                            self.register(event.nick)
                        case Rename():
                            self._rename(event)
                        case Merge():
                            self._merge(event, earlier_games(position))
                        case Unmerge():
                            self._unmerge(event)
                        case Void() | Edit():
                            original = entered_before(event.game, position)
                            if original is None:
                                raise HistoryError("unknown-game", game=event.game)
                            if event.game in voided:
                                raise HistoryError("game-voided", game=event.game)
                            if isinstance(event, Void):
                                voided.add(event.game)
                                edited.pop(event.game, None)
                            else:
                                c = event.corrected
                                fixed = c._replace(id=event.game, note=None)
                                edited[event.game] = (c.at, original, fixed)
                except HistoryError as error:
                    raise error.at_line(position) from None
            kept = (
                (event.at, position, event)
                for position, event in timeline
                if not (isinstance(event, GamePlayed) and (event.id in voided or event.id in edited))
            )
            moved = sorted(edited.values(), key=lambda item: (item[0], item[1]))
            self.run_timeline(heapq.merge(kept, moved, key=lambda item: (item[0], item[1])) if moved else kept)

    def _run(self, entries: Iterable[Entry], until: datetime | None = None) -> None:
        timeline: list[tuple[datetime, int, Event]] = []
        game_index: dict[int, int] = {}  # game id -> index in timeline
        voided: set[int] = set()
        for position, event in iter_numbered(entries):
            try:
                self._settle(position, event, timeline, game_index, voided)
            except HistoryError as error:
                raise error.at_line(position) from None
        kept = [item for i, item in enumerate(timeline) if i not in voided] if voided else timeline
        if until is not None:
            kept = [item for item in kept if item[0] < until]
        # (time, position, event): positions are unique, so tuples sort by time, then entry.
        kept.sort()
        self.run_timeline(kept)

    def run_timeline(self, timeline: Iterable[tuple[datetime, int, Event]]) -> None:
        """Apply timeline events in order (time, entry), taking checkpoints when asked to."""
        every, wanted = self.checkpoint_every, self.snapshot_at
        if not (every or wanted):
            apply = self.apply
            for _at, position, event in timeline:
                try:
                    apply(position, event)
                except HistoryError as error:
                    raise error.at_line(position) from None
            return
        for at, position, event in timeline:
            try:
                self.apply(position, event)
            except HistoryError as error:
                raise error.at_line(position) from None
            if wanted and (at, position) in wanted:
                self.snapshots[at, position] = self.snapshot()
            if every and isinstance(event, GamePlayed):
                self._since_checkpoint += 1
                self._games_applied += 1
                spacing = SPARSE_EVERY if self._games_applied < self.sparse_games else every
                if self._since_checkpoint >= spacing:
                    self.checkpoints.append(self.snapshot())
                    self._since_checkpoint = 0

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
                assert event.id is not None  # iter_numbered gave every game its id
                if event.id in game_index:
                    raise HistoryError("duplicate-id", game=event.id)
                game_index[event.id] = len(timeline)
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
                    fixed = c._replace(id=event.game, note=timeline[index][2].note)
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
            case _ if isinstance(event, TOURNAMENT_EVENTS):
                pass  # an evening event's start, round, withdrawal, close: it moves no magnet (kiosk.tournament)
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
        self.aliases[nick_key(event.new)] = identity  # the name shown must stand for this player
        self.display[identity] = event.new

    def _root(self, identity: str) -> str:
        while identity in self.merged:
            identity = self.merged[identity]
        return identity

    def merges(self) -> list[tuple[str, str]]:
        """The merges in force, oldest first: (the duplicate's own nickname, the kept player's nickname now)."""
        return [(self.display[duplicate], self.display[self._root(kept)]) for duplicate, kept in self.merged.items()]

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
        if isinstance(event, Confirm):
            return True  # it moves nothing, whenever it is dated
        if isinstance(event, Merge | Unmerge | Void | Edit | Rename):
            return False
        return (event.at, position) > self.cursor

    def apply(self, position: int, event: Event) -> GameResult | None:
        """Apply one timeline event; the game's result when it is a game."""
        if isinstance(event, GamePlayed):  # nearly every event: the short way
            game_id = self.next_game_id if event.id is None else event.id
            if event.id is None:
                event = event._replace(id=game_id)
            self.next_game_id = max(self.next_game_id, game_id + 1)
            self.applying = self.cursor = (event.at, position)
            return self._game(event)
        if isinstance(event, TOURNAMENT_EVENTS):
            return None  # moves no magnet, and the board's cursor stays where a replay of the board leaves it
        if isinstance(event, Confirm):
            # Not even the cursor: the board and the engine's state are the same with or without
            # the confirmations, so the store need not keep them in the timeline (docs/rules.md §7).
            return None
        self.applying = (event.at, position)
        match event:
            case PlayerAdded():
                self._player(event)
            case Correction():
                self._correction(event)
            case Shift():
                self._shift(event)
            case Retire() | Restore():
                magnet = self._magnet(event.nick, event.size)
                magnet.retired = isinstance(event, Retire)
                if isinstance(event, Restore):
                    magnet.active = event.at  # the owner hung it back: not a sleeper tomorrow
            case Primary():
                identity = self.resolve(event.nick)
                self._magnet(event.nick, event.size)
                self.players[identity].primary = event.size
            case RuleChange():
                self._rule_change(event)
            case OwnerNote():
                pass
        if len(self.change_seqs) < len(self.changes):
            self.change_seqs.extend([position] * (len(self.changes) - len(self.change_seqs)))
        self.cursor = (event.at, position)
        return None

    def append(self, position: int, event: Event) -> GameResult | None:
        """Apply an event entered after everything else (see ``can_append``)."""
        if isinstance(event, PlayerAdded):
            self.register(event.nick)
        return self.apply(position, event)

    def _player(self, event: PlayerAdded) -> None:
        identity = self.resolve(event.nick)
        strength = starting_field(event, self.config)
        if not is_field(strength, self.config.top):  # the line was checked without this club's top
            raise HistoryError("bad-strength", value=as_number(strength))
        player = self.players.get(identity)
        if player is None:
            player = self.players[identity] = _PlayerState({}, event.size)
        elif event.size in player.magnets:
            return  # docs/rules.md §7: a second line for the same magnet is ignored
        player.magnets[event.size] = _MagnetState(event.size, strength, event.status, active=event.at)
        self.changes.append(Change(event.at, identity, event.size, None, strength, "joined"))

    def _rule_change(self, event: RuleChange) -> None:
        """From this event on, the changed rules; a top below a magnet hanging then is refused."""
        rules = with_change(self.config, event)
        if rules.top < self.config.top:
            for identity, player in self.players.items():
                for magnet in player.magnets.values():
                    if magnet.strength > rules.top:
                        raise HistoryError(
                            "rules-top-below",
                            value=as_number(rules.top),
                            now=event.at.isoformat(timespec="minutes"),
                            nick=self.display[identity],
                            detail=as_number(magnet.strength),
                            size=magnet.size,
                        )
        self.config = rules
        self._handicaps = {}  # cached under the old parameters

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
                raise HistoryError("bad-strength", value=as_number(event.strength))
            magnet.strength = event.strength
        if event.status is not None:
            if event.status == GUEST and magnet.status != GUEST:
                magnet.guest_losses = 0
            magnet.status = event.status
        magnet.active = event.at
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
        # The hottest code of a replay (once per game of the history): kept flat on purpose.
        size = game.size
        first, second = game.players
        a_id, b_id = self.resolve(first), self.resolve(second)
        if a_id == b_id:
            raise HistoryError("same-player", nick=first)
        a_player, b_player = self.players.get(a_id), self.players.get(b_id)
        if a_player is None or b_player is None:
            # The nickname resolved, so the player is in the history, added later than this game (§8).
            raise HistoryError("not-on-board-yet", nick=first if a_player is None else second)
        a_magnet, b_magnet = a_player.magnets.get(size), b_player.magnets.get(size)
        # The magnet on the game's size, else the primary one as an approximation (§3).
        a_used = magnet_used(a_magnet, a_player.magnets, a_player.primary)
        b_used = magnet_used(b_magnet, b_player.magnets, b_player.primary)
        h = self._handicap(size, abs(a_used.strength - b_used.strength))
        if game.handicap is not None:
            # An event's handicap policy changed it (kiosk.event_handicap): the board moves as after the game played.
            h = played_handicap(game.handicap, self.config.size_rules[size])
        white = white_of(a_used.strength, b_used.strength, h)
        if game.winner is None:
            if h.even:
                raise HistoryError("draw-even")
            winner = None
        else:
            # The history line names the winner exactly as one of the players.
            if game.winner == first:
                winner = 0
            elif game.winner == second:
                winner = 1
            else:
                winner = 0 if self.resolve(game.winner) == a_id else 1
        clear = is_clear(game.by, self.config.size_rules[size].clear_margin)
        week = self._week(game.at)
        names = (self.display[a_id], self.display[b_id])
        moves: dict[str, Move] = {}
        milestones: list[tuple[str, ...]] = []
        # Both moves are decided from the strengths and statuses before the game (§4).
        a_verdict = b_verdict = None
        rated = game.kind == RATED
        if a_magnet is not None:
            a_verdict = verdict_of(
                result_for(None if winner is None else winner == 0, clear),
                h.training,
                white == 0,  # is White
                a_magnet.status == MEMBER,
                b_used.status == GUEST,  # the opponent is a guest
                a_magnet.free_week != week,  # this week's free loss is unused
                a_magnet.strength == 0,  # at the floor: no arrow down
                rated,
            )
        if b_magnet is not None:
            b_verdict = verdict_of(
                result_for(None if winner is None else winner == 1, clear),
                h.training,
                white == 1,
                b_magnet.status == MEMBER,
                a_used.status == GUEST,
                b_magnet.free_week != week,
                b_magnet.strength == 0,
                rated,
            )
        if a_magnet is not None and a_verdict is not None:
            moves[names[0]] = self._move(a_magnet, a_verdict, week, names[0], milestones)
            a_magnet.active = game.at
        if b_magnet is not None and b_verdict is not None:
            moves[names[1]] = self._move(b_magnet, b_verdict, week, names[1], milestones)
            b_magnet.active = game.at
        if a_magnet is not None and b_magnet is not None:
            self._now_even(a_id, b_id, a_magnet, b_magnet, size, h.even, names, milestones)
        result = GameResult(
            game.id or 0,
            game.at,
            size,
            names,
            None if winner is None else names[winner],
            game.by,
            None if white is None else names[white],
            h,
            moves,
            tuple(milestones),
            game.kind,
        )
        self.games.append(result)
        return result

    def _move(
        self, magnet: _MagnetState, v: Verdict, week: tuple[int, int], nick: str, milestones: list[tuple[str, ...]]
    ) -> Move:
        """Apply a verdict to a magnet; a guest's status is read before, promotion comes after."""
        before = magnet.strength
        if v.arrows:
            magnet.strength = move_arrows(before, v.arrows, self.config.top)
        magnet.retired = False  # a retired magnet that plays is back on the wall
        if v.uses_free_loss:
            magnet.free_week = week
        if v.rated_loss and magnet.status == GUEST:
            magnet.guest_losses += 1
            if magnet.guest_losses >= self.config.guest_losses:
                magnet.status = MEMBER
                milestones.append(("member", nick))
        return Move(before, magnet.strength, v.why)

    def _week(self, at: datetime) -> tuple[int, int]:
        day = at.date()
        week = self._weeks.get(day)
        if week is None:
            week = self._weeks[day] = week_of(at)
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
        self,
        a_id: str,
        b_id: str,
        a: _MagnetState,
        b: _MagnetState,
        size: int,
        was_even: bool,
        names: tuple[str, str],
        milestones: list[tuple[str, ...]],
    ) -> None:
        """Announce two players who will now play even for the first time."""
        is_even = self._handicap(size, abs(a.strength - b.strength)) is EVEN
        if not (was_even or is_even):
            return
        pair = (a_id, b_id, size) if a_id < b_id else (b_id, a_id, size)
        if pair in self.even_pairs:
            return
        self.even_pairs.add(pair)
        self.even_added.append((pair, self.applying))
        if is_even and not was_even:
            milestones.insert(0, ("even", names[0], names[1]))

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
                        active=m.active,
                    )
                )
        return sort_magnets(magnets)

    # --- saving the state between appends -------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything needed to go on appending, as JSON-able data (games are kept apart)."""
        return {"aliases": self.aliases, "merged": self.merged, "display": self.display, **self.snapshot()}

    def snapshot(self) -> dict[str, Any]:
        """A checkpoint: what the timeline built so far (magnets, cursor, game ids), in fresh lists.

        Names, merges, voids and edits are settled by the first pass for the whole history,
        so they are not part of it: ``resume`` takes them from the state of now.
        """
        return {
            "players": {
                identity: {
                    "primary": p.primary,
                    "magnets": [
                        [
                            m.size,
                            m.strength,
                            m.status,
                            m.retired,
                            m.guest_losses,
                            list(m.free_week) if m.free_week else None,
                            m.active.isoformat() if m.active else None,
                        ]
                        for m in p.magnets.values()
                    ],
                }
                for identity, p in self.players.items()
            },
            "cursor": [self.cursor[0].isoformat(), self.cursor[1]],
            "next_game_id": self.next_game_id,
            # The rules in force, only once a rule change made them differ from the base:
            # the state of a club that never changed a rule stays as it was.
            **({} if same_rules(self.config, self.base) else {"rules": rules_json(self.config)}),
        }

    @classmethod
    def resume(
        cls,
        config: Config,
        state: dict[str, Any],
        checkpoint: dict[str, Any],
        even_pairs: MutableSet[tuple[str, str, int]] | None = None,
    ) -> Replay:
        """An engine at a checkpoint, with the names and merges of ``state`` (the whole history's)."""
        names = {key: value for key, value in state.items() if key != "rules"}  # the checkpoint's rules, not now's
        return cls.from_state(config, {**names, **checkpoint}, even_pairs)

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
            for size, strength, status, retired, losses, week, *later in p["magnets"]:
                # ``later``: the last activity, absent from a state saved before sleepers existed.
                active = datetime.fromisoformat(later[0]) if later and later[0] else None
                magnets[size] = _MagnetState(
                    size, strength, status, retired, losses, tuple(week) if week else None, active
                )
            engine.players[identity] = _PlayerState(magnets, p["primary"])
        engine.cursor = (datetime.fromisoformat(state["cursor"][0]), state["cursor"][1])
        engine.next_game_id = state["next_game_id"]
        if "rules" in state:
            engine.config = with_rules_json(config, state["rules"])
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
    return list(iter_numbered(entries))


def iter_numbered(entries: Iterable[Entry]) -> Iterator[Entry]:
    """``number_games`` one entry at a time (a history file need not be held whole)."""
    highest = 0
    for position, event in entries:
        if isinstance(event, GamePlayed):
            game_id = highest + 1 if event.id is None else event.id
            if event.id is None:
                event = event._replace(id=game_id)
            highest = max(highest, game_id)
        yield position, event


def replay(entries: Iterable[Event] | Sequence[Entry], config: Config | None = None) -> Board:
    """The board of a history given in entry order (events, or (position, event) pairs)."""
    numbered = [
        item if isinstance(item, tuple) and not isinstance(item, GamePlayed) else (i, item)
        for i, item in enumerate(entries, start=1)
    ]
    return Replay(config or Config()).run(numbered)
