"""The pages anyone can read: board, games, player, handicap calculator and tables, rules."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from kiosk import records
from kiosk.awards import month_of, previous_month
from kiosk.bands import bands, grouped
from kiosk.board import GameResult, Magnet
from kiosk.errors import SemedoriError
from kiosk.evening import club_evening
from kiosk.events import nick_key
from kiosk.handicap import SIZES, size_from, table
from kiosk.neighbours import WALL_GAMES, arrows, near
from kiosk.pairing import Pairing, for_entries
from kiosk.rules import club_now, shown_week, week_of
from kiosk.services import games as recording
from kiosk.services import league as leagues
from kiosk.sleepers import hanging, latest_activity, resting_since
from kiosk.tournament import points
from web import chart, me, problems, public, words
from web.auth import is_owner
from web.clock import kiosk_utc_now
from web.clock import now as kiosk_now
from web.forms import OwnerForm
from web.i18n import language
from web.request_store import get_store

bp = Blueprint("pages", __name__)


def chosen_size(magnets: tuple[Magnet, ...], mine: str | None = None) -> int:
    """The size asked for, else this phone's player's main magnet's, else the size with the most magnets (13x13)."""
    raw = request.args.get("size", "")
    if raw.isdecimal() and int(raw) in SIZES:
        return int(raw)
    own = sorted(
        (m for m in magnets if mine is not None and nick_key(m.nick) == nick_key(mine)), key=lambda m: not m.primary
    )
    if own:
        return own[0].size
    counts = {size: sum(1 for m in magnets if m.size == size) for size in SIZES}
    return max(SIZES, key=lambda size: (counts[size], size == 13))


@bp.get("/")
def board() -> str:
    """The board: a tab per size, the strength columns with every magnet on the wall.

    A phone that said "That's me" opens at its player's magnet (``#me``), with whom they can catch
    and who is close behind, and every magnet carries the wall's ↑/↓ of the last club evening.
    """

    store = get_store()
    # Retired magnets and sleepers are off the board, as on the wall (kiosk.sleepers).
    everyone = store.magnets()
    today = club_now(store.config, kiosk_utc_now())
    magnets = hanging(everyone, today, store.config.sleeper_weeks)
    mine = me.my_nick()
    size = chosen_size(magnets, mine)
    on_size = public.listed([m for m in magnets if m.size == size])  # labels; hidden left off
    columns = grouped(on_size, bands(store.config.top))
    # Resting: off the wall (unplayed for weeks), not a hidden player, whom the public board must not count either.
    resting = sum(1 for m in everyone if m.size == size and not m.retired) - sum(1 for m in magnets if m.size == size)
    found, hidden_me, shown = None, False, list(on_size)
    if mine is not None:
        own = [m for m in magnets if m.size == size and nick_key(m.nick) == nick_key(mine)]
        # Left off the public board: only this phone sees it, and only with the kiosk's own "That's me".
        hidden_me = bool(own) and public.names().hidden(mine) and me.may_see_hidden_self()
        shown += [public.names().magnet(m) for m in own if hidden_me]
        found = near(shown, me.my_label())
    # The wall's games: its latest and this week's, so the phone's arrows are the wall's own.
    games = public.games([*store.recent_games(WALL_GAMES), *store.games_since(shown_week(today))])
    moved = arrows(games, shown, size, store.config.evening_starts, store.config.evening_ends)
    evening = club_evening(store.config, kiosk_now())[0]
    here = mine is not None and any(nick_key(n) == nick_key(mine) for n in store.checked_in(evening))
    return render_template(
        "board.html",
        size=size,
        columns=columns,
        count=len(on_size),
        club=store.config,
        resting=resting,
        arrows=moved,
        near=found,
        hidden_me=hidden_me,
        here=here,
        label=me.my_label(),
    )


GAMES_PAGE = 30


@bp.get("/games")
def games() -> str:
    """Games, newest first, a page at a time; filtered by a player and a day when asked."""
    store = get_store()
    typed = request.args.get("player", "").strip()[:200]
    nick = public.visible(public.nick_for(typed)) if typed else None  # a label, or a whole nickname
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
    found = public.games(found[:GAMES_PAGE])
    label = public.names().label(nick) if nick else None
    filters = (("player", label or ""), ("date", request.args.get("date", "") if day else ""))
    query: dict[str, Any] = {k: v for k, v in filters if v}  # url_for's values are Any
    older = url_for("pages.games", before=found[-1].id, **query) if more and found else None
    return render_template(
        "games.html",
        games=found,
        confirmed=store.confirmed(found),  # both players' phones recorded it
        copies=owner_copies(found),
        form=OwnerForm().fresh() if is_owner() else None,
        older=older,
        player=typed,
        nick=label,
        date=query.get("date", ""),
        first=before is None,
    )


def owner_copies(found: list[GameResult]) -> dict[int, int]:
    """For the owner: the page's games that look like a copy of another one on it; none for the public."""
    if not is_owner():
        return {}
    store = get_store()
    entries = [(g.id, entry) for g in found if (entry := store.game_entry(g.id)) is not None]
    return recording.likely_copies(entries, store.config.same_game_minutes)


@bp.get("/players/<path:nick>")
def player(nick: str) -> str:
    """A player: magnets, strength over time, record per size, head-to-head, games, this week's free loss."""
    store = get_store()
    claimed = public.nick_for(nick)  # by label ("A.K.²") or the whole nickname (a hidden player's: nobody)
    found = public.visible(claimed)  # hidden: none, except on the player's own phone ("That's me")
    own_hidden = found is None and claimed is not None and me.is_me(claimed) and me.may_see_hidden_self()
    found = claimed if own_hidden else found
    magnets = [m for m in store.magnets() if found is not None and nick_key(m.nick) == nick_key(found)]
    if not magnets or found is None:
        abort(404)
    games = public.games(store.games_page(limit=100_000, nick=found))  # newest first; a busy player: thousands
    changes = public.changes(store.changes_of(found))
    magnets = [public.names().magnet(m) for m in magnets]  # from here on, the page knows only the label
    name = magnets[0].nick
    magnets.sort(key=lambda m: (not m.primary, m.size))
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
    latest = latest_activity(store.magnets())  # the weeks count while the club plays (kiosk/sleepers.py)
    return render_template(
        "player.html",
        nick=name,
        magnets=magnets,
        charts=charts,
        games=games[:30],
        confirmed=store.confirmed(games[:30]),  # both players' phones recorded it
        week=week,
        tallies=records.by_size(name, games),
        rivals=records.head_to_head(name, games),
        more_games=len(games) > 30,
        awards=player_awards(found, today),  # the awards know the nickname; they show labels
        resting={m.size: resting_since(m, today, store.config.sleeper_weeks, latest) for m in magnets},
        sleeper_weeks=store.config.sleeper_weeks,
        events=leagues.of_player(store, found),  # league: the events they played in
        points=points,
        own_hidden=own_hidden,
    )


def player_awards(nick: str, today: datetime) -> list[tuple[str, list[tuple[str, str]]]]:
    """The player's awards this month (so far) and last month: (month, [(award, what earned it)])."""
    from web.awards import award_detail, award_names, awards_of, month_text

    found = []
    for month in (month_of(today), previous_month(month_of(today))):
        won = awards_of(month).for_player(nick)
        if won:
            shown = [replace(a, opponent=public.names().label(a.opponent)) if a.opponent else a for a in won]
            found.append((month_text(month), [(award_names()[a.kind], award_detail(a)) for a in shown]))
    return found


@bp.get("/handicap")
def handicap() -> str:
    """The calculator for two strengths or players, and each size's full table."""
    store = get_store()
    size = size_from(request.args.get("size")) or 13
    a, b = request.args.get("a", ""), request.args.get("b", "")
    pairing: Pairing | None = None
    problem = ""
    found = problems.Problems()  # the field the answer is about, marked and named (web/problems.py)
    if a.strip() and b.strip():
        a, b = public.label_of(a), public.label_of(b)  # a whole nickname typed is answered by its label
        try:
            pairing = for_entries(public.magnets(), size, a, b, store.config)
        except SemedoriError as error:
            problem = words.player_message(error)
            field = calculator_field(error, a, b)
            if field is not None:
                found.say(field, CALCULATOR_FIELDS[field], problem)
    tables = {size: table(store.config.size_rules[size])}  # one size at a time: a phone screen is short
    training_moves = store.config.size_rules[size].training_moves
    return render_template(
        "handicap.html",
        size=size,
        a=a,
        b=b,
        pairing=pairing,
        problem=problem,
        problems=found,
        tables=tables,
        training_moves=training_moves,
    )


# The calculator's two fields, as its messages name them.
CALCULATOR_FIELDS = {"a": _l("Player 1"), "b": _l("Player 2")}


def calculator_field(error: SemedoriError, a: str, b: str) -> str | None:
    """Which of the calculator's two fields an answer is about: the one holding the nickname or strength it names."""
    field = problems.field_of(error, {}, {"a": a, "b": b})
    if field is not None:
        return field
    said = " ".join(str(getattr(error, "params", {}).get("value", "")).split())
    return next((key for key, typed in (("a", a), ("b", b)) if said and " ".join(typed.split()) == said), None)


@bp.get("/rules")
def rules() -> str:
    """The rules in short, in the user's language."""
    config = get_store().config
    return render_template(f"rules_{language()}.html", rules=config.size_rules, guest_losses=config.guest_losses)


# --- the home-screen icon --------------------------------------------------------------------


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The browser tab's and a bookmark's icon (drawn by display/icon.py)."""
    return current_app.send_static_file("favicon.ico")


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """What a phone needs to put the board on its home screen: the club's name, colours and icons.

    Everything is on the kiosk itself (the club's Wi-Fi has no internet), and the start page is the board.
    """
    store = get_store()
    name = store.config.club_name or _("Strength board")
    body = {
        "name": name,
        "short_name": name if len(name) <= 12 else _("Board"),
        "lang": language(),
        "start_url": url_for("pages.board"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#fffdf7",
        "theme_color": "#1a1a1a",
        "icons": [
            {"src": url_for("static", filename=f"icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
            for size in (192, 512)
        ],
    }
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    return response
