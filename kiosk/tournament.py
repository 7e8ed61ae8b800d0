"""Small events of a club evening: the format follows the turnout, every game a handicap game.

Pure: players come in as ``kiosk.pairing.Side`` (nickname and strength on the event's
size), results as ``Seat`` rows; nothing here reads the clock or the store.

Formats (the club's practice):

* 4 to 6 players: a double round-robin (every pair plays twice);
* 7 to 10 players: a single round-robin;
* 11 and more: a Swiss of ``floor(2 * log2(N)) + 1`` rounds (rounded down: an evening is
  short), and never more than ``N - 1`` rounds, so that no pair has to meet twice.

Round-robins follow the Berger tables (players numbered by club strength, strongest 1;
an odd count adds a bye slot, so each player sits out once per cycle). A Swiss pairs its
first round by club strength, each later round by score, then strength, pairing each
player with the nearest one in that order they have not met yet; an odd count gives the
bye to a player who has not had one, lowest score first (then the weakest).

Every game is a handicap game with the board's table: the stronger player takes White,
exactly as tonight's pairing (``kiosk.tonight``) and the game form show it.

Standings: score (a win 1, a draw 1/2, a bye 1), then SOS (the sum of the opponents'
scores), then SODOS (the sum of the scores of the opponents one beat, half for a draw).
With handicap games every game is meant to be an even chance, so the score says most;
SOS rewards the harder draw in a Swiss, SODOS the harder wins. Players equal on all
three share a place.

A player who goes home mid-event is withdrawn from the round being played on: the results
already in stay; every later game of theirs without a result is not played, and the
opponent gets that round's bye instead (1 point, as any bye: no game, nothing on the
board); a Swiss pairs them no more. So every remaining player of a round-robin gets the
same point against the one who left (played or by the bye), and nobody who left is
written down a loss they did not play (see docs/rules.md, "Small events").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from fractions import Fraction
from typing import NamedTuple
from xml.etree import ElementTree

from kiosk import accelerated, league
from kiosk.accelerated import ACCELERATED
from kiosk.board import GameResult, Magnet
from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.event_handicap import check_policy, is_default, played
from kiosk.event_pairing import ADJACENT, FOLD, folded_order, kept_apart, later_rounds_first_apart
from kiosk.event_prizes import check_classes
from kiosk.events import (
    TOURNAMENT_NAME_LIMIT,
    Edit,
    Event,
    GamePlayed,
    TournamentAsked,
    TournamentClosed,
    TournamentDeclined,
    TournamentDeleted,
    TournamentEvening,
    TournamentJoined,
    TournamentLinked,
    TournamentPlayer,
    TournamentReopened,
    TournamentReturned,
    TournamentRound,
    TournamentSeat,
    TournamentStarted,
    TournamentWithdrawal,
    Void,
    nick_key,
)
from kiosk.handicap import DEFAULT_SIZE_RULES, Handicap, SizeRules, handicap_for
from kiosk.pairing import Pairing, Side, side_of
from kiosk.recording import new_game
from kiosk.scale import to_grade
from kiosk.tiebreak import NO_CHOICES, TODAY, Choices, chain_from, rank

DOUBLE_ROUND_ROBIN = "double-round-robin"
ROUND_ROBIN = "round-robin"
SWISS = "swiss"
FORMATS = (DOUBLE_ROUND_ROBIN, ROUND_ROBIN, SWISS, ACCELERATED)  # accel: the accelerated event (kiosk.accelerated)
MIN_PLAYERS = 4
LARGEST_DOUBLE = 6
LARGEST_ROUND_ROBIN = 10

# Outcomes of a board, as the fold gives them (from the game tapped on it).
A_WINS, B_WINS, DRAW = "a", "b", "draw"
OUTCOMES = (A_WINS, B_WINS, DRAW)
# How a game ended: the game form's three choices.
HOW = ("points", "resignation", "other")

# What a write on an event did (kiosk.services.tournaments answers; the phone says it kindly): SAVED; ALREADY the
# same was in already (a double tap: "same result again"); TAKEN another result got in first; STALE no such event
# or board, or one not open to it; BYE a player's bye (nothing to enter); LEFT a player went home; UNDECIDED no
# result to correct yet; NOBODY not a player of the event; NOT_YOURS a tap another phone made (only it can take it
# back, or the owner); TOO_LATE the undo window has passed.
SAVED, ALREADY, TAKEN, STALE = "saved", "already", "taken", "stale"
UNDECIDED, LEFT, NOBODY, BYE = "undecided", "left", "nobody", "bye"
NOT_YOURS, TOO_LATE = "not-yours", "too-late"

# A Swiss pairing that cannot avoid a rematch is searched at most this long before giving up.
_SEARCH_STEPS = 200_000


class Seat(NamedTuple):
    """One board of a round: ``a`` plays ``b`` (``b`` None: ``a`` has the bye); ``result`` once known."""

    round: int
    board: int
    a: str
    b: str | None
    result: str | None = None  # A_WINS, B_WINS, DRAW; None while the game is on (and for a bye)


def format_for(count: int) -> str:
    """The event's format for ``count`` players; fewer than 4 is no event."""
    if count < MIN_PLAYERS:
        raise HistoryError("event-too-small", value=count, limit=MIN_PLAYERS)
    if count <= LARGEST_DOUBLE:
        return DOUBLE_ROUND_ROBIN
    if count <= LARGEST_ROUND_ROBIN:
        return ROUND_ROBIN
    return SWISS


def swiss_rounds(count: int) -> int:
    """``floor(2 * log2(count)) + 1``, at most ``count - 1``: 11 players 7 rounds, 40 players 11.

    Exact integer arithmetic: ``floor(2 * log2 n) = floor(log2 n²)``, one less than the bit length of n².
    """
    return max(1, min(count - 1, (count * count).bit_length()))


def rounds_for(event_format: str, count: int) -> int:
    """How many rounds an event of ``count`` players has in ``event_format``."""
    slots = count + count % 2  # an odd count plays with a bye slot
    if event_format == DOUBLE_ROUND_ROBIN:
        return 2 * (slots - 1)
    if event_format == ROUND_ROBIN:
        return slots - 1
    return swiss_rounds(count)


def planned_rounds(event_format: str, count: int, wanted: int | None = None) -> int:
    """The rounds an event plays: the format's count; an owner may ask a Swiss for fewer (at least 1)."""
    full = rounds_for(event_format, count)
    if event_format not in (SWISS, ACCELERATED) or wanted is None:
        return full
    return max(1, min(full, wanted))


def seeded(players: Iterable[Side]) -> list[Side]:
    """Players by club strength, strongest first; the nickname settles equal strengths (input order never matters)."""
    return sorted(players, key=lambda s: (-s.strength, nick_key(s.nick)))


def berger(count: int) -> list[list[tuple[int, int | None]]]:
    """The Berger tables for ``count`` players numbered 0 (strongest) up: each round's pairs of numbers.

    An odd count adds a bye slot (None), the table's last number. In round r the numbers
    1..n-1 stand in a circle turned by r * n/2 places; the last number meets the first of
    the circle, and the others meet across it (1-6 2-5 3-4, then 6-4 5-3 1-2, ... for six).
    """
    slots: list[int | None] = [*range(count), *([None] if count % 2 else [])]
    n = len(slots)
    circle, last = slots[:-1], slots[-1]
    rounds = []
    for r in range(n - 1):
        turned = [circle[(k + r * n // 2) % (n - 1)] for k in range(n - 1)]
        pairs: list[tuple[int | None, int | None]] = [(turned[0], last)]
        pairs += [(turned[k], turned[n - 1 - k]) for k in range(1, n // 2)]
        rounds.append([_with_bye_last(a, b) for a, b in pairs])
    return rounds


def _with_bye_last(a: int | None, b: int | None) -> tuple[int, int | None]:
    if a is None:
        assert b is not None
        return b, None
    return a, b


def round_robin(players: Sequence[Side], double: bool) -> list[Seat]:
    """Every round of a (double) round-robin as seats, byes last in each round."""
    order = seeded(players)
    table = berger(len(order))
    cycles = 2 if double else 1
    seats = []
    for cycle in range(cycles):
        for index, pairs in enumerate(table):
            number = cycle * len(table) + index + 1
            games = [(order[a], order[b]) for a, b in pairs if b is not None]
            games.sort(key=lambda pair: (-max(p.strength for p in pair), -min(p.strength for p in pair)))
            byes = [order[a] for a, b in pairs if b is None]
            seats += _seats(number, games, byes)
    return seats


def _seats(number: int, games: Sequence[tuple[Side, Side]], byes: Sequence[Side]) -> list[Seat]:
    """A round's seats: the boards in the order given, each pair stronger player first, then the bye."""
    ordered = [tuple(seeded(pair)) for pair in games]
    seats = [Seat(number, board, a.nick, b.nick) for board, (a, b) in enumerate(ordered, start=1)]
    seats += [Seat(number, len(seats) + 1 + i, side.nick, None) for i, side in enumerate(byes)]
    return seats


def first_rounds(
    event_format: str,
    players: Sequence[Side],
    avoid: Sequence[tuple[str, str]] = (),
    first_round: str = ADJACENT,
    rounds: int | None = None,
) -> list[Seat]:
    """The rounds made when the event starts: all of a round-robin, the first of a Swiss.

    ``avoid``: pairs not to meet early, ``first_round``: a Swiss's round-1 style (kiosk.event_pairing).
    """
    if event_format == SWISS:
        apart = kept_apart(avoid, 1, rounds or rounds_for(SWISS, len(players)))
        return swiss_round(players, [], 1, apart, fold=first_round == FOLD)
    seats = round_robin(players, double=event_format == DOUBLE_ROUND_ROBIN)
    return later_rounds_first_apart(seats, avoid, rounds_for(ROUND_ROBIN, len(players)))


# --- the Swiss --------------------------------------------------------------------------------


def reached(seats: Iterable[Seat]) -> int:
    """The round being played: the first with a game still on (one past the last when all are done)."""
    seats = list(seats)
    open_rounds = [s.round for s in seats if s.b is not None and s.result is None]
    if open_rounds:
        return min(open_rounds)
    return 1 + max((s.round for s in seats), default=0)


def scores(players: Sequence[Side], seats: Iterable[Seat]) -> dict[str, Fraction]:
    """Each player's score (by nick key): a win 1, a draw 1/2, a bye 1 once its round is reached; a game on counts 0."""
    total = {nick_key(p.nick): Fraction(0) for p in players}
    seats = list(seats)
    now = reached(seats)
    for seat in seats:
        a = nick_key(seat.a)
        if seat.b is None:
            if seat.round > now:  # a round-robin's later bye: not yet
                continue
            total[a] = total.get(a, Fraction(0)) + league.bye_points(seat.result)  # a bye 1; a missed round's credit
            continue
        b = nick_key(seat.b)
        if seat.result == A_WINS:
            total[a] = total.get(a, Fraction(0)) + 1
        elif seat.result == B_WINS:
            total[b] = total.get(b, Fraction(0)) + 1
        elif seat.result == DRAW:
            total[a] = total.get(a, Fraction(0)) + Fraction(1, 2)
            total[b] = total.get(b, Fraction(0)) + Fraction(1, 2)
    return total


def met(seats: Iterable[Seat]) -> set[frozenset[str]]:
    """The pairs (nick keys) who have already been paired in the event."""
    return {frozenset((nick_key(s.a), nick_key(s.b))) for s in seats if s.b is not None}


def swiss_round(
    players: Sequence[Side],
    earlier: Sequence[Seat],
    number: int,
    apart: frozenset[frozenset[str]] = frozenset(),
    fold: bool = False,
) -> list[Seat]:
    """Round ``number`` of a Swiss after the ``earlier`` rounds' seats (all with results).

    Never a pair that has met; ``HistoryError("event-no-pairing")`` when every pairing would
    repeat one (a Swiss that ran out of opponents: it ends there). ``apart``: pairs (nick keys)
    kept apart while a pairing without them exists; ``fold``: round 1 strongest against weakest.
    """
    score = scores(players, earlier)
    order = sorted(players, key=lambda s: (-score[nick_key(s.nick)], -s.strength, nick_key(s.nick)))
    pairs = met(earlier)
    had_bye = {nick_key(s.a) for s in earlier if s.b is None and not league.is_credit(s.result)}

    def bye_order(s: Side) -> tuple[bool, Fraction, int, str]:
        # The bye: a player without one, lowest score first, then the weakest; one who had it only if needed.
        return nick_key(s.nick) in had_bye, score[nick_key(s.nick)], s.strength, nick_key(s.nick)

    candidates: list[Side | None] = [*sorted(order, key=bye_order)] if len(order) % 2 else [None]
    for avoiding in ([pairs | apart] if apart else []) + [pairs]:
        for bye in candidates:
            rest = [s for s in order if s is not bye]
            games = _folded_games(rest, avoiding) if fold and not earlier else _match(rest, avoiding)
            if games is not None:
                return _seats(number, games, [bye] if bye is not None else [])
    raise HistoryError("event-no-pairing", value=number)


def _folded_games(order: Sequence[Side], apart: set[frozenset[str]]) -> list[tuple[Side, Side]] | None:
    """Round 1 folded (1-N, 2-(N-1)); a marked pair it would make is swapped with the next board's lower player."""
    games = [(order[i], order[j]) for i, j in folded_order([s.nick for s in order])]

    def bad(pair: tuple[Side, Side]) -> bool:
        return frozenset((nick_key(pair[0].nick), nick_key(pair[1].nick))) in apart

    for index, pair in enumerate(games):
        if not bad(pair):
            continue
        for other in range(len(games)):
            if other == index:
                continue
            swapped = (pair[0], games[other][1]), (games[other][0], pair[1])
            if not any(bad(p) for p in swapped):
                games[index], games[other] = swapped
                break
    return None if any(bad(p) for p in games) else games


def _match(order: Sequence[Side], played: set[frozenset[str]]) -> list[tuple[Side, Side]] | None:
    """Pair ``order`` (best first) top down, each with the nearest player it has not met; None when impossible.

    A depth-first search: the first pairing it finds is the greedy one whenever that works,
    and it backs up only as far as a dead end forces it to.
    """
    keys = [nick_key(s.nick) for s in order]
    free = [True] * len(order)
    chosen: list[tuple[int, int]] = []
    steps = 0

    def walk() -> bool:
        nonlocal steps
        steps += 1
        if steps > _SEARCH_STEPS:
            return False
        first = next((i for i, f in enumerate(free) if f), None)
        if first is None:
            return True
        free[first] = False
        for other in range(first + 1, len(order)):
            if free[other] and frozenset((keys[first], keys[other])) not in played:
                free[other] = False
                chosen.append((first, other))
                if walk():
                    return True
                chosen.pop()
                free[other] = True
        free[first] = True
        return False

    if not walk():
        return None
    return [(order[i], order[j]) for i, j in chosen]


# --- an event as a whole ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tournament:
    """A small event as its history lines make it (``fold``): its players (strengths at the start), its rounds."""

    id: int
    evening: date
    size: int
    format: str
    rounds: int
    counts: bool  # its results count on the board (recorded as ordinary games)
    players: tuple[Side, ...]
    seats: tuple[Seat, ...]
    name: str = ""
    closed: bool = False
    # Players who went home: (nick, the first round they miss); their later games are byes (``with_withdrawals``).
    withdrawn: tuple[tuple[str, int], ...] = ()
    # tiebreak: the owner's settings from the start line (kiosk.events.TournamentStarted).
    tiebreaks: tuple[str, ...] = TODAY
    unique_places: bool = False
    handicap_cap: int | None = None
    handicap_less: int = 0
    even_top: int = 0
    avoid: tuple[tuple[str, str], ...] = ()
    first_round: str = "adjacent"
    prize_classes: tuple[int, ...] = ()  # kiosk.event_prizes
    # league: late starters, returns, a league's evenings (kiosk/league.py; docs/events.md)
    joined: tuple[tuple[str, int], ...] = ()  # late starters: (nick, the first round they play)
    returned: tuple[tuple[str, int, int], ...] = ()  # went home and came back: (nick, first round missed, back)
    evenings: tuple[tuple[date, int], ...] = ()  # a league's evenings: (evening, its first round), the start's first
    late: str = league.HALF  # how a late starter's missed round counts
    per_evening: int = 0  # a league: rounds per evening (0: an event of one evening)
    absent: str = league.ZERO  # a league: how a round a player was not there for counts
    asking: tuple[str, ...] = ()  # players whose phone asked to join or come back, the owner not having answered
    # accel: an accelerated event's handicap cap in starting moves (kiosk.accelerated); None for the other formats.
    pairing_cap: int | None = None

    @property
    def is_league(self) -> bool:
        """An event across club evenings."""
        return self.per_evening > 0

    def joined_from(self, nick: str) -> int | None:
        """A late starter's first round; None for a player there from the start."""
        key = nick_key(nick)
        return next((number for name, number in self.joined if nick_key(name) == key), None)

    def withdrawn_from(self, nick: str) -> int | None:
        """The first round a withdrawn player misses; None for a player still in the event."""
        key = nick_key(nick)
        return next((number for name, number in self.withdrawn if nick_key(name) == key), None)

    @property
    def active(self) -> tuple[Side, ...]:
        """The players still in the event (a Swiss pairs only them)."""
        gone = {nick_key(name) for name, _number in self.withdrawn}
        return tuple(p for p in self.players if nick_key(p.nick) not in gone)

    def round_seats(self, number: int) -> tuple[Seat, ...]:
        """The seats of one round, board order (a missed round's credit is no board: the standings show it)."""
        return tuple(s for s in self.seats if s.round == number and not league.is_credit(s.result))

    @property
    def made(self) -> int:
        """How many rounds have their pairings."""
        return max((s.round for s in self.seats), default=0)

    def is_done(self, number: int) -> bool:
        """True when every game of round ``number`` has its result."""
        seats = self.round_seats(number)
        return bool(seats) and all(s.b is None or s.result is not None for s in seats)

    @property
    def current(self) -> int:
        """The round being played: the first without all its results; the last round once all are in."""
        for number in range(1, self.made + 1):
            if not self.is_done(number):
                return number
        return self.made

    @property
    def unplayed(self) -> int:
        """Rounds not played to their end (closing asks first while there are any); 0 once the event has ended."""
        if self.finished:
            return 0
        return self.rounds - sum(1 for number in range(1, self.made + 1) if self.is_done(number))

    @property
    def finished(self) -> bool:
        """Every round paired is played, and no more will be: a Swiss pairs its next round as the last result
        of a round comes in (in the same write), so a Swiss with its last round done has ended, early too
        when it ran out of new pairings; a round-robin has all its rounds from the start."""
        # league: one between evenings is not over: it ends when its rounds are played (or the owner closes it)
        return self.made > 0 and self.is_done(self.made) and (not self.is_league or self.made >= self.rounds)


def next_round(event: Tournament, rules: SizeRules | None = None) -> list[Seat]:
    """The seats to add once the current round is done: the next Swiss round; nothing otherwise.

    A round-robin has all its rounds from the start. A Swiss that can find no new pairing
    ends early: nothing is added (``HistoryError`` is not raised to the player who entered the
    last result).
    """
    if event.format not in (SWISS, ACCELERATED) or event.made >= event.rounds or not event.is_done(event.made):
        return []
    players = event.active if not event.is_league else league_present(event)
    if event.is_league and league.evening_rounds(event.evenings, event.made) >= event.per_evening:
        return []  # the evening's rounds are played: the owner pairs the next evening's first round
    if len(players) < 2:  # everyone else went home: nothing left to pair
        return []
    if event.format == ACCELERATED:  # accel
        return _accelerated_round(event, players, event.seats, event.made + 1, rules)
    try:
        apart = kept_apart(event.avoid, event.made + 1, event.rounds)
        return swiss_round(players, event.seats, event.made + 1, apart)
    except HistoryError:
        return []


def league_present(event: Tournament) -> tuple[Side, ...]:
    """A league's players for the next round of the same evening (``kiosk.league.present_next``)."""
    played = [n for s in event.round_seats(event.made) for n in (s.a, s.b)]
    back = [n for n, number in event.joined if number == event.made + 1]
    back += [n for n, _first, number in event.returned if number == event.made + 1]
    keys = {nick_key(n) for n in league.present_next(played, back, lambda n: event.withdrawn_from(n) is not None)}
    return tuple(p for p in event.players if nick_key(p.nick) in keys)


# accel: the accelerated event's rounds (kiosk.accelerated pairs them; here they become seats) -----------------


def _accelerated_round(
    event: Tournament, players: Sequence[Side], earlier: Sequence[Seat], number: int, rules: SizeRules | None
) -> list[Seat]:
    """Round ``number`` of an accelerated event as seats: boards from the top level down, the bye last.

    Nothing when no pairing keeps the cap and avoids a rematch (the event ends there, as a Swiss does).
    """
    size_rules = rules or DEFAULT_SIZE_RULES[event.size]
    cap = event.pairing_cap or accelerated.default_cap(size_rules)
    try:
        pairs = accelerated.pair_round(players, earlier, number, event.rounds, size_rules, cap)
    except HistoryError:
        return []
    return [Seat(number, board, p.a.nick, p.b.nick if p.b else None) for board, p in enumerate(pairs, start=1)]


def with_withdrawals(
    seats: Iterable[Seat], withdrawn: Iterable[tuple[str, int] | tuple[str, int, int]]
) -> tuple[Seat, ...]:
    """The seats as they are played once players went home (``withdrawn``: nick and the first round they miss).

    From that round on, a game of theirs without a result becomes the opponent's bye (the
    same board), a game between two who left is dropped, and so is a bye of one who left
    in a round after the one they left in. A result already in stays, whatever happened
    after, and the bye of the round they leave in is such a result: its point is theirs.
    """
    # league: a withdrawal may have ended (nick, first missed, back), so each player's rounds away are spans
    spans = league.spans_of(
        [(w[0], w[1]) for w in withdrawn if len(w) == 2], [(w[0], w[1], w[2]) for w in withdrawn if len(w) == 3]
    )

    def left(nick: str | None, number: int) -> bool:
        return nick is not None and league.away(spans, nick_key(nick), number)

    played = []
    for seat in seats:
        if seat.b is None:  # a bye: a point already in for the round they leave in, dropped after it
            if not (left(seat.a, seat.round) and left(seat.a, seat.round - 1)):
                played.append(seat)
            continue
        if seat.result is not None or not (left(seat.a, seat.round) or left(seat.b, seat.round)):
            played.append(seat)
            continue
        stays = [nick for nick in (seat.a, seat.b) if nick is not None and not left(nick, seat.round)]
        if stays:
            played.append(Seat(seat.round, seat.board, stays[0], None))
    return tuple(played)


def board_pairing(event: Tournament, seat: Seat, sides: dict[str, Side], config: Config) -> Pairing:
    """A board's handicap, from ``sides`` (by nick key: the board's strengths now, as the replay will use them).

    The sides are in the seat's order; ``Pairing.white`` is the stronger one, as on tonight's pairs.
    """
    assert seat.b is not None
    if event.format == ACCELERATED:  # accel: the handicap of the two event levels before the round, not the magnets
        sides = accelerated.board_sides(event.players, event.seats, event.rounds, seat.round, (seat.a, seat.b))
    a, b = sides[nick_key(seat.a)], sides[nick_key(seat.b)]
    difference = abs(a.strength - b.strength)
    first, second = seeded((a, b))
    rules = config.size_rules[event.size]
    handicap = handicap_for(difference, rules)
    if not is_default(event.handicap_cap, event.handicap_less, event.even_top):
        # tiebreak: the event's handicap policy (kiosk.event_handicap): the handicap played, not the table's
        top = {nick_key(p.nick) for p in event.players[: event.even_top]}
        both_top = nick_key(seat.a) in top and nick_key(seat.b) in top
        handicap = played(handicap, rules, event.handicap_cap, event.handicap_less, both_top)
    return Pairing(event.size, (first, second), difference, handicap)


def current_sides(event: Tournament, magnets: Sequence[Magnet]) -> dict[str, Side]:
    """The players' sides (by nick key) on the event's size as the board has them now, which the replay will use;
    a player renamed or merged away since the start keeps the start's strength."""
    sides = {}
    for player in event.players:
        try:
            sides[nick_key(player.nick)] = side_of(magnets, player.nick, event.size)
        except HistoryError:
            sides[nick_key(player.nick)] = player
    return sides


class PlayedBoard(NamedTuple):
    """A board as the phone, the API and the wall show it: who takes White and Black (None: an even game, nigiri,
    or the bye) and its handicap (None for the bye)."""

    seat: Seat
    white: str | None
    black: str | None
    handicap: Handicap | None


def played_boards(
    event: Tournament,
    magnets: Sequence[Magnet],
    games: Mapping[tuple[int, int], GameResult],
    config: Config,
    seats: Iterable[Seat] | None = None,
) -> tuple[PlayedBoard, ...]:
    """THE one rule for the handicap a board shows (``seats``: the current round's unless given).

    A decided board as it was played: its history game in ``games`` (by round and board) has White and the
    handicap of that evening, and the magnets have moved since. Any other board (still on, or decided in an
    event that does not count, so without a game) has the handicap from the magnets now, which the replay will
    use (``board_pairing``).
    """
    sides = current_sides(event, magnets)
    if event.format == ACCELERATED:  # accel: its games are played at the levels' handicap, whatever the replay says
        games = {}
    boards = []
    for seat in event.round_seats(event.current) if seats is None else seats:
        if seat.b is None:
            boards.append(PlayedBoard(seat, None, None, None))
            continue
        game = games.get((seat.round, seat.board))
        if game is not None:
            black = None if game.white is None else next(n for n in game.players if n != game.white)
            boards.append(PlayedBoard(seat, game.white, black, game.handicap))
            continue
        pairing = board_pairing(event, seat, sides, config)
        white, black = (side.nick if side else None for side in (pairing.white, pairing.black))
        boards.append(PlayedBoard(seat, white, black, pairing.handicap))
    return tuple(boards)


def event_game(
    size: int, seat: Seat, outcome: str, by: object, at: datetime, now: datetime, counts: bool = True
) -> GamePlayed:
    """THE one place an event's result becomes a history game (checked as the game form's are).

    ``by`` is how it ended, as the game form offers it: "resignation", the margin in points
    (a number; other text is refused as the form's is), or "other" / None for on time or
    otherwise; a draw has none.
    """
    if seat.b is None or outcome not in OUTCOMES:
        raise HistoryError("bad-winner", nick=outcome)
    winner = {A_WINS: seat.a, B_WINS: seat.b, DRAW: None}[outcome]
    margin = None if winner is None or by == "other" else by
    # An event that does not count on the board keeps its games as kind "event": in the history, no magnet moves.
    return new_game(size, [seat.a, seat.b], winner, margin, at, now, kind="rated" if counts else "event")


# --- standings ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings: place (shared by equals), score and tie-breaks, and the games' tally."""

    place: int
    nick: str
    strength: int  # at the event's start, in quarters
    score: Fraction
    sos: Fraction
    sodos: Fraction
    wins: int
    draws: int
    losses: int
    byes: int
    withdrawn: bool = False  # went home mid-event (listed with what they scored)
    # tiebreak: the other criteria, and the values the order used (score, then the event's chain, in order)
    sosos: Fraction = Fraction(0)
    progress: Fraction = Fraction(0)
    values: tuple[Fraction, ...] = ()
    joined: int = 0  # league: a late starter's first round (0: there from the start)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


def standings(
    players: Sequence[Side], seats: Sequence[Seat], chain: Sequence[str] = TODAY, unique: bool = False
) -> tuple[Standing, ...]:
    """The standings: score, then the tie-breaks of ``chain`` (kiosk.tiebreak), highest first.

    Only games with a result count (a round being played counts what is in so far). Equal players
    share a place (the stronger listed first, which decides nothing), or with ``unique`` places go
    by strength at the start, then nickname.
    """
    tally = {nick_key(p.nick): [0, 0, 0, 0] for p in players}  # wins, draws, losses, byes
    now = reached(seats)
    for seat in seats:
        a = nick_key(seat.a)
        if seat.b is None:
            tally[a][3] += seat.round <= now
            continue
        if seat.result is None:
            continue
        b = nick_key(seat.b)
        if seat.result == DRAW:
            tally[a][1] += 1
            tally[b][1] += 1
        else:
            winner, loser = (a, b) if seat.result == A_WINS else (b, a)
            tally[winner][0] += 1
            tally[loser][2] += 1
    by_key = {nick_key(p.nick): p for p in players}
    lines = []
    for ranked in rank([(p.nick, p.strength) for p in players], seats, now, chain, unique):
        side, n = by_key[ranked.key], ranked.numbers
        wins, draws, losses, byes = tally[ranked.key]
        lines.append(
            Standing(
                ranked.place,
                side.nick,
                side.strength,
                n.score,
                n.sos,
                n.sodos,
                wins,
                draws,
                losses,
                byes,
                sosos=n.sosos,
                progress=n.progress,
                values=ranked.values,
            )
        )
    return tuple(lines)


def event_standings(event: Tournament) -> tuple[Standing, ...]:
    """The standings of an event: what the phone and the wall show (a player who went home is marked)."""
    table = standings(event.players, event.seats, event.tiebreaks, event.unique_places)
    if event.joined:  # league: a late starter is marked with the round they joined for
        table = tuple(replace(line, joined=event.joined_from(line.nick) or 0) for line in table)
    if not event.withdrawn:
        return table
    return tuple(replace(line, withdrawn=event.withdrawn_from(line.nick) is not None) for line in table)


def accelerated_standings(event: Tournament) -> tuple[accelerated.LevelStanding, ...]:
    """accel: an accelerated event's standings (level, FUS coefficient, wins), a player who went home marked."""
    return accelerated.level_standings(event.players, event.seats, event.rounds, (n for n, _r in event.withdrawn))


def points(value: Fraction) -> str:
    """A score as people write it: ``3``, ``2½``."""
    whole, half = divmod(value, 1)
    if half == 0:
        return str(int(whole))
    if half == Fraction(1, 2):
        return f"{int(whole)}½" if whole else "½"
    return f"{float(value):g}"


# --- exports --------------------------------------------------------------------------------------


def egd_grade(strength: int) -> str:
    """A strength as an EGD grade, by the board's conversion (docs/rules.md §1): ``10k``, ``2d``."""
    number, word = to_grade(strength).split()
    return f"{number}{'d' if word == 'dan' else 'k'}"


def _token(nick: str) -> str:
    """A nickname as one whitespace-free word (h9 columns are separated by blanks, and ``;`` starts a comment)."""
    return "_".join(nick.replace(";", " ").split()) or "_"


def to_h9(event: Tournament, config: Config, club: str = "Semd", country: str = "PL") -> str:
    """The event as an EGD tournament table (.h9): one line per player, in the standings' order.

    ``place name grade country club r1 r2 ...``: each round is ``<opponent's place><+|-|=>``
    and, for a handicap game, ``/w<h>`` or ``/b<h>`` (h = starting moves when 2 or more,
    else 0); an even game's colours (nigiri) are not known, so it has none. A bye is ``0+``
    (it scores a win), a game without a result yet ``0-``. The board keeps nicknames only:
    the organiser puts real names in before sending the file.
    """
    table = event_standings(event)
    place = {nick_key(s.nick): index for index, s in enumerate(table, start=1)}
    strengths = {nick_key(p.nick): p for p in event.players}
    by_player: dict[str, dict[int, str]] = {key: {} for key in place}
    shown = max((s.round for s in event.seats if s.result is not None), default=0)  # rounds not begun are left out
    for seat in event.seats:
        a = nick_key(seat.a)
        if seat.b is None:  # a bye, or a missed round's credit (league: ½ is a draw of no game, "0=")
            by_player[a][seat.round] = "0=" if seat.result == league.MISSED_HALF else "0+"
            continue
        b = nick_key(seat.b)
        if seat.result is None:
            by_player[a][seat.round] = by_player[b][seat.round] = "0-"
            continue
        sides = {a: strengths[a], b: strengths[b]}
        pairing = board_pairing(event, seat, sides, config)
        for me, other in ((a, b), (b, a)):
            won = "=" if seat.result == DRAW else ("+" if (seat.result == A_WINS) == (me == a) else "-")
            colour = ""
            if pairing.white is not None:
                stones = pairing.handicap.moves if pairing.handicap.moves >= 2 else 0
                colour = f"/{'w' if nick_key(pairing.white.nick) == me else 'b'}{stones}"
            by_player[me][seat.round] = f"{place[other]}{won}{colour}"
    lines = [
        f"; EV[{event.name or 'Club event'}]",
        f"; DT[{event.evening.isoformat()},{event.evening.isoformat()}]",
        f"; PC[{country}]",
        f"; CM[{event.size}x{event.size}, handicap games by the club's strength board; nicknames: put real names in]",
        ";",
    ]
    for index, line in enumerate(table, start=1):
        key = nick_key(line.nick)
        results = " ".join(by_player[key].get(r, "0-") for r in range(1, shown + 1))
        lines.append(f"{index} {_token(line.nick)} {egd_grade(strengths[key].strength)} {country} {club} {results}")
    return "\n".join(lines) + "\n"


_OPENGOTHA_RESULT = {
    A_WINS: "RESULT_WHITEWINS",
    B_WINS: "RESULT_BLACKWINS",
    DRAW: "RESULT_EQUAL",
    None: "RESULT_UNKNOWN",
}


def to_opengotha(event: Tournament, config: Config) -> str:
    """The event as an OpenGotha tournament file (XML; pairgoth imports it too).

    Players carry their nickname as the name and the board's grade as rank; each game its
    White and Black as the board's handicap has them (an even game: the seat's order), its
    handicap in starting moves (0 below 2) and its result.
    """
    # Long: one XML document (players, games, byes, the parameters) written element by element, as OpenGotha reads it.
    root = ElementTree.Element("Tournament", dataVersion="201")
    players = ElementTree.SubElement(root, "Players")
    keys: dict[str, str] = {}
    for side in event.players:
        key = _opengotha_key(side.nick, keys.values())
        keys[nick_key(side.nick)] = key
        grade = egd_grade(side.strength).upper()
        ElementTree.SubElement(
            players,
            "Player",
            name=side.nick,
            firstName="",
            rank=grade,
            grade=grade,
            country="",
            club="",
            rating=str(_rating(side.strength)),
            ratingOrigin="INI",
            registeringStatus="FIN",
            participating=_participating(event, side.nick),
            smmsCorrection="0",
            egfPin="",
            ffgLicence="",
            ffgLicenceStatus="",
            agaId="",
            agaExpirationDate="",
        )
    games = ElementTree.SubElement(root, "Games")
    byes = ElementTree.SubElement(root, "ByePlayer")
    strengths = {nick_key(p.nick): p for p in event.players}
    for seat in event.seats:
        if seat.b is None and league.is_credit(seat.result):
            continue  # league: a missed round is OpenGotha's absence (participating "0", its value below)
        if seat.b is None:
            ElementTree.SubElement(byes, "ByePlayer", player=keys[nick_key(seat.a)], roundNumber=str(seat.round))
            continue
        a, b = nick_key(seat.a), nick_key(seat.b)
        pairing = board_pairing(event, seat, {a: strengths[a], b: strengths[b]}, config)
        white_is_a = pairing.white is None or nick_key(pairing.white.nick) == a
        white, black = (a, b) if white_is_a else (b, a)
        result = seat.result
        if not white_is_a and result in (A_WINS, B_WINS):
            result = B_WINS if result == A_WINS else A_WINS
        ElementTree.SubElement(
            games,
            "Game",
            roundNumber=str(seat.round),
            tableNumber=str(seat.board),
            whitePlayer=keys[white],
            blackPlayer=keys[black],
            handicap=str(pairing.handicap.moves if not pairing.handicap.even and pairing.handicap.moves >= 2 else 0),
            knownColor="true" if pairing.white is not None else "false",
            result=_OPENGOTHA_RESULT[result],
        )
    parameters = ElementTree.SubElement(root, "TournamentParameterSet")
    general = ElementTree.SubElement(
        parameters,
        "GeneralParameterSet",
        name=event.name or "Club event",
        shortName=f"event-{event.id}",
        beginDate=event.evening.isoformat(),
        endDate=(event.evenings[-1][0] if event.evenings else event.evening).isoformat(),  # league: its last evening
        numberOfRounds=str(event.rounds),
        size=str(event.size),
        komi="0.5",
        location="",
        director="",
    )
    general.attrib.update(_absent_values(event))
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


def _participating(event: Tournament, nick: str) -> str:
    """OpenGotha's round-by-round presence: every round, but not those after a player went home (nor, league,
    a late starter's rounds before joining, a league's rounds a player was not there for, those away)."""
    rounds = max(event.rounds, 1)
    left = event.withdrawn_from(nick)
    if not (event.joined or event.returned or event.is_league):
        if left is None:
            return "1" * rounds
        return "1" * min(rounds, left - 1) + "0" * max(0, rounds - left + 1)
    key = nick_key(nick)
    there = {
        s.round for s in event.seats if not league.is_credit(s.result) and key in (nick_key(s.a), nick_key(s.b or ""))
    }
    gone = league.spans_of(event.withdrawn, event.returned)
    return "".join(
        "1" if number in there or (number > event.made and not league.away(gone, key, number)) else "0"
        for number in range(1, rounds + 1)
    )


def _absent_values(event: Tournament) -> dict[str, str]:
    """league: what OpenGotha scores a round a player is not there for (in half points: 0, 1 or 2), from the
    event's setting (a league's ``absent``, else the late starters'); nothing for an event without absences."""
    if not (event.joined or event.is_league):
        return {}
    value = {league.ZERO: "0", league.HALF: "1", league.BYE: "2"}[event.absent if event.is_league else event.late]
    return {"genMMS2ValueAbsent": value, "genNBW2ValueAbsent": value}


def _opengotha_key(nick: str, taken: Iterable[str]) -> str:
    """OpenGotha names a player by the upper-cased name and first name run together; kept unique."""
    base = "".join(nick.split()).upper() or "PLAYER"
    used = set(taken)
    key, number = base, 2
    while key in used:
        key, number = f"{base}{number}", number + 1
    return key


def _rating(strength: int) -> int:
    """An EGF-like rating for the grade: 2100 at 1 dan, 100 points a grade (OpenGotha wants a number)."""
    return 2100 + (strength // 4 - 50) * 100


# --- an event from the history ------------------------------------------------------------------------
# An event is no table of its own: its start, each Swiss round's pairing, its withdrawals, closes and reopens
# are history lines (kiosk.events, the tournament-* types), a board's result is the game tapped on it (a game
# line naming its event, round and board), and an owner's correction or a phone's undo is that game's Edit or
# Void. ``fold`` reads them back: events and standings are a pure function of the history, like the board.


@dataclass(frozen=True, slots=True)
class Folded:
    """One event as its history lines make it, with what the phone and the owner's forms need besides.

    ``games``: the history's game of each decided board (by round and board); ``how``: how it ended
    ('resignation', points, 'other'); ``fixes``: how many times a board's result was corrected, cleared or
    undone (the owner's forms carry it, so a stale one is refused); ``paired``: every board as it was paired,
    before anyone went home; ``taps``: the entry of each decided board's game (who tapped it: the store's).
    """

    tournament: Tournament
    games: Mapping[tuple[int, int], int]
    how: Mapping[tuple[int, int], str]
    fixes: Mapping[tuple[int, int], int]
    paired: tuple[Seat, ...]
    taps: Mapping[tuple[int, int], int]
    started: datetime
    corrected: frozenset[tuple[int, int]] = frozenset()  # boards whose tapped game the owner corrected since


class _Folding:
    """An event being folded: its lines so far."""

    def __init__(self, start: TournamentStarted) -> None:
        self.start = start
        self.seats: dict[tuple[int, int], Seat] = {
            (s.round, s.board): Seat(s.round, s.board, s.a, s.b) for s in start.seats
        }
        self.withdrawn: list[tuple[str, int]] = []
        self.closed = False
        self.live: dict[tuple[int, int], int] = {}  # board -> the game on it (a game id; < 0: a converted result)
        self.fixes: dict[tuple[int, int], int] = {}
        self.taps: dict[tuple[int, int], int] = {}
        self.corrected: set[tuple[int, int]] = set()
        # league: late starters, returns, a league's evenings, a delete, the phones' asks (kiosk/league.py)
        self.joined: list[TournamentJoined] = []
        self.returned: list[tuple[str, int, int]] = []
        self.evenings: list[tuple[date, int]] = [(start.evening, 1)]
        self.deleted = False
        self.asking: dict[str, str] = {}

    def fold_league(self, event: Event) -> str | None:
        """One of the league's lines (``kiosk.events.LEAGUE_EVENTS``); what is wrong with it, else None."""
        players = {nick_key(p.nick) for p in self.start.players} | {nick_key(j.nick) for j in self.joined}
        gone = {nick_key(n): number for n, number in self.withdrawn}
        match event:
            case TournamentJoined() if nick_key(event.nick) not in players:
                self.joined.append(event)
            case TournamentReturned() if nick_key(event.nick) in gone:
                self.withdrawn = [(n, r) for n, r in self.withdrawn if nick_key(n) != nick_key(event.nick)]
                self.returned.append((event.nick, gone[nick_key(event.nick)], event.round))
            case TournamentEvening() if not any(k[0] == event.round for k in self.seats):
                self.seats.update({(event.round, s.board): Seat(event.round, s.board, s.a, s.b) for s in event.seats})
                if event.evening != self.evenings[-1][0]:  # gone home for that evening only, not for the league
                    self.returned += [(n, r, event.round) for n, r in self.withdrawn]
                    self.withdrawn = []
                self.evenings.append((event.evening, event.round))
            case TournamentDeleted():
                self.deleted = True
            case TournamentAsked():
                self.asking[nick_key(event.nick)] = event.nick
                return None
            case TournamentDeclined():
                pass
            case _:
                return f"a {type(event).__name__} that does not fit event {self.start.tournament}"
        if isinstance(event, TournamentJoined | TournamentReturned | TournamentDeclined):
            self.asking.pop(nick_key(event.nick), None)
        return None


def fold(entries: Iterable[tuple[int, object]], problems: list[str] | None = None) -> dict[int, Folded]:
    """Every event of ``entries`` (history entries, entry order, as ``Store.tournament_entries`` gives them or the
    whole history), by number. Lines the fold cannot place (a tap for a board not paired or decided already, a
    second start, a round paired twice) are left out, as the replay leaves out a player line of a magnet that
    exists; ``problems`` collects them, naming the entry (``semedori check``)."""
    # Long: one match over the history's event kinds, each case a few lines on the same four tables (events, games,
    # boards, converted results) and the problems; split, each would take all five.
    said = problems if problems is not None else []
    folding: dict[int, _Folding] = {}
    games: dict[int, GamePlayed | None] = {}  # game id -> the game as corrected (None: voided)
    boards: dict[int, tuple[int, int, int]] = {}  # game id -> (event, round, board) it is the result of
    results: dict[int, tuple[str, str | None]] = {}  # converted results without a game: their own numbers
    for seq, event in entries:
        match event:
            case GamePlayed():
                if event.id is None:
                    continue
                games[event.id] = event
                where = event.tournament
                if where is not None and where.tournament in folding:
                    state = folding[where.tournament]
                    key = (where.round, where.board)
                    seat = state.seats.get(key)
                    if seat is not None and seat.b is not None and key not in state.live and not state.closed:
                        state.live[key] = event.id
                        state.taps[key] = seq
                        boards[event.id] = (where.tournament, *key)
                    else:
                        said.append(f"entry {seq}: game {event.id} is no open board of event {where.tournament}")
                elif where is not None:
                    said.append(f"entry {seq}: game {event.id} names event {where.tournament}, not started before it")
            case Void() | Edit():
                if event.game not in games:
                    continue
                games[event.game] = event.corrected if isinstance(event, Edit) else None
                if event.game in boards:
                    number, round_number, board = boards[event.game]
                    state = folding[number]
                    state.fixes[round_number, board] = state.fixes.get((round_number, board), 0) + 1
                    if isinstance(event, Void):
                        del boards[event.game]
                        state.live.pop((round_number, board), None)
                        state.taps.pop((round_number, board), None)
                        state.corrected.discard((round_number, board))
                    else:
                        state.corrected.add((round_number, board))
            case TournamentStarted():
                if event.tournament not in folding:
                    folding[event.tournament] = _Folding(event)
                else:
                    said.append(f"entry {seq}: event {event.tournament} started a second time")
            case TournamentRound():
                paired = folding.get(event.tournament)
                if paired is not None and not any(k[0] == event.round for k in paired.seats):
                    paired.seats.update(
                        {(event.round, s.board): Seat(event.round, s.board, s.a, s.b) for s in event.seats}
                    )
                else:
                    said.append(f"entry {seq}: round {event.round} of event {event.tournament} cannot be paired here")
            case TournamentWithdrawal():
                leaving = folding.get(event.tournament)
                if leaving is not None and all(nick_key(n) != nick_key(event.nick) for n, _r in leaving.withdrawn):
                    leaving.withdrawn.append((event.nick, event.round))
            case (
                TournamentJoined()
                | TournamentReturned()
                | TournamentEvening()
                | TournamentDeleted()
                | TournamentAsked()
                | TournamentDeclined()
            ):
                wrong = folding[event.tournament].fold_league(event) if event.tournament in folding else "no event"
                if wrong is not None:
                    said.append(f"entry {seq}: {wrong}")
            case TournamentClosed() | TournamentReopened():
                if event.tournament in folding:
                    folding[event.tournament].closed = isinstance(event, TournamentClosed)
            case TournamentLinked():
                linked = folding.get(event.tournament)
                where_linked = (event.round, event.board)
                if linked is None or where_linked not in linked.seats or where_linked in linked.live:
                    said.append(
                        f"entry {seq}: a link to board {where_linked} of event {event.tournament} is no open board"
                    )
                    continue
                if event.game is not None:
                    if games.get(event.game) is not None:
                        linked.live[where_linked] = event.game
                        linked.taps[where_linked] = seq
                        boards[event.game] = (event.tournament, *where_linked)
                elif event.result is not None:
                    converted = -1 - len(results)
                    results[converted] = (event.result, event.how)
                    linked.live[where_linked] = converted
    return {number: _folded(number, state, games, results) for number, state in folding.items() if not state.deleted}


def _folded(
    number: int,
    state: _Folding,
    games: Mapping[int, GamePlayed | None],
    results: Mapping[int, tuple[str, str | None]],
) -> Folded:
    # Long: the seats' results, then the Tournament's 28 fields written out one per line.
    start = state.start
    seats, ids, how = [], {}, {}
    for key in sorted(state.seats):
        seat = state.seats[key]
        game_id = state.live.get(key)
        outcome: str | None = None
        if game_id is not None and game_id < 0:
            outcome, said = results[game_id]
            if said is not None:
                how[key] = said
        elif game_id is not None and (game := games.get(game_id)) is not None:
            outcome = outcome_of(seat, game.winner)
            if outcome is not None:
                ids[key] = game_id
                if (said := how_of_margin(outcome, game.by)) is not None:
                    how[key] = said
        seats.append(seat._replace(result=outcome))
    withdrawn: tuple[tuple[str, int], ...] = tuple(state.withdrawn)
    players = tuple(Side(p.nick, p.strength, p.guest, p.occasional) for p in start.players) + tuple(
        Side(j.nick, j.strength, j.guest, j.occasional) for j in state.joined
    )
    away: tuple[tuple[str, int] | tuple[str, int, int], ...] = (*withdrawn, *state.returned)
    played = with_withdrawals(seats, away) if away else tuple(seats)
    joined = tuple((j.nick, j.round) for j in state.joined)
    if joined or start.per_evening:  # league: a late starter's missed rounds, a league's absent players
        played = (*played, *_credits(start, players, joined, away, played))
    tournament = Tournament(
        number,
        start.evening,
        start.size,
        start.format,
        start.rounds,
        start.counts,
        players,
        played,
        name=start.name,
        closed=state.closed,
        withdrawn=withdrawn,
        tiebreaks=TODAY if start.tiebreaks is None else start.tiebreaks,
        unique_places=start.unique_places,
        handicap_cap=start.handicap_cap,
        handicap_less=start.handicap_less,
        even_top=start.even_top,
        avoid=start.avoid,
        first_round=start.first_round,
        prize_classes=start.prize_classes,
        joined=joined,
        returned=tuple(state.returned),
        evenings=tuple(state.evenings),
        late=start.late,
        per_evening=start.per_evening,
        absent=start.absent,
        asking=tuple(state.asking.values()),
        pairing_cap=start.pairing_cap,  # accel
    )
    taps = {key: seq for key, seq in state.taps.items() if key in ids}
    corrected = frozenset(key for key in state.corrected if key in ids)
    return Folded(tournament, ids, how, dict(state.fixes), tuple(seats), taps, start.at, corrected)


def _credits(
    start: TournamentStarted,
    players: Sequence[Side],
    joined: Sequence[tuple[str, int]],
    away: Iterable[tuple[str, int] | tuple[str, int, int]],
    seats: Sequence[Seat],
) -> list[Seat]:
    """The missed rounds' credits of an event's players (``kiosk.league.credits``), as seats without an opponent."""
    seated: dict[int, set[str]] = {}
    boards: dict[int, int] = {}
    for seat in seats:
        seated.setdefault(seat.round, set()).update(nick_key(n) for n in (seat.a, seat.b) if n is not None)
        boards[seat.round] = max(boards.get(seat.round, 0), seat.board)
    listed = list(away)
    spans = league.spans_of(
        [(w[0], w[1]) for w in listed if len(w) == 2], [(w[0], w[1], w[2]) for w in listed if len(w) == 3]
    )
    first = {nick_key(n): number for n, number in joined}
    made = max(boards, default=0)
    found = league.credits(
        [p.nick for p in players], first, spans, seated, boards, made, start.late, start.absent, start.per_evening > 0
    )
    return [Seat(number, board, nick, None, result) for number, board, nick, result in found]


def outcome_of(seat: Seat, winner: str | None) -> str | None:
    """A board's outcome from its game's winner; None when the game names neither player of the seat (an owner's
    edit on the games page gave it other players: the board is open again)."""
    if winner is None:
        return DRAW
    if nick_key(winner) == nick_key(seat.a):
        return A_WINS
    if seat.b is not None and nick_key(winner) == nick_key(seat.b):
        return B_WINS
    return None


def how_of_margin(outcome: str | None, by: object) -> str | None:
    """How a board ended as the phone shows it (from its game's margin); a draw (and no result) has none."""
    if outcome is None or outcome == DRAW:
        return None
    if by == "resignation":
        return "resignation"
    return f"{float(by):g}" if isinstance(by, Fraction) else "other"  # a margin in points, else none given


def start_line(
    number: int,
    at: datetime,
    evening: date,
    size: int,
    sides: Sequence[Side],
    counts: bool,
    name: str,
    rounds: int | None,
    choices: Choices = NO_CHOICES,
    accelerated_rules: SizeRules | None = None,
) -> TournamentStarted:
    """THE one place an event's start becomes its history line: the format for the turnout, the players seeded
    (strongest first, their strengths now), and the rounds made at the start (all of a round-robin, a Swiss's first).
    ``choices``: the owner's tie-breaks, places, handicap policy and pairing constraints (checked here).
    """
    # Long: the start line's eleven parameters, then its checks in the order the line needs them.
    keys = [nick_key(s.nick) for s in sides]
    if len(set(keys)) != len(keys):
        raise HistoryError("named-twice", nick=next(s.nick for s in sides if keys.count(nick_key(s.nick)) > 1))
    event_format = format_for(len(sides))
    check_choices(choices, keys)
    planned = planned_rounds(event_format, len(sides), rounds)
    seats = first_rounds(event_format, sides, choices.avoid, choices.first_round, planned)
    cap = None
    if accelerated_rules is not None:  # accel: the owner chose an accelerated event: its first round by levels
        rules = accelerated_rules
        event_format, cap, counts = ACCELERATED, accelerated.default_cap(rules), False
        first = Tournament(number, evening, size, ACCELERATED, 0, False, tuple(seeded(sides)), (), pairing_cap=cap)
        first = replace(first, rounds=planned_rounds(ACCELERATED, len(sides), rounds))
        widest = accelerated.largest_difference(rules, cap)
        for side in first.players:  # a player nobody may ever meet would only sit out: the owner leaves them out
            if all(abs(side.strength - other.strength) > widest for other in first.players if other is not side):
                raise HistoryError("accelerated-too-far", nick=side.nick, value=cap)
        try:
            pairs = accelerated.pair_round(first.players, [], 1, first.rounds, rules, cap, sit_outs=False)
        except HistoryError as error:  # everyone has someone, yet not all at once: name the one left over
            raise HistoryError("accelerated-too-far", nick=first.players[-1].nick, value=cap) from error
        seats = [Seat(1, board, p.a.nick, p.b.nick if p.b else None) for board, p in enumerate(pairs, start=1)]
    return TournamentStarted(
        at,
        number,
        evening,
        size,
        event_format,
        planned_rounds(event_format, len(sides), rounds),
        counts,
        tuple(TournamentPlayer(s.nick, s.strength, s.guest, s.occasional) for s in seeded(sides)),
        tuple(TournamentSeat(s.round, s.board, s.a, s.b) for s in seats),
        " ".join(name.split())[:TOURNAMENT_NAME_LIMIT],
        tiebreaks=choices.tiebreaks,
        unique_places=choices.unique_places,
        handicap_cap=choices.handicap_cap,
        handicap_less=choices.handicap_less,
        even_top=choices.even_top,
        avoid=choices.avoid,
        first_round=choices.first_round,
        prize_classes=choices.prize_classes,
        pairing_cap=cap,
    )


def check_choices(choices: Choices, keys: Sequence[str]) -> None:
    """The owner's choices, checked before anything is written (the form says what is wrong, nothing is saved)."""
    if choices.tiebreaks is not None:
        chain_from(choices.tiebreaks)
    if choices.first_round not in (ADJACENT, FOLD):
        raise HistoryError("bad-first-round", value=choices.first_round)
    check_policy(choices.handicap_cap, choices.handicap_less, choices.even_top)
    check_classes(choices.prize_classes)
    players = set(keys)
    seen: set[frozenset[str]] = set()
    for a, b in choices.avoid:
        pair = frozenset((nick_key(a), nick_key(b)))
        if len(pair) != 2 or not pair <= players:
            raise HistoryError("bad-avoid", nick=a if nick_key(a) not in players else b)
        if pair in seen:
            raise HistoryError("bad-avoid", nick=a)
        seen.add(pair)


def round_line(tournament: Tournament, at: datetime, rules: SizeRules | None = None) -> TournamentRound | None:
    """The next Swiss round's pairing as its history line, once the round being played is done; None otherwise.

    ``rules``: the event's size's handicap rules (an accelerated event's pairing keeps under its cap by them).
    """
    seats = next_round(tournament, rules)
    if not seats:
        return None
    return TournamentRound(
        at, tournament.id, seats[0].round, tuple(TournamentSeat(s.round, s.board, s.a, s.b) for s in seats)
    )
