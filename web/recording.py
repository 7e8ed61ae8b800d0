"""Recording at the table: a new game, its confirmation, undo, and adding a guest."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import parse_qsl, urlencode

from flask import Blueprint, abort, current_app, flash, g, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.wrappers import Response

from kiosk import clockfile
from kiosk.board import GameResult, Magnet
from kiosk.clock import TOLERANCE
from kiosk.errors import HistoryError, SemedoriError, StoreError
from kiosk.evening import tonights_games
from kiosk.events import RATED, GamePlayed, nick_key
from kiosk.handicap import EVEN, size_from
from kiosk.names import resolve, similar, suggestions
from kiosk.pairing import Pairing, for_players
from kiosk.recording import nobody_moves, size_for, sizes_of
from kiosk.rules import club_now, starting_field
from kiosk.scale import decimal_mark, decimal_point, typed_number
from kiosk.services import games
from kiosk.store import Recorded
from web import problems, public
from web.auth import is_owner
from web.clock import hear_phone_clock, now
from web.forms import ActionForm, GameForm, OnceForm, PlayerForm, answers_stale_form, stale_form
from web.request_store import get_store
from web.words import language, player_message

bp = Blueprint("recording", __name__)

PHONE_COOKIE = "phone"
SIZE_COOKIE = "size"  # the size this phone recorded last: the form starts there
ME_COOKIE = "me"  # "I am ...": the nickname of whoever uses this phone (no account, just a name)
YEAR = 365 * 24 * 3600
CHIPS = 10  # names offered as big buttons on the game form
# The game form's fields carried to "add a new guest" and back, so nothing is typed twice.
CARRIED = ("size", "a", "b", "winner", "by", "points", "at", "me", "kind")


# --- the phone that recorded a game ---------------------------------------------------


def phone_origin() -> str:
    """This phone's origin mark for the history (a random cookie, not a person)."""
    token = request.cookies.get(PHONE_COOKIE, "")
    # Ours are 22 characters; anything else is not kept (it would be stored with every game): a fresh one.
    if not 16 <= len(token) <= 64 or not token.isascii():
        token = g.setdefault("new_phone", minted_phone())
    return f"phone:{token}"


def minted_phone() -> str:
    """A new phone's identity: the same for every request of one form, however many race.

    A double tap on the very first Save sends the same form twice before any cookie is back;
    each answer sets the cookie, and the phone keeps whichever came last. Made from the form's
    one-time token (and the app's secret, so the token cannot be read back from it), both are
    the same phone, and the phone that recorded the game is the one that may undo it.
    """
    once = request.form.get("once", "")
    if 16 <= len(once) <= 200 and once.isascii():
        digest = hmac.new(str(current_app.secret_key).encode(), once.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")
    return secrets.token_urlsafe(16)


def this_phone() -> str | None:
    """This phone's origin when it already has its cookie; None for a phone that never recorded here."""
    return phone_origin() if request.cookies.get(PHONE_COOKIE) is not None else None


def form_key(form: OnceForm) -> str | None:
    """The idempotency key of a phone's form: its one-time token, kept as this phone's own.

    ``form:<phone cookie>:<token>``: another phone sending the same token is another key.
    The cookie is given with the form itself (``new``, ``add_player``), so a double tap
    and a retry carry the same one; a phone that keeps no cookies has only the token
    (made by the kiosk for this one form, 128 random bits).
    """
    once = form.once_key("form")
    token = request.cookies.get(PHONE_COOKIE, "")
    if once is None or not 16 <= len(token) <= 64 or not token.isascii() or ":" in token:
        return once
    return f"form:{token}:{form.once.data}"


def with_phone(page: str, status: int = 200) -> Response:
    """A form page that also gives the phone its cookie, so its form's key is the phone's from the first tap."""
    phone_origin()
    return remember_phone(make_response(page, status))


def remember_phone(response: Response) -> Response:
    """Give a phone its cookie the first time it records something (or opens a form to)."""
    token = g.get("new_phone")
    if token:
        response.set_cookie(PHONE_COOKIE, token, max_age=365 * 24 * 3600, httponly=True, samesite="Lax")
    return response


def undo_minutes_left(game_id: int) -> int:
    """Minutes this phone may still undo the game; 0 when it may not."""
    return games.undo_minutes_left(get_store(), game_id, this_phone(), datetime.now(UTC))


def corrected_at(at: str | None, utc_now: datetime) -> str | None:
    """The form's time, moved by what the clock learned since the form was shown.

    A time left as the form showed it was the kiosk's clock at that moment; if the phones have
    since shown that clock wrong (a Pi nine days behind), the game moves with the correction.
    A time the player typed is theirs and stays.
    """
    shown, offset_then = request.form.get("shown_at", ""), request.form.get("shown_offset", "")
    # At most ten digits of seconds (317 years): a longer number is no offset this form was shown with.
    if not at or at != shown or not offset_then.removeprefix("-").isdecimal() or len(offset_then) > 11:
        return at
    state = clockfile.load(Path(current_app.config["SEMEDORI_HOME"]))
    learned = state.offset - timedelta(seconds=int(offset_then))
    if abs(learned) <= TOLERANCE:
        return at
    # The form shows whole minutes: a correction of 9 days less 3 s must not make 18:59 of 19:00.
    learned = timedelta(minutes=round(learned.total_seconds() / 60))
    try:
        moved = datetime.fromisoformat(at) + learned
    except (ValueError, OverflowError):
        return at
    return min(moved, club_now(get_store().config, utc_now)).strftime("%Y-%m-%dT%H:%M")


@bp.app_context_processor
def _clock_offset() -> dict[str, Any]:
    def clock_offset() -> int:
        """The clock's offset as the form is shown, for corrected_at when it comes back."""
        return int(clockfile.load(Path(current_app.config["SEMEDORI_HOME"])).offset.total_seconds())

    return {"clock_offset": clock_offset}


# --- a new game --------------------------------------------------------------------------


def preview(size: str | None, a: str | None, b: str | None) -> tuple[Pairing | None, str]:
    """The handicap of the pairing typed so far, or why there is none yet."""
    board_size = size_from(size)
    if not a or not b or board_size is None:
        return None, ""
    if any(resolve(name, _nicks()) is None for name in (a, b)):
        return None, ""  # said by the "not on the board yet" box, with the names meant
    try:
        return for_players(_magnets(), board_size, a, b, get_store().config), ""
    except SemedoriError as error:
        return None, player_message(error)


def remembered_size() -> str:
    """The size this phone recorded its last game on; 13x13 (most clubs' size) the first time."""
    size = request.cookies.get(SIZE_COOKIE, "")
    return size if size_from(size) is not None else "13"


def follow_players(form: GameForm) -> None:
    """The size follows the players: switch to a size they have a magnet on, if the chosen one is not."""
    a, b = (form.a.data or "").strip(), (form.b.data or "").strip()
    if not a or not b:
        return
    current = size_from(form.size.data)
    size = size_for(_magnets(), a, b, current)
    if size is not None:
        form.size.data = str(size)


def moves_nobody(form: GameForm) -> bool:
    """True when both players are known and neither has a magnet on the chosen size."""
    a, b = (form.a.data or "").strip(), (form.b.data or "").strip()
    if not a or not b or size_from(form.size.data) is None:
        return False
    if (form.kind.data or RATED) != RATED:
        return False  # a teaching game, a simultaneous, ... moves no magnet anyway: nothing to warn of
    magnets = _magnets()
    known = all(sizes_of(magnets, n) for n in (a, b))
    return known and nobody_moves(magnets, int(form.size.data), a, b)


def form_page(form: GameForm, status: int = 200) -> tuple[str, int]:
    """The new-game form with the handicap of the pairing typed so far."""
    pairing, problem = preview(form.size.data, form.a.data, form.b.data)
    page = render_template(
        "new_game.html",
        form=form,
        pairing=pairing,
        problem=problem,
        nobody=moves_nobody(form),
        unknown=unknown_names(form),
        chips=chips(form),
        elsewhere=recorded_elsewhere(form),
    )
    return page, status


def recorded_elsewhere(form: GameForm) -> dict[str, Any] | None:
    """The pair's game another phone recorded minutes ago, to say before Save (the result and when), or None."""
    size = size_from(form.size.data)
    try:  # a card that cannot even be opened: the form still comes back as typed, with no hint
        a, b = (public.nick_for(n or "") for n in (form.a.data, form.b.data))
        if size is None or a is None or b is None or nick_key(a) == nick_key(b):
            return None
        store = get_store()
        found = games.recorded_elsewhere(store, size, a, b, phone_origin(), datetime.now(UTC))
    except StoreError:
        return None
    if not found:
        return None
    result, entry = found[0]
    return {"game": public.names().game(result), "entered": entry.entered.astimezone(store.config.zone)}


def resolve_names(form: GameForm) -> None:
    """Names as the board shows them: "lucja" is Łucja when the board has exactly one such name.

    The form speaks in public labels: a whole nickname typed becomes its label, so a
    page a child's friend sees never spells a nickname the club shows as initials.
    """
    nicks = _nicks()
    if not nicks:  # nobody to match, or a card that cannot even be opened: the form comes back as typed
        return
    for field in (form.a, form.b):
        found = resolve(public.label_of(field.data or ""), nicks)
        if found is not None:
            field.data = found


def unknown_names(form: GameForm) -> list[dict[str, Any]]:
    """Each typed name the board does not know, with the names it may have meant."""
    nicks = _nicks()
    unknown = []
    for key, field in (("a", form.a), ("b", form.b)):
        typed = " ".join((field.data or "").split())
        if typed and resolve(typed, nicks) is None:
            unknown.append({"field": key, "typed": typed, "meant": suggestions(typed, nicks)})
    return unknown


class Me(NamedTuple):
    """Who this phone said it is ("That's me"), and how far the phone's word goes."""

    nick: str | None  # the board's nickname; None when nobody said
    signed: bool = False  # the kiosk itself gave this phone the cookie: not made up to be someone else
    knows_nick: bool = False  # the phone typed (or its cookie spells) the nickname: showing it tells nothing new


def me_signature(value: str) -> str:
    """The kiosk's mark on a "That's me" cookie (HMAC with the app's secret), so no phone makes one up."""
    digest = hmac.new(str(current_app.secret_key).encode(), f"me:{value}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:12]).decode().rstrip("=")


def me_claim() -> Me:
    """Whoever uses this phone, as they told it ("That's me").

    The cookie names the player, never a label: ``p:<entry>:<k|l>:<signature>``, the history entry
    they joined with (it survives a rename and a label that moves to a newcomer, and spells no
    nickname), whether the phone typed the nickname itself (``k``), and the kiosk's signature;
    or ``n:<signature>:<nickname>`` in a club without privacy settings, where labels are the
    nicknames. An older phone's unsigned ``p:<entry>`` or ``n:<nickname>`` still fills in the
    form (but opens no hidden page); a ``p:`` signature that does not match is nobody. An older
    phone's cookie that holds a label's text still counts where that text is the player's own
    nickname, and is forgotten where a label could have moved.
    """
    raw = request.cookies.get(ME_COOKIE, "")[:200]
    if not raw:
        return Me(None)
    try:
        shown = public.names()
    except StoreError:
        return Me(None)
    entry, _, rest = raw[2:].partition(":")
    if raw.startswith("p:") and entry.isdecimal() and len(entry) < 12:
        if not rest:
            return Me(shown.nick_of_entry(int(entry)))
        knows, _, signature = rest.partition(":")
        if knows in ("k", "l") and hmac.compare_digest(signature, me_signature(f"p:{entry}:{knows}")):
            return Me(shown.nick_of_entry(int(entry)), signed=True, knows_nick=knows == "k")
        return Me(None)
    if raw.startswith("n:"):
        signature, _, spelled = raw[2:].partition(":")
        signed = bool(spelled) and hmac.compare_digest(signature, me_signature(f"n:{spelled}"))
        typed = spelled if signed else raw[2:]  # an older phone's n:<nickname>, unsigned
        nick = next((n for n in shown.owners.values() if nick_key(n) == nick_key(typed)), None)
        return Me(nick, signed=signed, knows_nick=True)
    nick = shown.owners.get(nick_key(raw))  # a label's owner; a nickname shown as itself is its own label
    return Me(nick if nick is not None and nick_key(nick) == nick_key(raw) else None, knows_nick=True)


def me_nick() -> str | None:
    """The board's nickname of whoever uses this phone, as they told it ("That's me"); None when nobody said."""
    return me_claim().nick


def me() -> str:
    """Who uses this phone, by the label the form shows for them; empty when nobody said."""
    nick = me_nick()
    return public.names().label(nick) if nick is not None else ""


def chips(form: GameForm) -> list[str]:
    """Names to tap: this phone's player's recent opponents, then tonight's players."""
    taken = {nick_key(form.a.data or ""), nick_key(form.b.data or "")}
    names: list[str] = []
    try:
        store = get_store()  # a card that cannot even be opened: the form comes back without chips
        mine = store.recent_games(limit=30, nick=me_nick()) if me_nick() else []
        # Tonight's latest games, by the club's evening (bounded: an imported history may even run into the future).
        since, until = tonights_games(store.config, now())
        tonight = store.games_page(limit=40, since=since, until=until)
    except StoreError:
        return []
    for game in public.games([*mine, *tonight]):
        for nick in game.players:
            if nick_key(nick) not in taken:
                taken.add(nick_key(nick))
                names.append(nick)
    return names[:CHIPS]


def apply_taps(form: GameForm) -> bool:
    """A tapped name chip or "did you mean" (sent as a form without JavaScript); True when there was one."""
    picked = (request.form.get("pick") or "").strip()
    if picked:
        field = form.b if (form.a.data or "").strip() else form.a
        field.data = picked
        return True
    fix = request.form.get("fix") or ""
    if fix[:2] in ("a:", "b:"):
        (form.a if fix[0] == "a" else form.b).data = fix[2:]
        return True
    return False


def to_new_guest(form: GameForm, field: str) -> Response:
    """Off to "add a new guest" with the typed name; the game form's fields come back afterwards."""
    typed = ((form.a.data if field == "a" else form.b.data) or "").strip()
    # A time left as the form showed it means "now": the form comes back with the time it is then, or a game
    # saved a minute after the guest joined would be dated before the guest was on the board (and refused).
    untouched = request.form.get("at") == request.form.get("shown_at")
    carried = [name for name in CARRIED if request.form.get(name) and not (name == "at" and untouched)]
    back = urlencode([(name, request.form.get(name, "")) for name in carried])
    return redirect(url_for("recording.add_player", nick=typed, size=form.size.data, back=back))


def back_to_game(raw: str) -> str | None:
    """The game form to return to after adding a guest: only its own fields, on this site."""
    fields = [(k, v[:200]) for k, v in parse_qsl(raw, keep_blank_values=False) if k in CARRIED]
    return url_for("recording.new") + "?" + urlencode(fields) if fields else None


def game_fields(form: GameForm) -> dict[str, Any]:
    """The form's fields as the core's game line: winner nick or None, margin, time."""
    a, b = (form.a.data or "").strip(), (form.b.data or "").strip()
    choice = form.winner.data or ""
    if choice not in ("a", "b", "draw"):
        raise ValueError(_("Choose who won, or draw."))
    winner = {"a": a, "b": b, "draw": None}[choice]
    by: object = None
    if winner is not None and form.by.data not in ("points", "resignation", "other"):
        raise ValueError(_("Tap how the game ended: by points, by resignation, or on time."))
    if winner is not None and form.by.data == "resignation":
        by = "resignation"
    elif winner is not None and form.by.data == "points":
        by = _points(form.points.data or "")
    size = int(form.size.data) if (form.size.data or "").isdecimal() else form.size.data
    at = (form.at.data or "").strip() or None
    # An unknown kind goes on as sent, for the core to refuse; none sent is the rated default.
    kind = form.kind.data or RATED
    return {"size": size, "players": [a, b], "winner": winner, "by": by, "at": at, "kind": kind}


def _points(raw: str) -> float | str:
    """The typed margin as a number (a decimal comma too); other text goes on as typed, for the core to refuse."""
    if not decimal_point(raw):
        raise ValueError(_("Type the margin in points, or pick resignation."))
    number = typed_number(raw)  # digits and one decimal point: never float()'s "1_0" (ten) or "1e1"
    return raw if number is None else number


@bp.get("/new")
def new() -> Response:
    """The new-game form, with the handicap of the pairing when both players are known."""
    form = GameForm(formdata=request.args if request.args else None)
    form.fresh()
    if not request.args.get("a") and not request.args.get("b") and me():
        form.a.data = me()
    resolve_names(form)
    if me() and nick_key(form.a.data or "") == nick_key(me()) and "me" not in request.args:
        form.me.data = True
    if not request.args.get("size"):
        form.size.data = remembered_size()
        follow_players(form)
    if not form.at.data:
        form.at.data = now().strftime("%Y-%m-%dT%H:%M")
    return with_phone(*form_page(form))


@bp.post("/new")
@answers_stale_form
def record_game() -> Response | tuple[str, int]:
    """Save a game and show how both magnets moved (Post/Redirect/Get)."""
    # Long: a view's one form with its several answers (saved, the same game?, refused, a stale form), each a few
    # lines.
    form = GameForm()
    action = request.form.get("action", "save")
    if action in ("guest-a", "guest-b"):
        return to_new_guest(form, action[-1])
    if apply_taps(form) or action == "preview":  # without JavaScript: fill in, show the handicap, save nothing
        resolve_names(form)
        follow_players(form)
        return form_page(form)
    status = 400
    resolve_names(form)
    if form.validate_on_submit():
        try:
            get_store()
        except StoreError as error:  # a card that cannot even be opened: say so, keep the form as typed
            form.form_errors.append(player_message(error))
            return form_page(form, 503)
        # What is missing or too long first, in the form's order: an empty form starts with Player 1.
        form.problems = problems.game_problems(form)
        for name in unknown_names(form):
            form.problems.setdefault(
                name["field"],
                problems.named(
                    problems.GAME_FIELDS[name["field"]],
                    _(
                        "%(nick)s is not on the board yet. Tap the right name below, or add a new player.",
                        nick=name["typed"],
                    ),
                ),
            )
        if form.problems:
            form.problems = problems.in_order(form.problems, problems.GAME_FIELDS)
            return form_page(form, 400)
        if moves_nobody(form) and request.form.get("anyway") != form.size.data:
            form.form_errors.append(nobody_moves_text(form))
            return form_page(form, 400)
        try:
            fields = game_fields(form)
            utc_now = hear_phone_clock()
            typed = games.Typed(
                fields["size"],
                fields["players"],
                fields["winner"],
                fields["by"],
                corrected_at(fields["at"], utc_now),
                fields["kind"],
            )
            outcome = same_game_answer(form, typed, club_now(get_store().config, utc_now))
        except (SemedoriError, ValueError) as error:
            said = player_message(public.relabelled(error)) if isinstance(error, SemedoriError) else str(error)
            field = game_field_of(error, form) if isinstance(error, SemedoriError) else None
            if field is None:
                form.form_errors.append(said)
            else:
                form.problems = {field: problems.named(problems.GAME_FIELDS[field], said)}
            status = 503 if isinstance(error, StoreError) else 400  # a full card is the kiosk's fault
        else:
            if isinstance(outcome, games.Duplicate):  # another phone recorded it minutes ago: ask, save nothing
                return same_game_page(form, outcome)
            if isinstance(outcome, games.Reused):
                # Back, changed, sent again: the first game stays, the change is said, not dropped.
                form.form_errors.append(
                    _("This form was already saved with another result. To record another game, start a new form.")
                )
                return form_page(form, 422)
            if outcome.game is None:  # this very form was saved, then the game undone: start afresh
                flash(_("That game was undone. To record it again, fill in a new form."), "error")
                return redirect(url_for("recording.new", size=form.size.data, a=form.a.data, b=form.b.data))
            confirmed = request.form.get("same") in ("confirm", "theirs")
            if confirmed:  # nothing new was saved: the page is the game's, not "Saved!"
                flash(_("Thank you! This game was already on the board: now both players have confirmed it."), "ok")
            response = redirect(url_for("recording.game", game_id=outcome.game.id, saved=None if confirmed else 1))
            response.set_cookie(SIZE_COOKIE, str(outcome.game.size), max_age=YEAR, samesite="Lax")
            remember_me(form, response)
            return remember_phone(response)
    elif form.csrf_token.errors and stale_form() not in form.form_errors:
        form.form_errors.append(stale_form())
    return form_page(form, status)


def game_field_of(error: SemedoriError, form: GameForm) -> str | None:
    """The game form's field a core error is about (the nickname fields by what they hold), or None."""
    return problems.field_of(error, problems.GAME_CODES, {"a": form.a.data, "b": form.b.data})


def same_game_answer(
    form: GameForm, typed: games.Typed, kiosk_now: datetime
) -> Recorded | games.Duplicate | games.Reused:
    """The one service call of a Save: record, or the players' answer to "Is this the same game?"."""
    store = get_store()
    # Checked before the write lock is taken; the owner may enter a game of any date.
    days_back = None if is_owner() else store.config.days_back
    key, origin = form_key(form), phone_origin()
    answer = request.form.get("same", "")
    earlier = request.form.get("earlier", "")
    if answer in ("confirm", "theirs") and earlier.isdecimal() and len(earlier) < 12:
        return games.confirm_game(store, int(earlier), kiosk_now, origin, key=key)
    if answer == "mine" and earlier.isdecimal() and len(earlier) < 12:
        return games.correct_to_mine(
            store, int(earlier), typed, kiosk_now, origin, key=key, names=public.nick_for, days_back=days_back
        )
    return games.record_game(
        store, typed, kiosk_now, origin, key=key, names=public.nick_for, days_back=days_back, again=answer == "again"
    )


def same_game_page(form: GameForm, duplicate: games.Duplicate) -> tuple[str, int]:
    """ "Jędrek – Hania was just recorded (19:42, Jędrek won by resignation). Is this the same game?"

    The form comes back with everything typed, hidden, and the players' choices as buttons;
    a different result is shown beside the one already recorded, and nothing is saved until
    one of them says which is right.
    """
    shown = public.names()
    theirs = shown.game(duplicate.game)
    mine = shown.game(as_result(duplicate.mine))
    entered = duplicate.entry.entered.astimezone(get_store().config.zone)
    kept = ("csrf_token", "once", "same", "earlier", "action", "pick", "fix")
    carried = [(name, value) for name, value in request.form.items(multi=True) if name not in kept]
    page = render_template(
        "same_game.html", form=form, theirs=theirs, mine=mine, same=duplicate.same, entered=entered, carried=carried
    )
    return page, 409


def as_result(game: GamePlayed) -> GameResult:
    """A game not recorded, as a result card shows it (no handicap or moves: only who won, and how)."""
    return GameResult(0, game.at, game.size, game.players, game.winner, game.by, None, EVEN, {}, kind=game.kind)


def remember_me(form: GameForm, response: Response) -> None:
    """ "That's me" ticked: this phone now starts its games with that name; unticked: it forgets it."""
    a = (form.a.data or "").strip()
    nick = public.nick_for(a) if a else None  # the label as typed, back to its player
    if form.me.data and nick is not None:
        shown = public.names()
        entry = shown.entries.get(nick_key(nick))
        if entry is not None:
            # Typed whole ("Oliwia", not "O.²"): this phone knows the nickname, so showing it back tells nothing.
            knows = "k" if nick_key(" ".join(request.form.get("a", "").split())) == nick_key(nick) else "l"
            value = f"p:{entry}:{knows}"
            response.set_cookie(
                ME_COOKIE, f"{value}:{me_signature(value)}", max_age=YEAR, samesite="Lax", httponly=True
            )
        elif nick_key(shown.label(nick)) == nick_key(nick):  # shown by nickname: the cookie may spell it
            signed = f"n:{me_signature(f'n:{nick}')}:{nick}"
            response.set_cookie(ME_COOKIE, signed, max_age=YEAR, samesite="Lax", httponly=True)
    elif nick is not None and me_nick() is not None and nick_key(me_nick() or "") == nick_key(nick):
        response.delete_cookie(ME_COOKIE)


def nobody_moves_text(form: GameForm) -> str:
    """Why a game on a size neither player has needs a second look."""
    return _(
        "Neither %(a)s nor %(b)s has a magnet on %(size)s×%(size)s, so no magnet would move. "
        "Pick the size you played on, or tick the box to record it anyway.",
        a=(form.a.data or "").strip(),
        b=(form.b.data or "").strip(),
        size=form.size.data,
    )


@bp.get("/new/handicap")
def handicap_preview() -> str:
    """The handicap box alone, for the form's script to drop in as players are typed.

    With ``follow=1`` (a name was just typed) the size follows the players; the box says
    which size it chose, and the script ticks it.
    """
    form = GameForm(formdata=request.args, meta={"csrf": False})
    resolve_names(form)
    if request.args.get("follow") == "1":
        follow_players(form)
    pairing, problem = preview(form.size.data, form.a.data, form.b.data)
    return render_template(
        "handicap_box.html",
        pairing=pairing,
        problem=problem,
        form=form,
        nobody=moves_nobody(form),
        unknown=unknown_names(form),
        elsewhere=recorded_elsewhere(form),
    )


def _magnets() -> tuple[Magnet, ...]:
    """Every magnet under its public label: the form shows and matches labels."""
    try:
        return public.magnets()
    except StoreError:  # a card that cannot even be opened: the form still comes back as typed
        return ()


def _nicks() -> list[str]:
    """Every player's public label, for matching what was typed and "did you mean"."""
    seen: dict[str, str] = {}
    try:
        magnets = public.magnets()
    except StoreError:  # a card that cannot even be opened: the form still comes back as typed
        magnets = ()
    for magnet in magnets:
        seen.setdefault(nick_key(magnet.nick), magnet.nick)
    return sorted(seen.values(), key=nick_key)


# --- the confirmation and undo ---------------------------------------------------------------


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> str:
    """One game: handicap, result, each magnet's move and why; undo for the phone that saved it."""
    result = get_store().game(game_id)
    if result is None:
        abort(404)
    owner = is_owner()
    if not owner:  # the public sees the players' labels; the owner sees everything
        result = public.names().game(result)
    minutes = undo_minutes_left(game_id)
    form = ActionForm().fresh() if minutes else None
    saved = request.args.get("saved") == "1"
    confirmed = game_id in get_store().confirmed([result])
    return render_template(
        "game.html", game=result, undo_minutes=minutes, form=form, saved=saved, owner=owner, confirmed=confirmed
    )


@bp.post("/games/<int:game_id>/undo")
def undo(game_id: int) -> Response:
    """Take back a game this phone recorded in the last ten minutes; the form comes back filled in with it."""
    form = ActionForm()
    if not form.validate_on_submit():
        raise CSRFError()  # one tap, nothing typed: the friendly "too old, nothing was saved" page
    store = get_store()
    entry = store.game_entry(game_id)
    if entry is None:
        abort(404)
    if store.game(game_id) is not None:
        try:
            guests = games.undo_game(store, game_id, now(), this_phone(), key=form_key(form))
        except HistoryError as error:
            flash(player_message(error), "error")
            return redirect(url_for("recording.game", game_id=game_id))
        for nick in guests:
            flash(_("%(nick)s, added for this game, has left the board with it.", nick=public.label_of(nick)), "ok")
    # Said again to a second tap: the first one undid it.
    flash(_("The game was undone; the board is as it was before. Here it is again, to fix and save."), "ok")
    fields: dict[str, Any] = refilled(entry.line)  # url_for's values are Any
    return redirect(url_for("recording.new", **fields))


def refilled(line: dict[str, Any]) -> dict[str, str]:
    """The game form's fields for an undone game's history line, names as the public sees them."""
    label = public.names().label
    a, b = (label(n) for n in line.get("players", ["", ""]))
    winner, by = line.get("winner"), line.get("by")
    fields = {"size": str(line.get("size", "")), "a": a, "b": b, "at": str(line.get("at", ""))[:16]}
    if winner is None:
        fields["winner"] = "draw"
    else:
        fields["winner"] = "a" if nick_key(label(winner)) == nick_key(a) else "b"
        if by == "resignation":
            fields["by"] = "resignation"
        elif by is None:
            fields["by"] = "other"
        else:
            fields |= {"by": "points", "points": decimal_mark(f"{by:g}", language())}
    if line.get("kind", RATED) != RATED:
        fields["kind"] = line["kind"]
    return fields


# --- a new player -------------------------------------------------------------------------------


def grade_of(form: PlayerForm) -> dict[str, int | str]:
    """The declared grade as ``{"kyu": n}`` or ``{"dan": n}``; empty for a guest at 0."""
    if form.start.data not in ("kyu", "dan"):
        return {}
    raw = (form.grade.data or "").strip()
    # Text that is no whole number goes on as typed: the core refuses it as a bad grade.
    return {form.start.data: int(raw) if raw.isdecimal() else raw}


def just_added_here(nick: str) -> bool:
    """True when this phone added this nickname in the last two minutes."""
    key = nick_key(" ".join(nick.split()))
    recent = datetime.now(UTC) - timedelta(minutes=2)
    # A phone without its cookie yet is the same phone for both taps of one form (minted_phone).
    return any(
        nick_key(entry.line.get("nick", "")) == key and entry.origin == phone_origin() and entry.entered > recent
        for entry in get_store().entries(limit=20, types=["player"])
    )


GUEST_CODES = {"bad-size": "size", "bad-grade": "grade", "strength-or-grade": "grade", "member-grade": "grade"}


def place_guest_problem(form: PlayerForm, error: SemedoriError) -> None:
    """A core error about a new guest beside its field (the nickname's own words for empty or too long)."""
    said = player_message(error)
    field = problems.field_of(error, GUEST_CODES, {"nick": form.nick.data})
    if field == "nick":
        said = problems.nick_problem(form.nick.data) or said
        form.problems = {"nick": problems.named(form.nick.label.text, said)}
    elif field is not None:
        name = form.grade.label.text if field == "grade" else form.size.label.text
        form.problems = {field: problems.named(name, said)}
    else:
        form.form_errors.append(said)


@bp.route("/players/new", methods=["GET", "POST"])
@answers_stale_form
def add_player() -> Response | str | tuple[str, int]:
    """Add a guest: check the nickname and grade, show the field and similar names, then save."""
    # Long: the guest form's steps (check, show the field and similar names, save) on one page.
    form = PlayerForm()
    store = get_store()
    if request.method == "GET":
        form = PlayerForm(formdata=request.args if request.args else None)
        form.fresh()
        return with_phone(render_template("add_player.html", form=form, checked=None, similar=[]))
    if not form.validate_on_submit():
        if stale_form() not in form.form_errors:
            form.form_errors.append(stale_form())
        return render_template("add_player.html", form=form, checked=None, similar=[]), 400
    magnets = store.magnets()
    try:
        grade = grade_of(form)
        size = int(form.size.data) if (form.size.data or "").isdecimal() else form.size.data
        # Labels, look-alikes and hidden children first: "taken" would confirm a hidden child.
        event = games.check_guest(
            store, form.nick.data, size, now(), **grade, shown=public.names(), deliberate=is_owner()
        )
    except SemedoriError as error:
        if just_added_here(form.nick.data or ""):  # a double tap on Save: the first tap added the guest
            back = back_to_game(form.back.data or "")
            return redirect(back or url_for("pages.player", nick=(form.nick.data or "").strip()))
        place_guest_problem(form, error)
        return render_template("add_player.html", form=form, checked=None, similar=[]), 400
    field = starting_field(event, store.config)
    # Only players whose nickname the public sees: "did you mean J.K.?" would spell out a hidden one.
    shown = public.names()
    lookalikes = similar(event.nick, {m.nick for m in magnets if shown.labels.get(nick_key(m.nick)) == m.nick})
    # Saved only when the same nickname, size and start were shown (and checked) first.
    fingerprint = f"{event.nick}|{event.size}|{event.kyu}|{event.dan}"
    if form.confirmed.data != fingerprint:
        form.confirmed.data = fingerprint
        return render_template("add_player.html", form=form, checked=event, field=field, similar=lookalikes)
    try:
        games.add_guest(
            store,
            event.nick,
            event.size,
            event.at,
            phone_origin(),
            form_key(form),
            event.kyu,
            event.dan,
            shown=public.names(),
            deliberate=is_owner(),
        )
    except SemedoriError as error:
        place_guest_problem(form, error)
        status = 503 if isinstance(error, StoreError) else 400
        return render_template("add_player.html", form=form, checked=None, similar=[]), status
    flash(_("%(nick)s is on the board.", nick=event.nick), "ok")
    back = back_to_game(form.back.data or "")
    return remember_phone(redirect(back or url_for("pages.player", nick=event.nick)))
