"""Whether the nightly backup worked, for the owner's home: a small file in the data folder.

`semedori backup-nightly` (the nightly timer) writes ``backup-status.json`` when it fails and removes
it when a backup is written and checked; the web app only reads it, and the age of the newest nightly
copy, so a timer that stopped running is seen too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from kiosk.files import write_atomically

NAME = "backup-status.json"
# The newest nightly copy older than this: the nightly backup has stopped (the timer catches up after a boot).
OVERDUE = timedelta(hours=48)


@dataclass(frozen=True)
class BackupFailed:
    """The last nightly backup failed at ``at`` (UTC); ``reason`` in English and Polish."""

    at: datetime
    reason: dict[str, str]


def failed(folder: Path, at: datetime, reason: dict[str, str]) -> None:
    """Say that tonight's backup failed, and why (each language's sentence)."""
    text = json.dumps({"failed": at.astimezone(UTC).isoformat(), "reason": reason}, ensure_ascii=False)
    write_atomically(folder / NAME, text + "\n", sync=False)


def succeeded(folder: Path) -> None:
    """A backup was written and checked: nothing more to say."""
    (folder / NAME).unlink(missing_ok=True)


def read(folder: Path) -> BackupFailed | None:
    """The last failure, or None (the last backup worked, or none has run yet)."""
    try:
        data = json.loads((folder / NAME).read_text(encoding="utf-8"))
        reason = {str(k): str(v) for k, v in dict(data.get("reason", {})).items()}
        return BackupFailed(datetime.fromisoformat(data["failed"]), reason)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def newest_copy(backups: Path) -> datetime | None:
    """When the newest nightly copy in ``backups`` was written (UTC), or None when there is none."""
    try:
        times = [p.stat().st_mtime for p in backups.iterdir() if p.name.startswith("semedori-") and p.is_file()]
    except OSError:
        return None
    return datetime.fromtimestamp(max(times), UTC) if times else None


def overdue(backups: Path, now: datetime) -> datetime | None:
    """The newest copy's time when it is older than OVERDUE (the nightly backup stopped); None when all is well."""
    newest = newest_copy(backups)
    return newest if newest is not None and now - newest > OVERDUE else None
