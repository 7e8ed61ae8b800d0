"""The pages anyone can read: board, games, player, handicap calculator and tables, rules."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from flask_babel import gettext as _

from kiosk.board import Magnet
from kiosk.errors import SemedoriError
from kiosk.events import nick_key
from kiosk.handicap import SIZES, table
from kiosk.pairing import Pairing, for_entries
from kiosk.recording import club_now
from kiosk.rules import week_of
from web import chart
from web.i18n import language, message
from web.recording import kiosk_utc_now
from web.store import get_store

bp = Blueprint("pages", __name__)


def chosen_size(magnets: tuple[Magnet, ...]) -> int:
    """The size asked for, else the size with the most magnets (13x13 in most clubs)."""
    raw = request.args.get("size", "")
    if raw.isdecimal() and int(raw) in SIZES:
        return int(raw)
    counts = {size: sum(1 for m in magnets if m.size == size and not m.retired) for size in SIZES}
    return max(SIZES, key=lambda size: (counts[size], size == 13))


@bp.get("/")
def board() -> str:
    """The board: a tab per size, the strength columns with every magnet."""
    from display.columns import bands, grouped  # the wall's columns; here, so the app starts without Pillow

    store = get_store()
    magnets = store.magnets()
    size = chosen_size(magnets)
    on_size = tuple(m for m in magnets if m.size == size and not m.retired)
    columns = grouped(on_size, bands(store.config.top))
    return render_template("board.html", size=size, columns=columns, count=len(on_size), club=store.config)


@bp.get("/games")
def games() -> str:
    """The recent games, newest first, with handicap and moves."""
    return render_template("games.html", games=get_store().recent_games(limit=50))


@bp.get("/players/<path:nick>")
def player(nick: str) -> str:
    """A player: magnets, strength over time, games, and this week's free loss."""
    store = get_store()
    magnets = [m for m in store.magnets() if nick_key(m.nick) == nick_key(nick)]
    if not magnets:
        abort(404)
    name = magnets[0].nick
    magnets.sort(key=lambda m: (not m.primary, m.size))
    games = store.recent_games(limit=1000, nick=name)
    changes = store.changes_of(name)
    week = week_of(club_now(store.config, kiosk_utc_now()))  # the phones' week while the Pi has no NTP
    charts = {
        m.size: chart.svg(
            chart.history(name, m.size, games[::-1], changes), _("Strength on %(size)dx%(size)d", size=m.size)
        )
        for m in magnets
    }
    return render_template("player.html", nick=name, magnets=magnets, charts=charts, games=games[:30], week=week)


@bp.get("/handicap")
def handicap() -> str:
    """The calculator for two strengths or players, and each size's full table."""
    store = get_store()
    size = int(request.args["size"]) if request.args.get("size", "") in ("9", "13", "19") else 13
    a, b = request.args.get("a", ""), request.args.get("b", "")
    pairing: Pairing | None = None
    problem = ""
    if a.strip() and b.strip():
        try:
            pairing = for_entries(store.magnets(), size, a, b, store.config)
        except SemedoriError as error:
            problem = message(error)
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
