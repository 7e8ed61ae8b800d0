"""Who takes White and what Black gets, for two players or two strengths (docs/rules.md §3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from kiosk.board import Magnet
from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.events import nick_key
from kiosk.handicap import Handicap, handicap_for
from kiosk.rules import magnet_used, white_of
from kiosk.scale import Quarters, decimal_point, format_strength, is_field, quarters


@dataclass(frozen=True, slots=True)
class Side:
    """One player of a pairing: the strength used, and whether it is an occasional size."""

    nick: str
    strength: Quarters
    guest: bool
    occasional: bool  # no magnet on this size: the primary magnet's strength stands in


@dataclass(frozen=True, slots=True)
class Pairing:
    """The handicap of a pairing; ``white`` is None for an even game (nigiri, komi 6.5)."""

    size: int
    sides: tuple[Side, Side]
    difference: Quarters
    handicap: Handicap

    @property
    def white(self) -> Side | None:
        """The stronger player, who takes White in a handicap game."""
        white = white_of(self.sides[0].strength, self.sides[1].strength, self.handicap)
        return None if white is None else self.sides[white]

    @property
    def black(self) -> Side | None:
        """The weaker player, who gets the starting moves and prisoners."""
        white = self.white
        return None if white is None else (self.sides[1] if white is self.sides[0] else self.sides[0])


def for_strengths(size: int, a: Quarters, b: Quarters, config: Config) -> Pairing:
    """The handicap between two strengths on a size (the calculator)."""
    sides = (Side(format_strength(a), a, False, False), Side(format_strength(b), b, False, False))
    return Pairing(size, sides, abs(a - b), handicap_for(abs(a - b), config.size_rules[size]))


def side_of(magnets: Sequence[Magnet], nick: str, size: int) -> Side:
    """A player's side on a size: that size's magnet, else the primary one."""
    key = nick_key(nick)
    own = [m for m in magnets if nick_key(m.nick) == key]
    if not own:
        raise HistoryError("unknown-player", nick=nick)
    by_size = {m.size: m for m in reversed(own)}  # the first one of a size, as the board lists them
    used = magnet_used(by_size.get(size), by_size, next((m for m in own if m.primary), own[0]).size)
    return Side(used.nick, used.strength, used.guest, size not in by_size)


def for_players(magnets: Sequence[Magnet], size: int, a: str, b: str, config: Config) -> Pairing:
    """The handicap between two players of the board on a size."""
    first, second = side_of(magnets, a, size), side_of(magnets, b, size)
    if nick_key(first.nick) == nick_key(second.nick):
        raise HistoryError("same-player", nick=first.nick)
    difference = abs(first.strength - second.strength)
    return Pairing(size, (first, second), difference, handicap_for(difference, config.size_rules[size]))


def _entry_strength(raw: str, top: Quarters) -> Quarters | None:
    """A calculator entry's strength (``27.5``, or ``27,5`` as Polish phones type it); None for a nickname."""
    text = decimal_point(raw)
    try:
        number = Fraction(text)
    except (ValueError, ZeroDivisionError):  # "1/0" is no number either
        return None  # a nickname
    try:
        strength: Quarters | None = quarters(number)
    except ValueError:
        strength = None  # between two quarters, so no field of the scale
    if strength is None or not is_field(strength, top):
        raise HistoryError("bad-strength", value=raw.strip())
    return strength


def for_entries(magnets: Sequence[Magnet], size: int, a: str, b: str, config: Config) -> Pairing:
    """The calculator: the handicap between two strengths, or between two players of the board."""
    strength_a, strength_b = _entry_strength(a, config.top), _entry_strength(b, config.top)
    if strength_a is not None and strength_b is not None:
        return for_strengths(size, strength_a, strength_b, config)
    if strength_a is not None or strength_b is not None:
        raise HistoryError("strengths-or-nicks")
    return for_players(magnets, size, a.strip(), b.strip(), config)
