"""The `semedori` command: a thin click layer over the ranking core and the store."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from kiosk import terminal
from kiosk.board import Board, board_json_text
from kiosk.catalogue import N_, language_of, translate, translate_plural
from kiosk.config import Config, data_folder
from kiosk.config import load as load_config
from kiosk.errors import MESSAGES, HistoryError, SemedoriError
from kiosk.events import parse_at, parse_history
from kiosk.handicap import SIZES, komi
from kiosk.replay import Replay, without_cycle_collector
from kiosk.rules import club_now
from kiosk.scale import format_strength, is_field, quarters
from kiosk.sleepers import hanging
from kiosk.terminal import fail

# `semedori replay` is timed as a whole process (start-up included): what only other
# commands use (the store and SQLite, the demo club, pairing, entry points) is imported
# inside them.
if TYPE_CHECKING:
    from kiosk import pairing, tonight
    from kiosk.board import Magnet
    from kiosk.store import Store


def _language() -> str:
    try:
        return terminal.language(data_folder())
    except OSError:
        return language_of()


@contextmanager
def _store() -> Iterator[Store]:
    from kiosk.store import Store

    try:
        store = Store.open(data_folder())
    except (SemedoriError, OSError) as error:
        fail(error, _language())
    try:
        yield store
    except (SemedoriError, OSError) as error:
        fail(error, _language())
    finally:
        store.close()


COMMAND_GROUP = "semedori.commands"


class _Commands(click.Group):
    """The core's commands, plus those other parts register as entry points (web, display).

    The core knows nothing of Flask or Pillow: `semedori serve` and `semedori render`
    come from the ``semedori.commands`` entry points in pyproject.toml, loaded only
    when asked for, so `semedori replay` starts without importing either.
    """

    def _plugins(self) -> dict[str, Any]:
        from importlib.metadata import entry_points

        return {point.name: point for point in entry_points(group=COMMAND_GROUP)}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self._plugins()))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        command = super().get_command(ctx, name)
        if command is None and name in (plugins := self._plugins()):
            command = plugins[name].load()
        return command


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="semedori-board")
def main() -> None:
    """Semedori Board: a Go club's strength board. The data folder is $SEMEDORI_HOME."""


@main.command()
@click.argument("file", type=click.File("rb"))
def replay(file: Any) -> None:
    """Print the board a history FILE produces, as JSON (touches no database)."""
    try:
        config = load_config(data_folder()) if "SEMEDORI_HOME" in os.environ else Config()
        with without_cycle_collector():
            engine = Replay(config)
            engine.run_history(parse_history(file))
            # The output is the magnets and the games (docs/rules.md §7): the board's other
            # changes (joins, quick corrections, shifts: one per magnet a shift moves) are not
            # in it, so they are not made into the board's named changes.
            text = board_json_text(Board(engine.board_magnets(), tuple(engine.games)))
    except (SemedoriError, OSError) as error:
        fail(error, _language())
    click.echo(text)


@main.command(name="import")
@click.argument("file", type=click.File("rb"))
@click.option("--replace", is_flag=True, help="Replace a history that is not empty.")
def import_(file: Any, replace: bool) -> None:
    """Import a history FILE (JSON Lines), all or nothing."""
    with _store() as store:
        count = store.import_history(file, replace_history=replace)
        click.echo(translate(_language(), "imported {count} events", count=count))


@main.command()
@click.option("--out", type=click.Path(dir_okay=False, writable=True), help="Write to a file instead of stdout.")
def export(out: str | None) -> None:
    """Print the whole history as JSON Lines (the file `import` reads)."""
    with _store() as store:
        lines = store.export_lines()
        if out:
            Path(out).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        else:
            for line in lines:
                click.echo(line)


@main.command()
@click.option("--size", type=click.Choice([str(s) for s in SIZES]), required=True, help="Board size.")
@click.argument("first")
@click.argument("second")
def handicap(size: str, first: str, second: str) -> None:
    """The handicap between two strengths (34.5 25) or two players of the board."""
    from kiosk import pairing

    board_size = int(size)
    try:
        a, b = _strength_argument(first), _strength_argument(second)
    except ValueError:
        with _store() as store:
            result = pairing.for_players(store.magnets(), board_size, first, second, store.config)
    else:
        result = pairing.for_strengths(board_size, a, b, Config())
    for line in describe_pairing(result, _language()):
        click.echo(line)


def _strength_argument(text: str) -> int:
    """A strength typed on the command line; a name raises ValueError, a non-field fails clearly."""
    try:
        number = float(text)
    except ValueError:
        raise ValueError(text) from None
    try:
        q = quarters(text)
    except ValueError:
        q = -1
    if not is_field(q):
        fail(HistoryError("bad-strength", value=number), _language())
    return q


def describe_pairing(p: pairing.Pairing, language: str = "en") -> list[str]:
    """The handicap in words, as the players read it at the table."""
    names = [
        s.nick if s.nick == format_strength(s.strength) else f"{s.nick} ({format_strength(s.strength)})"
        for s in p.sides
    ]
    difference = format_strength(p.difference)
    against = N_("{size}x{size}: {a} against {b}, difference {difference}")
    lines = [translate(language, against, size=p.size, a=names[0], b=names[1], difference=difference)]
    for side in p.sides:
        if side.occasional:
            stand_in = N_("{nick} has no {size}x{size} magnet: the primary magnet's strength stands in.")
            lines.append(translate(language, stand_in, nick=side.nick, size=p.size))
    white, black, h = p.white, p.black, p.handicap
    if white is None or black is None:
        even = N_("Even game: nigiri; White gets 6 prisoners and wins ties (komi {komi}).")
        lines.append(translate(language, even, komi=komi(language)))
        return lines
    lines.append(translate(language, "White: {nick}", nick=white.nick))
    if h.moves == 1:
        moves = translate(language, "1 starting move (an ordinary first move)")
    else:
        moves = translate(language, "{n} starting moves", n=h.moves)
    lines.append(
        translate_plural(
            language,
            "Black: {nick}, {moves}, {n} prisoner from White",
            "Black: {nick}, {moves}, {n} prisoners from White",
            h.prisoners,
            nick=black.nick,
            moves=moves,
        )
    )
    if h.training:
        lines.append(translate(language, "Training game: White's magnet does not move."))
    return lines


@main.command()
@click.option("--size", type=click.Choice([str(s) for s in SIZES]), required=True, help="Board size.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--now", "now_text", metavar="YYYY-MM-DDTHH:MM", help="Club time to pair at (default: now).")
@click.argument("nicks", nargs=-1)
def pair(size: str, as_json: bool, now_text: str | None, nicks: tuple[str, ...]) -> None:
    """Tonight's pairs of the players NICKS (default: tonight's check-in list) with their handicaps."""
    from datetime import UTC, datetime

    from kiosk import evening, tonight, tournament_store

    board_size = int(size)
    with _store() as store:
        now = parse_at(now_text) if now_text else club_now(store.config, datetime.now(UTC))
        # "Tonight" is the club's evening (kiosk.evening): games since its list was last empty.
        config = store.config
        day = evening.evening_of(now, config.evening_starts, config.evening_ends)
        since = evening.list_opens(day, config.evening_starts, config.evening_ends)
        magnets = store.magnets()
        here = [side.nick for side in tonight.sides_of(magnets, board_size, nicks)] if nicks else store.checked_in(day)
        if not here:
            raise click.ClickException(translate(_language(), "nobody is checked in tonight: name the players"))
        games = store.games_since(min(since, now - tonight.LAST_WEEK))
        # Tonight's list leaves out who plays in tonight's open event (players named here are paired as named).
        in_event = () if nicks else tonight.seated(tournament_store.open_event(store, day))
        refused = store.refusals(day)
        found = tonight.for_evening(board_size, magnets, here, config, games, since, now, refused, in_event)
    suggestion = found.suggestion
    if as_json:
        click.echo(json.dumps(tonight.to_json(suggestion), ensure_ascii=False))
        return
    language = _language()
    for line in describe_suggestion(suggestion, language):
        click.echo(line)
    if found.waiting:
        names = ", ".join(s.nick for s in found.waiting)
        click.echo(translate(language, "Waiting for someone else (they refused each other): {names}", names=names))


def describe_suggestion(s: tonight.Suggestion, language: str = "en") -> list[str]:
    """Tonight's pairs in words, one numbered block per table."""
    count = len(s.pairs) * 2 + (s.bye is not None)
    lines = [
        translate_plural(
            language,
            "{size}x{size}: {count} players, {n} pair",
            "{size}x{size}: {count} players, {n} pairs",
            len(s.pairs),
            size=s.size,
            count=count,
        )
    ]
    for number, p in enumerate(s.pairs, start=1):
        lines.append("")
        first, *rest = describe_pairing(p, language)
        lines.append(f"{number}. {first.removeprefix(f'{p.size}x{p.size}: ')}")
        lines.extend(f"   {line}" for line in rest)
    if s.bye is not None:
        strength = format_strength(s.bye.strength)
        bye = translate(language, "Sits out this round: {nick} ({strength})", nick=s.bye.nick, strength=strength)
        lines.extend(["", bye])
    if s.rematches:
        lines.append(
            translate(language, "{n} pair(s) already played tonight: no other pairing was possible.", n=s.rematches)
        )
    if s.recent:
        lines.append(
            translate(
                language, "{n} pair(s) played each other in the last week: no better pairing was possible.", n=s.recent
            )
        )
    return lines


@main.command()
@click.option("--size", type=click.Choice([str(s) for s in SIZES]), help="Only this board size.")
@click.option("--at", "at_text", metavar="YYYY-MM-DD", help="The board as it stood at the end of this day.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--now", "now_text", metavar="YYYY-MM-DDTHH:MM", help="Club time for the sleepers (default: now).")
def board(size: str | None, at_text: str | None, as_json: bool, now_text: str | None) -> None:
    """The board as a table: each field that holds magnets, strongest first (no sleepers), or as of a day."""
    from datetime import time

    from kiosk.rulechanges import parse_day

    only = int(size) if size else None
    with _store() as store:
        now = _club_time(now_text, store)
        day = None
        magnets = store.magnets()
        if at_text is not None:
            day = parse_day(at_text, now.date())
            magnets, _rules = store.board_at(day)
            now = datetime.combine(day, time(23, 59))  # who rested, as of the end of that day
        magnets = hanging(magnets, now, store.config.sleeper_weeks)  # as on the wall: no retired, no sleepers
        if as_json:
            shown = [m for m in magnets if only is None or m.size == only]
            body: dict[str, Any] = {"club": store.config.club_name, "at": day.isoformat() if day else None}
            body["sizes"] = {str(s): [m.to_json() for m in shown if m.size == s] for s in SIZES if only in (None, s)}
            click.echo(json.dumps(body, ensure_ascii=False))
            return
        for line in board_table(store, only, magnets, day):
            click.echo(line)


def _club_time(text: str | None, store: Store) -> datetime:
    """A club time typed on the command line, else the club's time now; a bad one fails clearly."""
    from datetime import UTC

    if not text:
        return club_now(store.config, datetime.now(UTC))
    try:
        return parse_at(text)
    except HistoryError as error:
        fail(error, _language())


def board_table(
    store: Store, only: int | None = None, magnets: tuple[Magnet, ...] | None = None, day: date | None = None
) -> list[str]:
    """The board's lines for the terminal, in the club's language: now, or as of ``day``."""
    language = store.config.language
    shown = hanging(store.magnets() if magnets is None else magnets)  # no clock: only the retired leave here
    title = store.config.club_name
    if day:
        title += " — " + translate(language, "as of the end of {day}", day=day.isoformat())
    lines = [title]
    for size in SIZES:
        on_size = [m for m in shown if m.size == size]
        if (only and size != only) or not on_size:
            continue
        count = len(on_size)
        lines.append(
            "\n"
            + translate_plural(
                language, "{size}x{size}  ({n} magnet)", "{size}x{size}  ({n} magnets)", count, size=size
            )
        )
        fields: dict[int, list[str]] = {}
        for m in on_size:
            fields.setdefault(m.strength, []).append(m.nick + (translate(language, " (guest)") if m.guest else ""))
        for strength in sorted(fields, reverse=True):
            lines.append(f"  {format_strength(strength):>6}  " + " · ".join(fields[strength]))
    if len(lines) == 1:
        lines.append(translate(language, "(no magnets yet)"))
    return lines


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--now", "now_text", metavar="YYYY-MM-DDTHH:MM", help="Club time of the report (default: now).")
def drift(as_json: bool, now_text: str | None) -> None:
    """How the club's numbers drifted: means by month, unmatched arrows, suggested shifts, groups, streaks."""
    from kiosk import drift_text
    from kiosk.drift import report
    from kiosk.flags import away_weeks, flags

    with _store() as store:
        now = _club_time(now_text, store)
        made = report(store.history_entries(), store.config, now)
        found = flags(made.board, now, away_weeks(store.config.sleeper_weeks))
        language = store.config.language
    if as_json:
        click.echo(json.dumps(drift_text.to_json(made, found), ensure_ascii=False))
        return
    for line in drift_text.describe(made, found, language):
        click.echo(line)


@main.command()
def check() -> None:
    """Prove the stored board, games, changes and checkpoints equal a fresh replay; run PRAGMA integrity_check."""
    from kiosk.backup import quick_check

    damage = quick_check(data_folder())  # before opening: opening an emptied file would make it a new, empty club
    if damage is not None:
        code = "check-damaged" if damage.backup else "check-damaged-no-backup"
        text = translate(_language(), MESSAGES[code], detail=damage.detail, backup=damage.backup)
        click.echo(f"semedori: {text}", err=True)
        sys.exit(1)
    with _store() as store:
        problems = store.check()
        if problems:
            for problem in problems:
                click.echo(f"semedori: {problem}", err=True)
            sys.exit(1)
        ok = N_("ok: integrity_check passed; the stored board, games, changes and checkpoints equal a fresh replay")
        click.echo(translate(_language(), ok))


@main.command()
@click.argument("path", type=click.Path(dir_okay=False))
def backup(path: str) -> None:
    """Write an online, consistent copy of the database to PATH."""
    with _store() as store:
        store.backup(Path(path))
        click.echo(translate(_language(), "backup written to {path}", path=path))


@main.command()
@click.option("--end", type=click.DateTime(formats=["%Y-%m-%d"]), help="Last day of the demo (default today).")
def demo(end: Any) -> None:
    """Fill an empty data folder with a believable demo club."""
    from kiosk import demo as demo_club

    with _store() as store:
        if not store.is_empty():
            fail(HistoryError("store-not-empty"), _language())
        last_day: date = end.date() if end else date.today()
        count = store.import_history(demo_club.history_lines(last_day))
        click.echo(translate(_language(), "demo club: {count} events in {folder}", count=count, folder=store.folder))


if __name__ == "__main__":
    main()
