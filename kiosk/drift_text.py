"""The drift report in words (English and Polish) and as JSON, for `semedori drift` (kiosk/drift.py)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from kiosk.board import Magnet
from kiosk.catalogue import N_, translate
from kiosk.drift import SOURCES, WINDOW_WEEKS, Gains, Gap, Report
from kiosk.events import format_at
from kiosk.flags import Flag
from kiosk.scale import Quarters, as_number, decimal_mark, format_strength

# What an unmatched arrow came from, and a flagged magnet's line: looked up by the report's own keys;
# their English is their id in the catalogue (kiosk/catalogue.py).
SOURCE_NAMES: dict[str, str] = {
    "free-loss": N_("free losses"),
    "training": N_("training games"),
    "vs-guest": N_("member against guest"),
    "occasional": N_("occasional players"),
    "edge": N_("at 0 or the top"),
}
FLAG_LINES: dict[str, str] = {
    "returner": N_("  {nick} ({size}x{size}, {strength}): back on {since} after {count} weeks away"),
    "won": N_("  {nick} ({size}x{size}, {strength}): {count} wins in a row since {since}"),
    "lost": N_("  {nick} ({size}x{size}, {strength}): {count} losses in a row since {since}"),
}


def number(value: Fraction, signed: bool = False, language: str = "en") -> str:
    """A strength in the report: two decimals at most, a sign when asked, a decimal comma in Polish."""
    text = f"{float(value):+.2f}" if signed else f"{float(value):.2f}"
    text = text.rstrip("0").rstrip(".") if "." in text else text
    text = text.replace("-", "−")
    return decimal_mark(text, language)


def shift_amount(amount: Quarters, language: str = "en") -> str:
    """A shift as the owner types it: ``−5``, ``+5``."""
    return number(Fraction(amount, 4), signed=True, language=language)


def example(preview: Sequence[tuple[Magnet, Quarters]]) -> str:
    """The first magnet of a preview, before → after."""
    if not preview:
        return ""
    magnet, after = preview[0]
    return f"{magnet.nick} {format_strength(magnet.strength)} → {format_strength(after)}"


def describe(report: Report, found: Sequence[Flag], language: str = "en") -> list[str]:
    """The report as lines of text."""
    # Long: the report's lines in reading order, one short block per part of the report.
    drift = report.drift
    lines = [
        translate(
            language, "Drift of the club's numbers on {now} (club time)", now=drift.now.strftime("%Y-%m-%d %H:%M")
        )
    ]
    if not drift.months:
        return [*lines, translate(language, "No magnets yet.")]
    for size, months in drift.months.items():
        lines += ["", f"{size}x{size}", translate(language, "  month    magnets   mean  median")]
        for m in months:
            mean, median = number(m.mean, language=language), number(m.median, language=language)
            lines.append(f"  {m.month}  {m.count:>7}  {mean:>6}  {median:>6}")
        lines += _gains(report, drift.gains[size], language)
        groups = drift.groups.get(size, ())
        lines.append(
            translate(
                language,
                "  Groups that played (almost) only among themselves in the last {weeks} weeks:",
                weeks=WINDOW_WEEKS,
            )
            if groups
            else translate(language, "  No separate groups.")
        )
        for g in groups:
            nicks = ", ".join(g.nicks)
            lines.append(
                translate(
                    language,
                    "    {number}. {nicks} ({inside} games inside, {outside} with others)",
                    number=g.number,
                    nicks=nicks,
                    inside=g.inside,
                    outside=g.outside,
                )
            )
        for gap, preview in zip(drift.gaps, report.gap_previews, strict=True):
            if gap.size == size:
                lines += _gap(gap, preview, language)
    lines += [
        "",
        translate(language, "Returners and streaks (a quick correction may help):")
        if found
        else translate(language, "No returners or streaks."),
    ]
    for flag in found:
        magnet = flag.magnet
        key = flag.kind if flag.kind == "returner" else flag.direction
        since = flag.since.strftime("%Y-%m-%d")
        strength = format_strength(magnet.strength)
        values = {"nick": magnet.nick, "size": magnet.size, "strength": strength, "since": since, "count": flag.count}
        lines.append(translate(language, FLAG_LINES[key], **values))
    return lines


def _gains(report: Report, g: Gains, language: str) -> list[str]:
    since = (
        translate(language, "since the last shift on {at}", at=g.since.strftime("%Y-%m-%d"))
        if g.since
        else translate(language, "since the first game (no shift yet)")
    )
    arrows = ", ".join(f"{translate(language, SOURCE_NAMES[source])} {g.arrows[source]:+d}" for source in SOURCES)
    lines = [
        translate(
            language, "  {since}: {games} games, {players} players", since=since, games=g.games, players=g.players
        ),
        translate(language, "  Arrows not matched by the other side:") + f" {arrows}",
        translate(
            language,
            "  Games added {strength} to the size's total: the players' mean rose {rise} by games alone.",
            strength=number(g.strength, True, language),
            rise=number(g.mean_rise, True, language),
        ),
    ]
    preview = report.size_previews.get(g.size, [])
    if g.amount:
        amount = shift_amount(g.amount, language)
        shown = example(preview)
        lines.append(
            translate(
                language,
                "  Suggested shift of {size}x{size}: {amount} ({count} magnets move; for example {example}).",
                size=g.size,
                amount=amount,
                count=len(preview),
                example=shown,
            )
        )
    else:
        lines.append(translate(language, "  No shift needed: less than one strength of drift."))
    return lines


def _gap(gap: Gap, preview: Sequence[tuple[Magnet, Quarters]], language: str) -> list[str]:
    first, second = gap.first.number, gap.second.number
    if gap.error is None:
        return [
            translate(
                language,
                "  Groups {first} and {second}: {games} games, none with a margin: nothing to compare.",
                first=first,
                second=second,
                games=gap.games,
            )
        ]
    error = number(gap.error, True, language)
    line = translate(
        language,
        "  Groups {first} and {second}: {games} games, {measured} with a margin; "
        "group {first} played {error} against its numbers.",
        first=first,
        second=second,
        games=gap.games,
        measured=gap.measured,
        error=error,
    )
    lines = [line]
    if gap.shifted is not None and gap.amount:
        amount = shift_amount(gap.amount, language)
        lines.append(
            translate(
                language,
                "  Suggested: shift group {number} by {amount} ({example}).",
                number=gap.shifted.number,
                amount=amount,
                example=example(preview),
            )
        )
    return lines


def _gap_shift(gap: Gap) -> dict[str, Any] | None:
    if gap.shifted is None:
        return None
    return {"group": gap.shifted.number, "nicks": list(gap.shifted.nicks), "amount": as_number(gap.amount)}


def _preview_json(preview: Sequence[tuple[Magnet, Quarters]]) -> list[dict[str, Any]]:
    return [{"nick": m.nick, "from": as_number(m.strength), "to": as_number(after)} for m, after in preview]


def _exact(value: Fraction) -> float:
    return round(float(value), 4)


def to_json(report: Report, found: Sequence[Flag]) -> dict[str, Any]:
    """The report as JSON (``semedori drift --json``): strengths as numbers, fractions to four decimals."""
    drift = report.drift
    sizes: dict[str, Any] = {}
    for size, months in drift.months.items():
        g = drift.gains[size]
        sizes[str(size)] = {
            "months": [
                {"month": m.month, "magnets": m.count, "mean": _exact(m.mean), "median": _exact(m.median)}
                for m in months
            ],
            "since_shift": format_at(g.since) if g.since else None,
            "games": g.games,
            "players": g.players,
            "unmatched_arrows": dict(g.arrows),
            "strength_added": _exact(g.strength),
            "mean_rise": _exact(g.mean_rise),
            "suggested_shift": as_number(g.amount),
            "preview": _preview_json(report.size_previews.get(size, [])),
            "groups": [
                {"number": grp.number, "nicks": list(grp.nicks), "inside": grp.inside, "outside": grp.outside}
                for grp in drift.groups.get(size, ())
            ],
            "between_groups": [
                {
                    "groups": [gap.first.number, gap.second.number],
                    "games": gap.games,
                    "measured": gap.measured,
                    "error": None if gap.error is None else _exact(gap.error),
                    "shift": _gap_shift(gap),
                    "preview": _preview_json(preview),
                }
                for gap, preview in zip(drift.gaps, report.gap_previews, strict=True)
                if gap.size == size
            ],
        }
    flags = [
        {
            "kind": f.kind,
            "nick": f.magnet.nick,
            "size": f.magnet.size,
            "strength": as_number(f.magnet.strength),
            "since": format_at(f.since),
            "count": f.count,
            **({"direction": f.direction} if f.direction else {}),
        }
        for f in found
    ]
    return {"now": format_at(drift.now), "sizes": sizes, "flags": flags}
