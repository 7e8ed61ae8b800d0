"""What needs the owner's attention, for the top of the owner's home.

Each item is one sentence and a link to the page that fixes it: games that look entered twice,
games entered long after they were played, the clock that nobody has checked, a failed or stopped
nightly backup, players who look like one person twice. Nothing is listed when all is well. (The
full card and the missing panel have their own boxes, with the commands that fix them.)
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import NamedTuple

from flask import current_app, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from kiosk import backupstatus
from kiosk.backup import BACKUPS_FOLDER
from kiosk.names import lookalike_key
from kiosk.rules import club_now
from web.clock import kiosk_clock_state
from web.i18n import language, without_paths
from web.recent import recent_games
from web.request_store import get_store

LATE_SHOWN = timedelta(days=7)  # late entries of the last week are news; older ones the owner has seen


class Item(NamedTuple):
    """One thing to look at: what, and the link that fixes it."""

    key: str  # for the page's id and the tests
    text: str
    link: str
    link_text: str


def items() -> list[Item]:
    """Everything that needs the owner now, most urgent first; empty when all is well."""
    found = [*_backup(), *_clock(), *_games(), *_players()]
    return [item for item in found if item is not None]


def _backup() -> list[Item]:
    folder = Path(current_app.config["SEMEDORI_HOME"])
    config = get_store().config
    failure = backupstatus.read(folder)
    fix = url_for("owner.backup")
    if failure is not None:
        at = club_now(config, failure.at).strftime("%Y-%m-%d %H:%M")
        reason = without_paths(failure.reason.get(language()) or failure.reason.get("en", ""))
        text = _("The nightly backup failed (%(at)s): %(reason)s", at=at, reason=reason)
        return [Item("backup-failed", text, fix, _("Download a backup now"))]
    stopped = backupstatus.overdue(folder / BACKUPS_FOLDER, datetime.now(UTC))
    if stopped is not None:
        at = club_now(config, stopped).strftime("%Y-%m-%d %H:%M")
        text = _("No nightly backup since %(at)s: the backup timer may have stopped.", at=at)
        return [Item("backup-overdue", text, fix, _("Download a backup now"))]
    return []


def _clock() -> list[Item]:
    state = kiosk_clock_state()
    fix, fix_text = url_for("owner.clock_page"), _("The kiosk's clock")
    if state.pending is not None:
        text = _("The players' phones say the kiosk's clock is wrong: check it and set it.")
        return [Item("clock-pending", text, fix, fix_text)]
    if state.trusted_at is None:
        text = _("The kiosk's clock has not been checked yet (no internet time, no phone yet): games may be misdated.")
        return [Item("clock-untrusted", text, fix, fix_text)]
    return []


def _games() -> list[Item]:
    games = recent_games()
    fix = url_for("recent.recent")
    found = []
    copies = sum(1 for game in games if game.standing and game.copy_of is not None)
    if copies:
        text = ngettext("%(num)d game looks entered twice.", "%(num)d games look entered twice.", copies)
        found.append(Item("copies", text, fix, _("Recently entered games")))
    since = club_now(get_store().config, datetime.now(UTC)).replace(tzinfo=None) - LATE_SHOWN
    late = sum(1 for game in games if game.standing and game.late is not None and game.entered >= since)
    if late:
        text = ngettext(
            "%(num)d game was entered a day or more after it was played this week.",
            "%(num)d games were entered a day or more after they were played this week.",
            late,
        )
        found.append(Item("late", text, fix, _("Recently entered games")))
    return found


def _players() -> list[Item]:
    """Players whose nicknames look the same (case, accents and look-alike letters aside): likely one person."""
    seen: dict[str, set[str]] = {}
    for magnet in get_store().magnets():
        if not magnet.retired:
            seen.setdefault(lookalike_key(magnet.nick), set()).add(magnet.nick)
    groups = sorted(sorted(nicks) for nicks in seen.values() if len(nicks) > 1)
    if not groups:
        return []
    text = ngettext(
        "%(num)d player may be on the board twice: %(names)s.",
        "%(num)d players may be on the board twice: %(names)s.",
        len(groups),
        names="; ".join(" / ".join(group) for group in groups[:10]) + ("; …" if len(groups) > 10 else ""),
    )
    return [Item("merge", text, url_for("owner.merge"), _("Merge duplicates"))]
