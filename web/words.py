"""The sentences pages show about handicaps, moves and milestones, in the user's language."""

from __future__ import annotations

from fractions import Fraction

from flask_babel import gettext as _
from flask_babel import ngettext

from kiosk.board import GameResult, Move
from kiosk.events import RESIGNATION, Margin
from kiosk.handicap import Handicap
from kiosk.scale import format_strength


def strength(q: int) -> str:
    """A strength as the board writes it, with a decimal comma in Polish."""
    from web.i18n import language

    text = format_strength(q)
    return text.replace(".", ",") if language() == "pl" else text


def handicap_line(handicap: Handicap) -> str:
    """What Black gets, in one line: "2 starting moves, 0 prisoners" or the even game."""
    if handicap.even:
        return _("Even game: nigiri, komi 6.5")
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
    }
    if move.why in ("loss", "clear-loss") and move.before == move.after == 0:
        # RULES.md §2, §4: nothing to forgive at 0, yet a guest's loss there still counts.
        return _("loss: stays at 0 (no arrow below zero; this week's free loss is kept, a guest's loss still counts)")
    return texts.get(move.why, move.why)


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
        points = format_strength(int(by * 4))
        return ngettext("by %(points)s point", "by %(points)s points", int(by), points=points)
    return ""


def result_line(game: GameResult) -> str:
    """Who won, and by how much."""
    if game.winner is None:
        return _("Draw")
    text = _("%(winner)s won", winner=game.winner)
    by = margin(game.by)
    return f"{text} {by}".strip()
