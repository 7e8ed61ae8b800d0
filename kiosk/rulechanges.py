"""Rule changes in the history (docs/rules.md §5 and §7): the rules in force at any date.

A club's semedori.toml holds the rules in force from the beginning of its history; each
``rules`` event changes some of them from its own date on. Games before a change replay
under the rules then in force, so changing a rule never rewrites the past. Pure: no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from typing import Any

from kiosk.catalogue import translate
from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.events import RuleChange
from kiosk.handicap import SIZES, SizeRules
from kiosk.scale import Quarters, as_number

RULE_SETTINGS = ("size_rules", "guest_losses", "top")


def with_change(config: Config, change: RuleChange) -> Config:
    """The rules in force after ``change``: what it names replaced, the rest kept."""
    size_rules = dict(config.size_rules)
    for table in change.handicap:
        size_rules[table.size] = table
    return replace(
        config,
        size_rules=size_rules,
        guest_losses=change.guest_losses if change.guest_losses is not None else config.guest_losses,
        top=change.top if change.top is not None else config.top,
    )


def change_between(before: Config, after: Config, at: datetime, note: str | None = None) -> RuleChange:
    """The rule change that turns the rules ``before`` into those ``after`` (only what differs)."""
    tables = tuple(after.size_rules[s] for s in SIZES if after.size_rules[s] != before.size_rules[s])
    losses = after.guest_losses if after.guest_losses != before.guest_losses else None
    top = after.top if after.top != before.top else None
    if not tables and losses is None and top is None:
        raise HistoryError("rules-same")
    return RuleChange(at, tables, losses, top, note)


def rules_json(config: Config) -> dict[str, Any]:
    """The rules a replay depends on, as JSON-able data (exact: fractions as strings)."""
    return {
        "sizes": {
            str(size): [str(r.points_per_strength), str(r.clear_margin), r.training_moves]
            for size, r in sorted(config.size_rules.items())
        },
        "guest_losses": config.guest_losses,
        "top": config.top,
    }


def with_rules_json(config: Config, raw: dict[str, Any]) -> Config:
    """``config`` with the rules of ``rules_json``'s data."""
    from fractions import Fraction

    size_rules = {
        int(size): SizeRules(int(size), Fraction(points), Fraction(margin), moves)
        for size, (points, margin, moves) in raw["sizes"].items()
    }
    top: Quarters = raw["top"]
    return replace(config, size_rules=size_rules, guest_losses=raw["guest_losses"], top=top)


def same_rules(a: Config, b: Config) -> bool:
    """True when two configurations replay a history alike."""
    return a.size_rules == b.size_rules and a.guest_losses == b.guest_losses and a.top == b.top


def fingerprint(config: Config) -> str:
    """The rules as one stable text (what the store's cache was replayed with)."""
    return json.dumps(rules_json(config), sort_keys=True)


@dataclass(frozen=True)
class Dated:
    """A rule change as the owner's page lists it: when, and the rules in force after it."""

    at: datetime
    change: RuleChange
    after: Config


def timeline(base: Config, changes: Iterable[RuleChange]) -> list[Dated]:
    """The rule changes in time order (entry order breaking ties), each with the rules after it."""
    result: list[Dated] = []
    rules = base
    for change in sorted(changes, key=lambda c: c.at):  # sorted is stable: entry order breaks ties
        rules = with_change(rules, change)
        result.append(Dated(change.at, change, rules))
    return result


def check_date(at: datetime, earliest: datetime | None, now: datetime) -> None:
    """Refuse a rule change dated in the future ("future-at") or before ``earliest`` ("rules-date")."""
    if at > now:
        raise HistoryError("future-at", value=at.isoformat(timespec="minutes"), now=now.isoformat(timespec="minutes"))
    if earliest is not None and at < earliest:
        raise HistoryError(
            "rules-date", detail=earliest.isoformat(timespec="minutes"), value=at.isoformat(timespec="minutes")
        )


def end_of(day: date) -> datetime:
    """The first moment after ``day`` (club time): the board "as of" a day includes all of it."""
    return datetime.combine(day + timedelta(days=1), time())


def parse_day(text: str, today: date) -> date:
    """A date typed by the owner (2026-06-01), not in the future; HistoryError with a clear message."""
    try:
        day = date.fromisoformat(text.strip()) if isinstance(text, str) and len(text.strip()) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise HistoryError("bad-date", value=text)
    if day > today:
        raise HistoryError("future-date", value=day.isoformat(), now=today.isoformat())
    return day


def describe(change: RuleChange, language: str = "en") -> list[str]:
    """A rule change in the club's words (kiosk/catalogue.py), one line per rule it changes."""
    lines = [
        translate(
            language,
            "{size}x{size}: {points} points per strength, clear win from {clear} points, "
            "training game from {moves} starting moves",
            size=r.size,
            points=_n(r.points_per_strength),
            clear=_n(r.clear_margin),
            moves=r.training_moves,
        )
        for r in change.handicap
    ]
    if change.guest_losses is not None:
        lines.append(translate(language, "a guest becomes a member after {n} losses", n=change.guest_losses))
    if change.top is not None:
        lines.append(translate(language, "the top: {top}", top=_n(as_number(change.top))))
    return lines


def _n(value: Any) -> str:
    from fractions import Fraction

    if isinstance(value, Fraction):
        value = int(value) if value.denominator == 1 else float(value)
    return str(value)
