"""Saving what the fairness audit suggests (kiosk/fairness.py): a dated rule change of one size's constant."""

from __future__ import annotations

from datetime import datetime

from kiosk.events import RuleChange
from kiosk.rulechanges import change_between, check_date, with_change
from kiosk.store import Recorded, Store


def save_suggestion(store: Store, change: RuleChange, now: datetime, key: str | None, origin: str) -> Recorded:
    """Record the suggested rule change as the owner saved it: refused when dated before the last shift or rule
    change or in the future (HistoryError), and written only as what differs from the rules in force now."""
    check_date(change.at, store.last_shift_or_rule_change(), now)
    saved = change_between(store.config, with_change(store.config, change), change.at, change.note)
    return store.record(saved, key=key, origin=origin)
