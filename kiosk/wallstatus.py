"""What the wall says about its panel, for the owner page: a small file in the data folder.

The display process writes ``wall-status.json`` when no panel answers and removes it once one
does; the web app only reads it. A file from an earlier boot is ignored: the wall of this boot
has not spoken yet (or is not running), and an old "no panel" would mislead.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from kiosk.clockfile import BOOT_ID, boot_id
from kiosk.files import write_atomically

NAME = "wall-status.json"
# The one sentence for the journal, `systemctl status` and the owner page (in English; the page translates it).
NO_PANEL = "no panel found: check the header, then `sudo semedori-admin wall-check`"


@dataclass(frozen=True)
class WallStatus:
    """No panel answered since ``since`` (UTC); ``detail`` is what the driver said."""

    since: datetime
    detail: str


def panel_missing(folder: Path, since: datetime, detail: str, boot: Path = BOOT_ID) -> None:
    """Say that no panel answers (written whole, so the web never reads half a file)."""
    text = json.dumps({"panel": "missing", "since": since.isoformat(), "detail": detail, "boot": boot_id(boot)})
    # A file of the moment (this boot's only): no sync before the rename, like the clock's state.
    write_atomically(folder / NAME, text + "\n", sync=False)


def panel_found(folder: Path) -> None:
    """The panel answers: nothing more to say."""
    (folder / NAME).unlink(missing_ok=True)


def read(folder: Path, boot: Path = BOOT_ID) -> WallStatus | None:
    """What the wall of this boot says, or None (a panel, or nothing said)."""
    try:
        data = json.loads((folder / NAME).read_text(encoding="utf-8"))
        if data.get("panel") != "missing" or data.get("boot") != boot_id(boot):
            return None
        return WallStatus(datetime.fromisoformat(data["since"]), str(data.get("detail", "")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
