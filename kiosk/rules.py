"""How one magnet moves after a game (docs/rules.md §4), as pure functions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, TypeVar

from kiosk.events import RESIGNATION, Margin, PlayerAdded
from kiosk.handicap import Handicap
from kiosk.scale import Quarters, from_grade

if TYPE_CHECKING:
    from kiosk.config import Config

Week = tuple[int, int]  # (ISO year, ISO week)
M = TypeVar("M")  # a magnet, as the board or the replay holds it


def week_of(at: datetime) -> Week:
    """The calendar week (Monday to Sunday, club time) that decides a free first loss (§4, §8)."""
    iso = at.isocalendar()
    return (iso[0], iso[1])


def week_start(at: datetime) -> datetime:
    """Midnight of the Monday that starts ``at``'s week."""
    return datetime.combine(at.date() - timedelta(days=at.weekday()), time())


# The undo window: for this long after a tap, the phone that made it may take it back (a game, an
# event's result), with one tap and no owner. One number for every view that offers an undo.
UNDO_MINUTES = 10

ARROWS = {"clear-win": 2, "win": 1, "draw": 0, "loss": -1, "clear-loss": -2}
# Every why a verdict gives: the result, or why it moved no arrow (the API's list of them).
WHYS = ("win", "clear-win", "draw", "loss", "clear-loss", "free-loss", "training", "vs-guest", "not-rated")


def is_clear(by: Margin, clear_margin: Fraction) -> bool:
    """A clear result: resignation, or at least the size's clear margin (exactly is clear)."""
    # Points first: a Fraction compared with the word "resignation" runs Fraction.__eq__, Python code,
    # once per game of a replay.
    if isinstance(by, Fraction):
        return by >= clear_margin
    return by == RESIGNATION


def result_for(won: bool | None, clear: bool) -> str:
    """The result for one player: ``won`` None is a draw."""
    if won is None:
        return "draw"
    if won:
        return "clear-win" if clear else "win"
    return "clear-loss" if clear else "loss"


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the game does to one magnet."""

    arrows: int
    why: str
    uses_free_loss: bool = False
    # A loss that counts towards a guest becoming a member (§2): any loss not kept still
    # by §4's exceptions 1-3 (a free loss and a loss at 0 count).
    rated_loss: bool = False


def verdict(
    result: str,
    handicap: Handicap,
    is_white: bool,
    is_member: bool,
    opponent_is_guest: bool,
    free_loss_unused: bool,
    at_floor: bool = False,
    rated: bool = True,
) -> Verdict:
    """The arrows for a player with a magnet on the game's size, and why (§4)."""
    return verdict_of(
        result, handicap.training, is_white, is_member, opponent_is_guest, free_loss_unused, at_floor, rated
    )


# Unbounded: the cases are few (five results and seven flags), and replay asks tens of
# thousands of times. Keyed by plain values: a handicap's own hash is Python code, run on
# every lookup, and of the handicap only whether it is a training game matters here.
@cache
def verdict_of(
    result: str,
    training: bool,
    is_white: bool,
    is_member: bool,
    opponent_is_guest: bool,
    free_loss_unused: bool,
    at_floor: bool = False,
    rated: bool = True,
) -> Verdict:
    """``verdict`` with the handicap given as whether it is a training game (what replay calls)."""
    if not rated:
        # A teaching game, a simultaneous, a rengo or an event-only game moves no magnet, uses
        # no free loss and is no step towards membership (§4): it says little about strength.
        return Verdict(0, "not-rated")
    if training and is_white:
        return Verdict(0, "training")
    if is_member and opponent_is_guest:
        return Verdict(0, "vs-guest")
    arrows = ARROWS[result]
    if arrows < 0:
        if at_floor:
            # Zero has no arrow down: nothing to forgive, so the week's free loss stays
            # unused (§4); yet the guest has reached where they stand, so it counts (§2).
            return Verdict(0, result, rated_loss=True)
        if free_loss_unused:
            return Verdict(0, "free-loss", uses_free_loss=True, rated_loss=True)
        return Verdict(arrows, result, rated_loss=True)
    return Verdict(arrows, result)


def magnet_used(on_size: M | None, magnets: Mapping[int, M], primary: int) -> M:
    """The magnet a game goes by (§3): a player's magnet on the game's size, else the primary one as an approximation.

    ``on_size`` is the player's magnet on the game's size (None: none), ``magnets`` all of theirs
    by size, ``primary`` the size of the primary magnet.
    """
    return magnets[primary] if on_size is None else on_size


def white_of(a: Quarters, b: Quarters, handicap: Handicap) -> int | None:
    """Who takes White (§3): the stronger of two players (0 or 1) in a handicap game; None in an even one."""
    if handicap.even:
        return None
    return 0 if a > b else 1


def club_now(config: Config, utc_now: datetime) -> datetime:
    """The club's local time (naive, as events carry it) for an aware UTC instant."""
    return utc_now.astimezone(config.zone).replace(tzinfo=None, second=0, microsecond=0)


def starting_field(event: PlayerAdded, config: Config) -> Quarters:
    """The field a new magnet hangs at (docs/rules.md §2): from the declared grade, else its strength, else 0."""
    if event.kyu is not None or event.dan is not None:
        return from_grade(event.kyu, event.dan, config.top)
    return event.strength or 0


def shown_week(now: datetime) -> datetime:
    """The start of the week the wall's week page shows: this week, but on a Monday the week just gone (and today)."""
    start = week_start(now)
    return start - timedelta(days=7) if now.weekday() == 0 else start
