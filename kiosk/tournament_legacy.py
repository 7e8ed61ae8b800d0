"""An older kiosk's event tables (``tournament`` and its four tables, before events were history) as history lines.

Those kiosks kept each evening's event in tables of their own beside the history. Opened by
this one, the store hands their rows here once (``Store._tournament_history``) and appends
the lines made: the start with its players and first rounds, each later Swiss round, each
decided board linked to the history's game it became (``tournament-link``), the withdrawals
and the close. Then the tables go: the history is the only truth. Pure: rows in, lines out.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any, Protocol

from kiosk.config import Config
from kiosk.events import (
    Event,
    TournamentClosed,
    TournamentLinked,
    TournamentPlayer,
    TournamentRound,
    TournamentSeat,
    TournamentStarted,
    TournamentWithdrawal,
    nick_key,
)
from kiosk.rules import club_now
from kiosk.tournament import SWISS


class Tables(Protocol):
    """The old tables, as the store reads them."""

    def rows(self, table: str) -> list[dict[str, Any]]: ...


def history_of_tables(tables: Tables, config: Config) -> list[Event]:
    """The lines that say what the old tables kept, event by event, in the order an event happens."""
    players: dict[int, list[dict[str, Any]]] = {}
    for row in tables.rows("tournament_player"):
        players.setdefault(row["tournament"], []).append(row)
    games: dict[int, list[dict[str, Any]]] = {}
    for row in tables.rows("tournament_game"):
        games.setdefault(row["tournament"], []).append(row)
    gone: dict[int, list[dict[str, Any]]] = {}
    for row in tables.rows("tournament_withdrawal"):
        gone.setdefault(row["tournament"], []).append(row)

    def local(utc: str | None, fallback: datetime) -> datetime:
        if not utc:
            return fallback
        moment = datetime.fromisoformat(utc)
        return club_now(config, moment if moment.tzinfo else moment.replace(tzinfo=UTC))

    lines: list[Event] = []
    for event in tables.rows("tournament"):
        number = event["id"]
        started = local(event["started"], datetime.combine(date.fromisoformat(event["evening"]), datetime.min.time()))
        lines += _one(event, players.get(number, []), games.get(number, []), gone.get(number, []), started, local)
    return lines


def _one(
    event: dict[str, Any],
    players: list[dict[str, Any]],
    boards: list[dict[str, Any]],
    gone: list[dict[str, Any]],
    started: datetime,
    local: Callable[[str | None, datetime], datetime],
) -> list[Event]:
    # Long: one older event's five tables into its history lines, in the order the lines must come.
    number = event["id"]
    seeded = sorted(players, key=lambda p: p["seed"])
    boards = sorted(boards, key=lambda b: (b["round"], b["board"]))
    first = [b for b in boards if event["format"] != SWISS or b["round"] == 1]
    lines: list[Event] = [
        TournamentStarted(
            started,
            number,
            date.fromisoformat(event["evening"]),
            event["size"],
            event["format"],
            event["rounds"],
            bool(event["counts"]),
            tuple(TournamentPlayer(p["nick"], p["strength"], bool(p["guest"]), bool(p["occasional"])) for p in seeded),
            tuple(TournamentSeat(b["round"], b["board"], b["a"], b["b"]) for b in first),
            event["name"],
            note="converted from an older kiosk's event tables",
        )
    ]
    later = sorted({b["round"] for b in boards} - {b["round"] for b in first})
    for round_number in later:
        seats = tuple(
            TournamentSeat(b["round"], b["board"], b["a"], b["b"]) for b in boards if b["round"] == round_number
        )
        lines.append(TournamentRound(started, number, round_number, seats))
    for board in boards:
        if board["result"] is None or board["b"] is None:
            continue
        at = _tapped(board, started)
        if board["game_id"] is not None:
            lines.append(TournamentLinked(at, number, board["round"], board["board"], game=board["game_id"]))
        else:
            lines.append(
                TournamentLinked(at, number, board["round"], board["board"], None, board["result"], board["how"])
            )
    nicks = {p["nick_key"]: p["nick"] for p in players}
    for row in sorted(gone, key=lambda r: r["at"]):
        nick = nicks.get(row["nick_key"])
        if nick is not None and nick_key(nick) == row["nick_key"]:
            lines.append(TournamentWithdrawal(local(row["at"], started), number, nick, row["round"]))
    if event["closed"]:
        lines.append(TournamentClosed(local(event["closed"], started), number))
    return lines


def _tapped(board: dict[str, Any], started: datetime) -> datetime:
    """When a board's result was entered (club time, as the old table kept it), else the event's start."""
    try:
        return datetime.fromisoformat(board["at"]) if board["at"] else started
    except ValueError:
        return started
