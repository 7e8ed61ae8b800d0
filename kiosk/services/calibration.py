"""Matches with other clubs: writing a match file, importing the other club's (kiosk/calibration.py).

Importing keeps the checked file beside the history and changes nothing of the history: the
suggested shift is the owner's to preview and save, on the shift page, like any shift.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from datetime import timedelta

from kiosk.calibration import (
    Match,
    MatchError,
    MatchGame,
    Offset,
    _game,
    offset,
    read_match,
    size_rules_text,
    write_match,
)
from kiosk.errors import HistoryError
from kiosk.events import nick_key
from kiosk.store import Store


def checksum_of(text: str) -> str:
    """The checksum the file carries (the content's), or the text's own when it has none."""
    try:
        raw = json.loads(text)
        if isinstance(raw, dict) and isinstance(raw.get("checksum"), str):
            return str(raw["checksum"])
    except ValueError:
        pass
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def export_match(store: Store, sheet: Iterable[dict[str, object]], other_name: str, code: str) -> str:
    """The match file of the games on ``sheet`` (our players ``home``, theirs ``away`` with their numbers).

    Our players' strengths are their magnets on the game's size at the end of the day before the match
    (a match's games are occasional ones and move no magnet), unless the sheet gives them.
    """
    lines = list(sheet)
    games: list[MatchGame] = []
    boards: dict[object, dict[tuple[str, int], int]] = {}
    for number, line in enumerate(lines, start=1):
        line = dict(line)
        if "home_strength" not in line:
            day = str(line.get("at", ""))[:10]
            if day not in boards:
                try:
                    from datetime import date

                    magnets, _ = store.board_at(date.fromisoformat(day) - timedelta(days=1))
                except ValueError:
                    magnets = ()
                boards[day] = {(nick_key(m.nick), m.size): m.strength for m in magnets}
            home, size = line.get("home"), line.get("size")
            found = boards[day].get((nick_key(home), size)) if isinstance(home, str) and isinstance(size, int) else None
            if found is None:
                raise MatchError("match-bad-game", number=number, detail=HistoryError("unknown-player", nick=home))
            line["home_strength"] = found / 4
        games.append(_game(number, line))
    if not games:
        raise MatchError("match-empty")
    config = store.config
    rules = {str(size): size_rules_text(config.size_rules[size]) for size in sorted({g.size for g in games})}
    name = other_name.strip()[:80]
    match = Match(store.club_id(), config.club_name, known_id(store, name), name, rules, tuple(games))
    text = write_match(match, code)
    checksum = checksum_of(text)
    if store.match_imported_at(checksum) is None:
        store.keep_match(checksum, match.club_id, match.club_name, True, text)
    return text


def import_match(store: Store, text: str, code: str) -> tuple[Match, list[Offset]]:
    """Check the other club's match file whole, keep it, and say the offset per size; MatchError changes nothing."""
    match = read_match(text, code, store.club_id(), store.config)
    checksum = checksum_of(text)
    earlier = store.match_imported_at(checksum)
    if earlier is not None:
        raise MatchError("match-twice", at=earlier[:16].replace("T", " "))
    offsets = [
        offset(match.games, size, store.config.size_rules[size], ours_home=False)
        for size in sorted({g.size for g in match.games})
    ]
    store.keep_match(checksum, match.club_id, match.club_name, False, text)
    return match, offsets


def kept(store: Store) -> list[tuple[Match, bool]]:
    """Every match kept, read again (the seal was checked when it was kept), with whether this club wrote it."""
    result = []
    for text, ours_home in store.kept_matches():
        raw = json.loads(text)
        games = tuple(_game(n, line) for n, line in enumerate(raw["games"], start=1))
        club, other = raw["club"], raw["other"]
        match = Match(str(club["id"]), str(club["name"]), str(other["id"]), str(other["name"]), raw["rules"], games)
        result.append((match, ours_home))
    return result


def known_id(store: Store, name: str) -> str:
    """The id of a club met before under this name (from a file it wrote), "" when none."""
    for match, ours_home in kept(store):
        if not ours_home and match.club_name.strip().casefold() == name.strip().casefold():
            return match.club_id
    return ""
