"""Tonight on the phone: who is here, who plays whom on each size, refuse a pair, record it.

Thin like the other views: the evening is ``kiosk.evening``, the pairs ``kiosk.tonight``,
the list the store's. CSRFProtect checks every POST's token; a stale form comes back with
the nickname still typed (``answers_stale_form``).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import NamedTuple

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response
from wtforms import HiddenField, StringField

from kiosk import tournament_store
from kiosk.board import GameResult, Magnet
from kiosk.errors import HistoryError, SemedoriError
from kiosk.evening import club_evening, is_open, list_opens
from kiosk.events import nick_key
from kiosk.handicap import size_from
from kiosk.names import similar
from kiosk.pairing import Pairing, side_of
from kiosk.services import settings
from kiosk.sleepers import hanging
from kiosk.tonight import LAST_WEEK, Evening, for_evening, leaves_at_once, pair_of, seated
from web import me, public
from web.auth import is_owner
from web.clock import now as kiosk_now
from web.forms import PostForm, answers_stale_form, stale_form
from web.pages import chosen_size
from web.problems import named
from web.recording import me_nick, phone_origin, remember_phone
from web.request_store import get_store
from web.words import player_message

bp = Blueprint("tonight", __name__)


class HereForm(PostForm):
    """ "I'm here": a nickname of the board (typed, or one tap on a name)."""

    nick = StringField()


class PairForm(PostForm):
    """One tap on a suggested pair: refuse it."""

    a = HiddenField()
    b = HiddenField()


def _size() -> int:
    """The size asked for (also from a posted form), else the board's most used one."""
    size = size_from(request.values.get("size"))
    if size is not None:
        return size
    return chosen_size(get_store().magnets())


def board_nick(magnets: tuple[Magnet, ...], typed: str) -> str:
    """The board's spelling of a typed label or nickname; a name that is not on the board is refused."""
    # The same matching as the game form: a label, or case and Polish letters aside ("Lucja" is Łucja).
    found = public.nick_for(typed)
    if found is None or not any(nick_key(m.nick) == nick_key(found) for m in hanging(magnets)):
        raise HistoryError("unknown-player", nick=typed.strip())
    return found


class Read(NamedTuple):
    """Tonight on one size, as the phone shows it: every name a public label."""

    evening: date
    here: list[str]  # checked in, in the order they came
    since: datetime  # tonight's games are those since the list was last empty
    games: list[GameResult]  # the last week's games (tonight's and the week's rematches)
    refused: set[frozenset[str]]  # the pairs refused tonight, by nick key
    tonight: Evening  # the suggested pairs


def read_tonight(size: int, now: datetime | None = None) -> Read:
    """Tonight's list, games, refusals and suggested pairs on one size, under public labels."""
    store = get_store()
    now = now or kiosk_now()
    evening = club_evening(store.config, now)[0]
    # The page speaks in public labels: everything is read, then relabelled, then paired.
    shown = public.names()
    here = [shown.label(n) for n in store.checked_in(evening)]
    # Tonight's games are those since the list was last empty: an early game at 16:30 counts too.
    since = list_opens(evening, store.config.evening_starts, store.config.evening_ends)
    games = public.games(store.games_since(min(since, now - LAST_WEEK)))
    refused = {frozenset(nick_key(shown.label(k)) for k in pair) for pair in store.refusals(evening)}
    # Who plays in tonight's open event is not free to be paired here (kiosk.tonight.seated says who).
    in_event = [shown.label(n) for n in seated(tournament_store.open_event(store, evening))]
    tonight = for_evening(size, public.magnets(), here, store.config, games, since, now, refused, in_event)
    return Read(evening, here, since, games, refused, tonight)


def my_pair(size: int) -> Pairing | None:
    """This phone's player's suggested pair tonight on the size ("That's me"); None when not paired.

    The board shows it beside the player's magnet, so a known pair is recorded in four taps from the board too.
    """
    if me.my_nick() is None:
        return None
    pairs = read_tonight(size).tonight.suggestion.pairs
    return next((p for p in pairs if any(me.is_me(side.nick) for side in p.sides)), None)


def _page(
    form: HereForm | None = None,
    problem: str = "",
    lookalikes: list[str] | None = None,
    status: int = 200,
    asking: str = "",
    marked: bool = False,
) -> tuple[str, int]:
    """The page, with a problem of the form just sent (and the nickname as typed) when there is one."""
    store = get_store()
    now = kiosk_now()
    _, starts, ends = club_evening(store.config, now)
    size = _size()
    evening, here, since, games, refused, tonight = read_tonight(size, now)  # the same moment as the page's
    magnets = public.magnets()
    rows = [(nick, *_strength(magnets, nick, size), _leaves_at_once(nick, evening)) for nick in here]
    here_keys = {nick_key(n) for n in here}
    spelled = {nick_key(m.nick): m.nick for m in magnets} | {nick_key(n): n for n in here}
    refused_pairs = sorted(tuple(sorted((spelled.get(k, k) for k in pair), key=nick_key)) for pair in refused)
    played = [g for g in games if g.at >= since]
    listed = public.listed(list(hanging(store.magnets())))  # the type-ahead: no hidden player
    others = sorted({m.nick for m in listed if nick_key(m.nick) not in here_keys}, key=nick_key)
    page = render_template(
        "tonight.html",
        form=form or HereForm(),
        size=size,
        evening=evening,
        starts=starts,
        ends=ends,
        is_open=is_open(now, store.config.evening_starts, store.config.evening_ends),
        here=rows,
        tonight=tonight,
        others=others,
        problem=problem,
        marked={"nick": problem} if marked else {},  # the nickname field, marked and tied to the problem
        asking=asking,
        lookalikes=lookalikes or [],
        refused=refused_pairs,
        played=played[::-1],
        mine=me.my_label() if me.my_nick() is not None and not any(me.is_me(n) for n in here) else "",
    )
    return page, status


def _strength(magnets: tuple[Magnet, ...], nick: str, size: int) -> tuple[int | None, bool]:
    """A checked-in player's strength on the size (else the primary magnet's, flagged); none once off the board."""
    try:
        side = side_of(magnets, nick, size)
    except HistoryError:  # renamed or merged away since checking in
        return None, False
    return side.strength, side.occasional


@bp.get("/tonight")
def tonight() -> tuple[str, int]:
    """Who is here tonight, and the suggested pairs on one size with their handicaps."""
    return _page()


def _evening() -> date:
    store = get_store()
    return club_evening(store.config, kiosk_now())[0]


@bp.post("/tonight/here")
@answers_stale_form
def check_in() -> Response | tuple[str, int]:
    """Put a player on tonight's list ("I'm here", or any phone for someone else)."""
    form = HereForm()
    if not form.validate_on_submit():
        return _page(form, stale_form(), status=400)
    typed = (form.nick.data or "").strip()
    # The problem names the field and is tied to it: "Your nickname: …", the field marked.
    field = _("Your nickname")
    if not typed:
        return _page(form, named(field, _("type it, then tap “I'm here”.")), status=400, marked=True)
    store = get_store()
    magnets = store.magnets()
    try:
        nick = board_nick(magnets, typed)
    except SemedoriError as error:
        names = {m.nick for m in public.listed(list(hanging(magnets)))}
        said = named(field, player_message(error))
        return _page(form, said, similar(typed, names)[:5], status=400, marked=True)
    label = public.names().label(nick)
    if settings.check_in(store, _evening(), nick, origin=phone_origin()):
        flash(_("%(nick)s is here tonight.", nick=label), "ok")
    else:
        flash(_("%(nick)s was already here.", nick=label), "ok")
    return remember_phone(redirect(url_for("tonight.tonight", size=_size())))


def _leaves_at_once(label: str, evening: date) -> bool:
    """Whether this phone's tap takes the player off the list without asking (kiosk.tonight.leaves_at_once)."""
    nick = public.nick_for(label) or label
    origin = get_store().checked_in_from(evening).get(nick_key(nick))
    # "That's me" names the player, never a label.
    return leaves_at_once(nick, origin, phone_origin(), me_nick() or "", is_owner())


@bp.post("/tonight/leave")
@answers_stale_form
def check_out() -> Response | tuple[str, int]:
    """Take a player off tonight's list (gone home); the pairs are made again without them.

    Only the owner, the phone that checked them in and their own phone do it in one tap; any other
    phone is asked first ("Is Ola not here any more?"), and nothing changes until it says yes.
    """
    form = HereForm()
    if not form.validate_on_submit():
        return _page(problem=stale_form(), status=400)
    nick = " ".join((form.nick.data or "").split())  # the label the page showed
    evening = _evening()
    if not _leaves_at_once(nick, evening) and request.form.get("confirmed") != "yes":
        return _page(HereForm(formdata=None), asking=nick)  # the question; "Your nickname" stays this phone's
    if settings.check_out(get_store(), evening, public.nick_for(nick) or nick):
        flash(_("%(nick)s has left; the pairs are made again.", nick=nick), "ok")
    return redirect(url_for("tonight.tonight", size=_size()))


@bp.post("/tonight/refuse")
@answers_stale_form
def refuse() -> Response | tuple[str, int]:
    """Two players would rather not play each other tonight: pair them with others."""
    form = PairForm()
    if not form.validate_on_submit():
        return _page(problem=stale_form(), status=400)
    a, b = (form.a.data or "").strip(), (form.b.data or "").strip()
    if not a or not b or len(pair_of(a, b)) != 2:
        return _page(problem=_("That pair is not on tonight's list any more."), status=400)
    nick_a, nick_b = public.nick_for(a) or a, public.nick_for(b) or b  # the labels the page showed
    if not settings.refuse(get_store(), _evening(), nick_a, nick_b):  # not both on tonight's list
        return _page(problem=_("That pair is not on tonight's list any more."), status=400)
    flash(_("%(a)s and %(b)s will not be paired tonight.", a=a, b=b), "ok")
    return redirect(url_for("tonight.tonight", size=_size()))


@bp.post("/tonight/pair-again")
@answers_stale_form
def pair_again() -> Response | tuple[str, int]:
    """Take back a refusal (a mistaken tap): the two may be paired again tonight."""
    form = PairForm()
    if not form.validate_on_submit():
        return _page(problem=stale_form(), status=400)
    a, b = (form.a.data or "").strip(), (form.b.data or "").strip()
    if settings.unrefuse(get_store(), _evening(), public.nick_for(a) or a, public.nick_for(b) or b):
        flash(_("%(a)s and %(b)s may be paired again tonight.", a=a, b=b), "ok")
    return redirect(url_for("tonight.tonight", size=_size()))
