"""The wall's two commands, registered in the ``semedori`` group: ``render`` and ``display``."""

from __future__ import annotations

import json
import logging
import signal
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from PIL import Image

from display import columns
from display.advice import advice
from display.panels import AwaitedPanel, InkyPanel, Panel, PanelError, PngPanel
from display.profiles import ORIENTATIONS, PROFILES, Profile, profile
from display.render import board_report, render
from display.settings import DisplaySettings, parse
from display.wall import PAGES, View, WallData, from_board, from_source
from kiosk import terminal
from kiosk.config import data_folder
from kiosk.errors import SemedoriError
from kiosk.handicap import SIZES
from kiosk.rules import club_now
from kiosk.terminal import fail

if TYPE_CHECKING:
    from display.buttons import Buttons

log = logging.getLogger("semedori.display")


@click.command(name="render")
@click.option(
    "--size", type=click.Choice([str(size) for size in SIZES]), default="13", show_default=True, help="Board size."
)
@click.option(
    "--panel",
    "panel_name",
    type=click.Choice(list(PROFILES)),
    default="png",
    show_default=True,
    help="Panel profile to draw for.",
)
@click.option("--page", type=click.Choice(PAGES), default="board", show_default=True, help="Which page to draw.")
@click.option("--orientation", type=click.Choice(ORIENTATIONS), default=None, help="Default: from the configuration.")
@click.option("--width", type=int, default=None, help="Width of a png picture.")
@click.option("--height", type=int, default=None, help="Height of a png picture.")
@click.option(
    "--demo", is_flag=True, help="Draw the demo club (semedori demo's, up to today) instead of the data folder's."
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder for every page and layout.json (or one .png file for the first page; with --print also a .pdf file).",
)
@click.option(
    "--print",
    "paper_name",
    default=None,
    metavar="PAPER",
    help="Draw the printable board: A1, A2, A3 or A4 (a paper copy of the board), or the club's magnetic board: "
    "club (660x950 mm) or any WIDTHxHEIGHT in mm, fields sized for 50 x 25 mm labels.",
)
@click.option(
    "--dpi", type=int, default=None, help="Resolution of --print (default: 150 for A1, 200 for A2, 300 for A3 and A4)."
)
@click.option(
    "--advise",
    is_flag=True,
    help="Say which way to mount the panel: the orientation that needs fewer pages for this club (no --out needed).",
)
def render_command(
    size: str,
    panel_name: str,
    page: str,
    orientation: str | None,
    width: int | None,
    height: int | None,
    demo: bool,
    out: Path | None,
    paper_name: str | None,
    dpi: int | None,
    advise: bool,
) -> None:
    """Draw the wall's pages into PNG files (no panel needed), with a layout report of every magnet label.

    With a folder, a board's every page is written (board-13-1.png, board-13-2.png, …) and
    layout.json lists each label drawn: nick, field, box in pixels and cap height. With
    --print A1 the whole board is drawn for paper: the columns with every field and magnet,
    the handicap tables and the kyu/dan conversion, as PNG (a folder: every sheet and
    layout.json) or PDF (every sheet a page).
    """
    # Long: a click command's options, each a few lines: the drawing is display/render.py's.
    if dpi is not None and paper_name is None:
        fail(ValueError("--dpi goes with --print"))
    if out is None and not advise:
        raise click.UsageError("Missing option '--out'.")
    if paper_name is not None:
        from display.paper import PRINT_PAPERS, paper
        from display.printed import club_sheet, is_club_sheet

        try:
            # a bad name is said before the club is read
            club_sheet(paper_name, dpi) if is_club_sheet(paper_name) else paper(paper_name, dpi, choices=PRINT_PAPERS)
        except ValueError as error:
            fail(error)
    try:
        from kiosk.copies import refuse_live

        if out is not None:  # a picture over the live database would end the club's history
            refuse_live(out, data_folder())
        chosen = profile(panel_name, width, height)
        if demo:
            data = demo_data()
            settings = DisplaySettings()
        else:
            from kiosk.store import Store

            with Store.open() as store:
                settings = parse(store.config.extra.get("display", {}))
                data = from_source(store, club_now(store.config, datetime.now(UTC)))
        turn = orientation or settings.orientation
        if advise:
            for line in advice(data, chosen, turn):
                click.echo(line)
            return
        assert out is not None
        if paper_name is not None:
            written = write_print(data, int(size), paper_name, dpi, out)
        elif out.suffix.lower() == ".png":
            image = render(data, View(page, int(size)), chosen, turn)
            PngPanel(out, chosen).show(image)
            click.echo(f"{out} ({image.width}×{image.height}, {chosen.name})")
            return
        else:
            written = write_pages(data, int(size), page, chosen, turn, out)
    except (SemedoriError, ValueError, PanelError, OSError) as error:
        fail(error, terminal.language(data_folder()))
    for path in written:
        click.echo(str(path))


def demo_data() -> WallData:
    """The product's one demo club (kiosk/demo.py, the club ``semedori demo`` and ``make run`` show), up to today.

    Its history replayed as a fresh demo folder holds it: no one checked in yet and no event on, so the
    tonight and event pages are as a new club's. (The wall's fixed test clubs are tests/display/wall_clubs.py.)
    """
    from kiosk import demo
    from kiosk.config import Config
    from kiosk.replay import replay

    config = Config()
    now = club_now(config, datetime.now(UTC))
    return from_board(replay(demo.history(now.date(), config=config), config), config, now)


def write_print(data: WallData, size: int, paper_name: str, dpi: int | None, out: Path) -> list[Path]:
    """The printable board into a .pdf or .png file, or a folder of PNG sheets and layout.json; the files written."""
    from display.printed import club_board, is_club_sheet, printed_board

    if is_club_sheet(paper_name):
        board = club_board(data, size, paper_name, dpi)
    else:
        board = printed_board(data, size, paper_name, dpi)
    if out.suffix.lower() in (".pdf", ".png"):
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.suffix.lower() == ".pdf" or len(board.images) == 1:
            board.save(out)
            return [out]
        paths = [out.with_name(f"{out.stem}-{n}{out.suffix}") for n in range(1, len(board.images) + 1)]
    else:
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / f"print-{size}-{board.sheet.name}-{n}.png" for n in range(1, len(board.images) + 1)]
    dpi_pair = (board.sheet.dpi, board.sheet.dpi)
    for image, path in zip(board.images, paths, strict=True):
        image.save(path, "PNG", dpi=dpi_pair)
    if out.suffix:
        return paths
    width, height = board.images[0].size
    report = {
        "paper": board.sheet.name,
        "dpi": board.sheet.dpi,
        "size": size,
        "width": width,
        "height": height,
        "pages": [
            {"file": path.name, "magnets": list(labels)} for path, labels in zip(paths, board.report, strict=True)
        ],
    }
    layout = out / "layout.json"
    layout.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    return [*paths, layout]


Pictures = Sequence[tuple[Image.Image | None, list[dict[str, object]]]]  # pages and what each names


def write_pages(data: WallData, size: int, page: str, chosen: Profile, orientation: str, out: Path) -> list[Path]:
    """Every page of the view into ``out`` and, for the pages that name players, layout.json; the files written."""
    from display import render as pages

    out.mkdir(parents=True, exist_ok=True)
    if page in ("handicap", "week"):  # a table too tall for the panel at 2 mm, a week too long: pages too
        count = pages.handicap_pages if page == "handicap" else pages.week_pages
        stem = f"handicap-{size}" if page == "handicap" else "week"
        return _plain_pages(
            data, View(page, size), count(data, size, chosen, orientation), stem, chosen, orientation, out
        )
    reports: dict[
        str, tuple[Callable[[], Pictures], str, str]
    ] = {  # the pages that name players, over as many pages as they take, and what each names
        "tonight": (lambda: pages.tonight_report(data, size, chosen, orientation), f"tonight-{size}", "names"),
        # Tonight's ruler; before anyone is here, how to check in.
        "ruler": (lambda: pages.ruler_report(data, size, chosen, orientation), f"ruler-{size}", "names"),
        "event": (lambda: pages.event_report(data, chosen, orientation), "event", "names"),
        "board": (lambda: board_report(data, size, chosen, orientation), f"board-{size}", "magnets"),
    }
    if page not in reports:
        path = out / f"{page}.png"
        PngPanel(path, chosen).show(render(data, View(page, size), chosen, orientation))
        return [path]
    report, stem, key = reports[page]
    return _with_layout(report(), stem, key, page, size, chosen, orientation, out)


def _plain_pages(
    data: WallData, view: View, parts: int, stem: str, chosen: Profile, orientation: str, out: Path
) -> list[Path]:
    """A view's pages into ``out``, one PNG a page (``STEM.png`` when it has one), no layout: they name nobody."""
    paths = [out / (f"{stem}.png" if parts == 1 else f"{stem}-{part + 1}.png") for part in range(parts)]
    for part, path in enumerate(paths):
        PngPanel(path, chosen).show(render(data, View(view.page, view.size, part), chosen, orientation))
    return paths


def _with_layout(
    pictures: Sequence[tuple[Image.Image | None, list[dict[str, object]]]],
    stem: str,
    key: str,
    page: str,
    size: int,
    chosen: Profile,
    orientation: str,
    out: Path,
) -> list[Path]:
    """The pages as ``STEM-1.png``, ``STEM-2.png``, … and layout.json listing the labels drawn on each."""
    written = []
    report: dict[str, object] = {
        "panel": chosen.name,
        "dpi": round(chosen.dpi, 2),
        "orientation": orientation,
        "size": size,
        "page": page,
    }
    pages: list[dict[str, object]] = []
    report["pages"] = pages
    width, height = chosen.canvas(orientation)
    report["width"], report["height"] = width, height
    for number, (image, labels) in enumerate(pictures, start=1):
        path = out / f"{stem}-{number}.png"
        if image is not None:
            PngPanel(path, chosen).show(image)
        entry: dict[str, object] = {"file": path.name, key: labels}
        if key == "magnets":  # how much of the page the labels cover: a near-empty page beside full ones shows
            entry["fill"] = round(columns.fill(labels, (width, height)), 3)
        pages.append(entry)
        written.append(path)
    layout = out / "layout.json"
    layout.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    return [*written, layout]


def open_panel(settings: DisplaySettings, folder: Path) -> Panel:
    """The panel the settings name: the Inky board found by its EEPROM, a named one, or a PNG file."""
    if settings.panel == "png":
        return PngPanel(folder / settings.png_path)
    if settings.panel == "auto":
        # Waits for a panel that does not answer yet, rather than failing the service.
        return AwaitedPanel(lambda: InkyPanel.detect(upside_down=settings.upside_down), folder)
    return InkyPanel.of_type(settings.panel, settings.driver, upside_down=settings.upside_down)


def start_buttons(
    settings: DisplaySettings, panel: Panel, on_press: Callable[[str], None], pin_factory: Any = None
) -> Buttons | None:
    """The panel's buttons, on the pins of the panel found; None without a panel or without GPIO.

    A button that cannot claim its pin is left out (logged); the wall never stops for it.
    """
    if isinstance(panel, AwaitedPanel):
        panel = panel.found or panel  # the buttons come with the panel found
    if not isinstance(panel, InkyPanel):
        return None
    from display.buttons import Buttons

    try:
        return Buttons(settings.pins_for(panel.profile.name), on_press, pin_factory=pin_factory, reserved=panel.lines())
    except Exception as error:  # no GPIO at all (a desktop): the wall still works without buttons
        log.warning("buttons unavailable: %s", error)
        return None


@click.command(name="display")
@click.option("--once", is_flag=True, help="Refresh once and exit.")
@click.option(
    "--panel",
    "panel_name",
    type=click.Choice(["auto", *PROFILES]),
    default=None,
    help="Override [display] panel of the configuration.",
)
def display_command(once: bool, panel_name: str | None) -> None:
    """Run the wall: redraw the panel after each result, and answer its buttons."""
    # Long: the wall's start-up in order (store or its damage, panel, buttons, signals, the loop).
    from display.refresh import Wall
    from display.wall import DamagedDatabase
    from kiosk.backup import quick_check
    from kiosk.board_source import BoardSource
    from kiosk.config import load
    from kiosk.store import Store

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    store: Store | None = None
    try:
        folder = data_folder()
        # Before opening: opening an emptied file would make it a new, empty club.
        damage = quick_check(folder)
        if damage is None:
            store = Store.open(folder)
            config = store.config
        else:
            config = load(folder)
            fix = f"semedori restore {damage.backup}" if damage.backup else "no good backup in DATA/backups"
            log.error(
                "the database in %s is damaged (%s); the wall says so. Restore a backup: %s", folder, damage.detail, fix
            )
        backup = damage.backup.name if damage and damage.backup else None
        source: BoardSource = store if store is not None else DamagedDatabase(config, backup)
        table = dict(config.extra.get("display", {}))
        if panel_name:
            table["panel"] = panel_name
        settings = parse(table)
        panel = open_panel(settings, folder)
    except (SemedoriError, PanelError) as error:
        fail(error, terminal.language(data_folder()))
    from kiosk.clockfile import current

    # The kiosk's clock: the phones' time while the Pi has no NTP (kiosk/clock.py).
    wall = Wall(source, panel, settings, now=lambda: club_now(config, current(folder, datetime.now(UTC))[0]))
    if once:
        wall.refresh()
        if store:
            store.close()
        if isinstance(panel, AwaitedPanel) and panel.found is None:
            from display.panels import NoPanelError
            from kiosk.wallstatus import NO_PANEL

            fail(NoPanelError(NO_PANEL), terminal.language(folder))
        return
    buttons = start_buttons(settings, panel, wall.press)
    if isinstance(panel, AwaitedPanel) and panel.found is None:

        def found_later(found: InkyPanel) -> None:
            nonlocal buttons
            buttons = start_buttons(settings, found, wall.press)

        panel.on_found = found_later
    stop = threading.Event()

    def stopping(*_: object) -> None:
        stop.set()
        wall.wake.set()

    signal.signal(signal.SIGTERM, stopping)
    try:
        wall.run(stop)
    except KeyboardInterrupt:
        pass
    finally:
        if buttons:
            buttons.close()
        if store:
            store.close()
