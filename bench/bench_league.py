"""Benchmark of a league across club evenings: 40 players, 6 evenings of 2 rounds, on a real SQLite file.

A league starts on a first evening with the 32 of the club's 40 checked in; on the second evening
the other 8 and 2 newcomers join as late starters (½ a point for each of the 2 rounds missed); on
each evening a different 28 to 34 of the 40 are there (the rest absent, ½ a point a round by the
setting); one player goes home and comes back. Every board
is tapped through the use case, as a phone does, and the next round of an evening pairs itself in
the tap that completes a round. Measured, CPU milliseconds of this process (the machine is
shared), median and worst:

* the fold of the whole league from its history lines and its standings (what every page view
  of the league costs: the phone after each tap, the wall's refresh), after the last round;
* pairing a round among 40 (``kiosk.tournament.swiss_round`` after eleven rounds of results);
* a tap that completes a round and pairs the next (the whole write, one transaction, fsync included).

Figures to compare, not a timed test.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.events import parse_event
from kiosk.pairing import side_of
from kiosk.services import league as leagues
from kiosk.services import tournaments as events
from kiosk.store import Store
from kiosk.tournament import A_WINS, B_WINS, event_standings, fold, swiss_round

PLAYERS = 40
EVENINGS = 6
PER_EVENING = 2
RUNS = 15
FIRST = date(2026, 9, 7)


def tap_round(store: Store, event_id: int, at: datetime, chance: random.Random) -> float:
    """Tap every open board of the round on; the CPU ms of the last tap (it completes the round)."""
    event = events.get(store, event_id)
    assert event is not None
    open_boards = [s for s in event.round_seats(event.current) if s.b is not None and s.result is None]
    last = 0.0
    for index, seat in enumerate(open_boards):
        start = time.process_time()
        events.record_result(store, event_id, seat.round, seat.board, chance.choice((A_WINS, B_WINS)), None, at)
        if index == len(open_boards) - 1:
            last = (time.process_time() - start) * 1000
    return last


def league_of(store: Store, chance: random.Random) -> tuple[int, list[float]]:
    nicks = [f"gracz-{i:02d}" for i in range(PLAYERS + 2)]
    for index, nick in enumerate(nicks):
        line = {"type": "player", "at": "2026-09-01T18:00", "nick": nick, "size": 13, "status": "member"}
        store.record(parse_event({**line, "strength": 4 + (index * 7) % 44}))
    here = chance.sample(nicks[:PLAYERS], 32)
    for nick in here:
        store.check_in(FIRST, nick)
    sides = [side_of(store.magnets(), nick, 13) for nick in here]  # the start's league: who is there
    at = datetime(2026, 9, 7, 18, 30)
    event = leagues.start_league(
        store, FIRST, 13, sides, True, "Liga", EVENINGS * PER_EVENING, PER_EVENING, absent="half", now=at
    )
    taps = []
    for evening in range(EVENINGS):
        day = FIRST + timedelta(days=7 * evening)
        at = datetime.combine(day, datetime.min.time()) + timedelta(hours=18, minutes=30)
        if evening:
            for nick in chance.sample(nicks[:PLAYERS], chance.randint(28, 34)):
                store.check_in(day, nick)
            if evening == 1:  # the 8 not there on the first evening and 2 newcomers join, 2 rounds missed of 12
                for nick in [n for n in nicks if n not in here]:
                    store.check_in(day, nick)
                    leagues.join(store, event.id, nick, at)
            leagues.pair_evening(store, event.id, day, at)
        for number in range(PER_EVENING):
            if evening == 2 and number == 0:
                events.withdraw(store, event.id, nicks[3], at)
            taps.append(tap_round(store, event.id, at + timedelta(minutes=50 * (number + 1)), chance))
            if evening == 2 and number == 0:
                leagues.come_back(store, event.id, nicks[3], at)
    return event.id, taps


def main() -> int:
    chance = random.Random(25)
    with tempfile.TemporaryDirectory() as folder, Store.open(Path(folder)) as store:
        event_id, taps = league_of(store, chance)
        event = events.get(store, event_id)
        assert event is not None
        print(
            f"a league of {len(event.players)} players ({len(event.joined)} of them late starters),"
            f" {len(event.evenings)} evenings of {PER_EVENING} rounds, {event.made} rounds paired,"
            f" {sum(s.b is not None for s in event.seats)} games"
        )
        entries = store.tournament_entries(event_id)
        folds, pairs = [], []
        for _ in range(RUNS):
            start = time.process_time()
            folded = fold(store.tournament_entries(event_id))[event_id].tournament
            event_standings(folded)
            folds.append((time.process_time() - start) * 1000)
            start = time.process_time()
            swiss_round(folded.players, folded.seats, folded.made + 1)
            pairs.append((time.process_time() - start) * 1000)
        print(f"  {len(entries)} history lines of the league")
        for name, times in (
            ("fold from the store + standings", folds),
            ("pair a round among all 42 (after 12 rounds)", pairs),
            ("a tap that completes a round (whole write)", taps),
        ):
            print(f"  {name:44} median {statistics.median(times):7.1f} ms, worst {max(times):7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
