"""Matches with other clubs in words (English and Polish), for `semedori match` and the owner's page."""

from __future__ import annotations

from typing import Any

from kiosk.calibration import MATCH_GAMES, Match, Met, Offset
from kiosk.catalogue import translate
from kiosk.fairness_text import figure
from kiosk.scale import QUARTERS


def shift_text(amount: int, language: str = "en") -> str:
    """A shift in quarters as the owner types it: +4, −4."""
    value = amount / QUARTERS
    return ("+" if value > 0 else "") + figure(value, language)


def offset_line(found: Offset, club: str, language: str = "en") -> str:
    """What the games say of the two scales on one size."""
    if found.found is None:
        return translate(
            language,
            "{size}x{size}: {games} games: not enough to compare the two scales (at least {least}).",
            size=found.size,
            games=found.games,
            least=MATCH_GAMES,
        )
    return translate(
        language,
        "{size}x{size}: {games} games; {club} played {offset} strengths against its numbers on our scale "
        "({low} to {high}, 95 %).",
        size=found.size,
        games=found.games,
        club=club,
        offset=("+" if found.found.value > 0 else "") + figure(found.found.value, language, 1),
        low=figure(found.found.low, language, 1),
        high=figure(found.found.high, language, 1),
    )


def suggestion_line(found: Offset, club: str, language: str = "en") -> str:
    """The suggested shift for either club, or why there is none."""
    if found.found is None:
        return ""
    if not found.shift_ours:
        return translate(language, "The two scales agree within what the games can tell: no shift suggested.")
    return translate(
        language,
        "Suggested: shift our {size}x{size} by {ours}, or {club} shifts its own by {theirs} "
        "(preview it on the shift page; nothing is shifted by itself).",
        size=found.size,
        ours=shift_text(found.shift_ours, language),
        club=club,
        theirs=shift_text(found.shift_theirs, language),
    )


def imported_lines(match: Match, offsets: list[Offset], language: str = "en") -> list[str]:
    lines = [
        translate(
            language,
            "Match file of {club}: {games} games, checked and kept.",
            club=match.club_name,
            games=len(match.games),
        )
    ]
    for found in offsets:
        lines.append(offset_line(found, match.club_name, language))
        suggestion = suggestion_line(found, match.club_name, language)
        if suggestion:
            lines.append(suggestion)
    return lines


def rating_lines(met: list[Met], language: str = "en") -> list[str]:
    if not met:
        return [translate(language, "No match with another club yet.")]
    lines = [
        translate(
            language,
            "Our offset against each club met (strengths on our scale; + means they are stronger than their numbers):",
        )
    ]
    for m in met:
        lines.append(f"  {m.club_name}: " + offset_line(m.offset, m.club_name, language))
    return lines


def rating_json(met: list[Met]) -> list[dict[str, Any]]:
    return [
        {
            "club": m.club_name,
            "id": m.club_id,
            "size": m.size,
            "matches": m.matches,
            "games": m.games,
            "last": m.last.isoformat(timespec="minutes"),
            "offset": None
            if m.offset.found is None
            else {
                "value": round(m.offset.found.value, 2),
                "low": round(m.offset.found.low, 2),
                "high": round(m.offset.found.high, 2),
            },
            "shift_ours": m.offset.shift_ours / QUARTERS,
        }
        for m in met
    ]
