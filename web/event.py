"""Tonight's small event on the phone: the owner starts it from the check-in list,
players tap each board's result once (and the phone that tapped may take it back for a while),
everyone sees the standings, the owner downloads the exports, corrects a wrong tap (or clears
it to be tapped again), withdraws a player who went home, closes the event (asked first while
rounds are unplayed) and reopens it.

Thin like the other views: formats, pairings and standings are ``kiosk.tournament``; every
write is a use case of ``kiosk.services.tournaments``, which also reads the event
from the history. CSRFProtect checks every POST's token; a stale form gets a kind message on
the event's page, not an error page (``answers_stale_form``). A result tap is
idempotent: the same tap twice saves once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response as WerkzeugResponse
from wtforms import BooleanField, HiddenField, StringField

from kiosk.accelerated import ACCELERATED, LevelStanding
from kiosk.errors import HistoryError, SemedoriError, StoreError
from kiosk.evening import club_evening
from kiosk.event_prizes import Prize
from kiosk.events import CREDITS, HANDICAP_POLICY_LIMIT, nick_key
from kiosk.handicap import size_from
from kiosk.pairing import Side, side_of
from kiosk.rules import UNDO_MINUTES  # the one undo window (a game, an event's result)
from kiosk.scale import decimal_point, typed_number, written
from kiosk.services import league as leagues
from kiosk.services import tournaments
from kiosk.tiebreak import NO_CHOICES, Choices
from kiosk.tournament import (
    A_WINS,
    B_WINS,
    DOUBLE_ROUND_ROBIN,
    DRAW,
    ROUND_ROBIN,
    SWISS,
    PlayedBoard,
    Seat,
    Standing,
    Tournament,
    accelerated_standings,
    event_standings,
    format_for,
    played_boards,
    points,
    rounds_for,
    to_h9,
    to_opengotha,
)
from web import event_choices, public
from web.auth import OWNER, is_owner, owner_required
from web.clock import now as kiosk_now
from web.forms import PostForm, answers_stale_form, stale_form
from web.pages import chosen_size
from web.recording import PHONE_COOKIE, phone_origin, remember_phone
from web.request_store import get_store
from web.words import language, margin, player_message

bp = Blueprint("event", __name__)

POINTS_LIMIT = 20  # characters of a typed margin kept (the core refuses anything that is no margin)


class ResultForm(PostForm):
    """One board's result: which tap, and the margin typed beside "won by points"."""

    round = HiddenField()
    board = HiddenField()
    points = StringField()


class StartForm(PostForm):
    """The owner starts tonight's event: who plays (tonight's list), on which size, does it count."""

    name = StringField()
    counts = BooleanField(default=True)
    rounds = StringField()  # a Swiss may play fewer rounds than its format's count
    accelerated = BooleanField(default=False)  # accel: the accelerated handicap event (kiosk.accelerated)


class CloseForm(PostForm):
    """The owner closes the event (``sure``: the owner said yes to closing with rounds unplayed), or reopens it."""

    sure = HiddenField()


class UndoForm(PostForm):
    """The phone that tapped a board takes its tap back."""

    round = HiddenField()
    board = HiddenField()


class CorrectForm(ResultForm):
    """The owner corrects a decided board: the players' taps, or "clear"; ``fixes`` says what the form saw."""

    fixes = HiddenField()


class WithdrawForm(PostForm):
    """The owner withdraws a player who went home."""

    player = StringField()


def _evening() -> date:
    return club_evening(get_store().config, kiosk_now())[0]


def _size() -> int:
    return size_from(request.values.get("size")) or chosen_size(get_store().magnets())


def format_name(event_format: str) -> str:
    """A format in the reader's language."""
    if event_format == DOUBLE_ROUND_ROBIN:
        return _("double round-robin")
    if event_format == ROUND_ROBIN:
        return _("round-robin")
    if event_format == ACCELERATED:  # accel
        return _("accelerated handicap event")
    return _("Swiss")


def level_text(quarters: int, signed: bool = False) -> str:
    """accel: an event level or a coefficient as people write it (``29``, ``30.5``; ``+3``, ``−2.25`` signed)."""
    text = written(Fraction(quarters, 4), language())
    if signed and quarters > 0:
        return f"+{text}"
    return text.replace("-", "−")


def result_text(seat: Seat, how: str | None) -> str:
    """A decided board in words: "Ala won by resignation", "Draw"."""
    if seat.result == DRAW:
        return _("Draw")
    winner = seat.a if seat.result == A_WINS else seat.b
    if how == "resignation":
        return _("%(nick)s won by resignation", nick=winner)
    if how in (None, "other"):
        return _("%(nick)s won", nick=winner)
    return f"{_('%(nick)s won', nick=winner)} {margin(Fraction(how))}"


def _undo_window() -> timedelta:
    return timedelta(minutes=UNDO_MINUTES)  # the same window as a game's undo


def _mine(event: Tournament) -> dict[tuple[int, int], int]:
    """The boards this phone tapped and may still take back, with the minutes left (rounded up)."""
    if request.cookies.get(PHONE_COOKIE) is None:
        return {}
    found = tournaments.folded(get_store(), event.id)
    if found is None or event.closed:
        return {}
    ends = tournaments.undoable(get_store(), found, phone_origin(), _undo_window())
    now = datetime.now(UTC)
    return {key: max(1, -(-int((end - now).total_seconds()) // 60)) for key, end in ends.items()}


def _page(
    event: Tournament | None, status: int = 200, problem: str = "", confirm_close: bool = False
) -> tuple[str, int]:
    # Long: the event page's template takes some forty names (the render call alone is 40 lines); what they are is
    # computed above it in the order the page reads.
    store = get_store()
    evening = _evening()
    here: list[tuple[str, int | None]] = []
    if event is None or is_owner():
        magnets = store.magnets()
        size = _size()
        for nick in store.checked_in(evening):
            try:
                here.append((nick, side_of(magnets, nick, size).strength))
            except HistoryError:
                here.append((nick, None))
    boards: list[PlayedBoard] = []
    earlier: list[tuple[int, list[PlayedBoard]]] = []  # the owner's corrections of rounds before the current one
    standings: tuple[Standing, ...] = ()
    levels: tuple[LevelStanding, ...] = ()  # accel: an accelerated event's standings
    how: dict[tuple[int, int], str] = {}
    fixes: dict[tuple[int, int], int] = {}
    mine: dict[tuple[int, int], int] = {}
    mine_earlier: list[Seat] = []  # this phone's taps of rounds before the one shown, still to be taken back
    why: list[event_choices.Why | None] = []  # each line's "why is she above me" (None for the first)
    prize_lines: list[tuple[Prize, str, str]] = []  # (prize as shown, the nickname, what it is for)
    if event is not None:
        mine = _mine(event)
        mine_earlier = [s for s in event.seats if (s.round, s.board) in mine and s.round != event.current]
        how = tournaments.how_of(store, event.id)
        boards = _boards(event, event.round_seats(event.current))
        standings = event_standings(event)
        shown = _shown()  # a player's phone names the players as the public pages do
        boards = [
            PlayedBoard(seat._replace(a=shown(seat.a) or seat.a, b=shown(seat.b)), shown(white), shown(black), handicap)
            for seat, white, black, handicap in boards
        ]
        why = event_choices.why_lines(event, standings, {nick_key(s.nick): shown(s.nick) or s.nick for s in standings})
        prize_lines = [
            (replace(p, nick=shown(p.nick) or p.nick), p.nick, said)
            for p, said in event_choices.prize_list(event, standings)
        ]
        standings = tuple(replace(s, nick=shown(s.nick) or s.nick) for s in standings)
        if event.format == ACCELERATED:  # accel
            levels = tuple(replace(s, nick=shown(s.nick) or s.nick) for s in accelerated_standings(event))
        mine_earlier = [seat._replace(a=shown(seat.a) or seat.a, b=shown(seat.b)) for seat in mine_earlier]
        if is_owner():
            fixes = tournaments.fix_counts(store, event.id)
            for number in range(1, event.current):
                seats = [s for s in event.round_seats(number) if s.b is not None and s.result is not None]
                decided = _boards(event, seats)
                if decided:
                    earlier.append((number, decided))
    count = len([n for n, q in here if q is not None])
    page = render_template(
        "event/page.html",
        event=event,
        boards=boards,
        how=how,
        standings=standings,
        levels=levels,
        level_text=level_text,
        points=points,
        result_text=result_text,
        format_name=format_name,
        owner=is_owner(),
        here=here,
        size=_size(),
        planned=_planned(count),
        form=ResultForm(),
        start_form=StartForm(),
        close_form=CloseForm(),
        undo_form=UndoForm(),
        mine=mine,
        mine_earlier=mine_earlier,
        confirm_close=confirm_close,
        earlier=earlier,
        fixes=fixes,
        problem=problem,
        others=[e for e in tournaments.of_evening(store, evening) if event is None or e.id != event.id],
        why=why,
        prize_lines=prize_lines,
        criteria=event_choices.criterion_names(),
        criteria_help=event_choices.criterion_help(),
        criteria_short=event_choices.criterion_short(),
        chain_selects=event_choices.CHAIN_SELECTS,
        avoid_rows=event_choices.AVOID_ROWS,
        default_chain=event_choices.default_chain(),
        policy_text=event_choices.policy_text,
        handicap_limit=HANDICAP_POLICY_LIMIT,
        typed=request.form if request.method == "POST" and "tiebreak-1" in request.form else None,
        leagues_on=[e for e in leagues.tonight_league(store, evening) if event is None or e.id != event.id],
    )
    return page, status


def _boards(event: Tournament, seats: Sequence[Seat]) -> list[PlayedBoard]:
    """Boards as the page shows them (``kiosk.tournament.played_boards``: as played once decided, else from the
    magnets now), their games read from the store."""
    store = get_store()
    games = tournaments.played_games(store, event.id, seats)
    return list(played_boards(event, store.magnets(), games, store.config, seats))


def _shown() -> Callable[[str | None], str | None]:
    """Names as this phone may see them: the owner every nickname, anyone else the public labels."""
    if is_owner():
        return lambda nick: nick
    label = public.names().label
    return lambda nick: None if nick is None else label(nick)


def _planned(count: int) -> tuple[str, int, bool] | None:
    """The format and rounds an event of ``count`` players would have, and whether it is a Swiss; None below four."""
    try:
        event_format = format_for(count)
    except HistoryError:
        return None
    return format_name(event_format), rounds_for(event_format, count), event_format == SWISS


@bp.get("/event")
def tonight_event() -> tuple[str, int]:
    """Tonight's event: the open one, else the latest of tonight; the owner's start form when there is none."""
    store = get_store()
    evening = _evening()
    event = tournaments.open_event(store, evening) or next(iter(tournaments.of_evening(store, evening)), None)
    return _page(event)


@bp.get("/event/<int:event_id>")
def show(event_id: int) -> WerkzeugResponse | tuple[str, int]:
    """One event: the current round's boards with their result buttons, then the standings."""
    event = tournaments.get(get_store(), event_id)
    if event is None:
        return _gone()
    return _page(event)


def _gone() -> WerkzeugResponse:
    """An event that is not there (an old link, a restored backup): tonight's event page, with a word."""
    flash(_("That event is not there any more."), "error")
    return redirect(url_for("event.tonight_event"))


@bp.post("/event/start")
@answers_stale_form
@owner_required
def start() -> WerkzeugResponse | tuple[str, int]:
    """The owner starts tonight's event with the players ticked on tonight's list."""
    form = StartForm()
    if not form.validate_on_submit():
        return _page(None, 400, stale_form())
    store = get_store()
    evening = _evening()
    size = _size()
    wanted = {nick_key(n) for n in request.form.getlist("player")}
    magnets = store.magnets()
    sides = []
    for nick in store.checked_in(evening):
        if nick_key(nick) in wanted:
            try:
                sides.append(side_of(magnets, nick, size))
            except HistoryError:
                continue  # renamed or merged away since checking in
    choices = event_choices.choices_from(request.form, [s.nick for s in sides])  # the folded part
    if isinstance(choices, str):
        return _page(tournaments.open_event(store, evening), 400, choices)
    try:
        typed_rounds = (form.rounds.data or "").strip()
        rounds = int(typed_rounds[:3]) if typed_rounds.isdecimal() else None
        counts = bool(form.counts.data)
        name = form.name.data or ""
        late = request.form.get("late", "half")
        late = late if late in CREDITS else "half"
        chosen = bool(form.accelerated.data)  # accel
        if request.form.get("league") == "yes":  # league: an event across club evenings
            event = _start_league(sides, counts, name, late, choices)
        else:
            event = tournaments.start(
                store,
                evening,
                size,
                sides,
                counts,
                name,
                rounds,
                kiosk_now(),
                origin=OWNER,
                late=late,
                choices=choices,
                accelerated=chosen,
            )
    except SemedoriError as error:
        status = 400 if isinstance(error, HistoryError) else 503
        return _page(tournaments.open_event(store, evening), status, _event_problem(error))
    flash(_("The event has started: round 1 is on."), "ok")
    return redirect(url_for("event.show", event_id=event.id))


def _start_league(sides: list[Side], counts: bool, name: str, late: str, choices: Choices = NO_CHOICES) -> Tournament:
    """league: the start form's league: rounds per evening and evenings (each a small number), absent players."""
    per_raw, evenings_raw = (request.form.get(f, "").strip()[:2] for f in ("per_evening", "evenings"))
    per_evening = max(1, int(per_raw)) if per_raw.isdecimal() else 2
    evenings = max(1, int(evenings_raw)) if evenings_raw.isdecimal() else 6
    absent = request.form.get("absent", "zero")
    absent = absent if absent in CREDITS else "zero"
    return leagues.start_league(
        get_store(),
        _evening(),
        _size(),
        sides,
        counts,
        name,
        per_evening * evenings,
        per_evening,
        absent,
        late,
        kiosk_now(),
        origin=OWNER,
        choices=choices,
    )


def _event_problem(error: SemedoriError) -> str:
    """An event's refusal, said kindly."""
    if isinstance(error, HistoryError) and error.code == "event-too-small":
        return _("An event needs at least 4 players. Tick more players, or check more players in first.")
    if isinstance(error, HistoryError) and error.code == "event-open":
        return _("Tonight's event is still open. Close it before starting a new one.")
    if isinstance(error, HistoryError) and error.code == "accelerated-too-far":  # accel
        return _(
            "Not everyone can be paired within the handicap cap of an accelerated event: %(nick)s is too far from "
            "all the others. Untick them, or start an ordinary event.",
            nick=error.params.get("nick", ""),
        )
    return player_message(error)


@bp.post("/event/<int:event_id>/result")
@answers_stale_form
def result(event_id: int) -> WerkzeugResponse | tuple[str, int]:
    """One tap on a board: who won and how. A repeated or late tap saves nothing and says so kindly."""
    store = get_store()
    event = tournaments.get(store, event_id)
    form = ResultForm()
    if not form.validate_on_submit():
        return _page(event, 400, stale_form())
    if event is None:
        return _page(None, 404, _("That event is not there any more."))
    tapped = _tap(form)
    if isinstance(tapped, str):
        return _page(event, 400, tapped)
    round_number, board, outcome, by = tapped
    if outcome is None:
        return _page(event, 400, _("Tap who won, and how."))
    try:
        status, seat = tournaments.record_result(
            store, event_id, round_number, board, outcome, by, kiosk_now(), origin=phone_origin()
        )
    except SemedoriError as error:
        return _page(event, 503 if isinstance(error, StoreError) else 400, player_message(error))
    anchor = f"board-{board}"
    said = (
        result_text(seat, tournaments.how_of(store, event_id).get((round_number, board)))
        if seat and seat.result
        else ""
    )
    if status == tournaments.SAVED:
        flash(_("Saved: %(result)s. Thank you!", result=said), "ok")
        after = tournaments.get(store, event_id)
        if after is not None and after.current != round_number:
            anchor = "my-taps"  # the round moved on: the undo of this tap is in "your taps" above the boards
    elif status == tournaments.ALREADY:
        flash(_("That result was already saved. Thank you!"), "ok")
    elif status == tournaments.TAKEN:
        flash(_("This game already has a result: %(result)s. If that is wrong, tell the owner.", result=said), "error")
    else:
        flash(_not_open(status, seat, tournaments.get(store, event_id)), "error")
        anchor = "boards"
    response = redirect(url_for("event.show", event_id=event_id, _anchor=anchor))
    return remember_phone(response)


def _said(seat: Seat | None, round_number: int, board: int, event_id: int) -> str:
    """A board's result in words, once it has one ("" before)."""
    if seat is None or not seat.result:
        return ""
    return result_text(seat, tournaments.how_of(get_store(), event_id).get((round_number, board)))


def _not_open(refused: str, seat: Seat | None, event: Tournament | None) -> str:
    """Why a tap's board is not open to it (``tournament_store.tap_board``), in the player's words."""
    if refused == tournaments.BYE:
        return _("That board is a bye: nobody plays on it this round, so there is no result.")
    if refused == tournaments.LEFT and seat is not None and event is not None:
        gone = next((n for n in (seat.a, seat.b) if n is not None and event.withdrawn_from(n) is not None), None)
        if gone is not None:
            return _("%(nick)s went home: you have the bye.", nick=_shown()(gone))
    return _("That round is over, or the event was closed. Here is what is on now.")


def _tap(form: ResultForm, clear: bool = False) -> tuple[int, int, str | None, object] | str:
    """A board's tap from a form: (round, board, outcome, how); outcome None for "clear" (when allowed).

    A string: what is wrong with it, to say on the page.
    """
    tap = request.form.get("tap", "")
    outcome, _sep, how = tap.partition(":")
    round_raw, board_raw = form.round.data or "", form.board.data or ""
    if not round_raw.isdecimal() or not board_raw.isdecimal():
        return _("Tap who won, and how.")
    round_number, board = int(round_raw[:6]), int(board_raw[:6])
    if clear and tap == "clear":
        return round_number, board, None, None
    if outcome not in (A_WINS, B_WINS, DRAW):
        return _("Tap who won, and how.")
    if outcome != DRAW and how not in ("points", "resignation", "other"):
        return _("Tap who won, and how.")
    by: object = how
    if how == "points":
        typed = decimal_point(form.points.data)[:POINTS_LIMIT]
        if not typed:
            return _("Type the points first, then tap “won by points”.")
        number = typed_number(typed)
        by = typed if number is None else number  # other text ("1_0", "1e3") the core refuses in the form's words
    return round_number, board, outcome, by


@bp.post("/event/<int:event_id>/correct")
@answers_stale_form
@owner_required
def correct(event_id: int) -> WerkzeugResponse | tuple[str, int]:
    """The owner corrects a decided board (another winner or how) or clears it to be tapped again.

    The history's game is edited or voided, so the board replays as if it had been right from the start.
    """
    # Long: a view's one form: its checks, then one message for each answer of the correction.
    store = get_store()
    event = tournaments.get(store, event_id)
    form = CorrectForm()
    if not form.validate_on_submit():
        return _page(event, 400, stale_form())
    if event is None:
        return _page(None, 404, _("That event is not there any more."))
    tapped = _tap(form, clear=True)
    if isinstance(tapped, str):
        return _page(event, 400, tapped)
    round_number, board, outcome, by = tapped
    seen_raw = (form.fixes.data or "").strip()
    seen = int(seen_raw[:6]) if seen_raw.isdecimal() else None
    if seen is None:
        return _page(event, 400, stale_form())
    try:
        status, seat = tournaments.correct(
            store, event_id, round_number, board, outcome, by, kiosk_now(), origin=OWNER, seen=seen
        )
    except SemedoriError as error:
        return _page(event, 503 if isinstance(error, StoreError) else 400, player_message(error))
    said = (
        result_text(seat, tournaments.how_of(store, event_id).get((round_number, board)))
        if seat and seat.result
        else ""
    )
    anchor = f"fix-{round_number}-{board}"
    if status == tournaments.SAVED:
        if outcome is None:
            flash(_("The result was cleared: the players can tap this board again."), "ok")
        else:
            flash(_("Corrected: %(result)s. The board was replayed.", result=said), "ok")
    elif status == tournaments.ALREADY:
        flash(_("That board already says so; nothing was changed."), "ok")
    elif status == tournaments.TAKEN:
        message = (
            _("Someone changed this board just now: %(result)s.", result=said)
            if said
            else _("Someone changed this board just now: it has no result now.")
        )
        return _page(tournaments.get(store, event_id), 409, f"{message} {_('Look again before changing it.')}")
    elif status == tournaments.UNDECIDED:
        return _page(event, 400, _("This board has no result yet: tap it as the players do."))
    elif status == tournaments.LEFT:
        return _page(event, 400, _("This board cannot be cleared: a player went home. Correct the winner instead."))
    else:
        return _page(event, 400, _("That board is not there, or it can no longer be changed."))
    return redirect(url_for("event.show", event_id=event_id, _anchor=anchor))


@bp.post("/event/<int:event_id>/withdraw")
@answers_stale_form
@owner_required
def withdraw(event_id: int) -> WerkzeugResponse | tuple[str, int]:
    """The owner withdraws a player who went home: no more games for them; results already in stay."""
    store = get_store()
    event = tournaments.get(store, event_id)
    form = WithdrawForm()
    if not form.validate_on_submit():
        return _page(event, 400, stale_form())
    if event is None:
        return _page(None, 404, _("That event is not there any more."))
    nick = (form.player.data or "").strip()[:100]
    try:
        status, _after = tournaments.withdraw(store, event_id, nick, kiosk_now(), origin=OWNER)
    except SemedoriError as error:
        return _page(event, 503 if isinstance(error, StoreError) else 400, player_message(error))
    nick = next((p.nick for p in event.players if nick_key(p.nick) == nick_key(nick)), nick)  # the event's spelling
    if status == tournaments.SAVED:
        said = _("%(nick)s went home: no more games in this event. Their opponents get the bye instead.", nick=nick)
        flash(said, "ok")
    elif status == tournaments.ALREADY:
        flash(_("%(nick)s had already gone home.", nick=nick), "ok")
    elif status == tournaments.NOBODY:
        return _page(event, 400, _("Pick a player of this event."))
    else:
        return _page(event, 400, _("This event is over or closed: nobody can be withdrawn now."))
    return redirect(url_for("event.show", event_id=event_id, _anchor="boards"))


@bp.post("/event/<int:event_id>/close")
@answers_stale_form
@owner_required
def close(event_id: int) -> WerkzeugResponse | tuple[str, int]:
    """The owner closes the event: its results and exports stay, no more taps are taken.

    With rounds not played yet the page asks first ("9 rounds not played yet"); a closed event can be reopened.
    """
    store = get_store()
    form = CloseForm()
    event = tournaments.get(store, event_id)
    if not form.validate_on_submit():
        return _page(event, 400, stale_form())
    if event is None:
        return _page(None, 404, _("That event is not there any more."))
    if event.unplayed and form.sure.data != "yes" and not event.closed:
        return _page(event, 200, confirm_close=True)
    try:
        closed = tournaments.close(store, event_id, kiosk_now(), origin=OWNER)
    except StoreError as error:
        return _page(event, 503, player_message(error))
    if closed:
        flash(_("The event is closed. Its standings and files stay here."), "ok")
    return redirect(url_for("event.show", event_id=event_id))


@bp.post("/event/<int:event_id>/reopen")
@answers_stale_form
@owner_required
def reopen(event_id: int) -> WerkzeugResponse | tuple[str, int]:
    """The owner reopens a closed event (closed by mistake): taps are taken again."""
    store = get_store()
    form = CloseForm()
    event = tournaments.get(store, event_id)
    if not form.validate_on_submit():
        return _page(event, 400, stale_form())
    if event is None:
        return _page(None, 404, _("That event is not there any more."))
    try:
        status = tournaments.reopen(store, event_id, kiosk_now(), origin=OWNER)
    except SemedoriError as error:
        if isinstance(error, HistoryError) and error.code == "event-open":
            return _page(event, 409, _("Another event is open tonight. Close it before reopening this one."))
        return _page(event, 503 if isinstance(error, StoreError) else 400, player_message(error))
    if status == tournaments.SAVED:
        flash(_("The event is open again: the players can tap the boards."), "ok")
    return redirect(url_for("event.show", event_id=event_id, _anchor="boards"))


@bp.post("/event/<int:event_id>/undo")
@answers_stale_form
def undo(event_id: int) -> WerkzeugResponse | tuple[str, int]:
    """The phone that tapped a board's result takes it back (a wrong tap), within the undo window."""
    store = get_store()
    event = tournaments.get(store, event_id)
    form = UndoForm()
    if not form.validate_on_submit():
        return _page(event, 400, stale_form())
    if event is None:
        return _page(None, 404, _("That event is not there any more."))
    round_raw, board_raw = form.round.data or "", form.board.data or ""
    if not round_raw.isdecimal() or not board_raw.isdecimal():
        return _page(event, 400, stale_form())
    round_number, board = int(round_raw[:6]), int(board_raw[:6])
    origin = phone_origin() if request.cookies.get(PHONE_COOKIE) else None
    try:
        status, _seat = tournaments.undo(store, event_id, round_number, board, origin, _undo_window(), kiosk_now())
    except SemedoriError as error:
        return _page(event, 503 if isinstance(error, StoreError) else 400, player_message(error))
    if status == tournaments.SAVED:
        flash(_("Your tap was taken back: tap the right result."), "ok")
    elif status == tournaments.ALREADY:
        flash(_("That board has no result now: tap the right one."), "ok")
    elif status == tournaments.NOT_YOURS:
        return _page(event, 409, _("Only the phone that tapped this result can take it back. Ask the owner."))
    elif status == tournaments.TOO_LATE:
        return _page(event, 409, _("It is too late to take this tap back. Ask the owner to correct it."))
    elif status == tournaments.LEFT:
        return _page(event, 409, _("A player of this board went home: ask the owner to correct it."))
    else:
        return _page(event, 409, _("That round is over, or the event was closed. Here is what is on now."))
    return redirect(url_for("event.show", event_id=event_id, _anchor=f"board-{board}"))


def _download(text: str, name: str, mimetype: str) -> Response:
    response = Response(text, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@bp.get("/event/<int:event_id>/event-<int:number>.h9")
@owner_required
def export_h9(event_id: int, number: int) -> WerkzeugResponse:
    """The event as an EGD tournament table (.h9), for a club that submits it."""
    event = tournaments.get(get_store(), event_id)
    if event is None or number != event_id:
        return _gone()
    return _download(to_h9(event, get_store().config), f"event-{event_id}.h9", "text/plain; charset=utf-8")


@bp.get("/event/<int:event_id>/event-<int:number>.xml")
@owner_required
def export_opengotha(event_id: int, number: int) -> WerkzeugResponse:
    """The event as an OpenGotha tournament file (pairgoth imports it too)."""
    event = tournaments.get(get_store(), event_id)
    if event is None or number != event_id:
        return _gone()
    return _download(to_opengotha(event, get_store().config), f"event-{event_id}.xml", "application/xml")
