"""The club's evening: which evening a moment belongs to, and whether the club is open.

Tonight's check-in list belongs to one evening. An evening runs from ``[club]
evening_starts`` to ``evening_ends`` in club time (an end at or before the start is on
the next day: 17:00 to 03:00). A moment belongs to the first evening that has not ended
yet, so a player who checks in at 16:30 is on tonight's list, and once the evening has
ended the list is empty again. Times are naive club time, as events carry them; the
clock is the caller's.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from kiosk.config import Config


def window(evening: date, starts: time, ends: time) -> tuple[datetime, datetime]:
    """When the evening of ``evening`` (the date it starts on) starts and ends, in club time."""
    start = datetime.combine(evening, starts)
    end = datetime.combine(evening + timedelta(days=1) if ends <= starts else evening, ends)
    return start, end


def evening_of(now: datetime, starts: time, ends: time) -> date:
    """The evening that ``now`` (club time) belongs to: the first one that has not ended yet."""
    for evening in (now.date() - timedelta(days=1), now.date()):
        if now < window(evening, starts, ends)[1]:
            return evening
    return now.date() + timedelta(days=1)  # after today's end, when it ends before midnight


def is_open(now: datetime, starts: time, ends: time) -> bool:
    """True while the club's evening is on (the wall shows tonight's pairs then)."""
    start, end = window(evening_of(now, starts, ends), starts, ends)
    return start <= now < end


def list_opens(evening: date, starts: time, ends: time) -> datetime:
    """When an evening's list began: the end of the evening before (games since then are tonight's)."""
    return window(evening - timedelta(days=1), starts, ends)[1]


def club_evening(config: Config, now: datetime) -> tuple[date, datetime, datetime]:
    """The club's evening for ``now``: its date, start and end by the club's hours."""
    evening = evening_of(now, config.evening_starts, config.evening_ends)
    return (evening, *window(evening, config.evening_starts, config.evening_ends))


def tonights_games(config: Config, now: datetime) -> tuple[datetime, datetime]:
    """When tonight's games are played, [since, until): from the end of the evening before (an early game
    at 16:30 is tonight's) to the end of tonight's evening (a game after midnight still is)."""
    evening, _starts, ends = club_evening(config, now)
    return list_opens(evening, config.evening_starts, config.evening_ends), ends
