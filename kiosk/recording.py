"""What a player typed on a phone, checked and turned into a history event.

The web form and the JSON API both come through here, so a game is checked the same
way wherever it was entered. "Now" is passed in: the core never reads the clock.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from kiosk.board import GameResult, Magnet
from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.events import GUEST, RATED, GamePlayed, PlayerAdded, clean_nick, format_at, nick_key, parse_event
from kiosk.pairing import for_players

# A phone's clock and the club clock may differ a little; a game "played" later than
# this is a typo in the date, not a late entry.
FUTURE_GRACE = timedelta(minutes=15)


def same_game(first: GameResult, game: GamePlayed, with_time: bool) -> bool:
    """True when a repeated idempotency key brings the game it first brought.

    A key sent again with another game is not a retry (the IETF idempotency-key draft: 422):
    size, players, winner, margin and kind must match, and the time too when the client sent
    one (without it each try is dated when it arrives).
    """
    players = tuple(nick_key(n) for n in first.players) == tuple(nick_key(n) for n in game.players)
    winner = nick_key(first.winner or "") == nick_key(game.winner or "")
    same = players and winner and (first.size, first.by, first.kind) == (game.size, game.by, game.kind)
    return same and (not with_time or first.at == game.at)


def check_not_future(at: datetime, now: datetime) -> None:
    """Refuse a time that lies clearly in the future, naming the kiosk's clock (it may be the one that is wrong)."""
    if at > now + FUTURE_GRACE:
        raise HistoryError("future-at", value=format_at(at).replace("T", " "), now=format_at(now).replace("T", " "))


def check_not_too_old(at: datetime, now: datetime, days_back: int) -> None:
    """Refuse a game dated more than ``days_back`` days before today (whole days: the first day counts whole)."""
    if at.date() < (now - timedelta(days=days_back)).date():
        raise HistoryError("too-old", value=format_at(at).replace("T", " "), days=days_back)


def new_game(
    size: Any,
    players: Any,
    winner: Any,
    by: Any,
    at: datetime | str | None,
    now: datetime,
    days_back: int | None = None,
    kind: Any = RATED,
) -> GamePlayed:
    """A game from what was entered; ``HistoryError`` says what is wrong with it.

    ``days_back``: how far back a phone or API client may date it (None: the owner, any date).
    ``kind``: one of GAME_KINDS; a game that is not rated moves no magnet (docs/rules.md §4).
    """
    played = now if at is None else at
    line = {
        "type": "game",
        "at": format_at(played) if isinstance(played, datetime) else played,
        "size": size,
        "players": players,
        "winner": winner,
        "by": by,
        "kind": kind,
    }
    game = parse_event(line)
    assert isinstance(game, GamePlayed)
    check_not_future(game.at, now)
    if days_back is not None:
        check_not_too_old(game.at, now, days_back)
    return game


def new_guest(
    nick: Any, size: Any, at: datetime, magnets: Sequence[Magnet], kyu: Any = None, dan: Any = None
) -> PlayerAdded:
    """A new guest at 0 or from a declared grade; a nickname already on the board is refused."""
    line: dict[str, Any] = {"type": "player", "at": format_at(at), "nick": nick, "size": size, "status": GUEST}
    if kyu is not None:
        line["kyu"] = kyu
    if dan is not None:
        line["dan"] = dan
    event = parse_event(line)
    assert isinstance(event, PlayerAdded)
    check_nick_free(event.nick, magnets)
    return event


def new_member(nick: Any, size: Any, strength: Any, at: datetime, magnets: Sequence[Magnet]) -> PlayerAdded:
    """A member the owner hangs at any field (moving a paper board over)."""
    line = {"type": "player", "at": format_at(at), "nick": nick, "size": size, "status": "member", "strength": strength}
    event = parse_event(line)
    assert isinstance(event, PlayerAdded)
    check_nick_free(event.nick, magnets)
    return event


def check_nick_free(nick: str, magnets: Sequence[Magnet]) -> None:
    """Refuse a nickname that a player on the board already has (the store would ignore the line)."""
    key = nick_key(clean_nick(nick))
    if any(nick_key(m.nick) == key for m in magnets):
        raise HistoryError("nick-taken", nick=nick)


# --- which size a game is on (the size follows the players) ------------------------------


def sizes_of(magnets: Sequence[Magnet], nick: str) -> set[int]:
    """The sizes on which a player has a magnet (an occasional size is not one of them)."""
    key = _loose_key(nick)
    return {m.size for m in magnets if nick_key(m.nick) == key}


def _loose_key(nick: str) -> str:
    """A typed name's key, without refusing odd text (a form being filled in is no history line)."""
    return nick_key(unicodedata.normalize("NFC", " ".join(nick.split())))


def _primary_sizes(magnets: Sequence[Magnet], nicks: Sequence[str]) -> list[int]:
    keys = {_loose_key(n) for n in nicks}
    return [m.size for m in magnets if m.primary and nick_key(m.nick) in keys]


def size_for(magnets: Sequence[Magnet], a: str, b: str, current: int | None) -> int | None:
    """The size two players' game is on: the size they share a magnet on.

    The current choice stays when both have a magnet there (the phone's remembered size,
    or one picked by hand). Otherwise a size both have, else a size one of them has, so
    that somebody's magnet moves; among several, the players' primary sizes first, then
    the smallest board. None when neither player is known.
    """
    mine, theirs = sizes_of(magnets, a), sizes_of(magnets, b)
    candidates = (mine & theirs) or (mine | theirs)
    if not candidates:
        return current
    if current in candidates:
        return current
    primary = _primary_sizes(magnets, (a, b))
    return min(candidates, key=lambda size: (-primary.count(size), size))


def nobody_moves(magnets: Sequence[Magnet], size: int, a: str, b: str) -> bool:
    """True when neither player has a magnet on ``size``: the game would move no magnet."""
    return size not in sizes_of(magnets, a) | sizes_of(magnets, b)


def check_margin(magnets: Sequence[Magnet], game: GamePlayed, config: Config) -> None:
    """Refuse a whole-number margin in an even game: with komi 6.5 a counted result ends in a half.

    The history file does not check this (docs/rules.md §7); the phone does, where a typo is caught.
    """
    by = game.by
    if game.winner is None or not isinstance(by, Fraction) or by.denominator != 1:
        return
    try:
        pairing = for_players(magnets, game.size, *game.players, config)
    except HistoryError:
        return  # an unknown player is said by the store, with the rest of the game
    if pairing.handicap.even:
        raise HistoryError(
            "even-margin", value=str(by), lower=_points(by - Fraction(1, 2)), upper=_points(by + Fraction(1, 2))
        )


def _points(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):g}"
