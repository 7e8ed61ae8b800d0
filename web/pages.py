"""The pages anyone can read: board, games, player, handicap calculator and tables, rules."""

from __future__ import annotations

from datetime import datetime, timedelta

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import gettext as _

from kiosk import records
from kiosk.bands import bands, grouped
from kiosk.board import Magnet, hanging
from kiosk.errors import SemedoriError
from kiosk.events import nick_key
from kiosk.handicap import SIZES, size_from, table
from kiosk.names import resolve
from kiosk.pairing import Pairing, for_entries
from kiosk.rules import club_now, week_of
from web import chart, words
from web.clock import kiosk_utc_now
from web.i18n import language
from web.store import get_store

bp = Blueprint("pages", __name__)


def chosen_size(magnets: tuple[Magnet, ...]) -> int:
    """The size asked for, else the size with the most magnets (13x13 in most clubs)."""
    raw = request.args.get("size", "")
    if raw.isdecimal() and int(raw) in SIZES:
        return int(raw)
    counts = {size: len(hanging(magnets, size)) for size in SIZES}
    return max(SIZES, key=lambda size: (counts[size], size == 13))


@bp.get("/")
def board() -> str:
    """The board: a tab per size, the strength columns with every magnet."""
    store = get_store()
    magnets = store.magnets()
    size = chosen_size(magnets)
    on_size = hanging(magnets, size)
    columns = grouped(on_size, bands(store.config.top))
    return render_template("board.html", size=size, columns=columns, count=len(on_size), club=store.config)


GAMES_PAGE = 30


@bp.get("/games")
def games() -> str:
    """Games, newest first, a page at a time; filtered by a player and a day when asked."""
    store = get_store()
    typed = request.args.get("player", "").strip()[:200]
    nick = resolve(typed, {m.nick for m in store.magnets()}) if typed else None
    day = None
    try:
        day = datetime.strptime(request.args.get("date", ""), "%Y-%m-%d") if request.args.get("date") else None
    except ValueError:
        day = None
    raw = request.args.get("before", "")
    before = int(raw) if raw.isdecimal() and len(raw) < 12 else None
    found = []
    if not typed or nick:
        found = store.games_page(
            limit=GAMES_PAGE + 1,
            before=before,
            nick=nick,
            since=day,
            until=day + timedelta(days=1) if day else None,
        )
    more = len(found) > GAMES_PAGE
    found = found[:GAMES_PAGE]
    query = {k: v for k, v in (("player", nick or ""), ("date", request.args.get("date", "") if day else "")) if v}
    older = url_for("pages.games", before=found[-1].id, **query) if more and found else None
    return render_template(
        "games.html",
        games=found,
        older=older,
        player=typed,
        nick=nick,
        date=query.get("date", ""),
        first=before is None,
    )


@bp.get("/players/<path:nick>")
def player(nick: str) -> str:
    """A player: magnets, strength over time, record per size, head-to-head, games, this week's free loss."""
    store = get_store()
    magnets = [m for m in store.magnets() if nick_key(m.nick) == nick_key(nick)]
    if not magnets:
        abort(404)
    name = magnets[0].nick
    magnets.sort(key=lambda m: (not m.primary, m.size))
    games = store.games_page(limit=100_000, nick=name)  # newest first; a busy player has a few thousand
    changes = store.changes_of(name)
    today = club_now(store.config, kiosk_utc_now())  # the phones' time while the Pi has no NTP
    week = week_of(today)
    charts = {
        m.size: chart.svg(
            chart.history(name, m.size, games[::-1], changes),
            _("Strength on %(size)dx%(size)d", size=m.size),
            until=today,
            fmt=words.strength,
        )
        for m in magnets
    }
    return render_template(
        "player.html",
        nick=name,
        magnets=magnets,
        charts=charts,
        games=games[:30],
        week=week,
        tallies=records.by_size(name, games),
        rivals=records.head_to_head(name, games),
        more_games=len(games) > 30,
    )


@bp.get("/handicap")
def handicap() -> str:
    """The calculator for two strengths or players, and each size's full table."""
    store = get_store()
    size = size_from(request.args.get("size")) or 13
    a, b = request.args.get("a", ""), request.args.get("b", "")
    pairing: Pairing | None = None
    problem = ""
    if a.strip() and b.strip():
        try:
            pairing = for_entries(store.magnets(), size, a, b, store.config)
        except SemedoriError as error:
            problem = words.player_message(error)
    tables = {size: table(store.config.size_rules[size])}  # one size at a time: a phone screen is short
    training_moves = store.config.size_rules[size].training_moves
    return render_template(
        "handicap.html",
        size=size,
        a=a,
        b=b,
        pairing=pairing,
        problem=problem,
        tables=tables,
        training_moves=training_moves,
    )


@bp.get("/rules")
def rules() -> str:
    """The rules in short, in the user's language."""
    config = get_store().config
    return render_template(f"rules_{language()}.html", rules=config.size_rules, guest_losses=config.guest_losses)
