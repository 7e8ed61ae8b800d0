"""The owner's history actions: a quick correction, a shift, a merge, a void or edit, a new member, a note,
an import. Each is one line of the history (docs/rules.md §5, §7), checked by the core and recorded as the
owner's (or the command line's) in one transaction; the views and `semedori import` call these, never the
store's writes themselves."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from kiosk.events import Event, format_at, parse_event
from kiosk.store import Recorded, Store


def record_line(store: Store, line: dict[str, Any], at: datetime, key: str | None, origin: str) -> Event:
    """Check a history line typed by the owner (dated ``at`` unless it says otherwise) and record it."""
    event = parse_event({"at": format_at(at), **line})
    store.record(event, key=key, origin=origin)
    return event


def record_event(store: Store, event: Event, key: str | None, origin: str) -> Recorded:
    """Record an event the owner's page made and checked (a new member, a void undone)."""
    return store.record(event, key=key, origin=origin)


def import_file(
    store: Store,
    lines: Iterable[str | bytes],
    replace: bool,
    note: str | None = None,
    at: datetime | None = None,
    origin: str = "owner",
) -> int:
    """Import a history file, all or nothing; with ``note``, the history also says (at ``at``) who replaced it.

    ``note`` may name ``{count}``, the number of events imported, which is also the answer.
    """
    count = store.import_history(lines, replace_history=replace)
    if note:
        # The imported lines keep their own origin ("import"); the audit log also says who replaced them.
        when = at or datetime.now(store.config.zone).replace(tzinfo=None)
        text = note.replace("{count}", str(count))
        store.record(parse_event({"type": "note", "at": format_at(when), "note": text[:500]}), origin=origin)
    return count
