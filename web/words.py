"""The sentences pages show about handicaps, moves and milestones, in the user's language."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

from flask_babel import gettext as _
from flask_babel import ngettext

from kiosk.board import GameResult, Move
from kiosk.errors import HistoryError, SemedoriError
from kiosk.events import RESIGNATION, Margin
from kiosk.handicap import Handicap, komi
from kiosk.names import resolve
from kiosk.scale import decimal_mark, format_strength


def language() -> str:
    """The current language code (imported late: web.i18n imports this module's neighbours)."""
    from web.i18n import language as current

    return current()


def strength(q: int) -> str:
    """A strength as the board writes it, with a decimal comma in Polish."""
    return decimal_mark(format_strength(q), language())


def komi_text() -> str:
    """The komi as the club writes it (kiosk.handicap.KOMI): "6.5", "6,5" in Polish."""
    return komi(language())


def handicap_line(handicap: Handicap) -> str:
    """What Black gets, in one line: "2 starting moves, 0 prisoners" or the even game."""
    if handicap.even:
        # a no-break space: a phone never puts the number on a line of its own
        return _("Even game: nigiri, komi\u00a0%(komi)s", komi=komi_text())
    if handicap.moves == 1:
        moves = _("Black plays first, no komi")
    else:
        moves = ngettext("%(num)d starting move", "%(num)d starting moves", handicap.moves)
    prisoners = ngettext("%(num)d prisoner", "%(num)d prisoners", handicap.prisoners)
    return f"{moves}, {prisoners}"


def colours_line(white: str | None, black: str | None) -> str:
    """Who takes which colour; nigiri for an even game."""
    if white is None or black is None:
        return _("Colours by nigiri; White gets 6 prisoners and wins ties.")
    return _("%(white)s takes White, %(black)s takes Black.", white=white, black=black)


def training_line(handicap: Handicap, white: str | None) -> str:
    """The training-game note, or nothing."""
    if not handicap.training or white is None:
        return ""
    return _("Training game: %(white)s (White) does not move.", white=white)


def why(move: Move) -> str:
    """Why a magnet moved, or did not: "first loss this week: stays at 34.5"."""
    before, after = strength(move.before), strength(move.after)
    texts = {
        "win": _("win: %(before)s → %(after)s", before=before, after=after),
        "clear-win": _("clear win, 2 arrows up: %(before)s → %(after)s", before=before, after=after),
        "draw": _("draw: stays at %(after)s", after=after),
        "loss": _("loss: %(before)s → %(after)s", before=before, after=after),
        "clear-loss": _("clear loss, 2 arrows down: %(before)s → %(after)s", before=before, after=after),
        "free-loss": _("first loss this week: stays at %(after)s", after=after),
        "training": _("training game: White does not move, stays at %(after)s", after=after),
        "vs-guest": _("vs guest: a member does not move against a guest, stays at %(after)s", after=after),
        "not-rated": _("not a rated game: stays at %(after)s", after=after),
    }
    if move.why in ("loss", "clear-loss") and move.before == move.after == 0:
        # docs/rules.md §2, §4: nothing to forgive at 0, yet a guest's loss there still counts.
        return _("loss: stays at 0 (no arrow below zero; this week's free loss is kept, a guest's loss still counts)")
    return texts.get(move.why, move.why)


def kind_name(kind: str) -> str:
    """A game's kind as players say it: "teaching game" (docs/rules.md §4)."""
    names = {
        "rated": _("rated game"),
        "teaching": _("teaching game"),
        "simultaneous": _("simultaneous game"),
        "rengo": _("rengo (pair go)"),
        "event": _("event game"),
    }
    return names.get(kind, kind)


def not_rated_line(game: GameResult) -> str:
    """Why the magnets of a game that is not rated stayed, plainly; nothing for a rated game."""
    if game.rated:
        return ""
    return _(
        "Kind of game: %(kind)s. It is not a rated game, so the magnets did not move and no free loss "
        "was used. Only rated games move magnets; this one stays in the history.",
        kind=kind_name(game.kind),
    )


def milestone(item: tuple[str, ...]) -> str:
    """A milestone worth announcing after a game."""
    if item[0] == "member":
        return _("%(nick)s is now a member of the club board!", nick=item[1])
    if item[0] == "even":
        return _("%(a)s and %(b)s will now play even for the first time!", a=item[1], b=item[2])
    return " ".join(item)


def margin(by: Margin) -> str:
    """A margin as people say it."""
    if by == RESIGNATION:
        return _("by resignation")
    if isinstance(by, Fraction):
        points = decimal_mark(format_strength(int(by * 4)), language())
        return ngettext("by %(points)s point", "by %(points)s points", int(by), points=points)
    return ""


def result_line(game: GameResult) -> str:
    """Who won, and by how much."""
    if game.winner is None:
        return _("Draw")
    text = _("%(winner)s won", winner=game.winner)
    by = margin(game.by)
    return f"{text} {by}".strip()


# --- what went wrong, said to a child, with the fix ------------------------------------------


def player_message(error: SemedoriError) -> str:
    """A core error as a player reads it on the phone: short, kind, gender neutral, with the fix.

    No line numbers (a backdated game is replayed among others: the player sees only their game)
    and no quotes around names. Codes without their own sentence fall back to the core's text.
    """
    # Long: a dispatch table: one sentence for each error code a player can meet on the phone.
    from web.i18n import message

    if not isinstance(error, HistoryError):
        return message(error)
    p = {k: ("" if v is None else str(v)) for k, v in error.params.items()}
    # numbers with the language's decimal mark, as the phone writes them
    p.update({k: decimal_mark(p[k], language()) for k in ("lower", "upper", "value") if k in p})
    texts = {
        "unknown-player": lambda: (
            _("%(nick)s was not on the board yet at that time. Check the date, or add the player first.", **p)
            if error.line is not None
            else _("%(nick)s is not on the board yet. Check the name, or add a new player.", **p)
        ),
        "not-on-board-yet": lambda: _(
            "%(nick)s was not on the board yet at that time. Check the date, or add the player first.", **p
        ),
        "same-player": lambda: _("Player 1 and player 2 are both %(nick)s. Pick two different players.", **p),
        "bad-nick": lambda: _("Type a nickname: 1 to %(limit)s letters.", **p),
        "invisible-nick": lambda: _("The nickname has an invisible character. Type it again with plain letters."),
        "bad-at": lambda: _("The date of the game is not clear. Pick it again from the calendar."),
        "future-at": lambda: _("The game's time is in the future. Pick when the game was played."),
        "bad-size": lambda: _("Pick the board: 9×9, 13×13 or 19×19."),
        "bad-grade": lambda: _("A grade is a number: 1 to 50 kyu, or 1 to 9 dan. Type just the number."),
        "draw-even": lambda: _("An even game cannot end in a draw (komi is %(komi)s). Tap who won.", komi=komi_text()),
        "draw-margin": lambda: _("A draw has no points. Leave the points empty."),
        "bad-kind": lambda: _("Pick what kind of game it was: a rated game, or one of the others under the question."),
        "bad-margin": lambda: _("Type the points as a number from 0.5 to %(limit)s, like 7 or 7.5.", **p),
        "even-margin": lambda: _(
            "In an even game the points always end in .5 (komi is %(komi)s). Did you mean %(lower)s or %(upper)s?",
            komi=komi_text(),
            **p,
        ),
        "bad-winner": lambda: _("Tap who won: one of the two players, or draw."),
        "bad-players": lambda: _("Type both players' nicknames."),
        "nick-taken": lambda: _("%(nick)s is already on the board. Pick that name, or choose another nickname.", **p),
        "nick-unavailable": lambda: _(
            "%(nick)s cannot be used as a nickname here. Choose another one, or ask the club owner.", **p
        ),
        "nick-looks-like": lambda: _(
            "%(nick)s looks just like %(other)s, who is already on the board. If you are %(other)s, use that name; "
            "otherwise choose a nickname that looks different.",
            **p,
        ),
        "nick-renamed": lambda: _("%(nick)s was someone's old nickname. Choose another nickname.", **p),
        "bad-strength": lambda: (
            _("%(value)s is not a field of the board. The nearest fields are %(lower)s and %(upper)s.", **p)
            if "upper" in p
            else _("%(value)s is not a field of the board. Type a strength like 27 or 27.5.", **p)
        ),
        "too-old": lambda: ngettext(
            "The game was played more than %(num)d day ago (%(value)s). Only the club owner can enter older games.",
            "The game was played more than %(num)d days ago (%(value)s). Only the club owner can enter older games.",
            int(p.get("days") or 0),
            value=p.get("value", ""),
        ),
        "strengths-or-nicks": lambda: _("Type two strengths, or two nicknames, not one of each."),
        "no-magnet": lambda: _("%(nick)s has no magnet on %(size)s×%(size)s.", **p),
        "undo-refused": lambda: _(
            "Only the phone that recorded a game can undo it, and only for %(minutes)s minutes.", **p
        ),
        "confirm-own": lambda: _("This phone recorded that game itself. The other player's phone confirms it."),
        "unknown-game": lambda: _("That game is not on the board any more (it was undone or voided)."),
    }
    text = texts.get(error.code)
    if text is None:
        return HistoryError(error.code, **error.params).message(language()).replace("'", "")
    return text()


# --- the owner's audit log, in plain words ----------------------------------------------------


class AuditLine(NamedTuple):
    """One audit entry as the owner reads it: a sentence, a link to the game, and who did it."""

    text: str
    link: str | None
    who: str
    when: str


def _number(value: object) -> str:
    return decimal_mark(str(value), language())


def who_entered(origin: str | None) -> str:
    """Who entered a history line, without tokens or codes."""
    if origin == "owner":
        return _("the owner")
    if origin and origin.startswith("phone:"):
        return _("a phone at the table")
    return {
        "api": _("an app (the API)"),
        "import": _("an imported file"),
        "cli": _("the kiosk's command line"),
    }.get(origin or "", _("the kiosk"))


def audit_line(entry: Any, when: str) -> AuditLine:
    """What an owner's action did, naming the players and linking to the game."""
    # Long: a dispatch table: one sentence for each kind of owner action in the history.
    from flask import url_for

    from web.request_store import get_store

    line: dict[str, Any] = entry.line
    kind = line.get("type")
    link = None
    game_id = line.get("game")
    if kind in ("void", "edit", "confirm") and isinstance(game_id, int):
        link = url_for("owner.game", game_id=game_id)
        played = get_store().game_entry(game_id)
        players = played.line.get("players", ["?", "?"]) if played else ["?", "?"]
        a, b = ([*players, "?", "?"])[:2]
        if kind == "void":
            text = _("Voided the game %(a)s – %(b)s.", a=a, b=b)
        elif kind == "confirm":
            text = _("Confirmed the game %(a)s – %(b)s: both players' phones recorded it.", a=a, b=b)
        else:
            text = _("Corrected the game %(a)s – %(b)s.", a=a, b=b)
            if "kind" in line:
                text += " " + _("Now a %(kind)s: it moves no magnet.", kind=kind_name(str(line["kind"])))
    elif kind == "game":
        a, b = ([*list(line.get("players", [])), "?", "?"])[:2]
        text = _("Recorded the game %(a)s – %(b)s.", a=a, b=b)
        if "kind" in line:
            text += " " + _("A %(kind)s: it moves no magnet.", kind=kind_name(str(line["kind"])))
        if isinstance(line.get("id"), int):
            link = url_for("recording.game", game_id=line["id"])
    elif kind == "correction":
        text = _(
            "Quick correction of %(nick)s on %(size)s×%(size)s, agreed with %(member)s.",
            nick=line.get("nick", "?"),
            size=line.get("size", "?"),
            member=line.get("with", "?"),
        )
        if "strength" in line:
            text += " " + _("New strength: %(value)s.", value=_number(line["strength"]))
    elif kind == "shift":
        amount = _number(line.get("amount", "?"))
        if line.get("nicks"):
            text = _("Shifted %(nicks)s by %(amount)s.", nicks=", ".join(line["nicks"]), amount=amount)
        elif line.get("size"):
            text = _("Shifted every magnet on %(size)s×%(size)s by %(amount)s.", size=line["size"], amount=amount)
        else:
            text = _("Shifted every magnet by %(amount)s.", amount=amount)
    elif kind in ("merge", "unmerge"):
        # The players' nicknames, also for a merge an older kiosk logged as typed ("hela" is Hela).
        store = get_store()
        nicks = [m.nick for m in store.magnets()] + [duplicate for duplicate, _kept in store.merges()]
        a, b = (resolve(str(line.get(key, "?")), nicks) or str(line.get(key, "?")) for key in ("from", "into"))
        if kind == "merge":
            text = _("Merged %(a)s into %(b)s.", a=a, b=b)
        else:
            text = _("Undid the merge of %(a)s into %(b)s.", a=a, b=b)
    elif kind == "rename":
        text = _("Renamed %(a)s to %(b)s.", a=line.get("from", "?"), b=line.get("to", "?"))
    elif kind == "retire":
        text = _(
            "Took %(nick)s's %(size)s×%(size)s magnet off the wall.",
            nick=line.get("nick", "?"),
            size=line.get("size", "?"),
        )
    elif kind == "restore":
        text = _(
            "Put %(nick)s's %(size)s×%(size)s magnet back on the wall.",
            nick=line.get("nick", "?"),
            size=line.get("size", "?"),
        )
    elif kind == "player":
        text = _("Added %(nick)s on %(size)s×%(size)s.", nick=line.get("nick", "?"), size=line.get("size", "?"))
    elif kind == "note":
        text = _("Note: %(note)s", note=system_note(str(line.get("note", ""))))
    elif kind == "rules":
        when = str(line.get("at", "?")).replace("T", " ")
        text = _("Changed the rules from %(at)s: %(what)s", at=when, what=_rules(line))
    else:
        text = str(kind)
    return AuditLine(text, link, who_entered(entry.origin), when)


def _rules(line: dict[str, Any]) -> str:
    """What a rule change changed, in the reader's language (kiosk.rulechanges says it)."""
    from kiosk.errors import HistoryError
    from kiosk.events import RuleChange, parse_event
    from kiosk.rulechanges import describe
    from web.i18n import language

    try:
        event = parse_event(line)
    except HistoryError:
        return "?"
    return "; ".join(describe(event, language())) if isinstance(event, RuleChange) else "?"


def system_note(note: str) -> str:
    """A note the kiosk itself wrote into the history (in English, for the file), said in the reader's language."""
    import re

    if note == "owner PIN set on the web (first start)":
        return _("the owner PIN was set (first start).")
    if found := re.fullmatch(r"the kiosk's clock set by hand from (.*) to (.*)", note):
        return _("the kiosk's clock was set by hand from %(before)s to %(after)s.", before=found[1], after=found[2])
    if note == "undone on the phone that recorded it":
        return _("undone on the phone that recorded it.")
    if found := re.fullmatch(r"counted again after the void of game (\d+)", note):
        return _("counted again after the void of game %(game)s.", game=found.group(1))
    if found := re.fullmatch(r"history imported from (.*): (\d+) events, the old history replaced", note):
        return ngettext(
            "history imported from %(file)s: %(num)d event; the old history was replaced.",
            "history imported from %(file)s: %(num)d events; the old history was replaced.",
            int(found.group(2)),
            file=found.group(1),
        )
    if note.startswith("settings: "):
        return _("settings changed: %(what)s", what=note.removeprefix("settings: "))
    return note


def privacy_line(nick: str, what: dict[str, Any], when: str) -> AuditLine:
    """A privacy change as the owner's audit log says it (kiosk.store_privacy keeps them; the history does not)."""
    from kiosk.privacy import AS_CLUB, INITIALS, NICK, SHORT

    modes = {NICK: _("the nickname"), INITIALS: _("initials"), SHORT: _("a short name")}
    if "club" in what:
        text = _("Privacy: players are now shown by %(how)s.", how=modes.get(str(what["club"]), "?"))
    elif what.get("minors") == AS_CLUB:
        text = _("Privacy: minors are now shown as the club shows everyone.")
    elif "minors" in what:
        text = _("Privacy: minors are now shown by %(how)s.", how=modes.get(str(what["minors"]), "?"))
    else:
        shown = what.get("show")
        parts = [
            _("shown by %(how)s", how=modes.get(str(shown), "?")) if shown else _("shown as the club shows everyone")
        ]
        if what.get("short"):
            parts.append(_("short name %(name)s", name=what["short"]))
        parts.append(_("hidden from public pages") if what.get("hidden") else _("on the public pages"))
        if what.get("minor"):
            consent = what.get("consent")
            parts.append(
                _("a minor, consent given")
                if consent is True
                else _("a minor, consent not given")
                if consent is False
                else _("a minor")
            )
        text = _("Privacy of %(nick)s: %(what)s.", nick=nick or "?", what="; ".join(parts))
    return AuditLine(text, None, _("the owner"), when)
