"""The fairness audit in words (English and Polish): `semedori fairness` and the owner's page (kiosk/fairness.py)."""

from __future__ import annotations

from kiosk.catalogue import translate, translate_plural
from kiosk.fairness import ROW_GAMES, SET_FIELD_GAMES, SIZE_GAMES, Audit, Interval, Row, SizeAudit
from kiosk.scale import decimal_mark


def figure(value: float, language: str = "en", digits: int = 2) -> str:
    """A constant or a margin: at most ``digits`` decimals, a minus sign, a decimal comma in Polish."""
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{value:.0f}"
    if text in ("-0", ""):
        text = "0"
    return decimal_mark(text.replace("-", "−"), language)


def percent(value: float, language: str = "en") -> str:
    """A win rate as a whole percentage: 52 %."""
    return f"{round(value * 100)} %"


def span(found: Interval, language: str = "en", digits: int = 2, as_percent: bool = False) -> str:
    """An interval as ``low–high``."""
    if as_percent:
        return f"{round(found.low * 100)}–{round(found.high * 100)} %"
    return f"{figure(found.low, language, digits)} – {figure(found.high, language, digits)}"


def row_name(moves: int, language: str = "en") -> str:
    """A handicap row by its starting moves: "even", "1 move", "3 moves" (in Polish: ruchy)."""
    if moves == 0:
        return translate(language, "even")
    return translate_plural(language, "{n} move", "{n} moves", moves)


def row_rate(row: Row, language: str = "en") -> str:
    """The weaker player's wins in a row: "52 % (48–56 %)", or "not enough games"."""
    if row.rate is None:
        return translate(language, "not enough games")
    return f"{percent(row.rate.value, language)} ({span(row.rate, language, as_percent=True)})"


def row_margin(row: Row, language: str = "en") -> str:
    """The weaker player's mean margin in a row, with its interval; empty without enough margins."""
    if row.margin is None:
        return ""
    sign = "+" if row.margin.value > 0 else ""
    return f"{sign}{figure(row.margin.value, language, 1)} ({span(row.margin, language, 1)})"


def verdict(size: SizeAudit, language: str = "en") -> str:
    """What the games say of the size's constant, in one sentence."""
    c = size.constant
    if c.found is None:
        return translate(
            language,
            "Not enough games to judge the table: {games} of at least {least}.",
            games=c.games,
            least=SIZE_GAMES,
        )
    if c.open_ended:
        return translate(language, "These games hardly tell: the interval has no end in sight.")
    if size.suggestion is not None:
        value = size.suggestion.handicap[0].points_per_strength
        return translate(
            language,
            "The games leave the table's {table} out. Suggested rule change: {value} points per strength "
            "from {at} ({changed} of these games would have had another handicap).",
            table=figure(float(c.table), language),
            value=figure(float(value), language),
            at=size.suggestion.at.strftime("%Y-%m-%d %H:%M"),
            changed=size.changed_games,
        )
    if c.clear:
        return translate(
            language,
            "The games leave the table's {table} out, but by less than the half point the tables are made of.",
            table=figure(float(c.table), language),
        )
    return translate(language, "The table's {table} fits these games.", table=figure(float(c.table), language))


def constant_line(size: SizeAudit, language: str = "en") -> str:
    """The fitted constant: "the table 2, the games 2.2 (2.18 – 2.26)"."""
    c = size.constant
    if c.found is None:
        return translate(
            language,
            "Points per strength: the table {table}; the games: not enough games.",
            table=figure(float(c.table), language),
        )
    return translate(
        language,
        "Points per strength: the table {table}; the games {found} ({span}, 95 %).",
        table=figure(float(c.table), language),
        found=figure(c.found.value, language),
        span=span(c.found, language),
    )


def basis(size: SizeAudit, language: str = "en") -> str:
    """Which fields the constant was read on (docs/fairness.md, "Why the fields as set"); "" without a constant."""
    c = size.constant
    if c.found is None:
        return ""
    if c.on_set_fields:
        return translate(
            language,
            "Read on the fields as a person set them ({games} games within {within} games of a placement, a quick "
            "correction or a shift): the magnets' own moves adapt to the table.",
            games=c.set_games,
            within=SET_FIELD_GAMES,
        )
    return translate(
        language,
        "Read on the board's own fields: too few games ({games}) came soon after a placement, a quick correction or "
        "a shift. The magnets adapt to the table, so this is near the truth, not at it.",
        games=c.set_games,
    )


def describe(made: Audit, language: str = "en") -> list[str]:
    """The audit as lines of text."""
    lines = [
        translate(
            language,
            "Fairness of the handicap tables on {now} (club time)",
            now=made.now.strftime("%Y-%m-%d %H:%M"),
        )
    ]
    if not made.sizes:
        return [*lines, translate(language, "No games to audit yet.")]
    for size in made.sizes:
        lines += [
            "",
            translate(language, "{size}x{size}: {games} games", size=size.size, games=size.constant.games),
            "  " + constant_line(size, language),
            *(["  " + said] if (said := basis(size, language)) else []),
            "  " + verdict(size, language),
            "  " + translate(language, "Handicap rows (the weaker player, Black in a handicap game):"),
        ]
        for row in size.rows:
            rate = row_rate(row, language)
            margin = row_margin(row, language)
            games = translate_plural(language, "{n} game", "{n} games", row.games)
            text = translate(language, "won {rate}", rate=rate) if row.rate is not None else rate
            if margin:
                text += ", " + translate(language, "margin {margin}", margin=margin)
            lines.append(f"    {row_name(row.moves, language):<10} {games:<12} {text}")
    lines += [
        "",
        translate(
            language,
            "The table aims at the weaker player winning half the games in every handicap row; in the even row "
            "a difference worth less than komi is not made up, so the weaker player wins a little less. "
            "A row needs {least} games.",
            least=ROW_GAMES,
        ),
    ]
    return lines
