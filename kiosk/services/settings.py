"""The club's settings, tonight's list and the children's privacy: each change one use case.

The owner's pages, the phones and the CLI call these; a view only reads its form and
says what happened. What a change becomes is decided here, once: a plain setting is
written to semedori.toml, the guest losses (a rule) become a dated rule change in the
history, and the audit log gets an owner's note. Each setting is checked once, by
``kiosk.config.validate``; nothing is saved when one is refused (``ConfigError``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from kiosk.board import Magnet
from kiosk.events import RuleChange, dump_line, format_at, nick_key, parse_event
from kiosk.privacy import PlayerPrivacy
from kiosk.rulechanges import change_between, check_date, with_change
from kiosk.tonight import pair_of

if TYPE_CHECKING:
    from kiosk.store import Store

OWNER = "owner"  # the origin of the owner's writes in the history (the audit log shows them)
# The settings of the owner's settings page; the sleeper weeks may be absent (an older form).
SETTINGS = ("club_name", "timezone", "language", "guest_losses", "form_url")


# --- settings -------------------------------------------------------------------------------


def change_settings(
    store: Store, typed: Mapping[str, str], at: datetime, key: str | None = None, origin: str = OWNER
) -> dict[str, Any]:
    """The settings page as sent: save what changed; the settings changed (the guest losses aside).

    ``typed``: the form's text fields; ``at``: now, club time; ``key``: the form's once key (a
    repeated form records nothing twice). The guest losses are a rule: changed, they are a rule
    change dated now, so the games before keep the rule of their day. A text that is not a whole
    number is refused by the same check as a bad number (``kiosk.config``).
    """
    changes: dict[str, Any] = {name: (typed.get(name) or "").strip() for name in SETTINGS}
    weeks = (typed.get("sleeper_weeks") or "").strip()  # absent from an older form: kept as it is
    if weeks:
        changes["sleeper_weeks"] = _whole(weeks)
    losses = _whole(changes.pop("guest_losses"))
    before = store.config
    ruled = before.with_changes(guest_losses=losses)  # checked before anything is saved
    store.save_config(before.with_changes(**changes))
    if losses != before.guest_losses:
        # A rule, not a plain setting: a dated rule change from now on (web/rules_history.py).
        change = change_between(before, ruled, at.replace(microsecond=0))
        store.record(change, key=f"{key}:rules" if key else None, origin=origin)
    changed = {name: value for name, value in changes.items() if getattr(before, name) != value}
    if changed:  # the audit log keeps settings changes too, as an owner's note
        _note(store, at, "settings: " + ", ".join(f"{k}={v}" for k, v in changed.items()), key, origin)
    return changed


@dataclass(frozen=True)
class RulePreview:
    """A rule change not saved yet: what it is, exactly as it would be saved, and the magnets it would move."""

    change: RuleChange
    fingerprint: str  # its history line: the owner confirms this one, not a form that changed since
    moved: list[tuple[Magnet, Magnet]]  # (as it hangs now, as it would hang), of every magnet it moves


def change_rules(
    store: Store,
    typed: RuleChange,
    moment: datetime,
    confirmed: str | None = None,
    key: str | None = None,
    origin: str = OWNER,
) -> RulePreview | None:
    """A dated rule change: first its preview (None saved), then, sent again with the preview's
    ``fingerprint`` as ``confirmed``, recorded (None returned). ``moment``: now, club time.

    Refused (HistoryError) when dated before the last shift or rule change, or in the future.
    """
    check_date(typed.at, store.last_shift_or_rule_change(), moment)
    # No rule change is dated after it (check_date), so the rules in force then are those of now.
    change = change_between(store.config, with_change(store.config, typed), typed.at, typed.note)
    fingerprint = dump_line(change)
    if confirmed != fingerprint:
        after = {(m.nick, m.size): m for m in store.preview_rule_change(change)}
        moved = [
            (m, a)
            for m in store.magnets()
            if (a := after.get((m.nick, m.size))) is not None and (a.strength, a.status) != (m.strength, m.status)
        ]
        return RulePreview(change, fingerprint, moved)
    store.record(change, key=key, origin=origin)
    return None


def set_owner_pin(
    store: Store, pin_hash: str, at: datetime | None = None, key: str | None = None, note: str | None = None
) -> None:
    """Keep the owner PIN's salted hash; with ``note`` (and ``at``), the audit log says how it was set."""
    store.save_config(store.config.with_changes(owner_pin_hash=pin_hash))
    if note is not None and at is not None:
        _note(store, at, note, key, OWNER)


def _whole(typed: str) -> int:
    # Not a whole number: -1, which kiosk.config refuses with the setting's own message.
    return int(typed) if typed.isdecimal() else -1


def _note(store: Store, at: datetime, text: str, key: str | None, origin: str) -> None:
    store.record(parse_event({"type": "note", "at": format_at(at), "note": text[:500]}), key=key, origin=origin)


# --- tonight: who is here, and the pairs they refused -------------------------------------------


def check_in(store: Store, evening: date, nick: str, origin: str | None = None) -> bool:
    """Put a player (the board's spelling) on the evening's list; False when already there."""
    return store.check_in(evening, nick, origin=origin)


def check_out(store: Store, evening: date, nick: str) -> bool:
    """Take a player off the evening's list (gone home); False when not on it."""
    return store.check_out(evening, nick)


def refuse(store: Store, evening: date, a: str, b: str) -> bool:
    """Two players on the evening's list would rather not play each other; False (nothing saved) otherwise."""
    here = {nick_key(n) for n in store.checked_in(evening)}
    if len(pair_of(a, b)) != 2 or not pair_of(a, b) <= here:
        return False
    store.refuse(evening, a, b)
    return True


def unrefuse(store: Store, evening: date, a: str, b: str) -> bool:
    """Take a refusal back (a mistaken tap); False when there was none."""
    return store.unrefuse(evening, a, b)


# --- children's privacy -----------------------------------------------------------------------


def set_club_privacy(store: Store, show: str) -> None:
    """How the wall and the public pages show players by default (``kiosk.privacy.MODES``; ValueError else)."""
    store.set_club_privacy(show)


def set_player_privacy(store: Store, nick: str, settings: PlayerPrivacy) -> None:
    """One player's label, short name, hidden and minor flags (the board's nickname)."""
    store.set_player_privacy(nick, settings)
