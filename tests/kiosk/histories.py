"""Helpers for the kiosk tests: history lines as docs/rules.md §7 writes them, and a
Hypothesis strategy that generates valid histories."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from hypothesis import strategies as st

from kiosk.board import Board, Magnet
from kiosk.config import Config
from kiosk.events import GAME_KINDS, META_EVENTS, RATED, Event, parse_event
from kiosk.replay import replay
from kiosk.scale import as_number, fields

# A Monday evening: 2026-11-02 is a Monday, the club's week runs Monday to Sunday.
MONDAY = datetime(2026, 11, 2, 19, 0)


def at(day: int = 0, minute: int = 0) -> str:
    """A club time ``day`` days and ``minute`` minutes after the Monday evening."""
    return (MONDAY + timedelta(days=day, minutes=minute)).strftime("%Y-%m-%dT%H:%M")


def player(
    nick: str, size: int = 13, status: str = "member", strength: float | None = 0, when: str | None = None, **extra: Any
) -> Event:
    """A player line (docs/rules.md §7)."""
    line: dict[str, Any] = {"type": "player", "at": when or at(), "nick": nick, "size": size, "status": status}
    if strength is not None:
        line["strength"] = strength
    line.update(extra)
    return parse_event(line)


def game(
    size: int, a: str, b: str, winner: str | None, by: Any = None, when: str | None = None, kind: str = RATED
) -> Event:
    """A game line (docs/rules.md §7); ``kind`` for a game that is not rated (§4)."""
    raw = {"type": "game", "at": when or at(0, 60), "size": size, "players": [a, b], "winner": winner, "by": by}
    if kind != RATED:
        raw["kind"] = kind
    return parse_event(raw)


def line(type_: str, when: str, **fields_: Any) -> Event:
    """Any history line; ``from_`` stands for the ``from`` key."""
    raw = {"type": type_, "at": when}
    raw.update({("from" if k == "from_" else k): v for k, v in fields_.items()})
    return parse_event(raw)


def board_of(*events: Event, config: Config | None = None) -> Board:
    """The board a history (in entry order) produces."""
    return replay(list(events), config)


def strength(board: Board, nick: str, size: int) -> int | float:
    """A magnet's strength as the board shows it (27, 33.5)."""
    magnet = board.magnet(nick, size)
    assert magnet is not None, f"{nick} has no magnet on {size}x{size}"
    return as_number(magnet.strength)


def magnet(board: Board, nick: str, size: int) -> Magnet:
    """A magnet of the board, which must exist."""
    found = board.magnet(nick, size)
    assert found is not None, f"{nick} has no magnet on {size}x{size}"
    return found


# --- a strategy for valid histories ------------------------------------------------------

NICKS = ("Ala", "Bianka", "Czarek", "Dorota", "Edek", "Żaneta")
SIZES = (9, 13, 19)
FIELD_NUMBERS = [as_number(q) for q in fields()]


GHOST = "Duplikat"  # a second record of someone: never plays, may be merged away


def is_meta(event: Event) -> bool:
    """True for the events that rewrite the past: merges, voids, edits, renames."""
    return isinstance(event, META_EVENTS)


@st.composite
def histories(draw: st.DrawFn, distinct_times: bool = False, max_actions: int = 25, meta: bool = False) -> list[Event]:
    """A valid history in entry order: players first, then games, corrections and shifts.

    Games have no draws (whether a draw is allowed depends on the handicap of the board
    at that moment); every other choice is free. With ``distinct_times`` no two events
    share a minute and time order is entry order. With ``meta`` the history also has
    retirements, primary magnets, voids, edits, renames, a merge and an unmerge; those
    of them that rewrite the past stay valid when moved to the end of the entry order.
    """
    nicks = draw(st.lists(st.sampled_from(NICKS), min_size=2, max_size=5, unique=True))
    clock = MONDAY
    minute_steps = st.integers(min_value=1, max_value=4 * 24 * 60)
    events: list[Event] = []
    magnets: dict[str, list[int]] = {}

    def tick() -> str:
        nonlocal clock
        step = draw(minute_steps if distinct_times else st.sampled_from([0, 1, 30, 60 * 24, 60 * 24 * 3]))
        clock += timedelta(minutes=step)
        return clock.strftime("%Y-%m-%dT%H:%M")

    for nick in [*nicks, GHOST] if meta else nicks:
        sizes = draw(st.lists(st.sampled_from(SIZES), min_size=1, max_size=2, unique=True))
        magnets[nick] = sizes
        for size in sizes:
            status = draw(st.sampled_from(["guest", "member"]))
            start: dict[str, Any] = {"strength": draw(st.sampled_from(FIELD_NUMBERS))}
            if status == "guest":
                start = draw(st.sampled_from([{"strength": 0}, start, {"kyu": draw(st.integers(1, 50))}]))
            events.append(line("player", tick(), nick=nick, size=size, status=status, **start))
    first_action = clock

    kinds = ["game"] * 6 + ["correction", "shift"]
    if meta:
        kinds += ["retire", "restore", "primary", "void", "edit", "rename", "merge", "unmerge"]
    games = 0
    voided: set[int] = set()
    merged = unmerged = False
    renames = 0
    for action in draw(st.lists(st.sampled_from(kinds), max_size=max_actions)):
        when = tick()
        nick = draw(st.sampled_from(nicks))
        if action in ("game", "edit"):
            a, b = draw(st.lists(st.sampled_from(nicks), min_size=2, max_size=2, unique=True))
            # Mostly on a size one of them has a magnet on; sometimes an occasional size.
            size = draw(st.sampled_from([*magnets[a], *magnets[b], *SIZES]))
            winner = draw(st.sampled_from([a, b]))
            by = draw(st.sampled_from([None, "resignation", 0.5, 7, 15, 29.5, 30, 60, 61]))
            # Mostly rated; now and then a game that moves no magnet (docs/rules.md §4).
            kind = draw(st.sampled_from([RATED] * len(GAME_KINDS) + list(GAME_KINDS[1:])))
            kinds_field = {} if kind == RATED else {"kind": kind}
            if action == "game":
                games += 1
                events.append(game(size, a, b, winner, by, when, kind))
            elif games and (number := draw(st.integers(1, games))) not in voided:
                played = first_action + (clock - first_action) * draw(st.floats(0, 1))
                events.append(
                    line(
                        "edit",
                        when,
                        game=number,
                        played=played.strftime("%Y-%m-%dT%H:%M"),
                        size=size,
                        players=[a, b],
                        winner=winner,
                        by=by,
                        **kinds_field,
                    )
                )
        elif action == "correction":
            size = draw(st.sampled_from(magnets[nick]))
            change: dict[str, Any] = draw(
                st.sampled_from(
                    [
                        {"strength": draw(st.sampled_from(FIELD_NUMBERS))},
                        {"status": draw(st.sampled_from(["guest", "member"]))},
                        {"strength": draw(st.sampled_from(FIELD_NUMBERS)), "status": "member"},
                    ]
                )
            )
            events.append(line("correction", when, nick=nick, size=size, **change))
        elif action == "shift":
            amount = draw(st.integers(-60, 60).filter(bool)) / 4
            size = draw(st.sampled_from([None, *SIZES]))
            group = draw(st.none() | st.lists(st.sampled_from(nicks), min_size=1, max_size=3, unique=True))
            events.append(line("shift", when, amount=amount, size=size, nicks=group))
        elif action in ("retire", "restore", "primary"):
            events.append(line(action, when, nick=nick, size=draw(st.sampled_from(magnets[nick]))))
        elif action == "void" and games and (number := draw(st.integers(1, games))) not in voided:
            voided.add(number)
            events.append(line("void", when, game=number))
        elif action == "rename":
            # Old names keep working in the history, so later lines may still use them.
            # While merged, often by the duplicate's name (it stands for the kept player).
            old = draw(st.sampled_from([*nicks, GHOST] + [GHOST] * len(nicks) * (merged and not unmerged)))
            renames += 1  # each new name is new: a name given before still stands for someone
            events.append(line("rename", when, from_=old, to=f"{old} {renames}"))
        elif action == "merge" and not merged:
            merged, kept = True, nick
            events.append(line("merge", when, from_=GHOST, into=kept))
        elif action == "unmerge" and merged and not unmerged:
            unmerged = True
            events.append(line("unmerge", when, from_=GHOST, into=kept))
    return events
